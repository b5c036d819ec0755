"""A slow, obviously correct reference for the learning rules on a game of n >= 3 players, written from the
definitions with plain Python lists, sharing no code with rmcore's kernels.

Each iteration every learning player i plays ``x_i`` from its own state, its payoff vector is
``u_i(k) = sum over the others' joint actions a_-i of u_i(k, a_-i) prod_{j != i} x_j(a_j)`` (sampled: every player
draws ``a_j ~ x_j``, player 1 first, and ``u_i(k) = u_i(k, a_-i)``), its value ``v_i = x_i . u_i`` (sampled:
``u_i(a_i)``), and it updates, all players simultaneously:

- regret matching (Hart & Mas-Colell 2000): ``R += u - v``, ``x = R+ / sum R+``; RM+ (Tammelin 2014) clips ``R`` at
  0; predictive RM+ (Farina, Kroer & Sandholm 2021) plays ``RM+(R + r_{t-1})``;
- Hedge (Freund & Schapire 1997): ``x ∝ exp(eta U)``, ``U = u_1 + ... + u_t``; optimistic Hedge counts the last ``u``
  twice;
- fictitious play (Brown 1951): the start first, then the first best response to ``U``;
- swap regret matching (Blum & Mansour 2007): one regret matcher per action, the stationary distribution of their
  Markov matrix (``naive_correlated.stationary``).

The empirical joint distribution is the average of ``x_1 (x) ... (x) x_n`` (sampled: the frequency of the joint
actions). A start ``x_0`` is the regrets ``Delta_i x_0`` for the RM family and for each swap matcher, Hedge's prior,
fictitious play's first strategy.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .naive import Xoshiro256Plus, regret_matching, sample
from .naive_correlated import stationary


def _payoff_vector(payoffs, strategies, player, drawn=None):
    """u_i(k) against the others' strategies (or their draws)."""
    shape = payoffs.shape
    vector = []
    for k in range(shape[player]):
        total = 0.0
        for profile in itertools.product(*(range(a) for a in shape)):
            if profile[player] != k:
                continue
            if drawn is not None:
                if all(profile[j] == drawn[j] for j in range(len(shape)) if j != player):
                    total += float(payoffs[profile])
                continue
            weight = 1.0
            for j, a in enumerate(profile):
                if j != player:
                    weight *= strategies[j][a]
            total += float(payoffs[profile]) * weight
        vector.append(total)
    return vector


def reference_run(game, algorithm, iterations, *, eta=0.1, start=None, sampling="expected", rng_words=None, fixed=None):
    """Run ``iterations`` iterations; returns ``(average strategies, current strategies, joint distribution)``."""
    shape, n = game.shape, game.num_players
    fixed = fixed or {}
    rng = Xoshiro256Plus(rng_words) if sampling == "sampled" else None
    starts = [list(start[i]) if start is not None else [1.0 / a] * a for i, a in enumerate(shape)]
    deltas = game.payoff_range
    regrets = [[0.0] * a for a in shape]
    predictions = [[0.0] * a for a in shape]
    scores = [[0.0] * a for a in shape]
    matchers = [[[0.0] * a for _ in range(a)] for a in shape]
    if start is not None:
        for i in range(n):
            if algorithm in ("rm", "rm+", "prm+"):
                regrets[i] = [deltas[i] * p for p in starts[i]]
            if algorithm == "swap-rm":
                matchers[i] = [[deltas[i] * p for p in starts[i]] for _ in range(shape[i])]
    sums = [[0.0] * a for a in shape]
    joint = np.zeros(shape)

    def play(i, t):
        if i + 1 in fixed:
            return list(fixed[i + 1])
        if algorithm in ("rm", "rm+"):
            return regret_matching(regrets[i])
        if algorithm == "prm+":
            return regret_matching(regrets[i], predictions[i])
        if algorithm in ("hedge", "optimistic-hedge"):
            logits = [
                eta * (s + (m if algorithm == "optimistic-hedge" else 0.0)) + (math.log(x) if start else 0.0)
                for s, m, x in zip(scores[i], predictions[i], starts[i])
            ]
            top = max(logits)
            weights = [math.exp(z - top) for z in logits]
            return [w / sum(weights) for w in weights]
        if algorithm == "fictitious-play":
            if t == 1:
                return list(starts[i])
            best = max(range(shape[i]), key=lambda k: (scores[i][k], -k))
            return [1.0 if k == best else 0.0 for k in range(shape[i])]
        if algorithm == "swap-rm":
            return stationary([regret_matching(row) for row in matchers[i]])
        raise ValueError(algorithm)

    for t in range(1, iterations + 1):
        x = [play(i, t) for i in range(n)]
        drawn = [sample(x[i], rng.uniform()) for i in range(n)] if rng else None
        if drawn:
            joint[tuple(drawn)] += 1.0
        else:
            joint += np.einsum(",".join("abcdefgh"[:n]) + "->" + "abcdefgh"[:n], *map(np.array, x))
        for i in range(n):
            if i + 1 in fixed:
                continue
            u = _payoff_vector(game.payoffs[i], x, i, drawn)
            v = u[drawn[i]] if drawn else sum(p * q for p, q in zip(x[i], u))
            if algorithm == "swap-rm":
                for j in range(shape[i]):
                    q = regret_matching(matchers[i][j])
                    value = sum(a * b for a, b in zip(q, u))
                    matchers[i][j] = [r + x[i][j] * (uk - value) for r, uk in zip(matchers[i][j], u)]
            r = [uk - v for uk in u]
            regrets[i] = [a + b for a, b in zip(regrets[i], r)]
            if algorithm in ("rm+", "prm+"):
                regrets[i] = [max(a, 0.0) for a in regrets[i]]
            if algorithm == "prm+":
                predictions[i] = r
            scores[i] = [a + b for a, b in zip(scores[i], u)]
            if algorithm == "optimistic-hedge":
                predictions[i] = u
        for i in range(n):
            sums[i] = [a + b for a, b in zip(sums[i], x[i])]
    average = [[s / iterations for s in row] for row in sums]
    current = [play(i, iterations + 1) for i in range(n)]
    return average, current, joint / iterations
