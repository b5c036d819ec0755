"""Nash equilibria of a two-player matrix game (general-sum): every extreme one and the set's components by vertex
enumeration, or one by Lemke-Howson.

A profile ``(x, y)`` of the row player's and the column player's mixed strategies is a Nash equilibrium when neither
gains by deviating: ``x^T A y >= (A y)_i`` for every row ``i`` and ``x^T B y >= (x^T B)_j`` for every column ``j``.

**Vertex enumeration** (Mangasarian 1964; Avis, Rosenberg, Savani & von Stengel 2010; von Stengel 2007, "Equilibrium
computation for two-player games in strategic and extensive form", Algorithmic Game Theory, ch. 3, section 3.5). With
the payoffs made positive, the best-response polytopes

    P = {x >= 0 : B^T x <= 1},    Q = {y >= 0 : A y <= 1}

label each point by the actions it does not play (``x_i = 0``, ``y_j = 0``) and the other player's best responses it
makes (``(B^T x)_j = 1``, ``(A y)_i = 1``). A pair of vertices ``(x, y) != (0, 0)`` that together carry every one
of the ``m + n`` labels is an equilibrium, normalised: ``(x / sum(x), y / sum(y))``. Every vertex is the solution of
``m`` (or ``n``) of the polytope's constraints taken as equalities, so trying every such choice lists them all, in a
degenerate game too (a vertex met by more constraints than its dimension is found from each of its choices, once).
The pairs found are the **extreme equilibria**: what Nashpy's ``vertex_enumeration`` and Gambit's ``enummixed`` list.

A degenerate game's equilibria may come in continua. The set is a finite union of **maximal Nash subsets**
``conv(X) x conv(Y)``: sets of extreme row strategies ``X`` and column strategies ``Y`` of which every pairing is an
equilibrium (Winkels 1979; Avis et al. 2010, section 4, the clique method of Gambit's ``enummixed``), so every mix of
the ``X`` against every mix of the ``Y`` is one too. The subsets that share an extreme equilibrium make up a
**component** of the set (a connected part of it): a component of one extreme equilibrium is an isolated point,
any other is a continuum. :func:`equilibrium_distance` measures how far a profile is from the whole set.

The choices number ``C(m + n, m)`` and ``C(m + n, n)``: 12,870 each at 8x8. Beyond :data:`MAX_ENUMERATION_ACTIONS`
actions **Lemke-Howson** (Lemke & Howson 1964; von Stengel 2007, section 3.4) finds one equilibrium by complementary
pivoting on the same polytopes: from the artificial pair ``(0, 0)`` it drops one label ``k`` and pivots alternately
in the two tableaux, each pivot bringing in the variable whose label the other tableau just lost, until ``k`` is
picked up again. The ratio test is lexicographic, so that a degenerate game cannot make it cycle. Both are bounded in
time (``time_limit``, :data:`TIME_LIMIT` seconds by default): past it they stop and say so.

:func:`support_enumeration` (Dickhaut & Kaplan 1991) is kept for nondegenerate games: it solves the indifference
equations of every pair of supports of equal size.

>>> import rmcore
>>> found = nash_equilibria(rmcore.preset("battle-of-sexes"))
>>> [(eq.row.round(4).tolist(), eq.col.round(4).tolist()) for eq in found.equilibria]
[([1.0, 0.0], [1.0, 0.0]), ([0.0, 1.0], [0.0, 1.0]), ([0.6667, 0.3333], [0.3333, 0.6667])]
>>> found.method, found.complete, found.components
('vertex enumeration', True, ((0,), (1,), (2,)))

A degenerate game: the row player's top row is strict, the column player indifferent. One component, a continuum,
and a profile on it is at distance 0:

>>> found = nash_equilibria(rmcore.MatrixGame([[1, 1], [0, 0]], [[1, 1], [0, 0]]))
>>> found.degenerate, len(found.equilibria), found.components
(True, 2, ((0, 1),))
>>> equilibrium_distance(found, [1, 0], [0.5, 0.5])
(0, 0.0)
"""

from __future__ import annotations

import itertools
import time
from typing import NamedTuple

import numpy as np
from scipy.optimize import linprog

from ..matrix.games import MatrixGame

__all__ = [
    "NashEquilibrium",
    "NashEquilibria",
    "nash_equilibria",
    "NashSubset",
    "support_enumeration",
    "vertex_enumeration",
    "lemke_howson",
    "nearest_equilibrium",
    "equilibrium_distance",
    "MAX_ENUMERATION_ACTIONS",
    "TIME_LIMIT",
]

#: Most actions a player may have for :func:`nash_equilibria` to enumerate vertices (C(16, 8) = 12,870 choices of
#: constraints a polytope at 8x8); a larger game gets one equilibrium by Lemke-Howson.
MAX_ENUMERATION_ACTIONS = 8
#: Largest size of either player's action set :func:`support_enumeration` and :func:`vertex_enumeration` take when
#: called directly (C(12, k)^2 summed over k is 2.7 million pairs of supports; C(24, 12) is 2.7 million choices).
MAX_SUPPORT_ACTIONS = 12
#: Seconds :func:`nash_equilibria`, :func:`vertex_enumeration` and :func:`lemke_howson` may take by default before
#: they stop and say so (a Lemke-Howson pivot of a 1000x1000 game costs milliseconds, and a path may be thousands of
#: pivots long).
TIME_LIMIT = 10.0
#: Choices of constraints solved at once in :func:`vertex_enumeration` (a batch of 8x8 systems: 8,192 x 64 doubles).
_BATCH = 8192
#: Most pivots Lemke-Howson makes before giving up (a path is usually tens or hundreds of pivots long; the longest
#: known are exponential, Savani & von Stengel 2006).
MAX_PIVOTS = 100_000
#: Relative tolerance of the equalities and inequalities above (payoffs are scaled to a range of 1 first).
TOLERANCE = 1e-9


class NashEquilibrium(NamedTuple):
    """One Nash equilibrium: the row and the column player's mixed strategies and what each earns."""

    row: np.ndarray
    col: np.ndarray
    row_payoff: float
    col_payoff: float


class NashSubset(NamedTuple):
    """A maximal Nash subset: extreme row strategies ``rows`` and column strategies ``cols`` of which every pairing is
    an equilibrium, so that every mix of the rows against every mix of the columns is one (``conv(rows) x
    conv(cols)``), and no extreme equilibrium can be added."""

    rows: np.ndarray  # (k, m): k extreme row strategies
    cols: np.ndarray  # (l, n)
    equilibria: tuple[int, ...]  # the k * l pairings, as indices into NashEquilibria.equilibria


class NashEquilibria(NamedTuple):
    """The equilibria found, how, and whether they are all of them.

    ``complete`` is True when vertex enumeration ran: ``equilibria`` is every extreme equilibrium, ``subsets`` the
    maximal Nash subsets they make and ``components`` the components of the set (each the indices of its extreme
    equilibria: one index, an isolated equilibrium; more, a continuum). It is False for Lemke-Howson's one (its
    single equilibrium is then its one subset and component, though the game may have others), and for
    :func:`support_enumeration` on a degenerate game (``degenerate``: some mixed strategy of ``k`` actions has more
    than ``k`` pure best responses), whose equilibria may have supports of unequal sizes or come in continua.
    """

    equilibria: tuple[NashEquilibrium, ...]
    method: str
    complete: bool
    degenerate: bool
    subsets: tuple[NashSubset, ...] = ()
    components: tuple[tuple[int, ...], ...] = ()

    @property
    def continua(self) -> int:
        """How many components are continua (more than one extreme equilibrium)."""
        return sum(len(component) > 1 for component in self.components)


def _payoffs(game) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame (rmcore.preset(...) or rmcore.MatrixGame(A, B)), got {type(game)}")
    return game.row_payoffs, game.col_payoffs


def _scaled(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both matrices moved and scaled to lie in [0, 1] (each on its own): the equilibria do not change, and the
    tolerances become relative."""

    def unit(m: np.ndarray) -> np.ndarray:
        spread = float(m.max() - m.min())
        return (m - m.min()) / spread if spread > 0 else np.zeros_like(m)

    return unit(a), unit(b)


def _equilibrium(a: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray) -> NashEquilibrium:
    x = np.clip(x, 0.0, None)
    y = np.clip(y, 0.0, None)
    x, y = x / x.sum(), y / y.sum()
    return NashEquilibrium(x, y, float(x @ a @ y), float(x @ b @ y))


def _indifferent(payoffs: np.ndarray, rows: tuple[int, ...], cols: tuple[int, ...]) -> tuple[np.ndarray | None, bool]:
    """The mix ``p`` over ``cols`` that makes every row of ``rows`` earn the same, ``payoffs[rows][:, cols] @ p = u``,
    with ``sum(p) = 1``, and whether the system shows the game degenerate.

    A singular system has no solution (no equilibrium on these supports: RPS's ``{R, P} x {R, P}``) or a line of them
    (a continuum of candidates, which a nondegenerate game never has): ``(None, False)`` or ``(None, True)``.
    """
    k = len(rows)
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = payoffs[np.ix_(rows, cols)]
    system[:k, k] = -1.0
    system[k, :k] = 1.0
    target = np.zeros(k + 1)
    target[k] = 1.0
    if np.linalg.cond(system) < 1 / TOLERANCE:
        return np.linalg.solve(system, target)[:k], False
    solution = np.linalg.lstsq(system, target, rcond=None)[0]
    consistent = np.abs(system @ solution - target).max() <= TOLERANCE
    return None, bool(consistent)


def _enumerable_shape(payoffs: np.ndarray, method: str) -> tuple[int, int]:
    """The game's shape ``(m, n)``, refused with a sentence naming ``method`` when a side passes
    :data:`MAX_SUPPORT_ACTIONS`."""
    m, n = payoffs.shape
    if max(m, n) > MAX_SUPPORT_ACTIONS:
        raise ValueError(
            f"{method} takes games of at most {MAX_SUPPORT_ACTIONS} actions a player; this one is {m}x{n} "
            "(use lemke_howson for one equilibrium)"
        )
    return m, n


def support_enumeration(game: MatrixGame) -> NashEquilibria:
    """Every Nash equilibrium of a nondegenerate two-player game, by enumerating pairs of supports of equal size.

    Parameters
    ----------
    game
        A :class:`~rmcore.MatrixGame` of at most :data:`MAX_SUPPORT_ACTIONS` actions a player.

    Returns
    -------
    NashEquilibria
        In the order found: smaller supports first, then the row player's support, then the column player's, in
        lexicographic order of the actions. ``degenerate`` is True when a pair of supports has a line of candidate
        solutions or an equilibrium found has more best responses than its support (its list may then miss
        equilibria).

    Raises
    ------
    ValueError
        If ``game`` is not a MatrixGame or is larger than :data:`MAX_SUPPORT_ACTIONS` a side.
    """
    a, b = _payoffs(game)
    m, n = _enumerable_shape(a, "support enumeration")
    sa, sb = _scaled(a, b)
    found: list[NashEquilibrium] = []
    degenerate = False
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                y_on, line_y = _indifferent(sa, rows, cols)  # y makes the row player indifferent over ``rows``
                x_on, line_x = _indifferent(sb.T, cols, rows)  # x makes the column player indifferent over ``cols``
                if y_on is None or x_on is None:
                    degenerate = degenerate or line_y or line_x
                    continue
                if np.any(y_on < -TOLERANCE) or np.any(x_on < -TOLERANCE):
                    continue
                x, y = np.zeros(m), np.zeros(n)
                x[list(rows)], y[list(cols)] = x_on, y_on
                row_values, col_values = sa @ y, x @ sb
                if row_values.max() > row_values[list(rows)].max() + TOLERANCE:
                    continue  # another row does better: not a best response
                if col_values.max() > col_values[list(cols)].max() + TOLERANCE:
                    continue
                if np.any(y_on <= TOLERANCE) or np.any(x_on <= TOLERANCE):
                    degenerate = True  # an action of the support unplayed: the same point has a smaller support
                    continue
                best_rows = np.sum(row_values >= row_values.max() - TOLERANCE)
                best_cols = np.sum(col_values >= col_values.max() - TOLERANCE)
                if best_rows > k or best_cols > k:
                    degenerate = True
                found.append(_equilibrium(a, b, x, y))
    return NashEquilibria(tuple(found), "support enumeration", not degenerate, degenerate)


def _time_limit(value) -> float | None:
    """A validated ``time_limit``: a positive number of seconds, or None for no limit."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not value > 0:
        raise ValueError(f"time_limit must be a number of seconds above 0 (or None), got {value!r}")
    return float(value)


class _Clock:
    """The time left of a ``time_limit``: :meth:`check` raises, naming the work, once it is spent."""

    def __init__(self, limit: float | None, work: str):
        self.deadline = None if limit is None else time.perf_counter() + limit
        self.limit, self.work = limit, work

    def check(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise RuntimeError(f"{self.work} did not finish within its time limit of {self.limit:g} s")


def _vertices(constraints: np.ndarray, bounds: np.ndarray, clock: _Clock) -> tuple[np.ndarray, np.ndarray]:
    """Every vertex of the polytope ``{z : constraints @ z <= bounds}`` (bounded, of full dimension) and the labels
    of each (a bit mask of the constraints it meets as equalities).

    A vertex solves ``d`` of the constraints as equalities (``d`` the dimension); every choice of ``d`` is tried, in
    batches, and a solution kept when it meets the others; a vertex found from several choices is kept once.
    """
    count, dimension = constraints.shape
    choices = itertools.combinations(range(count), dimension)
    points = []
    while batch := list(itertools.islice(choices, _BATCH)):
        clock.check()
        chosen = np.array(batch)
        systems, targets = constraints[chosen], bounds[chosen]
        # (A choice whose constraints are dependent meets in a line or nothing: no vertex. The condition number says
        # so for a whole batch at once.)
        solvable = np.linalg.cond(systems) < 1 / TOLERANCE
        if not solvable.any():
            continue
        solutions = np.linalg.solve(systems[solvable], targets[solvable][..., None])[..., 0]
        slack = bounds - solutions @ constraints.T
        points.append(solutions[np.all(slack >= -TOLERANCE, axis=1)])
    found = np.vstack(points) if points else np.empty((0, dimension))
    # One vertex met by more than ``d`` constraints is found once per choice: the same point to rounding.
    _, first = np.unique(np.round(found, 8), axis=0, return_index=True)
    found = found[np.sort(first)]
    tight = np.abs(bounds - found @ constraints.T) <= TOLERANCE
    labels = tight @ (1 << np.arange(count, dtype=np.int64))
    return found, labels


def _maximal_subsets(pairs: list[tuple[int, int]], clock: _Clock) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The maximal bicliques of the bipartite graph whose edges are ``pairs`` (row vertex, column vertex): each the
    rows and the columns of which every pairing is an edge, and to which no row or column can be added.

    The columns of one are the columns every one of its rows meets, so they are an intersection of rows' neighbour
    sets; every such intersection is listed (closing the rows' sets under intersection), and its rows are those that
    meet all of its columns.
    """
    neighbours: dict[int, frozenset] = {}
    for i, j in pairs:
        neighbours[i] = neighbours.get(i, frozenset()) | {j}
    closed = set(neighbours.values())
    fresh = list(closed)
    while fresh:
        clock.check()
        found = []
        for a in fresh:
            for b in list(closed):
                meet = a & b
                if meet and meet not in closed:
                    closed.add(meet)
                    found.append(meet)
        fresh = found
    subsets = []
    for cols in closed:
        rows = tuple(sorted(i for i, near in neighbours.items() if cols <= near))
        subsets.append((rows, tuple(sorted(cols))))
    return sorted(subsets)


def _components(count: int, subsets: list[tuple[tuple[int, ...], ...]]) -> tuple[tuple[int, ...], ...]:
    """The equilibria ``0 .. count-1`` grouped into components: those of subsets that share one are together."""
    parent = list(range(count))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for members in subsets:
        for k in members[1:]:
            parent[root(k)] = root(members[0])
    groups: dict[int, list[int]] = {}
    for k in range(count):
        groups.setdefault(root(k), []).append(k)
    return tuple(tuple(group) for group in sorted(groups.values()))


def vertex_enumeration(game: MatrixGame, *, time_limit: float | None = TIME_LIMIT) -> NashEquilibria:
    """Every extreme Nash equilibrium of a two-player game, degenerate or not, with its maximal Nash subsets and the
    components of the set (see the module docstring).

    Parameters
    ----------
    game
        A :class:`~rmcore.MatrixGame` of at most :data:`MAX_SUPPORT_ACTIONS` actions a player.
    time_limit
        Seconds before it stops (a RuntimeError); None for no limit. By default :data:`TIME_LIMIT`.

    Returns
    -------
    NashEquilibria
        ``complete`` True. The equilibria are ordered by the size of their supports, then by the row player's
        support, then the column player's (in lexicographic order of the actions); ``degenerate`` says whether a
        vertex of either polytope meets more constraints than its dimension.

    Raises
    ------
    ValueError
        If ``game`` is not a MatrixGame, is larger than :data:`MAX_SUPPORT_ACTIONS` a side, or ``time_limit`` is not
        a positive number or None.
    RuntimeError
        If it takes longer than ``time_limit`` seconds.
    """
    a, b = _payoffs(game)
    m, n = _enumerable_shape(a, "vertex enumeration")
    clock = _Clock(_time_limit(time_limit), f"vertex enumeration of this {m}x{n} game")
    sa, sb = _scaled(a, b)
    sa, sb = sa + 1.0, sb + 1.0  # positive: both polytopes bounded
    # Constraints in label order: P's are x_i >= 0 (labels 0..m-1), then (B^T x)_j <= 1 (labels m..m+n-1); Q's are
    # (A y)_i <= 1 (labels 0..m-1), then y_j >= 0 (labels m..m+n-1).
    p_points, p_labels = _vertices(np.vstack([-np.eye(m), sb.T]), np.r_[np.zeros(m), np.ones(n)], clock)
    q_points, q_labels = _vertices(np.vstack([sa, -np.eye(n)]), np.r_[np.ones(m), np.zeros(n)], clock)
    degenerate = bool(
        any(bin(int(k)).count("1") > m for k in p_labels) or any(bin(int(k)).count("1") > n for k in q_labels)
    )
    everything = (1 << (m + n)) - 1
    p_keep, q_keep = p_points.sum(axis=1) > TOLERANCE, q_points.sum(axis=1) > TOLERANCE  # not the artificial 0
    p_points, p_labels, q_points, q_labels = p_points[p_keep], p_labels[p_keep], q_points[q_keep], q_labels[q_keep]
    pairs = [(i, int(j)) for i, label in enumerate(p_labels) for j in np.flatnonzero((label | q_labels) == everything)]
    clock.check()
    rows = [x / x.sum() for x in np.clip(p_points, 0.0, None)]
    cols = [y / y.sum() for y in np.clip(q_points, 0.0, None)]

    def order(pair: tuple[int, int]) -> tuple:
        support_x = tuple(np.flatnonzero(rows[pair[0]] > TOLERANCE))
        support_y = tuple(np.flatnonzero(cols[pair[1]] > TOLERANCE))
        return len(support_x) + len(support_y), support_x, support_y

    pairs.sort(key=order)
    index = {pair: k for k, pair in enumerate(pairs)}
    equilibria = tuple(_equilibrium(a, b, rows[i], cols[j]) for i, j in pairs)
    subsets = []
    for xs, ys in _maximal_subsets(pairs, clock):
        members = tuple(sorted(index[(i, j)] for i in xs for j in ys))
        subsets.append(
            NashSubset(
                np.array([equilibria[index[(i, ys[0])]].row for i in xs]),
                np.array([equilibria[index[(xs[0], j)]].col for j in ys]),
                members,
            )
        )
    subsets.sort(key=lambda subset: subset.equilibria)
    components = _components(len(equilibria), [subset.equilibria for subset in subsets])
    return NashEquilibria(equilibria, "vertex enumeration", True, degenerate, tuple(subsets), components)


def _pivot(tableau: np.ndarray, basis: np.ndarray, entering: int) -> int:
    """Bring column ``entering`` into the basis of ``tableau`` (rows ``A | I | rhs``) by the lexicographic minimum
    ratio test; returns the variable that leaves."""
    column = tableau[:, entering]
    rows = np.flatnonzero(column > TOLERANCE)
    if rows.size == 0:  # cannot happen on a bounded polytope; said rather than looping
        raise RuntimeError("Lemke-Howson met an unbounded ray (the payoffs were not made positive)")
    height = tableau.shape[0]
    # Lexicographic: the ratio of the right-hand side first, then of each column of the basis inverse (the slack
    # columns), which no two rows share: the minimum is unique.
    keys = [tableau[rows, -1] / column[rows]]
    slacks = tableau.shape[1] - 1 - height
    keys += [tableau[rows, slacks + s] / column[rows] for s in range(height)]
    best = rows[np.lexsort(tuple(reversed(keys)))[0]]
    leaving = int(basis[best])
    tableau[best] /= tableau[best, entering]
    pivot_row = tableau[best].copy()
    tableau -= np.outer(tableau[:, entering], pivot_row)  # (one rank-one update, in one numpy call)
    tableau[best] = pivot_row
    basis[best] = entering
    return leaving


def lemke_howson(game: MatrixGame, initial_label: int = 0, *, time_limit: float | None = TIME_LIMIT) -> NashEquilibrium:
    """One Nash equilibrium of a two-player game by the Lemke-Howson algorithm, dropping ``initial_label`` first.

    Labels ``0 .. m-1`` are the row player's actions, ``m .. m+n-1`` the column player's; different labels can lead
    to different equilibria. Works on any size (each pivot costs ``O(m (m + n))``), within ``time_limit`` seconds
    (:data:`TIME_LIMIT` by default; None for no limit) and :data:`MAX_PIVOTS` pivots.

    Raises
    ------
    ValueError
        If ``game`` is not a MatrixGame, the label is not one of ``0 .. m+n-1`` or ``time_limit`` is not a positive
        number or None.
    RuntimeError
        If the path is longer than :data:`MAX_PIVOTS` pivots or takes longer than ``time_limit`` seconds.
    """
    a, b = _payoffs(game)
    m, n = a.shape
    clock = _Clock(_time_limit(time_limit), f"Lemke-Howson on this {m}x{n} game")
    if isinstance(initial_label, bool) or not isinstance(initial_label, (int, np.integer)):
        raise ValueError(f"initial_label must be a whole number from 0 to {m + n - 1}; got {initial_label!r}")
    if not 0 <= initial_label < m + n:
        raise ValueError(f"initial_label must be from 0 to {m + n - 1}; got {initial_label}")
    sa, sb = _scaled(a, b)
    sa, sb = sa + 1.0, sb + 1.0  # positive: both polytopes bounded
    # P: B^T x + s = 1, variables x (labels 0..m-1) then s (labels m..m+n-1); Q: A y + r = 1, variables y (labels
    # m..m+n-1) then r (labels 0..m-1). Columns are numbered by label in both: column = label.
    p_tableau = np.hstack([sb.T, np.eye(n), np.ones((n, 1))])  # columns: x_0..x_{m-1}, s_0..s_{n-1}, rhs
    q_tableau = np.hstack([np.eye(m), sa, np.ones((m, 1))])  # columns: r_0..r_{m-1}, y_0..y_{n-1}, rhs
    p_basis = np.arange(m, m + n)  # the slacks s, labels m..m+n-1
    q_basis = np.arange(m)  # the slacks r, labels 0..m-1
    # Lexicographic keys use the columns of the starting basis (the identities): in P the last n before rhs, in Q the
    # first m. _pivot takes the ``height`` columns before the rhs, so Q's tableau is kept with its identity there too.
    q_order = np.r_[m : m + n, 0:m]  # Q's columns reordered: y then r, so that r (the identity) comes before rhs
    q_tableau = q_tableau[:, np.r_[q_order, m + n]]

    def q_column(label: int) -> int:
        return label - m if label >= m else n + label

    def q_label(column: int) -> int:
        return column + m if column < n else column - n

    q_basis = np.array([q_column(label) for label in q_basis])
    entering, in_p = initial_label, initial_label < m
    for _ in range(MAX_PIVOTS):
        clock.check()
        if in_p:
            leaving = _pivot(p_tableau, p_basis, entering)
        else:
            leaving = q_label(_pivot(q_tableau, q_basis, q_column(entering)))
        if leaving == initial_label:
            break
        entering, in_p = leaving, not in_p  # the complement of the label that left enters the other polytope
    else:
        raise RuntimeError(f"Lemke-Howson did not finish within {MAX_PIVOTS:,} pivots")
    x, y = np.zeros(m), np.zeros(n)
    for row, variable in enumerate(p_basis):
        if variable < m:
            x[variable] = p_tableau[row, -1]
    for row, column in enumerate(q_basis):
        if column < n:
            y[column] = q_tableau[row, -1]
    return _equilibrium(a, b, x, y)


def nash_equilibria(
    game: MatrixGame, *, max_enumeration: int = MAX_ENUMERATION_ACTIONS, time_limit: float | None = TIME_LIMIT
) -> NashEquilibria:
    """The Nash equilibria of ``game``: every extreme one, with the set's components, by :func:`vertex_enumeration`
    when neither player has more than ``max_enumeration`` actions, else one by :func:`lemke_howson` (dropping label
    0).

    Bounded in time: past ``time_limit`` seconds (:data:`TIME_LIMIT` by default; None for no limit) it stops with a
    RuntimeError that says so, whatever the game's size (a 1000x1000 game's Lemke-Howson path may take minutes).

    Raises
    ------
    ValueError
        If ``game`` is not a MatrixGame, ``max_enumeration`` is not a whole number from 1 to
        :data:`MAX_SUPPORT_ACTIONS`, or ``time_limit`` is not a positive number or None.
    RuntimeError
        If it takes longer than ``time_limit`` seconds, or Lemke-Howson's path is longer than :data:`MAX_PIVOTS`.
    """
    _payoffs(game)
    if isinstance(max_enumeration, bool) or not isinstance(max_enumeration, (int, np.integer)):
        raise ValueError(f"max_enumeration must be a whole number; got {max_enumeration!r}")
    if not 1 <= max_enumeration <= MAX_SUPPORT_ACTIONS:
        raise ValueError(f"max_enumeration must be from 1 to {MAX_SUPPORT_ACTIONS}; got {max_enumeration}")
    _time_limit(time_limit)
    if max(game.shape) <= max_enumeration:
        return vertex_enumeration(game, time_limit=time_limit)
    eq = lemke_howson(game, time_limit=time_limit)
    one = NashSubset(eq.row[None, :], eq.col[None, :], (0,))
    return NashEquilibria((eq,), "Lemke-Howson", False, False, (one,), ((0,),))


def nearest_equilibrium(equilibria, row, col) -> tuple[int, float]:
    """The equilibrium nearest to the profile ``(row, col)`` and its distance: the larger of the two players' total
    variation distances, ``max(||x - x*||_1, ||y - y*||_1) / 2``, the most probability one player would have to move
    (0 at the equilibrium, at most 1).

    Raises
    ------
    ValueError
        If ``equilibria`` is empty or the strategies' lengths do not match it.
    """
    equilibria = tuple(equilibria)
    if not equilibria:
        raise ValueError("no equilibrium to measure the distance to")
    x, y = np.asarray(row, dtype=float), np.asarray(col, dtype=float)
    if x.shape != equilibria[0].row.shape or y.shape != equilibria[0].col.shape:
        raise ValueError(
            f"the profile has {x.shape[0]} and {y.shape[0]} actions; the equilibria {equilibria[0].row.shape[0]} and "
            f"{equilibria[0].col.shape[0]}"
        )
    distances = [max(np.abs(x - eq.row).sum(), np.abs(y - eq.col).sum()) / 2 for eq in equilibria]
    best = int(np.argmin(distances))
    return best, float(distances[best])


def _l1_to_hull(point: np.ndarray, corners: np.ndarray) -> float:
    """The L1 distance from ``point`` to the convex hull of the rows of ``corners``: the linear program
    ``min sum(t)`` over weights ``w >= 0, sum(w) = 1`` and ``t >= |point - corners^T w|`` (scipy's HiGHS)."""
    if len(corners) == 1:
        return float(np.abs(point - corners[0]).sum())
    k, d = corners.shape
    # Variables: w (k), then t (d). point - C^T w <= t and C^T w - point <= t.
    cost = np.r_[np.zeros(k), np.ones(d)]
    upper = np.block([[-corners.T, -np.eye(d)], [corners.T, -np.eye(d)]])
    limits = np.r_[-point, point]
    equal = np.r_[np.ones(k), np.zeros(d)][None, :]
    solved = linprog(cost, A_ub=upper, b_ub=limits, A_eq=equal, b_eq=[1.0], bounds=(0, None), method="highs")
    if not solved.success:  # (a feasible, bounded program: the hull is not empty and the cost is at least 0)
        raise RuntimeError(f"the distance to an equilibrium set was not found: {solved.message}")
    return max(float(solved.fun), 0.0)


def equilibrium_distance(found: NashEquilibria, row, col) -> tuple[int, float]:
    """How far the profile ``(row, col)`` is from the set of equilibria ``found`` lists (the union of its maximal Nash
    subsets ``conv(X) x conv(Y)``), and the component where the nearest point lies.

    The distance is the one :func:`nearest_equilibrium` takes, ``max(||x - x*||_1, ||y - y*||_1) / 2``, to the
    nearest point ``(x*, y*)`` of the set rather than of its list: on a subset the two players' parts are apart, so
    it is the larger of the two L1 distances to the hulls (a small linear program each), halved.

    Returns
    -------
    (component, distance)
        The index into ``found.components`` and the distance (0 on the set, at most 1).

    Raises
    ------
    ValueError
        If ``found`` is not a NashEquilibria with its subsets, or the strategies' lengths do not match it.
    """
    if not isinstance(found, NashEquilibria) or not found.subsets:
        raise ValueError("expected the NashEquilibria of nash_equilibria or vertex_enumeration, with their subsets")
    x, y = np.asarray(row, dtype=float), np.asarray(col, dtype=float)
    first = found.subsets[0]
    if x.shape != first.rows.shape[1:] or y.shape != first.cols.shape[1:]:
        raise ValueError(
            f"the profile has {x.size} and {y.size} actions; the equilibria {first.rows.shape[1]} and "
            f"{first.cols.shape[1]}"
        )
    best, nearest = np.inf, 0
    for subset in found.subsets:
        distance = max(_l1_to_hull(x, subset.rows), _l1_to_hull(y, subset.cols)) / 2
        if distance < best:
            best, nearest = distance, subset.equilibria[0]
    component = next(k for k, members in enumerate(found.components) if nearest in members)
    return component, float(best)
