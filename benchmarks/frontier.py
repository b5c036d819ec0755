"""The frontier variants' cost an iteration against their closest established kin, measured in one process.

PDCFR+ and DCFR+ against PCFR+ (Kuhn poker, Leduc hold'em; alternating updates), SPRM+ and ExRM+ against PRM+ (a 3x3
and a 64x64 zero-sum game; expected payoffs, simultaneous self-play, from a start off the equilibrium). A round
runs each contender for the same iterations, one after another, in turn (so that all see the same machine); a
contender's time an iteration is the median over rounds and over fresh instances of the solvers (see
:func:`frontier_rows`). The ratios are each variant's median over its baseline's. On a machine shared with other
work the ratios still move by about 0.05 from one measurement to the next: run it more than once.

    python benchmarks/frontier.py            # the full measurement (a few seconds once compiled)
    python benchmarks/frontier.py --quick    # fewer rounds

In Python, :func:`frontier_rows` returns the rows (``name, ours, baseline, ratio, target``, as ``rmcore.bench``
prints them) without printing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import rmcore

#: (title, game, iterations a round, baseline, contenders); the targets of issue 40: at most 1.2 times the baseline.
TREE_CASES = (
    ("Kuhn", lambda: rmcore.KUHN, 5_000, "pcfr+", ("pdcfr+", "dcfr+")),
    ("Leduc", rmcore.leduc_poker, 50, "pcfr+", ("pdcfr+", "dcfr+")),
)
MATRIX_CASES = (
    ("3x3", lambda: rmcore.preset("rps-crash"), 100_000, "prm+", ("sprm+", "exrm+")),
    ("64x64", lambda: rmcore.preset("random-zero-sum", rows=64, cols=64, seed=1), 3_000, "prm+", ("sprm+", "exrm+")),
)
TARGET = 1.2
#: The rules that evaluate the regrets more than once an iteration: extragradient RM+, a look-ahead and a step.
EVALUATIONS = {"exrm+": 2}


def _medians(solvers: dict, iterations: int, rounds: int) -> dict[str, float]:
    """Seconds per iteration of each solver: the median over ``rounds`` rounds of ``iterations`` each (a few
    milliseconds), in turn, the order reversed every other round (so that none always follows the same one)."""
    times: dict[str, list[float]] = {name: [] for name in solvers}
    order = list(solvers.items())
    for k in range(rounds):
        for name, solver in order if k % 2 == 0 else order[::-1]:
            started = time.perf_counter()
            solver.run(iterations)
            times[name].append((time.perf_counter() - started) / iterations)
    return {name: statistics.median(values) for name, values in times.items()}


def _unit(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.1f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e3:.3f} ms"


def _solvers(game, names) -> dict:
    if isinstance(game, rmcore.TreeGame):
        return {name: rmcore.CFRSolver(game, name, max_points=0) for name in names}
    start = ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6]) if game.shape == (3, 3) else None
    return {name: rmcore.MatrixSolver(game, name, start=start, max_points=0) for name in names}


def frontier_rows(quick: bool = False) -> list[tuple[str, str, str, str, str]]:
    """``(name, ours, baseline, ratio, target)`` for every frontier variant: its time an iteration, its baseline's
    measured in the same rounds, and their ratio.

    Where a solver's arrays lie in memory moves its time by up to 1.8 times (PRM+ on the 64x64 game: 730 to 1,320 ns
    an iteration, the same solver measured again within 2%; addresses 4 KiB apart make the processor stall loads
    behind stores it wrongly takes for the same place). So each case is measured on ``instances`` fresh sets of
    solvers, all kept alive (new arrays, new places), and a time is the median over the instances of each
    instance's median over its rounds."""
    instances, rounds = (3, 5) if quick else (7, 9)
    rows = []
    for title, build, iterations, baseline, contenders in TREE_CASES + MATRIX_CASES:
        game = build()
        names = (baseline, *contenders)
        kept, per_instance = [], {name: [] for name in names}
        for _ in range(instances):
            solvers = _solvers(game, names)
            kept.append(solvers)
            for solver in solvers.values():  # (compiled or loaded, and past the first iterations' allocations)
                solver.run(max(iterations // 10, 1))
            for name, seconds in _medians(solvers, iterations // (4 if quick else 1) or 1, rounds).items():
                per_instance[name].append(seconds)
        times = {name: statistics.median(values) for name, values in per_instance.items()}
        for name in contenders:
            rows.append(
                (
                    f"{title} {name}: per iteration",
                    _unit(times[name]),
                    f"{_unit(times[baseline])} ({baseline})",
                    f"{times[name] / times[baseline]:.2f}x",
                    f"<= {TARGET:g}x {baseline}",
                )
            )
            if name in EVALUATIONS:  # (what an iteration of two regret evaluations costs per evaluation)
                share = times[name] / EVALUATIONS[name]
                rows.append(
                    (
                        f"{title} {name}: per regret evaluation ({EVALUATIONS[name]} an iteration)",
                        _unit(share),
                        f"{_unit(times[baseline])} ({baseline})",
                        f"{share / times[baseline]:.2f}x",
                        "",
                    )
                )
    return rows


def main(quick: bool = False) -> None:
    rows = frontier_rows(quick)
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'rmcore':>12}  {'baseline':>22}  {'ratio':>6}  target")
    for name, ours, baseline, ratio, target in rows:
        print(f"{name:<{width}}  {ours:>12}  {baseline:>22}  {ratio:>6}  {target}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and iterations")
    main(parser.parse_args().quick)
