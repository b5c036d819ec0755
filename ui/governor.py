"""One server's time, shared fairly among the sessions that are running: who updates next, and with how much solver
time.

Free of Streamlit so it can be tested on its own. Every live fragment's update of a running page takes a
:meth:`Governor.turn` first. At most ``slots`` turns (the cores the server may use) run at once; the others wait
without holding the GIL, so the server's event loop, which sends every session its messages, is never starved.
The next turn goes to the waiting session that has used the least time so far (start-time fair queueing), so a
heavy session (a big game, a race of many variants) gets fewer turns, not more of the machine.

Each turn's solver time is what the server can spare (:func:`fair_budget`): over one ``round`` (the longest a session
should wait between two screen updates), the cores' spare time, less what every running session's update costs
besides its solver (the figures, Streamlit's rerun, the messages), shared equally:

    budget = clamp(headroom * spare_cores * round / running - overhead, min_budget, max_budget)

``spare_cores`` is the cores this process may use less what other processes keep busy on them (a compile, another
server, a browser on the same machine: :class:`ServerMeter`), and ``overhead`` a turn's CPU time outside its solver
(the figures, Streamlit's rerun), both measured as the server runs. What the event loop spends sending the messages
is outside the turns: ``headroom`` leaves room for it. A session alone on a free core gets ``max_budget``, most of each
update; thirty share what is left after their thirty updates' drawing, down to ``min_budget``. The interval between a
session's updates stretches by itself: a session waits for its turn, and Streamlit folds the fragment's timer ticks
that arrive meanwhile into one. A session that asks for something else while it waits (a click: Pause, Step, a
setting; or a closed tab) is let go at once (``interrupted``), so a Pause never queues behind the class; within its
turn the solver runs in pieces and stops between two of them for a click (``ui.live.LiveRun.tick``).

A turn is charged the CPU time its own thread used (``time.thread_time``: the solver, which runs without the GIL, and
the drawing), less the time Python's garbage collector ran in that thread meanwhile. Wall time would also charge the
time the thread waited for the GIL while the event loop sent thirty sessions' charts: one such wait of half a second
puts a session half a second ahead of the others, and fair queueing then keeps it waiting for ~50 turns of each of
them (measured with ``benchmarks/load.py``: one session of thirty without a turn for seven seconds). A full collection
of a server holding 30 sessions takes a tenth of a second of CPU (one every few seconds) and is the process's
housekeeping, not the session's work; charged to the session whose turn it falls in, it kept that session waiting
seconds while the others caught up (1.4 screen updates/s while the others had 3.3).
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from typing import NamedTuple

from .live import LIVE_RUNS

#: The longest a running session should wait between two screen updates, in seconds: the budgets are sized so that
#: every running session updates once a round (4 updates a second and more; fewer only when the sessions' drawing
#: alone fills the cores).
ROUND = 0.25
#: Share of the cores' spare time the turns may fill: the rest is the event loop's, which sends every session its
#: messages outside the turns (about as much CPU as a turn's drawing), and absorbs a collection or a click's update.
HEADROOM = 0.7
#: The most solver time of one update (a session alone): long enough that the drawing is a small part of the update
#: (a Leduc update draws in a fraction of it), short enough that the page still updates 5 times a second.
MAX_BUDGET = 0.15
#: The least solver time of an update, however many sessions run: thousands of 3x3 iterations, one of Liar's dice.
MIN_BUDGET = 0.001
#: A first guess of the server's CPU time per update outside the solver (figures, rerun, messages), until measured.
OVERHEAD_GUESS = 0.02
#: Seconds between two readings of the cores' load (:class:`ServerMeter`).
SAMPLE_EVERY = 0.5
#: A session that has not taken a turn for this long no longer counts as running (paused, closed, or gone).
IDLE_AFTER = 2.0
#: How often a waiting session checks whether its user asked for something else.
POLL = 0.05
#: If set, the governor writes its counters (turns taken, solver CPU seconds, live runs held by sessions) to this file
#: twice a second, for ``benchmarks/load.py`` to tell the solver's share of the server's time from the rest, and to see
#: that a closed session's run is let go.
STATS_FILE = os.environ.get("RM_GOVERNOR_STATS")


class _CollectorClock(threading.local):
    """Seconds Python's garbage collector has run so far in each thread (a ``gc.callbacks`` hook: a collection runs in
    the thread whose allocation set it off)."""

    def __init__(self):
        self.seconds, self._started = 0.0, None

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.thread_time()
        elif self._started is not None:  # collections never nest: the collector holds the GIL throughout
            self.seconds += time.thread_time() - self._started
            self._started = None


_COLLECTOR = _CollectorClock()
gc.callbacks.append(_COLLECTOR)


def collector_seconds() -> float:
    """CPU seconds the garbage collector has run in the calling thread since this module was imported."""
    return _COLLECTOR.seconds


class Turn(NamedTuple):
    """A granted turn: the solver time this update may use, and how many sessions share the server now."""

    budget: float
    running: int


class Load(NamedTuple):
    """What the server can spare, as measured: ``spare_cores`` (the cores this process may use, less what other
    processes keep busy on them: :class:`ServerMeter`) and ``overhead`` (the CPU seconds of a screen update outside
    its solver: the figures and Streamlit's rerun, as the turns measure them)."""

    spare_cores: float
    overhead: float


def fair_budget(
    running: int,
    load: Load,
    *,
    round_seconds: float = ROUND,
    headroom: float = HEADROOM,
    min_budget: float = MIN_BUDGET,
    max_budget: float = MAX_BUDGET,
) -> float:
    """Solver seconds for one update of each of ``running`` sessions, given the server's ``load``.

    Over one round every running session updates once; the cores' spare time in a round (``headroom`` of it), less
    every session's overhead, is shared equally:

        clamp(headroom * spare_cores * round_seconds / running - overhead, min_budget, max_budget)

    Examples
    --------
    >>> round(fair_budget(1, Load(spare_cores=1.0, overhead=0.02)), 3)  # alone on a free core: the most
    0.15
    >>> round(fair_budget(4, Load(spare_cores=1.0, overhead=0.02)), 4)  # 0.7 * 0.25 / 4 - 0.02
    0.0237
    >>> fair_budget(30, Load(spare_cores=1.0, overhead=0.008))  # thirty: the drawing takes the round
    0.001
    """
    if running < 0 or not load.spare_cores >= 0 or not load.overhead >= 0:
        raise ValueError(f"need running >= 0, spare_cores >= 0 and overhead >= 0, got {running!r} and {load!r}")
    share = headroom * load.spare_cores * round_seconds / max(running, 1) - load.overhead
    return min(max_budget, max(min_budget, share))


def _cores_busy(cores: set[int]) -> float | None:
    """CPU seconds the given cores have been busy since boot, read from ``/proc/stat`` (None elsewhere)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            lines = stat.read().splitlines()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    busy = 0
    for line in lines:
        name, *fields = line.split()
        if name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in cores:
            values = [int(v) for v in fields]
            busy += sum(values[:8]) - values[3] - values[4]  # every state but idle and iowait (guests are in user)
    return busy / ticks


def _process_seconds() -> float:
    """CPU seconds this process (all its threads) has used."""
    times = os.times()
    return times.user + times.system


class ServerMeter:
    """Measures the cores this process can spare for its solvers, at most every ``every`` seconds (between readings it
    answers the last one): the cores it may use less what other processes keep busy on them, their busy time
    (``/proc/stat``) less this process's own CPU time, smoothed over a few readings. A process the operating system
    shares a core with fairly gets at least half of it when it asks, so the answer is never below half a core.
    """

    def __init__(
        self,
        cores: set[int] | None = None,
        every: float = SAMPLE_EVERY,
        clock: Callable[[], float] = time.monotonic,
        cores_busy: Callable[[set[int]], float | None] = _cores_busy,
        process_seconds: Callable[[], float] = _process_seconds,
    ):
        self.cores = set(cores) if cores is not None else _affinity()
        self.every, self._clock, self._cores_busy, self._process_seconds = every, clock, cores_busy, process_seconds
        self._last: tuple[float, float | None, float] | None = None  # (time, the cores' busy seconds, this process's)
        self._others = 0.0  # cores other processes keep busy
        self._lock = threading.Lock()  # (turns on two cores ask at once)

    def __call__(self) -> float:
        """The spare cores now."""
        with self._lock:
            now = self._clock()
            if self._last is None or now - self._last[0] >= self.every:
                reading = (now, self._cores_busy(self.cores), self._process_seconds())
                if self._last is not None:
                    self._learn(self._last, reading)
                self._last = reading
            return max(len(self.cores) - self._others, min(0.5, len(self.cores)))

    def _learn(self, before, after) -> None:
        (t0, busy0, own0), (t1, busy1, own1) = before, after
        wall = t1 - t0
        if wall > 0 and busy0 is not None and busy1 is not None:
            others = max(0.0, (busy1 - busy0) - (own1 - own0)) / wall
            self._others = 0.5 * self._others + 0.5 * min(others, len(self.cores))


def _affinity() -> set[int]:
    try:
        return set(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return set(range(os.cpu_count() or 1))


def available_cores() -> int:
    """The cores this process may run on (a ``taskset`` pin counts)."""
    return len(_affinity())


class Governor:
    """Fair turns and budgets of what the server can spare, for the running sessions of one server (thread-safe).

    Parameters
    ----------
    slots
        Turns that may run at once (default: the available cores).
    meter
        ``meter()`` answers the cores the server can spare now (default: a :class:`ServerMeter` of this process's
        cores); a test passes its own.
    clock
        Seconds, monotonic: when sessions last asked (who counts as running); a test passes its own.
    work_clock
        Seconds of work the calling thread has done (default: its CPU time), what a turn is charged; a test passes its
        own.
    housekeeping
        Seconds of the calling thread's housekeeping so far (default: :func:`collector_seconds`), not charged to the
        turn it falls in; a test passes its own.
    """

    def __init__(
        self,
        slots: int | None = None,
        *,
        meter: Callable[[], float] | None = None,
        round_seconds: float = ROUND,
        headroom: float = HEADROOM,
        min_budget: float = MIN_BUDGET,
        max_budget: float = MAX_BUDGET,
        idle_after: float = IDLE_AFTER,
        clock: Callable[[], float] = time.perf_counter,
        work_clock: Callable[[], float] = time.thread_time,
        housekeeping: Callable[[], float] = collector_seconds,
    ):
        self.slots = available_cores() if slots is None else int(slots)
        if self.slots < 1:
            raise ValueError(f"slots must be at least 1, got {slots!r}")
        if not 0 < min_budget <= max_budget:
            raise ValueError(f"need 0 < min_budget <= max_budget, got {min_budget!r} and {max_budget!r}")
        if not (round_seconds > 0 and 0 < headroom <= 1):
            raise ValueError(f"need round_seconds > 0 and 0 < headroom <= 1, got {round_seconds!r} and {headroom!r}")
        self.min_budget, self.max_budget = min_budget, max_budget
        self.round_seconds, self.headroom, self.idle_after = round_seconds, headroom, idle_after
        self._meter = meter if meter is not None else ServerMeter()
        self._clock, self._work_clock, self._housekeeping = clock, work_clock, housekeeping
        self._lock = threading.Lock()
        self._busy = 0  # turns being taken now
        self._used: dict[Hashable, float] = {}  # each session's virtual time: seconds of turns taken (fair queueing)
        self._last_seen: dict[Hashable, float] = {}  # when each session last asked for a turn
        self._waiting: dict[Hashable, tuple[float, threading.Event]] = {}  # session -> (its virtual time, its wake-up)
        self.turns = 0  # turns taken since the server started
        self.solver_seconds = 0.0  # solver CPU time used in them
        self._turn_charge = 0.0  # the longest turn charged among the last few (decays: budgets change with the load)
        self.overhead = OVERHEAD_GUESS  # a turn's CPU time outside its solver, smoothed over the last few turns
        self._in_turn = threading.local()  # .solver: solver seconds of the calling thread's turn so far

    # -- what the sessions see ---------------------------------------------------------------------

    def running(self) -> int:
        """Sessions that asked for a turn within the last ``idle_after`` seconds."""
        with self._lock:
            return self._running_locked()

    def load(self) -> Load:
        """What the server can spare now: its spare cores (see :class:`ServerMeter`) and the overhead of an update."""
        return Load(self._meter(), self.overhead)

    def budget(self, running: int | None = None) -> float:
        """Solver seconds for one update when ``running`` sessions (default: now) share the server
        (:func:`fair_budget` of the load now)."""
        count = self.running() if running is None else running
        return fair_budget(
            count,
            self.load(),
            round_seconds=self.round_seconds,
            headroom=self.headroom,
            min_budget=self.min_budget,
            max_budget=self.max_budget,
        )

    @contextlib.contextmanager
    def turn(self, session: Hashable, interrupted: Callable[[], bool] = lambda: False) -> Iterator[Turn | None]:
        """Wait for ``session``'s turn and hold it for the ``with`` block; yields None if ``interrupted()`` became
        true while waiting (the session then should do no work: its user asked for something else)."""
        if not self._acquire(session, interrupted):
            yield None
            return
        started, housekept = self._work_clock(), self._housekeeping()
        self._in_turn.solver = 0.0
        try:
            count = self.running()
            yield Turn(self.budget(count), count)
        finally:
            charged = max(0.0, self._work_clock() - started - (self._housekeeping() - housekept))
            if self._in_turn.solver > 0:  # (a turn that ran no solver, waiting for a compile, says nothing of it)
                outside = max(charged - self._in_turn.solver, 0.0)
                with self._lock:
                    self.overhead = 0.8 * self.overhead + 0.2 * min(outside, 1.0)
            self._release(session, charged)

    def solver_used(self, seconds: float) -> None:
        """Count ``seconds`` of solver CPU time used in the calling thread's turn."""
        self._in_turn.solver = getattr(self._in_turn, "solver", 0.0) + seconds
        with self._lock:
            self.solver_seconds += seconds

    def leave(self, session: Hashable) -> None:
        """``session`` stopped running (paused): it no longer counts, and budgets recover at once."""
        with self._lock:
            self._last_seen.pop(session, None)
            self._used.pop(session, None)

    # -- the queue ----------------------------------------------------------------------------------

    def _running_locked(self) -> int:
        now = self._clock()
        for session in [
            s for s, seen in self._last_seen.items() if now - seen > self.idle_after and s not in self._waiting
        ]:
            del self._last_seen[session]
            self._used.pop(session, None)
        return len(self._last_seen)

    def _acquire(self, session: Hashable, interrupted: Callable[[], bool]) -> bool:
        with self._lock:
            self._last_seen[session] = self._clock()
            self._running_locked()
            # A session that (re)joins starts level with the least-served of the others: no catching up on time
            # it did not ask for, and no falling behind the sessions already running. A running session keeps up to
            # one full turn (the longest charged lately) of lag behind them: it cannot be waiting when its own turn
            # ends, so a session that asks again at once is always a turn behind; levelled up each time, a light
            # session lost that turn's worth again and again (measured: a session of turns half as long as two others'
            # got less of the time than either of them).
            floor = min((used for s, used in self._used.items() if s != session), default=0.0)
            self._used[session] = max(self._used.get(session, floor), floor - self._turn_charge)
            if self._busy < self.slots and not self._waiting:
                self._busy += 1
                return True
            ticket = threading.Event()  # each waiter sleeps on its own: a release wakes one session, not all
            self._waiting[session] = (self._used[session], ticket)
        while not ticket.wait(POLL):
            if interrupted():
                with self._lock:
                    if not ticket.is_set():  # else the turn came in the meantime: take it
                        del self._waiting[session]
                        return False
                break
        return True

    def _release(self, session: Hashable, seconds: float) -> None:
        with self._lock:
            self._busy -= 1
            self.turns += 1
            self._turn_charge = max(seconds, 0.9 * self._turn_charge)
            if session in self._last_seen:
                self._used[session] = self._used.get(session, 0.0) + seconds
                self._last_seen[session] = self._clock()
            if self._waiting:  # the turn goes to the waiting session that has used the least time
                first = min(self._waiting, key=lambda s: (self._waiting[s][0], str(s)))
                _, ticket = self._waiting.pop(first)
                self._last_seen[first] = self._clock()
                self._busy += 1
                ticket.set()

    def report(self, path: str, every: float = 0.5) -> None:
        """Write ``turns solver_seconds live_runs`` to ``path`` every ``every`` seconds, in a thread of its own (also
        while no session runs: a measurement reads the live runs after every session has closed).

        While no session runs it first collects cyclic garbage, so that ``live_runs`` counts the runs still reachable:
        an expired session is a cycle of objects, which a quiet server would otherwise leave to Python's next automatic
        collection (a full collection holds the GIL for tens of milliseconds: never while a measurement counts).
        """

        def write():
            while True:
                if not self.running():
                    gc.collect()
                with open(path, "w") as out:
                    out.write(f"{self.turns} {self.solver_seconds!r} {len(LIVE_RUNS)}\n")
                time.sleep(every)

        threading.Thread(target=write, name="governor stats", daemon=True).start()


#: The one governor of this server process, shared by every session.
GOVERNOR = Governor()
if STATS_FILE:
    GOVERNOR.report(STATS_FILE)
