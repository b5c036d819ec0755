"""One protocol, every solver: the same verbs and guarantees for MatrixSolver and CFRSolver.

``run(n)`` in any split gives identical results; policies, histories and regrets are copies (or
read-only), never live internal arrays; histories are bounded; and ``metrics()`` agrees with an
independent computation (the slow references in tests/).
"""

import numpy as np
import pytest

import rmcore

from . import naive, naive_cfr

SOLVERS = {
    "matrix expected": lambda points=2000: rmcore.MatrixSolver(rmcore.preset("rps-crash"), "rm+", max_points=points),
    "matrix sampled": lambda points=2000: rmcore.MatrixSolver(
        rmcore.preset("random-general-sum", rows=3, cols=4, seed=2),
        "prm+",
        "sampled",
        "alternating",
        "linear",
        seed=4,
        max_points=points,
    ),
    "matrix fixed opponent": lambda points=2000: rmcore.MatrixSolver(
        rmcore.preset("rps"), opponent={"col": [0.5, 0.2, 0.3]}, max_points=points
    ),
    "kuhn cfr": lambda points=2000: rmcore.CFRSolver(rmcore.KUHN, "cfr", max_points=points),
    "kuhn chance-sampling": lambda points=2000: rmcore.CFRSolver(
        rmcore.KUHN, "chance-sampling", "simultaneous", seed=9, max_points=points
    ),
}
pytestmark = pytest.mark.parametrize("make", SOLVERS.values(), ids=SOLVERS.keys())


def _same_history(a: rmcore.History, b: rmcore.History) -> None:
    np.testing.assert_array_equal(a.iterations, b.iterations)
    np.testing.assert_array_equal(a.average, b.average)
    np.testing.assert_array_equal(a.current, b.current)
    assert a.metrics.keys() == b.metrics.keys()
    for name in a.metrics:
        np.testing.assert_array_equal(a.metrics[name], b.metrics[name])


def test_any_split_gives_identical_results(make):
    whole, pieces = make(60), make(60)
    whole.run(3000)
    for chunk in (1, 2, 97, 400, 500, 2000):
        pieces.run(chunk)
    assert whole.iteration == pieces.iteration == 3000
    _same_history(whole.history(), pieces.history())
    assert whole.metrics() == pieces.metrics()
    assert whole.average_policy() == pieces.average_policy() and whole.current_policy() == pieces.current_policy()


def test_results_are_copies_not_views(make):
    solver = make()
    solver.run(50)
    policy, history = solver.average_policy(), solver.history()
    for array in (policy.probabilities, history.average, history.iterations, history.gap):
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 0
    regrets = solver.cumulative_regrets()
    first = regrets[0] if isinstance(regrets, tuple) else regrets
    first[...] = 1e9  # a copy: the solver does not see this
    before = solver.current_policy()
    solver.run(1)
    solver.run(0)
    assert not np.shares_memory(solver.current_policy().probabilities, before.probabilities)
    assert (
        np.abs(solver.cumulative_regrets()[0] if isinstance(regrets, tuple) else solver.cumulative_regrets()).max()
        < 1e8
    )


def test_history_is_bounded_ends_now_and_agrees_with_metrics(make):
    solver = make(40)
    solver.run(20_000)
    history = solver.history()
    assert len(history) <= 41 and history.iterations[-1] == 20_000
    assert np.all(np.diff(history.iterations) > 0)
    metrics = solver.metrics()
    assert history.gap[-1] == metrics.gap
    frame = history.to_frame()
    assert len(frame) == len(history) and frame["iteration"].iloc[-1] == 20_000
    assert history.policy("average") == solver.average_policy()
    np.testing.assert_allclose(history.average.sum(axis=2)[:, : len(history.infosets)], 1.0, atol=1e-12)


def test_metrics_agree_with_an_independent_computation(make):
    solver = make()
    solver.run(777)
    policy, metrics = solver.average_policy(), solver.metrics()
    if isinstance(solver, rmcore.MatrixSolver):
        game = solver.game
        g1, g2 = naive.gains(
            game.row_payoffs.tolist(), game.col_payoffs.tolist(), policy["row"].tolist(), policy["col"].tolist()
        )
        assert metrics.br_gains.player_1 == pytest.approx(g1, abs=1e-12)
        if solver.is_self_play:
            assert metrics.br_gains.player_2 == pytest.approx(g2, abs=1e-12)
            assert metrics.nash_conv == pytest.approx(g1 + g2, abs=1e-12)
    else:
        table = policy.to_dict()
        brute = [naive_cfr.best_response_value(table, player) for player in (0, 1)]
        value = sum(naive_cfr.expected(table, "", cards) for cards in naive_cfr.DEALS) / 6
        assert metrics.nash_conv == pytest.approx(sum(brute), abs=1e-12)
        assert metrics.game_value == pytest.approx(value, abs=1e-12)
        assert metrics.br_gains == pytest.approx((brute[0] - value, brute[1] + value), abs=1e-12)
        assert metrics.exploitability == pytest.approx(rmcore.nash_conv(rmcore.KUHN, policy) / 2, abs=1e-15)
