"""Correlated and coarse correlated equilibria (rmcore.correlated): held against answers derived by hand (Aumann's
Chicken, Battle of the sexes, degenerate games), against the definition written out below as slow loops, against
the Nash equilibria rmcore's enumerator finds (every Nash equilibrium's product is a CE), against samples of the set,
and the linear programs against the vertex enumeration (a linear objective's best over a polytope is at a vertex)."""

from __future__ import annotations

import numpy as np
import pytest

import rmcore
from rmcore import correlated

#: Aumann's Chicken as the issue and Aumann (1974) write it: (6,6) (2,7) / (7,2) (0,0).
CHICKEN = rmcore.MatrixGame([[6, 2], [7, 0]], [[6, 7], [2, 0]], row_actions=("Swerve", "Dare"))
BATTLE = rmcore.MatrixGame([[2, 0], [0, 1]], [[1, 0], [0, 2]], row_actions=("Opera", "Football"))
OBJECTIVES = tuple(correlated.OBJECTIVES)


# -- the definition, as slow loops ------------------------------------------------------------------------------------


def ce_violations(game: rmcore.MatrixGame, sigma) -> list[float]:
    """For every player, recommended action j and alternative k: what obeying is worth against switching,
    ``sum_{a_-i} sigma(j, a_-i) (u_i(j, a_-i) - u_i(k, a_-i))``, divided by the player's payoff range (>= 0 in the
    CE set)."""
    a, b = game.row_payoffs, game.col_payoffs
    m, n = game.shape
    sigma = np.asarray(sigma, dtype=float).reshape(m, n)
    values = []
    for j in range(m):
        for k in range(m):
            if k != j:
                total = sum(sigma[j, col] * (a[j, col] - a[k, col]) for col in range(n))
                values.append(total / max(np.ptp(a), 1e-300))
    for j in range(n):
        for k in range(n):
            if k != j:
                total = sum(sigma[row, j] * (b[row, j] - b[row, k]) for row in range(m))
                values.append(total / max(np.ptp(b), 1e-300))
    return values


def cce_violations(game: rmcore.MatrixGame, sigma) -> list[float]:
    """For every player and alternative k: ``u_i(sigma) - u_i(k, sigma_-i)`` over the payoff range (>= 0 in the CCE
    set)."""
    a, b = game.row_payoffs, game.col_payoffs
    m, n = game.shape
    sigma = np.asarray(sigma, dtype=float).reshape(m, n)
    values = []
    for k in range(m):
        total = sum(sigma[row, col] * (a[row, col] - a[k, col]) for row in range(m) for col in range(n))
        values.append(total / max(np.ptp(a), 1e-300))
    for k in range(n):
        total = sum(sigma[row, col] * (b[row, col] - b[row, k]) for row in range(m) for col in range(n))
        values.append(total / max(np.ptp(b), 1e-300))
    return values


def in_set(game, sigma, coarse=False, tolerance=1e-9) -> bool:
    sigma = np.asarray(sigma, dtype=float)
    violations = cce_violations(game, sigma) if coarse else ce_violations(game, sigma)
    on_simplex = sigma.min() >= -tolerance and abs(sigma.sum() - 1) <= tolerance
    return on_simplex and min(violations) >= -tolerance


def payoffs(game, sigma) -> tuple[float, float]:
    return float(np.sum(sigma * game.row_payoffs)), float(np.sum(sigma * game.col_payoffs))


def objective_value(game, sigma, objective) -> float:
    """The objective to maximise, of a joint distribution (the min- objectives negated)."""
    u1, u2 = payoffs(game, sigma)
    return {
        "max-welfare": u1 + u2,
        "min-welfare": -(u1 + u2),
        "max-player-1": u1,
        "max-player-2": u2,
        "min-player-1": -u1,
        "min-player-2": -u2,
        "egalitarian": min(u1, u2),
    }[objective]


def random_game(shape, seed) -> rmcore.MatrixGame:
    rng = np.random.default_rng(seed)
    return rmcore.MatrixGame(rng.integers(-5, 6, size=shape), rng.integers(-5, 6, size=shape))


# -- Aumann's Chicken -------------------------------------------------------------------------------------------------


def test_chickens_welfare_best_ce_is_aumanns_half_quarter_quarter():
    found = rmcore.correlated_equilibrium(CHICKEN, "max-welfare")
    np.testing.assert_allclose(found.joint, [[0.5, 0.25], [0.25, 0.0]], atol=1e-12)
    assert found.row_payoff == pytest.approx(5.25, abs=1e-12)
    assert found.col_payoff == pytest.approx(5.25, abs=1e-12)
    assert found.welfare == pytest.approx(10.5, abs=1e-12)
    assert (found.objective, found.coarse, found.distance) == ("max-welfare", False, None)
    assert in_set(CHICKEN, found.joint)


def test_chickens_nash_equilibria_are_inside_its_ce_set_and_pay_less_than_the_best_ce():
    found = rmcore.nash_equilibria(CHICKEN)
    products = {tuple(np.round(np.outer(eq.row, eq.col).ravel(), 12)) for eq in found.equilibria}
    # The two pure equilibria (Dare, Swerve) and (Swerve, Dare), and the mixed one, (2/3, 1/3) each.
    expected = {(0.0, 0.0, 1.0, 0.0), (0.0, 1.0, 0.0, 0.0), tuple(np.round(np.outer([2, 1], [2, 1]).ravel() / 9, 12))}
    assert products == expected
    for eq in found.equilibria:
        product = np.outer(eq.row, eq.col)
        assert in_set(CHICKEN, product)
        assert in_set(CHICKEN, product, coarse=True)
    mixed = np.outer([2 / 3, 1 / 3], [2 / 3, 1 / 3])
    assert payoffs(CHICKEN, mixed) == pytest.approx((14 / 3, 14 / 3), abs=1e-12)
    assert payoffs(CHICKEN, [[0, 0], [1, 0]]) == pytest.approx((7, 2))
    # Every Nash equilibrium's welfare lies in the CE welfare range, below its top of 10.5.
    low, high = rmcore.welfare_range(CHICKEN)
    assert high == pytest.approx(10.5, abs=1e-12)
    for eq in found.equilibria:
        assert low - 1e-12 <= eq.row_payoff + eq.col_payoff <= high - 1


def test_chickens_worst_ce_and_the_ce_nearest_swerving_together_are_derived_by_hand():
    # With s = (s_SS, s_SD, s_DS, s_DD) the CE constraints are s_SS <= 2 s_SD, s_SS <= 2 s_DS (told to swerve, a
    # driver keeps swerving), s_DS >= 2 s_DD, s_SD >= 2 s_DD (told to dare, keeps daring). Welfare 12 s_SS + 9 (s_SD
    # + s_DS) is least with s_SS = 0: 9 (1 - s_DD) with s_DD <= s_SD / 2 = s_DS / 2, so s_DD = 1/5, welfare 36/5.
    worst = rmcore.correlated_equilibrium(CHICKEN, "min-welfare")
    np.testing.assert_allclose(worst.joint, [[0, 0.4], [0.4, 0.2]], atol=1e-12)
    assert worst.welfare == pytest.approx(7.2, abs=1e-12)
    assert rmcore.welfare_range(CHICKEN) == pytest.approx((7.2, 10.5), abs=1e-12)
    # Nearest (1, 0, 0, 0): the L1 distance is 2 (1 - s_SS), least at the largest s_SS, 1/2 (with s_SD = s_DS = 1/4).
    closest = rmcore.closest_correlated_equilibrium(CHICKEN, [[1, 0], [0, 0]])
    np.testing.assert_allclose(closest.joint, [[0.5, 0.25], [0.25, 0]], atol=1e-12)
    assert closest.distance == pytest.approx(1.0, abs=1e-12) and closest.objective == "closest"


# -- Battle of the sexes, by hand -------------------------------------------------------------------------------------


def test_battle_of_the_sexes_answers_equal_the_ones_derived_by_hand():
    # A = [[2, 0], [0, 1]], B = [[1, 0], [0, 2]]; s = (a, b, c, d) = (s_OO, s_OF, s_FO, s_FF). The CE constraints:
    #   row told Opera:    2a - b >= 0        row told Football:    d - 2c >= 0
    #   column told Opera: a - 2c >= 0        column told Football: 2d - b >= 0
    # Player 1 earns 2a + d <= 2 (a + d) <= 2, with equality only at a = 1: the pure equilibrium (Opera, Opera).
    best_1 = rmcore.correlated_equilibrium(BATTLE, "max-player-1")
    np.testing.assert_allclose(best_1.joint, [[1, 0], [0, 0]], atol=1e-12)
    assert (best_1.row_payoff, best_1.col_payoff) == pytest.approx((2, 1), abs=1e-12)
    # Player 2 likewise at d = 1: (Football, Football).
    best_2 = rmcore.correlated_equilibrium(BATTLE, "max-player-2")
    np.testing.assert_allclose(best_2.joint, [[0, 0], [0, 1]], atol=1e-12)
    # Welfare is 3 (a + d) = 3 (1 - b - c). Least welfare: the most weight off the diagonal. b <= 2 min(a, d) and
    # c <= min(a, d) / 2, so b + c <= 5/2 min(a, d) and 1 = a + d + b + c <= a + d + 5/2 min(a, d): with a = d = t,
    # 2t + 5t/2 >= 1, t >= 2/9, so b = 4/9, c = 1/9 and welfare 3 * 4/9 = 4/3 (a = d is forced: a larger one only
    # takes weight from b + c). It is the mixed Nash equilibrium's product, (2/3, 1/3) x (1/3, 2/3).
    worst = rmcore.correlated_equilibrium(BATTLE, "min-welfare")
    np.testing.assert_allclose(worst.joint, np.outer([2 / 3, 1 / 3], [1 / 3, 2 / 3]), atol=1e-12)
    assert worst.welfare == pytest.approx(4 / 3, abs=1e-12)
    # Most welfare: 3, wherever b = c = 0 (any mix of the two pure equilibria, a segment: HiGHS returns one).
    assert rmcore.welfare_range(BATTLE) == pytest.approx((4 / 3, 3.0), abs=1e-12)
    best = rmcore.correlated_equilibrium(BATTLE, "max-welfare")
    assert best.welfare == pytest.approx(3.0, abs=1e-12) and best.joint[0, 1] + best.joint[1, 0] < 1e-12
    # Egalitarian: min(2a + d, a + 2d) <= (3a + 3d) / 2 <= 3/2, with equality only at a = d = 1/2 (the fair coin
    # between the two outings, the classic correlated equilibrium of this game).
    fair = rmcore.correlated_equilibrium(BATTLE, "egalitarian")
    np.testing.assert_allclose(fair.joint, [[0.5, 0], [0, 0.5]], atol=1e-12)
    assert (fair.row_payoff, fair.col_payoff) == pytest.approx((1.5, 1.5), abs=1e-12)
    # Least for player 1: b <= 2a and c <= d/2 give 1 = a + b + c + d <= 3a + 3d/2, so 2a + d = 2/3 (3a + 3d/2) >=
    # 2/3, with equality only where b = 2a and c = d/2, and then 2d >= b and a >= 2c force a = d: the mixed product.
    least_1 = rmcore.correlated_equilibrium(BATTLE, "min-player-1")
    np.testing.assert_allclose(least_1.joint, np.outer([2 / 3, 1 / 3], [1 / 3, 2 / 3]), atol=1e-12)
    assert least_1.row_payoff == pytest.approx(2 / 3, abs=1e-12)


def test_battle_of_the_sexes_ce_vertices_are_the_hand_derived_ones():
    # The set's vertices: the two pure equilibria, the mixed one's product (2, 4, 1, 2) / 9, and where the
    # constraints 2a = b, d = 2c, a = 2c, 2d = b meet the simplex in threes: (a, b, c, d) = (1, 2, 0, 1) / 4 (2a = b,
    # 2d = b, c = 0) and (2, 0, 1, 2) / 5 (d = 2c, a = 2c, b = 0).
    vertices = rmcore.correlated_vertices(BATTLE)
    found = {tuple(np.round(v.ravel() * 180).astype(int)) for v in vertices}
    expected = {(180, 0, 0, 0), (0, 0, 0, 180), (40, 80, 20, 40), (45, 90, 0, 45), (72, 0, 36, 72)}
    assert found == expected
    for v in vertices:
        assert in_set(BATTLE, v)


# -- the definition and the vertices on random games ------------------------------------------------------------------


@pytest.mark.parametrize("shape, seed", [((2, 2), 1), ((2, 2), 2), ((2, 3), 3), ((3, 2), 4), ((3, 3), 5), ((4, 5), 6)])
@pytest.mark.parametrize("coarse", [False, True])
def test_every_answer_satisfies_every_constraint_and_no_sample_of_the_set_beats_it(shape, seed, coarse):
    game = random_game(shape, seed)
    rng = np.random.default_rng(seed)
    # Samples of the set, found independently of the program: the Nash equilibria's products (CEs), random mixes of
    # them, and random distributions that happen to satisfy the constraints.
    nash = [np.outer(eq.row, eq.col) for eq in rmcore.nash_equilibria(game).equilibria]
    samples = list(nash)
    for _ in range(200):
        weights = rng.dirichlet(np.ones(len(nash)))
        samples.append(sum(w * p for w, p in zip(weights, nash)))
    drawn = rng.dirichlet(np.full(game.shape[0] * game.shape[1], 0.3), size=4000).reshape(-1, *game.shape)
    samples += [sigma for sigma in drawn if in_set(game, sigma, coarse)]
    assert all(in_set(game, sigma, coarse) for sigma in samples)
    for objective in OBJECTIVES:
        found = rmcore.correlated_equilibrium(game, objective, coarse=coarse)
        assert in_set(game, found.joint, coarse), objective
        assert found.joint.sum() == pytest.approx(1.0, abs=1e-12) and found.joint.min() >= 0
        assert (found.row_payoff, found.col_payoff) == pytest.approx(payoffs(game, found.joint), abs=1e-12)
        assert found.welfare == pytest.approx(found.row_payoff + found.col_payoff, abs=1e-12)
        best = objective_value(game, found.joint, objective)
        assert max(objective_value(game, sigma, objective) for sigma in samples) <= best + 1e-9, objective


@pytest.mark.parametrize("shape, seed", [((2, 2), 11), ((2, 2), 12), ((2, 3), 13), ((3, 3), 14)])
@pytest.mark.parametrize("coarse", [False, True])
def test_each_program_reaches_the_best_vertex_and_every_vertex_is_one(shape, seed, coarse):
    game = random_game(shape, seed)
    vertices = rmcore.correlated_vertices(game, coarse=coarse)
    m, n = game.shape
    # Every vertex is in the set and is a vertex: the constraints active at it (the definition's rows, the
    # non-negativity of every cell, and the sum) have rank m n.
    for v in vertices:
        assert in_set(game, v, coarse)
        active = [row for row in _definition_rows(game, coarse) if abs(row @ v.ravel()) <= 1e-9]
        active += [cell for cell in np.eye(m * n) if cell @ v.ravel() <= 1e-12]
        assert np.linalg.matrix_rank(np.array(active + [np.ones(m * n)]), tol=1e-9) == m * n
    # A linear objective's best over a polytope is at a vertex: the programs and the vertices agree.
    for objective in OBJECTIVES:
        if objective == "egalitarian":  # (a minimum of two linear functions: its best need not be a vertex)
            continue
        found = rmcore.correlated_equilibrium(game, objective, coarse=coarse)
        best_vertex = max(objective_value(game, v, objective) for v in vertices)
        assert objective_value(game, found.joint, objective) == pytest.approx(best_vertex, abs=1e-9)


def _definition_rows(game, coarse) -> list[np.ndarray]:
    """The definition's constraints as coefficient rows over the flattened joint distribution (read off the slow
    loops above by giving them each unit distribution)."""
    m, n = game.shape
    measure = cce_violations if coarse else ce_violations
    columns = [measure(game, np.eye(m * n)[cell]) for cell in range(m * n)]
    return list(np.array(columns).T)


@pytest.mark.parametrize("seed", range(4))
def test_the_cce_set_contains_the_ce_set(seed):
    game = random_game((3, 3), 100 + seed)
    for v in rmcore.correlated_vertices(game):
        assert in_set(game, v, coarse=True)
    ce_low, ce_high = rmcore.welfare_range(game)
    cce_low, cce_high = rmcore.welfare_range(game, coarse=True)
    assert cce_low <= ce_low + 1e-9 and ce_high <= cce_high + 1e-9


def test_the_sets_part_in_shapleys_game_and_coincide_with_two_actions_each():
    shapley = rmcore.preset("shapley")
    ce, cce = rmcore.correlated_vertices(shapley), rmcore.correlated_vertices(shapley, coarse=True)
    assert len(cce) > len(ce)
    assert any(not in_set(shapley, v) for v in cce)  # a CCE vertex that is no CE
    for game in (CHICKEN, BATTLE, random_game((2, 2), 7)):  # one constraint per alternative either way
        np.testing.assert_allclose(rmcore.correlated_vertices(game), rmcore.correlated_vertices(game, coarse=True))


# -- degenerate sets --------------------------------------------------------------------------------------------------


def test_degenerate_sets_a_point_a_segment_and_the_whole_simplex():
    # The prisoner's dilemma: defecting dominates, so its one CE is (Defect, Defect).
    dilemma = rmcore.preset("prisoners-dilemma")
    np.testing.assert_allclose(rmcore.correlated_vertices(dilemma), [[[0, 0], [0, 1]]])
    # The row player's top row is strictly better, the column player indifferent: the segment of the top row.
    segment = rmcore.MatrixGame([[1, 1], [0, 0]], [[1, 1], [0, 0]])
    np.testing.assert_allclose(rmcore.correlated_vertices(segment), [[[0, 1], [0, 0]], [[1, 0], [0, 0]]])
    # Nobody ever gains by deviating: the whole simplex, its four corners.
    constant = rmcore.MatrixGame([[3, 3], [3, 3]], [[1, 1], [1, 1]])
    assert sorted(tuple(v.ravel()) for v in rmcore.correlated_vertices(constant)) == sorted(
        tuple(row) for row in np.eye(4)
    )
    assert rmcore.correlated_equilibrium(constant).welfare == pytest.approx(4.0)
    assert rmcore.welfare_range(constant, coarse=True) == pytest.approx((4.0, 4.0))


def test_a_zero_sum_game_is_allowed_and_its_ce_is_the_minimax_product():
    pennies = rmcore.preset("matching-pennies")
    found = rmcore.correlated_equilibrium(pennies, "max-player-1")
    np.testing.assert_allclose(found.joint, np.full((2, 2), 0.25), atol=1e-12)
    assert found.welfare == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(rmcore.correlated_vertices(pennies), [np.full((2, 2), 0.25)], atol=1e-12)


def test_the_sets_do_not_depend_on_each_players_unit():
    # Each player's payoffs scaled and shifted by their own positive affine map, one of them by a million: the
    # constraints are the same up to a positive factor, so the vertices and the best CE for player 1 are too.
    game = random_game((2, 3), 21)
    moved = rmcore.MatrixGame(1e6 * game.row_payoffs + 1e6, 0.001 * game.col_payoffs - 3)
    np.testing.assert_allclose(rmcore.correlated_vertices(moved), rmcore.correlated_vertices(game), atol=1e-9)
    np.testing.assert_allclose(
        rmcore.correlated_equilibrium(moved, "max-player-1").joint,
        rmcore.correlated_equilibrium(game, "max-player-1").joint,
        atol=1e-9,
    )


@pytest.mark.parametrize("coarse", [False, True])
def test_renaming_the_actions_permutes_the_set(coarse):
    # Rows and columns listed in another order: the same set, its distributions' cells permuted alike.
    game = random_game((3, 3), 31)
    rows, cols = [2, 0, 1], [1, 2, 0]
    permuted = rmcore.MatrixGame(game.row_payoffs[rows][:, cols], game.col_payoffs[rows][:, cols])
    original = {tuple(v[rows][:, cols].ravel().round(9)) for v in rmcore.correlated_vertices(game, coarse=coarse)}
    moved = {tuple(v.ravel().round(9)) for v in rmcore.correlated_vertices(permuted, coarse=coarse)}
    assert original == moved
    for objective in OBJECTIVES:
        a = objective_value(game, rmcore.correlated_equilibrium(game, objective, coarse).joint, objective)
        b = objective_value(permuted, rmcore.correlated_equilibrium(permuted, objective, coarse).joint, objective)
        assert a == pytest.approx(b, abs=1e-9)


def test_payoffs_far_from_zero_that_differ_little_keep_every_objective():
    # Chicken's payoffs times 1e-5, plus 1e8: the differences are 13 orders of magnitude below the payoffs, and a
    # program that scaled by the largest payoff alone saw every distribution as equally good.
    far = rmcore.MatrixGame(1e-5 * CHICKEN.row_payoffs + 1e8, 1e-5 * CHICKEN.col_payoffs + 1e8)
    for objective in OBJECTIVES:
        near = objective_value(CHICKEN, rmcore.correlated_equilibrium(CHICKEN, objective).joint, objective)
        moved = objective_value(CHICKEN, rmcore.correlated_equilibrium(far, objective).joint, objective)
        assert moved == pytest.approx(near, abs=1e-9), objective
    np.testing.assert_allclose(
        rmcore.correlated_equilibrium(far, "max-welfare").joint, [[0.5, 0.25], [0.25, 0]], atol=1e-9
    )


# -- the closest CE ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("coarse", [False, True])
def test_the_closest_equilibrium_is_in_the_set_and_no_vertex_mix_is_closer(coarse):
    rng = np.random.default_rng(5)
    for seed, shape in enumerate([(2, 2), (2, 3), (3, 2)]):
        game = random_game(shape, 200 + seed)
        cells = shape[0] * shape[1]
        joint = rng.dirichlet(np.ones(cells)).reshape(shape)
        closest = rmcore.closest_correlated_equilibrium(game, joint, coarse=coarse)
        assert in_set(game, closest.joint, coarse) and closest.coarse is coarse
        assert closest.distance == pytest.approx(np.abs(closest.joint - joint).sum(), abs=1e-12)
        vertices = rmcore.correlated_vertices(game, coarse=coarse)
        flat = vertices.reshape(len(vertices), cells)
        mixes = [w @ flat for w in rng.dirichlet(np.ones(len(vertices)), size=2000)] + list(flat)
        assert min(np.abs(mix - joint.ravel()).sum() for mix in mixes) >= closest.distance - 1e-9


def test_a_distribution_in_the_set_is_its_own_closest():
    mixed = np.outer([2 / 3, 1 / 3], [2 / 3, 1 / 3])
    closest = rmcore.closest_correlated_equilibrium(CHICKEN, mixed)
    assert closest.distance == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(closest.joint, mixed, atol=1e-12)


# -- the record and bad input -----------------------------------------------------------------------------------------


def test_the_record_is_frozen_and_its_distribution_read_only():
    found = rmcore.correlated_equilibrium(CHICKEN)
    with pytest.raises(ValueError):
        found.joint[0, 0] = 1.0
    with pytest.raises(AttributeError):
        found.welfare = 0.0
    assert "CE max-welfare" in repr(found) and "10.5" in repr(found)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rmcore.correlated_equilibrium([[1, 2], [3, 4]]), "need a two-player matrix game (rmcore.MatrixGame)"),
        (lambda: rmcore.correlated_equilibrium(rmcore.KUHN), "got TreeGame"),
        (lambda: rmcore.welfare_range("chicken"), "got str"),
        (lambda: rmcore.correlated_vertices(None), "got NoneType"),
        (
            lambda: rmcore.correlated_equilibrium(CHICKEN, "max welfare"),
            "objective must be one of 'max-welfare', 'min-welfare', 'max-player-1', 'max-player-2', 'min-player-1', "
            "'min-player-2', 'egalitarian'; got 'max welfare'",
        ),
        (lambda: rmcore.correlated_equilibrium(CHICKEN, None), "objective must be one of"),
        (lambda: rmcore.correlated_equilibrium(CHICKEN, coarse="yes"), "coarse must be True"),
        (lambda: rmcore.welfare_range(CHICKEN, coarse=1), "coarse must be True"),
        (lambda: rmcore.correlated_equilibrium(CHICKEN, time_limit=0), "positive, finite number of seconds"),
        (lambda: rmcore.correlated_equilibrium(CHICKEN, time_limit="10"), "a number of seconds"),
        (lambda: rmcore.closest_correlated_equilibrium(CHICKEN, [0.25] * 4), "must be 2x2 (a probability per"),
        (lambda: rmcore.closest_correlated_equilibrium(CHICKEN, [[1, 0], [0]]), "2x2 table of probabilities"),
        (lambda: rmcore.closest_correlated_equilibrium(CHICKEN, "abcd"), "2x2 table of probabilities"),
        (lambda: rmcore.closest_correlated_equilibrium(CHICKEN, [[1.5, -0.5], [0, 0]]), "column 2 is -0.5"),
        (lambda: rmcore.closest_correlated_equilibrium(CHICKEN, [[0.5, 0.5], [0.5, 0]]), "sum to 1.5"),
        (lambda: rmcore.closest_correlated_equilibrium(CHICKEN, [[np.nan, 0.5], [0.5, 0]]), "not a finite number"),
        (
            lambda: rmcore.correlated_equilibrium(rmcore.MatrixGame(np.zeros((65, 64)), np.ones((65, 64)))),
            "65x64 (4,160 joint actions); the correlated-equilibrium programs take at most 4,096",
        ),
        (
            lambda: rmcore.correlated_vertices(random_game((3, 4), 1)),
            "3x4 game has 54,627,300 choices of active constraints to solve; at most 250,000",
        ),
    ],
)
def test_bad_input_is_refused_with_a_sentence(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    assert message in str(caught.value)


def test_a_program_past_its_time_limit_says_so():
    game = rmcore.preset("random-general-sum", rows=30, cols=30, seed=3)
    with pytest.raises(ValueError, match="did not finish within its time limit of 1e-06 seconds"):
        rmcore.closest_correlated_equilibrium(game, np.full((30, 30), 1 / 900), time_limit=1e-6)


def test_the_definition_loops_catch_a_distribution_outside_the_set():
    # The oracle itself can fail: always swerving together breaks Chicken's CE constraints (told to swerve, dare).
    assert not in_set(CHICKEN, [[1, 0], [0, 0]])
    assert not in_set(CHICKEN, [[1, 0], [0, 0]], coarse=True)
    assert in_set(CHICKEN, [[0, 0.5], [0.5, 0]])  # the traffic light
