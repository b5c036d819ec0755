"""What one CFR iteration must touch, and the floor that implies on this machine, beside what it takes; and what a 3x3
matrix iteration must wait for.

    python -m benchmarks.floors          # Kuhn, Leduc, Liar's dice with 6 sides, Goofspiel with 5 cards; then 3x3

For each game, counted from its laid-out arrays (``rmcore.TreeGame.tree``) for one iteration of CFR with alternating
updates (each player's turn: a reach pass, a regret pass, then regret matching at its information sets):

- **bytes**: every array the iteration reads or writes, counted once (a pass over a tree that fits in a cache reads it
  from there the second time): the histories' reach (three numbers each), values, information-set indices and chance
  probabilities, the policy, regrets and average sums of every information set, and the blocks' few numbers;
- **floating-point operations**: a multiplication per edge and reach component changed (two turns), a multiply-add
  per decision edge for the values and, at the updating player's histories, five per action for the regret and the
  average (two turns), and three per information-set action for regret matching;
- the **bandwidth floor**: the bytes at the rate this machine streams a working set of that size (measured here: a
  numpy sum over an array of that many bytes, already in cache if it fits);
- the **compute floor**: the operations at the rate a compiled loop of independent multiply-adds reaches here
  (measured: numba, vectorised by LLVM);
- the **measured** iteration: ``CFRSolver(game, "cfr", max_points=0)`` from its second iteration, median of rounds.

A 3x3 game's iteration touches a few hundred bytes: its floor is latency, each operation waiting for the one before
(regret matching's sum, its division, ``A y``, ``x . u``, the regrets). The same operations in the same order, so
the same numbers to the last bit (checked before timing), are timed three ways beside the numpy loop the tutorials
write (``rmcore.bench.numpy_self_play``):

- **in registers**: a loop written out for three actions, whose every number LLVM keeps in a register;
- **over arrays**: a loop over arrays of any length (what serves every game size), whose numbers pass through memory
  between one step and the next;
- **the kernel**: ``MatrixSolver(game, max_points=0)``;

and Hedge over arrays (the kernel's softmax and exponential, :func:`rmcore.kernels.matrix.softmax_weight`) beside
regret matching over arrays, the two rules' floors in one kind of loop; the array loops call the kernel's own strategy
maps.

Printed, and written to ``docs/performance/floors.json``. A measurement, not a test.
"""

from __future__ import annotations

import statistics
import time

import numba
import numpy as np

import rmcore
from benchmarks import results
from rmcore import bench
from rmcore.kernels.matrix import _normalise_positive_part, _softmax

GAMES = (
    ("kuhn", "Kuhn", lambda: rmcore.KUHN, 2000),
    ("leduc", "Leduc", rmcore.leduc_poker, 200),
    ("liars_dice_6", "Liar's dice 6", lambda: rmcore.liars_dice_game(6), 10),
    ("goofspiel_5", "Goofspiel 5", lambda: rmcore.goofspiel_game(5), 50),
)
CHANCE, TERMINAL = -2, -1


def counts(game: rmcore.TreeGame) -> dict:
    """Bytes and floating-point operations of one alternating CFR iteration on ``game``, from its arrays."""
    tree = game.tree
    nodes = tree.player.shape[0]
    kinds, widths = tree.block_kind, tree.block_width
    sizes = np.diff(tree.block_start)
    decision = (kinds == 0) | (kinds == 1)
    edges = int((sizes * widths)[kinds != TERMINAL].sum())
    decision_edges = int((sizes * widths)[decision].sum())
    own_edges = [int((sizes * widths)[kinds == p].sum()) for p in (0, 1)]
    chance_nodes = int(sizes[kinds == CHANCE].sum())
    infosets, width = len(game.infosets), int(tree.num_actions.max())
    actions = int(tree.num_actions.sum())
    blocks = kinds.shape[0]
    touched = (
        nodes * 8 * 3  # reach, three components
        + nodes * 8  # values (terminals: their payoffs)
        + int(sizes[kinds != TERMINAL].sum()) * tree.infoset.itemsize  # information-set index of each history
        + chance_nodes * width * 8  # chance probabilities
        + infosets * width * 8 * 3  # policy, regrets, average sums
        + blocks * (8 * 6 + width * 8 * 3)  # each block's start, kind, width, end, marks; children's bases and strides
    )
    flops = 2 * edges * 1 + 2 * decision_edges * 2 + sum(own_edges) * 5 + actions * 3
    return {"bytes": touched, "flops": flops, "nodes": nodes, "edges": edges}


def _stream_rate(size_bytes: int, repeats: int = 7) -> float:
    """Bytes a second a numpy sum reads over an array of ``size_bytes`` (at least 64 kB), best of ``repeats``."""
    values = np.ones(max(size_bytes, 65536) // 8)
    values.sum()
    best = min(_timed(values.sum) for _ in range(repeats))
    return values.nbytes / best


@numba.njit(cache=True, nogil=True)
def _multiply_adds(a, b, c, rounds):
    for _ in range(rounds):
        for i in range(a.shape[0]):
            c[i] = a[i] * b[i] + c[i]
    return c[0]


def _compute_rate() -> float:
    """Floating-point operations a second of a compiled loop of independent multiply-adds, in the first cache."""
    a, b, c = np.ones(2048), np.full(2048, 0.5), np.zeros(2048)
    _multiply_adds(a, b, c, 1)
    rounds = 20_000
    best = min(_timed(lambda: _multiply_adds(a, b, c, rounds)) for _ in range(5))
    return 2 * a.shape[0] * rounds / best


def _timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def _measured(game: rmcore.TreeGame, iterations: int, rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        solver = rmcore.CFRSolver(game, "cfr", max_points=0)
        solver.run(1)
        times.append(_timed(lambda s=solver: s.run(iterations)) / iterations)
    return statistics.median(times)


# -- a 3x3 game: a chain of dependent operations ----------------------------------------------------------------------


@numba.njit(cache=True, error_model="numpy")
def _rm_3x3_in_registers(A, iterations):
    """Regret matching in self-play on a 3x3 zero-sum game (simultaneous updates, uniform averaging), the kernel's
    operations in its order, written out for three actions: no number passes through memory. Returns the row player's
    regrets and strategy sums."""
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = A[0], A[1], A[2]
    r0 = r1 = r2 = q0 = q1 = q2 = 0.0
    s0 = s1 = s2 = t0 = t1 = t2 = 0.0
    for _ in range(iterations):
        p0, p1, p2 = max(r0, 0.0), max(r1, 0.0), max(r2, 0.0)
        total = p0 + p1 + p2
        x0, x1, x2 = (p0 / total, p1 / total, p2 / total) if total > 0.0 else (1.0 / 3, 1.0 / 3, 1.0 / 3)
        p0, p1, p2 = max(q0, 0.0), max(q1, 0.0), max(q2, 0.0)
        total = p0 + p1 + p2
        y0, y1, y2 = (p0 / total, p1 / total, p2 / total) if total > 0.0 else (1.0 / 3, 1.0 / 3, 1.0 / 3)
        u0, u1, u2 = a00 * y0 + a01 * y1 + a02 * y2, a10 * y0 + a11 * y1 + a12 * y2, a20 * y0 + a21 * y1 + a22 * y2
        v0 = -(x0 * a00) - x1 * a10 - x2 * a20
        v1 = -(x0 * a01) - x1 * a11 - x2 * a21
        v2 = -(x0 * a02) - x1 * a12 - x2 * a22
        value = x0 * u0 + x1 * u1 + x2 * u2
        r0, r1, r2 = r0 + (u0 - value), r1 + (u1 - value), r2 + (u2 - value)
        q0, q1, q2 = q0 + (v0 - -value), q1 + (v1 - -value), q2 + (v2 - -value)
        s0, s1, s2 = s0 + 1.0 * x0, s1 + 1.0 * x1, s2 + 1.0 * x2
        t0, t1, t2 = t0 + 1.0 * y0, t1 + 1.0 * y1, t2 + 1.0 * y2
    return np.array([r0, r1, r2]), np.array([s0, s1, s2])


@numba.njit(cache=True, error_model="numpy")
def _self_play_over_arrays(A, hedge, eta, iterations):
    """Regret matching (or, with ``hedge``, Hedge with the step ``eta``) in self-play on a zero-sum game of any size,
    the kernel's operations in its order over arrays: its own strategy maps, and the payoffs summed in registers a
    column at a time. Returns the row player's regrets and strategy sums."""
    m, n = A.shape
    zeros_row, zeros_col = np.zeros(m), np.zeros(n)  # (no prediction, a uniform start's log weights)
    regrets_row, regrets_col, scores_row, scores_col = np.zeros(m), np.zeros(n), np.zeros(m), np.zeros(n)
    sums_row, sums_col = np.zeros(m), np.zeros(n)
    x, y, u, v = np.empty(m), np.empty(n), np.empty(m), np.empty(n)
    for _ in range(iterations):
        if hedge:
            _softmax(scores_row, zeros_row, False, zeros_row, eta, x)
            _softmax(scores_col, zeros_col, False, zeros_col, eta, y)
        else:
            _normalise_positive_part(regrets_row, x)
            _normalise_positive_part(regrets_col, y)
        for i in range(m):
            total = 0.0
            for j in range(n):
                total += A[i, j] * y[j]
            u[i] = total
        for j in range(n):
            total = -(x[0] * A[0, j])
            for i in range(1, m):
                total -= x[i] * A[i, j]
            v[j] = total
        value = 0.0
        for i in range(m):
            value += x[i] * u[i]
        for i in range(m):
            regrets_row[i] += u[i] - value
            scores_row[i] += u[i]
            sums_row[i] += 1.0 * x[i]
        for j in range(n):
            regrets_col[j] += v[j] - -value
            scores_col[j] += v[j]
            sums_col[j] += 1.0 * y[j]
    return regrets_row, sums_row


def kernels_matched(game: rmcore.MatrixGame, iterations: int = 1000) -> dict[str, rmcore.MatrixSolver]:
    """Regret matching's and Hedge's kernels on a zero-sum ``game``, after ``iterations`` iterations in which each loop
    here has computed their numbers to the last bit (its regrets and its average), or a RuntimeError."""
    A, eta = np.array(game.row_payoffs, dtype=float), rmcore.config.DEFAULT_ETA
    kernels = {rule: rmcore.MatrixSolver(game, algorithm=rule, max_points=0) for rule in ("rm", "hedge")}
    loops = {
        "rm": [_self_play_over_arrays(A, False, eta, iterations)],
        "hedge": [_self_play_over_arrays(A, True, eta, iterations)],
    }
    if A.shape == (3, 3):
        loops["rm"].append(_rm_3x3_in_registers(A, iterations))
    for rule, solver in kernels.items():
        solver.run(iterations)
        last = solver.history()
        for regrets, sums in loops[rule]:
            same = np.array_equal(regrets, last.regrets[-1, 0, : A.shape[0]])
            if not (same and np.array_equal(sums / iterations, last.average[-1, 0, : A.shape[0]])):
                raise RuntimeError(f"a {rule} loop here no longer computes the kernel's numbers: mend it to match")
    return kernels


def _matrix_rows(iterations: int = 1_000_000, rounds: int = 7) -> list[results.Row]:
    """The 3x3 loops beside the kernel and the numpy loop on rock-paper-scissors with a crash (interleaved rounds,
    medians), once each loop is shown to compute the kernel's numbers."""
    game = rmcore.preset("rps-crash")
    A, eta = np.array(game.row_payoffs, dtype=float), rmcore.config.DEFAULT_ETA
    kernels = kernels_matched(game)
    numpy_iterations = iterations // 100
    loops = {
        "rm_registers": ("rm, in registers (written out for 3 actions)", lambda: _rm_3x3_in_registers(A, iterations)),
        "rm_arrays": ("rm, over arrays", lambda: _self_play_over_arrays(A, False, eta, iterations)),
        "rm_kernel": ("rm, the kernel", lambda: kernels["rm"].run(iterations)),
        "hedge_arrays": ("hedge, over arrays", lambda: _self_play_over_arrays(A, True, eta, iterations)),
        "hedge_kernel": ("hedge, the kernel", lambda: kernels["hedge"].run(iterations)),
    }
    functions = {key: function for key, (_, function) in loops.items()}
    functions["numpy"] = lambda: bench.numpy_self_play(A, numpy_iterations, False)
    times = bench._median_of(functions, rounds)
    numpy_loop = times.pop("numpy") / numpy_iterations
    each = {key: seconds / iterations for key, seconds in times.items()}
    print(
        f"3x3 self-play, an iteration: the numpy loop {numpy_loop * 1e6:.2f} us; "
        + "; ".join(f"{loops[key][0]} {seconds * 1e9:.1f} ns" for key, seconds in each.items())
    )
    rows = [results.Row("floors_3x3_numpy_loop", "3x3 rm: the numpy loop, an iteration", numpy_loop * 1e6, "us")]
    for key, (name, _) in loops.items():
        if key.startswith("rm"):  # against the numpy loop
            baseline, ratio = f"{numpy_loop * 1e6:.2f} us (numpy loop)", numpy_loop / each[key]
        else:  # against regret matching in the same kind of loop
            rm = each[key.replace("hedge", "rm")]
            baseline, ratio = f"{rm * 1e9:.1f} ns (rm{name[len('hedge') :]})", each[key] / rm
        rows.append(
            results.Row(f"floors_3x3_{key}", f"3x3 {name}: an iteration", each[key] * 1e9, "ns", baseline, ratio)
        )
    return rows


def main() -> None:
    compute = _compute_rate()
    rows = []
    print(f"compiled multiply-adds: {compute / 1e9:.1f} Gflop/s on this machine")
    for key, title, build, iterations in GAMES:
        game = build()
        counted = counts(game)
        stream = _stream_rate(counted["bytes"])
        bandwidth_floor = counted["bytes"] / stream
        compute_floor = counted["flops"] / compute
        floor = max(bandwidth_floor, compute_floor)
        measured = _measured(game, iterations)
        print(
            f"{title}: {counted['bytes'] / 1e6:.2f} MB and {counted['flops']:.3g} flops an iteration; streamed at "
            f"{stream / 1e9:.0f} GB/s: {bandwidth_floor * 1e6:.1f} us; computed: {compute_floor * 1e6:.1f} us; "
            f"measured {measured * 1e6:.1f} us ({measured / floor:.1f}x the larger floor)"
        )
        rows += [
            results.Row(
                f"floors_{key}_bytes", f"{title}: bytes one CFR iteration touches", counted["bytes"] / 1e6, "MB"
            ),
            results.Row(
                f"floors_{key}_flops", f"{title}: floating-point operations an iteration", counted["flops"], ""
            ),
            results.Row(
                f"floors_{key}_bandwidth",
                f"{title}: the bandwidth floor (bytes at {stream / 1e9:.0f} GB/s)",
                bandwidth_floor * 1e6,
                "us",
            ),
            results.Row(
                f"floors_{key}_compute",
                f"{title}: the compute floor (at {compute / 1e9:.1f} Gflop/s)",
                compute_floor * 1e6,
                "us",
            ),
            results.Row(
                f"floors_{key}_measured",
                f"{title}: CFR an iteration, measured",
                measured * 1e6,
                "us",
                f"{floor * 1e6:.3g} us (the larger floor)",
                measured / floor,
            ),
        ]
    rows += _matrix_rows()
    print(f"written to {results.write('floors', rows, 'python -m benchmarks.floors')}")


if __name__ == "__main__":
    main()
