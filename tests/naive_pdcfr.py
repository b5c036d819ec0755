"""Slow, obvious PDCFR+ and DCFR+ (Xu, Li, Liu, Fu, Fu, Xing & Cheng, IJCAI 2024), in the update order of the
authors' published code (rpSebastian/PDCFRPlus, ``pdcfrplus/cfr/``), written from the paper's definitions.

Recursive over the histories of any game :mod:`rmcore.trees.poker` has rules for (Kuhn, Leduc), dicts keyed by
information-set name: it reads only the rules, never the flat arrays or the kernels. Iteration t = 1, 2, ...; for each
player i in turn (player 1 first; or both at once, ``alternating=False``):

1. walk every deal with the strategies as they stand, summing at each information set I of i the instantaneous
   counterfactual regret ``r_t(I, a) = sum_{h in I} pi_-i(h) (v_i(h a) - v_i(h))`` (pi_-i: the opponent's and
   chance's reach) and i's own reach ``pi_i(I) = sum_{h in I} pi_i(h)``;
2. at every information set of i, in this order:

   - the regrets, ``R_t = max(R_{t-1} d(t) + r_t, 0)``: PDCFR+ with ``d(t) = (t-1)^alpha / ((t-1)^alpha + 1)``,
     DCFR+ with ``(t-1)^alpha / ((t-1)^alpha + 1.5)`` (the published code's constant);
   - the average's sums, ``S_t = S_{t-1} ((t-1)/t)^gamma + pi_i(I) sigma_t`` (``S_1 = pi_i(I) sigma_1``), with the
     strategy sigma_t that was played;
   - the next strategy: PDCFR+ ``RM(max(R_t d(t+1) + r_t, 0))`` (the last instantaneous regret as the prediction),
     DCFR+ ``RM(R_t)``; ``RM`` normalises, uniform when everything is 0.

Strategies start uniform. The average strategy is ``S / sum S`` per information set.
"""

from __future__ import annotations

from .cached_rules import cached

CHANCE = -2  # rules.player() at a chance node inside a deal


def discount(t, alpha, offset):
    """``(t-1)^alpha / ((t-1)^alpha + offset)``, 0 at t = 1."""
    if t == 1:
        return 0.0
    scale = float(t - 1) ** alpha
    return scale / (scale + offset)


def normalised(values):
    total = sum(values)
    return [v / total for v in values] if total > 0 else [1.0 / len(values)] * len(values)


class NaiveDiscountedPlus:
    """PDCFR+ (``predictive=True``, defaults alpha = 2.3, gamma = 5) or DCFR+ (``predictive=False``, alpha = 1.5,
    gamma = 4)."""

    def __init__(self, rules, predictive=True, alpha=None, gamma=None, alternating=True):
        self.rules, self.predictive, self.alternating = cached(rules), predictive, alternating
        self.alpha = (2.3 if predictive else 1.5) if alpha is None else alpha
        self.gamma = (5.0 if predictive else 4.0) if gamma is None else gamma
        self.offset = 1.0 if predictive else 1.5
        self.deals = rules.deals()
        self.policy, self.regrets, self.sums, self.player_of = {}, {}, {}, {}
        self.t = 0

    def strategy(self, infoset, width):
        return self.policy.setdefault(infoset, [1.0 / width] * width)

    def walk(self, history, deal, reach, updating, instantaneous, own_reach):
        """Player 1's expected payoff at ``history``; adds r_t and pi_i for the players in ``updating``."""
        rules = self.rules
        player = rules.player(history)
        if player == CHANCE:
            total = 0.0
            for outcome, p in rules.chance(history, deal):
                child = [reach[0], reach[1], reach[2] * p]
                total += p * self.walk(rules.after(history, outcome), deal, child, updating, instantaneous, own_reach)
            return total
        if player < 0:
            return rules.payoff(history, deal)
        actions = rules.actions(history)
        infoset = rules.infoset(history, deal)
        self.player_of[infoset] = player
        sigma = self.strategy(infoset, len(actions))
        children = []
        for a, action in enumerate(actions):
            child = list(reach)
            child[player] *= sigma[a]
            children.append(self.walk(rules.after(history, action), deal, child, updating, instantaneous, own_reach))
        here = sum(s * v for s, v in zip(sigma, children))
        if player in updating:
            sign = 1.0 if player == 0 else -1.0
            opponent = reach[1 - player] * reach[2]
            r = instantaneous.setdefault(infoset, [0.0] * len(actions))
            for a in range(len(actions)):
                r[a] += opponent * (sign * children[a] - sign * here)
            own_reach[infoset] = own_reach.get(infoset, 0.0) + reach[player]
        return here

    def iterate(self):
        self.t += 1
        t = self.t
        for updating in ((0,), (1,)) if self.alternating else ((0, 1),):
            instantaneous, own_reach = {}, {}
            for deal in self.deals:
                self.walk("", deal, [1.0, 1.0, 1.0 / len(self.deals)], updating, instantaneous, own_reach)
            now, then = discount(t, self.alpha, self.offset), discount(t + 1, self.alpha, 1.0)
            for infoset, r in instantaneous.items():
                regrets = [max(old * now + x, 0.0) for old, x in zip(self.regrets.get(infoset, [0.0] * len(r)), r)]
                self.regrets[infoset] = regrets
                played = self.policy[infoset]
                sums = self.sums.get(infoset)
                if t == 1 or sums is None:
                    self.sums[infoset] = [own_reach[infoset] * p for p in played]
                else:
                    keep = ((t - 1) / t) ** self.gamma
                    self.sums[infoset] = [s * keep + own_reach[infoset] * p for s, p in zip(sums, played)]
                if self.predictive:
                    self.policy[infoset] = normalised([max(R * then + x, 0.0) for R, x in zip(regrets, r)])
                else:
                    self.policy[infoset] = normalised(regrets)

    def average(self):
        return {infoset: normalised(sums) for infoset, sums in self.sums.items()}
