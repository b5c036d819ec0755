"""The bounds on average regret drawn beside a matrix-game run's regrets (regret matching's and Hedge's)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["regret_bound", "hedge_regret_bound"]


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
