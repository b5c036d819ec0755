"""One measure under one name in both families: NashConv (the sum of the players' best-response gains), computed by
one route, so that the library function and a solver's metrics give the same number to the last bit."""

from __future__ import annotations

import numpy as np
import pytest

import rmcore
from rmcore.solver import METRIC_COLUMNS

SHAPES = [(2, 2), (3, 3), (4, 7), (9, 5), (17, 20), (40, 33)]


@pytest.mark.parametrize("shape", SHAPES, ids=[f"{m}x{n}" for m, n in SHAPES])
@pytest.mark.parametrize("zero_sum", [True, False], ids=["zero-sum", "general-sum"])
def test_nash_conv_of_a_matrix_solvers_policy_is_its_metrics_nash_conv_exactly(shape, zero_sum):
    rng = np.random.default_rng(sum(shape) + zero_sum)
    for trial in range(3):
        row = rng.normal(size=shape)
        game = rmcore.MatrixGame(row, None if zero_sum else rng.normal(size=shape))
        solver = rmcore.MatrixSolver(
            game, "rm+", averaging="linear", start=(rng.random(shape[0]), rng.random(shape[1]))
        )
        solver.run(int(rng.integers(1, 60)))
        metrics, policy = solver.metrics(), solver.average_policy()
        assert rmcore.nash_conv(game, policy) == metrics.nash_conv, trial
        assert rmcore.nash_conv(game, solver.current_policy()) == metrics.nash_conv_current, trial
        gains = [rmcore.best_response(game, policy, player).gain for player in (1, 2)]
        assert tuple(gains) == tuple(metrics.br_gains), trial
        if zero_sum:
            assert rmcore.exploitability(game, policy) == metrics.exploitability == metrics.nash_conv / 2


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "external-sampling"])
@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_nash_conv_of_a_tree_solvers_policy_is_its_metrics_nash_conv_exactly(algorithm, name):
    game = rmcore.tree_game(name)
    solver = rmcore.CFRSolver(game, algorithm, seed=3)
    for _ in range(3):
        solver.run(7)
        metrics = solver.metrics()
        assert rmcore.nash_conv(game, solver.average_policy()) == metrics.nash_conv
        assert rmcore.nash_conv(game, solver.current_policy()) == metrics.nash_conv_current
        assert metrics.exploitability == metrics.nash_conv / 2 and metrics.gap == metrics.nash_conv


def test_both_families_histories_have_the_same_metric_columns_and_follow_nash_conv():
    matrix = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    tree = rmcore.CFRSolver(rmcore.KUHN, "cfr+")
    for solver in (matrix, tree):
        solver.run(20)
    histories = [matrix.history(), tree.history()]
    assert [list(h.metrics) for h in histories] == [list(METRIC_COLUMNS)] * 2
    for history in histories:
        assert history.gap_name == "nash_conv"
        assert np.array_equal(history.gap, history.metrics["nash_conv"])
        gains = history.metrics["br_gain_1"] + history.metrics["br_gain_2"]
        np.testing.assert_allclose(history.metrics["nash_conv"], gains, rtol=1e-12, atol=1e-15)
    assert matrix.metrics().gap_name == tree.metrics().gap_name == "nash_conv"


def test_a_general_sum_game_has_no_exploitability_but_its_nash_conv():
    solver = rmcore.MatrixSolver(rmcore.preset("prisoners-dilemma"))
    solver.run(10)
    metrics = solver.metrics()
    assert metrics.exploitability is None and metrics.nash_conv == metrics.gap >= 0


def test_a_history_read_by_its_old_exploitability_name_warns_and_gives_half_the_nash_conv():
    solver = rmcore.CFRSolver(rmcore.KUHN)
    solver.run(10)
    history = solver.history()
    with pytest.warns(DeprecationWarning, match="nash_conv"):
        old = history.metrics["exploitability"]
    assert np.array_equal(old, history.metrics["nash_conv"] / 2)
    assert "exploitability" not in history.metrics
