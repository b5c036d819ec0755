"""What every solver does the same way: run in chunks, keep a bounded history priced by its cost, answer ``metrics()``.

:class:`Runner` is what a solver and a race (:class:`rmcore.Race`) share: the iteration counter and ``run(n)`` in
chunks, each recorded before the next, within ``config.MAX_ITERATIONS``. :class:`Solver` is the rest of a solver: a
solver of a family (:class:`rmcore.MatrixSolver`, :class:`rmcore.CFRSolver`) says how to call its kernel, how large
an iteration and a history row are, and how to read a row into a :class:`~rmcore.History`; this class does the rest:

- ``run(n)`` in chunks of at most ``config.RUN_CHUNK_WORK`` units of work, each recorded before the next (a Ctrl-C
  lands between chunks), any split giving the same results to the last bit;
- checkpoints: the iterations ``checkpoints.checkpoints_between`` lists, iteration 1 and then the multiples of a stride
  chosen so that the rows cost at most ``history_share`` of the run (``config.HISTORY_SHARE``, a tenth): a row of a
  large game costs as much as several iterations, and would otherwise cost more than the solving. What a row costs is
  measured, once a process for each kind of solver (:func:`measured_row_cost`), and the stride is fixed by a solver's
  first chunk: chunked runs and one call record the same rows, and solvers of one kind in one process the same;
- ``history()``: the checkpoints and the current iteration; ``metrics()``: its last row; ``metrics_at(history, row)``:
  any row's :class:`~rmcore.Metrics`.

Both families' kernels write their history rows into records whose shared fields have the same names (``br_gain_1``,
``br_gain_2``, ``game_value``, ``nash_conv``, ``nash_conv_current``), and this module turns them into the one set of
metric columns, :data:`METRIC_COLUMNS`, and into :class:`~rmcore.Metrics`: NashConv, the sum of the players'
best-response gains (OpenSpiel's definition), is the measure of every game; ``exploitability = nash_conv / 2`` is a
field of :class:`~rmcore.Metrics` for two-player zero-sum games only.
"""

from __future__ import annotations

import copy
import functools
import math
import mmap
import statistics
import threading
import time

import numpy as np

from . import _runtime, checkpoints, config
from ._guard import exclusive, run_in_chunks
from .kernels import aligned
from .records import History, Metrics, PlayerValues, RecordBuffer, concat_records, row_bytes, take_records
from .validation import history_points, whole_number

__all__ = ["Runner", "Solver", "METRIC_COLUMNS", "metrics_of", "measured_row_cost"]

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
    - ``_iteration_work()`` and ``_row_operations()``: an iteration's and a row's operation counts, in one unit (a
      matrix game's entries read, a tree's node visits): counts, not times, they size chunks and what runs as plain
      Python while a family compiles;
    - ``_cost_key()``: what sets a row's cost beside an iteration's (the family, the kernel's variant, the game's size,
      the row's bytes), the key of :func:`measured_row_cost`;
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
        self._row_size = row_bytes(self._none)
        self._stride = None  # (fixed by the first chunk that runs: checkpoint_stride)
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
        """At most one checkpoint every this many iterations after the first: :func:`rmcore.checkpoints.stride_for`
        of a row's cost in iterations as this process measured it for this kind of solver (:func:`measured_row_cost`),
        so that the rows take at most ``history_share`` of any run of at least one stride.

        Fixed by the first chunk that runs, and the same for every solver of one kind in a process. 1 (every point of
        the grid) with ``history_share=None`` or ``max_points=0``, and for a solver whose first chunk runs as plain
        Python while its family compiles (:attr:`kernel_status` ``"python"``): no compiled code is there to time, and
        a game small enough for plain Python is one whose page keeps every point anyway.
        """
        if self._stride is not None:
            return self._stride
        if self.history_share is None or self.max_points == 0:
            return 1
        if _runtime.twin_budget(self.family) is not None:  # (plain Python runs the chunk, or the call waits)
            return 1
        return checkpoints.stride_for(measured_row_cost(self), 1.0, self.history_share)

    def _cost_key(self) -> tuple:
        raise NotImplementedError

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
        return int(budget // (self._iteration_work() + self._row_operations()))

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
        self._stride = stride

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
        # Players 3 to n's best-response gains, in either family's record (none for two players).
        columns.update((f"br_gain_{p}", gains) for p, gains in enumerate(record.more_br_gains.T, 3))
        result = {name: columns[name] if name in columns else np.full(rows, np.nan) for name in METRIC_COLUMNS}
        # Players 3 to n of a game of n >= 3 players: the per-player columns again, numbered on (br_gain_3, ...).
        result.update((name, column) for name, column in columns.items() if _is_later_player_column(name))
        return result

    def _row_metrics(self, iteration: int, columns, row: int) -> Metrics:
        two_player_zero_sum = self.game.is_two_player_zero_sum  # (exploitability's)
        return metrics_of(iteration, columns, row, self.learner, two_player_zero_sum)

    def _labels(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        raise NotImplementedError

    def _family_columns(self, record) -> dict:
        raise NotImplementedError


#: A history row's cost in iterations, per kind of solver (``Solver._cost_key``), as this process measured it.
_row_costs: dict[tuple, float] = {}
_row_costs_lock = threading.Lock()


def measured_row_cost(solver: Solver) -> float:
    """What a history row costs ``solver``'s kind of solver where a default run records it, in its iterations: measured
    on compiled code the first time a process asks for that kind, then remembered, so that every solver of one kind
    in a process spaces its rows alike.

    The kind is what sets the cost beside an iteration's: the family, the kernel's variant, the game's size and the
    row's bytes (``Solver._cost_key``). The measurement times the solver's own kernel on a copy of its state (see
    :func:`_measure_row_cost`) for ``config.ROW_COST_SECONDS`` or ``config.ROW_COST_ROWS`` rows' time, whichever is
    longer.
    """
    if not isinstance(solver, Solver):
        raise ValueError(f"measured_row_cost takes a solver (MatrixSolver or CFRSolver), got {type(solver).__name__}")
    key = solver._cost_key()
    with _row_costs_lock:  # (one measurement of a kind at a time: a second thread waits for the first's)
        cost = _row_costs.get(key)
        if cost is None:
            cost = _row_costs[key] = _measure_row_cost(solver)
    return cost


def _scratch(solver: Solver) -> Solver:
    """A copy of ``solver`` whose kernel may run without touching the original: its state copied, each array on a cache
    line's boundary as a solver's own are (``kernels.aligned``: a copy elsewhere may run at another speed), its game
    and payoffs (read-only) and its thread guard shared."""
    shared = [solver.game, *getattr(solver.game, "tree", ()), *getattr(solver, "_payoffs", ())]
    memo = {id(part): part for part in [*shared, solver.__dict__.get("_guard_lock")] if part is not None}
    memo.update({id(part): aligned(part) for part in solver._state if isinstance(part, np.ndarray)})
    return copy.deepcopy(solver, memo)


def _measure_row_cost(solver: Solver) -> float:
    """A history row's cost in ``solver``'s iterations where a default run records it, timed on compiled code.

    A default run writes a row every stride, many iterations apart, into the fresh memory of its history's buffer
    (each new page a fault). So this times runs that write ``rows`` rows ``spacing`` iterations apart (a few rows' cost,
    from a first guess: rows back to back), each into memory not touched before, against runs of the same iterations
    writing none, on a copy of the solver's state. A turn is one of each, in alternating order; its cost is the
    difference per row over its plain run's time per iteration, and the cost is the median of the turns'. Each run
    lasts about half a millisecond where the game allows, so that a call's own overhead (microseconds) counts for
    little, and is timed in this thread's processor time: on a busy machine another process that takes the core for
    milliseconds is not counted. The whole lasts ``config.ROW_COST_SECONDS`` or ``config.ROW_COST_ROWS`` rows' time,
    whichever is longer, and four turns at least: on Liar's dice with six sides, whose rows are several of its
    iterations each, about fifty of its iterations' time.
    """
    clock = time.thread_time  # (this thread's processor time: what another process takes meanwhile is not counted)
    scratch = _scratch(solver)
    done = 0  # iterations the copy has run

    def timed(iterations: int, rows, spacing: int = 1) -> float:
        """Seconds to run ``iterations`` iterations, writing into the record ``rows`` (``None``: none) a row after every
        ``spacing``-th of the last ones, as many as it holds."""
        nonlocal done
        first, last = done + 1, done + iterations
        written = 0 if rows is None else rows[0].shape[0]
        points = last - spacing * np.arange(written - 1, -1, -1, dtype=np.int64)
        started = clock()
        scratch._advance(first, last, points, scratch._none if rows is None else rows)
        seconds = clock() - started
        done = last
        return seconds

    def fresh(rows: int):
        """A record of ``rows`` rows in memory just mapped, its pages untouched as a history's buffer's are (an array
        from the allocator may reuse pages freed earlier, already faulted in)."""
        empty = scratch._empty_record(0)
        fields = []
        for field in empty:
            shape = (rows, *field.shape[1:])
            count = math.prod(shape)
            memory = mmap.mmap(-1, max(count * field.dtype.itemsize, 1))
            fields.append(np.frombuffer(memory, field.dtype, count=count).reshape(shape))
        return type(empty)(*fields)

    timed(1, fresh(1))  # (loads the compiled kernel where this process has not yet)
    began = clock()
    iterations = 1
    while (seconds := timed(iterations, None)) < 1e-3 and iterations < 2**24:  # (a millisecond's run)
        iterations *= 4
    iteration = min(seconds, timed(iterations, None)) / iterations
    # The first guess: rows back to back (at most 8 MB of them), each taking a row's time and an iteration's.
    dense = max(1, min(iterations, 2**23 // solver.row_bytes()))
    row = max(0.0, timed(dense, fresh(dense)) / dense - iteration)
    budget = max(config.ROW_COST_SECONDS, config.ROW_COST_ROWS * row)
    # Rows about a fifth of a run (measurable, yet apart), a turn (both runs) a sixth of the budget at most, and a run
    # of half a millisecond where that fits.
    spacing = max(2, math.ceil(4.0 * row / iteration))
    spacing = max(1, min(spacing, int((budget / 6.0 - row) / (2.0 * iteration))))
    rows = min(math.ceil(0.5e-3 / (spacing * iteration + row)), int(budget / 6.0 / (2.0 * spacing * iteration + row)))
    rows = max(1, rows)
    costs = []
    while len(costs) < 4 or (clock() - began < budget and len(costs) < 32):
        record = fresh(rows)
        if len(costs) % 2:  # (each turn in the other order than the last)
            recorded, plain = timed(spacing * rows, record, spacing), timed(spacing * rows, None)
        else:
            plain, recorded = timed(spacing * rows, None), timed(spacing * rows, record, spacing)
        costs.append((recorded - plain) / rows / (max(plain, 1e-9) / (spacing * rows)))
    return max(0.0, statistics.median(costs))


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


# A Metrics from a tuple of all its fields, and a PlayerValues from a sequence, without the constructors' checks (as
# ``_make`` does): each the cheaper by a third, a fifth of a Kuhn ``metrics()`` call.
_new_metrics = functools.partial(tuple.__new__, Metrics)
_new_values = functools.partial(tuple.__new__, PlayerValues)


#: The per-player metrics, which a game of n >= 3 players has again for players 3 to n (``br_gain_3``, ...).
PER_PLAYER_COLUMNS = ("br_gain", "average_regret", "regret_bound")


def _is_later_player_column(name: str) -> bool:
    stem, _, number = name.rpartition("_")
    return stem in PER_PLAYER_COLUMNS and number.isdigit() and int(number) > 2


def _per_player(get: dict, columns, row: int, stem: str) -> list:
    """``stem``'s value for players 1, 2, ... of a metrics row (``None`` for NaN: a player who does not learn)."""
    values = [_number(get[f"{stem}_1"]), _number(get[f"{stem}_2"])]
    while f"{stem}_{len(values) + 1}" in columns:
        values.append(_number(float(columns[f"{stem}_{len(values) + 1}"][row])))
    return values


def metrics_of(iteration: int, columns, row: int, learner: int | None, zero_sum: bool) -> Metrics:
    """The :class:`~rmcore.Metrics` of row ``row`` of a history's metric ``columns`` (:data:`METRIC_COLUMNS`, and for
    a game of n >= 3 players the per-player columns of players 3 to n), of a run whose learner is ``learner``
    (``None`` in self-play) on a game that is two-player zero-sum or not."""
    get = {name: float(columns[name][row]) for name in METRIC_COLUMNS}
    nash_conv = _number(get["nash_conv"])
    exploitability = nash_conv / 2.0 if nash_conv is not None and zero_sum else None
    average_regret = regret_bound = None
    gains = _per_player(get, columns, row, "br_gain")
    # (a matrix game's, whose player 1 learns unless three players or more are played: a game tree's history has none)
    if not math.isnan(get["average_regret_1"]) or "average_regret_3" in columns:
        average_regret = _new_values(_per_player(get, columns, row, "average_regret"))
        bounds = [get["regret_bound_1"], get["regret_bound_2"]]
        while f"regret_bound_{len(bounds) + 1}" in columns:
            bounds.append(float(columns[f"regret_bound_{len(bounds) + 1}"][row]))
        if not iteration:
            bounds = [math.inf] * len(bounds)
        # (none for a player who does not learn; NaN for a rule that has no bound)
        regret_bound = _new_values([None if gain is None else bound for gain, bound in zip(gains, bounds)])
    return _new_metrics(
        (
            iteration,
            nash_conv,
            exploitability,
            get["game_value"],
            _new_values(gains),
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
