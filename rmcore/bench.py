"""``python -m rmcore bench``: rmcore against baselines measured in the same run, as ratios.

Timings on a shared 2-core machine swing by 2x from one second to the next, so every contender is
run several times, interleaved with its baseline, after a warm-up spin, and the best time of each
is kept. Numpy baselines run with ``OPENBLAS_NUM_THREADS=1`` (the bench re-executes itself so the
variable is set before numpy loads).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from .games import preset
from .matrix import MatrixSolver


def _best_of(functions: dict, repeats: int) -> dict:
    best = {name: float("inf") for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            started = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def _spin(seconds: float = 1.0) -> None:
    """Busy-wait so the CPU is at full clock before the first measurement."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def numpy_self_play(row_payoffs: np.ndarray, iterations: int, sampled: bool, seed: int = 0) -> np.ndarray:
    """The straightforward numpy loop the tutorials write: regret matching, one iteration at a time."""
    col_payoffs = -row_payoffs
    m, n = row_payoffs.shape
    rng = np.random.default_rng(seed)
    regrets_row, regrets_col = np.zeros(m), np.zeros(n)
    sums_row, sums_col = np.zeros(m), np.zeros(n)

    def strategy(regrets):
        positive = np.maximum(regrets, 0.0)
        total = positive.sum()
        return positive / total if total > 0 else np.full(len(regrets), 1.0 / len(regrets))

    for _ in range(iterations):
        x, y = strategy(regrets_row), strategy(regrets_col)
        if sampled:
            a, b = rng.choice(m, p=x), rng.choice(n, p=y)
            regrets_row += row_payoffs[:, b] - row_payoffs[a, b]
            regrets_col += col_payoffs[a, :] - col_payoffs[a, b]
        else:
            u_row, u_col = row_payoffs @ y, col_payoffs.T @ x
            regrets_row += u_row - x @ u_row
            regrets_col += u_col - y @ u_col
        sums_row += x
        sums_col += y
    return sums_row / iterations


def _startup_seconds(cache_dir: str) -> float:
    code = (
        "import time; t = time.perf_counter(); import rmcore; "
        "s = rmcore.MatrixSolver(rmcore.preset('rps-crash')); s.run(1000); s.metrics(); "
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def _row(name: str, ours: str, baseline: str, ratio: str, target: str) -> None:
    print(f"| {name:<44} | {ours:>14} | {baseline:>16} | {ratio:>9} | {target:<12} |")


def _matrix_rows(quick: bool) -> None:
    repeats = 3 if quick else 7
    small = preset("rps-crash")
    A = np.array(small.row_payoffs)
    numpy_iterations = 2_000 if quick else 20_000
    our_iterations = 200_000 if quick else 2_000_000
    for sampling in ("expected", "sampled"):
        solver = MatrixSolver(small, sampling=sampling, seed=1, max_points=0)
        solver.run(10)
        times = _best_of(
            {
                "rmcore": lambda s=solver: s.run(our_iterations),
                "numpy": lambda: numpy_self_play(A, numpy_iterations, sampling == "sampled"),
            },
            repeats,
        )
        ours, theirs = times["rmcore"] / our_iterations, times["numpy"] / numpy_iterations
        _row(f"3x3 self-play, {sampling}: per iteration", f"{ours * 1e9:.1f} ns", f"{theirs * 1e6:.2f} us (numpy)", f"{theirs / ours:.0f}x", ">= 400x")

    big = preset("random-zero-sum", rows=1000, cols=1000, seed=1)
    matrix = np.array(big.row_payoffs)
    solver = MatrixSolver(big, max_points=0)
    solver.run(2)
    steps = 5 if quick else 20
    times = _best_of({"rmcore": lambda: solver.run(steps), "sum": lambda: [matrix.sum() for _ in range(steps)]}, repeats)
    ours, theirs = times["rmcore"] / steps, times["sum"] / steps
    _row("1000x1000 expected self-play: per iteration", f"{ours * 1e3:.3f} ms", f"{theirs * 1e3:.3f} ms (A.sum)", f"{ours / theirs:.2f}x", "<= 2x A.sum")

    iterations = 100_000 if quick else 1_000_000

    def fresh_run(max_points):
        MatrixSolver(small, max_points=max_points).run(iterations)

    times = _best_of({"history": lambda: fresh_run(2000), "none": lambda: fresh_run(0)}, repeats)
    overhead = times["history"] / times["none"] - 1.0
    _row(f"history of 2000 points over {iterations:,} its", f"{times['history'] * 1e3:.1f} ms", f"{times['none'] * 1e3:.1f} ms (none)", f"{overhead * 100:+.1f}%", "< 10%")

    with tempfile.TemporaryDirectory() as cache_dir:
        cold = _startup_seconds(cache_dir)
        warm = min(_startup_seconds(cache_dir) for _ in range(2 if quick else 3))
    _row("import + first run, empty numba cache", f"{cold:.2f} s", "", "", "(compile)")
    _row("import + first run, warm numba cache", f"{warm:.2f} s", "", "", "< 1 s")


def main(quick: bool = False) -> None:
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        command = [sys.executable, "-m", "rmcore", "bench"] + (["--quick"] if quick else [])
        sys.exit(subprocess.call(command, env=env))
    _spin()
    print(f"rmcore bench ({'quick' if quick else 'full'}; best of repeated, interleaved runs; OPENBLAS_NUM_THREADS=1)")
    _row("measurement", "rmcore", "baseline", "ratio", "target")
    print(f"|{'-' * 46}|{'-' * 16}|{'-' * 18}|{'-' * 11}|{'-' * 14}|")
    _matrix_rows(quick)
