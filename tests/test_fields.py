"""rmcore/plotting/fields.py: each dynamic against its formula written out point by point, the rest points and their
stability on the presets against answers derived by hand, and the set-ups where no field is drawn."""

import itertools

import numpy as np
import pytest
from scipy import optimize

import rmcore
from rmcore.plotting import fields

RNG = np.random.default_rng(41)


def random_simplex_points(count: int, size: int, boundary_share: float = 0.4) -> np.ndarray:
    """Points of the simplex, some on its faces (a coordinate exactly 0), where the projection dynamic is not
    simply ``u - mean(u)``."""
    points = RNG.dirichlet(np.ones(size), count)
    on_faces = RNG.random(count) < boundary_share
    for k in np.flatnonzero(on_faces):
        zeroed = RNG.choice(size, RNG.integers(1, size), replace=False)
        points[k, zeroed] = 0.0
        points[k] /= points[k].sum()
    return points


def replicator_by_hand(x, u):
    average = sum(x[j] * u[j] for j in range(len(x)))
    return [x[i] * (u[i] - average) for i in range(len(x))]


def best_response_by_hand(x, u):
    best = max(range(len(u)), key=lambda i: (u[i], -i))  # ties to the lowest index
    return [(1.0 if i == best else 0.0) - x[i] for i in range(len(x))]


def projection_by_hand(x, u):
    """The closest vector to u in the tangent cone {v: sum v = 0, v_i >= 0 where x_i = 0}, by a QP solver."""
    n = len(x)
    constraints = [{"type": "eq", "fun": lambda v: np.sum(v)}]
    constraints += [{"type": "ineq", "fun": lambda v, i=i: v[i]} for i in range(n) if x[i] == 0]
    found = optimize.minimize(
        lambda v: np.sum((v - u) ** 2), np.zeros(n), constraints=constraints, method="SLSQP", tol=1e-12
    )
    return found.x


@pytest.mark.parametrize("size", [2, 3, 4])
def test_each_dynamic_at_random_points_is_its_formula(size):
    x = random_simplex_points(60, size)
    u = RNG.normal(size=(60, size))
    np.testing.assert_allclose(fields.replicator(x, u), [replicator_by_hand(a, b) for a, b in zip(x, u)], atol=1e-14)
    np.testing.assert_allclose(fields.best_response(x, u), [best_response_by_hand(a, b) for a, b in zip(x, u)])
    np.testing.assert_allclose(fields.projection(x, u), [projection_by_hand(a, b) for a, b in zip(x, u)], atol=1e-6)


def test_the_projection_lets_an_unused_action_in_only_when_it_beats_the_mean():
    # On the corner of action 1: action 3 (3 > 1) joins, action 2 (0) does not; the projection is (-1, 0, 1).
    assert fields.projection([1.0, 0.0, 0.0], [1.0, 0.0, 3.0]).tolist() == [-1.0, 0.0, 1.0]
    # A best-response tie is broken towards the lowest index, as rmcore's fictitious play breaks it.
    assert fields.best_response([0.2, 0.8], [1.0, 1.0]).tolist() == [0.8, -0.8]


@pytest.mark.parametrize("dynamic", ["replicator", "best-response", "projection"])
def test_the_velocity_of_each_set_up_feeds_each_population_its_own_payoffs(dynamic):
    rule = {
        "replicator": replicator_by_hand,
        "best-response": best_response_by_hand,
        "projection": projection_by_hand,
    }[dynamic]
    a, b = RNG.normal(size=(2, 2)), RNG.normal(size=(2, 2))
    square = fields.Setup(dynamic, "square", (tuple(map(tuple, a)), tuple(map(tuple, b))))
    c = RNG.normal(size=(3, 3))
    one = fields.Setup(dynamic, "one-population", (tuple(map(tuple, c)),))
    u = RNG.normal(size=3)
    fixed = fields.Setup(dynamic, "simplex", (tuple(u),))
    for x, y in zip(random_simplex_points(10, 2), random_simplex_points(10, 2)):
        expected = [*rule(x, a @ y), *rule(y, b.T @ x)]
        np.testing.assert_allclose(fields.velocity(square, np.concatenate([x, y])), expected, atol=1e-6)
    for x in random_simplex_points(10, 3):
        np.testing.assert_allclose(fields.velocity(one, x), rule(x, c @ x), atol=1e-6)
        np.testing.assert_allclose(fields.velocity(fixed, x), rule(x, u), atol=1e-6)


def rest(setup):
    return {point.strategies: point for point in fields.rest_points(setup)}


def approx_key(points, strategies):
    for key, point in points.items():
        if all(np.allclose(k, s, atol=1e-9) for k, s in zip(key, strategies)):
            return point
    raise AssertionError(f"{strategies} is not among the rest points {list(points)}")


def test_matching_pennies_centre_is_neutral_for_the_replicator_with_eigenvalues_plus_minus_i():
    # By hand: x' = x(1-x)(4y-2), y' = y(1-y)(2-4x); at (1/2, 1/2) the Jacobian is [[0, 1], [-1, 0]].
    setup = fields.field_setup(rmcore.preset("matching-pennies"), "hedge")
    points = rest(setup)
    centre = approx_key(points, ((0.5, 0.5), (0.5, 0.5)))
    assert centre.stability == "neutral" and centre.is_nash
    assert sorted(np.imag(centre.eigenvalues)) == pytest.approx([-1.0, 1.0])
    assert np.real(centre.eigenvalues) == pytest.approx([0.0, 0.0], abs=1e-8)
    # The four corners are saddles (eigenvalues +-2: one player gains by switching, the other loses): unstable.
    corners = [p for p in points.values() if p is not centre]
    assert len(corners) == 4 and all(p.stability == "unstable" and not p.is_nash for p in corners)
    for corner in corners:
        assert sorted(np.real(corner.eigenvalues)) == pytest.approx([-2.0, 2.0])


def test_rock_paper_scissors_interior_point_is_neutral_for_the_one_population_replicator():
    # By hand: at the centre the Jacobian is (1/3)(I - 11^T/3) A, whose eigenvalues on the plane sum(x)=0 are
    # +-i/sqrt(3); the corners are saddles (a corner's eigenvalues are the other actions' payoff gaps, +1 and -1).
    setup = fields.field_setup(rmcore.preset("rps"), "hedge", start=((1, 2, 3), (1, 2, 3)))
    assert setup.space == "one-population"
    points = rest(setup)
    centre = approx_key(points, ((1 / 3, 1 / 3, 1 / 3),))
    assert centre.stability == "neutral"
    assert sorted(np.imag(centre.eigenvalues)) == pytest.approx([-(3**-0.5), 3**-0.5])
    assert len(points) == 4
    assert all(sorted(np.real(p.eigenvalues)) == pytest.approx([-1, 1]) for p in points.values() if p is not centre)


def test_the_best_response_dynamic_converges_on_rps_and_at_a_strict_equilibrium_and_is_unstable_on_shapleys_game():
    rps = fields.field_setup(rmcore.preset("rps"), "fictitious-play")
    (centre,) = fields.rest_points(rps)  # the best-response dynamic rests at equilibria only
    assert centre.stability == "stable" and np.real(centre.eigenvalues) == pytest.approx([-1, -1])
    dilemma = fields.field_setup(rmcore.preset("prisoners-dilemma"), "fictitious-play")
    (defect,) = fields.rest_points(dilemma)  # best response constant nearby: x' = e - x, Jacobian -I
    assert defect.strategies == ((0.0, 1.0), (0.0, 1.0))
    assert defect.stability == "stable" and np.asarray(defect.eigenvalues) == pytest.approx([-1, -1])
    shapley = fields.joint_setup(rmcore.preset("shapley"), "fictitious-play")
    (uniform,) = fields.rest_points(shapley)
    assert uniform.stability == "unstable"  # Shapley (1964): fictitious play cycles away from it


def test_stag_hunt_under_the_replicator_two_stable_corners_and_an_unstable_mixed_equilibrium():
    points = rest(fields.field_setup(rmcore.preset("stag-hunt"), "hedge"))
    assert approx_key(points, ((1, 0), (1, 0))).stability == "stable"
    assert approx_key(points, ((0, 1), (0, 1))).stability == "stable"
    mixed = approx_key(points, ((2 / 3, 1 / 3), (2 / 3, 1 / 3)))
    # By hand: x' = x(1-x)(3y-2), y' = y(1-y)(3x-2); at (2/3, 2/3) the Jacobian is [[0, 2/3], [2/3, 0]]: +-2/3.
    assert mixed.stability == "unstable" and sorted(np.real(mixed.eigenvalues)) == pytest.approx([-2 / 3, 2 / 3])


def test_against_a_fixed_opponent_the_best_reply_corner_is_the_stable_rest_point():
    game = rmcore.preset("rps")
    setup = fields.field_setup(game, "hedge", opponent=(2, 1, 1))  # Rock-heavy: Paper is the best reply
    points = rest(setup)
    assert approx_key(points, ((0, 1, 0),)).stability == "stable"
    assert [p.stability for p in points.values()].count("stable") == 1
    still = fields.picture(fields.field_setup(game, "hedge", opponent=(1, 1, 1)))
    assert still.note == fields.NOTE_STILL and still.rest_points == ()


@pytest.mark.parametrize(
    "preset, algorithm",
    [("matching-pennies", "hedge"), ("stag-hunt", "hedge"), ("battle-of-sexes", "gda"), ("chicken", "hedge")],
)
def test_newton_from_random_starts_finds_no_rest_point_the_enumeration_missed(preset, algorithm):
    """An independent route: a root finder on the field, started anywhere in the square, lands on a listed point."""
    setup = fields.field_setup(rmcore.preset(preset), algorithm)
    listed = [np.concatenate(p.strategies)[[0, 2]] for p in fields.rest_points(setup)]
    for start in RNG.random((25, 2)):
        found = optimize.root(lambda p: fields.plane_velocity(setup, p), start, tol=1e-13)
        if found.success and np.all((-1e-9 <= found.x) & (found.x <= 1 + 1e-9)):
            if np.abs(fields.plane_velocity(setup, found.x)).max() < 1e-10:
                assert min(np.abs(found.x - point).max() for point in listed) < 1e-6, found.x


@pytest.mark.parametrize(
    "setup",
    [
        fields.field_setup(rmcore.preset("matching-pennies"), "hedge"),
        fields.field_setup(rmcore.preset("rps"), "fictitious-play"),
        fields.field_setup(rmcore.preset("rps-crash"), "gda"),
        fields.field_setup(rmcore.preset("matching-pennies"), "hedge", opponent=(1, 3)),
    ],
    ids=lambda s: f"{s.space}-{s.dynamic}",
)
def test_streamlines_stay_in_the_space_and_follow_the_field(setup):
    paths, speeds = fields.streamlines(setup)
    z = fields.from_plane(setup, paths)
    assert np.all(z >= -1e-12) and np.all(z <= 1 + 1e-12)
    steps = np.diff(paths, axis=1)
    middle = (paths[:, 1:] + paths[:, :-1]) / 2
    flow = fields.plane_velocity(setup, middle)
    moving = (np.linalg.norm(steps, axis=-1) > 1e-9) & (np.linalg.norm(flow, axis=-1) > 1e-6)
    agreement = np.sum(steps * flow, axis=-1)[moving]
    assert moving.sum() > 100 and np.mean(agreement > 0) > 0.97  # (a path may cross a best response's switch line)
    assert speeds.shape == (paths.shape[0],) and np.all(speeds >= 0)


def test_the_plane_and_the_strategies_map_back_and_forth():
    for setup, size in (
        (fields.field_setup(rmcore.preset("rps"), "hedge"), 3),
        (fields.field_setup(rmcore.preset("matching-pennies"), "hedge"), 2),
    ):
        if size == 3:
            z = random_simplex_points(20, 3)
        else:
            z = np.concatenate([random_simplex_points(20, 2), random_simplex_points(20, 2)], axis=1)
        np.testing.assert_allclose(fields.from_plane(setup, fields.to_plane(setup, z)), z, atol=1e-12)
    # Plotly's ternary: action 1 on top, action 2 bottom left, action 3 bottom right.
    assert fields.to_plane(setup := fields.field_setup(rmcore.preset("rps"), "hedge"), np.eye(3)).round(6).tolist() == [
        [0.5, round(3**0.5 / 2, 6)],
        [0.0, 0.0],
        [1.0, 0.0],
    ]
    assert setup.space == "one-population"


def test_where_no_field_is_drawn_the_reason_names_the_set_up():
    rps, shapley = rmcore.preset("rps"), rmcore.preset("shapley")
    for algorithm in ("rm", "rm+", "prm+"):
        assert fields.field_setup(rps, algorithm) == fields.NoField(fields.NO_FIELD_REGRETS)
    assert fields.field_setup(rps, "hedge", start=rps.start).reason == fields.NO_FIELD_ASYMMETRIC_START
    assert "alternating updates" in fields.field_setup(rps, "hedge", updates="alternating").reason
    assert "sampled payoffs" in fields.field_setup(rps, "hedge", sampling="sampled").reason
    assert fields.field_setup(shapley, "fictitious-play").reason == fields.NO_FIELD_SELF_PLAY
    four = rmcore.preset("random-zero-sum", rows=4, cols=2)
    assert "this learner has 4" in fields.field_setup(four, "hedge", opponent=(1, 1)).reason
    # Every rule with a field gets one on the square, in every sampling and update order (the same ODE).
    for algorithm, sampling, updates in itertools.product(fields.DYNAMIC_OF, rmcore.SAMPLINGS, rmcore.UPDATES):
        setup = fields.field_setup(rmcore.preset("matching-pennies"), algorithm, sampling=sampling, updates=updates)
        assert setup.space == "square" and setup.dynamic == fields.DYNAMIC_OF[algorithm]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(algorithm="newton"), "unknown algorithm"),
        (dict(opponent=(1, -1, 1)), "opponent must be 3 non-negative numbers"),
        (dict(opponent=(0, 0, 0)), "positive sum"),
        (dict(start=((1, 1),)), "start must be a pair"),
        (dict(start=((1, 1), (1, 1, 1))), "row start must be 3"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(kwargs, message):
    arguments = dict(algorithm="hedge") | kwargs
    with pytest.raises(ValueError, match=message):
        fields.field_setup(rmcore.preset("rps"), **arguments)
    with pytest.raises(ValueError, match="MatrixGame"):
        fields.field_setup([[1, 0], [0, 1]], "hedge")


def test_the_picture_is_computed_once_per_set_up():
    setup = fields.field_setup(rmcore.preset("matching-pennies"), "hedge")
    assert fields.picture(setup) is fields.picture(setup)
    assert fields.field_setup(rmcore.preset("matching-pennies"), "optimistic-hedge") == setup  # one dynamic, one field
