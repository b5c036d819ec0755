"""The slow references' view of a game's rules, each answer computed once.

The references (``naive_rules_cfr.py``, ``naive_pcfr.py``, ``naive_pdcfr.py``) walk every history of every deal on
every iteration and ask the rules the same questions each time; the rules answer by parsing the history's text
(Leduc: nine tenths of a reference's time went there). Every question is a pure function of its arguments, so
keeping the answers changes no number a reference computes, only how often the rules are asked."""

from __future__ import annotations

import functools

#: The rules' questions: who acts, the legal actions, the history after an action, chance's outcomes, the payoff,
#: the information set, the deals.
_PURE = ("player", "actions", "after", "chance", "payoff", "infoset", "deals")


class CachedRules:
    """``rules`` with the answers to its pure questions kept; anything else is read from ``rules`` itself."""

    def __init__(self, rules):
        self.rules = rules
        for name in _PURE:
            if hasattr(rules, name):
                setattr(self, name, functools.lru_cache(maxsize=None)(getattr(rules, name)))

    def __getattr__(self, name):
        return getattr(self.rules, name)


def cached(rules):
    """``rules`` as a ``CachedRules`` (once: cached rules are returned as they are)."""
    return rules if isinstance(rules, CachedRules) else CachedRules(rules)
