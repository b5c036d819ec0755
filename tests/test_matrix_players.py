"""Games of three players or more on the matrix kernel: every per-player rule against a slow reference written from
the definitions (tests/naive_players.py), the plain-Python twin to the last bit, NashConv by one route, the CE and
CCE gaps of the joint play, fixed players, and Jordan's matching pennies (CFR's average does not find the Nash
equilibrium, while the joint play reaches the coarse correlated equilibria)."""

from __future__ import annotations

import numpy as np
import pytest

import rmcore
from rmcore import NormalFormGame
from rmcore.matrix.metrics import player_gains

from .naive_players import reference_run
from .test_kernel_twin import _twin_run


def _random_game(shape, seed):
    rng = np.random.default_rng(seed)
    return NormalFormGame([rng.integers(-3, 4, size=shape).astype(float) for _ in shape], name="random")


GAME = _random_game((2, 3, 2), 7)
START = ([0.7, 0.3], [0.2, 0.5, 0.3], [0.4, 0.6])
RULES = ["rm", "rm+", "prm+", "hedge", "optimistic-hedge", "fictitious-play", "swap-rm"]


@pytest.mark.parametrize("sampling", ["expected", "sampled"])
@pytest.mark.parametrize("algorithm", RULES)
def test_each_rule_on_three_players_equals_the_reference(algorithm, sampling):
    eta = 0.3 if algorithm in rmcore.matrix.STEP_ALGORITHMS else None
    solver = rmcore.MatrixSolver(GAME, algorithm, sampling, start=START, eta=eta, seed=3, joint=True)
    words = solver._state.rng.copy()
    solver.run(40)
    average, current, joint = reference_run(
        GAME, algorithm, 40, eta=eta or 0.1, start=START, sampling=sampling, rng_words=words
    )
    names = [f"player {p}" for p in (1, 2, 3)]
    for p, name in enumerate(names):
        np.testing.assert_allclose(solver.average_policy()[name], average[p], rtol=0, atol=1e-12)
        np.testing.assert_allclose(solver.current_policy()[name], current[p], rtol=0, atol=1e-12)
    np.testing.assert_allclose(solver.joint_distribution(), joint, rtol=0, atol=1e-12)
    metrics = solver.metrics()
    assert metrics.nash_conv == pytest.approx(sum(player_gains(GAME, average)), abs=1e-12)
    assert len(metrics.br_gains) == 3 and metrics.exploitability is None


@pytest.mark.parametrize(
    "algorithm, sampling", [("swap-rm", "sampled"), ("internal-rm", "sampled"), ("gda", "expected")]
)
def test_the_plain_python_twin_gives_the_same_bits_on_four_players(algorithm, sampling):
    game = _random_game((2, 2, 3, 2), 1)
    eta = 0.2 if algorithm == "gda" else None
    compiled, plain = (
        rmcore.MatrixSolver(game, algorithm, sampling, eta=eta, seed=5, history_share=None, joint=True)
        for _ in range(2)
    )
    compiled.run(60)
    record = _twin_run(plain, 60)
    for name in compiled._state._fields:
        assert np.array_equal(getattr(compiled._state, name), getattr(plain._state, name)), name
    for field in record._fields:
        assert np.array_equal(getattr(compiled._record, field), getattr(record, field), equal_nan=True), field


def test_nash_conv_and_the_correlated_gaps_are_one_route():
    solver = rmcore.MatrixSolver(GAME, "rm", start=START, joint=True)
    solver.run(500)
    metrics, policy = solver.metrics(), solver.average_policy()
    assert rmcore.nash_conv(GAME, policy) == metrics.nash_conv  # (the kernel measures both)
    assert tuple(metrics.br_gains) == player_gains(GAME, policy)
    sigma = solver.joint_distribution()
    assert sigma.shape == (2, 3, 2)
    assert rmcore.cce_gap(GAME, sigma) == metrics.cce_gap and rmcore.ce_gap(GAME, sigma) == metrics.ce_gap
    history = solver.history()
    assert {"br_gain_3", "average_regret_3", "regret_bound_3"} <= set(history.metrics)
    assert solver.joint_history().joint.shape[1:] == (2, 3, 2)


def test_matching_pennies_of_three_players_keeps_nash_conv_while_the_cce_gap_falls():
    """Jordan (1993): the unique Nash equilibrium mixes uniformly, and regret matching's average, started elsewhere,
    circles it (NashConv stays large) while the joint play's distance to the coarse correlated equilibria falls as
    every player's regret does (Hart & Mas-Colell 2000). (From the uniform start it sits at the equilibrium: CFR's, and
    OpenSpiel's, NashConv is then 0.)"""
    game = rmcore.preset("matching-pennies-3p")
    solver = rmcore.MatrixSolver(game, "rm", start=([0.9, 0.1], [0.6, 0.4], [0.2, 0.8]), joint=True)
    solver.run(20_000)
    metrics = solver.metrics()
    assert metrics.nash_conv > 0.5
    assert metrics.cce_gap < 0.01


def test_fixed_players_stay_and_the_learners_best_respond():
    game = rmcore.preset("matching-pennies-3p")
    alone = rmcore.MatrixSolver(game, "rm", opponent={2: [0.3, 0.7], 3: [0.5, 0.5]})
    alone.run(2_000)
    assert alone.learner == 1 and alone.gap_name == "br_gain_1"
    metrics = alone.metrics()
    assert metrics.nash_conv is None and metrics.br_gains[1:] == (None, None) and metrics.br_gains[0] < 1e-2
    assert list(alone.average_policy()["player 3"]) == [0.5, 0.5]
    pair = rmcore.MatrixSolver(game, "rm", opponent={3: [0.3, 0.7]})
    pair.run(100)
    gains = pair.metrics().br_gains
    assert pair.learner is None and pair.metrics().nash_conv == gains[0] + gains[1] and gains[2] is None
    last = rmcore.MatrixSolver(game, "rm", opponent={1: [1, 1], 2: [1, 3]})  # (player 1 fixed too: None, not NaN)
    last.run(100)
    metrics = last.metrics()
    assert metrics.gap_name == "br_gain_3" and metrics.gap == metrics.br_gains.of(3) >= 0
    for values in (metrics.br_gains, metrics.average_regret, metrics.regret_bound):
        assert values[:2] == (None, None) and values.of(3) is not None


@pytest.mark.parametrize(
    "options, words",
    [
        (dict(algorithm="exrm+"), "runs on two-player games"),
        (dict(updates="alternating"), "updates simultaneously"),
        (dict(opponent={"col": [1, 0]}), "numbered 1 to 3"),
        (dict(opponent={4: [1, 0]}), "numbered 1 to 3"),
        (dict(opponent={1: [1, 0], 2: [1, 0], 3: [1, 0]}), "at least one must learn"),
        (dict(start=([1, 0], [1, 0])), "3 initial strategies"),
    ],
)
def test_what_three_players_cannot_take_is_refused_in_a_sentence(options, words):
    with pytest.raises(ValueError, match=words):
        rmcore.MatrixSolver(rmcore.preset("nau-2x2x2"), **options)


def test_cfr_on_the_tree_of_matching_pennies_sits_at_its_equilibrium_from_the_uniform_start_as_openspiels_does():
    """The turn-based tree of OpenSpiel's matching_pennies_3p: CFR starts at uniform play, the game's one Nash
    equilibrium, where every regret stays 0; rmcore's CFR and pyspiel's CFRSolver both have NashConv 0 at every
    iteration (the circling needs a start elsewhere, which the normal-form solver takes: the test above)."""
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game_as_turn_based("matching_pennies_3p")
    solver, theirs = rmcore.CFRSolver(rmcore.from_openspiel(spiel)), pyspiel.CFRSolver(spiel)
    for _ in range(20):
        solver.run(1)
        theirs.evaluate_and_update_policy()
        assert solver.metrics().nash_conv == 0.0 == pyspiel.nash_conv(spiel, theirs.average_policy())
