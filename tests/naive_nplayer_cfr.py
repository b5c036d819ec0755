"""The slow, obvious CFR of ``naive_rules_cfr.py`` for n players: recursive over histories, one value per player.

It reads only the rules (:class:`rmcore.KuhnRules` or :class:`rmcore.LeducRules` with ``players=n``: who acts, the
legal actions, every player's payoff, the information sets), never the flat arrays or the kernels. At a history h of
player i's information set I, with pi_-i(h) the product of the other players' and chance's reach:

- ``r(I, a) += pi_-i(h) (v_i(h a) - v_i(h))`` and ``S(I, a) += w_t pi_i(h) sigma(I, a)``;
- CFR keeps ``R += r``; CFR+ clips it at 0; linear and discounted CFR scale it (``naive_cfr.updated_regret``);
- predictive CFR+: ``R = [R + r]^+`` and plays ``RM([R + r]^+)``; PDCFR+ and DCFR+ discount R before adding r
  (``(t-1)^alpha / ((t-1)^alpha + 1)``, DCFR+ ``+ 1.5``), PDCFR+ playing ``RM([R d(t+1) + r]^+)``, DCFR+ ``RM(R)``;
- iteration t's weight in the average: 1 (CFR), t (CFR+, linear), t^2 (discounted, PCFR+), t^gamma (PDCFR+ 5, DCFR+
  4).

Updates alternate (player 1, player 2, ..., each against the others' newest strategies) or are simultaneous.
"""

from __future__ import annotations

from .naive_cfr import updated_regret

CHANCE = -2  # rules.player() at a chance node inside a deal


def _matched(values):
    positive = [max(v, 0.0) for v in values]
    total = sum(positive)
    return [p / total for p in positive] if total > 0 else [1.0 / len(values)] * len(values)


class NaiveNPlayerCFR:
    def __init__(self, rules, variant="cfr", alternating=True):
        self.rules, self.variant, self.alternating = rules, variant, alternating
        self.players = rules.players
        self.deals = rules.deals()
        self.regrets, self.last, self.sums, self.t = {}, {}, {}, 0
        self.updated = {}  # the iteration that last updated each information set's regrets
        self.alpha = {"pdcfr+": 2.3, "dcfr+": 1.5}.get(variant, 0.0)

    def _discount(self, t, offset):
        return 0.0 if t <= 1 else (t - 1) ** self.alpha / ((t - 1) ** self.alpha + offset)

    def policy(self, infoset, width):
        regrets = self.regrets.get(infoset, [0.0] * width)
        last = self.last.get(infoset, [0.0] * width)
        if self.variant == "pcfr+":
            return _matched([max(r + m, 0.0) for r, m in zip(regrets, last)])
        if self.variant == "pdcfr+":
            u = self.updated.get(infoset, 0)  # d(u + 1), u the iteration of the last update
            following = u**self.alpha / (u**self.alpha + 1.0)
            return _matched([max(r * following + m, 0.0) for r, m in zip(regrets, last)])
        return _matched(regrets)

    def walk(self, history, deal, reach, updating, increments, weight):
        """Every player's value of ``history``; adds the regret increments and strategy sums of ``updating``."""
        rules, n = self.rules, self.players
        player = rules.player(history)
        if player == CHANCE:
            total = [0.0] * n
            for outcome, p in rules.chance(history, deal):
                child = self.walk(rules.after(history, outcome), deal, reach[:n] + [reach[n] * p], updating,
                                  increments, weight)  # fmt: skip
                total = [v + p * c for v, c in zip(total, child)]
            return total
        if player < 0:
            return list(rules.payoff(history, deal))
        actions = rules.actions(history)
        infoset = rules.infoset(history, deal)
        sigma = self.policy(infoset, len(actions))
        children = []
        for a, action in enumerate(actions):
            child_reach = list(reach)
            child_reach[player] *= sigma[a]
            children.append(self.walk(rules.after(history, action), deal, child_reach, updating, increments, weight))
        value = [sum(s * child[p] for s, child in zip(sigma, children)) for p in range(n)]
        if updating is None or player == updating:
            others = reach[n]
            for p in range(n):
                if p != player:
                    others *= reach[p]
            increment = increments.setdefault(infoset, [0.0] * len(actions))
            sums = self.sums.setdefault(infoset, [0.0] * len(actions))
            for a in range(len(actions)):
                increment[a] += others * (children[a][player] - value[player])
                sums[a] += weight * reach[player] * sigma[a]
        return value

    def iterate(self):
        self.t += 1
        t = self.t
        weight = {"cfr": 1.0, "cfr+": t, "linear": t, "discounted": t * t, "pcfr+": t * t}.get(self.variant)
        if weight is None:
            weight = float(t) ** (5.0 if self.variant == "pdcfr+" else 4.0)
        for updating in range(self.players) if self.alternating else (None,):
            increments = {}
            for deal in self.deals:
                reach = [1.0] * self.players + [1.0 / len(self.deals)]
                self.walk("", deal, reach, updating, increments, weight)
            for infoset, r in increments.items():  # policies change only after the whole pass
                old = self.regrets.get(infoset, [0.0] * len(r))
                if self.variant == "pcfr+":
                    self.regrets[infoset] = [max(R + x, 0.0) for R, x in zip(old, r)]
                elif self.variant in ("pdcfr+", "dcfr+"):
                    d = self._discount(t, 1.0 if self.variant == "pdcfr+" else 1.5)
                    self.regrets[infoset] = [max(R * d + x, 0.0) for R, x in zip(old, r)]
                else:
                    self.regrets[infoset] = [updated_regret(self.variant, R + x, t) for R, x in zip(old, r)]
                self.last[infoset] = list(r)
                self.updated[infoset] = t

    def average(self):
        out = {}
        for infoset, sums in self.sums.items():
            total = sum(sums)
            out[infoset] = [s / total for s in sums] if total > 0 else [1.0 / len(sums)] * len(sums)
        return out
