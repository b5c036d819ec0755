"""Small poker games as :class:`~rmcore.TreeGame`: Kuhn poker on sliders and Leduc hold'em.

A game is given by its rules (:class:`KuhnRules`, :class:`LeducRules`): the equally likely deals,
and for a betting history the player to act, the legal actions, the payoff and the information
set. :func:`poker_tree` describes them to :func:`rmcore.build_tree_game`, which builds every game: the private
cards dealt at each deal's root, Leduc's public card a chance node between the rounds, as in OpenSpiel, so that CFR's
arithmetic is OpenSpiel's to the last bit.

Histories are strings of action letters, one round after another separated by ``/``:

- Kuhn: ``p`` pass (check, or fold after a bet) and ``b`` bet (or call a bet);
- Leduc: ``f`` fold, ``c`` check or call, ``r`` bet or raise (OpenSpiel's action ids 0, 1, 2).

>>> game = leduc_poker()
>>> len(game.infosets), game.tree.deal_root.shape[0], game.actions[game.infosets.index("J♠ r")]
(936, 30, ('fold', 'call', 'raise'))
>>> kuhn_poker(cards=4, bet=2.0).infosets[:4]
('T', 'J', 'Q', 'K')
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .builder import Chance, Decision, Terminal, build_tree_game
from .game import CHANCE_NODE, TreeGame

__all__ = ["KuhnRules", "LeducRules", "poker_tree", "kuhn_poker", "leduc_poker", "KUHN_CARDS", "KUHN_BETS"]

#: Kuhn on sliders: how many cards (3 to 13) and the bet in antes (0.5 to 4).
KUHN_CARDS = (3, 13)
KUHN_BETS = (0.5, 4.0)
_RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class KuhnRules:
    """Kuhn poker (Kuhn 1950) with ``cards`` cards and a bet of ``bet`` antes.

    Each player antes 1 and gets one card. Player 1 passes or bets ``bet``; after a pass player 2
    passes (showdown for the antes) or bets, and player 1 then folds (pass) or calls (bet); after a
    bet the other player folds or calls (showdown for 1 + ``bet`` each). ``cards=3, bet=1`` is
    the classic game (value -1/18).
    """

    cards: int = 3
    bet: float = 1.0

    def __post_init__(self):
        low, high = KUHN_CARDS
        if (
            isinstance(self.cards, bool)
            or not isinstance(self.cards, (int, np.integer))
            or not low <= self.cards <= high
        ):
            raise ValueError(f"Kuhn poker takes {low} to {high} cards; got {self.cards!r}")
        low, high = KUHN_BETS
        if (
            isinstance(self.bet, bool)
            or not isinstance(self.bet, (int, float, np.number))
            or not low <= float(self.bet) <= high
        ):
            raise ValueError(f"the bet must be {low:g} to {high:g} times the ante; got {self.bet!r}")

    @property
    def name(self) -> str:
        if self.cards == 3 and self.bet == 1.0:
            return "Kuhn poker"
        return f"Kuhn poker, {self.cards} cards, bet {self.bet:g}"

    @property
    def card_names(self) -> str:
        """The highest ``cards`` ranks up to the king (J Q K for three), with the ace on top of thirteen."""
        return _RANKS[-self.cards :] if self.cards == 13 else _RANKS[:-1][-self.cards :]

    def deals(self) -> list[tuple[int, ...]]:
        return list(itertools.permutations(range(self.cards), 2))

    def player(self, history: str) -> int:
        """Who acts after ``history``: 0 or 1 (player 1 or 2, as the arrays number them), or -1 if it is over."""
        return -1 if history in ("pp", "bp", "bb", "pbp", "pbb") else len(history) % 2

    def actions(self, history: str) -> tuple[str, ...]:
        return ("p", "b")

    def after(self, history: str, action: str) -> str:
        return history + action

    def action_names(self, history: str) -> tuple[str, ...]:
        """The actions' names in the tree and its policies: Kuhn's classic pass and bet at every decision."""
        return ("pass", "bet")

    def spoken_names(self, history: str) -> tuple[str, ...]:
        """The actions as a player at the table says them: facing a bet, pass is a fold and bet a call."""
        return ("fold", "call") if history.endswith("b") else ("check", "bet")

    def payoff(self, history: str, deal: tuple[int, ...]) -> float:
        """Player 1's payoff at a finished ``history``."""
        showdown = 1.0 if deal[0] > deal[1] else -1.0
        called = 1.0 + float(self.bet)
        return {"pp": showdown, "bp": 1.0, "pbp": -1.0, "bb": called * showdown, "pbb": called * showdown}[history]

    def seen(self, history: str, deal: tuple[int, ...]) -> tuple[int, ...]:
        """The cards the player to act sees."""
        return (deal[len(history) % 2],)

    def infoset(self, history: str, deal: tuple[int, ...]) -> str:
        return self.card_names[deal[len(history) % 2]] + history

    @staticmethod
    def split(infoset: str) -> tuple[str, str]:
        """An information set's name as (the card seen, the betting history): ``"Qpb"`` -> ``("Q", "pb")``."""
        return infoset[0], infoset[1:]


#: The raise sizes (antes) and raises per round a LeducRules accepts: up to 4 raises a round the tree has at most
#: 29,970 nodes (2 make OpenSpiel's 9,450); 60 made 5.3 million nodes, minutes and gigabytes to build.
LEDUC_RAISES = (0.25, 100.0)
LEDUC_MAX_RAISES = (1, 4)


@dataclass(frozen=True)
class LeducRules:
    """Leduc hold'em (Southey et al. 2005) exactly as OpenSpiel's ``leduc_poker``.

    Six cards, J Q K in two suits (OpenSpiel's cards 0 to 5: rank ``card // 2``). Each player antes
    1 and gets a private card; a betting round; a public card; a second round. In a round player 1
    acts first; a bet or raise is 2 in the first round and 4 in the second, at most two a round;
    a round ends with a call or two checks. At the showdown a pair with the public card wins, else
    the higher rank; equal ranks split the pot.

    A history is the first round's bets, ``/``, the public card (its digit, 0 to 5), the second
    round's bets: ``"rc/4cr"``. ``"rc/"`` is the chance node that deals the public card.
    """

    name: str = "Leduc hold'em"
    raises: tuple[int, int] = (2, 4)
    max_raises: int = 2

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise ValueError(f"the name must be text; got {self.name!r}")
        sizes = self.raises
        if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__") or len(sizes) != 2:
            raise ValueError(
                f"raises must be two sizes, the first round's and the second's (such as (2, 4)); got {sizes!r}"
            )
        low, high = LEDUC_RAISES
        for round_number, size in enumerate(sizes, 1):
            if (
                isinstance(size, bool)
                or not isinstance(size, (int, float, np.number))
                or not math.isfinite(size)
                or not low <= size <= high
            ):
                raise ValueError(
                    f"the raise of round {round_number} must be a number from {low:g} to {high:g} antes; got {size!r}"
                )
        low, high = LEDUC_MAX_RAISES
        if (
            isinstance(self.max_raises, bool)
            or not isinstance(self.max_raises, (int, np.integer))
            or not (low <= self.max_raises <= high)
        ):
            raise ValueError(
                f"max_raises must be a whole number from {low} to {high} (4 raises a round make a tree of "
                f"29,970 nodes, what a page holds live); got {self.max_raises!r}"
            )

    @property
    def card_names(self) -> tuple[str, ...]:
        return tuple(rank + suit for rank in "JQK" for suit in "♠♥")

    def deals(self) -> list[tuple[int, ...]]:
        return list(itertools.permutations(range(6), 2))  # player 1's card, player 2's

    @staticmethod
    def _bets(history: str) -> str:
        """The current round's bets."""
        rounds = history.split("/")
        return rounds[0] if len(rounds) == 1 else rounds[1][1:]

    @staticmethod
    def _round_over(bets: str) -> bool:
        return bets.endswith("f") or bets == "cc" or (bets.endswith("c") and "r" in bets)

    def player(self, history: str) -> int:
        if history.endswith("/"):
            return CHANCE_NODE
        bets = self._bets(history)
        if bets.endswith("f") or ("/" in history and self._round_over(bets)):
            return -1
        return len(bets) % 2

    def chance(self, history: str, deal: tuple[int, ...]) -> list[tuple[str, float]]:
        """The public card's outcomes after ``history``: each card not dealt, equally likely (in card order)."""
        left = [card for card in range(6) if card not in deal]
        return [(str(card), 1.0 / len(left)) for card in left]

    def actions(self, history: str) -> tuple[str, ...]:
        bets = self._bets(history)
        facing_a_bet = bets.endswith("r")
        can_raise = bets.count("r") < self.max_raises
        return ("f",) * facing_a_bet + ("c",) + ("r",) * can_raise

    def action_names(self, history: str) -> tuple[str, ...]:
        facing_a_bet = self._bets(history).endswith("r")
        names = {"f": "fold", "c": "call" if facing_a_bet else "check", "r": "raise" if facing_a_bet else "bet"}
        return tuple(names[a] for a in self.actions(history))

    spoken_names = action_names  # Leduc's names are already what a player says

    def after(self, history: str, action: str) -> str:
        """The history after ``action`` (or a chance outcome): a first round that ends without a fold opens the
        second."""
        following = history + action
        if "/" not in following and action != "f" and self._round_over(following):
            return following + "/"
        return following

    def contributions(self, history: str) -> list[float]:
        """What each player has put in the pot by the end of ``history``."""
        put = [1.0, 1.0]
        rounds = history.split("/")
        for number, bets in enumerate([rounds[0]] + [r[1:] for r in rounds[1:]]):
            for k, action in enumerate(bets):
                actor = k % 2
                if action == "c":
                    put[actor] = put[1 - actor]
                elif action == "r":
                    put[actor] = put[1 - actor] + self.raises[number]
        return put

    def payoff(self, history: str, deal: tuple[int, ...]) -> float:
        put = self.contributions(history)
        bets = self._bets(history)
        if bets.endswith("f"):
            folder = (len(bets) - 1) % 2
            return -put[0] if folder == 0 else put[1]
        public = int(history.split("/")[1][0]) // 2
        strength = [(deal[p] // 2 == public, deal[p] // 2) for p in (0, 1)]
        if strength[0] == strength[1]:
            return 0.0
        return put[1] if strength[0] > strength[1] else -put[0]

    def seen(self, history: str, deal: tuple[int, ...]) -> tuple[int, ...]:
        """The cards the player to act sees: their own, and the public card in the second round."""
        rounds = history.split("/")
        own = deal[len(self._bets(history)) % 2]
        return (own,) if len(rounds) == 1 else (own, int(rounds[1][0]))

    def infoset(self, history: str, deal: tuple[int, ...]) -> str:
        """``"J♠ rc"`` in the first round; ``"J♠ Q♥ rc/cr"`` in the second (own card, public card, bets)."""
        rounds = history.split("/")
        private = self.card_names[deal[len(self._bets(history)) % 2]]
        if len(rounds) == 1:
            return f"{private} {history}".rstrip()
        return f"{private} {self.card_names[int(rounds[1][0])]} {rounds[0]}/{rounds[1][1:]}"

    @staticmethod
    def split(infoset: str) -> tuple[str, str]:
        """An information set's name as (the cards seen, the betting history):
        ``"J♠ Q♥ rc/cr"`` -> ``("J♠ Q♥", "rc/cr")``."""
        parts = infoset.split(" ")
        if parts[-1][-1] in "♠♥":
            return infoset, ""
        return " ".join(parts[:-1]), parts[-1]


def _branches(rules, history: str, deal) -> tuple[str, ...]:
    """What can follow ``history``: the legal actions, chance's outcomes, or nothing at the end."""
    actor = rules.player(history)
    if actor == CHANCE_NODE:
        return tuple(outcome for outcome, _ in rules.chance(history, deal))
    return rules.actions(history) if actor >= 0 else ()


def _infoset_order(rules) -> dict[str, tuple]:
    """Each information set's place among its player's: by the number of actions before it, the cards its player
    sees, then where a breadth-first walk of its first deal meets it (Kuhn: J Q K Jpb Qpb Kpb, then Jp Jb Qp Qb Kp
    Kb)."""
    keys: dict[str, tuple] = {}
    for deal in rules.deals():
        place = 0
        frontier = [""]
        while frontier:
            for history in frontier:
                actor = rules.player(history)
                if actor >= 0:
                    keys.setdefault(
                        rules.infoset(history, deal),
                        (len(history.replace("/", "")), rules.seen(history, deal), place),
                    )
                place += 1
            frontier = [rules.after(h, a) for h in frontier for a in _branches(rules, h, deal)]
    return keys


def poker_tree(rules) -> TreeGame:
    """The game ``rules`` describe, built as every game is (:func:`rmcore.build_tree_game`): the cards dealt one by one
    (each deal's probability is then ``1/n * 1/(n-1)``, multiplied in that order as OpenSpiel does), the betting, and
    Leduc's public card a chance node between the rounds.

    Information sets are numbered player 1's first, then by the number of actions before them, the cards their
    player sees and the history (Kuhn: J Q K Jpb Qpb Kpb, then Jp Jb Qp Qb Kp Kb); their legal actions are columns
    ``0 .. n-1`` of a policy. A node's label is ``(card, card, history)``.
    """
    names = rules.card_names
    cards = len(names)
    order = _infoset_order(rules)

    def expand(state):
        if state[0] == "dealing":
            dealt = state[1]
            if len(dealt) < 2:
                left = [card for card in range(cards) if card not in dealt]
                return Chance(
                    tuple(names[card] for card in left),
                    tuple(Fraction(1, cards - len(dealt)) for _ in left),
                    tuple(("dealing", dealt + (card,)) for card in left),
                )
            return expand(("betting", dealt, ""))
        _, deal, history = state
        actor = rules.player(history)
        if actor == CHANCE_NODE:
            outcomes = rules.chance(history, deal)
            return Chance(
                tuple(outcome for outcome, _ in outcomes),
                tuple(probability for _, probability in outcomes),
                tuple(("betting", deal, rules.after(history, outcome)) for outcome, _ in outcomes),
            )
        if actor < 0:
            return Terminal(rules.payoff(history, deal))
        return Decision(
            actor + 1,
            rules.infoset(history, deal),
            rules.action_names(history),
            tuple(("betting", deal, rules.after(history, action)) for action in rules.actions(history)),
        )

    def label(state, path):
        if state[0] == "dealing":
            return (*state[1], "")
        return (*state[1], state[2])

    return build_tree_game(
        rules.name, ("dealing", ()), expand, infoset_order=order.__getitem__, rules=rules, label=label
    )


@functools.lru_cache(maxsize=64)
def kuhn_poker(cards: int = 3, bet: float = 1.0) -> TreeGame:
    """Kuhn poker with ``cards`` cards (3 to 13) and a bet of ``bet`` antes (0.5 to 4); built once per setting."""
    return poker_tree(KuhnRules(cards, bet))


@functools.lru_cache(maxsize=1)
def leduc_poker() -> TreeGame:
    """Leduc hold'em as OpenSpiel's ``leduc_poker``: 936 information sets, 30 deals of the private cards."""
    return poker_tree(LeducRules())
