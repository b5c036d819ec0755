"""How far a matrix game's strategy profile is from equilibrium, and the bounds drawn beside a run's regrets.

For a profile ``(x, y)`` of an m x n game with payoffs ``A`` (row) and ``B`` (column):

* each player's best-response gain, the row player's ``max_i (A y)_i - x^T A y`` and the column player's
  ``max_j (x^T B)_j - x^T B y``;
* ``nash_conv``, their sum, zero exactly at a Nash equilibrium;
* ``exploitability = nash_conv / 2`` for two-player zero-sum games (OpenSpiel's convention);
* the regret-matching bound (Hart & Mas-Colell 2000; Cesa-Bianchi & Lugosi 2006, Thm 2.1)
  ``max_a R_T(a) / T <= Delta * sqrt(|A| / T)`` with ``Delta`` the payoff range.

Players are numbered 1 (the row player) and 2 (the column player); :func:`rmcore.nash_conv`,
:func:`rmcore.exploitability` and :func:`rmcore.best_response` take a matrix game's policy as they take a tree's.

>>> from rmcore import preset
>>> rps = preset("rps")
>>> nash_conv(rps, ([1, 0, 0], [1, 0, 0]))  # both play Rock: each gains 1 by switching to Paper
2.0
>>> gains(rps, *strategies(rps, rps.policy([1, 1, 1], [1, 1, 1])))
PlayerValues(player_1=0.0, player_2=0.0)
"""

from __future__ import annotations

import math

import numpy as np

from ..records import BestResponse, PlayerValues, Policy
from ..validation import as_strategy
from .games import INFOSETS, MatrixGame

__all__ = ["strategies", "gains", "best_response", "nash_conv", "regret_bound", "hedge_regret_bound"]


def _check_game(game) -> MatrixGame:
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__}")
    return game


def strategies(game: MatrixGame, policy) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)``, the row and the column player's mixed strategies, from a policy of ``game``: a
    :class:`~rmcore.Policy` over the information sets ``row`` and ``col`` (as a solver's ``average_policy()`` or
    :meth:`MatrixGame.policy` returns it), a dict ``{"row": x, "col": y}``, or a pair ``(x, y)``."""
    _check_game(game)
    m, n = game.shape
    if isinstance(policy, Policy):
        if policy.infosets != INFOSETS:
            raise ValueError(
                f"a matrix game's policy is over the information sets 'row' and 'col'; got {policy.infosets}"
            )
        x, y = policy["row"], policy["col"]
    elif isinstance(policy, dict):
        if set(policy) != set(INFOSETS):
            raise ValueError(
                f"a matrix game's policy as a dict maps 'row' and 'col' to strategies; got {sorted(policy)}"
            )
        x, y = policy["row"], policy["col"]
    elif not isinstance(policy, str) and hasattr(policy, "__len__") and len(policy) == 2:
        x, y = policy
    else:
        raise ValueError(
            "a matrix game's policy is an rmcore.Policy over 'row' and 'col' (game.policy(x, y) builds one), a dict "
            f"{{'row': x, 'col': y}} or a pair (x, y); got {type(policy).__name__}"
        )
    return as_strategy(x, m, "row strategy"), as_strategy(y, n, "column strategy")


def gains(game: MatrixGame, x: np.ndarray, y: np.ndarray) -> PlayerValues:
    """Each player's gain from deviating to a best response against the profile ``(x, y)`` (validated strategies):
    ``max_i (A y)_i - x^T A y`` and ``max_j (x^T B)_j - x^T B y``, both >= 0."""
    row_utilities = game.row_payoffs @ y
    col_utilities = x @ game.col_payoffs
    row_gain = float(row_utilities.max() - x @ row_utilities)
    col_gain = float(col_utilities.max() - col_utilities @ y)
    # (>= 0 in exact arithmetic; clipped against rounding)
    return PlayerValues(max(row_gain, 0.0), max(col_gain, 0.0))


def best_response(game: MatrixGame, policy, player: int) -> BestResponse:
    """Player ``player``'s (1, the row player, or 2) best response to the other's part of ``policy``: its value
    ``max_i (A y)_i`` (or ``max_j (x^T B)_j``), the pure strategy of the first best action, each action's payoff
    (``action_values``), and the gain over its own part of ``policy``.

    >>> from rmcore import preset
    >>> response = best_response(preset("rps"), ([1, 0, 0], [1, 0, 0]), 2)
    >>> response.value, response.policy["col"].tolist(), response.gain
    (1.0, [0.0, 1.0, 0.0], 1.0)
    """
    x, y = strategies(game, policy)
    if isinstance(player, bool) or player not in (1, 2):
        raise ValueError(f"player must be 1 (the row player) or 2 (the column player), got {player!r}")
    m, n = game.shape
    utilities = game.row_payoffs @ y if player == 1 else x @ game.col_payoffs
    own = x if player == 1 else y
    best = int(np.argmax(utilities))
    pure = np.zeros(utilities.shape[0])
    pure[best] = 1.0
    value = float(utilities[best])
    width = max(m, n)
    action_values = np.zeros((2, width))
    action_values[player - 1, : utilities.shape[0]] = utilities
    reach = np.zeros(2)
    reach[player - 1] = 1.0
    profile = (pure, y) if player == 1 else (x, pure)
    return BestResponse(value, game.policy(*profile), action_values, reach, max(value - float(own @ utilities), 0.0))


def nash_conv(game: MatrixGame, policy) -> float:
    """The sum of both players' best-response gains against ``policy`` (:func:`strategies` reads it): 0 exactly at a
    Nash equilibrium."""
    return sum(gains(_check_game(game), *strategies(game, policy)))


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
