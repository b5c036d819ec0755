"""What every solver does the same way: run in chunks, keep a bounded history priced by its cost, answer ``metrics()``.

:class:`Runner` is what a solver and a race (:class:`rmcore.Race`) share: the iteration counter and ``run(n)`` in
chunks, each recorded before the next, within ``config.MAX_ITERATIONS``. :class:`Solver` is the rest of a solver: a
solver of a family (:class:`rmcore.MatrixSolver`, :class:`rmcore.CFRSolver`) says how to call its kernel, how large
an iteration and a history row are, and how to read a row into a :class:`~rmcore.History`; this class does the rest:

- ``run(n)`` in chunks of at most ``config.RUN_CHUNK_WORK`` units of work, each recorded before the next (a Ctrl-C
  lands between chunks), any split giving the same results to the last bit;
- checkpoints: the iterations ``checkpoints.checkpoints_between`` lists, iteration 1 and then the multiples of a stride
  chosen so that the rows cost at most ``history_share`` of the run (``config.HISTORY_SHARE``, a tenth): a row of a
  large game costs as much as several iterations, and would otherwise cost more than the solving;
- ``history()``: the checkpoints and the current iteration; ``metrics()``: its last row; ``metrics_at(history, row)``:
  any row's :class:`~rmcore.Metrics`.

Both families' kernels write their history rows into records whose shared fields have the same names (``br_gain_1``,
``br_gain_2``, ``game_value``, ``nash_conv``, ``nash_conv_current``), and this module turns them into the one set of
metric columns, :data:`METRIC_COLUMNS`, and into :class:`~rmcore.Metrics`: NashConv, the sum of the players'
best-response gains (OpenSpiel's definition), is the measure of every game; ``exploitability = nash_conv / 2`` is a
field of :class:`~rmcore.Metrics` for two-player zero-sum games only.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import _runtime, checkpoints, config
from ._guard import exclusive, run_in_chunks
from .records import History, Metrics, PlayerValues, RecordBuffer, concat_records, row_bytes, take_records
from .validation import history_points, whole_number

__all__ = ["Runner", "Solver", "METRIC_COLUMNS", "metrics_of"]

#: Every history's metric columns, the same in both families, in this order (NaN where one does not apply to a run):
#: the average profile's NashConv, the current profile's, each player's best-response gain, player 1's value, then a
#: matrix game's average regrets, the bounds drawn beside them, the CCE and CE gaps of the joint distribution of play,
#: its largest internal regret per iteration and the bound drawn beside it, and a game tree's nodes touched.
METRIC_COLUMNS = (
    "nash_conv",
    "nash_conv_current",
    "br_gain_1",
    "br_gain_2",
    "game_value",
    "average_regret_1",
    "average_regret_2",
    "regret_bound_1",
    "regret_bound_2",
    "cce_gap",
    "ce_gap",
    "internal_regret",
    "internal_regret_bound",
    "nodes_touched",
)


def history_share(value) -> float | None:
    """A validated ``history_share``: a number in ``(0, 1]``, or ``None`` for every checkpoint of the grid."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < float(value) <= 1.0:
        raise ValueError(f"history_share must be a number above 0 and at most 1 (or None), got {value!r}")
    return float(value)


class Runner:
    """An iteration counter and ``run(n)`` in chunks: a subclass provides ``_chunk_iterations()`` (the most iterations
    one chunk runs) and ``_run_chunk(n)``, which runs ``n`` iterations, records them and advances ``_iteration``."""

    _iteration: int = 0

    @property
    def iteration(self) -> int:
        """Iterations run so far."""
        return self._iteration

    def _chunk_iterations(self) -> int:
        raise NotImplementedError

    def _run_chunk(self, iterations: int) -> None:
        raise NotImplementedError

    def run(self, iterations: int) -> None:
        """Advance ``iterations`` iterations (a whole number >= 0); any split of the same total gives the same results.

        Runs in chunks, each recorded before the next: a Ctrl-C lands within a fraction of a second and leaves
        :attr:`iteration` and the state in agreement.
        """
        iterations = whole_number(iterations, "iterations", 0)
        run_in_chunks(self, iterations, self._chunk_iterations())


class Solver(Runner):
    """The run, chunk, history and metrics machinery both solver families share (see the module docstring).

    A subclass sets ``family`` (its kernels' family in ``rmcore/kernels``) and calls :meth:`_start` at the end of its
    constructor, and provides:

    - ``_advance(first, last, points, record) -> int``: run iterations ``first .. last`` through its kernel, writing a
      row of ``record`` after each iteration in ``points``; with ``first > last`` write one row of the state now;
    - ``_empty_record(rows)``: a record with room for ``rows`` rows;
    - ``_iteration_work()`` and ``_row_work()``: an iteration's and a row's arithmetic, in one unit of work, and
      ``_byte_work()``: what a byte of a row written to fresh memory costs compiled code, in that unit;
    - ``_labels()``: the information sets' and their actions' names;
    - ``_family_columns(record)``: the family's own metric columns of :data:`METRIC_COLUMNS` (the shared ones are read
      here from the record's fields of the same names);
    - ``learner``: the learning player (1 or 2) against a fixed opponent, ``None`` in self-play;
    - ``game.is_zero_sum``.
    """

    family: str = ""
    learner: int | None = None

    def _start(self, max_points, share) -> None:
        #: The share of a run's work its history may take (``None``: every point of the grid).
        self.history_share = history_share(share)
        self._iteration = 0
        self._none = self._empty_record(0)  # the rows of a chunk without a checkpoint
        self._row_size = row_bytes(self._none)  # (asked for at every chunk and snapshot, by the row's price)
        self._keep_rows(self._default_points() if max_points is None else max_points)
        self._now = self._empty_record(1)  # the row each snapshot writes again (its readers copy what they keep)

    def _keep_rows(self, max_points: int) -> None:
        """Keep at most ``max_points`` history rows (before the first iteration: a race sets its runs' counts once it
        knows what a row of the game takes, :class:`rmcore.Race`)."""
        if self._iteration:
            raise RuntimeError("a solver's history size is set before its first iteration")
        self.max_points = history_points(max_points)
        self._records = RecordBuffer(self._empty_record(0), self.max_points)

    def row_bytes(self) -> int:
        """The memory one history row takes (the policies and every metric of one checkpoint)."""
        return self._row_size

    def _default_points(self) -> int:
        """``config.DEFAULT_MAX_POINTS``, or as many rows as fit in ``config.DEFAULT_HISTORY_BYTES`` (at least 2)."""
        fit = config.DEFAULT_HISTORY_BYTES // self.row_bytes()
        return int(min(config.DEFAULT_MAX_POINTS, max(2, fit)))

    @property
    def _record(self):
        """The checkpoint rows kept so far (read-only views)."""
        return self._records.rows

    def state_bytes(self) -> int:
        """The memory this solver's state takes: its regrets, policies, sums and the work arrays of its kernel."""
        return sum(part.nbytes for part in self._state if isinstance(part, np.ndarray))

    @property
    def checkpoint_stride(self) -> int:
        """At most one checkpoint every this many iterations (:func:`rmcore.checkpoints.stride_for`)."""
        return checkpoints.stride_for(self._row_price(), self._iteration_work(), self.history_share)

    def _row_price(self) -> float:
        """What a history row costs compiled code, in the unit of ``_iteration_work``: its arithmetic and the fresh
        memory it fills (a wide game's row is tens of kilobytes, each page a fault). A row run as plain Python costs its
        arithmetic."""
        return self._row_work() + self._byte_work() * self.row_bytes()

    @property
    def kernel_status(self) -> str:
        """What runs the next call: ``"ready"`` (compiled code), ``"python"`` (while it compiles in the background,
        a small call runs as plain Python, with the same numbers), ``"compiling"`` (a large call waits for it),
        ``"failed"`` (it could not be compiled or loaded: small calls run as plain Python, a large one raises
        :class:`rmcore.KernelsUnavailable`) or ``"load"`` (the next call loads it from numba's cache, or compiles it);
        see :func:`rmcore.compile_in_background`."""
        status = _runtime.family_status(self.family)
        # The family's status says that it compiles; whether this solver's calls run as plain Python meanwhile or wait
        # depends on the solver's size (a 3x3 game runs thousands of iterations a second as plain Python, Leduc none).
        if status == "compiling" and self.iterations_now():
            return "python"
        return status

    def _twin_exact(self) -> bool:
        """Whether this solver's kernel run as plain Python computes its numbers to the last bit (then it may stand in
        while the family compiles)."""
        return True

    def iterations_now(self) -> int | None:
        """How many iterations a :meth:`run` call makes now without waiting for a compile: ``None`` for any number
        (compiled code runs it, or outside :func:`rmcore.compile_in_background` a call compiles what it needs), else as
        many as run as plain Python while the kernels compile in the background, each with its history row (0: a call
        waits for the compile)."""
        budget = _runtime.twin_budget(self.family)
        if budget is None:
            return None
        if not self._twin_exact():
            return 0
        return int(budget // (self._iteration_work() + self._row_work()))

    #: ``run(n)``, one thread at a time (:func:`rmcore._guard.exclusive`), in chunks of at most
    #: ``config.RUN_CHUNK_WORK`` units of work.
    run = exclusive(Runner.run)

    def _chunk_iterations(self) -> int:
        return max(config.RUN_CHUNK_WORK // max(self._iteration_work(), 1), 1)

    def _run_chunk(self, iterations: int) -> None:
        start, stop = self._iteration, self._iteration + iterations
        stride = self.checkpoint_stride
        points = checkpoints.checkpoints_between(start, stop, self.max_points, stride)
        thins = checkpoints.thins(start, stop, self.max_points, stride)
        if not points.shape[0]:
            rows = self._none
        elif thins:  # (old rows go: the kept ones and these make a new buffer)
            rows = self._empty_record(points.shape[0])
        else:  # the kernel writes the rows where the history keeps them
            rows = self._records.reserve(points.shape[0])
        written = self._advance(start + 1, stop, points, rows)
        assert written == points.shape[0]
        if thins:
            self._records.update(checkpoints.kept(self._records.iterations, stop, self.max_points, stride), rows)
        elif written:
            self._records.commit(written)
        self._iteration = stop

    def _snapshot(self):
        """A one-row record of the state now (computed, not kept; written over by the next snapshot)."""
        self._advance(self._iteration + 1, self._iteration, checkpoints.at(self._iteration), self._now)
        return self._now

    @exclusive
    def history(self) -> History:
        """Checkpoints so far, plus the current iteration (at most ``max_points + 1`` rows)."""
        record = self._record
        if self._iteration > 0 and (record.iteration.shape[0] == 0 or record.iteration[-1] != self._iteration):
            record = concat_records(record, self._snapshot())
        return self.history_of(record)

    @exclusive
    def metrics(self) -> Metrics:
        """The metrics now: the last row of :meth:`history` (computed alone when it is no checkpoint)."""
        if self._iteration > 0 and self._records.last_iteration == self._iteration:
            row = take_records(self._record, slice(-1, None))
        else:
            row = self._snapshot()
        return self._row_metrics(self._iteration, self._metric_columns(row), 0)

    def metrics_at(self, history: History, row: int) -> Metrics:
        """The metrics of checkpoint ``row`` of ``history`` (this solver's, or one of a solver of the same setup): what
        :meth:`metrics` said at that iteration."""
        return self._row_metrics(int(history.iterations[row]), history.metrics, row)

    @property
    def gap_name(self) -> str:
        """The measure a race and a chart follow: ``nash_conv`` in self-play, the learner's ``br_gain_1`` or
        ``br_gain_2`` against a fixed opponent."""
        return "nash_conv" if self.learner is None else f"br_gain_{self.learner}"

    def history_of(self, record) -> History:
        """A :class:`~rmcore.History` from rows the kernel wrote."""
        infosets, actions = self._labels()
        columns = self._metric_columns(record)
        arrays = (record.iteration, record.average, record.current, record.regrets)
        return History(*arrays, columns, infosets, actions, self.gap_name)

    def _metric_columns(self, record) -> dict:
        """Every metric of the rows the kernel wrote (:data:`METRIC_COLUMNS`), one array each, read from the record's
        fields of the same names in either family (NashConv NaN against a fixed matrix opponent)."""
        rows = record.iteration.shape[0]
        columns = {
            "nash_conv": record.nash_conv,
            "nash_conv_current": record.nash_conv_current,
            "br_gain_1": record.br_gain_1,
            "br_gain_2": record.br_gain_2,
            "game_value": record.game_value,
        }
        columns.update(self._family_columns(record))
        return {name: columns[name] if name in columns else np.full(rows, np.nan) for name in METRIC_COLUMNS}

    def _row_metrics(self, iteration: int, columns, row: int) -> Metrics:
        return metrics_of(iteration, columns, row, self.learner, self.game.is_zero_sum)

    def _labels(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        raise NotImplementedError

    def _family_columns(self, record) -> dict:
        raise NotImplementedError


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


# A Metrics from a tuple of all its fields, and a PlayerValues from a pair, without the constructors' checks (as
# ``_make`` does): each the cheaper by a third, a fifth of a Kuhn ``metrics()`` call.
_new_metrics = functools.partial(tuple.__new__, Metrics)
_new_values = functools.partial(tuple.__new__, PlayerValues)


def metrics_of(iteration: int, columns, row: int, learner: int | None, zero_sum: bool) -> Metrics:
    """The :class:`~rmcore.Metrics` of row ``row`` of a history's metric ``columns`` (:data:`METRIC_COLUMNS`), of a
    run whose learner is ``learner`` (``None`` in self-play) on a game that is two-player zero-sum or not."""
    get = {name: float(columns[name][row]) for name in METRIC_COLUMNS}
    nash_conv = _number(get["nash_conv"])
    exploitability = nash_conv / 2.0 if nash_conv is not None and zero_sum else None
    average_regret = regret_bound = None
    if not math.isnan(get["average_regret_1"]):  # (a matrix game's: a game tree's history has none)
        bounds = (get["regret_bound_1"], get["regret_bound_2"]) if iteration else (math.inf, math.inf)
        fixed = math.isnan(get["br_gain_2"])
        average_regret = _new_values((get["average_regret_1"], _number(get["average_regret_2"])))
        regret_bound = _new_values((bounds[0], None if fixed else bounds[1]))
    return _new_metrics(
        (
            iteration,
            nash_conv,
            exploitability,
            get["game_value"],
            _new_values((get["br_gain_1"], _number(get["br_gain_2"]))),
            learner,
            "nash_conv" if learner is None else f"br_gain_{learner}",
            _number(get["nash_conv_current"]),
            average_regret,
            regret_bound,
            _number(get["cce_gap"]),
            _number(get["ce_gap"]),
            _number(get["internal_regret"]),
        )
    )
