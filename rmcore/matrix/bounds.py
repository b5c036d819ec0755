"""The bounds on average regret drawn beside a matrix-game run's regrets (regret matching's and Hedge's external
regret, swap regret matching's internal regret), and the inertia of Hart & Mas-Colell's procedure."""

from __future__ import annotations

import math

import numpy as np

from .games import NormalFormGame

__all__ = ["regret_bound", "hedge_regret_bound", "internal_regret_bound", "internal_rm_inertia"]


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
    t = _checked_bound_arguments(payoff_range, actions, iteration)
    log_m = math.log(actions)
    if eta == "anytime":
        bound = payoff_range * (np.sqrt(2.0 * t * log_m) + math.sqrt(log_m / 8.0)) / t
    else:
        if isinstance(eta, str) or not (math.isfinite(eta) and eta > 0):
            raise ValueError(f"eta must be a finite number > 0 or 'anytime', got {eta!r}")
        bound = (log_m / eta + eta * t * payoff_range**2 / 8.0) / t
    return float(bound) if bound.ndim == 0 else bound


def internal_regret_bound(payoff_range: float, actions: int, iteration) -> float | np.ndarray:
    """Swap regret matching's bound on its average internal regret, ``Delta * m / sqrt(T)``.

    Blum & Mansour (2007, Theorem 5) write the swap regret as the sum of the external regrets of the m regret
    matchers, the one of action j charged ``x_t(j) u_t``. Regret matching's bound (Cesa-Bianchi & Lugosi 2006,
    Theorem 2.1; each regret at most ``x_t(j) Delta`` an iteration) gives matcher j at most ``Delta sqrt(m sum_t
    x_t(j)^2)``; by Cauchy-Schwarz their sum is at most ``Delta m sqrt(sum_t |x_t|^2) <= Delta m sqrt(T)``. An
    internal regret (a swap of one action j for k) is at most the swap regret. ``iteration`` may be an array.

    >>> internal_regret_bound(2.0, 3, 100)
    0.6
    """
    t = _checked_bound_arguments(payoff_range, actions, iteration)
    bound = float(payoff_range) * actions / np.sqrt(t)
    return float(bound) if bound.ndim == 0 else bound


def _checked_bound_arguments(payoff_range: float, actions: int, iteration) -> np.ndarray:
    """A bound's arguments checked: the iterations (one or an array) as floats."""
    if not (math.isfinite(payoff_range) and payoff_range >= 0):
        raise ValueError(f"payoff_range must be a finite number >= 0, got {payoff_range}")
    if int(actions) != actions or actions < 1:
        raise ValueError(f"actions must be a whole number >= 1, got {actions}")
    t = np.asarray(iteration, dtype=float)
    if np.any(t < 1) or np.any(t != np.floor(t)):
        raise ValueError(f"iteration must be whole numbers >= 1, got {iteration}")
    return t


def internal_rm_inertia(game) -> float:
    """The smallest inertia ``mu`` Hart & Mas-Colell's procedure allows on ``game``: the least number above
    ``2 M (m_i - 1)`` for every player.

    The procedure switches from the last action j to k with probability ``D_t(j, k)^+ / (mu t)`` and stays at j with
    the rest (Hart & Mas-Colell 2000, "A simple adaptive procedure leading to correlated equilibrium", Econometrica
    68(5), Section 2, eq. (2.2)). Each ``D_t(j, k) / t`` is at most ``2 M``, ``M`` an upper bound on ``|u_i|``, so
    with ``mu > 2 M (m_i - 1)`` the switches add up to less than 1 and staying keeps a positive probability, as the
    paper asks. ``M`` is the player's largest ``|payoff|``; one ``mu`` serves both players (the larger of their
    bounds); a game whose payoffs are all 0 never switches, and gets 1.

    >>> from rmcore import preset
    >>> internal_rm_inertia(preset("shapley")) > 4.0   # 3 actions, payoffs in {0, 1}: 2 * 1 * (3 - 1)
    True
    """
    bound = inertia_bound(game)
    return math.nextafter(bound, math.inf) if bound > 0.0 else 1.0


def inertia_bound(game) -> float:
    """``max_i 2 M_i (m_i - 1)``, the number Hart & Mas-Colell's inertia must exceed (:func:`internal_rm_inertia`)."""
    if not isinstance(game, NormalFormGame):
        raise ValueError(f"expected a MatrixGame (or a NormalFormGame of n players), got {type(game).__name__}")
    return max(
        2.0 * float(np.max(np.abs(payoffs))) * (actions - 1) for payoffs, actions in zip(game.payoffs, game.shape)
    )
