"""Exact solution of two-player zero-sum games by linear programming (the independent check).

The row player's maximin strategy solves ``max v  s.t.  A^T x >= v 1, sum(x) = 1, x >= 0``;
the column player's minimax strategy solves ``min w  s.t.  A y <= w 1, sum(y) = 1, y >= 0``.
By von Neumann's minimax theorem ``v = w``, the value of the game. Solved with HiGHS via
``scipy.optimize.linprog``.

For either family: :func:`rmcore.solve_exactly`.

>>> from rmcore import preset
>>> solution = solve(preset("rps-crash"))
>>> abs(solution.game_value) < 1e-12, [round(float(p), 9) for p in solution.policy["row"]]
(True, [0.25, 0.5, 0.25])
"""

from __future__ import annotations

import numpy as np

from ..matrix import metrics
from ..matrix.games import MatrixGame
from ..records import ExactSolution

__all__ = ["solve", "equilibrium"]


def _maximin(payoffs: np.ndarray) -> np.ndarray:
    """A maximin strategy ``p`` of ``payoffs``: maximise ``v`` subject to ``payoffs^T p >= v``, ``p`` on the simplex.

    Solved on the matrix shifted by its midpoint and scaled by its half-range, so that every game reaches HiGHS with
    payoffs spanning exactly [-1, 1]. HiGHS's tolerances are absolute (about 1e-7): scaled by the largest payoff
    alone, ``[[1e6 + 0.001, 1e6], [1e6, 1e6 + 0.001]]`` has differences of 1e-9 and came back as ``(0, 1)``, not an
    equilibrium. Shifting and scaling by positive numbers changes no strategy's standing.
    """
    from scipy.optimize import linprog  # imported here: scipy.optimize is slow to import, and many runs solve no LP

    m, n = payoffs.shape
    low, high = float(payoffs.min()), float(payoffs.max())
    if not high > low:  # a constant game: every strategy is optimal
        return np.full(m, 1.0 / m)
    middle, half_range = 0.5 * (high + low), 0.5 * (high - low)
    normalised = (payoffs - middle) / half_range
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # linprog minimises, so minimise -v
    upper = np.hstack([-normalised.T, np.ones((n, 1))])  # v - (A^T p)_j <= 0
    equality = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equality, b_eq=[1.0], bounds=bounds, method="highs")
    if result.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"the linear program failed: {result.message}")
    p = np.clip(result.x[:m], 0.0, None)
    return p / p.sum()


def solve(game: MatrixGame) -> ExactSolution:
    """Value (to player 1, the row player) and an equilibrium of a zero-sum game, by linear programming, with that
    equilibrium's NashConv (zero up to the LP's tolerance: the check).

    Raises
    ------
    ValueError
        If ``game`` is not a zero-sum :class:`MatrixGame`.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__}")
    if not game.is_zero_sum:
        raise ValueError("an exact solution needs a zero-sum game (column payoffs = -row payoffs)")
    value, x, y = equilibrium(game)
    policy = game.policy(x, y)
    return ExactSolution(value, policy, metrics.nash_conv(game, policy))


def equilibrium(game: MatrixGame) -> tuple[float, np.ndarray, np.ndarray]:
    """``(value, x, y)`` of a zero-sum ``game`` (checked by :func:`solve`): the maximin strategies of both players."""
    x = _maximin(game.row_payoffs)
    y = _maximin(-game.row_payoffs.T)  # the column player maximises -A
    # The value from the strategies returned, in the game's own units: x^T A y, which equals the LP's v at an exact
    # equilibrium and carries no rescaling's rounding.
    payoffs = game.row_payoffs
    value = float(payoffs.flat[0]) if payoffs.min() == payoffs.max() else float(x @ payoffs @ y)
    return value, x, y
