"""Normal-form games of n players (:class:`rmcore.NormalFormGame`, of which :class:`rmcore.MatrixGame` is the
two-player case), their NashConv and correlated gaps held against OpenSpiel, and the three-player presets."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pyspiel  # (a dev dependency: a missing one is a failure)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rmcore
from rmcore import MatrixGame, NormalFormGame, preset

# ---------------------------------------------------------------------------------------
# OpenSpiel's side: the game as a tensor game made turn-based, a policy and a correlation device on it


def turn_based(game: NormalFormGame):
    """OpenSpiel's turn-based copy of ``game`` and each player's one information state (no player sees the others'
    actions)."""
    spiel = pyspiel.convert_to_turn_based(pyspiel.create_tensor_game([np.array(u) for u in game.payoffs]))
    state, keys = spiel.new_initial_state(), []
    for player in range(game.num_players):
        keys.append(state.information_state_string(player))
        state = state.child(0)
    return spiel, keys


def openspiel_nash_conv(game: NormalFormGame, profile) -> float:
    spiel, keys = turn_based(game)
    table = {key: list(enumerate(map(float, strategy))) for key, strategy in zip(keys, profile)}
    return pyspiel.nash_conv(spiel, table)


def openspiel_gaps(game: NormalFormGame, sigma: np.ndarray) -> tuple[float, float]:
    """``(cce_dist, ce_dist)``: ``sigma`` as a device, a list of (probability, deterministic joint policy)."""
    spiel, keys = turn_based(game)
    device = []
    for profile in itertools.product(*(range(a) for a in game.shape)):
        table = {
            key: [(k, 1.0 if k == chosen else 0.0) for k in range(count)]
            for key, chosen, count in zip(keys, profile, game.shape)
        }
        device.append((float(sigma[profile]), pyspiel.TabularPolicy(table)))
    return pyspiel.cce_dist(spiel, device).dist_value, pyspiel.ce_dist(spiel, device).dist_value


def random_game(rng, shape) -> NormalFormGame:
    return NormalFormGame([rng.normal(size=shape).round(3) for _ in shape])


def random_profile(rng, shape):
    profile = []
    for count in shape:
        weights = rng.random(count) * (rng.random(count) < 0.8)
        weights[rng.integers(count)] += 0.1
        profile.append(weights / weights.sum())
    return profile


def random_joint(rng, shape) -> np.ndarray:
    sigma = rng.random(shape) * (rng.random(shape) < 0.7)  # (some profiles 0: a device of few joint actions)
    sigma[tuple(rng.integers(a) for a in shape)] += 0.1
    return sigma / sigma.sum()


SHAPES = [(2, 2, 2), (2, 3, 4), (3, 3, 3), (4, 1, 2), (2, 2, 2, 2), (3, 2, 2, 3)]


# ---------------------------------------------------------------------------------------
# One class: a matrix game is the two-player normal-form game


def test_every_matrix_game_is_a_two_player_normal_form_game_with_the_same_payoffs():
    for name in rmcore.PRESETS:
        game = preset(name)
        assert isinstance(game, NormalFormGame) and game.num_players == 2
        assert game.payoffs[0] is game.row_payoffs and game.payoffs[1] is game.col_payoffs
        assert game.actions == (game.row_actions, game.col_actions) and game.as_matrix_game() is game
        assert game.payoff_range == NormalFormGame(game.payoffs).payoff_range


def test_a_two_player_normal_form_game_is_measured_as_its_matrix_game_to_the_last_bit():
    rng = np.random.default_rng(7)
    general = NormalFormGame([rng.normal(size=(3, 4)), rng.normal(size=(3, 4))], [list("abc"), list("wxyz")], "g")
    matrix = general.as_matrix_game()
    assert isinstance(matrix, MatrixGame) and matrix.row_actions == ("a", "b", "c") and matrix.name == "g"
    assert np.array_equal(matrix.col_payoffs, general.payoffs[1]) and not matrix.is_zero_sum
    x, y = random_profile(rng, (3, 4))
    assert rmcore.nash_conv(general, (x, y)) == rmcore.nash_conv(matrix, (x, y))
    sigma = random_joint(rng, (3, 4))
    assert rmcore.ce_gap(general, sigma) == rmcore.ce_gap(matrix, sigma)
    assert rmcore.cce_gap(general, sigma) == rmcore.cce_gap(matrix, sigma)
    zero_sum = NormalFormGame([matrix.row_payoffs, -matrix.row_payoffs])
    assert zero_sum.is_zero_sum and zero_sum.as_matrix_game().is_zero_sum
    assert rmcore.exploitability(zero_sum, (x, y)) == rmcore.exploitability(zero_sum.as_matrix_game(), (x, y))
    solver = rmcore.MatrixSolver(zero_sum)
    assert isinstance(solver.game, MatrixGame)


def test_a_game_of_n_players_keeps_its_arrays_names_and_kind():
    u = np.arange(24.0).reshape(2, 3, 4)
    game = NormalFormGame([u, -u / 2, -u / 2], [("U", "D"), None, list("pqrs")], "three", players=("A", "B", "C"))
    assert game.num_players == 3 and game.shape == (2, 3, 4) and game.players == ("A", "B", "C")
    assert game.actions == (("U", "D"), ("1", "2", "3"), ("p", "q", "r", "s"))
    assert game.is_zero_sum and game.is_constant_sum and game.payoff_range == (23.0, 11.5, 11.5)
    assert not NormalFormGame([u, u, u]).is_constant_sum and NormalFormGame([u, 1 - u, 0 * u]).is_constant_sum
    assert not game.payoffs[0].flags.writeable
    u[0, 0, 0] = 99.0  # the game holds copies
    assert game.payoffs[0][0, 0, 0] == 0.0
    with pytest.raises(AttributeError, match="cannot be changed"):
        game.name = "other"
    for copy in (pickle.loads(pickle.dumps(game)), pickle.loads(pickle.dumps(preset("rps")))):
        assert all(not u.flags.writeable for u in copy.payoffs) and copy.payoffs[0].shape == copy.shape
        with pytest.raises(AttributeError):
            copy.name = "other"
    with pytest.raises(ValueError, match="a game of 3 players has no two-player matrix form"):
        game.as_matrix_game()
    assert repr(game) == "<NormalFormGame 'three' 2x3x4, 3 players, zero-sum>"


@pytest.mark.parametrize(
    "payoffs, kwargs, message",
    [
        ([np.zeros((2, 2))], {}, "at least two players; got 1 payoff array"),
        (7, {}, "payoffs must be a sequence of payoff arrays, one per player; got int"),
        ([np.zeros((2, 2)), np.zeros((2, 2, 2))], {}, "player 2's payoffs have 3 dimension"),
        ([np.zeros((2, 2, 2))] * 3 + [np.zeros((2, 2, 2))], {}, "a game of 4 players needs one per player"),
        ([np.zeros((2, 3, 2)), np.zeros((2, 2, 2)), np.zeros((2, 3, 2))], {}, "player 2's payoffs are 2x2x2 but"),
        ([[[[1, 2], [3, "x"]]] * 2] * 3, {}, "player 1's payoffs: profile \\(1, 2, 2\\) is 'x', not a number"),
        ([[[[1, 2], [3]]] * 2] * 3, {}, "are not a table of shape a_1 x a_2 x a_3"),
        (
            [[[True, False], [1, 1]], np.zeros((2, 2))],
            {},
            "player 1's payoffs: profile \\(1, 1\\) is True, not a number",
        ),
        ([np.zeros((2, 2)), [[1, None], [1, 1]]], {}, "player 2's payoffs: profile \\(1, 2\\) is None, not a number"),
        ([np.zeros((2, 2)), np.zeros((2, 2), dtype=bool)], {}, "player 2's payoffs: profile \\(1, 1\\) is "),
        ([np.zeros((2, 2)), "ab"], {}, "player 2's payoffs must be an array of numbers of shape a_1 x a_2, got str"),
        ([np.zeros((2, 2, 2)), np.full((2, 2, 2), np.inf), np.zeros((2, 2, 2))], {}, "profile \\(1, 1, 1\\) is inf"),
        ([np.zeros((2, 2, 2)), np.zeros((2, 2, 2)), np.full((2, 2, 2), 1e13)], {}, "player 3's payoffs: the payoff"),
        ([np.zeros((2, 2, 2))] * 3, {"actions": [("a", "b")] * 2}, "actions must be 3 lists of action names"),
        ([np.zeros((2, 2, 2))] * 3, {"actions": [("a", "a")] * 3}, "player 1's action names must be unique"),
        ([np.zeros((2, 2, 2))] * 3, {"players": ("A", "B")}, "players must be 3 names"),
        ([np.zeros((2, 2, 0))] * 3, {}, "player 3 has 0 actions"),
        ([np.zeros((101, 100, 101))] * 3, {}, "at most 1,000,000 are supported"),
    ],
)
def test_a_game_that_cannot_be_built_is_refused_with_a_sentence(payoffs, kwargs, message):
    with pytest.raises(ValueError, match=message):
        NormalFormGame(payoffs, **kwargs)


# ---------------------------------------------------------------------------------------
# NashConv and the correlated gaps of n players, as OpenSpiel computes them


@pytest.mark.parametrize("shape", SHAPES)
def test_nash_conv_equals_openspiels_on_random_games_of_three_and_four_players(shape):
    rng = np.random.default_rng(sum(shape) * 10 + len(shape))
    for _ in range(3):
        game, profile = random_game(rng, shape), random_profile(rng, shape)
        gains = rmcore.matrix.metrics.player_gains(game, profile)
        assert len(gains) == len(shape) and min(gains) >= 0.0
        assert rmcore.nash_conv(game, profile) == pytest.approx(openspiel_nash_conv(game, profile), abs=1e-12)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_correlated_gaps_equal_openspiels_on_random_games_of_three_and_four_players(shape):
    rng = np.random.default_rng(sum(shape) * 10 + len(shape) + 1)
    for _ in range(3):
        game, sigma = random_game(rng, shape), random_joint(rng, shape)
        cce, ce = openspiel_gaps(game, sigma)
        assert rmcore.cce_gap(game, sigma) == pytest.approx(cce, abs=1e-12)
        assert rmcore.ce_gap(game, sigma) == pytest.approx(ce, abs=1e-12)
        assert rmcore.ce_gap(game, sigma) >= rmcore.cce_gap(game, sigma) - 1e-12


def test_a_product_distribution_has_the_cce_gap_of_its_profiles_nash_conv():
    rng = np.random.default_rng(3)
    game = random_game(rng, (3, 2, 4))
    profile = random_profile(rng, (3, 2, 4))
    product = np.einsum("i,j,k->ijk", *profile)
    assert rmcore.cce_gap(game, product) == pytest.approx(rmcore.nash_conv(game, profile), abs=1e-12)


def test_measures_of_n_players_refuse_what_they_cannot_measure_with_a_sentence():
    game = preset("matching-pennies-3p")
    with pytest.raises(ValueError, match="a sequence of 3 mixed strategies"):
        rmcore.nash_conv(game, ([0.5, 0.5], [0.5, 0.5]))
    with pytest.raises(ValueError, match="player 2's strategy has 3 entries"):
        rmcore.nash_conv(game, ([0.5, 0.5], [0.2, 0.3, 0.5], [0.5, 0.5]))
    with pytest.raises(ValueError, match="exploitability is defined for two-player zero-sum games; this game has 3"):
        rmcore.exploitability(game, ([0.5, 0.5],) * 3)
    with pytest.raises(ValueError, match="this measure is of two-player games; the game has 3 players"):
        rmcore.best_response(game, ([0.5, 0.5],) * 3, 1)
    with pytest.raises(ValueError, match="is an 2 x 2 x 2 array of probabilities"):
        rmcore.ce_gap(game, np.full((2, 2), 0.25))
    with pytest.raises(ValueError, match="profile \\(1, 2, 1\\) is negative"):
        rmcore.cce_gap(game, [[[0.5, 0.5], [-0.25, 0.25]], [[0, 0], [0, 0]]])
    with pytest.raises(ValueError, match="sums to 1; this one sums to 2"):
        rmcore.cce_gap(game, np.full((2, 2, 2), 0.25))


# ---------------------------------------------------------------------------------------
# The presets of three players


def test_three_player_matching_pennies_is_openspiels():
    game, spiel = preset("matching-pennies-3p"), pyspiel.load_game("matching_pennies_3p")
    assert game.actions == (("Heads", "Tails"),) * 3 and game.shape == (2, 2, 2)
    for profile in itertools.product(range(2), repeat=3):
        state = spiel.new_initial_state()
        state.apply_actions(list(profile))
        assert [u[profile] for u in game.payoffs] == state.returns()
    uniform = ([0.5, 0.5],) * 3
    assert rmcore.nash_conv(game, uniform) == 0.0
    assert rmcore.nash_conv(game, ([1, 0], [1, 0], [1, 0])) == 2.0  # player 3 mismatches player 1 by switching


def test_the_coordination_game_has_two_pure_equilibria_and_nau_s_game_its_pure_ones():
    game = preset("coordination-3p")
    a, b = [1.0, 0.0], [0.0, 1.0]
    assert rmcore.nash_conv(game, (a, a, a)) == 0.0 and rmcore.nash_conv(game, (b, b, b)) == 0.0
    assert rmcore.nash_conv(game, (a, a, b)) == 2.0 and game.payoffs[0][0, 0, 0] == 2.0
    nau = preset("nau-2x2x2")
    pure = [p for p in itertools.product(range(2), repeat=3) if rmcore.nash_conv(nau, [np.eye(2)[k] for k in p]) == 0]
    assert len(pure) == 3  # Nau, Gomez Canovas & Hansen: three pure equilibria
    assert rmcore.preset("nau-2x2x2").name == "Nau et al.'s 2x2x2 game"
    assert set(rmcore.NORMAL_FORM_PRESETS).isdisjoint(rmcore.PRESETS)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(2, 2, 2), (3, 2, 2), (2, 3, 1, 2)]))
def test_the_measures_do_not_change_with_a_players_payoff_unit_or_the_order_of_actions(seed, shape):
    rng = np.random.default_rng(seed)
    game, profile, sigma = random_game(rng, shape), random_profile(rng, shape), random_joint(rng, shape)
    scale = rng.uniform(0.5, 4.0, size=len(shape))
    rescaled = NormalFormGame([u * c + rng.normal() for u, c in zip(game.payoffs, scale)])
    gains, scaled_gains = (
        rmcore.matrix.metrics.player_gains(game, profile),
        rmcore.matrix.metrics.player_gains(rescaled, profile),
    )
    assert np.allclose(np.array(gains) * scale, scaled_gains, atol=1e-9) and min(gains) >= 0.0
    orders = [rng.permutation(a) for a in shape]
    permuted = NormalFormGame([u[np.ix_(*orders)] for u in game.payoffs])
    moved = [p[order] for p, order in zip(profile, orders)]
    assert rmcore.nash_conv(permuted, moved) == pytest.approx(rmcore.nash_conv(game, profile), abs=1e-12)
    assert rmcore.ce_gap(permuted, sigma[np.ix_(*orders)]) == pytest.approx(rmcore.ce_gap(game, sigma), abs=1e-12)
    assert rmcore.ce_gap(game, sigma) >= rmcore.cce_gap(game, sigma) - 1e-12 >= -1e-12


def test_a_game_carries_its_suggested_start_checked_player_by_player():
    pennies = rmcore.preset("matching-pennies-3p")
    assert pennies.start == ((0.9, 0.1), (0.6, 0.4), (0.2, 0.8))  # (off uniform play, its only equilibrium)
    assert rmcore.preset("nau-2x2x2").start is None
    again = rmcore.NormalFormGame(pennies.payoffs, start=([1, 3], [1, 1], [0, 2]))
    assert again.start == ((1.0, 3.0), (1.0, 1.0), (0.0, 2.0))
    with pytest.raises(ValueError, match="start must be 3 lists of weights, one per player"):
        rmcore.NormalFormGame(pennies.payoffs, start=([1, 0], [1, 0]))
    with pytest.raises(ValueError, match="player 2's start"):
        rmcore.NormalFormGame(pennies.payoffs, start=([1, 0], [1, 0, 0], [1, 0]))
    with pytest.raises(ValueError, match="player 3's start is all zeros"):
        rmcore.NormalFormGame(pennies.payoffs, start=([1, 0], [1, 0], [0, 0]))
    two = rmcore.NormalFormGame(rmcore.preset("rps").payoffs, start=([1, 0, 0], [0, 1, 0])).as_matrix_game()
    assert two.start == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
