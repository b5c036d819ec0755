"""Hedge's exponential (``_kernels.softmax_weight``): against the exact value, the C library, the plain-Python twin, and
what it does to a Hedge run that drifts to the boundary."""

import decimal
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rmcore import MatrixSolver, _kernels, _runtime, preset

from . import naive_rules

SMALLEST_NORMAL = 2.0**-1022
LOG_SMALLEST_NORMAL = math.log(SMALLEST_NORMAL)


def _arguments(count=6000, seed=1):
    """Logits less the largest: spread over the whole normal range, near 0, and near the flush threshold."""
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [
            rng.uniform(LOG_SMALLEST_NORMAL, 0.0, count),
            -rng.exponential(1e-3, count // 3),
            rng.uniform(LOG_SMALLEST_NORMAL, LOG_SMALLEST_NORMAL + 2.0, count // 3),
        ]
    )


def _units_from_exact(value, x):
    """|value - e^x| in units in the last place of e^x, e^x to 40 digits."""
    exact = decimal.Decimal(float(x)).exp(decimal.Context(prec=40))
    return float(abs(decimal.Decimal(float(value)) - exact) / decimal.Decimal(math.ulp(float(exact))))


def test_within_half_a_unit_in_the_last_place_and_a_little_as_the_c_library_is():
    arguments = _arguments()
    ours = np.array([_kernels.softmax_weight(x) for x in arguments])
    theirs = np.array([math.exp(x) for x in arguments])
    # Over the normal range the two differ by one unit in about 2 inputs of 1000 (glibc), where the exact value lies
    # near halfway between two doubles and the C library is as far from it; both stay within 0.51 of a unit. Within
    # seven binades of 2^-1022 the product 2^q 2^(j/N) (e^r - 1) is itself subnormal: 0.75 of a unit there.
    upper = arguments >= math.log(2.0**-1015)
    differ = np.flatnonzero((ours != theirs) & upper)
    assert len(differ) < 0.01 * upper.sum()
    assert max(_units_from_exact(ours[i], arguments[i]) for i in differ) <= 0.51
    assert all(_units_from_exact(theirs[i], arguments[i]) >= 0.49 for i in differ)
    lowest = np.flatnonzero(~upper)
    assert max(_units_from_exact(ours[i], arguments[i]) for i in lowest) <= 0.76


def test_exact_values_and_the_ends():
    assert _kernels.softmax_weight(0.0) == 1.0 and _kernels.softmax_weight(-0.0) == 1.0
    assert _kernels.softmax_weight(-math.log(2.0)) == 0.5
    assert _kernels.softmax_weight(-math.inf) == 0.0  # the logit of an action the start excludes
    assert math.isnan(_kernels.softmax_weight(math.nan))
    # Below 2^-1022 a weight is 0 rather than a subnormal number; just above, it is the normal double.
    assert _kernels.softmax_weight(LOG_SMALLEST_NORMAL - 1e-9) == 0.0
    assert _kernels.softmax_weight(-745.2) == 0.0 and _kernels.softmax_weight(-1e300) == 0.0
    just_above = _kernels.softmax_weight(LOG_SMALLEST_NORMAL + 1e-9)
    assert SMALLEST_NORMAL <= just_above == pytest.approx(math.exp(LOG_SMALLEST_NORMAL + 1e-9), rel=1e-15)


def test_the_plain_python_twin_gives_the_same_bits():
    """What runs while the kernels compile is the same function as plain Python, with no warning on the way."""
    twin = _runtime.python_twin()
    arguments = np.concatenate([_arguments(count=600), [-math.inf, -745.0, -746.0, -1e300, 0.0]])
    with np.errstate(over="ignore", invalid="raise", divide="raise"):
        plain = [twin.softmax_weight(np.float64(x)) for x in arguments]
    assert plain == [_kernels.softmax_weight(x) for x in arguments]


def test_a_kernel_compiled_with_fastmath_gets_the_same_bits(tmp_path):
    """A kernel's fastmath flags do not reach the exponential: in a fresh process with an empty cache, a fastmath
    caller compiled first (as a kernel is) gives the plain-Python twin's bits, and so does the cached build after it."""
    arguments = np.concatenate([_arguments(count=600), [-math.inf, -745.0, 0.0]])
    np.save(tmp_path / "arguments.npy", arguments)
    script = f"""
import numpy as np, numba
from rmcore import _kernels
@numba.njit(fastmath={{"reassoc", "contract", "arcp"}})
def caller(values, out):
    for i in range(values.shape[0]):
        out[i] = _kernels.softmax_weight(values[i])
values = np.load({str(tmp_path / "arguments.npy")!r})
out = np.empty_like(values)
caller(values, out)
np.save({str(tmp_path / "weights.npy")!r}, np.array([out, [_kernels.softmax_weight(x) for x in values]]))
"""
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    subprocess.run([sys.executable, "-c", script], check=True, env=environment, cwd=Path(__file__).parents[1])
    in_a_kernel, standalone = np.load(tmp_path / "weights.npy")
    twin = _runtime.python_twin()
    with np.errstate(over="ignore", invalid="raise", divide="raise"):
        plain = np.array([twin.softmax_weight(np.float64(x)) for x in arguments])
    assert np.array_equal(in_a_kernel, plain) and np.array_equal(standalone, plain)


def test_a_hedge_run_at_the_boundary_has_no_subnormal_probability_and_equals_the_plain_loop():
    """A large step drives Hedge's strategies to the boundary within a few hundred iterations: after 181 the plain loop
    (the C library's exp) holds probabilities under 2^-1022, the kernel holds 0 in their place, and nothing else
    moves."""
    game = preset("rps-crash")
    solver = MatrixSolver(game, "hedge", eta=20.0)
    solver.run(181)
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    avg_x, avg_y, _, _, cur_x, cur_y = naive_rules.reference_rule_run(A, B, 181, "hedge", eta=20.0)
    plain = np.array(cur_x + cur_y)
    assert np.any((plain > 0) & (plain < SMALLEST_NORMAL))  # the plain loop met subnormal probabilities
    current = np.concatenate([solver.current_strategies().row, solver.current_strategies().col])
    assert not np.any((current > 0) & (current < SMALLEST_NORMAL))
    np.testing.assert_allclose(current, plain, rtol=0, atol=1e-12)
    average = solver.average_strategies()
    np.testing.assert_allclose(np.concatenate([average.row, average.col]), avg_x + avg_y, rtol=0, atol=1e-12)
