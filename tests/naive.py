"""Slow, obviously correct reference implementations that the kernels are checked against.

Written straight from ../shared/REFERENCE.md with plain Python floats and lists, sharing no code
with rmcore's kernels (only the seed-to-state step, so sampled runs can be compared draw by draw).
"""

from __future__ import annotations

MASK = (1 << 64) - 1


class Xoshiro256Plus:
    """xoshiro256+ (Blackman & Vigna 2018) in pure Python integers."""

    def __init__(self, words):
        self.s = [int(w) for w in words]

    def uniform(self) -> float:
        s0, s1, s2, s3 = self.s
        result = (s0 + s3) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & MASK
        self.s = [s0, s1, s2, s3]
        return (result >> 11) / 2.0**53


def regret_matching(regrets, prediction=None):
    shifted = regrets if prediction is None else [r + m for r, m in zip(regrets, prediction)]
    positive = [max(r, 0.0) for r in shifted]
    total = sum(positive)
    if total > 0:
        return [p / total for p in positive]
    return [1.0 / len(regrets)] * len(regrets)


def sample(probabilities, u):
    running = 0.0
    for k, p in enumerate(probabilities):
        running += p
        if u < running:
            return k
    return max(k for k, p in enumerate(probabilities) if p > 0)


def reference_run(
    A,
    B,
    iterations,
    algorithm="rm",
    sampling="expected",
    updates="simultaneous",
    averaging="uniform",
    opponent=None,
    rng_words=None,
    initial_regrets=None,
):
    """Run regret matching the obvious way; return (avg_x, avg_y, R1, R2, current_x, current_y).

    ``initial_regrets`` is ``(R1, R2)`` before the first iteration (zeros by default).
    """
    m, n = len(A), len(A[0])
    R1, R2 = ([0.0] * m, [0.0] * n) if initial_regrets is None else (list(initial_regrets[0]), list(initial_regrets[1]))
    last1, last2 = [0.0] * m, [0.0] * n
    S1, S2 = [0.0] * m, [0.0] * n
    weight_total = 0.0
    rng = Xoshiro256Plus(rng_words) if rng_words is not None else None
    power = {"uniform": 0, "linear": 1, "quadratic": 2}[averaging]

    def strategy(R, last):
        return regret_matching(R, last if algorithm == "prm+" else None)

    def update(R, last, utilities, value):
        for k in range(len(R)):
            r = utilities[k] - value
            last[k] = r
            R[k] = R[k] + r
            if algorithm in ("rm+", "prm+") and R[k] < 0:
                R[k] = 0.0

    def row_utilities(y):
        return [sum(A[i][j] * y[j] for j in range(n)) for i in range(m)]

    def row_player_step(x, y):
        """The row player's utilities and value against y_t: sampled (a ~ x, then b ~ y) or expected."""
        if sampling == "sampled":
            a = sample(x, rng.uniform())
            b = sample(y, rng.uniform())
            return [A[i][b] for i in range(m)], A[a][b], a, b
        u1 = row_utilities(y)
        return u1, sum(x[i] * u1[i] for i in range(m)), None, None

    def col_utilities(x):
        return [sum(x[i] * B[i][j] for i in range(m)) for j in range(n)]

    for t in range(1, iterations + 1):
        w = float(t) ** power
        x = strategy(R1, last1)
        if opponent is not None:
            y = list(opponent)
            u1, v1, _, _ = row_player_step(x, y)
            update(R1, last1, u1, v1)
        else:
            y = strategy(R2, last2)
            if updates == "simultaneous":
                u1, v1, a, b = row_player_step(x, y)
                if sampling == "sampled":
                    u2, v2 = [B[a][j] for j in range(n)], B[a][b]
                else:
                    u2 = col_utilities(x)
                    v2 = sum(y[j] * u2[j] for j in range(n))
                update(R1, last1, u1, v1)
                update(R2, last2, u2, v2)
            else:
                u1, v1, a, b = row_player_step(x, y)
                update(R1, last1, u1, v1)
                x_next = strategy(R1, last1)
                if sampling == "sampled":
                    a_next = sample(x_next, rng.uniform())
                    u2 = [B[a_next][j] for j in range(n)]
                    v2 = B[a_next][b]
                else:
                    u2 = col_utilities(x_next)
                    v2 = sum(y[j] * u2[j] for j in range(n))
                update(R2, last2, u2, v2)
            for j in range(n):
                S2[j] += w * y[j]
        for i in range(m):
            S1[i] += w * x[i]
        weight_total += w
    avg_x = [s / weight_total for s in S1]
    avg_y = list(opponent) if opponent is not None else [s / weight_total for s in S2]
    current_x = strategy(R1, last1)
    current_y = list(opponent) if opponent is not None else strategy(R2, last2)
    return avg_x, avg_y, R1, R2, current_x, current_y


def gains(A, B, x, y):
    """Best-response gains (g1, g2) of the profile (x, y), straight from the definition."""
    m, n = len(A), len(A[0])
    row_u = [sum(A[i][j] * y[j] for j in range(n)) for i in range(m)]
    col_u = [sum(x[i] * B[i][j] for i in range(m)) for j in range(n)]
    value_row = sum(x[i] * row_u[i] for i in range(m))
    value_col = sum(y[j] * col_u[j] for j in range(n))
    return max(row_u) - value_row, max(col_u) - value_col
