"""The loops ``benchmarks/floors.py`` times as the 3x3 iteration's floors compute the kernels' numbers, to the last bit:
otherwise they would time other arithmetic."""

import numpy as np
import pytest

import rmcore
from benchmarks import floors


@pytest.mark.parametrize(
    ("name", "options"), [("rps-crash", {}), ("random-zero-sum", {"rows": 4, "cols": 6, "seed": 3})]
)
def test_the_floor_loops_compute_the_kernels_numbers(name, options):
    kernels = floors.kernels_matched(rmcore.preset(name, **options), iterations=500)
    assert set(kernels) == {"rm", "hedge"}


def test_a_loop_that_computes_other_numbers_is_refused(monkeypatch):
    loop = floors._self_play_over_arrays

    def off_by_one_rounding(*arguments):  # the last bit of one regret
        regrets, sums = loop(*arguments)
        regrets[0] = np.nextafter(regrets[0], np.inf)
        return regrets, sums

    monkeypatch.setattr(floors, "_self_play_over_arrays", off_by_one_rounding)
    with pytest.raises(RuntimeError, match="no longer computes the kernel's numbers"):
        floors.kernels_matched(rmcore.preset("rps-crash"), iterations=50)
