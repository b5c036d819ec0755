"""The slow, obvious CFR of ``naive_cfr.py``, generalised to any game :mod:`rmcore.trees.poker` has rules for.

Recursive over histories, dicts keyed by information-set name, chance handled by enumerating the
deals: it reads only the rules (who acts, legal actions, payoffs, information sets), never the flat
arrays or the kernels, so it checks the tree builder and the kernels together. Brute-force best
responses enumerate every pure strategy (small games only).
"""

from __future__ import annotations

import itertools

from .cached_rules import cached
from .naive_cfr import updated_regret

CHANCE = -2  # rules.player() at a chance node inside a deal


def _regret_matching(regrets):
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive)
    return [p / total for p in positive] if total > 0 else [1.0 / len(regrets)] * len(regrets)


class RulesCFR:
    """CFR and its deterministic variants, OpenSpiel's update order, on ``rules``; ``locked`` maps information-set
    names to fixed strategies (never updated, averaged as themselves: for locking one player's play)."""

    def __init__(self, rules, variant="cfr", alternating=True, locked=None):
        self.rules, self.variant, self.alternating = cached(rules), variant, alternating
        self.deals = rules.deals()
        self.locked = dict(locked or {})
        self.regrets, self.sums, self.t = {}, {}, 0

    def policy(self, infoset, width):
        if infoset in self.locked:
            return list(self.locked[infoset])
        return _regret_matching(self.regrets.get(infoset, [0.0] * width))

    def walk(self, history, deal, reach, updating, increments, weight):
        rules = self.rules
        player = rules.player(history)
        if player == CHANCE:
            return sum(
                p
                * self.walk(
                    rules.after(history, outcome), deal, reach[:2] + [reach[2] * p], updating, increments, weight
                )
                for outcome, p in rules.chance(history, deal)
            )
        if player < 0:
            return rules.payoff(history, deal)
        actions = rules.actions(history)
        infoset = rules.infoset(history, deal)
        sigma = self.policy(infoset, len(actions))
        values = []
        for a, action in enumerate(actions):
            child_reach = list(reach)
            child_reach[player] *= sigma[a]
            values.append(self.walk(rules.after(history, action), deal, child_reach, updating, increments, weight))
        value = sum(s * v for s, v in zip(sigma, values))
        if (updating is None or player == updating) and infoset not in self.locked:
            sign = 1 if player == 0 else -1
            counterfactual = reach[1 - player] * reach[2]
            inc = increments.setdefault(infoset, [0.0] * len(actions))
            sums = self.sums.setdefault(infoset, [0.0] * len(actions))
            for a in range(len(actions)):
                inc[a] += counterfactual * sign * (values[a] - value)
                sums[a] += weight * reach[player] * sigma[a]
        return value

    def iterate(self):
        self.t += 1
        t = self.t
        weight = {"cfr": 1.0, "cfr+": t, "linear": t, "discounted": t * t}[self.variant]
        for updating in (0, 1) if self.alternating else (None,):
            increments = {}
            for deal in self.deals:
                self.walk("", deal, [1.0, 1.0, 1 / len(self.deals)], updating, increments, weight)
            for infoset, inc in increments.items():  # policies change only after the whole pass
                regrets = self.regrets.setdefault(infoset, [0.0] * len(inc))
                regrets[:] = [updated_regret(self.variant, r + i, t) for r, i in zip(regrets, inc)]

    def average(self):
        out = {}
        for infoset, sums in self.sums.items():
            total = sum(sums)
            out[infoset] = [s / total for s in sums] if total > 0 else [1.0 / len(sums)] * len(sums)
        return {**out, **self.locked}


def information_sets(rules):
    """``{name: (player, number of actions)}`` for every information set, by walking every deal."""
    found = {}

    def visit(history, deal):
        player = rules.player(history)
        if player == CHANCE:
            for outcome, _ in rules.chance(history, deal):
                visit(rules.after(history, outcome), deal)
        if player < 0:
            return
        found[rules.infoset(history, deal)] = (player, len(rules.actions(history)))
        for action in rules.actions(history):
            visit(rules.after(history, action), deal)

    for deal in rules.deals():
        visit("", deal)
    return found


def expected(rules, policy, history="", deal=None):
    """Player 1's expected payoff when both play ``policy`` (``{infoset: probabilities}``), over all deals."""
    if deal is None:
        deals = rules.deals()
        return sum(expected(rules, policy, "", d) for d in deals) / len(deals)
    if rules.player(history) == CHANCE:
        return sum(
            p * expected(rules, policy, rules.after(history, outcome), deal)
            for outcome, p in rules.chance(history, deal)
        )
    if rules.player(history) < 0:
        return rules.payoff(history, deal)
    sigma = policy[rules.infoset(history, deal)]
    return sum(
        p * expected(rules, policy, rules.after(history, action), deal)
        for p, action in zip(sigma, rules.actions(history))
    )


def best_response_value(rules, policy, player):
    """Brute force: ``player``'s best payoff (their own) against ``policy``, trying every pure strategy."""
    own = {name: width for name, (p, width) in information_sets(rules).items() if p == player}
    names = sorted(own)
    best = float("-inf")
    for choice in itertools.product(*(range(own[name]) for name in names)):
        pure = dict(policy)
        for name, a in zip(names, choice):
            pure[name] = [1.0 if b == a else 0.0 for b in range(own[name])]
        value = expected(rules, pure)
        best = max(best, value if player == 0 else -value)
    return best
