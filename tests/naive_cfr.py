"""A slow, obvious CFR for Kuhn poker: recursive over histories, dicts keyed by information set.

Shares no code with rmcore's kernels. Follows ../shared/REFERENCE.md and OpenSpiel's update order.
"""

from __future__ import annotations

import itertools

CARDS = "JQK"
TERMINAL = {"pp", "bp", "bb", "pbp", "pbb"}
DEALS = list(itertools.permutations(range(3), 2))


def payoff(history, cards):
    """Player 1's payoff at a terminal history."""
    winner = 1 if cards[0] > cards[1] else -1
    if history == "bp":
        return 1
    if history == "pbp":
        return -1
    return winner * (2 if "b" in history else 1)


def infoset_of(history, cards):
    player = len(history) % 2
    return CARDS[cards[player]] + history


def regret_matching(regrets):
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive)
    return [p / total for p in positive] if total > 0 else [0.5, 0.5]


def updated_regret(variant, r, t):
    """A cumulative regret after iteration t's increment is added: clipped (CFR+) or discounted (linear, discounted)."""
    if variant == "cfr+":
        return max(r, 0.0)
    if variant == "linear":
        return r * t / (t + 1)
    if variant == "discounted":
        return r * (t**1.5 / (t**1.5 + 1) if r >= 0 else 0.5)
    return r


class NaiveCFR:
    def __init__(self, variant="cfr", alternating=True):
        self.variant, self.alternating = variant, alternating
        self.regrets, self.sums, self.t = {}, {}, 0

    def policy(self, infoset):
        return regret_matching(self.regrets.get(infoset, [0.0, 0.0]))

    def walk(self, history, cards, reach, updating, increments, weight):
        """Player 1's value of `history`; adds regret increments and strategy sums for `updating`."""
        if history in TERMINAL:
            return payoff(history, cards)
        player = len(history) % 2
        infoset = infoset_of(history, cards)
        sigma = self.policy(infoset)
        values = []
        for a, action in enumerate("pb"):
            child_reach = list(reach)
            child_reach[player] *= sigma[a]
            values.append(self.walk(history + action, cards, child_reach, updating, increments, weight))
        value = sigma[0] * values[0] + sigma[1] * values[1]
        if updating is None or player == updating:
            sign = 1 if player == 0 else -1
            counterfactual = reach[1 - player] * reach[2]
            inc = increments.setdefault(infoset, [0.0, 0.0])
            sums = self.sums.setdefault(infoset, [0.0, 0.0])
            for a in range(2):
                inc[a] += counterfactual * sign * (values[a] - value)
                sums[a] += weight * reach[player] * sigma[a]
        return value

    def iterate(self):
        self.t += 1
        t = self.t
        weight = {"cfr": 1.0, "cfr+": t, "linear": t, "discounted": t * t}[self.variant]
        for updating in (0, 1) if self.alternating else (None,):
            increments = {}
            for cards in DEALS:
                self.walk("", cards, [1.0, 1.0, 1 / 6], updating, increments, weight)
            for infoset, inc in increments.items():  # policies change only after the whole pass
                regrets = self.regrets.setdefault(infoset, [0.0, 0.0])
                regrets[:] = [updated_regret(self.variant, r + i, t) for r, i in zip(regrets, inc)]

    def average(self):
        out = {}
        for infoset, sums in self.sums.items():
            total = sum(sums)
            out[infoset] = [s / total for s in sums] if total > 0 else [0.5, 0.5]
        return out


def best_response_value(policy, player):
    """Brute force: try every pure strategy of `player` (2^6 of them) against `policy`."""
    own = [name for name in policy if (len(name) - 1) % 2 == player]
    best = float("-inf")
    for choice in itertools.product((0, 1), repeat=len(own)):
        pure = dict(policy)
        for name, a in zip(own, choice):
            pure[name] = [1.0 - a, float(a)]
        total = 0.0
        for cards in DEALS:
            total += expected(pure, "", cards) / 6
        best = max(best, total if player == 0 else -total)
    return best


def expected(policy, history, cards):
    if history in TERMINAL:
        return payoff(history, cards)
    sigma = policy[infoset_of(history, cards)]
    return sum(sigma[a] * expected(policy, history + action, cards) for a, action in enumerate("pb"))
