"""Gambit's strategic-form files (``.nfg``) of any number of players: read one into a :class:`~rmcore.MatrixGame` (two
players) or a :class:`~rmcore.NormalFormGame` (three or more), write one out.

A ``.nfg`` file starts with a header, ``NFG 1 R "title" { "Player 1" "Player 2" }``, then each player's strategies,
either as counts (``{ 2 3 }``) or as lists of names (``{ { "U" "D" } { "L" "C" "R" } }``), then an optional comment
in quotes. What follows comes in one of two versions:

* the payoff version: one payoff per player for every strategy profile;
* the outcome version: a list of outcomes, ``{ { "name" 1, -1 } ... }``, then one outcome number per profile
  (numbered from 1; 0 is the null outcome, worth 0 to everybody).

Profiles come with **player 1's strategy changing fastest**, then player 2's, and so on: in a 2x3 game the order is
(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3). Numbers may be integers, decimals (``-1.5e2``) or fractions
(``1/3``); commas between them are allowed. The specification is Gambit's documentation, "Game representation formats".

>>> game = read_nfg('''NFG 1 R "Prisoner's dilemma" { "Player 1" "Player 2" }
... { { "Cooperate" "Defect" } { "Cooperate" "Defect" } }
... -1 -1   0 -3   -3 0   -2 -2''')
>>> game
<MatrixGame "Prisoner's dilemma" 2x2 general-sum>
>>> game.row_payoffs.tolist()
[[-1.0, -3.0], [0.0, -2.0]]
>>> print(write_nfg(read_nfg('NFG 1 R "Matching pennies" { "1" "2" } { 2 2 } 1 -1 -1 1 -1 1 1 -1')))
NFG 1 R "Matching pennies" { "1" "2" }
{ { "R1" "R2" }
  { "C1" "C2" } }
<BLANKLINE>
1 -1
-1 1
-1 1
1 -1
<BLANKLINE>
"""

from __future__ import annotations

import math
import os
import re
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .. import config
from ..inputs import read_text
from ..matrix.games import MatrixGame, NormalFormGame, _as_labels

__all__ = ["read_nfg", "write_nfg"]

#: Longest number read, in characters: a double's 17 significant digits, its exponent and a sign fit many times over,
#: and a longer fraction would only make ``Fraction`` work on huge integers.
MAX_NUMBER_CHARS = 100

#: A str is a path unless it looks like the file's text: starting with ``NFG`` (after white space), blank, or holding
#: a line break or a NUL, which no path has.
_LOOKS_LIKE_TEXT = re.compile(r"\s*(NFG(\s|$)|$)|.*[\n\r\x00]", re.DOTALL)

# One token after optional white space. A number must end where a token may end: "12abc" is one malformed word, not the
# number 12 and a word. A quoted text is found by _Reader._string from its opening quote: an expression
# "(?:[^"\\]|\\.)*" keeps a backtracking entry per character (memory a hundred times the text's size). Gambit takes
# ``\"`` in a string for a quote; every other backslash stays as it is.
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<brace>[{}])
      | (?P<comma>,)
      | (?P<quote>")
      | (?P<number>[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))(?=[\s{},"]|\Z)
      | (?P<word>[^\s{}",]+)
      | (?P<end>\Z)
    )""",
    re.VERBOSE | re.DOTALL,
)
_ESCAPE = re.compile(r'\\(["\\])')
_STRING_STOP = re.compile(r'["\\]')
_INTEGER = re.compile(r"\+?[0-9]+")  # (ASCII digits only, as in numbers: \d and int() take '１２')


class _Token(NamedTuple):
    kind: str  # "{", "}", ",", "string", "number", "word" or "end"
    text: str  # a string's text with its escapes resolved
    position: int  # where it starts in the file's text


def _where(text: str, position: int) -> str:
    """``line L, column C`` of a position in ``text``, both counted from 1."""
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return f"line {line}, column {column}"


def _describe(token: _Token) -> str:
    """A token as an error message names it."""
    if token.kind == "end":
        return "the end of the file"
    if token.kind == "string":
        shown = token.text if len(token.text) <= 30 else token.text[:29] + "…"
        return f"the text {shown!r}"
    if token.kind in ("number", "word"):
        shown = token.text if len(token.text) <= 30 else token.text[:29] + "…"
        digits = token.kind == "word" and any(c.isdigit() and not c.isascii() for c in token.text)
        also = " (numbers are written in the ASCII digits 0-9)" if digits else ""
        return f"{'the number' if token.kind == 'number' else 'the word'} {shown!r}{also}"
    return repr(token.kind)


class _Reader:
    """Tokens one at a time, so that a large file never becomes a large list of tokens."""

    def __init__(self, text: str):
        self.text = text
        self.next_position = 0
        self.token = self._scan()

    def _scan(self) -> _Token:
        match = _TOKEN.match(self.text, self.next_position)  # every text matches one of the alternatives
        kind = match.lastgroup
        self.next_position = match.end()
        if kind == "quote":
            return self._string(match.start(kind))
        if kind == "brace":
            return _Token(match.group(kind), match.group(kind), match.start(kind))
        if kind == "comma":
            return _Token(",", ",", match.start(kind))
        return _Token(kind, match.group(kind), match.start(kind))

    def _string(self, opening: int) -> _Token:
        """The quoted text whose opening quote is at ``opening``, found by its closing quote (a backslash takes the
        character after it along)."""
        position = opening + 1
        while True:
            stop = _STRING_STOP.search(self.text, position)
            if stop is None:
                raise self.error("a quoted text is not closed: the file ends before its closing quote", opening)
            if stop.group() == '"':
                self.next_position = stop.end()
                return _Token("string", _ESCAPE.sub(r"\1", self.text[opening + 1 : stop.start()]), opening)
            position = stop.end() + 1

    def advance(self) -> _Token:
        """The current token, moving on to the next."""
        current = self.token
        self.token = self._scan()
        return current

    def error(self, message: str, position: int | None = None) -> ValueError:
        return ValueError(f"{_where(self.text, self.token.position if position is None else position)}: {message}")

    def expect(self, kind: str, what: str) -> _Token:
        if self.token.kind != kind:
            raise self.error(f"expected {what}, found {_describe(self.token)}")
        return self.advance()

    def skip_commas(self) -> None:
        while self.token.kind == ",":
            self.advance()

    def number(self, what: str) -> float:
        """The current token as a double (exactly rounded, fractions included), moving on."""
        token = self.token
        if token.kind == "word" and (token.text[0].isdigit() or token.text[0] in "+-."):
            digits = any(c.isdigit() and not c.isascii() for c in token.text)
            also = " in the ASCII digits 0-9" if digits else ""
            raise self.error(f"{token.text[:30]!r} is not a number (write 3, -1.5, 2.5e-3 or 1/3{also})")
        if token.kind != "number":
            raise self.error(f"expected {what}, found {_describe(token)}")
        if len(token.text) > MAX_NUMBER_CHARS:
            raise self.error(f"a number of {len(token.text):,} characters; at most {MAX_NUMBER_CHARS} are read")
        try:
            value = float(Fraction(token.text)) if "/" in token.text else float(token.text)
        except ZeroDivisionError:
            raise self.error(f"the fraction {token.text} divides by zero") from None
        except OverflowError:
            value = math.inf
        if not math.isfinite(value):
            raise self.error(f"the number {token.text[:30]} is too large for a double")
        self.advance()
        return value


class _Header(NamedTuple):
    title: str
    comment: str
    actions: tuple[tuple[str, ...] | None, ...]  # each player's; None when the file gives counts only
    shape: tuple[int, ...]
    players: tuple[str, ...] = ("Player 1", "Player 2")

    @property
    def profiles(self) -> int:
        return math.prod(self.shape)

    def size(self) -> str:
        """``2x3`` or ``2x2x2``."""
        return "x".join(map(str, self.shape))


def _strategy_count(reader: _Reader, player: int) -> int:
    token = reader.token
    if token.kind != "number" or not _INTEGER.fullmatch(token.text):
        raise reader.error(
            f"expected player {player}'s number of strategies (a whole number), found {_describe(token)}"
        )
    count = int(token.text) if len(token.text) <= 12 else config.MAX_ACTIONS + 1
    _check_count(reader, player, count)
    reader.advance()
    return count


def _check_count(reader: _Reader, player: int, count: int) -> None:
    if count < 1:
        raise reader.error(f"player {player} has no strategies; each player needs at least one")
    if count > config.MAX_ACTIONS:
        raise reader.error(
            f"player {player} has {count:,} strategies; at most {config.MAX_ACTIONS:,} per player are supported"
        )


def _strategy_names(reader: _Reader, player: int) -> tuple[str, ...]:
    reader.expect("{", f"'{{' opening player {player}'s strategy names")
    names = []
    while reader.token.kind == "string":
        names.append(reader.advance().text)
        if len(names) > config.MAX_ACTIONS:
            _check_count(reader, player, len(names))
    if reader.token.kind != "}":
        raise reader.error(
            f"expected a strategy name in quotes or '}}' for player {player}, found {_describe(reader.token)}"
        )
    _check_count(reader, player, len(names))
    reader.advance()
    return tuple(names)


def _action_names(names, count: int, prefix: str, who: str) -> tuple[str, ...] | None:
    """The file's strategy names as the game takes them: Gambit allows an empty name, which gets its default."""
    if names is None:
        return None
    return _as_labels([name or f"{prefix}{k + 1}" for k, name in enumerate(names)], count, prefix, who)


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _header(reader: _Reader, players_wanted: int | None) -> _Header:
    first = reader.token
    if first.kind == "end":
        raise reader.error("the file is empty; a Gambit .nfg file starts with 'NFG 1 R'")
    if first.kind != "word" or first.text != "NFG":
        raise reader.error(f"not a Gambit .nfg file: it starts with {_describe(first)} where 'NFG' should be")
    reader.advance()
    version = reader.token
    if version.kind != "number":
        raise reader.error(f"expected the format's version, 1, after 'NFG', found {_describe(version)}")
    if version.text != "1":
        raise reader.error(f"this is NFG version {version.text[:30]}; only version 1 is read")
    reader.advance()
    kind = reader.token
    if kind.kind != "word" or kind.text not in ("R", "D"):
        raise reader.error(f"expected R or D (how numbers are written) after 'NFG 1', found {_describe(kind)}")
    reader.advance()
    title = reader.expect("string", "the game's title in quotes").text
    players_start = reader.expect("{", "'{' opening the list of players").position
    players = 0
    player_names: list[str] = []
    while reader.token.kind == "string":
        player_names.append(reader.token.text)
        reader.advance()
        players += 1
        if players > config.MAX_PLAYERS:
            raise reader.error(f"the file has more than {config.MAX_PLAYERS} players; at most that many are read")
    reader.expect("}", "a player's name in quotes or '}' closing the list of players")
    plural = "" if players == 1 else "s"
    if players_wanted is not None and players != players_wanted:
        raise reader.error(
            f"a {_NUMBER_WORDS.get(players_wanted, players_wanted)}-player game was asked for (players="
            f"{players_wanted}); this file has {players} player{plural}",
            players_start,
        )
    if players < 2:
        raise reader.error(f"a game has at least two players; this file has {players} player{plural}", players_start)
    strategies_start = reader.expect("{", "'{' opening the players' strategies").position
    if reader.token.kind == "{":
        named = tuple(_strategy_names(reader, p + 1) for p in range(players))
        shape = tuple(map(len, named))
    else:
        named = (None,) * players
        shape = tuple(_strategy_count(reader, p + 1) for p in range(players))
    reader.expect("}", f"'}}' closing the strategies of the {players} players")
    if players > 2 and math.prod(shape) > config.MAX_PROFILES:
        raise reader.error(
            f"the game has {math.prod(shape):,} strategy profiles; at most {config.MAX_PROFILES:,} are read",
            strategies_start,
        )
    try:
        if players == 2:
            actions = (_action_names(named[0], shape[0], "R", "row"), _action_names(named[1], shape[1], "C", "column"))
        else:
            actions = tuple(
                _action_names(names, n, "", f"player {p + 1}'s") for p, (names, n) in enumerate(zip(named, shape))
            )
    except ValueError as error:
        become = "player 1's and 2's strategies become the row and column actions: " if players == 2 else ""
        raise reader.error(f"{become}{error}", strategies_start) from None
    comment = reader.advance().text if reader.token.kind == "string" else ""
    names = tuple(_one_line(name, config.MAX_LABEL_CHARS) or f"Player {k + 1}" for k, name in enumerate(player_names))
    return _Header(title, comment, actions, shape, names)


def _payoff_body(reader: _Reader, header: _Header) -> np.ndarray:
    """Payoffs by profile in file order (player 1's strategy changing fastest), one row of n payoffs per profile."""
    n = len(header.shape)
    needed = n * header.profiles
    values: list[float] = []
    given, first_extra = 0, None
    while reader.token.kind != "end":
        if given == needed:
            first_extra = reader.token.position
        value = reader.number("a payoff number")
        if given < needed:
            values.append(value)
        given += 1
        reader.skip_commas()
    if given != needed:  # too many: named where the first one too many stands; too few: where the file ends
        raise reader.error(
            f"the file gives {given:,} payoff number{'' if given == 1 else 's'}; a {header.size()} game with "
            f"{n} players needs {needed:,} ({_NUMBER_WORDS.get(n, n)} for each of the {header.profiles:,} strategy "
            "profiles)",
            first_extra,
        )
    return np.array(values, dtype=np.float64).reshape(header.profiles, n)


def _outcome_body(reader: _Reader, header: _Header) -> np.ndarray:
    """The outcome list, then one outcome number per profile, as payoffs shaped like ``_payoff_body``'s."""
    n = len(header.shape)
    reader.expect("{", "'{' opening the list of outcomes")
    outcomes = [(0.0,) * n]  # outcome 0, the null outcome
    while reader.token.kind == "{":
        start = reader.advance().position
        number = len(outcomes)
        reader.expect("string", f"outcome {number}'s name in quotes")
        payoffs = []
        while reader.token.kind not in ("}", "end"):
            if len(payoffs) == n:
                raise reader.error(
                    f"outcome {number} has more than {n} payoffs; it needs one for each of the {n} players"
                )
            payoffs.append(reader.number(f"a payoff of outcome {number}"))
            reader.skip_commas()
        if len(payoffs) != n:
            raise reader.error(
                f"outcome {number} has {len(payoffs)} payoff{'' if len(payoffs) == 1 else 's'}; it needs one for each "
                f"of the {n} players",
                start,
            )
        reader.expect("}", f"'}}' closing outcome {number}")
        outcomes.append(tuple(payoffs))
    reader.expect("}", "'{' opening an outcome or '}' closing the list of outcomes")
    needed = header.profiles
    chosen: list[int] = []
    given, first_extra = 0, None
    while reader.token.kind != "end":
        token = reader.token
        if given == needed:
            first_extra = token.position
        if token.kind != "number" or not _INTEGER.fullmatch(token.text):
            raise reader.error(f"expected an outcome number (a whole number), found {_describe(token)}")
        index = int(token.text) if len(token.text) <= 12 else len(outcomes)
        if index >= len(outcomes):
            raise reader.error(
                f"outcome {token.text[:30]} is out of range: the file defines {len(outcomes) - 1} outcome"
                f"{'' if len(outcomes) == 2 else 's'} (numbered from 1; 0 is the null outcome)"
            )
        if given < needed:
            chosen.append(index)
        given += 1
        reader.advance()
        reader.skip_commas()
    if given != needed:
        raise reader.error(
            f"the file gives {given:,} outcome number{'' if given == 1 else 's'}; a {header.size()} game needs "
            f"{needed:,} (one for each strategy profile)",
            first_extra,
        )
    table = np.array(outcomes, dtype=np.float64)
    return table[np.array(chosen, dtype=np.intp)]


def _one_line(text: str, limit: int) -> str:
    """``text`` with its white space collapsed, shortened to ``limit`` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _parse(text: str, players: int | None) -> NormalFormGame:
    if (nul := text.find("\x00")) >= 0:
        raise ValueError(f"{_where(text, nul)}: the file holds binary data (a NUL character), not text")
    if len(text) > config.MAX_NFG_CHARS:
        raise ValueError(f"the file is {len(text):,} characters long; at most {config.MAX_NFG_CHARS:,} are read")
    reader = _Reader(text)
    header = _header(reader, players)
    body = reader.token
    if body.kind == "{":
        payoffs = _outcome_body(reader, header)
    elif body.kind == "number":
        payoffs = _payoff_body(reader, header)
    elif body.kind == "end":
        raise reader.error("the file ends after its header, before the payoffs (is it cut short?)")
    else:
        reader.number("the payoffs or '{' opening a list of outcomes")  # a malformed number is named as one
        raise AssertionError("unreachable: reader.number raises for every token but a number")
    # A row per profile, player 1's strategy changing fastest: each column read in Fortran order is a player's array.
    arrays = [payoffs[:, p].reshape(header.shape, order="F") for p in range(len(header.shape))]
    whole_title = " ".join(header.title.split())
    title = _one_line(whole_title, config.MAX_LABEL_CHARS)
    description = header.comment
    if title != whole_title:  # a shortened title is kept whole where there is room for it
        description = f"{whole_title}. {description}" if description.strip() else whole_title
    description = _one_line(description, config.MAX_DESCRIPTION_CHARS)
    try:
        if len(arrays) > 2:
            return NormalFormGame(arrays, header.actions, title, description=description, players=header.players)
        return MatrixGame(
            arrays[0],
            arrays[1],  # MatrixGame calls it zero-sum when it is exactly -row; as given, a 0 against a 0 keeps its sign
            header.actions[0],
            header.actions[1],
            name=title,
            description=description,
            players=header.players,
        )
    except ValueError as error:
        raise ValueError(f"{_where(text, body.position)}: the payoffs are refused: {error}") from None


def read_nfg(path_or_text, *, players: int | None = None) -> NormalFormGame:
    """A game of any number of players from a Gambit ``.nfg`` file, in either its payoff or its outcome version.

    A file of two players becomes a :class:`~rmcore.MatrixGame`: player 1 is the row player and player 2 the column
    player, and the file's strategy names become the action names (numbered ``R1, R2, ...`` and ``C1, C2, ...`` when
    the file gives counts, or an empty name). A file of three or more becomes a :class:`~rmcore.NormalFormGame`, whose
    actions are numbered ``1, 2, ...`` where the file names none. The file's title becomes the game's name (shortened
    to ``config.MAX_LABEL_CHARS`` characters) and its comment the description. A two-player game is zero-sum when
    player 2's payoff is exactly minus player 1's in every profile.

    Parameters
    ----------
    path_or_text : str, os.PathLike or bytes
        A path of a file; or the file's text itself (a str starting with ``NFG``, or holding a line break); or its
        bytes (UTF-8). Files, texts and bytes alike are read up to ``config.MAX_NFG_CHARS`` characters.
    players : int, optional
        The number of players wanted (keyword only): ``players=2`` refuses a file of any other count with a sentence,
        for a caller that runs two-player games alone. ``None`` (the default) reads any number from 2 to
        ``config.MAX_PLAYERS``, as the matrix page, the command line and the sweeps do.

    Returns
    -------
    MatrixGame or NormalFormGame

    Raises
    ------
    ValueError
        Naming the line and column and the reason: not an ``.nfg`` header, a version other than 1, fewer than two
        players (or other than ``players``), more than ``config.MAX_PLAYERS``, a strategy count out of range (at most
        ``config.MAX_ACTIONS``; at most ``config.MAX_PROFILES`` profiles for three or more players), a malformed
        number, a text not closed, the wrong number of payoffs, an outcome number out of range, binary data or a file
        too large.

    Examples
    --------
    An asymmetric 2x3 game in the outcome version; outcome 0 is the null outcome:

    >>> game = read_nfg('''NFG 1 R "" { "Player 1" "Player 2" } { { "U" "D" } { "L" "C" "R" } }
    ... { { "a" 1, 2 } { "b" 3, 4 } }
    ... 1 2 0 1 2 0''')
    >>> game.row_payoffs.tolist(), game.col_payoffs.tolist()
    ([[1.0, 0.0, 3.0], [3.0, 1.0, 0.0]], [[2.0, 0.0, 4.0], [4.0, 2.0, 0.0]])
    >>> read_nfg('NFG 1 R "three" { "A" "B" "C" } { 2 1 1 } 1 2 3 4 5 6').payoffs[2].tolist()
    [[[3.0]], [[6.0]]]
    >>> read_nfg('NFG 1 R "three" { "A" "B" "C" } { 1 1 1 } 1 2 3', players=2)
    Traceback (most recent call last):
    ...
    ValueError: line 1, column 17: a two-player game was asked for (players=2); this file has 3 players
    """
    if players is not None and (isinstance(players, bool) or players not in range(2, config.MAX_PLAYERS + 1)):
        raise ValueError(f"players must be None or a whole number from 2 to {config.MAX_PLAYERS}, got {players!r}")
    if isinstance(path_or_text, (bytes, bytearray, memoryview)):
        data = bytes(path_or_text)
        if len(data) > 4 * config.MAX_NFG_CHARS:  # UTF-8 takes at most 4 bytes a character
            raise ValueError(
                f"the file is {len(data):,} bytes long; at most {config.MAX_NFG_CHARS:,} characters are read"
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise ValueError(
                f"line {line}: the file is binary or not UTF-8 text (byte {data[error.start]:#04x} cannot be read)"
            ) from None
        return _parse(text, players)
    if isinstance(path_or_text, str) and _LOOKS_LIKE_TEXT.match(path_or_text):
        return _parse(path_or_text[1:] if path_or_text.startswith("\ufeff") else path_or_text, players)
    if isinstance(path_or_text, (str, os.PathLike)):
        text = read_text(path_or_text, config.MAX_NFG_CHARS, ".nfg file")
        try:
            return _parse(text, players)
        except ValueError as error:
            raise ValueError(f"{os.fspath(path_or_text)}: {error}") from None
    raise ValueError(f"read_nfg takes a path, the file's text or its bytes, not {type(path_or_text).__name__}")


def _quote(text: str) -> str:
    """``text`` in quotes as Gambit reads it back: a quote becomes ``\\"``; a backslash is doubled only before a quote,
    a backslash or the closing quote, where it would otherwise change what follows. A NUL, which marks a binary file,
    becomes U+FFFD."""
    escaped = re.sub(r'\\(?=["\\]|$)', r"\\\\", text).replace('"', '\\"').replace("\x00", "\ufffd")
    return f'"{escaped}"'


def _decimal(value: float) -> str:
    """The shortest text that reads back as the same double: whole numbers without a point, others as ``repr``."""
    value = float(value)
    if value.is_integer() and abs(value) < 2**53:
        text = str(int(value))
        return "-0" if text == "0" and math.copysign(1.0, value) < 0 else text
    return repr(value)


def write_nfg(game: NormalFormGame, *, for_openspiel: bool = False) -> str:
    """``game`` as a Gambit ``.nfg`` file (payoff version): :func:`read_nfg` reads it back to the same doubles.

    Each player is written under the game's name for it (``players``, as the file read gave them), in order: for a
    :class:`~rmcore.MatrixGame` the row player is player 1 and the column player player 2. One line per strategy
    profile holds its n payoffs, player 1's strategy changing fastest, then player 2's, and so on. Payoffs are written
    as the shortest decimals that read back bit for bit (whole numbers without a point), so Gambit, which reads
    decimals exactly, gets the doubles' exact values. The game's description is written as the file's comment. A NUL
    character in a name (it would make the file binary) is written as U+FFFD.

    Parameters
    ----------
    game : NormalFormGame
        A game of any number of players (a :class:`~rmcore.MatrixGame` for two).
    for_openspiel : bool
        Write the subset OpenSpiel's reader (``pyspiel.load_nfg_game``) takes: strategy counts instead of names, no
        comment, and quotes and backslashes in the title replaced by ``'`` and ``/``, since that reader takes no
        escapes. Gambit reads both forms.

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`~rmcore.NormalFormGame`, or ``for_openspiel`` not True or False.

    >>> print(write_nfg(read_nfg('NFG 1 R "odd one out" { "1" "2" "3" } { 2 1 1 } 1 0 0  0 1 1')), end="")
    NFG 1 R "odd one out" { "1" "2" "3" }
    { { "1" "2" }
      { "1" }
      { "1" } }
    <BLANKLINE>
    1 0 0
    0 1 1
    """
    if not isinstance(game, NormalFormGame):
        raise ValueError(f"write_nfg takes a MatrixGame or a NormalFormGame, not {type(game).__name__}")
    if not isinstance(for_openspiel, bool):
        raise ValueError(f"for_openspiel must be True or False, got {for_openspiel!r}")
    if for_openspiel:
        title = '"' + " ".join(game.name.split()).replace('"', "'").replace("\\", "/").replace("\x00", "\ufffd") + '"'
        players = " ".join('"' + name.replace('"', "'").replace("\\", "/") + '"' for name in game.players)
        lines = [f"NFG 1 R {title} {{ {players} }} {{ {' '.join(map(str, game.shape))} }}"]
    else:
        lines = [f"NFG 1 R {_quote(game.name)} {{ {' '.join(map(_quote, game.players))} }}"]
        last = game.num_players - 1
        for p, names in enumerate(game.actions):
            opening, closing = ("{ { " if p == 0 else "  { "), (" } }" if p == last else " }")
            lines.append(opening + " ".join(map(_quote, names)) + closing)
        if game.description:
            lines.append(_quote(game.description))
    lines.append("")
    # Axes reversed, so that reading the profiles in C order turns player 1's strategy fastest.
    order = tuple(reversed(range(game.num_players)))
    table = np.stack([u.transpose(order).reshape(-1) for u in game.payoffs], axis=1)
    lines.extend(" ".join(map(_decimal, profile)) for profile in table.tolist())
    return "\n".join(lines) + "\n"
