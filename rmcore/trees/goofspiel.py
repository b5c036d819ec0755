"""Goofspiel with imperfect information, as OpenSpiel's ``goofspiel`` made turn-based: :func:`goofspiel_game`.

Each player holds the cards 1 to ``cards``; the point cards are turned up from the highest down (``cards``,
``cards - 1``, ..., 1; no chance). On each turn both players bid one card of their hand for the point card shown:
player 1 bids, then player 2 bids without seeing it (the simultaneous move made turn-based, as OpenSpiel's
``convert_to_turn_based`` does). The higher bid wins the point card's value; on equal bids the point card is
discarded. The bids stay hidden: each player learns only who won the turn (won, lost or tied). The last turn has no
choice (one card left each) and is played out at once. At the end the player with more points wins 1 and the other
loses 1 (0 on equal points).

A player's information set is their own bids with the outcome of each, ``"P1: 3 won, 1 tied"`` (``"P1: start"``
on the first turn): the partition of OpenSpiel's information-state strings (own hand and bids, the point cards and
the win sequence, all determined by these), which ``tests/test_teaching_games.py`` checks by walking both trees.

This is Goofspiel (the game of pure strategy; S. M. Ross, *Goofspiel: the game of pure strategy*, Journal of
Applied Probability 8, 1971) in the imperfect-information, descending-points form of OpenSpiel's
``goofspiel(num_cards=N,imp_info=True,points_order=descending)`` under ``pyspiel.convert_to_turn_based``: the same
actions in the same order, information sets and payoffs, so that CFR on it equals OpenSpiel's ``CFRSolver``. It is
built here, without OpenSpiel. The game is symmetric, so its value is 0.

>>> game = goofspiel_game(3)
>>> game.name, len(game.infosets), game.tree.player.shape[0]
('Goofspiel, 3 cards', 16, 67)
>>> game.infosets[:2], game.actions[0]
(('P1: start', 'P1: 1 tied'), ('bid 1', 'bid 2', 'bid 3'))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .._deprecated import getattr_for
from .builder import Decision, Terminal, build_tree_game
from .game import TreeGame

__all__ = ["GoofspielRules", "goofspiel_game", "GOOFSPIEL_CARDS"]

#: The hands a GoofspielRules accepts: 3 to 5 cards (five make 26,931 histories and 2,124 information sets).
GOOFSPIEL_CARDS = (3, 5)


@dataclass(frozen=True)
class GoofspielRules:
    """Goofspiel with ``cards`` cards in each hand (3 to 5), as OpenSpiel's turn-based
    ``goofspiel(num_cards=cards,imp_info=True,points_order=descending)``: point cards from ``cards`` down to 1,
    bids hidden, only the winner of each turn shown, win/loss returns."""

    cards: int = 4

    def __post_init__(self):
        low, high = GOOFSPIEL_CARDS
        if (
            isinstance(self.cards, bool)
            or not isinstance(self.cards, (int, np.integer))
            or not low <= self.cards <= high
        ):
            raise ValueError(f"Goofspiel takes {low} to {high} cards; got {self.cards!r}")

    @property
    def name(self) -> str:
        return f"Goofspiel, {self.cards} cards"

    def point_card(self, turn: int) -> int:
        """The value of the point card of ``turn`` (0, 1, ...): the highest first."""
        return self.cards - turn

    def points(self, bids: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, int]:
        """Each player's points after the turns both have bid in: the higher bid takes the point card."""
        won = [0, 0]
        for turn, (first, second) in enumerate(zip(*bids)):
            if first != second:
                won[first < second] += self.point_card(turn)
        return won[0], won[1]

    def payoff(self, bids: tuple[tuple[int, ...], tuple[int, ...]]) -> float:
        """Player 1's payoff once every card is played: 1 with more points, -1 with fewer, 0 on equal points."""
        first, second = self.points(bids)
        return float((first > second) - (first < second))

    def infoset(self, player: int, bids: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
        """What ``player`` (1 or 2) knows before bidding: their own bids and whether each won, lost or tied."""
        own, other = bids[player - 1], bids[2 - player]
        seen = [
            f"{mine} {'won' if mine > theirs else 'lost' if mine < theirs else 'tied'}"
            for mine, theirs in zip(own, other)
        ]
        return f"P{player}: " + (", ".join(seen) if seen else "start")


def _expand(rules: GoofspielRules):
    """The ``expand`` of :func:`~rmcore.build_tree_game` for ``rules``: a state is the two players' bids so far,
    ``(player 1's, player 2's)``; player 1 has bid once more than player 2 when player 2 is to bid."""
    hand = tuple(range(1, rules.cards + 1))
    names = {card: f"bid {card}" for card in hand}

    def expand(state):
        first, second = state
        player = 1 if len(first) == len(second) else 2
        own = first if player == 1 else second
        left = tuple(card for card in hand if card not in own)
        if player == 1 and len(left) == 1:  # the last turn has no choice: OpenSpiel plays it out at once
            last = tuple(card for card in hand if card not in second)
            return Terminal(rules.payoff((first + left, second + last)))
        if player == 1:
            following = [(first + (card,), second) for card in left]
        else:
            following = [(first, second + (card,)) for card in left]
        return Decision(player, rules.infoset(player, state), tuple(names[card] for card in left), following)

    return expand


@functools.lru_cache(maxsize=4)
def goofspiel_game(cards: int = 4) -> TreeGame:
    """Goofspiel with ``cards`` cards each (3 to 5), as OpenSpiel's turn-based
    ``goofspiel(num_cards=cards,imp_info=True,points_order=descending)``; built once per number of cards (five:
    26,931 histories, 2,124 information sets).

    Raises
    ------
    ValueError
        If ``cards`` is not a whole number from 3 to 5.
    """
    rules = GoofspielRules(cards)
    return build_tree_game(rules.name, ((), ()), _expand(rules), rules=rules)


# (``goofspiel``, this function's name one release ago, is the module's: read inside it, it warns and answers)
__getattr__ = getattr_for(__name__)
