"""Every Nash equilibrium of a general-sum matrix game (rmcore.exact.equilibria), held against Nashpy's vertex
enumeration and Gambit's (pygambit's enummixed) on ten games, against exact hand-derived answers, and against the
definition."""

from __future__ import annotations

import numpy as np
import pytest

import rmcore

nashpy = pytest.importorskip("nashpy")
gambit = pytest.importorskip("pygambit")


def _random(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=shape), rng.normal(size=shape)


#: Ten games: the presets' general-sum and zero-sum classics and random games up to 8x8, rectangular ones among them.
TEN_GAMES = {
    "prisoner's dilemma": (
        rmcore.preset("prisoners-dilemma").row_payoffs,
        rmcore.preset("prisoners-dilemma").col_payoffs,
    ),
    "battle of the sexes": ([[2, 0], [0, 1]], [[1, 0], [0, 2]]),
    "stag hunt": (rmcore.preset("stag-hunt").row_payoffs, rmcore.preset("stag-hunt").col_payoffs),
    "chicken": (rmcore.preset("chicken").row_payoffs, rmcore.preset("chicken").col_payoffs),
    "Shapley's game": (rmcore.preset("shapley").row_payoffs, rmcore.preset("shapley").col_payoffs),
    "RPS with crash": (rmcore.preset("rps-crash").row_payoffs, rmcore.preset("rps-crash").col_payoffs),
    "random 3x3": _random((3, 3), 3),
    "random 5x3": _random((5, 3), 5),
    "random 6x6": _random((6, 6), 6),
    "random 8x8": _random((8, 8), 8),
}


def _as_profiles(pairs) -> list[np.ndarray]:
    return sorted((np.concatenate([np.asarray(x, float), np.asarray(y, float)]) for x, y in pairs), key=tuple)


def _same_sets(ours: list[np.ndarray], theirs: list[np.ndarray]) -> bool:
    """The same equilibria, each within 1e-7, whatever the order (rounding noise of -1e-17 reorders a sort)."""
    unmatched = list(theirs)
    for profile in ours:
        match = next((k for k, other in enumerate(unmatched) if np.allclose(profile, other, atol=1e-7)), None)
        if match is None:
            return False
        unmatched.pop(match)
    return not unmatched


def _gambit(a, b) -> list[np.ndarray]:
    game = gambit.Game.from_arrays(np.asarray(a, float), np.asarray(b, float))
    result = gambit.nash.enummixed_solve(game, rational=False)
    first, second = list(game.players)
    return _as_profiles(
        (
            [float(eq[first][s]) for s in first.strategies],
            [float(eq[second][s]) for s in second.strategies],
        )
        for eq in result.equilibria
    )


@pytest.mark.parametrize("name", list(TEN_GAMES))
def test_every_equilibrium_is_nashpys_and_gambits(name):
    a, b = TEN_GAMES[name]
    found = rmcore.nash_equilibria(rmcore.MatrixGame(a, b))
    assert found.method == "support enumeration" and found.complete and not found.degenerate
    ours = _as_profiles((eq.row, eq.col) for eq in found.equilibria)
    with np.errstate(all="ignore"):
        nashpys = _as_profiles(nashpy.Game(np.asarray(a, float), np.asarray(b, float)).vertex_enumeration())
    assert _same_sets(ours, nashpys), (name, ours, nashpys)
    assert _same_sets(ours, _gambit(a, b)), name


@pytest.mark.parametrize(
    "preset,expected",
    [
        ("prisoners-dilemma", [((0, 1), (0, 1))]),
        ("battle-of-sexes", [((1, 0), (1, 0)), ((0, 1), (0, 1)), ((2 / 3, 1 / 3), (1 / 3, 2 / 3))]),
        ("shapley", [((1 / 3,) * 3, (1 / 3,) * 3)]),
        ("rps-crash", [((0.25, 0.5, 0.25), (0.25, 0.5, 0.25))]),
        ("matching-pennies", [((0.5, 0.5), (0.5, 0.5))]),
    ],
)
def test_the_equilibria_derived_by_hand(preset, expected):
    found = rmcore.nash_equilibria(rmcore.preset(preset))
    ours = _as_profiles((eq.row, eq.col) for eq in found.equilibria)
    assert _same_sets(ours, _as_profiles(expected))


def test_an_equilibrium_is_one_by_definition_and_its_payoffs_are_what_the_profile_earns():
    a, b = _random((7, 5), 11)
    for eq in rmcore.support_enumeration(rmcore.MatrixGame(a, b)).equilibria:
        assert eq.row.sum() == pytest.approx(1) and eq.col.sum() == pytest.approx(1)
        assert (a @ eq.col).max() <= eq.row_payoff + 1e-9 and (eq.row @ b).max() <= eq.col_payoff + 1e-9
        assert eq.row_payoff == pytest.approx(eq.row @ a @ eq.col)


@pytest.mark.parametrize("shape,seed", [((10, 10), 1), ((12, 9), 2), ((30, 25), 3)])
def test_beyond_eight_actions_lemke_howson_finds_one_equilibrium(shape, seed):
    """The same equilibrium as Nashpy's Lemke-Howson from the same label (on the payoffs made positive, as it needs);
    at 30x25 Nashpy's tableau overflows and never ends, so there the definition alone is checked."""
    a, b = _random(shape, seed)
    found = rmcore.nash_equilibria(rmcore.MatrixGame(a, b))
    assert found.method == "Lemke-Howson" and not found.complete and len(found.equilibria) == 1
    eq = found.equilibria[0]
    assert (a @ eq.col).max() - eq.row @ a @ eq.col < 1e-9 and (eq.row @ b).max() - eq.row @ b @ eq.col < 1e-9
    if max(shape) <= 12:
        theirs = nashpy.Game(a - a.min() + 1, b - b.min() + 1).lemke_howson(initial_dropped_label=0)
        assert np.allclose(eq.row, theirs[0], atol=1e-7) and np.allclose(eq.col, theirs[1], atol=1e-7)


def test_lemke_howson_from_every_label_lands_on_one_of_gambits_equilibria():
    a, b = TEN_GAMES["random 6x6"]
    game = rmcore.MatrixGame(a, b)
    known = _gambit(a, b)
    for label in range(sum(game.shape)):
        eq = rmcore.lemke_howson(game, label)
        profile = np.concatenate([eq.row, eq.col])
        assert any(np.allclose(profile, k, atol=1e-7) for k in known), label


def test_a_degenerate_game_says_so():
    found = rmcore.nash_equilibria(rmcore.MatrixGame([[1, 1], [0, 0]], [[1, 1], [0, 0]]))
    assert found.degenerate and not found.complete


def test_the_nearest_equilibrium_and_its_distance():
    found = rmcore.nash_equilibria(rmcore.preset("battle-of-sexes"))
    index, distance = rmcore.nearest_equilibrium(found.equilibria, [0.6, 0.4], [0.3, 0.7])
    assert found.equilibria[index].row.round(4).tolist() == [0.6667, 0.3333]
    assert distance == pytest.approx(max(abs(0.6 - 2 / 3), abs(0.3 - 1 / 3)))


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: rmcore.nash_equilibria("rps"), "expected a MatrixGame"),
        (lambda: rmcore.nash_equilibria(rmcore.preset("rps"), max_enumeration=40), "from 1 to 12"),
        (lambda: rmcore.support_enumeration(rmcore.MatrixGame(np.zeros((13, 2)))), "at most 12 actions"),
        (lambda: rmcore.lemke_howson(rmcore.preset("rps"), 6), "from 0 to 5"),
        (lambda: rmcore.nearest_equilibrium([], [1], [1]), "no equilibrium"),
    ],
)
def test_bad_input_is_refused_in_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()
