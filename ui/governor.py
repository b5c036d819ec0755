"""One server's time, shared fairly among the sessions that are running: who updates next, and with how much solver
time.

Free of Streamlit so it can be tested on its own. Every live fragment's update of a running page takes a
:meth:`Governor.turn` first. At most ``slots`` turns (the cores the server may use) run at once; the others wait
without holding the GIL, so the server's event loop, which sends every session its messages, is never starved.
The next turn goes to the waiting session that has used the least time so far (start-time fair queueing), so a
heavy session (a big game, a race of many variants) gets fewer turns, not more of the machine.

The solver's share of each turn shrinks as more sessions run, so that updates stay frequent:

    budget = clamp(solver_share * slots * update_interval / running, min_budget, time_budget)

With one session that is the full ``time_budget``; with 30 on one core, ``min_budget``. The interval between a
session's updates stretches by itself: a session waits for its turn, and Streamlit folds the fragment's timer ticks
that arrive meanwhile into one. A session that asks for something else while it waits (a click: Pause, Step, a
setting; or a closed tab) is let go at once (``interrupted``), so a Pause never queues behind the class.

A turn is charged the CPU time its own thread used (``time.thread_time``: the solver, which runs without the GIL, and
the drawing), less the time Python's garbage collector ran in that thread meanwhile. Wall time would also charge the
time the thread waited for the GIL while the event loop sent thirty sessions' charts: one such wait of half a second
puts a session half a second ahead of the others, and fair queueing then keeps it waiting for ~50 turns of each of
them (measured with ``benchmarks/load.py``: one session of thirty without a turn for seven seconds). A full collection
of a server holding 30 sessions takes about 90 ms of CPU (one every 2-3 s) and is the process's housekeeping, not the
session's work; charged to the session whose turn it falls in, it kept that session waiting 3.6 s while the others
caught up (1.4 screen updates/s while the others had 3.3).
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from typing import NamedTuple

from .live import LIVE_RUNS, TIME_BUDGET, UPDATE_INTERVAL

#: Share of the server's cores the solvers may use together; the rest draws and sends the charts. ``RM_SOLVER_SHARE``
#: overrides it, for a measurement that must get many sessions far quickly (``benchmarks/load.py``: memory past 1e8
#: iterations).
SOLVER_SHARE = float(os.environ.get("RM_SOLVER_SHARE", 0.5))
#: The least solver time of an update, however many sessions run: a few hundred thousand 3x3 iterations.
MIN_BUDGET = 0.002
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


def available_cores() -> int:
    """The cores this process may run on (a ``taskset`` pin counts)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class Governor:
    """Fair turns and shrinking budgets for the running sessions of one server (thread-safe).

    Parameters
    ----------
    slots
        Turns that may run at once (default: the available cores).
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
        time_budget: float = TIME_BUDGET,
        min_budget: float = MIN_BUDGET,
        solver_share: float = SOLVER_SHARE,
        update_interval: float = UPDATE_INTERVAL,
        idle_after: float = IDLE_AFTER,
        clock: Callable[[], float] = time.perf_counter,
        work_clock: Callable[[], float] = time.thread_time,
        housekeeping: Callable[[], float] = collector_seconds,
    ):
        self.slots = available_cores() if slots is None else int(slots)
        if self.slots < 1:
            raise ValueError(f"slots must be at least 1, got {slots!r}")
        if not 0 < min_budget <= time_budget:
            raise ValueError(f"need 0 < min_budget <= time_budget, got {min_budget!r} and {time_budget!r}")
        self.time_budget, self.min_budget = time_budget, min_budget
        self.solver_share, self.update_interval, self.idle_after = solver_share, update_interval, idle_after
        self._clock, self._work_clock, self._housekeeping = clock, work_clock, housekeeping
        self._lock = threading.Lock()
        self._busy = 0  # turns being taken now
        self._used: dict[Hashable, float] = {}  # each session's virtual time: seconds of turns taken (fair queueing)
        self._last_seen: dict[Hashable, float] = {}  # when each session last asked for a turn
        self._waiting: dict[Hashable, tuple[float, threading.Event]] = {}  # session -> (its virtual time, its wake-up)
        self.turns = 0  # turns taken since the server started
        self.solver_seconds = 0.0  # solver CPU time used in them

    # -- what the sessions see ---------------------------------------------------------------------

    def running(self) -> int:
        """Sessions that asked for a turn within the last ``idle_after`` seconds."""
        with self._lock:
            return self._running_locked()

    def budget(self, running: int | None = None) -> float:
        """Solver seconds for one update when ``running`` sessions (default: now) share the server."""
        count = self.running() if running is None else running
        fair = self.solver_share * self.slots * self.update_interval / max(count, 1)
        return min(self.time_budget, max(self.min_budget, fair))

    @contextlib.contextmanager
    def turn(self, session: Hashable, interrupted: Callable[[], bool] = lambda: False) -> Iterator[Turn | None]:
        """Wait for ``session``'s turn and hold it for the ``with`` block; yields None if ``interrupted()`` became
        true while waiting (the session then should do no work: its user asked for something else)."""
        if not self._acquire(session, interrupted):
            yield None
            return
        started, housekept = self._work_clock(), self._housekeeping()
        try:
            count = self.running()
            yield Turn(self.budget(count), count)
        finally:
            self._release(session, max(0.0, self._work_clock() - started - (self._housekeeping() - housekept)))

    def solver_used(self, seconds: float) -> None:
        """Count ``seconds`` of solver CPU time used in a turn."""
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
            # one full turn (time_budget) of lag behind them: it cannot be waiting when its own turn ends, so a
            # session that asks again at once is always a turn behind; levelled up each time, a light session lost
            # that turn's worth again and again (measured: 2 ms turns against two sessions of 4 ms got 0.41 s of
            # 1.5 s against their 0.52 s).
            floor = min((used for s, used in self._used.items() if s != session), default=0.0)
            self._used[session] = max(self._used.get(session, floor), floor - self.time_budget)
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
