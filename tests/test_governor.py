"""The server-wide governor (``ui/governor.py``): fair turns, budgets that shrink and recover, a click never queued."""

from __future__ import annotations

import threading
import time

import pytest

from ui.governor import (
    HEADROOM,
    MAX_BUDGET,
    MIN_BUDGET,
    ROUND,
    Governor,
    Load,
    ServerMeter,
    collector_seconds,
    fair_budget,
)


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class WorkDone:
    """A governor's work clock that counts only the turns' own work (their sleeps), so that a turn is charged what it
    slept and nothing else."""

    def __init__(self):
        self.seconds = 0.0

    def __call__(self):
        return self.seconds


#: Longest a turn waits, before it ends, for the other sessions to be waiting for theirs (on an idle machine they
#: wait within microseconds; a busy one can schedule a woken thread many milliseconds late).
QUEUE_PATIENCE = 1.0


def _take_turns(governor, session, seconds_per_turn, stop, log, work, sessions):
    """Take turns until ``stop``, each a sleep of ``seconds_per_turn``, charged to ``work`` and logged as exactly that
    (a sleep overruns on a busy machine, by up to its scheduling delay: charging what it really slept would make the
    test's equal-time check one of the machine's load, not of the governor's choices). A turn ends once the other
    ``sessions - 1`` sessions wait for theirs (at most :data:`QUEUE_PATIENCE`): sessions that ask again the moment a
    turn ends, as on an idle machine, where on a busy one a thread scheduled late misses turns by the machine's doing,
    not the governor's."""
    while not stop.is_set():
        with governor.turn(session):
            time.sleep(seconds_per_turn)
            work.seconds += seconds_per_turn
            log.append((session, seconds_per_turn))
            deadline = time.perf_counter() + QUEUE_PATIENCE
            while len(governor._waiting) < sessions - 1 and time.perf_counter() < deadline and not stop.is_set():
                time.sleep(0.0002)


def _run_for(seconds, stop, threads):
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()


def test_sessions_of_different_cost_share_the_time_not_the_turns():
    """A light session (2 ms a turn) and two heavy ones (4 ms) that all ask again the moment a turn ends: the turn goes
    to the waiting session that has used the least time, so the light one takes every other turn and the three use
    the same time. (The session whose turn just ended is not waiting yet, so no session takes two turns in a row:
    against two sessions of twice its cost, equal time is every other turn. Turns handed round in order would give
    the light session half the time of each heavy one.)"""
    work = WorkDone()
    governor = Governor(slots=1, work_clock=work)  # (each sleep stands for a turn's work)
    stop, log = threading.Event(), []
    costs = {"light": 0.002, "heavy": 0.004, "also heavy": 0.004}
    turns = [
        threading.Thread(target=_take_turns, args=(governor, s, c, stop, log, work, len(costs)))
        for s, c in costs.items()
    ]
    _run_for(1.5, stop, turns)
    turns = {s: sum(1 for who, _ in log if who == s) for s in costs}
    seconds = {s: sum(took for who, took in log if who == s) for s in costs}
    assert max(seconds.values()) / min(seconds.values()) < 1.1, seconds  # equal time, within the sleeps' jitter
    assert turns["light"] > 1.6 * max(turns["heavy"], turns["also heavy"]), turns  # about twice the turns of each


@pytest.mark.parametrize("credited", [True, False])
def test_a_garbage_collection_inside_a_turn_does_not_put_its_session_behind(credited):
    """A 0.2 s pause that is the process's housekeeping (a full garbage collection) is not charged to the session whose
    turn it fell in: it goes on taking its turns as often as the others. Charged (``credited=False``, a session that
    really used 0.2 s), it waits while the others catch up."""
    housekeeping = [0.0]
    done = WorkDone()  # (each turn charged its nominal work: a busy machine's late wake-ups charge nobody)
    governor = Governor(slots=1, work_clock=done, housekeeping=lambda: housekeeping[0])
    stop, log = threading.Event(), []

    def work(session):
        while not stop.is_set():
            with governor.turn(session):
                log.append((session, time.perf_counter()))
                if session == "a" and sum(1 for who, _ in log if who == "a") == 5:
                    time.sleep(0.2)
                    done.seconds += 0.2
                    housekeeping[0] += 0.2 if credited else 0.0
                else:
                    time.sleep(0.002)
                    done.seconds += 0.002

    _run_for(0.6, stop, [threading.Thread(target=work, args=(s,)) for s in "abc"])
    spike = [t for who, t in log if who == "a"][4] + 0.2
    after = {s: sum(1 for who, t in log if who == s and spike < t < spike + 0.2) for s in "abc"}
    if credited:
        assert after["a"] >= 0.7 * min(after["b"], after["c"]), after
    else:
        assert after["a"] == 0 and min(after["b"], after["c"]) > 10, after


def test_the_collector_clock_counts_real_collections():
    import gc

    cycles = []
    for _ in range(200_000):
        node = []
        node.append(node)  # a cycle only the collector frees
        cycles.append(node)
    before = collector_seconds()
    gc.collect()
    assert collector_seconds() > before


def test_the_collector_clock_counts_only_the_calling_threads_collections():
    import gc

    before = collector_seconds()
    other = threading.Thread(target=lambda: [gc.collect() for _ in range(20)])
    other.start()
    other.join()
    assert collector_seconds() == before


def test_a_turn_is_charged_its_threads_work_not_its_waiting():
    """A turn whose thread waits (for the GIL while the event loop sends other sessions' charts; here a sleep) is
    charged the CPU time it used, so the session keeps its place in the queue; a turn that computes is charged that."""
    governor = Governor(slots=1)
    with governor.turn("waited"):
        time.sleep(0.2)
    with governor.turn("worked"):
        started = time.thread_time()
        while time.thread_time() - started < 0.05:
            pass
    assert governor._used["waited"] < 0.02
    assert governor._used["worked"] >= 0.05


def test_no_more_turns_at_once_than_slots():
    governor = Governor(slots=2)
    inside, most, lock, stop = [0], [0], threading.Lock(), threading.Event()

    def work(session):
        while not stop.is_set():
            with governor.turn(session):
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.003)
                with lock:
                    inside[0] -= 1

    _run_for(0.5, stop, [threading.Thread(target=work, args=(k,)) for k in range(5)])
    assert most[0] == 2


def _spare(cores=1.0):
    return lambda: cores


def test_the_budget_shrinks_as_sessions_join_and_recovers_as_they_leave():
    clock = FakeClock()
    governor = Governor(slots=1, meter=_spare(1.0), idle_after=2.0, clock=clock, work_clock=clock)
    governor.overhead = 0.02
    budgets = []
    for session in range(30):
        with governor.turn(session) as turn:
            budgets.append(turn.budget)
    assert budgets[0] == MAX_BUDGET  # alone: 0.7 * 0.25 - 0.02 is more than the most
    assert budgets[3] == pytest.approx(HEADROOM * ROUND / 4 - 0.02)  # four sessions
    assert budgets == sorted(budgets, reverse=True) and budgets[-1] == MIN_BUDGET
    assert governor.running() == 30
    for session in range(26):  # twenty-six pause
        governor.leave(session)
    assert governor.running() == 4 and governor.budget() == pytest.approx(HEADROOM * ROUND / 4 - 0.02)
    clock.now += 2.5  # the rest go quiet (tabs closed): they stop counting
    assert governor.running() == 0 and governor.budget() == MAX_BUDGET


def test_a_session_alone_gets_most_of_each_update():
    """Alone on a free core, with the measured overhead of a tree page's update (20 ms) or a matrix page's (10 ms), the
    solver gets at least 80% of the update: at least 0.6x the library's rate leaves room for the pieces' own cost."""
    for overhead in (0.01, 0.02):
        budget = fair_budget(1, Load(1.0, overhead))
        assert budget / (budget + overhead) >= 0.8
        assert budget + overhead <= 1 / 4  # and the page still updates 4 times a second


@pytest.mark.parametrize("overhead", [0.004, 0.006])
def test_thirty_sessions_on_one_core_each_update_three_times_a_second(overhead):
    """Thirty sessions on one core whose updates cost 4-6 ms outside the solver: a round of every session's update
    (its budget and its overhead) fits in a third of a second, so each updates 3 times a second or more."""
    budget = fair_budget(30, Load(1.0, overhead))
    assert MIN_BUDGET <= budget and 30 * (budget + overhead) <= 1 / 3


def test_the_budget_follows_what_the_server_can_spare():
    budgets = {spare: fair_budget(4, Load(spare, 0.01)) for spare in (0.5, 1.0, 2.0)}
    assert budgets[0.5] < budgets[1.0] < budgets[2.0]  # other processes on the cores: less for each update
    by_overhead = [fair_budget(4, Load(1.0, overhead)) for overhead in (0.0, 0.01, 0.03)]
    assert by_overhead == sorted(by_overhead, reverse=True) and by_overhead[0] > by_overhead[-1]
    by_sessions = [fair_budget(n, Load(1.0, 0.01)) for n in range(1, 40)]
    assert by_sessions == sorted(by_sessions, reverse=True)
    assert fair_budget(0, Load(1.0, 0.01)) == fair_budget(1, Load(1.0, 0.01))  # (no session yet: as for one)
    with pytest.raises(ValueError, match="spare_cores"):
        fair_budget(1, Load(-1.0, 0.01))
    with pytest.raises(ValueError, match="running"):
        fair_budget(-1, Load(1.0, 0.01))


def test_the_meter_reads_what_other_processes_keep_busy():
    """Two cores, over one second: 1.5 core-seconds busy, of which this process used 0.9: the others keep 0.6 of a core
    busy (smoothed halfway from none)."""
    clock, busy, own = FakeClock(), [100.0], [50.0]
    meter = ServerMeter(
        {0, 1}, every=0.5, clock=clock, cores_busy=lambda cores: busy[0], process_seconds=lambda: own[0]
    )
    assert meter() == 2.0
    clock.now, busy[0], own[0] = 1.0, 101.5, 50.9
    assert meter() == pytest.approx(2.0 - 0.3)
    clock.now, busy[0] = 1.1, 200.0  # within SAMPLE_EVERY: the last reading stands
    assert meter() == pytest.approx(2.0 - 0.3)
    for _ in range(8):  # the others take both cores: still half a core to ask for
        clock.now, busy[0], own[0] = clock.now + 1.0, busy[0] + 2.0, own[0] + 0.01
        meter()
    assert meter() == 0.5


def test_the_meter_without_proc_stat_counts_no_other_load():
    clock, own = FakeClock(), [0.0]
    meter = ServerMeter({0}, clock=clock, cores_busy=lambda cores: None, process_seconds=lambda: own[0])
    meter()
    clock.now, own[0] = 1.0, 0.5
    assert meter() == 1.0


def test_a_turns_overhead_is_its_work_outside_the_solver():
    """Each turn works 30 ms, 10 of them in the solver: the overhead the budgets subtract tends to 20 ms; a turn that
    ran no solver (waiting for a compile) leaves it alone."""
    clock = FakeClock()
    governor = Governor(slots=1, meter=_spare(1.0), clock=clock, work_clock=clock)
    for _ in range(40):
        with governor.turn("a"):
            clock.now += 0.03
            governor.solver_used(0.01)
    assert governor.overhead == pytest.approx(0.02, rel=0.01)
    with governor.turn("a"):
        clock.now += 0.5
    assert governor.overhead == pytest.approx(0.02, rel=0.01)
    assert governor.load() == Load(1.0, governor.overhead)


def test_the_real_meter_reads_this_machine():
    meter = ServerMeter(every=0.0)
    first = meter()
    sum(i * i for i in range(200_000))
    second = meter()
    assert 0.5 <= first <= len(meter.cores) and 0.5 <= second <= len(meter.cores)


def test_a_waiting_session_whose_user_clicks_is_let_go_at_once_while_another_holds_the_turn():
    governor = Governor(slots=1)
    holding, release = threading.Event(), threading.Event()

    def hold():
        with governor.turn("busy"):
            holding.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(5)
    clicked = threading.Event()
    result = {}

    def wait():
        started = time.perf_counter()
        with governor.turn("paused", clicked.is_set) as turn:
            result["turn"], result["waited"] = turn, time.perf_counter() - started

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.2)
    assert waiter.is_alive()  # still waiting: the turn is taken
    clicked.set()
    waiter.join(1.0)
    assert not waiter.is_alive() and result["turn"] is None and result["waited"] < 0.2 + 0.1
    release.set()
    holder.join()
    with governor.turn("paused") as turn:  # and the queue still works
        assert turn is not None


def test_a_newcomer_does_not_jump_ahead_of_sessions_that_have_used_less():
    clock = FakeClock()
    governor = Governor(slots=1, clock=clock, work_clock=clock)
    with governor.turn("old"):
        clock.now += 1.0  # "old" has used 1 s
    with governor.turn("new"):  # joins level with the least-served other session: 1 s, not 0
        pass
    assert governor._used["new"] == pytest.approx(1.0)


def test_a_session_that_asked_little_catches_up_at_most_one_turn():
    """A running session keeps at most one full turn (the longest charged lately) of lag behind the least-served other
    session: enough to keep its place when it asks again the moment its turn ends, never a store of time it did not
    ask for."""
    clock = FakeClock()
    governor = Governor(slots=1, clock=clock, work_clock=clock)
    with governor.turn("quiet"):
        pass
    for _ in range(10):
        with governor.turn("busy"):
            clock.now += 0.1  # "busy" has used 1 s, "quiet" nothing (but it asked within idle_after)
    with governor.turn("quiet"):
        pass
    assert governor._used["quiet"] == pytest.approx(1.0 - 0.1)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="slots"):
        Governor(slots=0)
    with pytest.raises(ValueError, match="min_budget"):
        Governor(min_budget=0.1, max_budget=0.01)
    with pytest.raises(ValueError, match="headroom"):
        Governor(headroom=1.5)


def test_a_pending_click_is_read_from_streamlits_own_request_queue():
    """``controls.pending_interaction`` reads Streamlit's private request queue: this fails if Streamlit changes it."""
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequests

    from ui.controls import pending_interaction

    requests = ScriptRequests()
    assert not pending_interaction(requests)
    requests.request_rerun(RerunData(fragment_id="timer"))  # the fragment's own timer: not a user
    assert not pending_interaction(requests)
    requests.request_rerun(RerunData(query_string=""))  # a click: a full-page rerun
    assert pending_interaction(requests)
    stopped = ScriptRequests()
    stopped.request_stop()  # the tab closed
    assert pending_interaction(stopped)
    assert not pending_interaction(None)


def test_the_outgoing_queue_is_read_where_streamlits_event_loop_reads_it():
    """``controls._outgoing_queue`` reads Streamlit's private session registry and message queue: this fails if
    Streamlit moves them."""
    import inspect

    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
    from streamlit.runtime.runtime import Runtime
    from streamlit.runtime.session_manager import ActiveSessionInfo, SessionManager

    assert "self._browser_queue = ForwardMsgQueue()" in inspect.getsource(AppSession.__init__)
    assert "self._session_mgr" in inspect.getsource(Runtime.__init__)
    assert callable(SessionManager.get_active_session_info) and "session" in ActiveSessionInfo.__dataclass_fields__
    queue = ForwardMsgQueue()
    assert queue.is_empty()


class _Queue:
    """An outgoing queue the event loop empties after ``polls`` looks (never, with None)."""

    def __init__(self, polls):
        self.polls = polls

    def is_empty(self):
        if self.polls is None:
            return False
        self.polls -= 1
        return self.polls < 0


def test_a_timed_update_waits_until_its_messages_have_left(monkeypatch):
    from ui import controls

    queue = _Queue(5)
    monkeypatch.setattr(controls, "_outgoing_queue", lambda: queue)
    monkeypatch.setattr(controls, "_user_asked", lambda: False)
    controls._wait_until_sent(limit=5.0)
    assert queue.polls < 0  # it looked until the queue was empty

    stuck = _Queue(None)
    monkeypatch.setattr(controls, "_outgoing_queue", lambda: stuck)
    started = time.perf_counter()
    controls._wait_until_sent(limit=0.1)
    assert 0.1 <= time.perf_counter() - started < 1.0  # and no longer than its limit

    monkeypatch.setattr(controls, "_user_asked", lambda: True)
    started = time.perf_counter()
    controls._wait_until_sent(limit=5.0)
    assert time.perf_counter() - started < 0.5  # a click waiting ends it at once


def test_outside_a_server_there_is_no_queue_to_wait_for():
    from ui import controls

    assert controls._outgoing_queue() is None
    started = time.perf_counter()
    controls._wait_until_sent(limit=5.0)
    assert time.perf_counter() - started < 0.5
