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
    of the parameters' names hold their values. ``description`` is one line; ``how_to_play`` the rules in full, for a
    page or a notebook (what every action name means, and what is paid)."""

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
        "Three cards, J < Q < K (up to 13 on sliders). Each player antes 1 and gets one card. Player 1 passes (checks) "
        "or bets 1. After a pass, player 2 passes (showdown for the pot of 2) or bets, and player 1 then folds (pass) "
        "or calls (bet). After a bet, the other player folds (pass) or calls (bet): showdown for 4. The higher card "
        "wins a showdown; a fold loses the ante. Information sets are named by the card held and the actions so far "
        "(p: pass, b: bet): Jpb is holding J after pass, bet.",
    ),
    "leduc": TreeGameEntry(
        "leduc",
        "Leduc hold'em",
        "Leduc hold'em (Southey et al. 2005): 6 cards, two betting rounds, a public card (OpenSpiel's leduc_poker).",
        poker.leduc_poker,
        (),
        poker.LeducRules,
        "Six cards (J, Q, K in two suits). Each player antes 1 and gets one private card; a betting round, then one "
        "public card, then a second round. In each round a player checks (c) or raises (r: 2 in the first round, 4 in "
        "the second; at most two raises a round); facing a raise, folds (f), calls (c) or raises. A fold loses what "
        "was put in; at a showdown a pair with the public card wins, otherwise the higher card; equal cards split.",
    ),
    "liars_dice": TreeGameEntry(
        "liars_dice",
        "Liar's dice",
        "Liar's dice (Lanctot et al. 2009; OpenSpiel's liars_dice): one die each; bid q-f (at least q of the two dice "
        "show face f, the highest face wild), or call the last bid a lie.",
        liars_dice.liars_dice_game,
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
        "Each player rolls one die and sees only their own. Player 1 bids first, then the players take turns: a bid "
        "q-f, such as 2-3, claims that at least q of the two dice show face f, the highest face counting as any face "
        "(wild). Each bid must be higher than the last (1-1 < 1-2 < ... < 2-1 < ...). Instead of bidding, a player "
        "may call the last bid a lie (Liar): the dice are shown, the bidder wins 1 if the bid holds and the caller "
        "wins 1 if it does not. No money is staked: payoffs are these wins and losses of 1.",
    ),
    "goofspiel": TreeGameEntry(
        "goofspiel",
        "Goofspiel",
        "Goofspiel (Ross 1971; OpenSpiel's goofspiel, turn-based): bid a card for each point card, highest first, "
        "seeing only who won each turn.",
        goofspiel.goofspiel_game,
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
        "Each player holds the cards 1 to N; the point cards are turned up from N down to 1. On each turn both bid a "
        "card of their hand for the point card shown (player 1 first, player 2 without seeing it); the higher bid "
        "wins the point card's value, equal bids discard it. Bids stay hidden: each learns only who won the turn. "
        "The player with more points wins 1, the other loses 1 (0 on equal points).",
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
            players = getattr(game.rules, "players", 2)
            if players != 2:  # (the catalogue's games are two-player: its parameters cannot build this one again)
                raise ValueError(
                    f"{game.name!r} has {players} players; the catalogue's {entry.title} is its two-player game"
                )
            values = {p.name: (int if p.integer else float)(getattr(game.rules, p.name)) for p in entry.parameters}
            return entry.name, values
    name = getattr(game, "name", game)
    raise ValueError(f"{name!r} is not built from a game of the catalogue ({', '.join(TREE_GAMES)})")
