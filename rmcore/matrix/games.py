"""Normal-form games: a validated, immutable :class:`NormalFormGame` of n >= 2 players, its two-player form
:class:`MatrixGame`, and a catalogue of presets.

In a game of n players, player ``p`` chooses an action ``a_p`` and receives ``u_p(a_1, ..., a_n)``: one payoff array
per player, of shape ``a_1 x ... x a_n`` (one axis per player, player 1's first). A :class:`MatrixGame` is the game of
two players written as two matrices: the row player chooses a row ``i`` and receives ``A[i, j]``; the column player
chooses a column ``j`` and receives ``B[i, j]``. A zero-sum game has ``B = -A`` and is built by leaving
``col_payoffs`` out. Every :class:`MatrixGame` is a :class:`NormalFormGame` (``game.payoffs == (A, B)``), and a
two-player :class:`NormalFormGame` becomes one with :meth:`NormalFormGame.as_matrix_game`.

>>> game = preset("rps-crash")
>>> game.shape, game.is_zero_sum, game.payoff_range
((3, 3), True, (4.0, 4.0))
>>> game.equilibria[0].row
(0.25, 0.5, 0.25)
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .. import config
from ..records import Policy
from ..validation import as_strategy, start_weights, text

__all__ = [
    "INFOSETS",
    "NormalFormGame",
    "MatrixGame",
    "Equilibrium",
    "Preset",
    "PresetParameter",
    "PRESETS",
    "NORMAL_FORM_PRESETS",
    "preset",
    "parse_matrix_csv",
    "ParsedMatrix",
]


#: A matrix game's two information sets: the row player's (player 1) and the column player's (player 2).
INFOSETS = ("row", "col")


class Equilibrium(NamedTuple):
    """A known Nash equilibrium: the row and the column player's mixed strategies."""

    row: tuple[float, ...]
    col: tuple[float, ...]


def _cell_name(i: int, j: int) -> str:
    return f"row {i + 1}, column {j + 1}"


def _as_payoff_matrix(values, what: str) -> np.ndarray:
    """Turn user input into a finite 2-D float64 array, or explain what is wrong with it."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "fiub":
        array = values.astype(np.float64)
    else:
        try:
            rows = [list(row) for row in values]
        except TypeError:
            raise ValueError(
                f"{what} must be a 2-D table of numbers (a list of rows), got {type(values).__name__}"
            ) from None
        if not rows:
            raise ValueError(f"{what} is empty: it needs at least one row and one column")
        width = len(rows[0])
        for i, row in enumerate(rows):
            if len(row) != width:
                raise ValueError(
                    f"{what}: row {i + 1} has {len(row)} entries but row 1 has {width}; every row needs the same length"
                )
        array = np.empty((len(rows), width), dtype=np.float64)
        for i, row in enumerate(rows):
            for j, cell in enumerate(row):
                if isinstance(cell, (bool, np.bool_)) or isinstance(cell, (str, bytes)) and not str(cell).strip():
                    raise ValueError(f"{what}: {_cell_name(i, j)} is {cell!r}, not a number")
                try:
                    array[i, j] = float(cell)
                except (TypeError, ValueError):
                    raise ValueError(f"{what}: {_cell_name(i, j)} is {cell!r}, not a number") from None
    if array.ndim != 2:
        raise ValueError(f"{what} must be 2-D (rows x columns), got {array.ndim} dimension(s)")
    rows, cols = array.shape
    if rows == 0 or cols == 0:
        raise ValueError(f"{what} is empty ({rows}x{cols}): it needs at least one row and one column")
    if rows > config.MAX_ACTIONS or cols > config.MAX_ACTIONS:
        raise ValueError(f"{what} is {rows}x{cols}; at most {config.MAX_ACTIONS} actions per player are supported")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        i, j = bad[0]
        kind = "NaN" if np.isnan(array[i, j]) else "infinite"
        raise ValueError(f"{what}: {_cell_name(i, j)} is {kind}; every payoff must be a finite number")
    return np.ascontiguousarray(array)


def _check_magnitude(matrix: np.ndarray, rows: tuple[str, ...], cols: tuple[str, ...], what: str) -> None:
    """Payoffs beyond ``config.MAX_PAYOFF``, or non-zero and below ``config.MIN_PAYOFF``, are refused, naming the
    first such cell by its actions."""
    magnitude = np.abs(matrix)
    rescale = "rescale the game: regret matching does not depend on the payoffs' unit"
    big = np.argwhere(magnitude > config.MAX_PAYOFF)
    if big.size:
        i, j = big[0]
        raise ValueError(
            f"{what}: the payoff at ({rows[i]}, {cols[j]}) is {matrix[i, j]:.3g}; payoffs must lie within "
            f"±{config.MAX_PAYOFF:.0e} ({rescale})"
        )
    tiny = np.argwhere((magnitude < config.MIN_PAYOFF) & (magnitude > 0))
    if tiny.size:
        i, j = tiny[0]
        raise ValueError(
            f"{what}: the payoff at ({rows[i]}, {cols[j]}) is {matrix[i, j]:.3g}; a non-zero payoff must be at "
            f"least {config.MIN_PAYOFF:.0e} in size ({rescale})"
        )


def _as_labels(labels, count: int, default_prefix: str, who: str) -> tuple[str, ...]:
    if labels is None:
        return tuple(f"{default_prefix}{k + 1}" for k in range(count))
    if isinstance(labels, str):
        raise ValueError(f"{who} action names must be a list of names, not one string")
    names = tuple(text(name, f"{who} action name {k + 1}").strip() for k, name in enumerate(labels))
    if len(names) != count:
        raise ValueError(f"{who} action names: got {len(names)} names for {count} actions")
    for k, name in enumerate(names):
        if not name:
            raise ValueError(f"{who} action names: name {k + 1} is empty")
        if len(name) > config.MAX_LABEL_CHARS:
            raise ValueError(
                f"{who} action names: name {k + 1} is {len(name):,} characters long; "
                f"at most {config.MAX_LABEL_CHARS} fit a table"
            )
    seen = set()
    for name in names:
        if name in seen:
            raise ValueError(f"{who} action names must be unique; {name!r} appears more than once")
        seen.add(name)
    return names


def _as_equilibria(equilibria, shape) -> tuple[Equilibrium, ...]:
    result = []
    for k, pair in enumerate(equilibria):
        row, col = pair
        row = tuple(float(p) for p in row)
        col = tuple(float(p) for p in col)
        if len(row) != shape[0] or len(col) != shape[1]:
            raise ValueError(f"equilibrium {k + 1} does not match the game's {shape[0]}x{shape[1]} shape")
        result.append(Equilibrium(row, col))
    return tuple(result)


def _as_players(players) -> tuple[str, str]:
    """The two players' names (a file's ``"P1"`` and ``"P2"``, kept so that writing it back keeps them)."""
    if isinstance(players, str) or len(tuple(players)) != 2:
        raise ValueError(f"players must be two names, the row player's and the column player's; got {players!r}")
    return _as_player_names(players, 2)


def _as_player_starts(start, shape) -> tuple[tuple[float, ...], ...]:
    """A suggested start of a game of ``len(shape)`` players: one list of weights per player, each of its length."""
    if isinstance(start, (str, bytes)) or not hasattr(start, "__len__") or len(start) != len(shape):
        raise ValueError(f"start must be {len(shape)} lists of weights, one per player, player 1's first")
    return tuple(start_weights(w, size, f"player {p}'s start") for p, (w, size) in enumerate(zip(start, shape), 1))


def _as_start(start, shape) -> Equilibrium:
    """A suggested start: two lists of weights (normalised when used), each of its player's length, finite, none
    negative and not all zero."""
    try:
        row, col = start
    except (TypeError, ValueError):
        raise ValueError("start must be two lists of weights, the row player's and the column player's") from None
    return Equilibrium(
        start_weights(row, shape[0], "the row player's start"),
        start_weights(col, shape[1], "the column player's start"),
    )


def _profile_name(index) -> str:
    """A strategy profile as an error message names it: each player's action, numbered from 1."""
    return "profile (" + ", ".join(str(int(k) + 1) for k in index) + ")"


def _as_payoff_array(values, player: int, players: int) -> np.ndarray:
    """Player ``player``'s payoffs as a finite float64 array of ``players`` axes, or a sentence saying what is wrong."""
    what = f"player {player}'s payoffs"
    shape_words = " x ".join(f"a_{k + 1}" for k in range(players))
    if isinstance(values, (str, bytes)) or np.isscalar(values) or values is None:
        raise ValueError(f"{what} must be an array of numbers of shape {shape_words}, got {type(values).__name__}")
    if isinstance(values, np.ndarray) and values.dtype.kind in "fiu":
        array = values.astype(np.float64)
    else:
        # Cell by cell, so that a True, a blank or a word is named by its profile rather than silently converted.
        try:
            cells = np.array(values, dtype=object)
        except ValueError:
            cells = None
        if cells is None or (
            cells.ndim < players and any(isinstance(cell, (list, tuple, np.ndarray)) for cell in cells.flat)
        ):
            raise ValueError(
                f"{what} are not a table of shape {shape_words}: every row needs the same length at every level"
            ) from None
        if cells.size > config.MAX_PROFILES:
            raise ValueError(
                f"{what} hold {cells.size:,} strategy profiles; at most {config.MAX_PROFILES:,} are supported"
            )
        refused = np.frompyfunc(lambda cell: cell is None or isinstance(cell, (bool, np.bool_, str, bytes)), 1, 1)
        found = np.argwhere(refused(cells).astype(bool)) if cells.size else ()
        if len(found):
            index = tuple(found[0])
            raise ValueError(f"{what}: {_profile_name(index)} is {cells[index]!r}, not a number")
        try:
            array = cells.astype(np.float64)
        except (TypeError, ValueError):
            for index in np.ndindex(cells.shape):
                try:
                    float(cells[index])
                except (TypeError, ValueError):
                    raise ValueError(f"{what}: {_profile_name(index)} is {cells[index]!r}, not a number") from None
            raise ValueError(f"{what} are not an array of numbers") from None
    if array.ndim != players:
        raise ValueError(
            f"{what} have {array.ndim} dimension(s); a game of {players} players needs one per player ({shape_words})"
        )
    for axis, count in enumerate(array.shape):
        if not 1 <= count <= config.MAX_ACTIONS:
            raise ValueError(
                f"{what}: player {axis + 1} has {count} actions; each player needs 1 to {config.MAX_ACTIONS}"
            )
    if array.size > config.MAX_PROFILES:
        raise ValueError(f"{what} hold {array.size:,} strategy profiles; at most {config.MAX_PROFILES:,} are supported")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        index = tuple(bad[0])
        kind = "NaN" if np.isnan(array[index]) else "infinite"
        raise ValueError(f"{what}: {_profile_name(index)} is {kind}; every payoff must be a finite number")
    return np.ascontiguousarray(array)


def _check_profile_magnitude(array: np.ndarray, actions: tuple[tuple[str, ...], ...], what: str) -> None:
    """As :func:`_check_magnitude`, naming the first refused profile by its actions."""
    magnitude = np.abs(array)
    rescale = "rescale the game: regret matching does not depend on the payoffs' unit"
    for refused, bound in (
        (magnitude > config.MAX_PAYOFF, f"payoffs must lie within ±{config.MAX_PAYOFF:.0e}"),
        (
            (magnitude < config.MIN_PAYOFF) & (magnitude > 0),
            f"a non-zero payoff must be at least {config.MIN_PAYOFF:.0e} in size",
        ),
    ):
        found = np.argwhere(refused)
        if found.size:
            index = tuple(found[0])
            names = ", ".join(actions[p][k] for p, k in enumerate(index))
            raise ValueError(f"{what}: the payoff at ({names}) is {array[index]:.3g}; {bound} ({rescale})")


def _as_player_names(players, count: int) -> tuple[str, ...]:
    if players is None:
        return tuple(f"Player {k + 1}" for k in range(count))
    if isinstance(players, str) or len(tuple(players)) != count:
        raise ValueError(f"players must be {count} names, one per player; got {players!r}")
    names = tuple(text(name, f"player {k + 1}'s name").strip() for k, name in enumerate(players))
    for k, name in enumerate(names):
        if not name or len(name) > config.MAX_LABEL_CHARS:
            raise ValueError(f"player {k + 1}'s name must be 1 to {config.MAX_LABEL_CHARS} characters; got {name!r}")
    return names


class NormalFormGame:
    """A finite game in normal form of n >= 2 players, each with a payoff array over the strategy profiles.

    Parameters
    ----------
    payoffs : sequence of n array_like, each of shape (a_1, ..., a_n)
        ``payoffs[p - 1][k_1, ..., k_n]``, player ``p``'s payoff when player 1 plays its action ``k_1``, player 2 its
        ``k_2``, and so on: one axis per player, player 1's first.
    actions : sequence of n sequences of str, optional
        Each player's unique action names; default ``1, 2, ...`` for every player (as Gambit numbers them).
    name : str
        A display name.
    description : str
        One line saying what the game is (keyword only).
    players : sequence of n str, optional
        The players' names (keyword only; default ``Player 1``, ``Player 2``, ...).
    start : sequence of n sequences of float, optional
        A suggested place for learning to start, one list of weights per player (keyword only; non-negative, not all
        zero, normalised when used): for a game whose uniform profile is an equilibrium, from which nothing would
        move. A solver uses it only when asked (``MatrixSolver(game, start=game.start)``); ``None`` suggests none.

    Raises
    ------
    ValueError
        If there are fewer than two players, a payoff array has not one axis per player, the arrays differ in shape,
        a payoff is not a finite number or lies outside ``config.MIN_PAYOFF`` to ``config.MAX_PAYOFF``, a player has
        more than ``config.MAX_ACTIONS`` actions, the game more than ``config.MAX_PROFILES`` strategy profiles, the
        names do not fit, or the start is not one list of weights per player; each sentence names the player and the
        profile.

    Notes
    -----
    The arrays are stored as read-only float64 copies, and the game cannot be changed once built. A
    :class:`MatrixGame` is the two-player case (``isinstance(matrix_game, NormalFormGame)`` holds, with ``payoffs ==
    (row_payoffs, col_payoffs)``); :meth:`as_matrix_game` turns a two-player :class:`NormalFormGame` into one, which
    is what the matrix solver and the pages take.

    Examples
    --------
    Jordan's three-player matching pennies: player 1 wants to match player 2, player 2 to match player 3, player 3
    to mismatch player 1.

    >>> match = np.array([[1.0, -1.0], [-1.0, 1.0]])     # +1 for a match, -1 for a mismatch
    >>> game = NormalFormGame([
    ...     np.broadcast_to(match[:, :, None], (2, 2, 2)),
    ...     np.broadcast_to(match[None, :, :], (2, 2, 2)),
    ...     np.broadcast_to(-match.T[:, None, :], (2, 2, 2)),
    ... ], [("Heads", "Tails")] * 3, "Jordan's game")
    >>> game
    <NormalFormGame "Jordan's game" 2x2x2, 3 players, general-sum>
    >>> game.num_players, float(game.payoffs[2][0, 1, 0]), game.is_constant_sum
    (3, -1.0, False)
    """

    def __init__(self, payoffs, actions=None, name: str = "", *, description: str = "", players=None, start=None):
        if isinstance(payoffs, (str, bytes)) or not hasattr(payoffs, "__iter__"):
            raise ValueError(
                f"payoffs must be a sequence of payoff arrays, one per player; got {type(payoffs).__name__}"
            )
        items = list(payoffs)
        if len(items) < 2:
            raise ValueError(f"a normal-form game has at least two players; got {len(items)} payoff array(s)")
        arrays = [_as_payoff_array(values, p + 1, len(items)) for p, values in enumerate(items)]
        shape = arrays[0].shape
        for p, array in enumerate(arrays[1:], start=2):
            if array.shape != shape:
                raise ValueError(
                    f"player {p}'s payoffs are {'x'.join(map(str, array.shape))} but player 1's are "
                    f"{'x'.join(map(str, shape))}; every player's payoffs have the same shape"
                )
        if actions is None:
            actions = (None,) * len(arrays)
        elif isinstance(actions, str) or len(tuple(actions)) != len(arrays):
            raise ValueError(f"actions must be {len(arrays)} lists of action names, one per player; got {actions!r}")
        labels = tuple(
            _as_labels(names, count, "", f"player {p + 1}'s") for p, (names, count) in enumerate(zip(actions, shape))
        )
        total = arrays[0].copy()
        for p, array in enumerate(arrays):
            _check_profile_magnitude(array, labels, f"player {p + 1}'s payoffs")
            array.flags.writeable = False
            if p:
                total += array
        set_ = object.__setattr__
        set_(self, "_payoffs", tuple(arrays))
        set_(self, "_actions", labels)
        set_(self, "name", text(name, "the game's name"))
        set_(self, "description", text(description, "the game's description"))
        set_(self, "players", _as_player_names(players, len(arrays)))
        set_(self, "_zero_sum", bool(np.all(total == 0.0)))
        set_(self, "start", None if start is None else _as_player_starts(start, shape))

    def __setattr__(self, name, value):
        raise AttributeError(f"a {type(self).__name__} cannot be changed; build a new one")

    def __delattr__(self, name):
        raise AttributeError(f"a {type(self).__name__} cannot be changed; build a new one")

    def __setstate__(self, state):
        # An unpickled array is writeable: the copy a process or a cache gets back is made read-only again.
        for key, value in state.items():
            for array in value if isinstance(value, tuple) else (value,):
                if isinstance(array, np.ndarray):
                    array.flags.writeable = False
            object.__setattr__(self, key, value)

    @property
    def payoffs(self) -> tuple[np.ndarray, ...]:
        """Each player's payoff array (read-only), player 1's first."""
        return self._payoffs

    @property
    def actions(self) -> tuple[tuple[str, ...], ...]:
        """Each player's action names, player 1's first."""
        return self._actions

    @property
    def num_players(self) -> int:
        """The number of players, n."""
        return len(self._payoffs)

    @property
    def shape(self) -> tuple[int, ...]:
        """``(a_1, ..., a_n)``: the number of actions of each player."""
        return self._payoffs[0].shape

    @property
    def is_zero_sum(self) -> bool:
        """True when the players' payoffs add up to exactly 0 in every profile."""
        return self._zero_sum

    @property
    def is_two_player_zero_sum(self) -> bool:
        """Two players, zero-sum: the games whose exploitability is ``nash_conv / 2`` (a game tree's property of the
        same name says the same)."""
        return self.num_players == 2 and self.is_zero_sum

    @property
    def is_constant_sum(self) -> bool:
        """True when the players' payoffs add up to the same number in every profile (zero-sum games included)."""
        total = sum(self._payoffs[1:], self._payoffs[0].copy())
        return bool(np.all(total == total.flat[0]))

    @property
    def payoff_range(self) -> tuple[float, ...]:
        """Each player's payoff range ``max - min`` (the ``Delta`` in regret bounds)."""
        return tuple(float(u.max() - u.min()) for u in self._payoffs)

    def as_matrix_game(self) -> MatrixGame:
        """The same two-player game as a :class:`MatrixGame` (itself, if it is one): player 1's actions are the rows.

        Raises
        ------
        ValueError
            For a game of more than two players.
        """
        if self.num_players != 2:
            raise ValueError(f"a game of {self.num_players} players has no two-player matrix form")
        a, b = self._payoffs
        rows, cols = self._actions
        return MatrixGame(
            a, b, rows, cols, self.name, description=self.description, players=self.players, start=self.start
        )

    def __repr__(self) -> str:
        kind = "zero-sum" if self.is_zero_sum else "constant-sum" if self.is_constant_sum else "general-sum"
        label = f" {self.name!r}" if self.name else ""
        size = "x".join(map(str, self.shape))
        return f"<{type(self).__name__}{label} {size}, {self.num_players} players, {kind}>"


@dataclass(frozen=True, eq=False)
class MatrixGame(NormalFormGame):
    """A finite two-player game in normal form, written as two matrices: the two-player :class:`NormalFormGame`.

    Parameters
    ----------
    row_payoffs : array_like, shape (m, n)
        ``A[i, j]``, the row player's payoff when row ``i`` meets column ``j``.
    col_payoffs : array_like, shape (m, n), optional
        ``B[i, j]``, the column player's payoff. ``None`` (the default) makes the game
        zero-sum: ``B = -A``.
    row_actions, col_actions : sequence of str, optional
        Unique action names; default ``R1, R2, ...`` and ``C1, C2, ...``.
    name : str
        A display name.
    description : str
        One line saying what the game is (keyword only).
    equilibria : sequence of (row, col) pairs
        Known Nash equilibria, for pages to draw (keyword only). Not checked.
    players : (str, str)
        The two players' names (keyword only; default ``("Player 1", "Player 2")``), as a game file gives them.
    start : (row, col) pair, optional
        A suggested place for learning to start (keyword only; non-negative weights, not all zero, normalised when
        used): for games whose
        uniform start is already their equilibrium, so that a run from it shows something. A solver
        uses it only when asked (``MatrixSolver(game, start=game.start)``).

    Raises
    ------
    ValueError
        If a matrix is not 2-D, is empty, has a non-finite or non-numeric entry, has
        more than ``config.MAX_ACTIONS`` actions per side, the two matrices or the
        labels do not match its shape, a start weight is negative or a player's are all zero,
        or a name holds a lone surrogate (text no page or file can hold).

    Notes
    -----
    The arrays are stored as read-only float64 copies, so a game can be shared by many
    solvers and cached safely.
    """

    row_payoffs: np.ndarray
    col_payoffs: np.ndarray | None = None
    row_actions: tuple[str, ...] | None = None
    col_actions: tuple[str, ...] | None = None
    name: str = ""
    description: str = field(default="", kw_only=True)
    equilibria: tuple[Equilibrium, ...] = field(default=(), kw_only=True)
    start: Equilibrium | None = field(default=None, kw_only=True)
    players: tuple[str, str] = field(default=("Player 1", "Player 2"), kw_only=True)

    def __post_init__(self):
        a = _as_payoff_matrix(self.row_payoffs, "row payoff matrix")
        zero_sum = self.col_payoffs is None
        if zero_sum:
            b = -a
        else:
            b = _as_payoff_matrix(self.col_payoffs, "column payoff matrix")
            if b.shape != a.shape:
                raise ValueError(
                    f"the column payoff matrix is {b.shape[0]}x{b.shape[1]} but the row payoff matrix is "
                    f"{a.shape[0]}x{a.shape[1]}; both must have the same shape"
                )
            zero_sum = bool(np.array_equal(b, -a))
        a.flags.writeable = False
        b.flags.writeable = False
        set_ = object.__setattr__
        set_(self, "row_payoffs", a)
        set_(self, "col_payoffs", b)
        set_(self, "row_actions", _as_labels(self.row_actions, a.shape[0], "R", "row"))
        set_(self, "col_actions", _as_labels(self.col_actions, a.shape[1], "C", "column"))
        _check_magnitude(a, self.row_actions, self.col_actions, "row payoff matrix")
        if not zero_sum:
            _check_magnitude(b, self.row_actions, self.col_actions, "column payoff matrix")
        set_(self, "name", text(self.name, "the game's name"))
        set_(self, "description", text(self.description, "the game's description"))
        set_(self, "players", _as_players(self.players))
        set_(self, "equilibria", _as_equilibria(self.equilibria, a.shape))
        if self.start is not None:
            set_(self, "start", _as_start(self.start, a.shape))
        set_(self, "_zero_sum", zero_sum)
        set_(self, "_payoffs", (a, b))
        set_(self, "_actions", (self.row_actions, self.col_actions))

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``: the number of actions of each player."""
        return self.row_payoffs.shape

    @property
    def is_zero_sum(self) -> bool:
        """True when ``B == -A`` entry by entry."""
        return self._zero_sum

    @property
    def payoff_range(self) -> tuple[float, float]:
        """Each player's payoff range ``max - min`` (the ``Delta`` in regret bounds)."""
        a, b = self.row_payoffs, self.col_payoffs
        return float(a.max() - a.min()), float(b.max() - b.min())

    def as_matrix_game(self) -> MatrixGame:
        """The game itself: it is already a :class:`MatrixGame`."""
        return self

    def policy(self, x, y) -> Policy:
        """The profile ``(x, y)`` (weights, normalised) as a :class:`~rmcore.Policy` over the information sets ``row``
        (player 1) and ``col`` (player 2): what :func:`rmcore.nash_conv` and the other metrics take, and what a
        solver's ``average_policy()`` returns.

        >>> preset("matching-pennies").policy([1, 0], [1, 1])["col"].tolist()
        [0.5, 0.5]
        """
        m, n = self.shape
        probabilities = np.zeros((2, max(m, n)))
        probabilities[0, :m] = as_strategy(x, m, "the row player's strategy", normalise=True)
        probabilities[1, :n] = as_strategy(y, n, "the column player's strategy", normalise=True)
        return Policy(probabilities, INFOSETS, (self.row_actions, self.col_actions))

    def __repr__(self) -> str:
        kind = "zero-sum" if self.is_zero_sum else "general-sum"
        label = f" {self.name!r}" if self.name else ""
        return f"<MatrixGame{label} {self.shape[0]}x{self.shape[1]} {kind}>"


class ParsedMatrix(NamedTuple):
    """A payoff matrix read from CSV text, its labels (None when the file names none), and what the reader assumed."""

    matrix: np.ndarray
    row_labels: tuple[str, ...] | None
    col_labels: tuple[str, ...] | None
    notes: tuple[str, ...] = ()


_SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}
_DECIMAL_COMMA = re.compile(r"^\s*[-+]?\d+,\d+\s*$")


def parse_matrix_csv(text: str, what: str = "matrix") -> ParsedMatrix:
    """Read a payoff matrix from CSV text.

    Either plain numbers, one line per row action, or a table whose first line names the columns and whose
    first column names the rows (the top-left cell empty or a title). Cells may be separated by commas,
    semicolons or tabs (the first line decides); with semicolons, decimal commas (``1,5``) are read as points.
    A first line of names over rows that all start with a number is read as column names only, and
    ``notes`` says so; so does every other assumption the reader made.

    Raises
    ------
    ValueError
        For text over ``config.MAX_CSV_CHARS`` (refused before parsing), an empty file, ragged rows, a cell
        that is not a number or a payoff out of range, naming the cell.

    >>> parse_matrix_csv("1,2\\n3,4\\n").matrix.tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    >>> parse_matrix_csv(",L,R\\nU,1,0\\nD,0,1\\n")[1:3]
    (('U', 'D'), ('L', 'R'))
    >>> parse_matrix_csv("L;R\\n1,5;0\\n0;1\\n").matrix.tolist()
    [[1.5, 0.0], [0.0, 1.0]]
    """
    if not isinstance(text, str):
        raise ValueError(f"{what}: expected the file's text, got {type(text).__name__}")
    if len(text) > config.MAX_CSV_CHARS:
        raise ValueError(
            f"{what}: the file is {len(text):,} characters long; at most {config.MAX_CSV_CHARS:,} are read"
        )
    # A Unicode minus or dash pasted from a PDF or a word processor means minus.
    translated = text.translate(_MINUS_SIGNS)
    minus_note = [] if translated == text else ["a Unicode minus or dash (−, –) was read as a minus sign"]
    text = translated
    all_lines = text.splitlines()
    comments = [line for line in all_lines if line.lstrip().startswith("#")]
    lines = [line for line in all_lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise ValueError(f"{what}: the CSV is empty")
    if comments:
        text = "\n".join(lines)
    # The first line's most frequent separator; on a tie, tab before semicolon before comma (a semicolon file
    # often has decimal commas too: "1,5;2").
    separator = max(_SEPARATORS, key=lambda s: (lines[0].count(s), "\t;,".index(s) * -1))
    if lines[0].count(separator) == 0:
        separator = ","
    notes = [] if separator == "," else [f"cells are separated by {_SEPARATORS[separator]}"]
    notes += minus_note
    if comments:
        notes.append(f"{len(comments)} line(s) starting with # were read as comments")
    try:
        rows = [
            row
            for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator)
            if any(cell.strip() for cell in row)
        ]
    except csv.Error as error:  # a stray quote or carriage return, say
        raise ValueError(f"{what}: not readable as CSV ({error})") from None
    if not rows:
        raise ValueError(f"{what}: the CSV is empty")
    if separator == ";" and any(_DECIMAL_COMMA.match(cell) for row in rows for cell in row):
        rows = [[cell.replace(",", ".") if _DECIMAL_COMMA.match(cell) else cell for cell in row] for row in rows]
        notes.append("decimal commas are read as points (1,5 = 1.5)")
    header = [cell.strip() for cell in rows[0]]
    row_labels = col_labels = None
    # A first line with any cell that looks like a number is data, and then every cell must be one: "1,abc" is a row
    # with a typo, not two column names. Only a line of names alone is a header.
    if any(_looks_numeric(cell) for cell in header):  # plain numbers
        cells = rows
    else:
        body = rows[1:]
        if not body:
            raise ValueError(
                f"{what}: a labelled CSV needs a header line of column names and at least one row below it"
            )
        named_rows = (
            header[0] == "" or not all(_is_number(row[0].strip()) for row in body) or len(header) == len(body[0]) - 1
        )
        if named_rows:
            if header[0] != "" and len(header) == len(body[0]) - 1:
                header = ["", *header]  # the header names the payoff columns only
                notes.append("the first line names the columns and the first column names the rows")
            col_labels, row_labels = tuple(header[1:]), tuple(row[0].strip() for row in body)
            cells = [row[1:] for row in body]
        else:
            col_labels = tuple(header)
            cells = body
            notes.append(
                "the first line was read as column names and every row as payoffs (each starts with a number); "
                "to name the rows, put the names in the first column under an empty top-left cell"
            )
        if not col_labels:
            raise ValueError(
                f"{what}: a labelled CSV needs a header line of column names and at least one row below it"
            )
    width = len(col_labels) if col_labels is not None else len(cells[0])
    for i, row in enumerate(cells):
        if len(row) != width:
            raise ValueError(f"{what}: row {i + 1} has {len(row)} numbers but {width} were expected")
    matrix = _as_payoff_matrix([[cell.strip() for cell in row] for row in cells], what)
    return ParsedMatrix(matrix, row_labels, col_labels, tuple(notes))


_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-", "\uff0d": "-"})
#: What a reader takes for a number, valid or not: a sign, digits or a point and a digit; hexadecimal; a boolean.
_NUMERIC_LOOK = re.compile(r"^\s*([-+]?(\d|\.\d)|0[xX]|(true|false|nan|[-+]?inf(inity)?)\s*$)", re.IGNORECASE)


def _looks_numeric(text: str) -> bool:
    return bool(_NUMERIC_LOOK.match(text))


def aligned_column_payoffs(row: ParsedMatrix, col: ParsedMatrix) -> np.ndarray:
    """The column player's payoffs (a second CSV) in the row player's order.

    Matched by the action names when the column player's CSV names its actions (its rows may come in another order),
    by position when it gives plain numbers.

    Raises
    ------
    ValueError
        When the column player's CSV names actions the row player's does not (or names them where the row player's
        does not), or the shapes differ.

    >>> a = parse_matrix_csv(",L,R\\nU,3,0\\nD,5,1\\n")
    >>> aligned_column_payoffs(a, parse_matrix_csv(",R,L\\nD,1,5\\nU,0,3\\n")).tolist()
    [[3.0, 0.0], [5.0, 1.0]]
    """
    for which, mine, theirs in (("row", row.row_labels, col.row_labels), ("column", row.col_labels, col.col_labels)):
        if theirs is None:
            continue
        if mine is None:
            raise ValueError(
                f"the column player's CSV names its {which} actions but the row player's CSV does not: "
                "name them in both (they are matched by name) or in neither"
            )
        if sorted(mine) != sorted(theirs):
            differing = ", ".join(map(repr, sorted(set(mine) ^ set(theirs))))
            raise ValueError(f"the column player's CSV names other {which} actions than the row player's: {differing}")
    if col.matrix.shape != row.matrix.shape:
        raise ValueError(
            f"the column player's CSV is {col.matrix.shape[0]}x{col.matrix.shape[1]} but the row "
            f"player's CSV is {row.matrix.shape[0]}x{row.matrix.shape[1]}"
        )
    rows = range(row.matrix.shape[0]) if col.row_labels is None else [col.row_labels.index(n) for n in row.row_labels]
    cols = range(row.matrix.shape[1]) if col.col_labels is None else [col.col_labels.index(n) for n in row.col_labels]
    return col.matrix[np.ix_(list(rows), list(cols))]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------------------
# Preset catalogue


@dataclass(frozen=True)
class PresetParameter:
    """A numeric parameter of a parametric preset, with its range (for sliders)."""

    name: str
    default: float
    low: float
    high: float
    integer: bool = False
    help: str = ""


@dataclass(frozen=True)
class Preset:
    """A named game in the catalogue: a builder with described parameters."""

    name: str
    title: str
    description: str
    build: Callable[..., NormalFormGame]
    parameters: tuple[PresetParameter, ...] = ()


def _symmetric_pair(a):
    a = np.asarray(a, dtype=np.float64)
    return a, a.T.copy()


def _rps() -> MatrixGame:
    return MatrixGame(
        [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
        row_actions=("Rock", "Paper", "Scissors"),
        col_actions=("Rock", "Paper", "Scissors"),
        name="Rock-Paper-Scissors",
        description="Each action beats one and loses to one; the only equilibrium is uniform play, so learning starts "
        "elsewhere (the row player at 60% Rock, the column player at 60% Scissors) and spirals in to it.",
        equilibria=[((1 / 3,) * 3, (1 / 3,) * 3)],
        start=((0.6, 0.3, 0.1), (0.2, 0.2, 0.6)),
    )


def _weighted_rps(
    paper_rock: float = 1.0, scissors_paper: float = 1.0, rock_scissors: float = 1.0, *, name=None, description=None
) -> MatrixGame:
    # A skew-symmetric game: x is an equilibrium iff A x = 0, which gives x proportional to
    # (scissors_paper, rock_scissors, paper_rock).
    a, b, c = (float(w) for w in (paper_rock, scissors_paper, rock_scissors))
    for label, w in (("paper_rock", a), ("scissors_paper", b), ("rock_scissors", c)):
        if not (math.isfinite(w) and w > 0):
            raise ValueError(f"weighted-rps: win weight {label} must be a positive number, got {w}")
    total = a + b + c
    equilibrium = (b / total, c / total, a / total)
    return MatrixGame(
        [[0, -a, c], [a, 0, -b], [-c, b, 0]],
        row_actions=("Rock", "Paper", "Scissors"),
        col_actions=("Rock", "Paper", "Scissors"),
        name=name or f"Weighted RPS ({a:g}, {b:g}, {c:g})",
        description=description
        or "Rock-Paper-Scissors where each win pays its own weight; the equilibrium shifts with the weights. Learning "
        "starts off it (60% Rock against 60% Scissors) so that even equal weights show it spiral in.",
        equilibria=[(equilibrium, equilibrium)],
        start=None if description else ((0.6, 0.3, 0.1), (0.2, 0.2, 0.6)),
    )


def _rps_crash() -> MatrixGame:
    return _weighted_rps(
        1.0,
        1.0,
        2.0,
        name="RPS with crash",
        description="Scissors crashes on rock, so that loss is doubled; equilibrium (1/4, 1/2, 1/4).",
    )


def _matching_pennies() -> MatrixGame:
    return MatrixGame(
        [[1, -1], [-1, 1]],
        row_actions=("Heads", "Tails"),
        col_actions=("Heads", "Tails"),
        name="Matching pennies",
        description="The row player wins on a match, the column player on a mismatch; equilibrium (1/2, 1/2). Learning "
        "starts off it (90% Heads against 30% Heads) and circles in to it.",
        equilibria=[((0.5, 0.5), (0.5, 0.5))],
        start=((0.9, 0.1), (0.3, 0.7)),
    )


def _rpsls() -> MatrixGame:
    names = ("Rock", "Paper", "Scissors", "Lizard", "Spock")
    beats = {  # winner -> the two it beats
        "Rock": ("Scissors", "Lizard"),
        "Paper": ("Rock", "Spock"),
        "Scissors": ("Paper", "Lizard"),
        "Lizard": ("Spock", "Paper"),
        "Spock": ("Scissors", "Rock"),
    }
    a = np.zeros((5, 5))
    for i, winner in enumerate(names):
        for loser in beats[winner]:
            j = names.index(loser)
            a[i, j], a[j, i] = 1.0, -1.0
    return MatrixGame(
        a,
        row_actions=names,
        col_actions=names,
        name="Rock-Paper-Scissors-Lizard-Spock",
        description="Five actions, each beating two and losing to two; the only equilibrium is uniform play, so "
        "learning starts elsewhere (each player leaning on one action) and converges to it.",
        equilibria=[((0.2,) * 5, (0.2,) * 5)],
        start=((0.5, 0.2, 0.1, 0.1, 0.1), (0.1, 0.1, 0.1, 0.2, 0.5)),
    )


def _prisoners_dilemma() -> MatrixGame:
    a, b = _symmetric_pair([[3, 0], [5, 1]])
    return MatrixGame(
        a,
        b,
        row_actions=("Cooperate", "Defect"),
        col_actions=("Cooperate", "Defect"),
        name="Prisoner's dilemma",
        description="Defecting is dominant for both, so the unique equilibrium is mutual defection.",
        equilibria=[((0.0, 1.0), (0.0, 1.0))],
    )


def _battle_of_sexes() -> MatrixGame:
    return MatrixGame(
        [[2, 0], [0, 1]],
        [[1, 0], [0, 2]],
        row_actions=("Opera", "Football"),
        col_actions=("Opera", "Football"),
        name="Battle of the sexes",
        description="Both want to meet but prefer different places: two pure equilibria and one mixed.",
        equilibria=[((1.0, 0.0), (1.0, 0.0)), ((0.0, 1.0), (0.0, 1.0)), ((2 / 3, 1 / 3), (1 / 3, 2 / 3))],
    )


def _stag_hunt() -> MatrixGame:
    a, b = _symmetric_pair([[4, 1], [3, 3]])
    return MatrixGame(
        a,
        b,
        row_actions=("Stag", "Hare"),
        col_actions=("Stag", "Hare"),
        name="Stag hunt",
        description="Hunting stag pays only if both do: a safe and a payoff-dominant pure equilibrium, and one mixed.",
        equilibria=[((1.0, 0.0), (1.0, 0.0)), ((0.0, 1.0), (0.0, 1.0)), ((2 / 3, 1 / 3), (2 / 3, 1 / 3))],
    )


def _chicken() -> MatrixGame:
    a, b = _symmetric_pair([[0, -1], [1, -10]])
    return MatrixGame(
        a,
        b,
        row_actions=("Swerve", "Straight"),
        col_actions=("Swerve", "Straight"),
        name="Chicken",
        description="Whoever swerves loses face, but a crash is a disaster: two pure equilibria and one mixed.",
        equilibria=[((1.0, 0.0), (0.0, 1.0)), ((0.0, 1.0), (1.0, 0.0)), ((0.9, 0.1), (0.9, 0.1))],
    )


def _aumann_chicken() -> MatrixGame:
    return MatrixGame(
        [[6, 2], [7, 0]],
        [[6, 7], [2, 0]],
        row_actions=("Swerve", "Dare"),
        col_actions=("Swerve", "Dare"),
        name="Aumann's Chicken",
        description="Aumann's (1974) example of a correlated equilibrium: two pure equilibria paying (7, 2) and "
        "(2, 7), a mixed one paying 14/3 each; a traffic light (a fair coin between the two pure ones) pays 4.5 each, "
        "Aumann's device drawing (Swerve, Swerve), (Swerve, Dare) and (Dare, Swerve) with 1/3 each 5 each, and the "
        "best correlated equilibrium 5.25 each.",
        equilibria=[((1.0, 0.0), (0.0, 1.0)), ((0.0, 1.0), (1.0, 0.0)), ((2 / 3, 1 / 3), (2 / 3, 1 / 3))],
    )


def _shapley() -> MatrixGame:
    return MatrixGame(
        np.eye(3),
        [[0, 1, 0], [0, 0, 1], [1, 0, 0]],
        row_actions=("A", "B", "C"),
        col_actions=("A", "B", "C"),
        name="Shapley's game",
        description="A general-sum game whose unique equilibrium is uniform. Started off it, regret matching keeps "
        "cycling: the averages stay away from the equilibrium (nash_conv stays near 0.28) while the CCE gap falls to "
        "0.",
        equilibria=[((1 / 3,) * 3, (1 / 3,) * 3)],
        start=((0.6, 0.3, 0.1), (0.1, 0.6, 0.3)),
    )


def _cai_3x3() -> MatrixGame:
    # Cai, Farina, Grand-Clément, Kroer, Lee, Luo & Zheng (2023), "Last-iterate convergence properties of
    # regret-matching algorithms in games" (arXiv 2311.00676): the game of their last-iterate experiments.
    return MatrixGame(
        [[3, 0, -3], [0, 3, -4], [0, 0, 1]],
        name="Cai et al.'s 3x3 game",
        description="A zero-sum game (Cai et al. 2023) whose value is 1/4: the averages of RM+ and PRM+ converge, "
        "their last iterates never settle, while those of smooth PRM+ and extragradient RM+ reach the equilibrium.",
        equilibria=[((1 / 12, 1 / 12, 5 / 6), (1 / 3, 5 / 12, 1 / 4))],
    )


def _check_size(label: str, rows, cols, limit: int = config.MAX_ACTIONS) -> tuple[int, int]:
    sizes = []
    for what, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not float(value).is_integer() or not 1 <= int(value) <= limit:
            raise ValueError(f"{label}: {what} must be a whole number from 1 to {limit}, got {value}")
        sizes.append(int(value))
    return sizes[0], sizes[1]


def _check_seed(label: str, seed) -> int:
    if isinstance(seed, bool) or not float(seed).is_integer() or int(seed) < 0:
        raise ValueError(f"{label}: seed must be a whole number >= 0, got {seed}")
    return int(seed)


def _random_payoffs(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    # Two decimals keep the matrix readable in an editor while keeping ties rare.
    return np.round(rng.uniform(-1.0, 1.0, size=(rows, cols)), 2)


def _random_zero_sum(rows: int = 3, cols: int = 3, seed: int = 0) -> MatrixGame:
    rows, cols = _check_size("random-zero-sum", rows, cols)
    seed = _check_seed("random-zero-sum", seed)
    rng = np.random.default_rng(seed)
    return MatrixGame(
        _random_payoffs(rng, rows, cols),
        name=f"Random zero-sum {rows}x{cols} (seed {seed})",
        description="Payoffs drawn uniformly from [-1, 1]; the exact answer comes from linear programming.",
    )


def _random_general_sum(rows: int = 3, cols: int = 3, seed: int = 0) -> MatrixGame:
    rows, cols = _check_size("random-general-sum", rows, cols)
    seed = _check_seed("random-general-sum", seed)
    rng = np.random.default_rng(seed)
    return MatrixGame(
        _random_payoffs(rng, rows, cols),
        _random_payoffs(rng, rows, cols),
        name=f"Random general-sum {rows}x{cols} (seed {seed})",
        description="Both payoff matrices drawn uniformly from [-1, 1]; play approaches coarse correlated equilibria.",
    )


_WEIGHT = dict(default=1.0, low=0.1, high=5.0)
_SIZE = dict(default=3, low=1, high=200, integer=True)
_RANDOM_GAME_PARAMETERS = (
    PresetParameter("rows", help="row player's actions", **_SIZE),
    PresetParameter("cols", help="column player's actions", **_SIZE),
    PresetParameter("seed", 0, 0, 10_000, integer=True, help="random seed"),
)

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("rps", "Rock-Paper-Scissors", _rps().description, _rps),
        Preset("rps-crash", "RPS with crash", _rps_crash().description, _rps_crash),
        Preset("matching-pennies", "Matching pennies", _matching_pennies().description, _matching_pennies),
        Preset("rpsls", "Rock-Paper-Scissors-Lizard-Spock", _rpsls().description, _rpsls),
        Preset(
            "weighted-rps",
            "Weighted RPS",
            _weighted_rps().description,
            _weighted_rps,
            (
                PresetParameter("paper_rock", help="what Paper wins from Rock", **_WEIGHT),
                PresetParameter("scissors_paper", help="what Scissors wins from Paper", **_WEIGHT),
                PresetParameter("rock_scissors", help="what Rock wins from Scissors", **_WEIGHT),
            ),
        ),
        Preset("prisoners-dilemma", "Prisoner's dilemma", _prisoners_dilemma().description, _prisoners_dilemma),
        Preset("battle-of-sexes", "Battle of the sexes", _battle_of_sexes().description, _battle_of_sexes),
        Preset("stag-hunt", "Stag hunt", _stag_hunt().description, _stag_hunt),
        Preset("chicken", "Chicken", _chicken().description, _chicken),
        Preset("aumann-chicken", "Aumann's Chicken", _aumann_chicken().description, _aumann_chicken),
        Preset("shapley", "Shapley's game", _shapley().description, _shapley),
        Preset("cai-3x3", "Cai et al.'s 3x3 game", _cai_3x3().description, _cai_3x3),
        Preset(
            "random-zero-sum",
            "Random zero-sum",
            "Payoffs drawn uniformly from [-1, 1]; the exact answer comes from linear programming.",
            _random_zero_sum,
            _RANDOM_GAME_PARAMETERS,
        ),
        Preset(
            "random-general-sum",
            "Random general-sum",
            "Both payoff matrices drawn uniformly from [-1, 1]; play approaches coarse correlated equilibria.",
            _random_general_sum,
            _RANDOM_GAME_PARAMETERS,
        ),
    )
}


# The catalogue's games of three players. They are kept apart from PRESETS, which the pages list, as the pages and the
# matrix solver play two-player games; :func:`preset` builds both.


def _matching_pennies_3p() -> NormalFormGame:
    # OpenSpiel's matching_pennies_3p (Jordan 1993): +1 or -1 each, by whether the pair a player watches matches.
    a = np.indices((2, 2, 2))
    match = (a[0] == a[1], a[1] == a[2], a[2] != a[0])
    return NormalFormGame(
        [np.where(wins, 1.0, -1.0) for wins in match],
        [("Heads", "Tails")] * 3,
        "Three-player matching pennies",
        description="Jordan's game: player 1 wins by matching player 2, player 2 by matching player 3, player 3 by "
        "mismatching player 1 (+1 or -1 each). Its only Nash equilibrium is uniform play, which fictitious play "
        "(Jordan 1993) and regret matching, started elsewhere, circle without reaching.",
        start=((0.9, 0.1), (0.6, 0.4), (0.2, 0.8)),  # (from uniform play, its equilibrium, nothing would move)
    )


def _nau_2x2x2() -> NormalFormGame:
    # Nau, Gomez Canovas & Hansen (2004), "On the geometry of Nash equilibria and correlated equilibria", as Gambit
    # ships it (contrib/games/2x2x2-nau.nfg): each profile's payoffs to players 1, 2 and 3, player 1's action first.
    payoffs = np.zeros((3, 2, 2, 2))
    for profile, values in {
        (0, 0, 0): (0, 0, 2),
        (1, 0, 0): (3, 0, 0),
        (0, 1, 0): (0, 3, 0),
        (0, 0, 1): (1, 1, 0),
        (1, 1, 1): (0, 0, 3),
    }.items():
        payoffs[(slice(None), *profile)] = values
    return NormalFormGame(
        payoffs,
        [("1", "2")] * 3,
        "Nau et al.'s 2x2x2 game",
        description="A 2x2x2 game of Nau, Gomez Canovas & Hansen (2004) with three pure Nash equilibria, two "
        "incompletely mixed ones and a continuum of completely mixed ones.",
    )


def _coordination_3p() -> NormalFormGame:
    same = np.zeros((2, 2, 2))
    same[0, 0, 0], same[1, 1, 1] = 2.0, 1.0
    return NormalFormGame(
        [same] * 3,
        [("A", "B")] * 3,
        "Three-player coordination",
        description="Three players are paid only when all choose alike: 2 each when all choose A, 1 each when all "
        "choose B, 0 otherwise. Both are pure Nash equilibria; which one learning reaches depends on where it starts.",
    )


#: The catalogue's games of three players (:class:`NormalFormGame`), by name; :func:`preset` builds them as it builds
#: those of :data:`PRESETS`.
NORMAL_FORM_PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "matching-pennies-3p",
            "Three-player matching pennies",
            _matching_pennies_3p().description,
            _matching_pennies_3p,
        ),
        Preset("nau-2x2x2", "Nau et al.'s 2x2x2 game", _nau_2x2x2().description, _nau_2x2x2),
        Preset("coordination-3p", "Three-player coordination", _coordination_3p().description, _coordination_3p),
    )
}


def preset(name: str, **params) -> NormalFormGame:
    """Build a game from the catalogue by name: a :class:`MatrixGame` of :data:`PRESETS`, or a
    :class:`NormalFormGame` of three players of :data:`NORMAL_FORM_PRESETS`.

    Parameters
    ----------
    name : str
        One of ``PRESETS`` (``"rps"``, ``"weighted-rps"``, ``"random-zero-sum"``, ...) or of ``NORMAL_FORM_PRESETS``
        (``"matching-pennies-3p"``, ``"nau-2x2x2"``, ``"coordination-3p"``).
    **params
        The preset's parameters, e.g. ``preset("random-zero-sum", rows=4, cols=6, seed=1)``.

    Raises
    ------
    ValueError
        For an unknown name, an unknown parameter or a value out of range.

    >>> preset("weighted-rps", rock_scissors=2).equilibria[0].row
    (0.25, 0.5, 0.25)
    """
    entry = PRESETS.get(name) if isinstance(name, str) else None
    entry = entry or (NORMAL_FORM_PRESETS.get(name) if isinstance(name, str) else None)
    if entry is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join([*PRESETS, *NORMAL_FORM_PRESETS])}")
    known = {p.name for p in entry.parameters}
    unknown = sorted(set(params) - known)
    if unknown:
        accepted = ", ".join(sorted(known)) or "none"
        raise ValueError(f"preset {name!r} has no parameter {unknown[0]!r} (it takes: {accepted})")
    return entry.build(**params)
