"""How far a strategy profile is from equilibrium.

For a profile ``(x, y)`` of an m x n game with payoffs ``A`` (row) and ``B`` (column):

* each player's best-response gain, the row player's ``max_i (A y)_i - x^T A y`` and the column player's
  ``max_j (x^T B)_j - x^T B y``;
* ``nash_conv``, their sum, zero exactly at a Nash equilibrium;
* ``exploitability = nash_conv / 2`` for two-player zero-sum games (OpenSpiel's convention);
* the regret-matching bound (Hart & Mas-Colell 2000; Cesa-Bianchi & Lugosi 2006, Thm 2.1)
  ``max_a R_T(a) / T <= Delta * sqrt(|A| / T)`` with ``Delta`` the payoff range.

>>> from rmcore import preset
>>> rps = preset("rps")
>>> nash_conv(rps, [1, 0, 0], [1, 0, 0])  # both play Rock: each gains 1 by switching to Paper
2.0
>>> best_response_gains(rps, [1/3, 1/3, 1/3], [1/3, 1/3, 1/3])
BestResponseGains(row=0.0, col=0.0)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .games import MatrixGame
from .validation import as_strategy

__all__ = [
    "BestResponseGains",
    "best_response_gains",
    "nash_conv",
    "exploitability",
    "regret_bound",
    "hedge_regret_bound",
]


class BestResponseGains(NamedTuple):
    """What each player gains by switching to a best response: ``row`` the row player, ``col`` the column player."""

    row: float
    col: float


def _check_game(game) -> MatrixGame:
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__}")
    return game


def best_response_gains(game: MatrixGame, x, y) -> BestResponseGains:
    """Each player's gain from deviating to a best response against the profile ``(x, y)``.

    ``row = max_i (A y)_i - x^T A y`` and ``col = max_j (x^T B)_j - x^T B y``, both >= 0.
    """
    game = _check_game(game)
    m, n = game.shape
    x = as_strategy(x, m, "row strategy")
    y = as_strategy(y, n, "column strategy")
    row_utilities = game.row_payoffs @ y
    col_utilities = x @ game.col_payoffs
    row_gain = float(row_utilities.max() - x @ row_utilities)
    col_gain = float(col_utilities.max() - col_utilities @ y)
    # (>= 0 in exact arithmetic; clipped against rounding)
    return BestResponseGains(max(row_gain, 0.0), max(col_gain, 0.0))


def nash_conv(game: MatrixGame, x, y) -> float:
    """The sum of both players' best-response gains: the total gain available to unilateral deviations; 0 exactly at
    a Nash equilibrium."""
    gains = best_response_gains(game, x, y)
    return gains.row + gains.col


def exploitability(game: MatrixGame, x, y) -> float:
    """``nash_conv / 2`` for a two-player zero-sum game (OpenSpiel's convention).

    Raises
    ------
    ValueError
        For a general-sum game, where the notion does not apply.
    """
    if not _check_game(game).is_zero_sum:
        raise ValueError("exploitability is defined for zero-sum games; use nash_conv for general-sum games")
    return nash_conv(game, x, y) / 2.0


def regret_bound(payoff_range: float, actions: int, iteration: int) -> float:
    """The regret-matching bound on average regret, ``Delta * sqrt(|A| / T)``.

    >>> regret_bound(2.0, 4, 100)
    0.4
    """
    if not (math.isfinite(payoff_range) and payoff_range >= 0):
        raise ValueError(f"payoff_range must be a finite number >= 0, got {payoff_range}")
    if int(actions) != actions or actions < 1:
        raise ValueError(f"actions must be a whole number >= 1, got {actions}")
    if int(iteration) != iteration or iteration < 1:
        raise ValueError(f"iteration must be a whole number >= 1, got {iteration}")
    return float(payoff_range) * math.sqrt(actions / iteration)


def hedge_regret_bound(payoff_range: float, actions: int, iteration, eta) -> float | np.ndarray:
    """Hedge's bound on average external regret ``max_a R_T(a) / T`` (Freund & Schapire 1997; Cesa-Bianchi & Lugosi
    2006, Theorems 2.2 and 2.3), ``Delta`` the payoff range, ``m`` the actions:

    - constant step ``eta``: ``R_T <= ln(m) / eta + eta T Delta^2 / 8``, smallest, ``Delta sqrt(T ln(m) / 2)``, at
      ``eta = sqrt(8 ln(m) / T) / Delta``;
    - ``eta="anytime"`` (``eta_t = sqrt(8 ln(m) / t) / Delta``): ``R_T <= Delta (sqrt(2 T ln m) + sqrt(ln(m) / 8))``.

    ``iteration`` may be an array (of whole numbers >= 1). Optimistic Hedge, GDA and fictitious play get no line:
    fictitious play is not a no-regret rule, and the others' bounds (Rakhlin & Sridharan 2013; Zinkevich 2003) are
    not drawn.

    >>> round(hedge_regret_bound(2.0, 3, 100, 0.1), 4)
    0.1599
    >>> round(hedge_regret_bound(1.0, 2, 100, "anytime"), 4)
    0.1207
    """
    if not (math.isfinite(payoff_range) and payoff_range >= 0):
        raise ValueError(f"payoff_range must be a finite number >= 0, got {payoff_range}")
    if int(actions) != actions or actions < 1:
        raise ValueError(f"actions must be a whole number >= 1, got {actions}")
    t = np.asarray(iteration, dtype=float)
    if np.any(t < 1) or np.any(t != np.floor(t)):
        raise ValueError(f"iteration must be whole numbers >= 1, got {iteration}")
    log_m = math.log(actions)
    if eta == "anytime":
        bound = payoff_range * (np.sqrt(2.0 * t * log_m) + math.sqrt(log_m / 8.0)) / t
    else:
        if isinstance(eta, str) or not (math.isfinite(eta) and eta > 0):
            raise ValueError(f"eta must be a finite number > 0 or 'anytime', got {eta!r}")
        bound = (log_m / eta + eta * t * payoff_range**2 / 8.0) / t
    return float(bound) if bound.ndim == 0 else bound
