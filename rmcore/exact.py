"""Exact solution of two-player zero-sum games by linear programming (the independent check).

The row player's maximin strategy solves ``max v  s.t.  A^T x >= v 1, sum(x) = 1, x >= 0``;
the column player's minimax strategy solves ``min w  s.t.  A y <= w 1, sum(y) = 1, y >= 0``.
By von Neumann's minimax theorem ``v = w``, the value of the game. Solved with HiGHS via
``scipy.optimize.linprog``.

>>> from rmcore import preset
>>> solution = solve_zero_sum(preset("rps-crash"))
>>> abs(solution.value) < 1e-12, [round(p, 9) for p in solution.row_strategy]
(True, [0.25, 0.5, 0.25])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .games import MatrixGame

__all__ = ["ZeroSumSolution", "solve_zero_sum"]


class ZeroSumSolution(NamedTuple):
    """The value of a zero-sum game (to the row player) and one equilibrium."""

    value: float
    row_strategy: tuple[float, ...]
    col_strategy: tuple[float, ...]


def _maximin(payoffs: np.ndarray) -> tuple[float, np.ndarray]:
    """Maximise v subject to payoffs^T p >= v, p on the simplex. Returns (v, p)."""
    from scipy.optimize import linprog  # imported here: scipy.optimize costs 0.6 s at start-up

    # Solved on the matrix scaled to |a| <= 1: HiGHS's tolerances are absolute, so a game in units of
    # 1e9 would otherwise be solved to a different relative accuracy than the same game in units of 1.
    scale = float(np.abs(payoffs).max()) or 1.0
    payoffs = payoffs / scale
    m, n = payoffs.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # linprog minimises, so minimise -v
    upper = np.hstack([-payoffs.T, np.ones((n, 1))])  # v - (A^T p)_j <= 0
    equality = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equality, b_eq=[1.0], bounds=bounds, method="highs")
    if result.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"the linear program failed: {result.message}")
    p = np.clip(result.x[:m], 0.0, None)
    return float(result.x[-1]) * scale, p / p.sum()


def solve_zero_sum(game: MatrixGame) -> ZeroSumSolution:
    """Value and an equilibrium of a zero-sum game, by linear programming.

    Raises
    ------
    ValueError
        If ``game`` is not a zero-sum :class:`MatrixGame`.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__}")
    if not game.is_zero_sum:
        raise ValueError("solve_zero_sum needs a zero-sum game (column payoffs = -row payoffs)")
    value, x = _maximin(game.row_payoffs)
    # The column player maximises -A: its maximin value is -value.
    _, y = _maximin(-game.row_payoffs.T)
    return ZeroSumSolution(value, tuple(float(p) for p in x), tuple(float(p) for p in y))
