"""The typed results of both families: :class:`Policy`, :class:`History`, :class:`Metrics`, :class:`PlayerValues`,
:class:`BestResponse` and :class:`ExactSolution`.

A matrix game and a poker game differ, but what a learner produces does not: a probability for
every action at every information set (for a matrix game the two "information sets" are the row
and the column player), and a metric or two per checkpoint. Both solvers answer with these
records, and :func:`rmcore.nash_conv`, :func:`rmcore.best_response` and :func:`rmcore.solve_exactly` take and return
them for either family, so one chart, one table and one export serve every game. Players are numbered 1 and 2.

Policies are dense ``[infoset, action]`` arrays (OpenSpiel's tabular-policy layout); an
information set with fewer actions than the widest one is padded with zeros, and ``actions``
names each set's own actions.

>>> policy = Policy(np.array([[0.25, 0.75], [1.0, 0.0]]), ("J", "Q"), (("pass", "bet"),) * 2)
>>> policy["J"].tolist(), policy.to_dict()["Q"]
([0.25, 0.75], [1.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import numpy as np

from . import config
from ._deprecated import warn

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Policy",
    "History",
    "Metrics",
    "PlayerValues",
    "BestResponse",
    "ExactSolution",
    "RecordBuffer",
    "concat_records",
    "take_records",
]

Record = TypeVar("Record", bound=NamedTuple)


def concat_records(first: Record, second: Record) -> Record:
    """Field by field ``np.concatenate`` of two records of arrays (NamedTuples of equal type)."""
    return type(first)(*(np.concatenate([a, b]) for a, b in zip(first, second)))


def take_records(record: Record, rows) -> Record:
    """The rows ``rows`` (a mask or indices) of every array of a record."""
    return type(record)(*(field[rows] for field in record))


class RecordBuffer:
    """A solver's checkpoint rows (a record of arrays), with room to grow.

    Each chunk of a run appends its new checkpoints and now and then drops old ones
    (:func:`rmcore.checkpoints.kept`). Copying every row on every call made that the dominant cost of a
    short chunk, on a large game as much as a screen update's whole solver budget. Appends write into spare capacity
    instead; dropping rows or outgrowing the capacity writes a new buffer. So the rows ``[:n]`` that :attr:`rows`
    handed out are never written again, and a view taken earlier keeps its contents.
    """

    # (A Leduc solver holding 800 checkpoints, three arrays of tens of megabytes, spent a screen update's solver budget
    # on the copy.)

    def __init__(self, record: Record, capacity: int = 0):
        """``record`` holds the first rows; ``capacity`` caps the room reserved (the history's ``max_points``)."""
        self._buffer, self._count, self._limit = record, record[0].shape[0], capacity
        self._reserved = 0  # rows the last reserve made room for, not yet committed

    @property
    def iterations(self) -> np.ndarray:
        """The rows' iterations (the record's first field), read-only."""
        return _read_only(self._buffer[0][: self._count])

    @property
    def last_iteration(self) -> int:
        """The last row's iteration (its record's first field), -1 without a row."""
        return int(self._buffer[0][self._count - 1]) if self._count else -1

    @property
    def rows(self) -> Record:
        """The rows so far, as read-only views."""
        return type(self._buffer)(*(_read_only(field[: self._count]) for field in self._buffer))

    def append(self, new: Record) -> None:
        """Append the rows of ``new``, keeping every row held."""
        self._add(True, new)

    def reserve(self, added: int) -> Record:
        """Room for the next ``added`` rows, as writable views into the buffer; :meth:`commit` keeps them.

        A solver's kernel writes a chunk's checkpoints there directly: no record of the chunk's own to allocate, fill
        and copy over. The room holds whatever the memory held (it is not zeroed: a pass over a wide game's fresh rows
        would cost more than their metrics), so a writer fills every element of each row it commits, padding
        included. Rows ``[:n]`` already handed out are not touched: the room lies past them, in a new buffer if it
        must grow.
        """
        end = self._count + added
        if end > self._buffer[0].shape[0]:
            self._buffer = self._grown(end)
        self._reserved = added
        return type(self._buffer)(*(field[self._count : end] for field in self._buffer))

    def commit(self, added: int) -> None:
        """Keep the first ``added`` rows written into the room the last :meth:`reserve` gave."""
        if not 0 <= added <= self._reserved:
            raise ValueError(f"{added} rows were not reserved (the last reserve gave room for {self._reserved})")
        self._count += added
        self._reserved = 0

    def update(self, keep: np.ndarray, new: Record) -> None:
        """Keep the rows where ``keep`` (a mask over :attr:`rows`) is true, then append the rows of ``new``."""
        self._add(bool(keep.all()), new, keep)

    def _add(self, everything: bool, new: Record, keep: np.ndarray | None = None) -> None:
        self._reserved = 0  # (a room reserved before lies under these rows)
        added = new[0].shape[0]
        count = self._count if everything else int(np.count_nonzero(keep))
        total = count + added
        if everything:
            if added == 0:
                return
            if total <= self._buffer[0].shape[0]:  # room to spare: rows [:count] stay as they are
                for field, rows in zip(self._buffer, new):
                    field[count:total] = rows
                self._count = total
                return
        buffer = self._grown(total, keep, count)
        for field, rows in zip(buffer, new):
            field[count:total] = rows
        self._buffer, self._count = buffer, total

    def _grown(self, rows: int, keep: np.ndarray | None = None, kept: int = 0) -> Record:
        """A new buffer with room for at least ``rows`` rows (twice that, up to the capacity; or the whole capacity at
        once when it is small: :data:`WHOLE_BUFFER_BYTES`), holding first the rows held, or the ``kept`` of them where
        ``keep`` is true (copied straight into it); the rest unwritten."""
        held = self.rows
        capacity = max(min(2 * rows, self._limit), rows)
        if self._limit * row_bytes(held) <= WHOLE_BUFFER_BYTES:
            capacity = max(self._limit, rows)
        buffer = type(held)(*(np.empty((capacity, *field.shape[1:]), dtype=field.dtype) for field in held))
        for field, old in zip(buffer, held):
            if keep is None:
                field[: old.shape[0]] = old
            else:
                np.compress(keep, old, axis=0, out=field[:kept])
        return buffer


#: A history whose rows all fit in this many bytes (a default history always does: ``config.DEFAULT_HISTORY_BYTES``)
#: gets its whole buffer at its first row rather than by doubling, so it never copies its rows to grow: each growth
#: copies every row held into fresh memory, whose page faults cost a wide game's default history more than its rows'
#: metrics (``python -m rmcore bench``: "default history"). The buffer's untouched pages take no memory.
WHOLE_BUFFER_BYTES = config.DEFAULT_HISTORY_BYTES


def row_bytes(record: Record) -> int:
    """Bytes one row of ``record`` takes (any number of rows, 0 included): its policies, regrets and metrics."""
    return sum(field.dtype.itemsize * int(np.prod(field.shape[1:], dtype=np.int64)) for field in record)


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class Policy:
    """A probability for every action at every information set.

    Attributes
    ----------
    probabilities : ndarray, shape (infosets, actions)
        Read-only; zero beyond an information set's own actions.
    infosets : tuple of str
        The information sets' names (``"row"`` and ``"col"`` for a matrix game's players).
    actions : tuple of tuple of str
        Each information set's action names.
    """

    probabilities: np.ndarray
    infosets: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]

    def __post_init__(self):
        probabilities = np.array(self.probabilities, dtype=np.float64)  # a copy the caller cannot change
        if probabilities.shape[0] != len(self.infosets) or len(self.actions) != len(self.infosets):
            raise ValueError(
                "a policy needs one row of probabilities and one tuple of action names per information set"
            )
        object.__setattr__(self, "probabilities", _read_only(probabilities))

    def __getitem__(self, infoset: str) -> np.ndarray:
        """The probabilities at ``infoset`` (a copy, its own actions only)."""
        try:
            k = self.infosets.index(infoset)
        except ValueError:
            raise KeyError(f"no information set {infoset!r}; the policy has {', '.join(self.infosets)}") from None
        return self.probabilities[k, : len(self.actions[k])].copy()

    def to_dict(self) -> dict[str, list[float]]:
        """``{infoset: [p(action) ...]}`` in plain Python floats (for JSON)."""
        return {name: [float(p) for p in self[name]] for name in self.infosets}

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Policy)
            and self.infosets == other.infosets
            and self.actions == other.actions
            and np.array_equal(self.probabilities, other.probabilities)
        )

    __hash__ = None  # mutable-looking contents: equal policies need not hash alike


@dataclass(frozen=True, eq=False)
class History:
    """Checkpoints of a run: iterations, both policies and every metric, as arrays with labels.

    Attributes
    ----------
    iterations : ndarray of int64, shape (k,)
        Increasing; the last one is the solver's current iteration.
    average, current : ndarray, shape (k, infosets, actions)
        The average and the current policy at each checkpoint (layout of :class:`Policy`).
    regrets : ndarray, shape (k, infosets, actions)
        The cumulative regrets at each checkpoint (what the current policy is regret matching on),
        so that a replay can show them as they were.
    metrics : mapping of str to ndarray of shape (k,)
        One array per metric, the same names in both families (:data:`rmcore.solver.METRIC_COLUMNS`; NaN where a
        metric does not apply).
    infosets, actions : tuple
        Labels, as in :class:`Policy`.
    gap_name : str
        The metric that says how far the run is from its goal: ``nash_conv`` in self-play, the learner's
        best-response gain (``br_gain_1`` or ``br_gain_2``) against a fixed opponent; what a race plots.
    """

    iterations: np.ndarray
    average: np.ndarray
    current: np.ndarray
    regrets: np.ndarray
    metrics: Mapping[str, np.ndarray]
    infosets: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    gap_name: str

    def __post_init__(self):
        k = self.iterations.shape[0]
        for name, values in self.metrics.items():
            if values.shape != (k,):
                raise ValueError(f"metric {name!r} has shape {values.shape}; expected ({k},)")
        if self.gap_name not in self.metrics:
            raise ValueError(f"gap_name {self.gap_name!r} is not one of the metrics")
        for name in ("average", "current", "regrets"):
            if getattr(self, name).shape[0] != k:
                raise ValueError(f"{name} has {getattr(self, name).shape[0]} rows; expected {k}")
        for array in (self.iterations, self.average, self.current, self.regrets, *self.metrics.values()):
            _read_only(array)
        object.__setattr__(self, "metrics", MetricColumns(self.metrics))

    def __len__(self) -> int:
        return self.iterations.shape[0]

    @property
    def gap(self) -> np.ndarray:
        """The metric named by ``gap_name``."""
        return self.metrics[self.gap_name]

    def strategy(self, kind: str, infoset: str) -> np.ndarray:
        """A ``(k, actions)`` array: the ``kind`` (``"average"`` or ``"current"``) strategy at ``infoset`` over time."""
        if kind not in ("average", "current"):
            raise ValueError(f"kind must be 'average' or 'current'; got {kind!r}")
        k = self.infosets.index(infoset)
        # Column-major, so that each action's series is one contiguous array (JSON encoders walk strided views slowly).
        return np.asfortranarray(getattr(self, kind)[:, k, : len(self.actions[k])])

    def row_at(self, iteration: int) -> int:
        """The index of the last checkpoint at or before ``iteration`` (0 if it precedes them all)."""
        return max(int(np.searchsorted(self.iterations, iteration, side="right")) - 1, 0)

    def policy(self, kind: str = "average", row: int = -1) -> Policy:
        """The ``kind`` policy at checkpoint ``row`` (the last by default)."""
        if kind not in ("average", "current"):
            raise ValueError(f"kind must be 'average' or 'current'; got {kind!r}")
        return Policy(getattr(self, kind)[row], self.infosets, self.actions)

    def rows(self, selection) -> History:
        """A history with only the checkpoints ``selection`` (a mask or increasing indices)."""
        return History(
            self.iterations[selection].copy(),
            self.average[selection].copy(),
            self.current[selection].copy(),
            self.regrets[selection].copy(),
            {name: values[selection].copy() for name, values in self.metrics.items()},
            self.infosets,
            self.actions,
            self.gap_name,
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per checkpoint: ``iteration``, the metrics, then ``{infoset}_{current|average|regrets}[{action}]``.

        For a matrix game that gives ``row_average[Rock]``, ``col_current[Paper]``, ``row_regrets[Rock]``;
        for Kuhn poker ``Kb_average[bet]``.
        """
        import pandas as pd  # imported here: pandas costs 0.3 s at start-up

        columns = {"iteration": self.iterations, **self.metrics}
        for kind in ("current", "average", "regrets"):
            for k, infoset in enumerate(self.infosets):
                for a, action in enumerate(self.actions[k]):
                    columns[f"{infoset}_{kind}[{action}]"] = getattr(self, kind)[:, k, a]
        return pd.DataFrame(columns)


#: Metric names of one release ago and their names now (players are 1 and 2; the game value is ``game_value``).
RENAMED_METRICS = {
    "br_gain_row": "br_gain_1",
    "br_gain_col": "br_gain_2",
    "average_regret_row": "average_regret_1",
    "average_regret_col": "average_regret_2",
    "regret_bound_row": "regret_bound_1",
    "regret_bound_col": "regret_bound_2",
    "value": "game_value",
}


#: Metric columns of one release ago that were half of one kept now (a game tree's history measured exploitability).
HALVED_METRICS = {"exploitability": "nash_conv", "exploitability_current": "nash_conv_current"}


class MetricColumns(Mapping):
    """A history's metrics by name, read-only: one array per metric (a metric's name of one release ago,
    :data:`RENAMED_METRICS` or :data:`HALVED_METRICS`, still finds it, with a ``DeprecationWarning``)."""

    __slots__ = ("_columns",)

    def __init__(self, columns: Mapping[str, np.ndarray]):
        self._columns = dict(columns)

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self._columns[name]
        except KeyError:
            halved = HALVED_METRICS.get(name)
            if halved is not None and halved in self._columns:
                warn(
                    f"the metric {name!r} is deprecated: every history measures {halved!r} (the exploitability of a "
                    f"two-player zero-sum game is {halved} / 2)",
                    stacklevel=3,
                )
                return self._columns[halved] / 2.0
            new = RENAMED_METRICS.get(name)
            if new is None or new not in self._columns:
                raise
            warn(f"the metric {name!r} is now {new!r}", stacklevel=3)
            return self._columns[new]

    def __contains__(self, name) -> bool:
        return name in self._columns

    def __iter__(self):
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def __repr__(self) -> str:
        return f"MetricColumns({list(self._columns)})"


class PlayerValues(tuple):
    """A number (or an array) per player, player 1's first: ``values.player_1``, ``values.player_2``,
    ``values.of(p)`` for any player ``p`` of the game (``None`` where one does not apply, for example a fixed
    opponent's). A two-player game's has two entries; a game of n players' has n.

    >>> PlayerValues(0.5, None, 0.25).of(3)
    0.25
    """

    __slots__ = ()

    def __new__(cls, player_1, player_2=None, *more):
        return tuple.__new__(cls, (player_1, player_2, *more))

    def __getnewargs__(self):
        return tuple(self)

    player_1 = property(lambda self: self[0], doc="Player 1's value.")
    player_2 = property(lambda self: self[1], doc="Player 2's value.")

    def of(self, player: int):
        """Player ``player``'s value (players are numbered 1 to n)."""
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 1 <= player <= len(self):
            raise ValueError(f"player must be one of 1 to {len(self)}, got {player!r}")
        return self[player - 1]

    def __repr__(self) -> str:
        return f"PlayerValues({', '.join(f'player_{p}={value!r}' for p, value in enumerate(self, 1))})"

    @property
    def row(self):
        """Deprecated: :attr:`player_1`."""
        warn("PlayerValues.row is deprecated: use .player_1 (players are 1 and 2)")
        return self.player_1

    @property
    def col(self):
        """Deprecated: :attr:`player_2`."""
        warn("PlayerValues.col is deprecated: use .player_2 (players are 1 and 2)")
        return self.player_2


class Metrics(NamedTuple):
    """How far a solver's average profile is from equilibrium after ``iteration`` iterations: the same record for a
    :class:`~rmcore.MatrixSolver` and a :class:`~rmcore.CFRSolver`.

    Attributes
    ----------
    iteration : int
    nash_conv : float or None
        What the two players together gain by best-responding to the average profile (0 exactly at a Nash
        equilibrium); ``None`` for a matrix game against a fixed opponent, where only one player learns.
    exploitability : float or None
        ``nash_conv / 2``, for a two-player zero-sum game only (OpenSpiel's convention: what a best response gains
        per player); ``None`` where ``nash_conv`` is, and for a general-sum matrix game. Every chart, race and table
        follows ``nash_conv``.
    game_value : float
        Player 1's expected payoff when both play the average profile.
    br_gains : PlayerValues
        What each player gains by switching to a best response (player 2's ``None`` against a fixed matrix opponent).
    learner : int or None
        The learning player (1 or 2) against a fixed opponent; ``None`` in self-play.
    gap_name : str
        The measure a chart or a race follows (``History.gap_name``): ``nash_conv`` in self-play on every game,
        ``br_gain_1`` or ``br_gain_2`` (the learner's gain) against a fixed opponent.
    nash_conv_current : float or None
        The nash_conv of the *current* profile, the one the next iteration plays (the optimistic rules' and MMD's
        converge; RM's and Hedge's cycle); ``None`` against a fixed matrix opponent.
    average_regret, regret_bound : PlayerValues or None
        A matrix game's average positive regret per player and the bound drawn beside it; ``None`` on a game tree.
    cce_gap : float or None
        The distance of a matrix game's empirical joint distribution of play ``sigma`` from the coarse correlated
        equilibria, as OpenSpiel's ``cce_dist`` defines it: the sum over players of ``max(0, max_k u_i(k, sigma_-i) -
        u_i(sigma))`` (:func:`rmcore.cce_gap`); ``None`` where the joint distribution is not kept (zero-sum games
        but for ``swap-rm`` and ``internal-rm``, a fixed opponent, game trees).
    ce_gap : float or None
        Its distance from the correlated equilibria, as OpenSpiel's ``ce_dist``: the sum over players and
        recommended actions j of ``max(0, max_k sum_{a_-i} sigma(j, a_-i) (u_i(k, a_-i) - u_i(j, a_-i)))``
        (:func:`rmcore.ce_gap`); ``None`` where ``cce_gap`` is.
    internal_regret : float or None
        The joint play's largest internal regret per iteration: the largest term of ``ce_gap``, over players, j and
        k; ``None`` where ``cce_gap`` is.
    """

    iteration: int
    nash_conv: float | None
    exploitability: float | None
    game_value: float
    br_gains: PlayerValues
    learner: int | None = None
    gap_name: str = "nash_conv"
    nash_conv_current: float | None = None
    average_regret: PlayerValues | None = None
    regret_bound: PlayerValues | None = None
    cce_gap: float | None = None
    ce_gap: float | None = None
    internal_regret: float | None = None

    @property
    def gap(self) -> float:
        """The measure named by :attr:`gap_name`."""
        name = self.gap_name
        if name == "nash_conv":
            return self.nash_conv
        return self.br_gains[int(name[-1]) - 1]

    @property
    def value(self) -> float:
        """Deprecated: :attr:`game_value`."""
        warn("Metrics.value is deprecated: use .game_value")
        return self.game_value


class BestResponse(NamedTuple):
    """A player's exact best response to the other player's part of a policy (:func:`rmcore.best_response`).

    Attributes
    ----------
    value : float
        The best response's expected payoff, in that player's own payoffs.
    policy : Policy
        The pure best response at the player's information sets; the other player's part as given.
    action_values : ndarray, shape (infosets, actions)
        The counterfactual value of each action at the player's information sets, the best response played below
        (0 at the other player's). On a matrix game: each action's expected payoff against the other's strategy.
    reach : ndarray, shape (infosets,)
        How likely chance and the other player are to let the player reach each of its information sets (0 at the
        other player's; 1 at a matrix game's).
    gain : float
        ``value`` minus what the player's own part of the policy earns: 0 exactly when that part is a best response.
        (Against a fixed opponent given alone, the player's own part is uniform.)
    """

    value: float
    policy: Policy
    action_values: np.ndarray
    reach: np.ndarray
    gain: float = float("nan")


class ExactSolution(NamedTuple):
    """A two-player zero-sum game's exact answer (:func:`rmcore.solve_exactly`).

    Attributes
    ----------
    game_value : float
        Player 1's payoff at equilibrium (the value of the game).
    policy : Policy
        An equilibrium: both players' strategies (a matrix game's over the information sets ``row`` and ``col``).
    nash_conv : float
        That equilibrium's NashConv as the library's own best responses measure it: zero up to the linear program's
        tolerance, the check.
    """

    game_value: float
    policy: Policy
    nash_conv: float
