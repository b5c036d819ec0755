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

#: Kuhn on sliders: how many cards (3 to 13) and the bet in antes (0.5 to 4); players 2 to 4 (OpenSpiel's
#: ``kuhn_poker`` takes up to 10; four already make 2,100 histories per card more and a 120-deal tree).
KUHN_CARDS = (3, 13)
KUHN_PLAYERS = (2, 4)
KUHN_BETS = (0.5, 4.0)
_RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class KuhnRules:
    """Kuhn poker (Kuhn 1950) with ``cards`` cards and a bet of ``bet`` antes, for ``players`` players.

    Each player antes 1 and gets one card. Player 1 passes or bets ``bet``; after a pass player 2
    passes (showdown for the antes) or bets, and player 1 then folds (pass) or calls (bet); after a
    bet the other player folds or calls (showdown for 1 + ``bet`` each). ``cards=3, bet=1`` is
    the classic game (value -1/18).

    With n > 2 players (OpenSpiel's ``kuhn_poker(players=n)``, whose deck has n + 1 cards) the players act in turn
    until one bets: if all pass, the highest card takes the antes; after the first bet each other player, in turn
    from the bettor, folds (pass) or calls (bet) once, and the highest card among the bettor and the callers takes
    the pot. Each player's payoff is the pot less what it put in if it wins, else minus what it put in.
    """

    cards: int = 3
    bet: float = 1.0
    players: int = 2

    def __post_init__(self):
        if (
            isinstance(self.players, bool)
            or not isinstance(self.players, (int, np.integer))
            or not KUHN_PLAYERS[0] <= self.players <= KUHN_PLAYERS[1]
        ):
            raise ValueError(f"Kuhn poker takes {KUHN_PLAYERS[0]} to {KUHN_PLAYERS[1]} players; got {self.players!r}")
        if isinstance(self.cards, (int, np.integer)) and not isinstance(self.cards, bool):
            if self.cards < self.players + 1:
                raise ValueError(
                    f"Kuhn poker for {self.players} players needs at least {self.players + 1} cards; got {self.cards}"
                )
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
        if self.players != 2:
            extra = (
                "" if self.cards == self.players + 1 and self.bet == 1.0 else f", {self.cards} cards, bet {self.bet:g}"
            )
            return f"Kuhn poker, {self.players} players{extra}"
        if self.cards == 3 and self.bet == 1.0:
            return "Kuhn poker"
        return f"Kuhn poker, {self.cards} cards, bet {self.bet:g}"

    @property
    def card_names(self) -> str:
        """The highest ``cards`` ranks up to the king (J Q K for three), with the ace on top of thirteen."""
        return _RANKS[-self.cards :] if self.cards == 13 else _RANKS[:-1][-self.cards :]

    def deals(self) -> list[tuple[int, ...]]:
        return list(itertools.permutations(range(self.cards), self.players))

    def player(self, history: str) -> int:
        """Who acts after ``history``: 0 to n - 1 (player 1 to n, as the arrays number them), or -1 if it is over."""
        n = self.players
        if n == 2:
            return -1 if history in ("pp", "bp", "bb", "pbp", "pbb") else len(history) % 2
        first_bet = history.find("b")
        over = len(history) == n if first_bet < 0 else len(history) - first_bet - 1 == n - 1
        return -1 if over else len(history) % n

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

    def payoff(self, history: str, deal: tuple[int, ...]) -> float | tuple[float, ...]:
        """Player 1's payoff at a finished ``history`` (two players), or every player's (more)."""
        if self.players != 2:
            n = self.players
            put = [1.0] * n
            for k, action in enumerate(history):
                if action == "b":
                    put[k % n] += float(self.bet)
            showdown = [p for p in range(n) if put[p] > 1.0] if "b" in history else list(range(n))
            winner = max(showdown, key=lambda p: deal[p])
            pot = sum(put)
            return tuple(pot - put[p] if p == winner else -put[p] for p in range(n))
        showdown = 1.0 if deal[0] > deal[1] else -1.0
        called = 1.0 + float(self.bet)
        return {"pp": showdown, "bp": 1.0, "pbp": -1.0, "bb": called * showdown, "pbb": called * showdown}[history]

    def seen(self, history: str, deal: tuple[int, ...]) -> tuple[int, ...]:
        """The cards the player to act sees."""
        return (deal[len(history) % self.players],)

    def infoset(self, history: str, deal: tuple[int, ...]) -> str:
        return self.card_names[deal[len(history) % self.players]] + history

    @staticmethod
    def split(infoset: str) -> tuple[str, str]:
        """An information set's name as (the card seen, the betting history): ``"Qpb"`` -> ``("Q", "pb")``."""
        return infoset[0], infoset[1:]


#: The raise sizes (antes) and raises per round a LeducRules accepts: up to 4 raises a round the tree has at most
#: 29,970 nodes (2 make OpenSpiel's 9,450); 60 made 5.3 million nodes, minutes and gigabytes to build.
LEDUC_RAISES = (0.25, 100.0)
LEDUC_MAX_RAISES = (1, 4)
#: Leduc's players: 2 or 3 (three make 1.83 million histories; four would make some hundred million).
LEDUC_PLAYERS = (2, 3)


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

    With n > 2 ``players`` (OpenSpiel's ``leduc_poker(players=n)``) the deck holds n + 1 ranks in two suits (J Q K A
    for three), every player gets a card, and in each round the players still in act in turn from player 1: a fold
    leaves the hand, a call matches the highest stake, a raise lifts it. A round ends when every player still in has
    called the last raise, or all have checked; one player left takes the pot; at the showdown the best hands split
    it.
    """

    name: str = "Leduc hold'em"
    raises: tuple[int, int] = (2, 4)
    max_raises: int = 2
    players: int = 2

    def __post_init__(self):
        if (
            isinstance(self.players, bool)
            or not isinstance(self.players, (int, np.integer))
            or not LEDUC_PLAYERS[0] <= self.players <= LEDUC_PLAYERS[1]
        ):
            raise ValueError(
                f"Leduc hold'em takes {LEDUC_PLAYERS[0]} to {LEDUC_PLAYERS[1]} players; got {self.players!r}"
            )
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
        return tuple(rank + suit for rank in "JQKA"[: self.players + 1] for suit in "♠♥")

    def deals(self) -> list[tuple[int, ...]]:
        return list(itertools.permutations(range(2 * self.players + 2), self.players))  # player 1's card, 2's, ...

    def _play(self, history: str) -> tuple:
        """The betting of ``history`` replayed, for n > 2 players: ``(actor, put, folded, stakes, raises, over)``,
        ``actor`` the player to act (-1 when the hand is over, CHANCE_NODE before the public card), ``over`` whether
        the first round has just ended. Kept per history: the deals share them."""
        plays = _LEDUC_PLAYS.get(id(self))
        if plays is None or plays[0] is not self:  # (by identity: hashing the rules for every history cost seconds)
            plays = _LEDUC_PLAYS[id(self)] = (self, {})
        known = plays[1].get(history)
        if known is not None:
            return known
        n = self.players
        put, folded, left = [1.0] * n, [False] * n, n
        parts = history.split("/")
        rounds = [parts[0]] + [part[1:] for part in parts[1:]]
        actor, stakes, raises, over = 0, 1.0, 0, False
        for number, bets in enumerate(rounds):
            actor, raises, calls, over = folded.index(False), 0, 0, False
            for action in bets:
                if action == "f":
                    folded[actor], left = True, left - 1
                elif action == "c":
                    put[actor], calls = stakes, calls + 1
                else:
                    stakes += float(self.raises[number])
                    put[actor], raises, calls = stakes, raises + 1, 0
                if left == 1 or (number == 1 and _leduc_round_ready(raises, calls, left)):
                    actor = -1
                    break
                if _leduc_round_ready(raises, calls, left):
                    over = True
                    break
                actor = next(p % n for p in range(actor + 1, actor + n + 1) if not folded[p % n])
        if len(parts) > 1 and history.endswith("/"):
            actor = CHANCE_NODE
        result = (actor, tuple(put), tuple(folded), stakes, raises, over)
        plays[1][history] = result
        return result

    @staticmethod
    def _bets(history: str) -> str:
        """The current round's bets."""
        rounds = history.split("/")
        return rounds[0] if len(rounds) == 1 else rounds[1][1:]

    @staticmethod
    def _round_over(bets: str) -> bool:
        return bets.endswith("f") or bets == "cc" or (bets.endswith("c") and "r" in bets)

    def player(self, history: str) -> int:
        if self.players != 2:
            return self._play(history)[0]
        if history.endswith("/"):
            return CHANCE_NODE
        bets = self._bets(history)
        if bets.endswith("f") or ("/" in history and self._round_over(bets)):
            return -1
        return len(bets) % 2

    def chance(self, history: str, deal: tuple[int, ...]) -> list[tuple[str, float]]:
        """The public card's outcomes after ``history``: each card not dealt, equally likely (in card order)."""
        left = [card for card in range(2 * self.players + 2) if card not in deal]
        return [(str(card), 1.0 / len(left)) for card in left]

    def actions(self, history: str) -> tuple[str, ...]:
        if self.players != 2:
            actor, put, _, stakes, raises, _ = self._play(history)
            return ("f",) * (stakes > put[actor]) + ("c",) + ("r",) * (raises < self.max_raises)
        bets = self._bets(history)
        facing_a_bet = bets.endswith("r")
        can_raise = bets.count("r") < self.max_raises
        return ("f",) * facing_a_bet + ("c",) + ("r",) * can_raise

    def action_names(self, history: str) -> tuple[str, ...]:
        facing_a_bet = "f" in self.actions(history)
        names = {"f": "fold", "c": "call" if facing_a_bet else "check", "r": "raise" if facing_a_bet else "bet"}
        return tuple(names[a] for a in self.actions(history))

    spoken_names = action_names  # Leduc's names are already what a player says

    def after(self, history: str, action: str) -> str:
        """The history after ``action`` (or a chance outcome): a first round that ends without a fold opens the
        second."""
        following = history + action
        if self.players != 2:
            return following + "/" * ("/" not in following and self._play(following)[5])
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

    def payoff(self, history: str, deal: tuple[int, ...]) -> float | tuple[float, ...]:
        """Player 1's payoff at a finished ``history`` (two players), or every player's (more)."""
        if self.players != 2:
            _, put, folded, _, _, _ = self._play(history)
            inside = [p for p in range(self.players) if not folded[p]]
            if len(inside) > 1:
                public = int(history.split("/")[1][0]) // 2
                strength = {p: (deal[p] // 2 == public, deal[p] // 2) for p in inside}
                inside = [p for p in inside if strength[p] == max(strength.values())]
            share = sum(put) / len(inside)
            # (as OpenSpiel counts: the money left, plus the share, less the money at the start)
            return tuple((100.0 - put[p] + (share if p in inside else 0.0)) - 100.0 for p in range(self.players))
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
        own = deal[self.player(history) if self.players != 2 else len(self._bets(history)) % 2]
        return (own,) if len(rounds) == 1 else (own, int(rounds[1][0]))

    def infoset(self, history: str, deal: tuple[int, ...]) -> str:
        """``"J♠ rc"`` in the first round; ``"J♠ Q♥ rc/cr"`` in the second (own card, public card, bets)."""
        rounds = history.split("/")
        private = self.card_names[deal[self.player(history) if self.players != 2 else len(self._bets(history)) % 2]]
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


#: Each rules' replayed betting per history (``LeducRules._play``): ``{id(rules): (rules, {history: play})}``.
_LEDUC_PLAYS: dict = {}


def _leduc_round_ready(raises: int, calls: int, left: int) -> bool:
    """Whether a betting round is over (OpenSpiel's ``ReadyForNextRound``): all checked, or all called the raise."""
    return calls == left if raises == 0 else calls == left - 1


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
    player sees and the history (Kuhn: J Q K Jpb Qpb Kpb, then Jp Jb Qp Qb Kp Kb); with more than two players each
    player's in the order the kernels' passes meet them. Their legal actions are columns
    ``0 .. n-1`` of a policy. A node's label is ``(card, card, history)``.
    """
    names = rules.card_names
    cards = len(names)
    players = getattr(rules, "players", 2)
    # (more players: the kernels' pass order, without a walk of every deal first, a minute of 3-player Leduc's build)
    order = _infoset_order(rules) if players == 2 else None

    def expand(state):
        if state[0] == "dealing":
            dealt = state[1]
            if len(dealt) < players:
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
        rules.name,
        ("dealing", ()),
        expand,
        infoset_order=None if order is None else order.__getitem__,
        rules=rules,
        label=label,
        players=players,
    )


def kuhn_poker(cards: int | None = None, bet: float = 1.0, players: int = 2) -> TreeGame:
    """Kuhn poker with ``cards`` cards (3 to 13; by default ``players + 1``, OpenSpiel's deck) and a bet of ``bet``
    antes (0.5 to 4), for ``players`` players (2 to 4); built once per setting.

    >>> game = kuhn_poker(players=3)
    >>> game.name, game.players, len(game.infosets), game.tree.deal_root.shape[0]
    ('Kuhn poker, 3 players', 3, 48, 24)
    """
    if cards is None:
        cards = players + 1 if isinstance(players, int) and not isinstance(players, bool) else 3
    return _kuhn_poker(cards, bet, players)


@functools.lru_cache(maxsize=64)
def _kuhn_poker(cards: int, bet: float, players: int) -> TreeGame:
    return poker_tree(KuhnRules(cards, bet, players))


kuhn_poker.cache_clear = _kuhn_poker.cache_clear  # (the builders keep what they built: a test clears it)


@functools.lru_cache(maxsize=2)
def leduc_poker(players: int = 2) -> TreeGame:
    """Leduc hold'em as OpenSpiel's ``leduc_poker(players=n)``: for two players 936 information sets, 30 deals of
    the private cards; for three 1.83 million histories."""
    name = "Leduc hold'em" if players == 2 else f"Leduc hold'em, {players} players"
    return poker_tree(LeducRules(name, players=players))
