"""The live-run controller of both pages: a group of runs (an :class:`rmcore.Race`) advanced together, and the
planner that makes the race a page asks for (:class:`RacePlan`) within a session's limits (:func:`within_limits`).

Free of Streamlit so it can be tested on its own. A page keeps one :class:`LiveRun` per browser
session in ``st.session_state`` and calls :meth:`LiveRun.tick` from a fragment that reruns a few
times a second while the page's run flag is on. One variant is a race of one.
"""

from __future__ import annotations

import functools
import math
import time
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from typing import NamedTuple

import rmcore
from rmcore.plotting.charts import chart_rows, mark_iteration

from .explain_app import fewer_checkpoints, fewer_runs, target_lowered


class Speed(NamedTuple):
    """How a running page advances: ``iterations`` per screen update (None: what fits in the time
    budget), one update every ``interval`` seconds."""

    iterations: int | None
    interval: float


#: Seconds between screen updates while the run's solver compiles in the background (it runs as plain Python, or
#: waits): each update costs the server and the browser what a compiled one costs (the figures, the messages, the
#: charts drawn again) while plain Python's progress from one to the next is small, and the compile wants the cores.
COMPILING_INTERVAL = 0.5
#: Seconds between screen updates while running at the normal speeds.
UPDATE_INTERVAL = 0.1
#: The longest a timed update waits for its messages to leave for the browser before its fragment's run ends
#: (``ui.controls``: the next run would drop them unsent).
SEND_WAIT = 0.25
#: Speed choices, slowest first. The slowest let a lecturer talk through every single iteration.
SPEEDS: dict[str, Speed] = {
    "1 iteration a second": Speed(1, 1.0),
    "1 iteration every half second": Speed(1, 0.5),
    "1 per update": Speed(1, UPDATE_INTERVAL),
    "10 per update": Speed(10, UPDATE_INTERVAL),
    "100 per update": Speed(100, UPDATE_INTERVAL),
    "1,000 per update": Speed(1_000, UPDATE_INTERVAL),
    "as fast as possible": Speed(None, UPDATE_INTERVAL),
}
#: Seconds of solver time of a screen update at full speed that answers a click (Run, a setting), shared by all the
#: runs of a race: the answer comes at once, outside the governor's turns. A timed update's budget is the governor's
#: (``ui.governor.fair_budget``: up to 150 ms for a session alone).
TIME_BUDGET = 0.025
#: The longest piece of solver time run without looking for a click: a long budget runs in pieces, and a Pause that
#: arrives meanwhile is answered after the piece running, not after the whole budget.
PIECE = 0.04
#: Most seconds of solver time a link's ``run_to`` may ask for: a larger target is lowered to what fits, with a
#: notice, and the user presses Run to go on (as with any run, under the governor's fair share).
LINK_WORK_SECONDS = 60.0
#: Most bytes the histories of one page's runs may hold: a race of many runs on a large game keeps fewer checkpoints
#: per run (48 runs of 500 rows of Leduc would hold gigabytes).
SESSION_HISTORY_BYTES = 150_000_000
#: Most bytes the solver states of one page's runs may hold: a race of many runs on a large game runs fewer (fewer
#: seeds first, then its last variants), and says so. A run of Liar's dice with six sides holds tens of megabytes, so a
#: race there runs a few; ten variants with twenty seeds each would hold gigabytes.
SESSION_SOLVER_BYTES = 300_000_000
#: The largest game whose history keeps every point of the checkpoint grid on a page (``history_share=None``): a
#: matrix game's cells, a tree's nodes. A row of such a game costs well under a thousandth of a screen update's solver
#: time (a 200x200 game's or Kuhn poker's) and a class stepping through the first iterations
#: sees each of them; a larger game's rows cost as much as several iterations, and its page keeps a tenth of its
#: time for them, as the library does by default (``rmcore.config.HISTORY_SHARE``).
DENSE_HISTORY_CELLS = 40_000
DENSE_HISTORY_NODES = 2_500


def history_share(game) -> float | None:
    """The history share a page's runs of ``game`` keep (see :data:`DENSE_HISTORY_CELLS`)."""
    if isinstance(game, rmcore.NormalFormGame):
        return None if math.prod(game.shape) <= DENSE_HISTORY_CELLS else rmcore.config.HISTORY_SHARE
    return None if game.tree.player.shape[0] <= DENSE_HISTORY_NODES else rmcore.config.HISTORY_SHARE


_MAX_CHUNK = 50_000_000
#: A full-speed chunk that used less than this share of its time budget grows the next (LiveRun._advance).
FILLED = 0.8
#: The most a fitted marginal rate may exceed the best rate (iterations / seconds) of the timed chunks it was fitted to.
GROWTH = 4.0
#: Iterations per second of solver time a new run assumes for each of its runs while its kernels may run as plain
#: Python: a first chunk of one iteration at the full budget (then timed chunks follow what fits).
PLAIN_PYTHON_RATE = 1.0 / TIME_BUDGET
#: Tree nodes a CFR iteration walks per second of CPU: a first guess of a tree game's rate, before a chunk was timed
#: (measured: Leduc's 9,450 nodes 5.7e7 a second, Liar's dice's 294,876 3.7e7; lower, so that a first chunk fits its
#: budget on a busy machine; the next chunks grow). Without it a first chunk of Liar's dice with 6 sides ran 250
#: iterations, seconds long, and the page halved its way down to what fits an update.
CFR_NODES_PER_SECOND = 1e7
#: A chunk shorter than this (seconds of solver time) is not timed: the call's overhead would dominate. Well under
#: the governor's least budget (``governor.MIN_BUDGET``), so that a chunk sized to its budget is always timed.
TIMED_CHUNK = 0.0005

#: Timed chunks a target waits for before it is priced: a run's first iterations cost more than its later ones (a race
#: measures its runs at log-spaced iterations, dense at the start: 53 of them in Rock-Paper-Scissors' first 250), so the
#: first chunk alone priced a link's run_to=1000000 there at minutes and lowered it to a tenth.
PRICED_AFTER = 3


def _never() -> bool:
    return False


class Frame:
    """What one screen update draws, read from the solvers once: every run's history, variant by variant, and (made
    when first asked for: a page of one variant never draws it) the race's table and curves."""

    def __init__(self, iteration: int, histories: list[list[rmcore.History]], race: rmcore.Race):
        self.iteration, self.histories, self._race = iteration, histories, race

    @functools.cached_property
    def race(self) -> rmcore.RaceResult:
        return self._race.result(self.histories)

    @property
    def history(self) -> rmcore.History:
        """The first variant's first run, every checkpoint."""
        return self.histories[0][0]


def _line_through(points) -> tuple[float, float]:
    """The least-squares line ``y = slope * x + intercept`` through ``(x, y)`` points of at least two distinct x."""
    count = len(points)
    mean_x = sum(x for x, _ in points) / count
    mean_y = sum(y for _, y in points) / count
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return slope, mean_y - slope * mean_x


def _change(after, before):
    """``after - before`` for cumulative regrets: one array per player for a matrix game (None for a fixed opponent)."""
    if isinstance(after, tuple):
        return tuple(None if a is None else a - b for a, b in zip(after, before))
    return after - before


#: Every LiveRun alive in this process, held weakly: a session that closed must let go of its runs (benchmarks/load.py).
LIVE_RUNS: weakref.WeakSet = weakref.WeakSet()


class LiveRun:
    """A :class:`rmcore.Race` that advances chunk by chunk within a time budget and knows how fast it goes.

    ``key`` is whatever built it (game and settings): the page starts a new run when its key changes.
    """

    def __init__(self, race: rmcore.Race, key: Hashable = None):
        self.race = race
        self.key = key
        LIVE_RUNS.add(self)
        self.trace: list[rmcore.CFRTrace] | None = None  # the last traced iteration (CFR only) ...
        self.traced_at = 0  # ... and which iteration that was
        self.last_frame: Frame | None = None  # what the page drew last: what an export exports
        self.last_step: tuple[int, object] | None = None  # (iterations, change in the first run's cumulative regrets)
        self.solver_seconds = 0.0  # CPU time spent in the solvers so far
        self.update_seconds = 0.0  # wall time of the screen updates so far: the solvers, the frames and the figures
        # Race iterations per second of solver (CPU) time, refined after every chunk. A race iteration advances every
        # run of the race. It starts lower still while a kernel may run as plain Python (rmcore.compile_in_background),
        # a thousand times slower: a race of 2 on Kuhn takes seconds for a first chunk of 125 iterations there
        # (measured), most of it recording the checkpoints (every iteration is one at first).
        status = self.kernel_status()
        uncertain = status in ("python", "compiling", "failed")
        first_guess = 1e4
        if isinstance(self.primary, rmcore.CFRSolver):  # a large tree: its iterations cost in proportion to its nodes
            first_guess = min(first_guess, CFR_NODES_PER_SECOND / self.primary.game.tree.player.shape[0])
        self._rate = (PLAIN_PYTHON_RATE if uncertain else first_guess) / len(race.solvers)
        self._fixed = 0.0  # estimated seconds of solver time a chunk costs besides its iterations (see _learn)
        self._timed: deque = deque(maxlen=6)  # (iterations, seconds) of recent full-speed chunks ...
        self._timed_status = status  # ... all run on kernels of this status
        self._progress = deque(maxlen=24)  # (wall time, iteration) at recent chunks
        self.target: int | None = None  # an iteration to run to at full speed, then stop (a link's run_to)
        self.target_note: str | None = None  # why the target was lowered, once it was

    @property
    def iteration(self) -> int:
        return self.race.iteration

    @property
    def primary(self):
        """The first variant's first run: the one the page draws in detail."""
        return self.race.solvers[0]

    def kernel_status(self) -> str:
        """The slowest of the runs' kernel statuses: ``"compiling"`` (a chunk waits for the kernels compiling in the
        background), ``"failed"`` (they could not be prepared: small chunks run as plain Python, larger ones never run,
        :meth:`kernels_problem` says why), ``"python"`` (small chunks run as plain Python meanwhile), ``"load"`` (the
        next chunk loads or compiles them) or ``"ready"`` (see ``rmcore.MatrixSolver.kernel_status``)."""
        statuses = {solver.kernel_status for solver in self.race.solvers}
        return next((s for s in ("compiling", "failed", "python", "load") if s in statuses), "ready")

    def kernels_problem(self) -> str | None:
        """Why this run's kernels could not be prepared on this server (``rmcore.kernels_failed``), or None."""
        if self.kernel_status() != "failed":
            return None
        return rmcore.kernels_failed().get(self.primary.family, "no reason given")

    def iterations_now(self) -> int | None:
        """The most iterations a chunk makes now without waiting for a compile (``None``: any number; 0: it waits)."""
        limits = [n for n in (solver.iterations_now() for solver in self.race.solvers) if n is not None]
        return min(limits) if limits else None

    def waits_for_compile(self) -> bool:
        """Whether the run waits, running nothing, for its kernels to compile in the background: even one of its
        iterations as plain Python (a large tree, a wide matrix game) would take longer than a screen update."""
        return self.iterations_now() == 0

    def compile_seconds(self) -> float | None:
        """How long the kernels this run waits for (or runs as plain Python without) have been compiling, as measured
        now; None when they are ready."""
        if self.kernel_status() in ("ready", "load"):
            return None
        return rmcore.compiling().get(self.primary.family)

    @property
    def is_race(self) -> bool:
        return len(self.race.variants) > 1

    def chunk_size(self, speed: int | None, budget: float = TIME_BUDGET) -> int:
        """Iterations for the next update: the chosen count, or what fits in ``budget`` seconds of solver time.

        A chunk of ``n`` iterations costs about ``fixed + n / rate``: the marginal rate buys the iterations, and the
        call's fixed cost (checkpoints, metrics, allocations) is paid once however many run. The chunk gets the budget
        left after the fixed cost, and never less than 40% of the budget's worth of iterations, so that a fixed cost
        near the budget cannot shrink the chunks to one iteration.
        """
        now = self.iterations_now()
        if speed is not None:
            return speed if now is None else min(speed, now)
        marginal_budget = max(budget - self._fixed, 0.4 * budget)
        size = round(min(max(self._rate * marginal_budget, 1), _MAX_CHUNK))
        return size if now is None else min(size, now)

    def tick(self, speed: int | None, budget: float = TIME_BUDGET, interrupted: Callable[[], bool] = _never) -> int:
        """One screen update's worth of iterations for every run (at full speed, ``budget`` seconds' worth); returns how
        many ran.

        At full speed a budget longer than :data:`PIECE` runs in equal pieces of at most that, each sized to its time
        (so the cost model learns from chunks of the size it runs), and stops early once ``interrupted()`` says the
        user asked for something else (a Pause is answered after one piece, not after the budget).
        Toward a :attr:`target` the run goes at full speed and stops there (then ``target`` is None again).
        """
        if not budget > 0:
            raise ValueError(f"budget must be positive seconds, got {budget!r}")
        if self.waits_for_compile():
            self._progress.append((time.perf_counter(), self.iteration))
            return 0
        if self.target is not None:
            speed = None
        if speed is not None:
            size = self.chunk_size(speed, budget)
            self._advance(size)
            return size
        pieces = max(1, math.ceil(budget / PIECE - 1e-9))
        ran = 0
        for piece in range(pieces):
            if piece and interrupted():
                break
            size = self.chunk_size(None, budget / pieces)
            if self.target is not None:
                size = max(min(size, self.target - self.iteration), 0)
            self._advance(size, budget / pieces)
            ran += size
            if self.target is not None:
                self._limit_target()
                if self.iteration >= self.target:
                    self.target = None
                    break
        return ran

    def run_to(self, target: int, budget: float = TIME_BUDGET) -> None:
        """Head for iteration ``target`` in screen updates of ``budget`` seconds (the first one now)."""
        self.target = target
        self.tick(None, budget)

    def _limit_target(self) -> None:
        """Lower a target that would take more than ``LINK_WORK_SECONDS`` of the server's time (its solver time and
        what its screen updates cost besides), once the rate is known (on compiled kernels: plain Python's rate says
        nothing of it), and say why in :attr:`target_note`."""
        if self.target_note is not None or self.kernel_status() != "ready" or len(self._timed) < PRICED_AFTER:
            return
        left = self.target - self.iteration
        # A screen update costs the server more than its solver time (the frames, the figures, the messages): the
        # target is priced at the whole update's cost, as measured so far.
        overhead = max(self.update_seconds / self.solver_seconds, 1.0) if self.solver_seconds > 0 else 1.0
        seconds = left / self._rate * overhead if self._rate > 0 else 0.0
        if seconds <= LINK_WORK_SECONDS:
            return
        asked, self.target = self.target, self.iteration + max(int(self._rate / overhead * LINK_WORK_SECONDS), 1)
        self.target_note = target_lowered(asked, self.race.runs, seconds, self.target)

    def step(self, iterations: int) -> None:
        """Advance exactly ``iterations`` (a Step button). One step of a CFR race is traced for the walkthrough."""
        if iterations == 1 and isinstance(self.primary, rmcore.CFRSolver):
            self.trace = self.race.trace_step()
            self.traced_at = self.iteration
            self._progress.append((time.perf_counter(), self.iteration))
        else:
            self._advance(iterations)

    def _advance(self, iterations: int, budget: float | None = None) -> None:
        """Run ``iterations``; a chunk sized to ``budget`` seconds (full speed) also refines the speed estimate."""
        before = self.primary.cumulative_regrets()
        ran_on = self.kernel_status()
        started = time.thread_time()  # this thread's CPU (the kernels run in it): other sessions' work does not count
        self.race.run(iterations)
        elapsed = time.thread_time() - started
        self.solver_seconds += elapsed
        after = self.primary.cumulative_regrets()
        self.last_step = (iterations, _change(after, before))  # drawn on the regret bars at slow speeds
        if budget is not None:
            self._learn(iterations, elapsed, budget, ran_on)
        self._progress.append((time.perf_counter(), self.iteration))

    def _learn(self, iterations: int, elapsed: float, budget: float, ran_on: str) -> None:
        """Refine the cost model ``elapsed = fixed + iterations / rate`` from a full-speed chunk that began with kernel
        status ``ran_on`` (one during which the status changed, as kernels loaded or finished compiling, is not timed).

        With chunks of at least two sizes among the last few, a least-squares line through (iterations, seconds) gives
        both the marginal rate (its slope) and the fixed cost (its intercept). Sized by ``iterations / elapsed`` alone,
        a Leduc run whose calls each cost 25 ms however few their iterations went 250 -> 3 -> 1 and stayed at one
        iteration per update, a fifth of what its budget allows.
        """
        status = self.kernel_status()
        if status != self._timed_status:  # plain Python and the compiled kernel cost differently
            self._timed.clear()
            self._timed_status = status
        if ran_on != status:  # (the kernels were loaded or compiled during the chunk: priced by such a chunk, a link's
            return  # run_to=900000 on Rock-Paper-Scissors was lowered to a third, as if it took three minutes)
        if (
            elapsed < TIMED_CHUNK
        ):  # too short to time (the clock's resolution): grow, so a low first guess does not stick
            self._rate *= 8.0
            return
        self._timed.append((iterations, elapsed))
        sizes = [float(n) for n, _ in self._timed]
        if max(sizes) >= 1.25 * min(sizes):  # sizes too close together leave the slope to the clock's noise
            slope, intercept = _line_through(self._timed)  # (a few points: plain floats, no numpy call per update)
            if slope > 0 and intercept >= 0:
                self._rate = min(1.0 / slope, self._most_believable_rate())
                self._fixed = min(intercept, min(t for _, t in self._timed))
                return
        marginal = elapsed - self._fixed
        if marginal <= 0:  # the fixed cost was overestimated: it is at most this whole call
            self._fixed, marginal = 0.5 * elapsed, 0.5 * elapsed
        rate = iterations / marginal
        if elapsed < FILLED * budget:
            # A chunk that left its budget unused was sized too small: the next is at least twice as large, and no
            # larger than the budget at this chunk's own rate, which a call without a fixed cost would fill exactly.
            self._rate = max(self._rate, rate, 2.0 * iterations / budget)
        else:  # smoothed, so that one slow chunk (a busy machine) does not starve the next
            self._rate = 0.5 * self._rate + 0.5 * rate
        self._rate = min(self._rate, self._most_believable_rate())

    def _most_believable_rate(self) -> float:
        """GROWTH times the best rate (iterations / seconds) of the timed chunks: the marginal rate beats a chunk's own
        only by what the fixed cost takes. A run's first chunks, whose dense checkpoints cost less per iteration as
        they thin out, otherwise lay a line almost flat (chunks of a few hundred and of a thousand iterations taking
        about the same time): the rate came out thousands of times too high, the next update ran a hundred times its
        budget, and its session then waited seconds for its turn while the others worked that turn off."""
        return GROWTH * max(n / t for n, t in self._timed)

    def iterations_per_second(self) -> float | None:
        """Progress over the last few updates in wall-clock time (None until there are two)."""
        if len(self._progress) < 2:
            return None
        (t0, i0), (t1, i1) = self._progress[0], self._progress[-1]
        return (i1 - i0) / (t1 - t0) if t1 > t0 else None

    def frame(self) -> Frame:
        """Everything a screen update draws: each run's history read once."""
        histories = self.race.histories()
        self.last_frame = Frame(self.iteration, histories, self.race)
        return self.last_frame


# -- the race a page asks for, within the session's limits ------------------------------------------


class RacePlan(NamedTuple):
    """What a page asks to race: the game, its variants, the seeds of each sampled one, and how the runs start; a
    :class:`rmcore.Race` is made from it (:meth:`build`) within the session's limits (:func:`within_limits`)."""

    game: object
    variants: tuple
    seeds: int
    seed: int = 0
    opponent: object = None
    start: object = None
    history_share: float | None = None
    mu: float | None = None  # (internal-rm's inertia; None: the least the game allows)

    def build(self, history_budget: int) -> rmcore.Race:
        """The race, its histories within ``history_budget`` bytes (fewer checkpoints a run where they would not
        fit)."""
        return rmcore.Race(
            self.game,
            self.variants,
            seeds=self.seeds,
            seed=self.seed,
            opponent=self.opponent,
            start=self.start,
            history_budget=history_budget,
            history_share=self.history_share,
            # (a race trimmed to the session's limits may have lost its internal-rm, and the race refuses a lone mu)
            mu=self.mu if any(getattr(v, "algorithm", None) == "internal-rm" for v in self.variants) else None,
        )


def _state_bytes_of_one_run(game) -> int:
    """What one run's solver state holds on ``game`` (measured on a solver made for the purpose)."""
    if isinstance(game, rmcore.NormalFormGame):
        return rmcore.MatrixSolver(game, max_points=0).state_bytes()
    return rmcore.CFRSolver(game, max_points=0).state_bytes()


def _fewer_runs(plan: RacePlan) -> tuple[RacePlan, str | None]:
    """``plan`` with at most as many runs as ``SESSION_SOLVER_BYTES`` holds (fewer seeds first, then its last
    variants, never fewer than one run), and what was cut, in words (None if nothing)."""
    runs = rmcore.Race.planned_runs(plan.game, plan.variants, plan.seeds)
    each = _state_bytes_of_one_run(plan.game)
    allowed = max(1, SESSION_SOLVER_BYTES // max(each, 1))
    if runs <= allowed:
        return plan, None
    variants, seeds = list(plan.variants), plan.seeds
    while seeds > 1 and rmcore.Race.planned_runs(plan.game, variants, seeds) > allowed:
        seeds -= 1
    dropped = []
    while len(variants) > 1 and rmcore.Race.planned_runs(plan.game, variants, seeds) > allowed:
        dropped.insert(0, variants.pop())
    trimmed = plan._replace(variants=tuple(variants), seeds=seeds)
    kept = rmcore.Race.planned_runs(plan.game, variants, seeds)
    labels = [getattr(v, "label", v) for v in dropped]
    return trimmed, fewer_runs(runs, each, SESSION_SOLVER_BYTES, kept, seeds, plan.seeds, labels)


def within_limits(plan: RacePlan) -> tuple[rmcore.Race, list[str]]:
    """The race ``plan`` asks for, within the session's limits: at most ``SESSION_SOLVER_BYTES`` of solver state
    (:func:`_fewer_runs`), and at most ``SESSION_HISTORY_BYTES`` of history (fewer checkpoints per run); and what was
    cut, in words."""
    if not isinstance(plan, RacePlan):
        raise TypeError(f"a race is planned from a RacePlan, not {type(plan).__name__}")
    said = []
    plan, fewer = _fewer_runs(plan)
    if fewer:
        said.append(fewer)
    race = plan.build(SESSION_HISTORY_BYTES)
    points, members = rmcore.config.DEFAULT_MAX_POINTS, rmcore.config.RACE_MEMBER_POINTS
    needed = race.history_bytes(points, members)
    if needed > SESSION_HISTORY_BYTES:
        said.append(
            fewer_checkpoints(
                race.runs, needed, SESSION_HISTORY_BYTES, race.max_points, race.member_points, points, members
            )
        )
    return race, said


class Moment(NamedTuple):
    """What a live panel draws from: the run's frame, its history, the row shown (the replay's, or the last) and its
    iteration when replayed, that row's metrics, the replay's mark for a chart, and the rows the charts draw."""

    frame: object
    history: rmcore.History
    row: int
    shown_at: int | None
    metrics: rmcore.Metrics
    mark: object
    shown: rmcore.History


def moment_of(run: LiveRun, timeline, log_x: bool) -> Moment:
    """The frame of ``run`` and the row the timeline shows, read once for a live panel (the matrix page's, and that of a
    game of three players or more, :mod:`ui.matrix.players`)."""
    frame = run.frame()
    history = frame.history
    row, shown_at = timeline.row(history)
    metrics = run.primary.metrics_at(history, row)
    mark = (lambda spec: spec) if shown_at is None else (lambda spec: mark_iteration(spec, shown_at))  # noqa: E731
    shown = history.rows(chart_rows(history.iterations, log_x))
    return Moment(frame, history, row, shown_at, metrics, mark, shown)
