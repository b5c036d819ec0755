"""Every Nash equilibrium of a general-sum matrix game (rmcore.exact.equilibria), held against Nashpy's vertex
enumeration and Gambit's (pygambit's enummixed) on ten nondegenerate games and on degenerate ones, against exact
hand-derived answers (the components of a set with continua among them), and against the definition."""

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


def _gambit(a, b, rational: bool = False) -> list[np.ndarray]:
    if rational:  # (Gambit's exact arithmetic: its floating-point enumeration lists a degenerate game's vertex twice)
        game = gambit.Game.from_arrays(*(np.asarray(m, int).tolist() for m in (a, b)))
    else:
        game = gambit.Game.from_arrays(np.asarray(a, float), np.asarray(b, float))
    result = gambit.nash.enummixed_solve(game, rational=rational)
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
    assert found.method == "vertex enumeration" and found.complete and not found.degenerate
    assert found.components == tuple((k,) for k in range(len(found.equilibria)))  # isolated equilibria
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


def _integer_games(count: int, shape, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {
        f"random {shape[0]}x{shape[1]} in 0..2, {k}": tuple(rng.integers(0, 3, size=(2, *shape))) for k in range(count)
    }


#: Degenerate games: von Stengel's (2007, figure 3.5: a continuum beside an isolated equilibrium), a row player
#: with a strict best row beside an indifferent column player, a game of one payoff everywhere, and random games of
#: few payoff values (ties everywhere).
DEGENERATE = {
    "von Stengel's": ([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]]),
    "a strict row, an indifferent column": ([[1, 1], [0, 0]], [[1, 1], [0, 0]]),
    "one payoff everywhere": (np.ones((3, 3)), np.ones((3, 3))),
    **_integer_games(8, (4, 3), 1),
    **_integer_games(4, (5, 5), 2),
}


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_a_degenerate_games_extreme_equilibria_are_gambits_exact_enumeration(name):
    a, b = DEGENERATE[name]
    found = rmcore.nash_equilibria(rmcore.MatrixGame(a, b))
    assert found.complete and found.degenerate
    ours = _as_profiles((eq.row, eq.col) for eq in found.equilibria)
    assert _same_sets(ours, _gambit(a, b, rational=True)), name
    # every member of a component's subset is an equilibrium, and so is every mix of its rows against its columns
    rng = np.random.default_rng(0)
    a, b = np.asarray(a, float), np.asarray(b, float)
    for subset in found.subsets:
        for _ in range(5):
            x, y = (
                rng.dirichlet(np.ones(len(subset.rows))) @ subset.rows,
                rng.dirichlet(np.ones(len(subset.cols))) @ subset.cols,
            )
            assert (a @ y).max() <= x @ a @ y + 1e-9 and (x @ b).max() <= x @ b @ y + 1e-9
    assert sorted(k for component in found.components for k in component) == list(range(len(found.equilibria)))


@pytest.mark.parametrize("name", ["von Stengel's", "a strict row, an indifferent column", "one payoff everywhere"])
def test_a_degenerate_games_extreme_equilibria_are_nashpys(name):
    a, b = DEGENERATE[name]
    found = rmcore.nash_equilibria(rmcore.MatrixGame(a, b))
    with np.errstate(all="ignore"):
        theirs = nashpy.Game(np.asarray(a, float), np.asarray(b, float)).vertex_enumeration()
    assert _same_sets(_as_profiles((eq.row, eq.col) for eq in found.equilibria), _as_profiles(theirs))


def test_von_stengels_game_has_a_continuum_and_an_isolated_equilibrium():
    found = rmcore.nash_equilibria(rmcore.MatrixGame(*DEGENERATE["von Stengel's"]))
    ours = _as_profiles((eq.row, eq.col) for eq in found.equilibria)
    expected = [((1, 0, 0), (1, 0)), ((1, 0, 0), (2 / 3, 1 / 3)), ((0, 1 / 3, 2 / 3), (1 / 3, 2 / 3))]
    assert _same_sets(ours, _as_profiles(expected))
    assert found.degenerate and found.continua == 1 and len(found.components) == 2
    (continuum,) = [c for c in found.components if len(c) == 2]
    assert {tuple(found.equilibria[k].row.round(9)) for k in continuum} == {(1.0, 0.0, 0.0)}
    # the middle of the continuum is on the set; halfway to the isolated one is not
    middle = ([1, 0, 0], [5 / 6, 1 / 6])
    component, distance = rmcore.equilibrium_distance(found, *middle)
    assert found.components[component] == continuum and distance == pytest.approx(0, abs=1e-9)
    _, nearest_point = rmcore.nearest_equilibrium(found.equilibria, *middle)
    assert nearest_point == pytest.approx(1 / 6)


def test_a_profile_on_a_continuum_is_at_distance_zero_and_off_it_at_the_hulls_distance():
    found = rmcore.nash_equilibria(rmcore.MatrixGame([[1, 1], [0, 0]], [[1, 1], [0, 0]]))
    assert found.components == ((0, 1),) and found.continua == 1
    assert rmcore.equilibrium_distance(found, [1, 0], [0.5, 0.5]) == (0, 0.0)
    assert rmcore.nearest_equilibrium(found.equilibria, [1, 0], [0.5, 0.5])[1] == pytest.approx(0.5)  # to its points
    # off the set: only the row player must move, 0.3 of its probability
    assert rmcore.equilibrium_distance(found, [0.7, 0.3], [0.2, 0.8])[1] == pytest.approx(0.3)


def test_the_distance_to_the_set_is_the_least_over_its_points_by_brute_force():
    a, b = DEGENERATE["random 4x3 in 0..2, 0"]
    found = rmcore.nash_equilibria(rmcore.MatrixGame(a, b))
    rng = np.random.default_rng(3)
    for _ in range(5):
        x, y = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(3))
        _, distance = rmcore.equilibrium_distance(found, x, y)
        brute = np.inf  # every subset's hulls sampled finely: never nearer than the program's answer, and close to it
        for subset in found.subsets:
            xs = rng.dirichlet(np.ones(len(subset.rows)) * 0.3, size=20_000) @ subset.rows
            ys = rng.dirichlet(np.ones(len(subset.cols)) * 0.3, size=20_000) @ subset.cols
            near = max(np.abs(xs - x).sum(axis=1).min(), np.abs(ys - y).sum(axis=1).min()) / 2
            brute = min(brute, near)
        assert distance <= brute + 1e-9 and brute - distance < 0.02


def test_equilibria_are_bounded_in_time_on_a_large_game():
    rng = np.random.default_rng(0)
    game = rmcore.MatrixGame(rng.normal(size=(400, 400)), rng.normal(size=(400, 400)))
    with pytest.raises(RuntimeError, match="time limit of 0.01 s"):
        rmcore.nash_equilibria(game, time_limit=0.01)
    with pytest.raises(RuntimeError, match="time limit"):
        rmcore.vertex_enumeration(rmcore.MatrixGame(rng.normal(size=(12, 12))), time_limit=0.01)


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: rmcore.nash_equilibria("rps"), "expected a MatrixGame"),
        (lambda: rmcore.nash_equilibria(rmcore.preset("rps"), max_enumeration=40), "from 1 to 12"),
        (lambda: rmcore.support_enumeration(rmcore.MatrixGame(np.zeros((13, 2)))), "at most 12 actions"),
        (lambda: rmcore.lemke_howson(rmcore.preset("rps"), 6), "from 0 to 5"),
        (lambda: rmcore.nearest_equilibrium([], [1], [1]), "no equilibrium"),
        (lambda: rmcore.nash_equilibria(rmcore.preset("rps"), time_limit=0), "time_limit must be a number"),
        (lambda: rmcore.nash_equilibria(rmcore.preset("rps"), time_limit="5"), "time_limit must be a number"),
        (lambda: rmcore.vertex_enumeration(rmcore.MatrixGame(np.zeros((13, 2)))), "at most 12 actions"),
        (lambda: rmcore.equilibrium_distance([], [1], [1]), "expected the NashEquilibria"),
        (
            lambda: rmcore.equilibrium_distance(rmcore.nash_equilibria(rmcore.preset("stag-hunt")), [1], [1, 0]),
            "the profile has 1 and 2 actions",
        ),
    ],
)
def test_bad_input_is_refused_in_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()
