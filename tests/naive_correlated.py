"""Slow, obviously correct references for the learners of correlated equilibria, written from the papers with plain
Python lists (and numpy's least squares for a stationary distribution), sharing no code with rmcore's kernels.

- Swap regret matching (Blum & Mansour 2007, "From external to internal regret", JMLR 8, Section 4): each player runs
  one regret matcher per action j over a regret vector ``R_j``; the Markov matrix ``Q`` has rows ``q_j = RM(R_j)``
  and the strategy played is its stationary distribution ``x = x Q``; with the payoff vector ``u``, matcher j is
  charged ``x(j) u``: ``R_j(k) += x(j) (u(k) - q_j . u)``. Sampled: ``u`` is the payoff vector against the other's
  sampled action.
- Hart & Mas-Colell (2000, "A simple adaptive procedure leading to correlated equilibrium", Econometrica 68(5), eq.
  (2.2)): with ``D_t(j, k) = sum_{s <= t, a_s = j} u(k, b_s) - u(j, b_s)`` and the last action j, the next is
  ``k != j`` with probability ``max(D_t(j, k), 0) / (mu t)`` and j with the rest; the first from the start.

Both keep the plain external regrets ``R += u - v`` too, and the joint distribution of play: the average of
``x_t (x) y_t`` (expected) or the frequency of ``(a_t, b_t)`` (sampled). Actions are drawn as regret matching's
reference draws them (``naive.reference_run``): ``a ~ x_t`` then ``b ~ y_t``, by inverse CDF.
"""

from __future__ import annotations

import numpy as np

from .naive import Xoshiro256Plus, sample


def regret_matching(regrets):
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive)
    return [p / total for p in positive] if total > 0 else [1.0 / len(regrets)] * len(regrets)


def stationary(Q):
    """The stationary distribution of the row-stochastic ``Q``: ``pi (Q - I) = 0`` with ``sum pi = 1``, solved as a
    least-squares system (exact when the chain has one closed class, as the tests' chains do)."""
    m = len(Q)
    system = np.vstack([np.array(Q, dtype=float).T - np.eye(m), np.ones((1, m))])
    right = np.zeros(m + 1)
    right[m] = 1.0
    pi, *_ = np.linalg.lstsq(system, right, rcond=None)
    assert np.abs(system @ pi - right).max() < 1e-13, "the chain has more than one stationary distribution"
    return [float(p) for p in pi]


def reference_correlated_run(A, B, iterations, algorithm, sampling="expected", rng_words=None, start=None, mu=None):
    """Run ``swap-rm`` or ``internal-rm`` in simultaneous self-play; return, for every iteration t = 1..T, a dict of
    the strategies played ``x``, ``y``, and after the iteration the pair regrets ``D1``, ``D2`` (swap RM's ``R_j`` as
    rows), the external regrets ``R1``, ``R2``, and the joint distribution of play so far ``joint``."""
    m, n = len(A), len(A[0])
    rng = Xoshiro256Plus(rng_words) if rng_words is not None else None
    x1 = list(start[0]) if start is not None else [1.0 / m] * m
    y1 = list(start[1]) if start is not None else [1.0 / n] * n
    deltas = (
        max(max(row) for row in A) - min(min(row) for row in A),
        max(max(row) for row in B) - min(min(row) for row in B),
    )
    D1 = [[0.0] * m for _ in range(m)]
    D2 = [[0.0] * n for _ in range(n)]
    if algorithm == "swap-rm" and start is not None:  # every matcher starts at R_0 = Delta x_0, so x_1 = x_0
        D1 = [[deltas[0] * p for p in x1] for _ in range(m)]
        D2 = [[deltas[1] * p for p in y1] for _ in range(n)]
    R1, R2 = [0.0] * m, [0.0] * n
    joint = [[0.0] * n for _ in range(m)]
    last = [None, None]
    rows = []
    for t in range(1, iterations + 1):
        if algorithm == "swap-rm":
            x = stationary([regret_matching(row) for row in D1])
            y = stationary([regret_matching(row) for row in D2])
        else:
            x, y = (
                first if t == 1 else hart_mas_colell(D, j, mu, t)
                for first, D, j in ((x1, D1, last[0]), (y1, D2, last[1]))
            )
        if sampling == "sampled":
            a = sample(x, rng.uniform())
            b = sample(y, rng.uniform())
            u1 = [A[i][b] for i in range(m)]
            u2 = [B[a][j] for j in range(n)]
            v1, v2 = u1[a], u2[b]
            joint[a][b] += 1.0
            last = [a, b]
        else:
            u1 = [sum(A[i][j] * y[j] for j in range(n)) for i in range(m)]
            u2 = [sum(B[i][j] * x[i] for i in range(m)) for j in range(n)]
            v1 = sum(p * u for p, u in zip(x, u1))
            v2 = sum(p * u for p, u in zip(y, u2))
            for i in range(m):
                for j in range(n):
                    joint[i][j] += x[i] * y[j]
        for R, u, v in ((R1, u1, v1), (R2, u2, v2)):
            for k in range(len(R)):
                R[k] += u[k] - v
        for D, strategy, u, played in ((D1, x, u1, last[0]), (D2, y, u2, last[1])):
            if algorithm == "swap-rm":
                for j, row in enumerate(D):
                    q = regret_matching(row)
                    value = sum(p * w for p, w in zip(q, u))
                    for k in range(len(row)):
                        row[k] += strategy[j] * (u[k] - value)
            else:
                for k in range(len(u)):
                    D[played][k] += u[k] - u[played]
        rows.append(
            {
                "x": list(x),
                "y": list(y),
                "D1": [list(r) for r in D1],
                "D2": [list(r) for r in D2],
                "R1": list(R1),
                "R2": list(R2),
                "joint": [[value / t for value in row] for row in joint],
            }
        )
    return rows


def hart_mas_colell(D, j, mu, t):
    """Eq. (2.2): from the last action j, ``k != j`` with probability ``max(D(j, k), 0) / (mu (t - 1))`` (``D`` the
    sums over the ``t - 1`` iterations so far), j with the rest."""
    p = [max(D[j][k], 0.0) / (mu * (t - 1)) if k != j else 0.0 for k in range(len(D))]
    p[j] = 1.0 - sum(p)
    return p
