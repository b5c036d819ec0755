"""What one CFR iteration must touch, and the floor that implies on this machine, beside what it takes.

    python -m benchmarks.floors          # Kuhn, Leduc, Liar's dice with 6 sides, Goofspiel with 5 cards

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

Printed, and written to ``docs/performance/floors.json``. A measurement, not a test.
"""

from __future__ import annotations

import statistics
import time

import numba
import numpy as np

import rmcore
from benchmarks import results

GAMES = (
    ("kuhn", "Kuhn", lambda: rmcore.KUHN, 2000),
    ("leduc", "Leduc", rmcore.leduc_poker, 200),
    ("liars_dice_6", "Liar's dice 6", lambda: rmcore.liars_dice(6), 10),
    ("goofspiel_5", "Goofspiel 5", lambda: rmcore.goofspiel(5), 50),
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
    print(f"written to {results.write('floors', rows, 'python -m benchmarks.floors')}")


if __name__ == "__main__":
    main()
