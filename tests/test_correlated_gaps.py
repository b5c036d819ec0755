"""The joint distribution of play and its distances from the correlated and coarse correlated equilibria
(:func:`rmcore.ce_gap`, :func:`rmcore.cce_gap`), held against OpenSpiel's ``ce_dist`` and ``cce_dist``."""

from __future__ import annotations

import numpy as np
import pyspiel  # (a dev dependency: a missing one is a failure)
import pytest

import rmcore
from rmcore import MatrixGame, MatrixSolver, preset

SHAPES = [(1, 3), (2, 2), (2, 5), (3, 3), (4, 2), (5, 6), (6, 6)]


def openspiel_gaps(game: MatrixGame, sigma: np.ndarray) -> tuple[float, float]:
    """``(cce_dist, ce_dist)`` of OpenSpiel for the joint distribution ``sigma``: the matrix game made turn-based, and
    ``sigma`` as a correlation device, a list of (probability, deterministic joint policy)."""
    m, n = game.shape
    spiel = pyspiel.create_matrix_game(
        "g", "g", [f"r{i}" for i in range(m)], [f"c{j}" for j in range(n)], game.row_payoffs.tolist(),
        game.col_payoffs.tolist(),
    )  # fmt: skip
    turn_based = pyspiel.convert_to_turn_based(spiel)
    root = turn_based.new_initial_state()
    row_key, col_key = root.information_state_string(0), root.child(0).information_state_string(1)
    device = []
    for a in range(m):
        for b in range(n):
            table = {
                row_key: [(i, 1.0 if i == a else 0.0) for i in range(m)],
                col_key: [(j, 1.0 if j == b else 0.0) for j in range(n)],
            }
            device.append((float(sigma[a, b]), pyspiel.TabularPolicy(table)))
    return pyspiel.cce_dist(turn_based, device).dist_value, pyspiel.ce_dist(turn_based, device).dist_value


def random_game(rng, m, n) -> MatrixGame:
    return MatrixGame(rng.normal(size=(m, n)).round(3), rng.integers(-5, 6, size=(m, n)).astype(float))


def random_joint(rng, m, n) -> np.ndarray:
    sigma = rng.random((m, n)) * (rng.random((m, n)) < 0.7)  # (some cells 0: a device of few joint actions)
    sigma[rng.integers(m), rng.integers(n)] += 0.1
    return sigma / sigma.sum()


@pytest.mark.parametrize("m, n", SHAPES)
def test_the_gaps_equal_openspiels_on_random_games_and_distributions(m, n):
    rng = np.random.default_rng(100 * m + n)
    for _ in range(4):
        game, sigma = random_game(rng, m, n), random_joint(rng, m, n)
        cce, ce = openspiel_gaps(game, sigma)
        assert rmcore.cce_gap(game, sigma) == pytest.approx(cce, abs=1e-12)
        assert rmcore.ce_gap(game, sigma) == pytest.approx(ce, abs=1e-12)
        assert rmcore.ce_gap(game, sigma) >= rmcore.cce_gap(game, sigma) - 1e-12


def test_a_runs_gaps_are_those_of_its_joint_distribution_and_equal_openspiels():
    game = random_game(np.random.default_rng(5), 4, 3)
    for sampling in ("expected", "sampled"):
        solver = MatrixSolver(game, "rm", sampling, seed=3)
        solver.run(500)
        sigma, metrics = solver.joint_distribution(), solver.metrics()
        assert sigma.shape == (4, 3) and sigma.sum() == pytest.approx(1.0, abs=1e-12) and np.all(sigma >= 0)
        assert metrics.cce_gap == rmcore.cce_gap(game, sigma) and metrics.ce_gap == rmcore.ce_gap(game, sigma)
        cce, ce = openspiel_gaps(game, sigma)
        assert metrics.cce_gap == pytest.approx(cce, abs=1e-12) and metrics.ce_gap == pytest.approx(ce, abs=1e-12)
        history = solver.history()
        assert history.metrics["ce_gap"][-1] == metrics.ce_gap and history.metrics["cce_gap"][-1] == metrics.cce_gap


def test_the_gaps_of_known_distributions():
    chicken = preset("chicken")  # Swerve, Straight
    assert rmcore.ce_gap(chicken, [[0, 0.5], [0.5, 0]]) == 0.0  # the traffic light: a correlated equilibrium
    rps = preset("rps")
    rock = np.zeros((3, 3))
    rock[0, 0] = 1.0
    assert rmcore.cce_gap(rps, rock) == 2.0 and rmcore.ce_gap(rps, rock) == 2.0
    assert rmcore.ce_gap(rps, np.full((3, 3), 1 / 9)) == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize(
    "joint, message",
    [
        ([[0.5, 0.5]], r"an 2 x 2 table .* got shape \(1, 2\)"),
        ("half", r"2 x 2 table"),
        ([[0.5, 0.5], [0.2, -0.2]], r"cell \(2, 2\) is negative"),
        ([[0.5, np.nan], [0.5, 0.0]], r"cell \(1, 2\) is nan, not a probability"),
        ([[0.5, 0.5], [0.5, 0.0]], r"sums to 1; this one sums to 1.5"),
    ],
)
def test_a_bad_joint_distribution_is_refused_with_a_sentence(joint, message):
    for measure in (rmcore.ce_gap, rmcore.cce_gap):
        with pytest.raises(ValueError, match=message):
            measure(preset("chicken"), joint)
    with pytest.raises(ValueError, match="expected a MatrixGame, got str"):
        rmcore.ce_gap("chicken", [[1]])
