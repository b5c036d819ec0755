"""LiveRun sizes full-speed chunks by an iteration's marginal cost, not by a call's fixed cost."""

import types

import pytest

import rmcore
import ui.live
from ui.live import LiveRun


def _on_a_clock_of_our_own(monkeypatch, cost: dict) -> LiveRun:
    """A live run whose every call costs ``cost["fixed"]`` plus ``cost["per_iteration"]`` an iteration, on a fake
    clock."""
    clock = [0.0]
    monkeypatch.setattr(
        ui.live, "time", types.SimpleNamespace(thread_time=lambda: clock[0], perf_counter=lambda: clock[0])
    )
    run = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"]))
    run_race = run.race.run

    def costed(iterations):
        clock[0] += cost["fixed"] + cost["per_iteration"] * iterations
        run_race(iterations)

    run.race.run = costed
    return run


def test_a_fixed_cost_near_the_budget_does_not_shrink_the_chunks_to_one_iteration(monkeypatch):
    # Leduc's shape: each call costs 20 ms however few its iterations, and each iteration 0.5 ms; the budget is 25 ms.
    # Sized by iterations / elapsed, chunks fell from 250 to 1 and stayed there.
    budget, cost = 0.025, {"fixed": 0.020, "per_iteration": 0.0005}
    run = _on_a_clock_of_our_own(monkeypatch, cost)
    run._rate = 250 / budget
    sizes = [run.tick(None, budget) for _ in range(30)]
    assert sizes[0] == 250
    assert min(sizes[-10:]) >= round(0.4 * budget / cost["per_iteration"]), sizes  # 40% of the budget buys iterations


def test_chunks_grow_again_when_iterations_become_cheaper(monkeypatch):
    budget, cost = 0.025, {"fixed": 0.001, "per_iteration": 0.010}  # a slow phase: 10 ms an iteration
    run = _on_a_clock_of_our_own(monkeypatch, cost)
    sizes = [run.tick(None, budget) for _ in range(10)]
    assert max(sizes[-3:]) <= 3
    cost["per_iteration"] = 0.0001  # a hundred times faster
    sizes = [run.tick(None, budget) for _ in range(30)]
    fill = (budget - cost["fixed"]) / cost["per_iteration"]
    assert min(sizes[-10:]) >= 0.8 * fill, sizes[-10:]
    assert max(sizes[-10:]) <= 1.25 * fill, sizes[-10:]


def test_a_long_budget_runs_in_pieces_that_fill_it(monkeypatch):
    """A session alone gets 150 ms: four pieces of 37.5 ms, each sized to its time, together about the budget."""
    budget, cost = 0.15, {"fixed": 0.0002, "per_iteration": 0.00001}
    run = _on_a_clock_of_our_own(monkeypatch, cost)
    calls = []
    inner = run.race.run
    run.race.run = lambda iterations: (calls.append(iterations), inner(iterations))
    for _ in range(20):
        run.tick(None, budget)
    calls.clear()
    started = ui.live.time.thread_time()
    run.tick(None, budget)
    spent = ui.live.time.thread_time() - started
    assert len(calls) == 4 and 0.8 * budget <= spent <= 1.25 * budget, (calls, spent)


def test_a_click_ends_an_update_after_the_piece_running(monkeypatch):
    budget, cost = 0.15, {"fixed": 0.0002, "per_iteration": 0.00001}
    run = _on_a_clock_of_our_own(monkeypatch, cost)
    for _ in range(20):
        run.tick(None, budget)
    started = ui.live.time.thread_time()
    clicked = run.tick(None, budget, interrupted=lambda: True)
    spent = ui.live.time.thread_time() - started
    assert spent <= 1.25 * ui.live.PIECE and clicked > 0  # one piece, then the click's rerun


def test_a_budget_must_be_positive():
    run = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"]))
    with pytest.raises(ValueError, match="budget"):
        run.tick(None, 0.0)


def test_a_chunk_that_loads_the_kernels_is_not_timed(monkeypatch):
    """Outside a server (a library call, an AppTest) the first call of a kernel loads it from numba's disk cache (0.44 s
    for 250 iterations of Rock-Paper-Scissors): priced by that chunk, a link's ``run_to=900000`` was lowered to about
    314,000 as if it took three minutes. The chunks after it price the run."""
    cost = {"fixed": 0.0002, "per_iteration": 0.0000001}
    run = _on_a_clock_of_our_own(monkeypatch, cost)
    statuses = ["load"]  # (until the first call: then "ready")
    monkeypatch.setattr(run, "kernel_status", lambda: statuses[-1])
    inner = run.race.run

    def loading_first(iterations):
        extra = 0.44 if statuses[-1] == "load" else 0.0
        cost["fixed"] += extra
        inner(iterations)
        cost["fixed"] -= extra
        statuses.append("ready")

    run.race.run = loading_first
    run.run_to(900_000)
    for _ in range(200):
        if run.target is None:
            break
        run.tick(None, 0.025)
    assert run.target_note is None and run.iteration == 900_000


def test_a_run_to_beyond_what_a_link_may_cost_is_lowered_once_priced(monkeypatch):
    """A million iterations at a millisecond each (about 17 minutes): lowered, and said, once PRICED_AFTER chunks are
    timed (a run's first chunks cost more per iteration than its later ones, so one alone does not price it)."""
    from ui.live import PRICED_AFTER

    cost = {"fixed": 0.0002, "per_iteration": 0.001}
    run = _on_a_clock_of_our_own(monkeypatch, cost)
    monkeypatch.setattr(run, "kernel_status", lambda: "ready")
    run.run_to(1_000_000)
    for _ in range(PRICED_AFTER - 1):
        assert run.target_note is None
        run.tick(None, 0.025)
    assert run.target_note is not None and run.target < 1_000_000


def test_a_runs_first_chunks_do_not_blow_the_next_chunk_up():
    """A run's first chunks cost less per iteration as its dense checkpoints thin out, so chunks of 48 to 1,385
    iterations can all take about 1.5 ms: the line through them is almost flat, and its slope made the marginal rate
    billions a second (on a server: an update of 5 million iterations where the budget held 60,000). The rate is held
    to GROWTH times the best chunk's own, so the next chunk is a few times the last."""
    run = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"]))
    status = run.kernel_status()
    chunks = ((48, 0.00150), (220, 0.00151), (565, 0.00152), (1385, 0.00153))
    for iterations, seconds in chunks:
        run._learn(iterations, seconds, 0.002, status)
    best = max(n / t for n, t in chunks)
    assert run._rate == pytest.approx(ui.live.GROWTH * best)  # (the line's slope alone: 4.4e10 a second)
    assert run.chunk_size(None, 0.002) <= ui.live.GROWTH * 1385 * 0.002 / 0.00153
