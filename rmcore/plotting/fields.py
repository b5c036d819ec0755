"""The continuous dynamics behind the matrix page's learning rules: their fields, rest points and stability.

Each rule with a small step is the Euler discretisation of a differential equation on the players' mixed strategies
(Hofbauer & Sigmund 1998, *Evolutionary Games and Population Dynamics*; Sandholm 2010, *Population Games and
Evolutionary Dynamics*). With ``u`` a player's payoff vector (``u = A y`` for the row player, ``B^T x`` for the column
player, ``A q`` against a fixed column strategy ``q``):

* Hedge and optimistic Hedge -> the **replicator dynamic** ``x_i' = x_i (u_i - x.u)`` (Taylor & Jonker 1978; Hedge's
  current strategy with step eta follows it in time ``eta t``);
* fictitious play -> the **best-response dynamic** ``x' = BR(y) - x`` (Gilboa & Matsui 1991; the average strategy
  follows it in time ``log t``);
* gradient ascent and optimistic GDA -> the **projection dynamic** ``x' = Proj_T(x)(u)``, the payoff vector projected
  onto the tangent cone of the simplex at ``x`` (Nagurney & Zhang 1997; Lahkar & Sandholm 2008).

Regret matching's family keeps its state in the regrets, not the strategies: no field in strategy space describes it.

A field is a picture of the whole state only in three set-ups (:func:`field_setup`): a 2x2 game in self-play on the
unit square (the row player's first action against the column player's), a learner against a fixed opponent on its
own simplex (a segment for 2 actions, a triangle for 3), and a symmetric 3x3 game from a symmetric start in self-play,
where both players' strategies stay equal and one triangle holds them (one population).

Everything here is numpy over arrays of points, free of Streamlit and of any solver; :func:`picture` is cached per
set-up (the game's payoffs and the rule's dynamic), so a live page computes it once.

>>> import rmcore
>>> setup = field_setup(rmcore.preset("matching-pennies"), "hedge")
>>> setup.space, setup.dynamic
('square', 'replicator')
>>> [(point.strategies, point.stability) for point in rest_points(setup) if point.is_nash]
[(((0.5, 0.5), (0.5, 0.5)), 'neutral')]
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import NamedTuple

import numpy as np

import rmcore

#: The continuous dynamic each rule discretises; the regret-matching family has none in strategy space.
DYNAMIC_OF = {
    "hedge": "replicator",
    "optimistic-hedge": "replicator",
    "fictitious-play": "best-response",
    "gda": "projection",
    "optimistic-gda": "projection",
}
#: Which of a rule's iterates is the discretised trajectory: Hedge's and GDA's current strategy moves along the field;
#: fictitious play's current strategy is a pure best response (a corner), and its average moves along the field.
FOLLOWED_BY = {
    "hedge": "current",
    "optimistic-hedge": "current",
    "fictitious-play": "average",
    "gda": "current",
    "optimistic-gda": "current",
}
DYNAMIC_NAMES = {
    "replicator": "replicator dynamic ẋᵢ = xᵢ(uᵢ − x·u)",
    "best-response": "best-response dynamic ẋ = BR(y) − x",
    "projection": "projection dynamic ẋ = Π_T(x)(u)",
}
#: Each dynamic's name and its equation, for a chart's title.
DYNAMIC_TITLES = {
    "replicator": ("Replicator dynamic", "ẋᵢ = xᵢ(uᵢ − x·u)"),
    "best-response": ("Best-response dynamic", "ẋ = BR(y) − x"),
    "projection": ("Projection dynamic", "ẋ = Π_T(x)(u)"),
}
#: Where a field is drawn: the unit square of a 2x2 game, a fixed opponent's learner on a segment (2 actions) or a
#: triangle (3), and one population's triangle.
SPACES = ("square", "segment", "simplex", "one-population")
#: Two populations of up to 3 actions each, in self-play: rest points and their stability only (no picture holds
#: the joint state), see :func:`joint_setup`.
JOINT = "two-populations"
STABILITIES = ("stable", "unstable", "neutral")

#: Temperature of the logit dynamic ``x' = softmax(u / tau) - x`` that smooths the best-response dynamic where it
#: is not differentiable (a mixed equilibrium), as a share of the largest payoff's size (see :func:`rest_points`).
LOGIT_TEMPERATURE = 1e-3
#: Finite-difference step for Jacobians (the fields are polynomials of degree 3 at most where they are smooth).
DIFFERENCE_STEP = 1e-6
#: Eigenvalues whose real part is within this share of the payoff scale of 0 count as 0 (a centre, "neutral").
NEUTRAL_TOLERANCE = 1e-7

NO_FIELD_REGRETS = (
    "No field is drawn for regret matching's family: its state is the cumulative regrets, not the strategies, so no "
    "field in strategy space describes it (Hedge, fictitious play and GDA have one)."
)
NO_FIELD_SELF_PLAY = (
    "No field is drawn: in self-play the state is both players' strategies, which one picture holds only for a 2x2 "
    "game (the square) or a symmetric 3x3 game from a symmetric start (one triangle)."
)
NO_FIELD_ASYMMETRIC_START = (
    "No field is drawn: the two players start at different points, so their strategies differ and the state is two "
    "triangles (four numbers). Start both at one point (click the triangle) to see the one-population field."
)
NO_FIELD_BROKEN_SYMMETRY = (
    "No field is drawn: {what} treat the two players differently, so their strategies part and the state is two "
    "triangles (four numbers); expected payoffs and simultaneous updates keep them equal."
)
NO_FIELD_FIXED_SIZE = (
    "No field is drawn: against a fixed opponent the learner's own simplex holds the whole state, and it is drawn for "
    "3 actions (a triangle) or, against 2 columns, 2 actions (a line across the square); this learner has {m}."
)


class Setup(NamedTuple):
    """Where a field is drawn and which one: hashable, so that :func:`picture` can be cached on it.

    ``payoffs`` holds the game as the dynamic sees it: ``(A, B)`` (nested tuples) on the square, ``(A,)`` for one
    population (``u = A x``), ``(u,)`` against a fixed opponent (the learner's payoff vector ``A q``). ``anchor`` is
    the fixed opponent's weight on its first action, where a 2-action learner's segment crosses the square.
    """

    dynamic: str
    space: str
    payoffs: tuple
    anchor: float = 0.0


class NoField(NamedTuple):
    """Why no field is drawn for this set-up, in one line for the page."""

    reason: str


class RestPoint(NamedTuple):
    """A rest point of the dynamic: each population's strategy, the eigenvalues that classify it, its class.

    ``is_nash`` says whether it is a Nash equilibrium of the set-up (every rest point of the best-response and the
    projection dynamics is; the replicator also rests on the corners and on faces where the used actions tie).
    """

    strategies: tuple[tuple[float, ...], ...]
    eigenvalues: tuple[complex, ...]
    stability: str
    is_nash: bool


class Picture(NamedTuple):
    """What the chart draws of a field: short streamlines in the plane (``paths``, one row of points each, forward
    end last) with their speed ``|ż|`` at the middle point, the rest points, and a note (a continuum of rest points,
    or a field that is zero everywhere) or ``""``."""

    paths: np.ndarray
    speeds: np.ndarray
    rest_points: tuple[RestPoint, ...]
    note: str


# -- the set-up ---------------------------------------------------------------------------------


def _unit(weights) -> np.ndarray:
    array = np.asarray(weights, dtype=float)
    return array / array.sum()


def _nested(matrix: np.ndarray) -> tuple:
    return tuple(tuple(float(v) for v in row) for row in np.asarray(matrix, dtype=float))


def field_setup(
    game: rmcore.MatrixGame,
    algorithm: str,
    *,
    opponent=None,
    start=None,
    sampling: str = "expected",
    updates: str = "simultaneous",
) -> Setup | NoField:
    """The field that pictures ``algorithm``'s whole state on ``game`` in this set-up, or why there is none.

    Parameters
    ----------
    game : rmcore.MatrixGame
    algorithm : str
        A key of ``rmcore.ALGORITHMS``.
    opponent : sequence of float, optional
        A fixed column strategy (weights); ``None`` is self-play.
    start : (row weights, column weights), optional
        Where learning starts (``None``: uniform, which is symmetric).
    sampling, updates : str
        The variant's sampling and updates: one population needs expected payoffs and simultaneous updates, which keep
        the two players' strategies equal.

    Raises
    ------
    ValueError
        For an unknown algorithm, a game that is not a ``MatrixGame``, or an opponent or start of the wrong size.
    """
    if not isinstance(game, rmcore.MatrixGame):
        raise ValueError(f"game must be an rmcore.MatrixGame, got {type(game).__name__}")
    if algorithm not in rmcore.ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of: {', '.join(rmcore.ALGORITHMS)}")
    m, n = game.shape
    a, b = game.row_payoffs, game.col_payoffs
    if opponent is not None:
        q = _checked_weights(opponent, n, "opponent")
    if start is not None:
        if len(start) != 2:
            raise ValueError("start must be a pair: the row player's weights and the column player's")
        start = (_checked_weights(start[0], m, "row start"), _checked_weights(start[1], n, "column start"))
    dynamic = DYNAMIC_OF.get(algorithm)
    if dynamic is None:
        return NoField(NO_FIELD_REGRETS)
    if opponent is not None:
        payoff = tuple(float(v) for v in a @ q)
        if m == 3:
            return Setup(dynamic, "simplex", (payoff,))
        if m == 2 and n == 2:
            return Setup(dynamic, "segment", (payoff,), anchor=float(q[0]))
        return NoField(NO_FIELD_FIXED_SIZE.format(m=m))
    if (m, n) == (2, 2):
        return Setup(dynamic, "square", (_nested(a), _nested(b)))
    if (m, n) != (3, 3) or not np.array_equal(b, a.T):
        return NoField(NO_FIELD_SELF_PLAY)
    broken = [
        what
        for what, on in (
            ("sampled payoffs", sampling != "expected"),
            ("alternating updates", updates != "simultaneous"),
        )
        if on
    ]
    if broken:
        return NoField(NO_FIELD_BROKEN_SYMMETRY.format(what=" and ".join(broken)))
    if start is not None and not np.allclose(start[0], start[1], atol=1e-12):
        return NoField(NO_FIELD_ASYMMETRIC_START)
    return Setup(dynamic, "one-population", (_nested(a),))


def joint_setup(game: rmcore.MatrixGame, algorithm: str) -> Setup | NoField:
    """The two-population dynamic of self-play on ``game`` (up to 3x3), for its rest points and their stability where
    no picture holds the joint state (Shapley's game: four numbers); its field is not drawn."""
    if not isinstance(game, rmcore.MatrixGame):
        raise ValueError(f"game must be an rmcore.MatrixGame, got {type(game).__name__}")
    if algorithm not in rmcore.ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of: {', '.join(rmcore.ALGORITHMS)}")
    dynamic = DYNAMIC_OF.get(algorithm)
    if dynamic is None:
        return NoField(NO_FIELD_REGRETS)
    if max(game.shape) > 3:
        return NoField("Rest points are computed for games of up to 3x3.")
    return Setup(dynamic, JOINT, (_nested(game.row_payoffs), _nested(game.col_payoffs)))


def _checked_weights(weights, size: int, who: str) -> np.ndarray:
    try:
        array = np.asarray(weights, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{who} must be {size} non-negative numbers") from None
    if array.shape != (size,) or not np.all(np.isfinite(array)) or np.any(array < 0) or array.sum() <= 0:
        raise ValueError(f"{who} must be {size} non-negative numbers with a positive sum, got {list(array)}")
    return _unit(array)


# -- the set-up as a linear payoff map on the stacked strategies ----------------------------------


class _Linear(NamedTuple):
    """Payoffs as ``u(z) = M z + c`` of the stacked strategies ``z`` (every population's, one after the other)."""

    matrix: np.ndarray
    constant: np.ndarray
    sizes: tuple[int, ...]
    scale: float  # the largest payoff's size (at least 1e-12): tolerances are shares of it


@functools.lru_cache(maxsize=64)
def _linear(setup: Setup) -> _Linear:
    if setup.space not in (*SPACES, JOINT):
        raise ValueError(f"unknown space {setup.space!r}; choose one of: {', '.join(SPACES)}")
    if setup.dynamic not in DYNAMIC_NAMES:
        raise ValueError(f"unknown dynamic {setup.dynamic!r}; choose one of: {', '.join(DYNAMIC_NAMES)}")
    if setup.space in ("square", JOINT):
        a, b = (np.array(p, dtype=float) for p in setup.payoffs)
        m, n = a.shape
        matrix = np.block([[np.zeros((m, m)), a], [b.T, np.zeros((n, n))]])
        constant, sizes, values = np.zeros(m + n), (m, n), np.concatenate([a.ravel(), b.ravel()])
    elif setup.space == "one-population":
        matrix = np.array(setup.payoffs[0], dtype=float)
        constant, sizes, values = np.zeros(3), (3,), matrix.ravel()
    else:
        constant = np.array(setup.payoffs[0], dtype=float)
        size = 3 if setup.space == "simplex" else 2
        if constant.shape != (size,):
            raise ValueError(f"a {setup.space} set-up needs {size} payoffs, got {constant.shape[0]}")
        matrix, sizes, values = np.zeros((size, size)), (size,), constant
    matrix.flags.writeable = constant.flags.writeable = False
    return _Linear(matrix, constant, sizes, max(float(np.abs(values).max()), 1e-12))


def _slices(sizes: tuple[int, ...]) -> list[slice]:
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    return [slice(int(offsets[k]), int(offsets[k + 1])) for k in range(len(sizes))]


# -- the three dynamics, vectorised over points -------------------------------------------------------


def replicator(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The replicator dynamic ``x_i' = x_i (u_i - x.u)`` at every point (last axis: actions).

    >>> replicator(np.array([0.5, 0.5]), np.array([1.0, -1.0])).tolist()
    [0.5, -0.5]
    """
    x, u = np.asarray(x, dtype=float), np.asarray(u, dtype=float)
    return x * (u - np.sum(x * u, axis=-1, keepdims=True))


def best_response(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The best-response dynamic ``x' = e_BR - x``, the best response a pure action (ties to the lowest index, as
    ``rmcore``'s fictitious play breaks them).

    >>> best_response(np.array([0.5, 0.5]), np.array([0.0, 1.0])).tolist()
    [-0.5, 0.5]
    """
    x, u = np.asarray(x, dtype=float), np.asarray(u, dtype=float)
    target = np.zeros(np.broadcast_shapes(x.shape, u.shape))
    np.put_along_axis(target, np.argmax(u, axis=-1)[..., None], 1.0, axis=-1)
    return target - x


def projection(x: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The projection dynamic ``x' = Proj_T(x)(u)``: ``u`` projected onto the tangent cone of the simplex at ``x``.

    The cone is ``{v : sum(v) = 0, v_i >= 0 where x_i = 0}``; the projection is ``u_i - mean_S(u)`` on an active set
    ``S`` and 0 off it, where ``S`` is the support of ``x`` plus each unused action whose payoff beats the mean over
    ``S`` (added best first, the mean updated as each joins; Lahkar & Sandholm 2008, section 3).

    >>> projection(np.array([1.0, 0.0, 0.0]), np.array([1.0, 0.0, 3.0])).tolist()
    [-1.0, 0.0, 1.0]
    """
    x, u = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(u, dtype=float))
    used = x > 0
    active = used.copy()
    total = np.where(used, u, 0.0).sum(axis=-1)
    count = used.sum(axis=-1).astype(float)
    order = np.argsort(np.where(used, np.inf, -u), axis=-1, kind="stable")  # the unused actions first, best first
    joining = np.ones(x.shape[:-1], dtype=bool)
    for position in range(x.shape[-1]):
        index = order[..., position : position + 1]
        payoff = np.take_along_axis(u, index, axis=-1)[..., 0]
        unused = ~np.take_along_axis(used, index, axis=-1)[..., 0]
        # Once one fails to beat the mean, the later ones (no better, against a mean no lower) fail too.
        joining = joining & unused & (payoff * count > total)
        np.put_along_axis(active, index, (np.take_along_axis(active, index, axis=-1)[..., 0] | joining)[..., None], -1)
        total = total + np.where(joining, payoff, 0.0)
        count = count + joining
    mean = total / np.maximum(count, 1.0)
    return np.where(active, u - mean[..., None], 0.0)


_RULES = {"replicator": replicator, "best-response": best_response, "projection": projection}


def velocity(setup: Setup, z: np.ndarray) -> np.ndarray:
    """``ż`` at stacked strategies ``z`` (``(..., d)``: every population's strategy, one after the other)."""
    linear = _linear(setup)
    z = np.asarray(z, dtype=float)
    u = z @ linear.matrix.T + linear.constant
    rule = _RULES[setup.dynamic]
    return np.concatenate([rule(z[..., part], u[..., part]) for part in _slices(linear.sizes)], axis=-1)


# -- points in the plane of the chart ----------------------------------------------------------------

#: The triangle's corners in the plane, as Plotly's ternary draws them: action 1 (a) on top, action 2 (b) bottom left,
#: action 3 (c) bottom right.
TRIANGLE = np.array([[0.5, math.sqrt(3) / 2], [0.0, 0.0], [1.0, 0.0]])


def to_plane(setup: Setup, z: np.ndarray) -> np.ndarray:
    """Stacked strategies -> the chart's plane: ``(x1, y1)`` on the square, ``(x1, anchor)`` on a segment, the point
    of the triangle otherwise."""
    z = np.asarray(z, dtype=float)
    if setup.space == "square":
        return np.stack([z[..., 0], z[..., 2]], axis=-1)
    if setup.space == "segment":
        return np.stack([z[..., 0], np.full(z.shape[:-1], setup.anchor)], axis=-1)
    return z[..., :3] @ TRIANGLE


def from_plane(setup: Setup, points: np.ndarray) -> np.ndarray:
    """The chart's plane -> stacked strategies (the inverse of :func:`to_plane` on the space)."""
    points = np.asarray(points, dtype=float)
    px, py = points[..., 0], points[..., 1]
    if setup.space == "square":
        return np.stack([px, 1 - px, py, 1 - py], axis=-1)
    if setup.space == "segment":
        return np.stack([px, 1 - px], axis=-1)
    first = py / TRIANGLE[0, 1]
    third = px - first / 2
    return np.stack([first, 1 - first - third, third], axis=-1)


def _into_space(setup: Setup, points: np.ndarray) -> np.ndarray:
    """Points moved back into the space (a streamline stepping over an edge slides along it)."""
    if setup.space == "square":
        return np.clip(points, 0.0, 1.0)
    if setup.space == "segment":
        return np.stack([np.clip(points[..., 0], 0.0, 1.0), points[..., 1]], axis=-1)
    z = np.clip(from_plane(setup, points), 0.0, None)
    return to_plane(setup, z / z.sum(axis=-1, keepdims=True))


def plane_velocity(setup: Setup, points: np.ndarray) -> np.ndarray:
    """The field at points of the plane, as a velocity in the plane."""
    z = from_plane(setup, points)
    dz = velocity(setup, z)
    if setup.space == "square":
        return np.stack([dz[..., 0], dz[..., 2]], axis=-1)
    if setup.space == "segment":
        return np.stack([dz[..., 0], np.zeros(dz.shape[:-1])], axis=-1)
    return dz @ TRIANGLE  # linear, and the rows of dz sum to 0: the translation part drops out


def seeds(setup: Setup, density: int = 13) -> np.ndarray:
    """Where streamlines start: cell centres of a ``density`` x ``density`` grid on the square, ``density`` points
    along a segment, a triangular lattice of ``density`` rows in the triangle (its edges included, its corners not)."""
    if setup.space == "square":
        ticks = (np.arange(density) + 0.5) / density
        grid_x, grid_y = np.meshgrid(ticks, ticks)
        return np.stack([grid_x.ravel(), grid_y.ravel()], axis=-1)
    if setup.space == "segment":
        ticks = (np.arange(density) + 0.5) / density
        return np.stack([ticks, np.full(density, setup.anchor)], axis=-1)
    rows = density - 1
    lattice = np.array(
        [(i, j, rows - i - j) for i in range(rows + 1) for j in range(rows + 1 - i) if max(i, j, rows - i - j) < rows],
        dtype=float,
    )
    inset = 0.01  # just inside, so that an edge's streamline runs along it visibly
    z = (1 - inset) * lattice / rows + inset / 3
    return z @ TRIANGLE


def streamlines(setup: Setup, density: int = 13, length: float | None = None, steps: int = 10):
    """Short streamlines through the :func:`seeds`, all at once: ``(paths, speeds)``.

    Each path runs ``length`` (in the plane; the space is about 1 across) through its seed, half backward and half
    forward, in ``steps`` midpoint steps along the normalised field, so that slow and fast regions are both drawn;
    ``speeds`` (``|ż|`` at the seed) carries the speed, for the colour. A path that meets a rest point stops there.
    Written here because Plotly has no stream plot; every path advances together (numpy over the seeds).
    """
    start = seeds(setup, density)
    if length is None:
        length = 0.9 / density
    step = length / (2 * steps)
    speeds = np.linalg.norm(velocity(setup, from_plane(setup, start)), axis=-1)
    tiny = NEUTRAL_TOLERANCE * _linear(setup).scale

    def direction(points):
        flow = plane_velocity(setup, points)
        size = np.linalg.norm(flow, axis=-1, keepdims=True)
        return np.where(size > tiny, flow / np.maximum(size, tiny), 0.0)

    def walk(sign):
        points, path = start, []
        for _ in range(steps):
            middle = _into_space(setup, points + sign * 0.5 * step * direction(points))
            points = _into_space(setup, points + sign * step * direction(middle))
            path.append(points)
        return path

    backward, forward = walk(-1.0), walk(1.0)
    paths = np.stack([*backward[::-1], start, *forward], axis=1)
    return paths, speeds


# -- rest points and their stability ------------------------------------------------------------------


def _supports(size: int):
    return [s for r in range(1, size + 1) for s in itertools.combinations(range(size), r)]


def _tangent_basis(sizes, supports) -> np.ndarray:
    """Columns spanning the directions within the face ``supports`` (per population ``e_i - e_last`` over its
    support); a pure population contributes none."""
    columns = []
    offset = 0
    for size, support in zip(sizes, supports):
        for i in support[:-1]:
            column = np.zeros(sum(sizes))
            column[offset + i], column[offset + support[-1]] = 1.0, -1.0
            columns.append(column)
        offset += size
    return np.array(columns).T if columns else np.zeros((sum(sizes), 0))


def _in_basis(basis: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """Coordinates of ``vectors`` (columns, in the span of ``basis``) in ``basis``."""
    return np.linalg.lstsq(basis, vectors, rcond=None)[0]


def _difference_jacobian(setup: Setup, z: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The field's Jacobian at ``z`` along ``basis`` (central differences), in the basis' coordinates."""
    used = z[z > 0]
    h = min(DIFFERENCE_STEP, 0.25 * float(used.min())) if used.size else DIFFERENCE_STEP  # stay on the face
    columns = [(velocity(setup, z + h * v) - velocity(setup, z - h * v)) / (2 * h) for v in basis.T]
    return _in_basis(basis, np.array(columns).T) if columns else np.zeros((0, 0))


def classify(eigenvalues, scale: float = 1.0) -> str:
    """``"stable"`` when every eigenvalue's real part is below 0, ``"unstable"`` when one is above, ``"neutral"``
    otherwise (a centre: the largest real part is 0 within ``NEUTRAL_TOLERANCE * scale``).

    >>> classify([-1 + 2j, -1 - 2j]), classify([0.5, -1.0]), classify([1j, -1j])
    ('stable', 'unstable', 'neutral')
    """
    real = np.real(np.asarray(eigenvalues, dtype=complex))
    if real.size == 0:
        return "neutral"
    tolerance = NEUTRAL_TOLERANCE * scale
    if real.max() > tolerance:
        return "unstable"
    return "stable" if real.max() < -tolerance else "neutral"


def jacobian(setup: Setup, z, support=None) -> np.ndarray:
    """The dynamic's Jacobian at the rest point ``z`` (stacked strategies), in coordinates of the tangent space of
    the product of simplices; its eigenvalues classify the rest point (:func:`classify`).

    * Replicator: central differences of the field (a polynomial, smooth on the whole tangent space).
    * Best response: it jumps where best responses tie, so its Jacobian is that of its smoothed form, the logit
      dynamic ``x' = softmax(u / tau) - x`` (Fudenberg & Levine 1998, ch. 4; Hofbauer & Sandholm 2002), at the
      equilibrium: ``-I + C(z) Du / tau`` with ``C(x) = diag(x) - x x^T`` per population and ``tau`` =
      ``LOGIT_TEMPERATURE`` times the payoff scale. A strict pure equilibrium gets ``-I``; an interior one is stable
      unless the replicator's Jacobian ``C(z) Du`` there has an eigenvalue with positive real part.
    * Projection: smooth inside the space (central differences there). On a face (``support``, per population, the
      rest point's) it is smooth along the face only: the face's Jacobian by central differences, and for every
      unused action its payoff minus its population's mean payoff on the support, the sign of the rate at which that
      action's share grows just off the face (a block-triangular Jacobian: these are its other eigenvalues).
    """
    linear = _linear(setup)
    z = np.asarray(z, dtype=float)
    parts = _slices(linear.sizes)
    full = tuple(tuple(range(size)) for size in linear.sizes)
    basis = _tangent_basis(linear.sizes, full)
    if setup.dynamic == "replicator":
        return _difference_jacobian(setup, z, basis)
    if setup.dynamic == "best-response":
        spread = np.zeros((len(z), len(z)))
        for part in parts:
            x = z[part]
            spread[part, part] = np.diag(x) - np.outer(x, x)
        tau = LOGIT_TEMPERATURE * linear.scale
        moved = -basis + spread @ linear.matrix @ basis / tau
        return _in_basis(basis, moved)
    if support is None:
        support = tuple(tuple(int(i) for i in np.flatnonzero(z[part] > 0)) for part in parts)
    if support == full:
        return _difference_jacobian(setup, z, basis)
    face = _tangent_basis(linear.sizes, support)
    along = _difference_jacobian(setup, z, face)
    u = linear.matrix @ z + linear.constant
    gaps = [
        u[part][i] - u[part][list(used)].mean()
        for part, used, size in zip(parts, support, linear.sizes)
        for i in range(size)
        if i not in used
    ]
    size = along.shape[0] + len(gaps)
    block = np.zeros((size, size))
    block[: along.shape[0], : along.shape[0]] = along
    block[along.shape[0] :, along.shape[0] :] = np.diag(gaps)
    return block


class _Found(NamedTuple):
    points: tuple[RestPoint, ...]
    continuum: bool


@functools.lru_cache(maxsize=64)
def _rest_points(setup: Setup) -> _Found:
    """Every rest point, one face at a time: on the face with supports ``S_p``, the replicator rests where each
    population's used actions earn the same (a linear system in the used shares); a solution with every used share
    positive is a rest point in that face's interior. A face whose system has many solutions holds a continuum."""
    linear = _linear(setup)
    parts = _slices(linear.sizes)
    tolerance = 1e-9 * linear.scale
    found, continuum = [], False
    for supports in itertools.product(*(_supports(size) for size in linear.sizes)):
        used = [part.start + i for part, support in zip(parts, supports) for i in support]
        rows, rhs = [], []
        for part, support in zip(parts, supports):
            first = part.start + support[0]
            for i in support[1:]:
                rows.append(linear.matrix[part.start + i, used] - linear.matrix[first, used])
                rhs.append(linear.constant[first] - linear.constant[part.start + i])
            rows.append(np.isin(used, [part.start + i for i in support]).astype(float))
            rhs.append(1.0)
        system, target = np.array(rows), np.array(rhs)
        shares, _, rank, _ = np.linalg.lstsq(system, target, rcond=None)
        if np.abs(system @ shares - target).max() > tolerance:
            continue  # no point of this face's interior is at rest
        if rank < len(used):
            continuum = True  # a line (or more) of rest points: it holds no isolated one
            continue
        if shares.min() <= 1e-9:
            continue  # on a smaller face, found there
        z = np.zeros(sum(linear.sizes))
        z[used] = shares
        u = linear.matrix @ z + linear.constant
        nash = all(u[part].max() <= u[part][list(support)].max() + tolerance for part, support in zip(parts, supports))
        if setup.dynamic != "replicator" and not nash:
            continue  # the best-response and projection dynamics rest at equilibria only
        values = np.linalg.eigvals(jacobian(setup, z, supports))
        strategies = tuple(tuple(float(round(v, 12)) + 0.0 for v in z[part]) for part in parts)
        found.append(RestPoint(strategies, tuple(complex(v) for v in values), classify(values, linear.scale), nash))
    return _Found(tuple(found), continuum)


def rest_points(setup: Setup) -> tuple[RestPoint, ...]:
    """The dynamic's isolated rest points in this set-up, each classified from its Jacobian's eigenvalues.

    Found face by face (:func:`_rest_points`): the replicator's are every point where each population's used actions
    earn the same (corners included); the best-response and projection dynamics rest exactly at the Nash equilibria of
    the set-up, the subset where no unused action earns more.
    """
    return _rest_points(setup).points


def speed_scale(setup: Setup) -> float:
    """The payoff scale the set-up's tolerances are shares of."""
    return _linear(setup).scale


NOTE_CONTINUUM = (
    "Some rest points form a line or a region (actions that tie everywhere there): only isolated ones are marked."
)
NOTE_STILL = "The field is zero everywhere: the opponent leaves the learner indifferent, and every point is at rest."


@functools.lru_cache(maxsize=32)
def picture(setup: Setup, density: int = 13) -> Picture:
    """The field's streamlines and rest points for one set-up, computed once (cached per game and dynamic)."""
    paths, speeds = streamlines(setup, density)
    found = _rest_points(setup)
    note, points = "", found.points
    if speeds.max(initial=0.0) <= NEUTRAL_TOLERANCE * _linear(setup).scale:
        note, points = NOTE_STILL, ()  # every point rests: none is isolated
    elif found.continuum:
        note = NOTE_CONTINUUM
    paths.flags.writeable = speeds.flags.writeable = False
    return Picture(paths, speeds, points, note)
