"""Nash equilibria of a two-player matrix game (general-sum): every one by support enumeration, or one by
Lemke-Howson.

A profile ``(x, y)`` of the row player's and the column player's mixed strategies is a Nash equilibrium when neither
gains by deviating: ``x^T A y >= (A y)_i`` for every row ``i`` and ``x^T B y >= (x^T B)_j`` for every column ``j``.
Every action a player mixes is then a best response, so on the supports ``I = supp(x)`` and ``J = supp(y)``

    (A y)_i = u  for i in I,   (A y)_i <= u  otherwise,     sum_j y_j = 1, y >= 0,
    (x^T B)_j = v  for j in J, (x^T B)_j <= v  otherwise,   sum_i x_i = 1, x >= 0.

In a *nondegenerate* game (no mixed strategy with k actions has more than k pure best responses) every equilibrium
has supports of equal size, ``|I| = |J|``, and each pair of supports gives at most one: **support enumeration** solves
the two linear systems above for every pair of equal-size supports and keeps the solutions that pass the
inequalities (Dickhaut & Kaplan 1991; von Stengel 2007, "Equilibrium computation for two-player games in strategic and
extensive form", Algorithmic Game Theory, ch. 3, section 3.3). It finds them all, at a cost of
``sum_k C(m, k) C(n, k)`` pairs: 12,870 for an 8x8 game, 1.8e11 for 20x20.

Beyond :data:`MAX_ENUMERATION_ACTIONS` actions **Lemke-Howson** (Lemke & Howson 1964; von Stengel 2007, section 3.4)
finds one equilibrium by complementary pivoting. With the payoffs made positive, the best-response polytopes
``P = {x >= 0 : B^T x <= 1}`` and ``Q = {y >= 0 : A y <= 1}`` label each point by the actions it does not play and
the best responses it meets; a pair of points carrying every label once is an equilibrium (normalised). From the
artificial pair ``(0, 0)`` the algorithm drops one label ``k`` and pivots alternately in the two tableaux, each pivot
bringing in the variable whose label the other tableau just lost, until ``k`` is picked up again. The ratio test is
lexicographic, so that a degenerate game cannot make it cycle.

A degenerate game may have equilibria with supports of unequal size, or a continuum of them; the result says so
(``degenerate``), and its list is then the equilibria with equal supports that were found.

>>> import rmcore
>>> found = nash_equilibria(rmcore.preset("battle-of-sexes"))
>>> [(eq.row.round(4).tolist(), eq.col.round(4).tolist()) for eq in found.equilibria]
[([1.0, 0.0], [1.0, 0.0]), ([0.0, 1.0], [0.0, 1.0]), ([0.6667, 0.3333], [0.3333, 0.6667])]
>>> found.method, found.complete
('support enumeration', True)
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from ..matrix.games import MatrixGame

__all__ = [
    "NashEquilibrium",
    "NashEquilibria",
    "nash_equilibria",
    "support_enumeration",
    "lemke_howson",
    "nearest_equilibrium",
    "MAX_ENUMERATION_ACTIONS",
]

#: Most actions a player may have for :func:`nash_equilibria` to enumerate supports (12,870 pairs at 8x8, about 0.5 s
#: here); a larger game gets one equilibrium by Lemke-Howson (200x200: about 0.2 s).
MAX_ENUMERATION_ACTIONS = 8
#: Largest size of either player's action set :func:`support_enumeration` takes when called directly (C(12, k)^2
#: summed over k is 2.7 million pairs).
MAX_SUPPORT_ACTIONS = 12
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


class NashEquilibria(NamedTuple):
    """The equilibria found, how, and whether they are all of them.

    ``complete`` is True when support enumeration ran on a nondegenerate game: the list is every equilibrium. It is
    False for Lemke-Howson's one, and for a degenerate game (``degenerate``), whose equilibria may have supports of
    unequal sizes or come in continua.
    """

    equilibria: tuple[NashEquilibrium, ...]
    method: str
    complete: bool
    degenerate: bool


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
    m, n = a.shape
    if max(m, n) > MAX_SUPPORT_ACTIONS:
        raise ValueError(
            f"support enumeration takes games of at most {MAX_SUPPORT_ACTIONS} actions a player; this one is {m}x{n} "
            "(use lemke_howson for one equilibrium)"
        )
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
    tableau -= np.outer(tableau[:, entering], pivot_row)  # (one rank-one update: 200x400 in about 0.2 ms)
    tableau[best] = pivot_row
    basis[best] = entering
    return leaving


def lemke_howson(game: MatrixGame, initial_label: int = 0) -> NashEquilibrium:
    """One Nash equilibrium of a two-player game by the Lemke-Howson algorithm, dropping ``initial_label`` first.

    Labels ``0 .. m-1`` are the row player's actions, ``m .. m+n-1`` the column player's; different labels can lead
    to different equilibria. Works on any size (each pivot costs ``O(m (m + n))``).

    Raises
    ------
    ValueError
        If ``game`` is not a MatrixGame or the label is not one of ``0 .. m+n-1``.
    RuntimeError
        If the path is longer than :data:`MAX_PIVOTS` pivots.
    """
    a, b = _payoffs(game)
    m, n = a.shape
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


def nash_equilibria(game: MatrixGame, *, max_enumeration: int = MAX_ENUMERATION_ACTIONS) -> NashEquilibria:
    """The Nash equilibria of ``game``: all of them by :func:`support_enumeration` when neither player has more than
    ``max_enumeration`` actions, else one by :func:`lemke_howson` (dropping label 0).

    Raises
    ------
    ValueError
        If ``game`` is not a MatrixGame, or ``max_enumeration`` is not a whole number from 1 to
        :data:`MAX_SUPPORT_ACTIONS`.
    """
    _payoffs(game)
    if isinstance(max_enumeration, bool) or not isinstance(max_enumeration, (int, np.integer)):
        raise ValueError(f"max_enumeration must be a whole number; got {max_enumeration!r}")
    if not 1 <= max_enumeration <= MAX_SUPPORT_ACTIONS:
        raise ValueError(f"max_enumeration must be from 1 to {MAX_SUPPORT_ACTIONS}; got {max_enumeration}")
    if max(game.shape) <= max_enumeration:
        return support_enumeration(game)
    return NashEquilibria((lemke_howson(game),), "Lemke-Howson", False, False)


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
