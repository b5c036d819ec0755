"""Solvers under interruption and threads: the state always matches the counter, and a second thread is refused."""

import os
import signal
import threading

import numpy as np
import pytest

import rmcore
from rmcore import config
from rmcore._guard import ConcurrentUseError

SOLVERS = {
    "matrix": lambda: rmcore.MatrixSolver(rmcore.preset("rps-crash")),
    "cfr": lambda: rmcore.CFRSolver(rmcore.KUHN, "cfr+"),
}


@pytest.mark.parametrize("kind", list(SOLVERS))
def test_ctrl_c_lands_between_chunks_and_leaves_the_counter_true(kind):
    solver = SOLVERS[kind]()
    solver.run(10)  # compiled before the clock starts
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solver.run(config.MAX_ITERATIONS - 10)  # years of work: only an interrupt ends it
    timer.join()
    reached = solver.iteration
    assert 10 < reached < config.MAX_ITERATIONS
    solver.run(1000)
    whole = SOLVERS[kind]()
    whole.run(reached + 1000)
    assert solver.iteration == whole.iteration
    assert solver.metrics() == whole.metrics(), "the interrupted run is exactly the uninterrupted one"


@pytest.mark.parametrize("kind", list(SOLVERS))
def test_a_second_thread_is_refused_while_the_first_runs(kind):
    solver = SOLVERS[kind]()
    solver.run(10)
    errors, started = [], threading.Event()

    def long_run():
        started.set()
        try:
            solver.run(20_000_000 if kind == "matrix" else 200_000)
        except ConcurrentUseError as error:  # (should the reader win the race for the lock)
            errors.append(error)

    worker = threading.Thread(target=long_run)
    worker.start()
    started.wait()
    refused = 0
    while worker.is_alive():
        try:
            solver.metrics()
        except ConcurrentUseError as error:
            refused += 1
            assert "another thread" in str(error)
    worker.join()
    assert refused > 0 and not errors
    assert solver.iteration == 10 + (20_000_000 if kind == "matrix" else 200_000)
    probabilities = solver.average_policy().probabilities
    assert np.allclose(probabilities.sum(axis=1)[probabilities.sum(axis=1) > 0], 1.0, atol=1e-12)


def test_a_solver_runs_at_most_max_iterations_and_keeps_at_most_max_points():
    solver = rmcore.MatrixSolver(rmcore.preset("rps"))
    solver.run(5)
    with pytest.raises(ValueError, match="at most 1,000,000,000,000,000 iterations in all"):
        solver.run(2**63)
    assert solver.iteration == 5
    with pytest.raises(ValueError, match="max_points must be at most 100,000"):
        rmcore.MatrixSolver(rmcore.preset("rps"), max_points=10**9)
    with pytest.raises(ValueError, match="max_points must be at most"):
        rmcore.CFRSolver(rmcore.KUHN, max_points=10**9)


@pytest.mark.parametrize("fixed", [None, 1, 2])
def test_retrace_keeps_the_fixed_opponent(fixed):
    game = rmcore.KUHN
    opponent = None
    if fixed is not None:
        exact = rmcore.solve_exactly(game).policy
        locks = {"Jp" if fixed == 2 else "K": (0.3, 0.7)}
        opponent = rmcore.fixed_strategy(game, fixed, exact, locks)
    solver = rmcore.CFRSolver(game, "cfr", opponent=opponent)
    for t in (1, 2, 7, 30):
        solver.run(t - 1 - solver.iteration)
        live = solver.trace_iteration()
        assert solver.retrace(t) == live, (fixed, t)
