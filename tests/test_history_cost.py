"""A history's rows are spaced by what a row costs, measured in the process (never by constants fitted on one machine):
once for each kind of solver, on a copy of its state, and a solver's stride is fixed by its first chunk."""

import math

import numpy as np
import pytest

import rmcore
from rmcore import checkpoints, config
from rmcore import solver as core

GAME = rmcore.preset("rps-crash")


@pytest.fixture
def measured(monkeypatch):
    """An empty cache of row costs, each measurement recorded and answered by ``costs`` (a list of the costs to give,
    in turn)."""
    calls, costs = [], []

    def measure(solver):
        calls.append(solver._cost_key())
        return costs[min(len(calls), len(costs)) - 1]

    monkeypatch.setattr(core, "_row_costs", {})
    monkeypatch.setattr(core, "_measure_row_cost", measure)
    return calls, costs


def test_config_holds_no_fitted_row_cost():
    fitted = [name for name in vars(config) if "ROW_WORK" in name or "ROW_BYTE" in name]
    assert fitted == []


def test_the_stride_is_twice_a_rows_measured_cost_over_the_share(measured):
    """With a row costing 5 iterations and a tenth of the run for the history, a row every 100 iterations: the rows of
    any run of at least 100 iterations, its first iterate's included, cost at most a tenth of it."""
    calls, costs = measured
    costs.append(5.0)
    solver = rmcore.MatrixSolver(GAME)
    assert solver.checkpoint_stride == checkpoints.stride_for(5.0, 1.0, config.HISTORY_SHARE) == 100
    for total in (100, 150, 199, 5_000):
        run = rmcore.MatrixSolver(GAME)
        run.run(total)
        iterations = run._record.iteration
        assert iterations[0] == 1 and (iterations[1:] % 100 == 0).all()
        assert iterations.shape[0] * 5.0 <= config.HISTORY_SHARE * total
    assert rmcore.MatrixSolver(GAME, history_share=0.5).checkpoint_stride == 20
    assert len(calls) == 1  # (one kind of solver: measured once)


def test_a_kind_is_measured_once_and_a_stride_is_fixed_by_the_first_chunk(measured):
    calls, costs = measured
    costs.extend([5.0, 2.0])
    first = rmcore.MatrixSolver(GAME, seed=1)
    first.run(1)
    twin = rmcore.MatrixSolver(GAME, seed=2)  # (another seed, the same kind)
    assert first.checkpoint_stride == twin.checkpoint_stride == 100 and len(calls) == 1
    other_variant = rmcore.MatrixSolver(GAME, "rm+").checkpoint_stride  # another kind
    same_size = rmcore.MatrixSolver(rmcore.preset("rps")).checkpoint_stride  # another game of its size: the same kind
    assert (other_variant, same_size) == (40, 100) and len(calls) == 2 and calls[1] != calls[0]
    core._row_costs.clear()  # a later measurement of the same kind leaves a solver that ran with its stride
    assert first.checkpoint_stride == 100 and rmcore.MatrixSolver(GAME).checkpoint_stride == 40
    first.run(2_000)
    assert (first._record.iteration[1:] % 100 == 0).all()


def test_chunked_runs_record_what_one_call_does(measured):
    _, costs = measured
    costs.append(0.3)  # (a stride of 6)
    whole, pieces = (rmcore.CFRSolver(rmcore.KUHN, "cfr") for _ in range(2))
    whole.run(1_000)
    for chunk in (1, 5, 94, 400, 500):
        pieces.run(chunk)
    assert whole.checkpoint_stride == pieces.checkpoint_stride == 6
    assert whole.history().to_frame().equals(pieces.history().to_frame())


def test_nothing_is_measured_where_every_point_is_kept_or_none(measured):
    calls, _ = measured
    dense, silent = rmcore.MatrixSolver(GAME, history_share=None), rmcore.MatrixSolver(GAME, max_points=0)
    dense.run(100), silent.run(100)
    assert dense.checkpoint_stride == silent.checkpoint_stride == 1 and calls == []
    assert dense._record.iteration.tolist() == list(range(1, 101))


@pytest.mark.parametrize(
    "make", [lambda: rmcore.MatrixSolver(GAME, "prm+", seed=3), lambda: rmcore.CFRSolver(rmcore.KUHN, seed=3)]
)
def test_a_measurement_runs_on_a_copy_and_gives_a_number(make, monkeypatch):
    """Measured for real (no figure is checked: tests do not time): a finite cost of at least 0, remembered, and the
    solver measured is left as it was."""
    monkeypatch.setattr(core, "_row_costs", {})
    solver, untouched = make(), make()
    cost = core.measured_row_cost(solver)
    assert math.isfinite(cost) and cost >= 0.0 and core.measured_row_cost(make()) == cost
    assert solver.iteration == 0 and len(solver._record.iteration) == 0
    for ours, theirs in zip(solver._state, untouched._state):
        if isinstance(ours, np.ndarray):
            np.testing.assert_array_equal(ours, theirs)
    solver.run(10)
    untouched.run(10)
    assert solver.history().to_frame().equals(untouched.history().to_frame())


def test_a_measurement_takes_a_solver():
    with pytest.raises(ValueError, match="measured_row_cost takes a solver"):
        core.measured_row_cost("rps")


def test_a_rows_operation_count_is_what_it_computes():
    """The counts that size what runs as plain Python while the kernels compile: a matrix row reads the cells four
    times and writes three arrays per player padded to the wider one; a tree row sweeps the nodes six times."""
    assert rmcore.MatrixSolver(rmcore.preset("random-zero-sum", rows=10, cols=1000, seed=1))._row_operations() == (
        4 * 10 * 1000 + 2 * 1010 + 6 * 1000
    )
    kuhn = rmcore.CFRSolver(rmcore.KUHN)
    nodes, infosets = rmcore.KUHN.tree.player.shape[0], len(rmcore.KUHN.infosets)
    assert kuhn._row_operations() == 6 * nodes + 3 * infosets * 2
