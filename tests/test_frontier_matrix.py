"""Smooth predictive RM+ and extragradient RM+ (Cai et al. 2023) against slow references (``naive_smooth.py``; SPRM+ in
the order of the SOGRM authors' ``SPRMSolver``), and the last-iterate facts of Cai et al.'s 3x3 game."""

import numpy as np
import pytest

import rmcore

from .naive_smooth import ExRMSolver, SPRMSolver, duality_gap

#: Cai et al.'s 3x3 game (the row player maximises; value 1/4).
CAI = [[3, 0, -3], [0, 3, -4], [0, 0, 1]]
#: SPRM+'s last-iterate duality gap with eta = 0.1 from the uniform start, by the SOGRM authors' code
#: (../shared/REFERENCE.md), after 1, 2, 3, 5 and 10 iterations.
SPRM_PUBLISHED = {1: 2.4, 2: 0.8956, 3: 0.7564, 5: 0.4968, 10: 0.3695}


def _cai():
    return rmcore.preset("cai-3x3")


def test_the_preset_is_cai_et_als_game_with_value_one_quarter():
    game = _cai()
    assert game.row_payoffs.tolist() == CAI and game.is_zero_sum
    solution = rmcore.solve_exactly(game)
    assert solution.game_value == pytest.approx(0.25, abs=1e-12)
    assert np.allclose(game.equilibria[0].row, solution.policy["row"])
    assert np.allclose(game.equilibria[0].col, solution.policy["col"])


@pytest.mark.parametrize("rule,reference", [("sprm+", SPRMSolver), ("exrm+", ExRMSolver)])
def test_the_last_iterate_equals_the_reference_at_every_iteration(rule, reference):
    """Cai et al.'s game, eta = 0.1, simultaneous self-play: the current strategies (the last iterate) and their duality
    gap after each of 1,000 iterations; ExRM+'s average of the profiles it played, too."""
    solver = rmcore.MatrixSolver(_cai(), rule, eta=0.1, max_points=0)
    slow = reference(CAI, eta=0.1)
    sums = [np.zeros(3), np.zeros(3)]
    for t in range(1, 1001):
        solver.run(1)
        slow.iterate()
        current = solver.current_policy()
        assert np.abs(current["row"] - slow.current[0]).max() <= 1e-13, t
        assert np.abs(current["col"] - slow.current[1]).max() <= 1e-13, t
        assert solver.metrics().nash_conv_current == pytest.approx(duality_gap(CAI, *slow.current), abs=1e-13), t
        if rule == "exrm+":
            sums = [s + np.array(p) for s, p in zip(sums, slow.played)]
    if rule == "exrm+":
        average = solver.average_policy()
        assert np.abs(average["row"] - sums[0] / 1000).max() <= 1e-13
        assert np.abs(average["col"] - sums[1] / 1000).max() <= 1e-13


def test_sprm_plus_gives_the_authors_numbers():
    solver = rmcore.MatrixSolver(_cai(), "sprm+", eta=0.1, max_points=0)
    for t in range(1, 101):
        solver.run(1)
        if t in SPRM_PUBLISHED:
            assert round(solver.metrics().nash_conv_current, 4) == SPRM_PUBLISHED[t], t
    assert solver.metrics().nash_conv_current == pytest.approx(2.81e-3, abs=5e-6)


@pytest.mark.parametrize("rule", ["sprm+", "exrm+"])
def test_the_smoothed_rules_last_iterates_reach_machine_precision_within_1000_iterations(rule):
    solver = rmcore.MatrixSolver(_cai(), rule, eta=0.1, max_points=0)
    solver.run(1000)
    assert solver.metrics().nash_conv_current < 1e-12
    current = solver.current_policy()
    solution = rmcore.solve_exactly(_cai())
    assert np.abs(current["row"] - solution.policy["row"]).max() < 1e-12
    assert np.abs(current["col"] - solution.policy["col"]).max() < 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("rule,published", [("rm+", 0.308), ("prm+", 0.622)])
def test_rm_plus_and_prm_plus_last_iterates_stay_far_from_equilibrium(rule, published):
    """Their averages converge (nash_conv below 0.01), their last iterates do not: above 0.1 at 100,000 iterations,
    where the SOGRM authors' code gives the same values (0.308, 0.622)."""
    solver = rmcore.MatrixSolver(_cai(), rule, max_points=0)
    solver.run(100_000)
    metrics = solver.metrics()
    assert metrics.nash_conv_current > 0.1
    assert round(metrics.nash_conv_current, 3) == published
    assert metrics.nash_conv < 0.01


@pytest.mark.parametrize("rule,reference", [("sprm+", SPRMSolver), ("exrm+", ExRMSolver)])
@pytest.mark.parametrize("game", ["random 5x7", "general-sum 3x4"])
def test_equal_to_the_reference_on_other_games(rule, reference, game):
    matrix = (
        rmcore.preset("random-zero-sum", rows=5, cols=7, seed=3)
        if game == "random 5x7"
        else rmcore.preset("random-general-sum", rows=3, cols=4, seed=2)
    )
    B = None if matrix.is_zero_sum else matrix.col_payoffs.tolist()
    solver = rmcore.MatrixSolver(matrix, rule, eta=0.5, max_points=0)
    slow = reference(matrix.row_payoffs.tolist(), B, eta=0.5)
    for t in range(1, 301):
        solver.run(1)
        slow.iterate()
        current = solver.current_policy()
        assert np.abs(current["row"] - slow.current[0]).max() <= 1e-12, t
        assert np.abs(current["col"] - slow.current[1]).max() <= 1e-12, t


def test_sprm_plus_plays_its_start_first_and_follows_the_reference_from_there():
    start = ([1, 2, 7], [5, 3, 2])
    solver = rmcore.MatrixSolver(_cai(), "sprm+", eta=0.1, start=start, max_points=0)
    first = solver.current_policy()
    assert np.allclose(first["row"], [0.1, 0.2, 0.7]) and np.allclose(first["col"], [0.5, 0.3, 0.2])
    slow = SPRMSolver(CAI, eta=0.1, start=start)
    for _ in range(200):
        solver.run(1)
        slow.iterate()
    assert np.abs(solver.current_policy()["row"] - slow.current[0]).max() <= 1e-13


@pytest.mark.parametrize("rule", ["sprm+", "exrm+"])
def test_against_a_fixed_opponent_the_learner_finds_the_best_response(rule):
    """Rock-Paper-Scissors against (0.4, 0.3, 0.3): the best response is pure Paper, for the average and the last
    iterate alike."""
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), rule, opponent={"col": [0.4, 0.3, 0.3]}, max_points=0)
    solver.run(2000)
    assert solver.metrics().br_gains.player_1 < 1e-2
    assert np.allclose(solver.current_policy()["row"], [0.0, 1.0, 0.0])
    assert np.array_equal(solver.current_policy()["col"], [0.4, 0.3, 0.3])


def test_sprm_plus_samples_and_alternates_and_any_split_gives_the_same_bits():
    for variant in ({"sampling": "sampled"}, {"updates": "alternating"}, {"averaging": "quadratic"}):
        whole, split = (rmcore.MatrixSolver(_cai(), "sprm+", seed=4, max_points=20, **variant) for _ in range(2))
        whole.run(500)
        for n in (3, 97, 400):
            split.run(n)
        assert np.array_equal(whole.current_policy()["row"], split.current_policy()["row"])
        assert np.array_equal(whole.history().metrics["nash_conv"], split.history().metrics["nash_conv"])
        assert np.isfinite(whole.metrics().nash_conv)


def test_the_variants_name_their_step_and_exrm_plus_refuses_other_forms():
    assert rmcore.MatrixVariant("sprm+").label == "sprm+(η=0.1) · expected · simultaneous · uniform"
    assert rmcore.MatrixVariant.parse("exrm+/eta=0.05/linear").eta == 0.05
    with pytest.raises(ValueError, match="exrm\\+ evaluates both players' regrets .* no 'alternating' form"):
        rmcore.MatrixVariant("exrm+", updates="alternating")
    with pytest.raises(ValueError, match="no 'sampled' form"):
        rmcore.MatrixSolver(_cai(), "exrm+", sampling="sampled")
    with pytest.raises(ValueError, match="eta must be a finite number"):
        rmcore.MatrixSolver(_cai(), "sprm+", eta=-1)
    with pytest.raises(ValueError, match="takes a number"):
        rmcore.MatrixSolver(_cai(), "sprm+", eta="anytime")
