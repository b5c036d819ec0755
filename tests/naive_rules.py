"""Slow, obviously correct references for the rules beside regret matching: Hedge, optimistic Hedge, fictitious play,
projected gradient ascent (GDA) and optimistic GDA.

Written straight from ../shared/REFERENCE.md ("Contrast dynamics on a matrix game") with plain Python floats and
lists, sharing no code with rmcore's kernels. Notation: payoff vectors ``u1_t = A y_t``, ``u2_t = B^T x_t``,
cumulative payoffs ``U_t = u_1 + ... + u_t``.

- Hedge: ``x_t ∝ x_1 * exp(eta_t U_{t-1})`` (the start ``x_1`` as a prior), ``eta_t = eta`` or, anytime,
  ``sqrt(8 ln(m) / t) / Delta``; optimistic Hedge: ``U_{t-1} + u_{t-1}`` in place of ``U_{t-1}``.
- Fictitious play: ``x_1`` the start, then ``x_t = e_i`` with ``i`` the first index maximising ``U_{t-1}``
  (``U_{t-1} = (t - 1) A ybar_{t-1}``: the same argmax as ``A ybar``).
- GDA: ``x_{t+1} = Proj(x_t + eta u_t)``; optimistic GDA ``Proj(x_t + eta (2 u_t - u_{t-1}))``, ``u_0 = 0``;
  ``Proj`` the Euclidean projection onto the simplex, here found by bisection on the threshold (not by sorting, as the
  kernel does), so that the two share no algorithm.

Every rule also keeps the plain cumulative regrets ``R += u - v`` for the regret chart. The sampled variant replaces
the payoff vectors by the sampled ones, ``A[:, b]`` and ``B[a, :]`` (``a ~ x_t``, ``b ~ y_t``), drawn in the same
order as regret matching's (``naive.reference_run``).
"""

from __future__ import annotations

import math

from .naive import Xoshiro256Plus, sample


def projection(values):
    """The Euclidean projection of ``values`` onto the simplex: ``max(v - theta, 0)`` with ``theta`` such that the
    result sums to 1, found by bisection (the sum falls as theta rises), then exactly on its support."""
    low, high = min(values) - 1.0, max(values)
    for _ in range(200):
        middle = (low + high) / 2
        if sum(max(v - middle, 0.0) for v in values) > 1.0:
            low = middle
        else:
            high = middle
    support = [v for v in values if v - high > 0.0]
    theta = (sum(support) - 1.0) / len(support)
    return [max(v - theta, 0.0) for v in values]


def reference_rule_run(
    A,
    B,
    iterations,
    algorithm,
    eta=0.1,
    sampling="expected",
    updates="simultaneous",
    averaging="uniform",
    opponent=None,
    rng_words=None,
    start=None,
):
    """Run one of the rules the obvious way; return (avg_x, avg_y, R1, R2, current_x, current_y)."""
    m, n = len(A), len(A[0])
    x1 = list(start[0]) if start is not None else [1.0 / m] * m
    y1 = list(start[1]) if start is not None else [1.0 / n] * n
    power = {"uniform": 0, "linear": 1, "quadratic": 2}[averaging]
    rng = Xoshiro256Plus(rng_words) if rng_words is not None else None
    flat_A = [v for row in A for v in row]
    flat_B = [v for row in B for v in row]
    delta = (max(flat_A) - min(flat_A), max(flat_B) - min(flat_B))

    class Player:
        def __init__(self, size, first, range_):
            self.size, self.first, self.range = size, first, range_
            self.U = [0.0] * size  # cumulative payoffs
            self.last_u = [0.0] * size  # u_{t-1}
            self.R = [0.0] * size  # cumulative regrets
            self.S = [0.0] * size  # weighted strategy sums
            self.iterate = list(first)  # GDA's x_t

        def strategy(self, t):
            """x_t, the strategy of iteration t, from what was learned in iterations 1 .. t-1."""
            if algorithm in ("hedge", "optimistic-hedge"):
                if eta == "anytime":
                    step = math.sqrt(8 * math.log(self.size) / t) / (self.range if self.range > 0 else 1.0)
                else:
                    step = eta
                scores = self.U
                if algorithm == "optimistic-hedge":
                    scores = [U + u for U, u in zip(self.U, self.last_u)]
                if start is None:
                    logits = [step * s for s in scores]
                else:
                    logits = [step * s + (math.log(p) if p > 0 else -math.inf) for s, p in zip(scores, self.first)]
                top = max(logits)
                weights = [math.exp(z - top) for z in logits]
                return [w / sum(weights) for w in weights]
            if algorithm == "fictitious-play":
                if t == 1:
                    return list(self.first)
                best = max(range(self.size), key=lambda i: (self.U[i], -i))  # ties to the lowest index
                return [1.0 if i == best else 0.0 for i in range(self.size)]
            return list(self.iterate)  # gda, optimistic-gda

        def learn(self, u, value):
            for k in range(self.size):
                self.R[k] += u[k] - value
                self.U[k] += u[k]
            if algorithm == "gda":
                self.iterate = projection([x + eta * g for x, g in zip(self.iterate, u)])
            elif algorithm == "optimistic-gda":
                self.iterate = projection([x + eta * (2 * g - h) for x, g, h in zip(self.iterate, u, self.last_u)])
            self.last_u = list(u)

    row, col = Player(m, x1, delta[0]), Player(n, y1, delta[1])

    def row_payoffs(y):
        return [sum(A[i][j] * y[j] for j in range(n)) for i in range(m)]

    def col_payoffs(x):
        return [sum(x[i] * B[i][j] for i in range(m)) for j in range(n)]

    def dot(p, q):
        return sum(a * b for a, b in zip(p, q))

    weight_total = 0.0
    for t in range(1, iterations + 1):
        w = float(t) ** power
        x = row.strategy(t)
        y = list(opponent) if opponent is not None else col.strategy(t)
        if sampling == "sampled":
            a = sample(x, rng.uniform())
            b = sample(y, rng.uniform())
            u1, v1 = [A[i][b] for i in range(m)], A[a][b]
        else:
            u1 = row_payoffs(y)
            v1 = dot(x, u1)
        row.learn(u1, v1)
        if opponent is None:
            if updates == "simultaneous":
                if sampling == "sampled":
                    u2, v2 = [B[a][j] for j in range(n)], B[a][b]
                else:
                    u2 = col_payoffs(x)
                    v2 = dot(y, u2)
            else:  # the column player answers the row player's new strategy x_{t+1}
                x_next = row.strategy(t + 1)
                if sampling == "sampled":
                    a_next = sample(x_next, rng.uniform())
                    u2, v2 = [B[a_next][j] for j in range(n)], B[a_next][b]
                else:
                    u2 = col_payoffs(x_next)
                    v2 = dot(y, u2)
            col.learn(u2, v2)
            for j in range(n):
                col.S[j] += w * y[j]
        for i in range(m):
            row.S[i] += w * x[i]
        weight_total += w
    avg_x = [s / weight_total for s in row.S]
    avg_y = list(opponent) if opponent is not None else [s / weight_total for s in col.S]
    current_y = list(opponent) if opponent is not None else col.strategy(iterations + 1)
    return avg_x, avg_y, row.R, col.R, row.strategy(iterations + 1), current_y
