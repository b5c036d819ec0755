"""Gambit's extensive-form files (``.efg``, version 2): :func:`read_efg` and :func:`write_efg`.

A ``.efg`` file is a header, ``EFG 2 R "title" { "Player 1" "Player 2" } "comment"`` (one name per player), then the
tree's nodes in prefix order (a node, then its children's subtrees in order), one a line:

- ``c "name" 1 "deal" { "J" 1/3 "Q" 1/3 "K" 1/3 } 0``: a chance node, its chance information set (number, name,
  outcomes with probabilities) and an outcome;
- ``p "name" 2 4 "Qb" { "fold" "call" } 0``: a decision of player 2 at their information set 4;
- ``t "name" 7 "" { 1, -1 }``: a terminal node and its outcome's payoffs, one per player, player 1's first.

A file of two players holds a zero-sum game (each outcome's payoffs sum to 0): its tree keeps one payoff per terminal,
player 1's, the layout the two-player passes read. A file of three to ``config.MAX_TREE_PLAYERS`` players may be
general-sum, as any tree of that many players may; its tree keeps every player's payoff.

Information sets are numbered per player (chance has its own numbers); an information set's name and actions, and
an outcome's name and payoffs, are written where the number first appears and may be left out where it repeats.
Outcome 0 means none; an outcome at an inner node is added to every payoff below it. Numbers are exact decimals or
rationals (``0.25``, ``1/3``), and chance probabilities must sum to exactly 1, which is why :func:`write_efg` writes
them as fractions (decimals such as OpenSpiel's writer prints cannot sum to exactly 1 for thirds, and Gambit refuses
them).

Reading uses exact :class:`~fractions.Fraction` arithmetic throughout: a terminal's payoff is the sum of the outcomes
on its path, turned into a float once. The tree is laid out by :func:`~rmcore.build_tree_game`, which also checks
perfect recall. Writing factors the deals into nested chance nodes (``TreeGame.deal_paths``), so that reading back
multiplies the same probabilities in the same order: CFR on the game read back equals CFR on the game written, to
the last bit.

>>> import rmcore
>>> game = rmcore.read_efg('''EFG 2 R "Matching pennies" { "Player 1" "Player 2" }
... p "" 1 1 "mine" { "H" "T" } 0
... p "" 2 1 "theirs" { "h" "t" } 0
... t "" 1 "match" { 1, -1 }
... t "" 2 "differ" { -1, 1 }
... p "" 2 1 0
... t "" 2
... t "" 1
... ''')
>>> game.infosets, game.actions
(('mine', 'theirs'), (('H', 'T'), ('h', 't')))
>>> rmcore.read_efg(rmcore.write_efg(game)).infosets
('mine', 'theirs')
>>> three = rmcore.read_efg(rmcore.write_efg(rmcore.kuhn_poker(players=3)))
>>> three.players, rmcore.write_efg(three).splitlines()[0]
(3, 'EFG 2 R "Kuhn poker, 3 players" { "Player 1" "Player 2" "Player 3" }')
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .. import config, validation
from ..inputs import read_text
from ..trees.builder import MAX_TREE_NODES, Chance, Decision, Terminal, build_tree_game
from ..trees.game import CHANCE_NODE, TreeGame, chance_of, check_tree_game, children_of

__all__ = ["read_efg", "write_efg", "writes_efg", "MAX_EFG_CHARS", "MAX_EFG_HISTORY_CHARS", "MAX_EFG_STRING_CHARS"]

#: Longest ``.efg`` text read, in characters: about twice Liar's dice with six sides written out, the largest game the
#: tree page runs (Leduc hold'em is some 0.8 million characters); parsing that much takes Python about a minute.
MAX_EFG_CHARS = 50_000_000

#: Most characters the histories of all nodes may hold together (each node's history is the action names from the
#: root, which the tree builder writes out for every node and compares for perfect recall): a chain of 8,000 moves
#: has 128 million and took the builder minutes and gigabytes; Leduc hold'em has 0.2 million.
MAX_EFG_HISTORY_CHARS = 50_000_000

#: Longest quoted string read (a title, a name, an action), in characters: names are shown on pages and in every
#: node's history (a title of 25 million characters read whole by a backtracking expression takes gigabytes).
MAX_EFG_STRING_CHARS = 10_000

#: Longest number read, in characters: a double written exactly as a decimal needs at most about 770 digits.
_MAX_NUMBER_CHARS = 1100
#: Most digits the exact sum of one chance node's probabilities, or of the outcomes' payoffs on one path from the root,
#: may need in its denominator (and the same in bits): sums over unrelated denominators grow with every term.
_MAX_SUM_DIGITS = 2_000
_MAX_SUM_BITS = int(_MAX_SUM_DIGITS * math.log2(10))
#: A chance probability written as a decimal within ``SNAP_TOLERANCE`` of a fraction whose denominator is at most
#: ``SNAP_DENOMINATOR`` is read as that fraction when the decimals as written do not sum to exactly 1: OpenSpiel's
#: ``export_gambit`` prints 1/3 as 0.3333333333333333 and 1/6 as 0.1666666666666667, three of which sum to
#: 0.9999999999999999 and six to 1.0000000000000002. A double's rounding error is below 1e-16; 1e-12 leaves room for
#: writers that print fewer digits and stays far below any probability a game means.
SNAP_TOLERANCE = Fraction(1, 10**12)
SNAP_DENOMINATOR = 1_000_000
_LARGEST_WHOLE = int(sys.float_info.max)  # (the largest double is a whole number)
_WHOLE = re.compile(r"[+-]?[0-9]+")

# A string is read by _string_end, not by this expression: "(?:[^"\\]|\\.)*" keeps a backtracking entry per
# character (about 200 bytes each).
_TOKEN = re.compile(
    r"""(?P<space>[ \t\r\f\v,]+)
      | (?P<newline>\n)
      | (?P<quote>")
      | (?P<brace>[{}])
      | (?P<word>[^\s,{}"]+)""",
    re.VERBOSE | re.DOTALL,
)
# ASCII digits only: Python's \d and int() take any script's digits ('１２', '٣').
_NUMBER = re.compile(r"[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?)")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_STRING_STOP = re.compile(r'["\\]')


class _Token(NamedTuple):
    kind: str  # "string", "brace" or "word"
    text: str  # a string's text unescaped; a brace; a word as written
    line: int


class _Node(NamedTuple):
    kind: str  # "c", "p" or "t"
    name: str
    line: int
    infoset: tuple  # (player: 0 for chance, 1 to n; number); () at a terminal
    outcome: int
    children: list


class _Infoset(NamedTuple):
    name: str
    actions: tuple
    probabilities: tuple  # chance's; () for a player's
    line: int


class _Outcome(NamedTuple):
    name: str
    payoffs: tuple  # every player's, as Fractions (two players: player 2's is minus player 1's, checked)
    line: int


class _Refusal(Exception):
    """A problem at a line of the file (turned into a ValueError naming where)."""

    def __init__(self, line: int | None, reason: str):
        super().__init__(reason)
        self.line, self.reason = line, reason


def _string_end(text: str, opening: int, line: int) -> int:
    """Where the string whose opening quote is at ``opening`` ends (one past its closing quote), looked for no further
    than ``MAX_EFG_STRING_CHARS`` characters: a longer string is refused there, without reading it whole."""
    search = _STRING_STOP.search
    limit = min(len(text), opening + 1 + MAX_EFG_STRING_CHARS + 1)  # (room for the closing quote)
    position = opening + 1
    while True:
        stop = search(text, position, limit)
        if stop is None:
            if limit == len(text):
                raise _Refusal(line, "a string opens with a quote that is never closed")
            raise _Refusal(line, f"a quoted string is longer than {MAX_EFG_STRING_CHARS:,} characters, the most read")
        if stop.group() == '"':
            return stop.end()
        position = stop.end() + 1  # (a backslash and the character it escapes)


def _tokens(text: str) -> Iterator[_Token]:
    """The tokens of ``text``, one at a time: a file of millions of them is refused by what reads them as soon as it
    has read too many, before they fill the memory (a list of a large file's tokens takes many times its size)."""
    line, position, end = 1, 0, len(text)
    match = _TOKEN.match
    while position < end:
        found = match(text, position)
        if found is None:  # (a space other than ASCII's, such as a no-break space: no token starts with it)
            raise _Refusal(line, f"unexpected character {text[position]!r}: separate words with ASCII spaces")
        kind, value = found.lastgroup, found.group()
        if kind == "newline":
            line += 1
        elif kind == "quote":
            closing = _string_end(text, position, line)
            inner = text[position + 1 : closing - 1]
            yield _Token("string", _ESCAPE.sub(r"\1", inner) if "\\" in inner else inner, line)
            line += inner.count("\n")
            position = closing
            continue
        elif kind != "space":
            yield _Token(kind, value, line)
        position = found.end()


class _Parser:
    """The tokens of a ``.efg`` text, read front to back with one token of look-ahead, and what the reader assumed
    on the way (``notes``)."""

    def __init__(self, tokens: Iterator[_Token]):
        self._tokens = tokens
        self._next: _Token | None = next(tokens, None)
        self._last_line = 1
        self.notes: list[str] = []

    @property
    def line(self) -> int:
        return self._next.line if self._next is not None else self._last_line

    def more(self) -> bool:
        return self._next is not None

    def peek(self, kind: str, text: str | None = None) -> bool:
        token = self._next
        return token is not None and token.kind == kind and (text is None or token.text == text)

    def _advance(self) -> _Token:
        token = self._next
        self._last_line = token.line
        self._next = next(self._tokens, None)
        return token

    def take(self, kind: str, what: str) -> _Token:
        if self._next is None:
            raise _Refusal(self.line, f"the file ends where {what} should come (truncated?)")
        token = self._next
        if token.kind != kind:
            shown = token.text if len(token.text) <= 20 else token.text[:20] + "..."
            raise _Refusal(token.line, f"expected {what}, found {shown!r}")
        return self._advance()

    def optional_string(self) -> str | None:
        return self.take("string", "a string").text if self.peek("string") else None

    def number_as_written(self, what: str) -> tuple[Fraction, str]:
        """A number and its text as written (``1/3``, ``0.3333333333333333``)."""
        token = self.take("word", what)
        if len(token.text) > _MAX_NUMBER_CHARS or not _NUMBER.fullmatch(token.text):
            shown = token.text if len(token.text) <= 20 else token.text[:20] + "..."
            digits = any(c.isdigit() and not c.isascii() for c in token.text)
            also = " (numbers are written in the ASCII digits 0-9)" if digits else ""
            raise _Refusal(token.line, f"expected {what} (a number such as 2, -0.5 or 1/3), found {shown!r}{also}")
        text = token.text
        try:
            # Whole numbers and fractions of them (nearly every number a game file holds) without Fraction's
            # string parser, which takes most of the time of reading a file of a million nodes.
            if _WHOLE.fullmatch(text):
                value = Fraction(int(text))
            elif "/" in text:
                numerator, denominator = text.split("/")
                value = Fraction(int(numerator), int(denominator))
            else:
                value = Fraction(text)
        except ZeroDivisionError:
            raise _Refusal(token.line, f"{what} {text} divides by zero") from None
        if abs(value.numerator) > _LARGEST_WHOLE * value.denominator:  # (|value| > the largest double, in integers)
            raise _Refusal(token.line, f"{what} {text[:20]} is too large for a double")
        return value, text

    def number(self, what: str) -> Fraction:
        return self.number_as_written(what)[0]

    def integer(self, what: str) -> int:
        token = self._next
        plain = token is not None and token.kind == "word" and len(token.text) <= 13
        if plain and token.text.isascii() and token.text.isdigit():
            self._advance()  # (a plain whole number, as nearly every one is: no Fraction to make and compare)
            value = int(token.text)
            if value <= 10**12:
                return value
        else:
            value = self.number(what)
        if value.denominator != 1 or value < 0 or value > 10**12:
            raise _Refusal(token.line, f"{what} must be a whole number from 0; found {token.text[:20]!r}")
        return int(value)

    def brace_list(self, item, what: str, most: int | None = None, too_many: str | None = None) -> list:
        """``{ item item ... }``: the items read by ``item()``; past ``most`` items the file is refused at once (with
        ``too_many`` as the reason where given)."""
        opening = self.take("brace", f"'{{' opening {what}")
        if opening.text != "{":
            raise _Refusal(opening.line, f"expected '{{' opening {what}, found '}}'")
        items = []
        while not self.peek("brace", "}"):
            if self.peek("brace", "{"):
                raise _Refusal(self.line, f"a '{{' inside {what}")
            if most is not None and len(items) >= most:
                raise _Refusal(
                    opening.line,
                    too_many or f"{what} list more than {most:,} entries, more than rmcore builds nodes for",
                )
            items.append(item())
        self._advance()
        return items


def _header(parser: _Parser) -> tuple[str, list[str]]:
    token = parser.take("word", "the header 'EFG 2 R'")
    if token.text != "EFG":
        raise _Refusal(token.line, f"a .efg file starts with 'EFG 2 R'; found {token.text[:20]!r}")
    version = parser.take("word", "the version (2)")
    if version.text != "2":
        raise _Refusal(version.line, f"only version 2 of the .efg format is read; found {version.text[:20]!r}")
    kind = parser.take("word", "R or D after 'EFG 2'")
    if kind.text not in ("R", "D"):
        raise _Refusal(kind.line, f"expected R or D after 'EFG 2', found {kind.text[:20]!r}")
    title = parser.take("string", "the game's title in quotes").text
    most = config.MAX_TREE_PLAYERS
    readable = f"rmcore reads games of 2 to {most} players"
    players = parser.brace_list(
        lambda: parser.take("string", "a player's name in quotes").text,
        "the players",
        most=most,
        too_many=f"the file has more than {most} players; {readable}",
    )
    if len(players) < 2:
        raise _Refusal(kind.line, f"the file has {len(players)} player{'' if len(players) == 1 else 's'}; {readable}")
    parser.optional_string()  # the comment
    return title, players


def _number_words(value: Fraction) -> str:
    """A number as a message says it: exactly when short (``1/3``, ``-2``), else as the nearest double's digits (a
    fraction of a thousand digits is no sentence)."""
    exact = _fraction_text(value)
    return exact if len(exact) <= 24 else f"{float(value):.17g}"


def _payoffs_words(payoffs) -> str:
    """Payoffs as a message says them: ``1`` for two players' (player 1's), ``(1, -1/2, 0)`` for more."""
    if len(payoffs) == 2:
        return _number_words(payoffs[0])
    return "(" + ", ".join(_number_words(value) for value in payoffs) + ")"


def _outcome(parser: _Parser, outcomes: dict, used: list, players: int) -> int:
    """An outcome reference (number, optional name and payoffs), defining the outcome where payoffs are given: one
    payoff per player, summing to 0 in a two-player file."""
    line = parser.line
    number = parser.integer("an outcome number")
    name = parser.optional_string()
    if not parser.peek("brace", "{"):
        if number:
            used.append((number, line))
        return number
    payoffs = parser.brace_list(lambda: parser.number("a payoff"), "the payoffs", most=players)
    label = f'outcome {number} "{name or ""}"'
    if number == 0:
        raise _Refusal(line, "outcome 0 means no outcome; it cannot have payoffs")
    if len(payoffs) != players:
        raise _Refusal(line, f"{label} has {len(payoffs)} payoffs; the game has {players} players")
    if players == 2 and payoffs[0] + payoffs[1] != 0:
        raise _Refusal(line, f"{label} pays {_number_words(payoffs[0])} and {_number_words(payoffs[1])}: not zero-sum")
    try:  # the matrix games' limits, here where the file says it (a path's outcomes add up: the builder checks that)
        if players == 2:
            validation.payoff(payoffs[0], f"{label}'s payoff")
        else:
            for p, value in enumerate(payoffs):
                validation.payoff(value, f"{label}'s payoff to player {p + 1}")
    except ValueError as error:
        raise _Refusal(line, str(error)) from None
    payoffs = tuple(payoffs)
    known = outcomes.get(number)
    if known is not None and known.payoffs != payoffs:
        raise _Refusal(
            line,
            f"{label} pays {_payoffs_words(payoffs)} here and {_payoffs_words(known.payoffs)} at line {known.line}",
        )
    if known is None:
        outcomes[number] = _Outcome(name or "", payoffs, line)
    return number


def _exact_sum(probabilities, line: int, who: str) -> Fraction:
    """The exact sum of a chance node's probabilities, refused as soon as its denominator grows past
    ``_MAX_SUM_BITS``: a sum of fractions over unrelated denominators grows with every term, and each addition costs
    more (1,238 outcomes 1/(10^999 + j) took most of a minute; ``tests/test_efg_budget.py`` holds such a file)."""
    total = Fraction(0)
    for probability in probabilities:
        total += probability
        if total.denominator.bit_length() > _MAX_SUM_BITS:
            raise _Refusal(
                line,
                f"the probabilities of {who} have no common denominator of fewer than {_MAX_SUM_DIGITS:,} digits; "
                "write them as fractions over one denominator (1/6, 1/36, ...)",
            )
    return total


def _snapped(probabilities: list[Fraction], written: list[str]) -> list[Fraction]:
    """Each probability written as a decimal within ``SNAP_TOLERANCE`` of a fraction with a denominator of at most
    ``SNAP_DENOMINATOR`` as that fraction (0.1428571428571428 as 1/7); the others as they are."""
    snapped = []
    for value, text in zip(probabilities, written):
        near = value.limit_denominator(SNAP_DENOMINATOR)
        snapped.append(near if "/" not in text and abs(near - value) <= SNAP_TOLERANCE else value)
    return snapped


def _chance_outcomes(parser: _Parser, who: str, line: int, most: int) -> tuple[tuple, tuple]:
    """A chance node's outcomes and their probabilities, summing to exactly 1: as written, or, for decimals such as
    OpenSpiel's writer prints (``0.3333333333333333``), as the fractions they stand for (with a note)."""
    triples = parser.brace_list(
        lambda: (parser.take("string", "an outcome's name in quotes").text, *parser.number_as_written("a probability")),
        "the chance outcomes",
        most=most,
    )
    actions = tuple(a for a, _, _ in triples)
    probabilities = [p for _, p, _ in triples]
    written = [t for _, _, t in triples]
    if not actions:
        raise _Refusal(line, f"{who} has no actions")
    if any(p < 0 or p > 1 for p in probabilities):
        raise _Refusal(line, f"{who} has a probability outside 0 to 1")
    total = _exact_sum(probabilities, line, who)
    if total == 1:
        return actions, tuple(probabilities)
    snapped = _snapped(probabilities, written)
    if snapped != probabilities and _exact_sum(snapped, line, who) == 1:
        changed = [(t, q) for t, p, q in zip(written, probabilities, snapped) if p != q]
        shown = ", ".join(f"{t} as {_fraction_text(q)}" for t, q in dict(changed).items())
        parser.notes.append(
            f"line {line}: the decimals of {who} sum to {float(total):.17g}, not exactly 1; read {shown} (each within "
            f"{float(SNAP_TOLERANCE):g} of it), which sum to exactly 1"
        )
        return actions, tuple(snapped)
    exact = _fraction_text(total)
    also = f" ({exact} exactly)" if "/" in exact and len(exact) <= 24 else ""
    raise _Refusal(line, f"the probabilities of {who} sum to {float(total)!r}{also}, not exactly 1")


def _infoset(parser: _Parser, infosets: dict, key: tuple, line: int, chance: bool, most: int) -> _Infoset:
    """An information-set reference (optional name and actions), defined where first met; a list of more than
    ``most`` actions (the nodes the tree may still have) is refused as soon as it is read that far."""
    who = f"chance's information set {key[1]}" if chance else f"player {key[0]}'s information set {key[1]}"
    name = parser.optional_string()
    if parser.peek("brace", "{"):
        if chance:
            actions, probabilities = _chance_outcomes(parser, who, line, most)
        else:
            listed = parser.brace_list(lambda: parser.take("string", "an action in quotes").text, "actions", most=most)
            actions, probabilities = tuple(listed), ()
        if not actions:
            raise _Refusal(line, f"{who} has no actions")
        given = _Infoset(name if name is not None else "", actions, probabilities, line)
        known = infosets.get(key)
        if known is None:
            infosets[key] = given
            return given
        if (known.actions, known.probabilities) != (actions, probabilities):
            raise _Refusal(line, f"{who} has other actions here than at line {known.line}")
        return known
    known = infosets.get(key)
    if known is None:
        raise _Refusal(line, f"{who} is first met here without its actions")
    return known


def _parse(text: str, max_nodes: int):
    parser = _Parser(_tokens(text))
    title, names = _header(parser)
    players = len(names)
    who_moves = "a player (1 or 2)" if players == 2 else f"a player (1 to {players})"
    movers = "players 1 and 2" if players == 2 else f"players 1 to {players}"
    nodes: list[_Node] = []
    infosets: dict[tuple, _Infoset] = {}
    outcomes: dict[int, _Outcome] = {}
    used: list[tuple[int, int]] = []
    open_nodes: list[list] = []  # [node index, children still to come]
    history_chars: list[int] = []  # each node's history's length, as the builder writes it
    total_history_chars = 0
    while parser.more():
        token = parser.take("word", "a node (c, p or t)")
        line = token.line
        if token.text not in ("c", "p", "t"):
            raise _Refusal(line, f"expected a node (c, p or t), found {token.text[:20]!r}")
        if nodes and not open_nodes:
            raise _Refusal(line, "a node after the tree is complete")
        if len(nodes) >= max_nodes:
            raise _Refusal(line, f"more than {max_nodes:,} nodes, more than rmcore builds")
        name = parser.optional_string() or ""
        if token.text == "t":
            key, width = (), 0
        else:
            if token.text == "c":
                key = (0, parser.integer("a chance information set number"))
            else:
                player = parser.integer(who_moves)
                if not 1 <= player <= players:
                    raise _Refusal(line, f"player {player} moves here; the game has {movers}")
                key = (player, parser.integer("an information set number"))
            # (each action leads to a node of its own: a list longer than the node limit is refused as it is read)
            width = len(_infoset(parser, infosets, key, line, token.text == "c", max_nodes).actions)
        outcome = _outcome(parser, outcomes, used, players)
        index = len(nodes)
        nodes.append(_Node(token.text, name, line, key, outcome, []))
        chars = 0
        if open_nodes:
            parent = open_nodes[-1]
            above = nodes[parent[0]]
            move = infosets[above.infoset].actions[len(above.children)]
            chars = history_chars[parent[0]] + 1 + max(len(move), len(str(len(above.children) + 1)))
            total_history_chars += chars
            if total_history_chars > MAX_EFG_HISTORY_CHARS:
                raise _Refusal(
                    line,
                    f"the tree is too deep: its histories (the moves from the root to each node) add up to more "
                    f"than {MAX_EFG_HISTORY_CHARS:,} characters",
                )
            above.children.append(index)
            parent[1] -= 1
            if parent[1] == 0:
                open_nodes.pop()
        history_chars.append(chars)
        if width:
            open_nodes.append([index, width])
        while open_nodes and open_nodes[-1][1] == 0:  # (cannot happen: widths are at least 1)
            open_nodes.pop()
    if not nodes:
        raise _Refusal(parser.line, "the file has no nodes after its header")
    if open_nodes:
        parent = nodes[open_nodes[-1][0]]
        raise _Refusal(
            parser.line,
            f"the file ends while the node at line {parent.line} still lacks {open_nodes[-1][1]} of its children "
            "(truncated?)",
        )
    for number, line in used:
        if number not in outcomes:
            raise _Refusal(line, f"unknown outcome {number}: it is never given payoffs")
    return title, players, nodes, infosets, outcomes, parser.notes


def _infoset_names(infosets: dict) -> dict[tuple, str]:
    """Each player's information set's name: its Gambit name when given and unique, else ``"P1:3"``."""
    players = [key for key in infosets if key[0]]
    count: dict[str, int] = {}
    for key in players:
        count[infosets[key].name] = count.get(infosets[key].name, 0) + 1
    generated = {key: f"P{key[0]}:{key[1]}" for key in players}
    taken = set(generated[key] for key in players if not infosets[key].name or count[infosets[key].name] > 1)
    names = {}
    for key in players:
        name = infosets[key].name
        names[key] = name if name and count[name] == 1 and name not in taken else generated[key]
    return names


def _source_text(source) -> tuple[str, str]:
    """``(the text, how errors name it)`` from a path, the text itself or its bytes."""
    if isinstance(source, (bytes, bytearray)):
        where = "the .efg data"
        if len(source) > 4 * MAX_EFG_CHARS:
            raise ValueError(f"{where} is longer than {MAX_EFG_CHARS:,} characters, the most that is read")
        try:
            text = bytes(source).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"{where} is binary or not UTF-8 text, not a .efg file") from None
    elif isinstance(source, str) and source.lstrip().startswith("EFG"):
        text, where = source, "the .efg text"
    elif isinstance(source, (str, os.PathLike)):
        where = f".efg file {os.fspath(source)!r}"
        text = read_text(source, MAX_EFG_CHARS, ".efg file")
    else:
        raise ValueError(f"read_efg takes a path, the text of a .efg file or its bytes; got {type(source).__name__}")
    if len(text) > MAX_EFG_CHARS:
        raise ValueError(f"{where} is longer than {MAX_EFG_CHARS:,} characters, the most that is read")
    if "\x00" in text:
        raise ValueError(f"{where} is binary (it holds NUL bytes), not a .efg text")
    return text, where


def read_efg(source, *, max_nodes: int = MAX_TREE_NODES, notes: list[str] | None = None) -> TreeGame:
    """The game of a Gambit ``.efg`` file (version 2), as a :class:`~rmcore.TreeGame`: two players and zero-sum, or 3
    to ``config.MAX_TREE_PLAYERS`` players and any payoffs.

    Parameters
    ----------
    source
        A path (``str`` or path-like) of a file, the text itself (starting with ``EFG``), or its bytes (UTF-8).
    max_nodes
        Refuse a file with more nodes than this (a list of actions or chance outcomes longer than this is refused as
        soon as it is read that far).
    notes
        A list to which the reader appends what it assumed, one sentence each: chance probabilities written as
        decimals that do not sum to exactly 1 (as OpenSpiel's ``export_gambit`` writes thirds, sixths and sevenths)
        are read as the fractions with denominators up to ``SNAP_DENOMINATOR`` within ``SNAP_TOLERANCE`` of them,
        when those sum to exactly 1.

    Returns
    -------
    TreeGame
        As many players as the header names (``game.players``). Its information sets are ordered by player, then by
        their number in the file; each is named by its name in the file when that is given and unique, else
        ``"P1:3"`` (player 1's information set 3). A terminal's payoffs are the sums of the outcomes on its path,
        exactly, each rounded to a float once. Actions are named
        as in the file (``"1"``, ``"2"``, ... where the names are empty); ``node_labels`` hold the node names (or,
        for a node without one, its history of action names). ``deal_paths`` hold the chance steps above every
        decision, so that :func:`write_efg` writes them back as they were.

    Raises
    ------
    ValueError
        Naming the line and the reason: a malformed or truncated file, binary data, a file longer than
        ``MAX_EFG_CHARS``, fewer than two players or more than ``config.MAX_TREE_PLAYERS``, an outcome with other
        than one payoff per player, one of a two-player file that is not zero-sum, an outcome never defined, a payoff
        outside ``config.MAX_PAYOFF`` or below ``config.MIN_PAYOFF`` in size, chance probabilities that do not sum to
        exactly 1 (the sum is said as a number) or whose exact sum needs a denominator of more than 2,000 digits,
        outcomes whose sum on a path needs one of more than 2,000 digits, a quoted string longer than
        ``MAX_EFG_STRING_CHARS``, a number in other digits than ASCII's, an information set whose actions change,
        imperfect recall, more than ``max_nodes`` nodes, a policy of more than ``MAX_POLICY_CELLS`` cells
        (``rmcore.trees.builder``). Also when ``max_nodes`` is not a whole number of at least 1, or ``notes`` not a
        list or None.
    """
    max_nodes = validation.whole_number(max_nodes, "max_nodes", 1)
    if notes is not None and not isinstance(notes, list):
        raise ValueError(f"notes must be a list (to which the reader appends) or None; got {type(notes).__name__}")
    text, where = _source_text(source)
    try:
        title, players, nodes, infosets, outcomes, assumed = _parse(text, max_nodes)
    except _Refusal as refusal:
        raise ValueError(f"{where}, line {refusal.line}: {refusal.reason}") from None
    if notes is not None:
        notes.extend(assumed)
    names = _infoset_names(infosets)
    number_of = {name: key[1] for key, name in names.items()}
    last_seen = [0]  # the node the builder expanded last: the one a refusal of the builder is about

    def actions_of(infoset: _Infoset) -> tuple[str, ...]:
        return tuple(action or str(k + 1) for k, action in enumerate(infoset.actions))

    def expand(state):
        index, above = state  # (above: the sum of the outcomes so far, player 1's alone in a two-player file)
        node = nodes[index]
        last_seen[0] = index
        payoff = above
        if node.outcome:  # (without one, the sum is the parent's, checked there)
            paid = outcomes[node.outcome].payoffs
            payoff = above + paid[0] if players == 2 else tuple(a + b for a, b in zip(above, paid))
            sums = (payoff,) if players == 2 else payoff
            if max(x.denominator.bit_length() for x in sums) > _MAX_SUM_BITS:  # (each further sum would cost more)
                raise _Refusal(
                    node.line,
                    f"the payoffs of the outcomes on the path to this node add up to a fraction whose denominator has "
                    f"more than {_MAX_SUM_DIGITS:,} digits; write the payoffs over one denominator (1/6, 5/6, ...)",
                )
        if node.kind == "t":
            return Terminal(float(payoff) if players == 2 else tuple(float(x) for x in payoff))
        infoset = infosets[node.infoset]
        following = [(child, payoff) for child in node.children]
        if node.kind == "c":
            return Chance(actions_of(infoset), infoset.probabilities, following)
        return Decision(node.infoset[0], names[node.infoset], actions_of(infoset), following)

    try:
        game = build_tree_game(
            title or "Gambit game",
            (0, Fraction(0) if players == 2 else (Fraction(0),) * players),
            expand,
            infoset_order=number_of.__getitem__,
            rules=None,
            max_nodes=max_nodes,
            label=lambda state, history: nodes[state[0]].name or " ".join(history),  # the node's name, else its history
            players=players,
        )
    except _Refusal as refusal:
        raise ValueError(f"{where}, line {refusal.line}: {refusal.reason}") from None
    except (ValueError, OverflowError) as error:
        if last_seen[0] == len(nodes) - 1:  # the walk was over: a refusal of the whole game
            raise ValueError(f"{where}: {error}") from None
        raise ValueError(f"{where}, line {nodes[last_seen[0]].line}: {error}") from None
    return game


def _quoted(text) -> str:
    body = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")
    return f'"{body}"'


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _decimal_text(value: float) -> str:
    """``value`` as an exact decimal without an exponent, short as the shortest repr: read back, the same bits."""
    text = np.format_float_positional(value, unique=True, trim="-")
    return "0" if text in ("-0", "0") else text


def _simplest_fraction(value: float) -> Fraction:
    """The fraction with the smallest denominator tried whose float is ``value`` (1/3 for 0.333...)."""
    exact = Fraction(value)
    for bits in (8, 16, 24, 32, 40, 48):
        candidate = exact.limit_denominator(1 << bits)
        if float(candidate) == value:
            return candidate
    return exact


def _probabilities(values, where: str, notes: list[str]) -> list[Fraction]:
    """Exact fractions summing to exactly 1, each read back as the float given (where at all possible).

    The simplest fractions first (1/3 for 0.333...); if those do not sum to 1 (a deal's probability such as
    (1/11)(1/10) as floats is not 1/110), the floats' exact values, each moved by less than half the gap to the
    next float (so that it still reads back as the same float) until they sum to 1. Only where that room is not
    enough is the largest changed further, with a note for the file's comment.
    """
    floats = [float(v) for v in values]
    simple = [_simplest_fraction(x) for x in floats]
    if sum(simple) == 1:
        return simple
    fractions = [Fraction(x) for x in floats]
    missing = 1 - sum(fractions)
    for k, x in enumerate(floats):
        if missing == 0:
            break
        neighbour = math.nextafter(x, math.inf if missing > 0 else 0.0)
        room = abs(Fraction(neighbour) - fractions[k]) * Fraction((1 << 20) - 1, 1 << 21)  # just under half the gap
        step = min(abs(missing), room) * (1 if missing > 0 else -1)
        fractions[k] += step
        missing -= step
    if missing != 0:
        largest = max(range(len(fractions)), key=fractions.__getitem__)
        fractions[largest] += missing
        notes.append(
            f"the chance probabilities at {where} summed to {sum(floats)!r}; the largest was changed to "
            f"{float(fractions[largest])!r} to make them sum to exactly 1"
        )
    return fractions


def _label_text(label) -> str:
    if isinstance(label, tuple):
        return " ".join(str(part) for part in label if str(part))
    return str(label)


def _outcome_name(game: TreeGame, parent_label: str, child: int) -> str:
    """What a chance node's outcome is called: the child's label past its parent's (the labels are histories)."""
    text = _label_text(game.node_labels[child]) if child < len(game.node_labels) else ""
    return text[len(parent_label) :].strip() if parent_label and text.startswith(parent_label) else ""


class _DealTrie:
    """The deals' chance steps as a tree: each node's children by outcome, in the order first met."""

    def __init__(self):
        self.children: dict[str, tuple[Fraction, _DealTrie]] = {}
        self.deal: int | None = None


def _deal_trie(game: TreeGame) -> _DealTrie | None:
    """``game.deal_paths`` as nested chance nodes, or None where they cannot be written so: missing, not matching
    ``deal_probability`` to the last bit, not summing to 1 at a node, or not in the order the tree lists its deals."""
    paths, probabilities = game.deal_paths, game.tree.deal_probability
    if not isinstance(paths, tuple) or len(paths) != probabilities.shape[0] or not paths:
        return None
    root = _DealTrie()
    for d, path in enumerate(paths):
        if not isinstance(path, tuple) or (not path and len(paths) > 1):
            return None
        product, node, diverged = 1.0, root, False
        for step in path:
            if not (isinstance(step, tuple) and len(step) == 2 and isinstance(step[1], Fraction)):
                return None
            outcome, probability = str(step[0]), step[1]
            product *= float(probability)
            if node.deal is not None:
                return None
            known = node.children.get(outcome)
            if known is None:
                diverged = True
                known = node.children[outcome] = (probability, _DealTrie())
            elif diverged or outcome != next(reversed(node.children)) or known[0] != probability:
                return None  # the deals of one branch are not listed together, or a step's probability changes
            node = known[1]
        if node.deal is not None or node.children or product != probabilities[d]:
            return None
        node.deal = d
    pending = [root]
    while pending:
        node = pending.pop()
        if node.children:
            if sum(p for p, _ in node.children.values()) != 1:
                return None
            pending.extend(child for _, child in node.children.values())
    return root


def writes_efg(game: TreeGame) -> bool:
    """Whether :func:`write_efg` writes ``game``: any game tree but a two-player general-sum one (a two-player file
    is read as zero-sum, its tree holding player 1's payoffs alone)."""
    return game.players > 2 or game.is_zero_sum


def write_efg(game: TreeGame) -> str:
    """``game`` as the text of a Gambit ``.efg`` file (version 2), which :func:`read_efg` reads back exactly.

    Chance probabilities are written as exact fractions (``1/3``), since Gambit needs each chance node's to sum to
    exactly 1; each fraction is the simplest whose float is the game's probability. The deals are written from
    ``game.deal_paths`` as nested chance nodes (Kuhn poker: the first card 1/3, then the second 1/2), so that the
    game read back multiplies the same floats in the same order; a game without them gets one chance node at the
    root listing its deals. Payoffs are written as exact decimals, one outcome per terminal node. Information sets
    are numbered per player in the game's row order and keep their names and action names; the nodes are named by
    ``game.node_labels``. Where a chance node's fractions had to be adjusted to sum to exactly 1, the header's
    comment says so. The header names one player per row of ``game.tree.payoffs`` (``"Player 1"`` to ``"Player
    n"``); a terminal lists every player's payoff (two players: player 1's and its negative).

    Raises
    ------
    ValueError
        If ``game`` is not a valid :class:`~rmcore.TreeGame`, or is a two-player game that is not zero-sum (the files
        rmcore reads are zero-sum for two players: :func:`writes_efg`).
    """
    check_tree_game(game)
    if not writes_efg(game):
        raise ValueError(
            f"rmcore writes the .efg files it reads: two-player zero-sum games and games of more players; {game.name} "
            "has 2 players and is general-sum"
        )
    tree, players = game.tree, game.players
    notes: list[str] = []
    lines: list[str] = []
    number = np.zeros(len(game.infosets), dtype=np.int64)  # each information set's number among its player's
    counts = [0] * players
    for row, owner in enumerate(tree.infoset_player.tolist()):
        counts[owner] += 1
        number[row] = counts[owner]
    chance_sets = [0]
    outcome_count = [0]

    def chance_line(name: str, set_name: str, outcomes, fractions) -> str:
        chance_sets[0] += 1
        listed = " ".join(f"{_quoted(o)} {_fraction_text(p)}" for o, p in zip(outcomes, fractions))
        return f"c {_quoted(name)} {chance_sets[0]} {_quoted(set_name)} {{ {listed} }} 0"

    def write_deal(d: int) -> None:
        stack = [int(tree.deal_root[d])]
        while stack:
            k = stack.pop()
            label = _label_text(game.node_labels[k]) if k < len(game.node_labels) else ""
            actor = int(tree.player[k])
            if actor == -1:
                outcome_count[0] += 1
                if players == 2:
                    u = float(tree.payoff[k])
                    paid = f"{_decimal_text(u)}, {_decimal_text(-u)}"
                else:
                    paid = ", ".join(_decimal_text(float(u)) for u in tree.payoffs[:, k])
                lines.append(f"t {_quoted(label)} {outcome_count[0]} {_quoted('')} {{ {paid} }}")
                continue
            if actor == CHANCE_NODE:
                kids = children_of(tree, k).tolist()
                names = [_outcome_name(game, label, child) or str(o + 1) for o, child in enumerate(kids)]
                probabilities = chance_of(tree, k)
                lines.append(chance_line(label, "", names, _probabilities(probabilities, f"node {label!r}", notes)))
            else:
                row = int(tree.infoset[k])
                actions = " ".join(_quoted(a) for a in game.actions[row])
                lines.append(
                    f"p {_quoted(label)} {actor + 1} {number[row]} {_quoted(game.infosets[row])} {{ {actions} }} 0"
                )
                kids = children_of(tree, k).tolist()
            stack.extend(reversed(kids))

    trie = _deal_trie(game)
    deals = tree.deal_root.shape[0]
    if trie is not None:
        pending: list[tuple[_DealTrie, tuple[str, ...]]] = [(trie, ())]
        while pending:
            node, path = pending.pop()
            if node.deal is not None:
                write_deal(node.deal)
                continue
            outcomes = list(node.children)
            lines.append(chance_line(" ".join(path), "deal", outcomes, [node.children[o][0] for o in outcomes]))
            pending.extend((node.children[o][1], path + (o,)) for o in reversed(outcomes))
    elif deals == 1 and float(tree.deal_probability[0]) == 1.0:
        write_deal(0)
    else:
        fractions = _probabilities(tree.deal_probability, "the root (the deals)", notes)
        lines.append(chance_line("", "deal", [f"deal {d + 1}" for d in range(deals)], fractions))
        for d in range(deals):
            write_deal(d)
    comment = "written by rmcore" + "".join(f"; {note}" for note in notes)
    player_names = " ".join(f'"Player {p + 1}"' for p in range(players))
    header = f"EFG 2 R {_quoted(game.name)} {{ {player_names} }}\n{_quoted(comment)}\n"
    return header + "\n" + "\n".join(lines) + "\n"
