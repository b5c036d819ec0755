"""A slow, obvious predictive CFR+ (Farina, Kroer & Sandholm 2021), written from the paper's definition.

Recursive over the histories of any game :mod:`rmcore.trees.poker` has rules for (Kuhn, Leduc), dicts keyed by
information-set name: it reads only the rules, never the flat arrays or the kernels. At every information set I
of the player being updated, predictive regret matching+ with the prediction ``m_{t+1} = r_t``:

- play ``sigma_t(I) = RM([R_{t-1}(I) + m_t(I)]^+)`` (uniform while that is all zero; ``m_1 = 0``);
- ``r_t(I, a) = sum_{h in I} pi_-i(h) (v_i(h a) - v_i(h))``, the instantaneous counterfactual regret;
- ``R_t(I) = [R_{t-1}(I) + r_t(I)]^+`` and ``m_{t+1}(I) = r_t(I)``;
- the average strategy weights iteration t by ``t^2`` (quadratic averaging) times the player's own reach.

Updates alternate (player 1's pass, then player 2's against player 1's new strategy) or, ``alternating=False``,
are simultaneous.
"""

from __future__ import annotations

from .cached_rules import cached

CHANCE = -2  # rules.player() at a chance node inside a deal


def predictive_regret_matching(regrets, prediction):
    """``RM([R + m]^+)``: proportional to the positive part of the optimistic regrets, uniform if none is positive."""
    optimistic = [max(r + m, 0.0) for r, m in zip(regrets, prediction)]
    total = sum(optimistic)
    return [q / total for q in optimistic] if total > 0 else [1.0 / len(regrets)] * len(regrets)


class NaivePCFRPlus:
    def __init__(self, rules, alternating=True):
        self.rules, self.alternating = cached(rules), alternating
        self.deals = rules.deals()
        self.regrets, self.predictions, self.sums, self.t = {}, {}, {}, 0

    def policy(self, infoset, width):
        zeros = [0.0] * width
        return predictive_regret_matching(self.regrets.get(infoset, zeros), self.predictions.get(infoset, zeros))

    def value(self, history, deal, reach, updating, instantaneous, weight):
        """Player 1's expected payoff at ``history``; adds r_t and the weighted strategy for ``updating``."""
        rules = self.rules
        player = rules.player(history)
        if player == CHANCE:
            total = 0.0
            for outcome, p in rules.chance(history, deal):
                child_reach = [reach[0], reach[1], reach[2] * p]
                total += p * self.value(
                    rules.after(history, outcome), deal, child_reach, updating, instantaneous, weight
                )
            return total
        if player < 0:
            return rules.payoff(history, deal)
        actions = rules.actions(history)
        infoset = rules.infoset(history, deal)
        sigma = self.policy(infoset, len(actions))
        children = []
        for a, action in enumerate(actions):
            child_reach = list(reach)
            child_reach[player] *= sigma[a]
            children.append(
                self.value(rules.after(history, action), deal, child_reach, updating, instantaneous, weight)
            )
        here = sum(s * v for s, v in zip(sigma, children))
        if updating is None or updating == player:
            sign = 1.0 if player == 0 else -1.0
            opponent_reach = reach[1 - player] * reach[2]
            r = instantaneous.setdefault(infoset, [0.0] * len(actions))
            sums = self.sums.setdefault(infoset, [0.0] * len(actions))
            for a in range(len(actions)):
                r[a] += opponent_reach * sign * (children[a] - here)
                sums[a] += weight * reach[player] * sigma[a]
        return here

    def iterate(self):
        self.t += 1
        weight = float(self.t) ** 2
        for updating in (0, 1) if self.alternating else (None,):
            instantaneous = {}
            for deal in self.deals:
                self.value("", deal, [1.0, 1.0, 1.0 / len(self.deals)], updating, instantaneous, weight)
            # Every strategy of this pass was read before any changes: then R and m move together.
            for infoset, r in instantaneous.items():
                old = self.regrets.get(infoset, [0.0] * len(r))
                self.regrets[infoset] = [max(R + x, 0.0) for R, x in zip(old, r)]
                self.predictions[infoset] = list(r)

    def average(self):
        out = {}
        for infoset, sums in self.sums.items():
            total = sum(sums)
            out[infoset] = [s / total for s in sums] if total > 0 else [1.0 / len(sums)] * len(sums)
        return out
