"""Compiles in processes of their own: one ends with the process that asked for it; `every` covers every kernel."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

# A parent that starts a compile on an empty numba cache (seconds of work), prints the compile's pid and waits.
PARENT = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-m", "rmcore._compile", "cfr"])
print(child.pid, flush=True)
child.wait()
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_compile_whose_server_is_killed_stops_too(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        time.sleep(1.5)  # into the compile
        assert _alive(child)
        parent.send_signal(signal.SIGKILL)  # as a server stopped hard: no chance to clean up
        parent.wait(10)
        deadline = time.time() + 5
        while _alive(child) and time.time() < deadline:
            time.sleep(0.1)
        assert not _alive(child), "the compile outlived the process that asked for it"
    finally:
        parent.kill()


def test_every_kernel_a_solver_can_ask_for_is_in_the_list_compile_every_works_through():
    import itertools

    from rmcore import MatrixSolver, _compile, _kernels, matrix, preset

    listed = _compile.every_matrix_variant()
    shares = [listed[k::3] for k in range(3)]  # as `every K/3` splits it
    assert sorted(itertools.chain(*shares)) == sorted(listed) and len(set(listed)) == len(listed) == 40
    compiled = {_kernels.kernel_key(_kernels.MatrixFlags(*flags)) for flags in listed}
    assert len(compiled) == len(listed)  # no kernel compiled twice
    games = (preset("rps-crash"), preset("random-general-sum", rows=3, cols=4, seed=2), preset("matching-pennies"))
    for game, algorithm, sampling, updates, averaging, fixed in itertools.product(
        games,
        matrix.ALGORITHMS,
        ("expected", "sampled"),
        ("simultaneous", "alternating"),
        ("uniform", "quadratic"),
        (False, True),
    ):
        opponent = np.full(game.shape[1], 1 / game.shape[1]) if fixed else None
        eta = 0.5 if algorithm in matrix.STEP_ALGORITHMS else None
        solver = MatrixSolver(game, algorithm, sampling, updates, averaging, opponent=opponent, eta=eta)
        assert _kernels.kernel_key(solver._flags) in compiled, solver.variant.label


def test_compile_every_refuses_a_share_out_of_range():
    result = subprocess.run(
        [sys.executable, "-m", "rmcore._compile", "every", "3/2"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2 and "1 <= K <= N" in result.stderr


# Loads the kernel of RM on a zero-sum game in self-play as a solver runs it; prints numba's cache hits and misses.
LOAD = """
import rmcore
from rmcore import _kernels
solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
solver.run(10)
stats = _kernels.make_matrix_kernel(solver._flags).stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


@pytest.mark.slow
def test_a_kernel_compiled_in_a_process_of_its_own_is_loaded_by_a_solver_not_compiled_again(tmp_path):
    """The compile process must compile the very signature a solver calls (its writable payoff copies, not the game's
    read-only arrays): otherwise the server compiles the kernel again itself, holding its GIL for seconds."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "rmcore._compile", "0,0,0,0,0,0,1,0"], cwd=ROOT, env=env, check=True)
    loaded = subprocess.run([sys.executable, "-c", LOAD], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert loaded.stdout.split() == ["1", "0"], loaded.stdout
