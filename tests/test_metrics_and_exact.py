"""Metrics against the definitions, and the LP against known values."""

import numpy as np
import pytest

from rmcore import MatrixGame, best_response, exploitability, nash_conv, preset, regret_bound, solve_exactly
from rmcore.checkpoints import checkpoints_between, kept

from . import known_values, naive


@pytest.mark.parametrize("seed", range(5))
def test_gains_match_the_definition(seed):
    rng = np.random.default_rng(seed)
    game = preset("random-general-sum", rows=4, cols=5, seed=seed)
    x, y = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(5))
    g1, g2 = naive.gains(game.row_payoffs.tolist(), game.col_payoffs.tolist(), x.tolist(), y.tolist())
    gains = [best_response(game, (x, y), player).gain for player in (1, 2)]
    assert gains == [pytest.approx(g1, abs=1e-13), pytest.approx(g2, abs=1e-13)]
    assert nash_conv(game, game.policy(x, y)) == pytest.approx(g1 + g2, abs=1e-13)
    assert nash_conv(game, {"row": x, "col": y}) == nash_conv(game, (x, y))


def test_zero_sum_nash_conv_formula_and_exploitability():
    game = preset("rps-crash")
    x, y = np.array([0.5, 0.2, 0.3]), np.array([0.1, 0.6, 0.3])
    A = game.row_payoffs
    assert nash_conv(game, (x, y)) == pytest.approx(max(A @ y) - min(x @ A), abs=1e-14)
    assert exploitability(game, (x, y)) == pytest.approx(nash_conv(game, (x, y)) / 2)
    with pytest.raises(ValueError, match="zero-sum"):
        exploitability(preset("prisoners-dilemma"), ([1, 0], [1, 0]))


def test_bad_strategies_are_explained():
    game = preset("rps")
    with pytest.raises(ValueError, match="sums to 0.9"):
        nash_conv(game, ([0.3, 0.3, 0.3], [1, 0, 0]))
    with pytest.raises(ValueError, match="has 2 entries"):
        nash_conv(game, ([0.5, 0.5], [1, 0, 0]))
    with pytest.raises(ValueError, match="negative"):
        nash_conv(game, ([1.5, -0.5, 0], [1, 0, 0]))
    with pytest.raises(ValueError, match="MatrixGame or a TreeGame"):
        nash_conv([[1]], ([1], [1]))
    with pytest.raises(ValueError, match="'row' and 'col'"):
        nash_conv(game, {"row": [1, 0, 0]})
    with pytest.raises(ValueError, match="player must be 1"):
        best_response(game, ([1, 0, 0], [1, 0, 0]), 3)


@pytest.mark.parametrize("name", ["kuhn", "rps-crash", "battle-of-sexes"])
def test_one_measure_for_both_families_the_gains_sum_to_nash_conv_and_match_the_solver(name):
    """A solver's metrics, rmcore.nash_conv and rmcore.best_response agree, on a tree and a matrix alike."""
    import rmcore

    game = rmcore.KUHN if name == "kuhn" else preset(name)
    solver = (
        rmcore.CFRSolver(game, "cfr")
        if name == "kuhn"
        else rmcore.MatrixSolver(game, "rm+", start=([3, 1, 1], [1, 1, 3]) if game.shape == (3, 3) else None)
    )
    solver.run(37)
    policy, metrics = solver.average_policy(), solver.metrics()
    responses = [best_response(game, policy, player) for player in (1, 2)]
    assert [r.gain for r in responses] == [pytest.approx(g, abs=1e-12) for g in metrics.br_gains]
    assert nash_conv(game, policy) == pytest.approx(metrics.nash_conv, abs=1e-12)
    assert sum(r.gain for r in responses) == pytest.approx(metrics.nash_conv, abs=1e-12) and metrics.nash_conv > 1e-4
    assert responses[0].value - responses[0].gain == pytest.approx(metrics.game_value, abs=1e-12)
    if game is not rmcore.KUHN and not game.is_zero_sum:
        with pytest.raises(ValueError, match="zero-sum"):
            exploitability(game, policy)
    else:
        assert exploitability(game, policy) == pytest.approx(metrics.exploitability, abs=1e-12)
    for player, response in zip((1, 2), responses):  # the best response is one: nothing gains against it
        assert best_response(game, response.policy, player).gain == pytest.approx(0.0, abs=1e-12)


def test_regret_bound_and_its_validation():
    assert regret_bound(4.0, 3, 12) == pytest.approx(2.0)
    for args in [(-1, 3, 10), (1, 0, 10), (1, 3, 0)]:
        with pytest.raises(ValueError):
            regret_bound(*args)


@pytest.mark.parametrize(
    "name,value,row",
    [
        ("rps", 0.0, (1 / 3,) * 3),
        ("rps-crash", 0.0, known_values.RPS_CRASH_EQUILIBRIUM),
        ("matching-pennies", 0.0, (0.5, 0.5)),
    ],
)
def test_lp_known_values(name, value, row):
    solution = solve_exactly(preset(name))
    assert solution.game_value == pytest.approx(value, abs=1e-9) and solution.nash_conv < 1e-9
    np.testing.assert_allclose(solution.policy["row"], row, atol=1e-9)


def test_lp_on_a_game_with_a_saddle_point_and_asymmetric_shape():
    game = MatrixGame([[3, 1, 4], [2, 0, 1]])  # row 1 dominates; column 2 is the saddle
    solution = solve_exactly(game)
    assert solution.game_value == pytest.approx(1.0)
    assert solution.policy["row"] == pytest.approx((1.0, 0.0)) and solution.policy["col"] == pytest.approx((0, 1, 0))
    with pytest.raises(ValueError, match="zero-sum"):
        solve_exactly(preset("chicken"))


@pytest.mark.parametrize("stride", [1, 7, 60])
def test_checkpoint_schedule_only_ever_drops_past_points_and_starts_at_the_first_iterate(stride):
    previous, previous_stop = set(), 0
    for stop in [1, 5, 50, 59, 60, 61, 999, 10**4, 10**6, 10**9]:
        current = set(checkpoints_between(0, stop, 100, stride).tolist())
        assert 0 < len(current) <= 100 and max(current) <= stop and min(current) == 1
        # After the first iterate, at most one point in `stride` iterations.
        assert all(p % stride == 0 for p in current - {1})
        # Points up to the previous stop are a subset of what was recorded then ...
        assert {p for p in current if p <= previous_stop} <= previous
        # ... and `kept` agrees with the schedule about which of them survive.
        survivors = np.array(sorted(previous), dtype=np.int64)
        assert set(survivors[kept(survivors, stop, 100, stride)].tolist()) == {p for p in current if p <= previous_stop}
        # New points are exactly checkpoints_between(previous_stop, stop).
        fresh = checkpoints_between(previous_stop, stop, 100, stride)
        assert {p for p in current if p > previous_stop} == set(fresh.tolist())
        previous, previous_stop = current, stop
