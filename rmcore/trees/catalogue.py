"""The sequential games by name: one catalogue for the pages, the command line and the export.

Each entry names a game family, says what it is in a line and how it is played in a paragraph (the one description of
the game: the pages, ``--help`` and the docs read it here), and lists the numbers it can be built with (with their
ranges, for a slider or ``--help``). :func:`tree_game` validates a name and its parameters and builds the game (once
per setting: the builders keep what they built).

>>> import rmcore
>>> game = rmcore.tree_game("kuhn", cards=4, bet=2.0)
>>> game.name, len(game.infosets)
('Kuhn poker, 4 cards, bet 2', 16)
>>> [entry.title for entry in rmcore.TREE_GAMES.values()]
['Kuhn poker', "Leduc hold'em", "Liar's dice", 'Goofspiel']
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from . import goofspiel, liars_dice, poker
from .game import TreeGame

__all__ = ["TREE_GAMES", "TreeGameEntry", "TreeGameParameter", "tree_game", "tree_game_setting"]


@dataclass(frozen=True)
class TreeGameParameter:
    """A number a game is built with: its range, default and slider step, and what it means."""

    name: str
    low: float
    high: float
    default: float
    step: float
    help: str = ""

    @property
    def integer(self) -> bool:
        """Whether it takes whole numbers only (its range, default and step are all whole)."""
        return all(float(v).is_integer() for v in (self.low, self.high, self.default, self.step))


@dataclass(frozen=True)
class TreeGameEntry:
    """A game family in the catalogue: ``build(*values)``, the parameters' values in their order, returns its
    :class:`~rmcore.TreeGame` (cached); ``rules`` is the class of the rules its games are built from, whose fields
    of the parameters' names hold their values; ``description`` is one line, ``how_to_play`` the rules in a paragraph
    (Markdown)."""

    name: str
    title: str
    description: str
    build: Callable[..., TreeGame]
    parameters: tuple[TreeGameParameter, ...] = ()
    rules: type | None = None
    how_to_play: str = ""


def _kuhn_parameters() -> tuple[TreeGameParameter, ...]:
    cards, bets = poker.KUHN_CARDS, poker.KUHN_BETS
    return (
        TreeGameParameter("cards", cards[0], cards[1], 3, 1, "how many cards (each player gets one; the higher wins)"),
        TreeGameParameter("bet", bets[0], bets[1], 1.0, 0.25, "the size of a bet or call, in antes (each antes 1)"),
    )


#: The sequential games by name: ``TREE_GAMES["kuhn"].build(5, 2.0)``, or :func:`tree_game` to validate too.
TREE_GAMES: dict[str, TreeGameEntry] = {
    "kuhn": TreeGameEntry(
        "kuhn",
        "Kuhn poker",
        "Kuhn poker (Kuhn 1950): one card each of 3 to 13, one bet; 3 cards and bet 1 are the classic (value -1/18).",
        poker.kuhn_poker,
        _kuhn_parameters(),
        poker.KuhnRules,
        "Each player antes 1 and gets one card; the higher card wins at showdown. Player 1 **passes** (checks) or "
        "**bets**. After a pass, player 2 passes (showdown for the pot of 2) or bets, and player 1 then folds (pass) "
        "or calls (bet). After a bet, the other player folds or calls (showdown for the pot with both bets).",
    ),
    "leduc": TreeGameEntry(
        "leduc",
        "Leduc hold'em",
        "Leduc hold'em (Southey et al. 2005): 6 cards, two betting rounds, a public card (OpenSpiel's leduc_poker).",
        poker.leduc_poker,
        (),
        poker.LeducRules,
        "Six cards (J, Q, K in two suits); each player antes 1 and gets one. A betting round, then a public card is "
        "revealed and a second round: bets of 2, then 4, at most two a round; a fold ends the hand. At showdown a pair "
        "with the public card wins, otherwise the higher card; equal cards split.",
    ),
    "liars_dice": TreeGameEntry(
        "liars_dice",
        "Liar's dice",
        "Liar's dice (Lanctot et al. 2009; OpenSpiel's liars_dice): one die each, bid on both dice, the highest face "
        "wild, or call the last bid a lie.",
        liars_dice.liars_dice,
        (
            TreeGameParameter(
                "sides",
                liars_dice.LIARS_DICE_SIDES[0],
                liars_dice.LIARS_DICE_SIDES[1],
                3,
                1,
                "how many faces each die has (3: 192 information sets, a quick first look; 6: 24,576)",
            ),
        ),
        liars_dice.LiarsDiceRules,
        'Each player rolls one die and sees only their own. In turn they bid a quantity and a face ("at least two '
        '3s" among both dice), each bid higher than the last, or call the last bid a lie: the dice are shown, and '
        "the bidder wins if the bid holds (the highest face counts as any face), the caller otherwise.",
    ),
    "goofspiel": TreeGameEntry(
        "goofspiel",
        "Goofspiel",
        "Goofspiel (Ross 1971; OpenSpiel's goofspiel, turn-based): bid a card for each point card, highest first, "
        "seeing only who won each turn.",
        goofspiel.goofspiel,
        (
            TreeGameParameter(
                "cards",
                goofspiel.GOOFSPIEL_CARDS[0],
                goofspiel.GOOFSPIEL_CARDS[1],
                4,
                1,
                "how many cards each player holds (the point cards run from this down to 1)",
            ),
        ),
        goofspiel.GoofspielRules,
        "Each player holds the cards 1 to N; the point cards N to 1 come up one at a time, highest first. For each, "
        "player 1 then player 2 bid a card unseen; the higher bid wins the point card's value (a tie: nobody), and "
        "both learn only who won. The player with more points wins.",
    ),
}


def tree_game(name: str, **parameters) -> TreeGame:
    """The game ``name`` of :data:`TREE_GAMES` built with ``parameters`` (the others at their defaults).

    Raises ValueError naming an unknown game, an unknown parameter, or a value outside its range.

    >>> tree_game("kuhn", cards=20)
    Traceback (most recent call last):
    ...
    ValueError: Kuhn poker's cards must be 3 to 13; got 20
    """
    entry = TREE_GAMES.get(name)
    if entry is None:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(TREE_GAMES)}")
    known = {parameter.name: parameter for parameter in entry.parameters}
    unknown = [key for key in parameters if key not in known]
    if unknown:
        takes = f"takes {', '.join(known)}" if known else "takes no parameters"
        raise ValueError(f"{entry.title} has no parameter {unknown[0]!r} ({takes})")
    values = {}
    for key, parameter in known.items():
        value = parameters.get(key, parameter.default)
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{entry.title}'s {key} must be a number; got {value!r}") from None
        if isinstance(value, bool) or math.isnan(number) or not parameter.low <= number <= parameter.high:
            raise ValueError(f"{entry.title}'s {key} must be {parameter.low:g} to {parameter.high:g}; got {value!r}")
        if parameter.integer:
            if not number.is_integer():
                raise ValueError(f"{entry.title}'s {key} must be a whole number; got {value!r}")
            number = int(number)
        values[key] = number
    # (Positionally, in the catalogue's order, so that the builder's cache meets ``kuhn_poker(3, 1.0)`` again.)
    return entry.build(*(values[parameter.name] for parameter in entry.parameters))


def tree_game_setting(game: TreeGame) -> tuple[str, dict]:
    """``(name, parameters)`` such that ``tree_game(name, **parameters)`` builds ``game`` again (from its rules).

    >>> tree_game_setting(tree_game("kuhn", cards=5))
    ('kuhn', {'cards': 5, 'bet': 1.0})
    """
    for entry in TREE_GAMES.values():
        if entry.rules is not None and type(getattr(game, "rules", None)) is entry.rules:
            values = {p.name: (int if p.integer else float)(getattr(game.rules, p.name)) for p in entry.parameters}
            return entry.name, values
    name = getattr(game, "name", game)
    raise ValueError(f"{name!r} is not built from a game of the catalogue ({', '.join(TREE_GAMES)})")
