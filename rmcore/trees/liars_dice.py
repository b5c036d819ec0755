"""Liar's dice with one die each, as OpenSpiel's ``liars_dice``: :func:`liars_dice_game`.

Each player rolls one die with ``sides`` faces (player 1's first; each face 1/``sides``) and sees only their own.
Player 1 then bids, and the players take turns: a bid ``q-f`` claims that at least ``q`` of the two dice show
face ``f``, and each bid must be higher than the last in the order

    1-1 < 1-2 < ... < 1-N < 2-1 < ... < 2-N        (quantity first, then face: OpenSpiel's action ids 0 .. 2N-1)

Instead of bidding, a player may call the last bid a lie (``liar``, OpenSpiel's action ``2N``; not on the first
move; the only move left after ``2-N``). The dice are then shown: a die counts for the bid if it shows the bid's
face **or the highest face N, which is wild** (OpenSpiel's ``ResolveWinner``). With at least ``q`` dice counting,
the bidder wins 1 and the caller loses 1; otherwise the caller wins. A player knows their own die and every bid
made: their information set is ``"die 3 | 1-2 2-1"``.

This is the game of Lanctot et al. (2009), *Monte Carlo sampling for regret minimization in extensive games*
(NIPS), with one die each, exactly as OpenSpiel's ``pyspiel.load_game("liars_dice(dice_sides=N)")``: the same chance
nodes, actions in the same order, the same information sets and payoffs (``tests/test_teaching_games.py`` walks both
trees together), so CFR on it equals OpenSpiel's ``CFRSolver``. It is built here, without OpenSpiel.

With ``sides`` faces there are ``2 ** (2 sides)`` bid sequences, each heard with every die of the player to move:
``sides * 4 ** sides`` information sets (192 for 3 sides, 24,576 for 6) and
``sides ** 2 * (2 ** (2 sides + 1) - 1) + 1 + sides`` histories (1,147 for 3 sides, 294,883 for 6).
Values for player 1: 1/9 with 3 sides, 1/16 with 4, about -0.0276 with 6.

>>> game = liars_dice_game(3)  # the 4 chance nodes that roll the dice are its 9 deals; 1,143 histories follow them
>>> game.name, len(game.infosets), len(game.deal_paths), game.tree.player.shape[0]
("Liar's dice, 3 sides", 192, 9, 1143)
>>> game.actions[game.infosets.index("die 3 | 1-2 2-1")]  # player 1 rolled a 3 (wild), bid 1-2, heard 2-1
('2-2', '2-3', 'liar')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._deprecated import getattr_for
from .builder import Chance, Decision, Terminal, build_tree_game
from .game import TreeGame

__all__ = ["LiarsDiceRules", "liars_dice_game", "LIARS_DICE_SIDES"]

#: The dice a LiarsDiceRules accepts: 2 to 6 sides (six make 294,883 histories, built in a few seconds).
LIARS_DICE_SIDES = (2, 6)


@dataclass(frozen=True)
class LiarsDiceRules:
    """Liar's dice with one die of ``sides`` faces each (2 to 6), as OpenSpiel's ``liars_dice(dice_sides=sides)``.

    A bid is a number from 0 to ``2 sides - 1`` (OpenSpiel's action id): quantity ``bid // sides + 1`` of face
    ``bid % sides + 1``; the call of a lie is ``2 sides``. The highest face is wild.
    """

    sides: int = 6

    def __post_init__(self):
        low, high = LIARS_DICE_SIDES
        if (
            isinstance(self.sides, bool)
            or not isinstance(self.sides, (int, np.integer))
            or not low <= self.sides <= high
        ):
            raise ValueError(f"Liar's dice takes dice of {low} to {high} sides; got {self.sides!r}")

    @property
    def name(self) -> str:
        return f"Liar's dice, {self.sides} sides"

    @property
    def liar(self) -> int:
        """The action id of calling the last bid a lie (after the ``2 sides`` bids)."""
        return 2 * self.sides

    def bid_name(self, bid: int) -> str:
        """``"2-3"``: the quantity, then the face (OpenSpiel's ``action_to_string``); ``"liar"`` for the call."""
        return "liar" if bid == self.liar else f"{bid // self.sides + 1}-{bid % self.sides + 1}"

    def bidder_wins(self, bid: int, dice: tuple[int, ...]) -> bool:
        """Whether ``bid`` holds for ``dice`` (faces 1 to ``sides``): at least its quantity of dice show its face
        or the wild highest face."""
        quantity, face = bid // self.sides + 1, bid % self.sides + 1
        return sum(die == face or die == self.sides for die in dice) >= quantity

    def payoff(self, dice: tuple[int, ...], bid: int, bidder: int) -> float:
        """Player 1's payoff when ``bid``, made by player ``bidder`` (1 or 2), is called a lie: 1 or -1."""
        won = 1.0 if self.bidder_wins(bid, dice) else -1.0
        return won if bidder == 1 else -won

    def infoset(self, dice: tuple[int, ...], bids: tuple[int, ...]) -> str:
        """What the player to move knows: their die and the bids so far, ``"die 3 | 1-2 2-1"``."""
        die = dice[len(bids) % 2]
        return (f"die {die} | " + " ".join(self.bid_name(b) for b in bids)) if bids else f"die {die}"


def _expand(rules: LiarsDiceRules):
    """The ``expand`` of :func:`~rmcore.build_tree_game` for ``rules``.

    A state is ``(dice, bid, moves, said, called)``: the faces rolled so far, the last bid's action id (-1 before
    the first), how many bids were made, their names, and whether the last bid was called a lie. The names and the last
    bid are carried rather than recomputed from the whole sequence: the build of six sides is the faster for it.
    """
    sides, liar = rules.sides, rules.liar
    roll = Fraction(1, sides)
    outcomes = tuple(f"roll {face}" for face in range(1, sides + 1))
    names = tuple(rules.bid_name(b) for b in range(liar + 1))

    def expand(state):
        dice, bid, moves, said, called = state
        if called:  # the bid made last, by player 1 after an odd number of bids, was called
            return Terminal(rules.payoff(dice, bid, 2 - moves % 2))
        if len(dice) < 2:  # player 1's die, then player 2's: one chance node per die, as OpenSpiel rolls them
            rolled = [(dice + (face,), -1, 0, "", False) for face in range(1, sides + 1)]
            return Chance(outcomes, (roll,) * sides, rolled)
        bids = range(bid + 1, liar)  # any higher bid, then the call once a bid was made
        following = [(dice, b, moves + 1, f"{said} {names[b]}" if moves else names[b], False) for b in bids]
        if moves:
            following.append((dice, bid, moves, said, True))
        return Decision(
            moves % 2 + 1,
            f"die {dice[moves % 2]} | {said}" if moves else f"die {dice[0]}",
            tuple(names[b] for b in bids) + (names[liar],) * (moves > 0),
            following,
        )

    return expand


@functools.lru_cache(maxsize=8)
def liars_dice_game(sides: int = 6) -> TreeGame:
    """Liar's dice with one die of ``sides`` faces each (2 to 6), as OpenSpiel's ``liars_dice(dice_sides=sides)``;
    built once per number of sides (six: 294,883 histories, 24,576 information sets).

    Raises
    ------
    ValueError
        If ``sides`` is not a whole number from 2 to 6.
    """
    rules = LiarsDiceRules(sides)
    return build_tree_game(rules.name, ((), -1, 0, "", False), _expand(rules), rules=rules)


# (``liars_dice``, this function's name one release ago, is the module's: read inside it, it warns and answers)
__getattr__ = getattr_for(__name__)
