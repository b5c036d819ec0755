"""Slow, obvious Monte Carlo CFR: chance, external and outcome sampling as recursive plain Python over a TreeGame's
arrays.

Written from Lanctot, Waugh, Zinkevich & Bowling (2009) and OpenSpiel's ``external_sampling_mccfr.py`` and
``outcome_sampling_mccfr.py`` (their recursion, their update order, regret matching at each visit, exploration 0.6),
with dicts keyed by information set. It shares no code with the kernels' explicit-stack walks except the random
numbers: it draws from a copy of the solver's xoshiro256+ state with the kernels' ``next_uniform`` run as plain Python
(the generator is the one thing both must share to be compared run for run), and samples by its own inverse CDF.

Chance sampling is the paper's section 2.2 with the deals as its blocks Q_j: each iteration samples one deal j (the
chance moves above every decision) with probability q_j = its probability p_j, and runs a vanilla CFR pass over that
deal alone, whose sampled counterfactual values weight each terminal by ``1 / q(z)``: pi_-i(h) carries chance's
reach ``p_j / q_j`` (1) in place of p_j. Chance inside a deal (Leduc's public card) is walked in full, its
probabilities in pi_-i, as a block holds every terminal of its deal. Regrets ``R(I, a) += pi_-i(h) (v_i(h a) -
v_i(h))`` and sums ``S(I, a) += pi_i(h) sigma(I, a)`` are added over the pass and the policy is regret matching on
R after it: for each player in turn on the one deal (alternating), or for all at once (simultaneous).
"""

from __future__ import annotations

import numpy as np

from rmcore.kernels import python_twin
from rmcore.kernels.tree import CHANCE_NODE

_GENERATOR = python_twin("rng")

EXPLORATION = 0.6


class NaiveMCCFR:
    """``variant`` is ``"external-sampling"``, ``"outcome-sampling"`` or ``"chance-sampling"`` (its updates
    alternating or not); ``rng`` a copy of a solver's 4-word state."""

    def __init__(self, game, variant, rng, alternating=True):
        self.tree, self.variant, self.rng = game.tree, variant, np.array(rng, dtype=np.uint64)
        self.alternating = alternating
        self.regrets, self.sums = {}, {}
        self.touched = 0

    # -- helpers --------------------------------------------------------------------------------------------------

    def uniform(self):
        with np.errstate(over="ignore"):
            return _GENERATOR.next_uniform(self.rng)

    def draw(self, probabilities):
        """The first index whose running sum exceeds a fresh uniform (the last positive one if rounding leaves none)."""
        u, running = self.uniform(), 0.0
        for k, p in enumerate(probabilities):
            running += p
            if u < running:
                return k
        return max(k for k, p in enumerate(probabilities) if p > 0)

    def actions(self, node):
        info = int(self.tree.infoset[node])
        first = int(self.tree.child_start[node])
        return info, [int(c) for c in self.tree.children[first : first + self.tree.num_actions[info]]]

    def outcomes(self, node):
        first, end = int(self.tree.child_start[node]), int(self.tree.child_start[node + 1])
        return [int(c) for c in self.tree.children[first:end]], [float(p) for p in self.tree.chance[first:end]]

    def strategy(self, info, n):
        positive = [max(r, 0.0) for r in self.regrets.setdefault(info, [0.0] * n)]
        total = sum(positive)  # (left to right, as the kernel adds them)
        return [p / total for p in positive] if total > 0 else [1.0 / n] * n

    def add(self, table, info, increments):
        row = table.setdefault(info, [0.0] * len(increments))
        for a, x in enumerate(increments):
            row[a] += x

    # -- one iteration ---------------------------------------------------------------------------------------------

    def iteration(self):
        if self.variant == "chance-sampling":
            self.chance_sampled_iteration()
            return
        for player in range(self.tree.payoffs.shape[0]):  # (each of n players in turn)
            deal = self.draw(self.tree.deal_probability)
            root = int(self.tree.deal_root[deal])
            if self.variant == "external-sampling":
                self.external(root, player)
            else:
                p = float(self.tree.deal_probability[deal])
                self.outcome(root, player, 1.0, p, p)

    def external(self, node, player):
        """Player ``player``'s sampled value of ``node``; regrets at its own nodes, sums at the opponent's."""
        self.touched += 1
        actor = int(self.tree.player[node])
        if actor == -1:
            return float(self.tree.payoffs[player, node])  # (the player's own payoff)
        if actor == CHANCE_NODE:
            children, probabilities = self.outcomes(node)
            return self.external(children[self.draw(probabilities)], player)
        info, children = self.actions(node)
        sigma = self.strategy(info, len(children))
        if actor != player:
            value = self.external(children[self.draw(sigma)], player)
            self.add(self.sums, info, sigma)
            return value
        values = [self.external(child, player) for child in children]
        value = 0.0
        for p, v in zip(sigma, values):
            value += p * v
        self.add(self.regrets, info, [v - value for v in values])
        return value

    def outcome(self, node, player, own, opponent, sample):
        """The importance-weighted estimate of ``node``'s value for ``player`` along one sampled history."""
        self.touched += 1
        actor = int(self.tree.player[node])
        if actor == -1:
            return float(self.tree.payoffs[player, node])  # (the player's own payoff)
        if actor == CHANCE_NODE:
            children, probabilities = self.outcomes(node)
            k = self.draw(probabilities)
            q = probabilities[k]
            return self.outcome(children[k], player, own, q * opponent, q * sample)
        info, children = self.actions(node)
        n = len(children)
        sigma = self.strategy(info, n)
        behaviour = [EXPLORATION * (1.0 / n) + (1.0 - EXPLORATION) * p for p in sigma] if actor == player else sigma
        b = self.draw(behaviour)
        child_value = self.outcome(
            children[b],
            player,
            own * sigma[b] if actor == player else own,
            opponent if actor == player else opponent * sigma[b],
            sample * behaviour[b],
        )
        estimates = [child_value / behaviour[b] if a == b else 0.0 for a in range(n)]
        value = 0.0
        for p, u in zip(sigma, estimates):
            value += p * u
        if actor == player:
            policy_value = value * opponent / sample
            self.add(self.regrets, info, [u * opponent / sample - policy_value for u in estimates])
            self.add(self.sums, info, [own * p / sample for p in sigma])
        return value

    def chance_sampled_iteration(self):
        """One deal drawn by its probability, then a CFR pass on it per player in turn (or one for all)."""
        players = self.tree.payoffs.shape[0]
        deal = self.draw(self.tree.deal_probability)
        q = p = float(self.tree.deal_probability[deal])  # (sampled by chance's own probability: q_j = p_j)
        for updating in range(players) if self.alternating else (None,):
            increments = {}
            self.counterfactual(int(self.tree.deal_root[deal]), [1.0] * players + [p / q], updating, increments)
            for info, row in increments.items():  # (the policy changes only after the whole pass)
                self.add(self.regrets, info, row)

    def counterfactual(self, node, reach, updating, increments):
        """Every player's value of ``node`` under the current policy; at ``updating``'s nodes (everyone's if None),
        its regret increments and strategy sums. ``reach``: each player's, then chance's."""
        tree, players = self.tree, len(reach) - 1
        actor = int(tree.player[node])
        if actor == -1:
            return [float(tree.payoffs[q, node]) for q in range(players)]
        if actor == CHANCE_NODE:
            children, probabilities = self.outcomes(node)
            total = [0.0] * players
            for child, p in zip(children, probabilities):
                below = self.counterfactual(child, reach[:players] + [reach[players] * p], updating, increments)
                total = [v + p * c for v, c in zip(total, below)]
            return total
        info, children = self.actions(node)
        sigma = self.strategy(info, len(children))
        below = []
        for a, child in enumerate(children):
            child_reach = list(reach)
            child_reach[actor] *= sigma[a]
            below.append(self.counterfactual(child, child_reach, updating, increments))
        value = [sum(s * c[q] for s, c in zip(sigma, below)) for q in range(players)]
        if updating is None or actor == updating:
            others = 1.0
            for q in range(players):
                if q != actor:
                    others *= reach[q]
            others *= reach[players]  # pi_-i(h): the others' reach in their order, then chance's
            self.add(increments, info, [others * (c[actor] - value[actor]) for c in below])
            self.add(self.sums, info, [reach[actor] * s for s in sigma])
        return value

    # -- reading ---------------------------------------------------------------------------------------------------

    def arrays(self, infosets, width):
        """Regrets and strategy sums as ``[infoset, action]`` arrays (zeros where nothing was visited)."""
        regrets, sums = np.zeros((infosets, width)), np.zeros((infosets, width))
        for info, row in self.regrets.items():
            regrets[info, : len(row)] = row
        for info, row in self.sums.items():
            sums[info, : len(row)] = row
        return regrets, sums
