"""How the atlas scales with workers: ``python -m benchmarks.atlas_scaling [--quick] [--grid GRID.toml]``.

Runs the atlas's grid (or another) from scratch twice, into fresh temporary folders: on a local Dask cluster of one
worker, then of two (each run as ``python -m rmcore atlas`` runs it: the cluster's start and the kernels' warm-up
included), after loading every kernel the grid needs once so that neither run pays for a compile. Prints the two wall
times and their ratio, and writes them, with the machine and its load, to ``docs/performance/atlas-scaling.md``
(``--out``), which the performance page includes.

Beside each sweep's wall time it adds up its cells' own times (each result file's ``wall_seconds``): two workers can
only be twice as fast as one if a cell takes as long beside another as alone. What the machine allows is measured
directly too: the grid's heaviest cell (by :func:`rmcore.sweep.cost`) run alone in a worker process, then two copies
of it at once in two; twice the first time over the second is the speed-up two workers could reach on cells like it.
The same on the two workers of the cluster a sweep starts tells the machine's limit from the cluster's, and a fixed
arithmetic loop that touches no memory says what the host gives two busy cores at that moment.

Why a cell scales as it does is measured last: each tree game's CFR alone in a worker process and two copies at once,
beside the bytes one iteration touches (``python -m benchmarks.floors``). Two cores share one last-level cache: the
games whose two working sets fit in it run twice the work in the same time; the ones whose working sets do not go
out to memory and do less.

The full atlas takes two runs of it, one of them on a single core: expect about three times the two-worker time in
all. Run it on a quiet machine: the load average before and after each run is printed beside its time.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from benchmarks import results
from rmcore import atlas
from rmcore.sweep import (
    cost,
    local_cluster,
    machine,
    prepare_family,
    read_cell,
    read_grid,
    result_files,
    run_cell,
    run_sweep,
    versions,
)

TARGET = 1.8
#: The full atlas on two workers, at most (seconds).
TARGET_SECONDS = 20 * 60


def _load() -> str:
    return ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def measure(grid, workers: int) -> tuple[float, str, str, int, dict]:
    """Wall seconds of a sweep of ``grid`` on ``workers`` local workers into a fresh folder, the load averages before
    and after, the cells it ran, and each cell's own wall seconds by its game."""
    with tempfile.TemporaryDirectory(prefix=f"rmcore-scaling-{workers}-") as folder:
        before = _load()
        started = time.perf_counter()
        report = run_sweep(grid, folder, workers=workers)
        seconds = time.perf_counter() - started
        cells: dict = {}
        for path in result_files(folder):
            meta = read_cell(path).meta
            cells.setdefault(meta.get("game_title") or "?", {})[meta["id"]] = meta["wall_seconds"]
        return seconds, before, _load(), report.ran, cells


def _ready() -> None:
    """A worker process's first task, long enough that two submitted at once start both processes (each loading the
    cell's kernels first, in its initializer): neither start is timed."""
    time.sleep(1.0)


@contextlib.contextmanager
def _two_workers(initializer=None, initargs=()):
    """Two worker processes (spawned, ``initializer`` run in each), both started before anything is timed."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn, initializer=initializer, initargs=initargs) as pool:
        for started in [pool.submit(_ready) for _ in range(2)]:
            started.result()
        yield pool


def _wall_seconds(pool, function, *arguments):
    """``timed(copies)`` for :func:`_alone_and_pair`: the wall seconds of ``copies`` calls at once in ``pool``."""

    def timed(copies: int) -> float:
        clock = time.perf_counter()
        for done in [pool.submit(function, *arguments) for _ in range(copies)]:
            done.result()
        return time.perf_counter() - clock

    return timed


def _alone_and_pair(timed) -> tuple[float, float]:
    """One copy alone (the mean of a run before and a run after the pair) and two copies at once, as ``timed(copies)``
    measures them."""
    first = timed(1)
    pair = timed(2)
    last = timed(1)
    return (first + last) / 2, pair


def heaviest_cell_pair(grid) -> tuple[str, float, float]:
    """The grid's heaviest cell's name, its wall seconds alone in a worker process (the mean of a run before and a run
    after the pair), and the wall seconds of two copies of it started at once in two worker processes.

    Plain worker processes rather than Dask: this measures the machine (two cores, their shared cache and memory),
    not the scheduler; the sweeps above measure Dask with it.
    """
    cell = max(grid.cells, key=cost)
    with _two_workers(prepare_family, (cell.family,)) as pool:
        alone, pair = _alone_and_pair(_wall_seconds(pool, run_cell, cell))
    return cell.name, alone, pair


def heaviest_cell_on_dask(grid) -> tuple[float, float]:
    """The same as :func:`heaviest_cell_pair` on the two workers of the cluster a sweep starts
    (:func:`rmcore.sweep.local_cluster`): the heaviest cell alone (mean of a run before and after) and two copies at
    once. Beside the plain processes' figure, it tells the machine's limit from the cluster's."""
    from dask.distributed import Client

    cell = max(grid.cells, key=cost)
    with local_cluster(2, dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(prepare_family, cell.family)

        def timed(copies: int) -> float:
            clock = time.perf_counter()
            client.gather([client.submit(run_cell, cell, pure=False) for _ in range(copies)])
            return time.perf_counter() - clock

        return _alone_and_pair(timed)


#: The tree games the working-set pairs run (catalogue names and parameters): the atlas's, and Liar's dice with five
#: sides between its four and six.
PAIR_GAMES = (
    ("kuhn", {}),
    ("leduc", {}),
    ("goofspiel", {"cards": 4}),
    ("goofspiel", {"cards": 5}),
    ("liars_dice", {"sides": 3}),
    ("liars_dice", {"sides": 4}),
    ("liars_dice", {"sides": 5}),
    ("liars_dice", {"sides": 6}),
)
#: Seconds one copy of a working-set pair runs alone (its iterations are counted to take about this long).
PAIR_SECONDS = 1.5


def _cfr_run(name: str, parameters: dict, iterations: int) -> float:
    """Wall seconds of ``iterations`` alternating CFR iterations on the game (its solver made and started first)."""
    from rmcore import CFRSolver, tree_game

    solver = CFRSolver(tree_game(name, **parameters), max_points=0)
    solver.run(2)
    clock = time.perf_counter()
    solver.run(iterations)
    return time.perf_counter() - clock


def working_set_pairs() -> list[tuple[str, float, float, float]]:
    """For each of :data:`PAIR_GAMES`: its name, the megabytes one CFR iteration touches, and the seconds its CFR takes
    alone in a worker process (the mean of a run before and after the pair) and, for the slower copy, two copies at
    once in two."""
    from benchmarks.floors import counts
    from rmcore import tree_game

    out = []
    with _two_workers(prepare_family, ("tree",)) as pool:
        for name, parameters in PAIR_GAMES:
            game = tree_game(name, **parameters)
            per_iteration = pool.submit(_cfr_run, name, parameters, 20).result() / 20
            iterations = max(20, int(PAIR_SECONDS / per_iteration))

            def timed(copies: int, run=(name, parameters, iterations)) -> float:
                """The slowest copy's own time (each copy's game is built before its clock starts)."""
                return max(done.result() for done in [pool.submit(_cfr_run, *run) for _ in range(copies)])

            out.append((game.name, counts(game)["bytes"] / 1e6, *_alone_and_pair(timed)))
    return out


def _pair_keys() -> list[str]:
    """The data-file keys of :data:`PAIR_GAMES`' rows: ``leduc``, ``liars_dice_6``, ..."""
    return ["_".join([name, *(str(value) for value in parameters.values())]) for name, parameters in PAIR_GAMES]


def _arithmetic(rounds: int = 30_000_000) -> float:
    """A fixed loop of integer arithmetic in a few bytes of memory (the control beside the heaviest cell)."""
    total = 0
    for i in range(rounds):
        total = (total + i * i) & 0xFFFF
    return float(total)


def arithmetic_pair() -> tuple[float, float]:
    """The wall seconds of :func:`_arithmetic` alone in a worker process (the mean of a run before and after the pair)
    and of two copies at once in two: what the host gives two busy cores at this moment, with no memory to share.
    On a virtual machine whose two cores share their physical cores or their host with other work, this is below 2x
    too, and then no sweep can reach 2x."""
    with _two_workers() as pool:
        return _alone_and_pair(_wall_seconds(pool, _arithmetic))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.atlas_scaling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the quick atlas (1,000 iterations, one seed)")
    parser.add_argument("--grid", metavar="GRID.toml", help="another grid than the atlas's")
    parser.add_argument("--out", default="docs/performance/atlas-scaling.md", help="where the table goes")
    args = parser.parse_args(argv)
    if args.grid:
        try:
            grid = read_grid(args.grid)
        except (OSError, ValueError) as error:  # (GridError is a ValueError) a message, not a traceback
            parser.error(f"--grid {args.grid}: {error}")
        command = f"python -m benchmarks.atlas_scaling --grid {args.grid}"
    else:
        grid = atlas.atlas_grid(quick=args.quick)
        command = "python -m benchmarks.atlas_scaling" + (" --quick" if args.quick else "")
    print(f"{len(grid.cells)} cells; loading (or compiling) their kernels first", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="rmcore-scaling-warm-") as folder:
        run_sweep(grid.with_settings(iterations=2, checkpoints=[1, 2], seeds=[0]), folder, workers=0)
    rows = []
    for workers in (1, 2):
        seconds, before, after, ran, by_game = measure(grid, workers)
        cells = sum(sum(times.values()) for times in by_game.values())
        rows.append((workers, seconds, before, after, ran, cells, by_game))
        print(
            f"{workers} worker(s): {seconds:.1f} s for {ran} cells, their own times adding up to {cells:.1f} s "
            f"(load {before} -> {after})",
            file=sys.stderr,
        )
    speedup = rows[0][1] / rows[1][1]
    print(f"two workers: {speedup:.2f}x as fast as one (target {TARGET}x)")
    print("each game's cells, their own times added up, on one worker and on two:", file=sys.stderr)
    for game, alone in sorted(rows[0][6].items(), key=lambda item: -sum(item[1].values())):
        beside = rows[1][6].get(game, {})
        both = [cell for cell in alone if cell in beside]
        one, two = sum(alone[c] for c in both), sum(beside[c] for c in both)
        print(f"  {game}: {one:.1f} s -> {two:.1f} s ({two / one if one else float('nan'):.2f}x)", file=sys.stderr)
    name, alone, pair = heaviest_cell_pair(grid)
    ceiling = 2 * alone / pair
    print(f"the heaviest cell, {name}: {alone:.1f} s alone, {pair:.1f} s for two at once: {ceiling:.2f}x")
    dask_alone, dask_pair = heaviest_cell_on_dask(grid)
    on_dask = 2 * dask_alone / dask_pair
    print(f"the same on two Dask workers: {dask_alone:.1f} s alone, {dask_pair:.1f} s for two at once: {on_dask:.2f}x")
    loop_alone, loop_pair = arithmetic_pair()
    host = 2 * loop_alone / loop_pair
    print(f"a fixed arithmetic loop: {loop_alone:.2f} s alone, {loop_pair:.2f} s for two at once: {host:.2f}x")
    pairs = working_set_pairs()
    print("each game's CFR, two copies at once over one alone, by the bytes an iteration touches:")
    for game, megabytes, alone_game, pair_game in pairs:
        print(f"  {game}: {megabytes:.1f} MB, {2 * alone_game / pair_game:.2f}x")
    about = machine()
    lines = [
        f"<!-- Generated by `{command}`: do not edit; run it again. -->",
        "",
        f"`{command}` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {about['processor']} ({about['cores']} "
        f"cores), rmcore {versions()['rmcore']}: {len(grid.cells)} runs of up to "
        f"{max(c.spec['iterations'] for c in grid.cells):,} iterations, each sweep from an empty results folder "
        "(cluster start and kernel loading included, kernels compiled beforehand).",
        "",
        "| workers | wall time | the cells' own times, added up | load average before → after | speed-up |",
        "|---|---|---|---|---|",
    ]
    for workers, seconds, before, after, _, cells, _ in rows:
        ratio = "1x" if workers == 1 else f"**{speedup:.2f}x**"
        lines.append(
            f"| {workers} | {seconds / 60:.1f} min ({seconds:.0f} s) | {cells:.0f} s | {before} → {after} | {ratio} |"
        )
    lines += [
        "",
        f"What two cores give on the heaviest cell, {name} (worker processes without Dask): {alone:.1f} s alone, "
        f"{pair:.1f} s for two copies at once, so two at once do **{ceiling:.2f}x** the work of one in the same time.",
        f"The same on the two workers of the cluster a sweep starts: {dask_alone:.1f} s alone, {dask_pair:.1f} s for "
        f"two at once, **{on_dask:.2f}x**. "
        f"The same for a fixed loop of integer arithmetic that touches no memory: {loop_alone:.2f} s alone, "
        f"{loop_pair:.2f} s for two at once, **{host:.2f}x**: what the host gave two busy cores at that moment.",
        "",
        "Each tree game's CFR (alternating updates, no history), one copy alone in a worker process and two at once, "
        "beside the bytes one of its iterations touches (`python -m benchmarks.floors`): the two cores share one "
        "last-level cache and the memory behind it.",
        "",
        "| game | bytes an iteration touches | alone | two at once | work done over one alone |",
        "|---|---|---|---|---|",
        *(
            f"| {game} | {megabytes:.1f} MB | {alone:.2f} s | {pair:.2f} s | {2 * alone / pair:.2f}x |"
            for game, megabytes, alone, pair in pairs
        ),
        "",
    ]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    quick = "_quick" if args.quick else ""
    measured = [
        results.Row(f"atlas{quick}_one_worker", "the atlas on one worker", rows[0][1], "s"),
        results.Row(
            f"atlas{quick}_two_workers",
            "the atlas on two workers",
            rows[1][1],
            "s",
            f"{rows[0][1]:.0f} s (one worker)",
            speedup,
            f">= {TARGET}x as fast as one worker" + ("" if args.quick else f", <= {TARGET_SECONDS // 60} min"),
            speedup >= TARGET and (args.quick or rows[1][1] <= TARGET_SECONDS),
        ),
        results.Row(
            f"atlas{quick}_cells_inflation",
            "the atlas's cells' own times on two workers over one",
            rows[1][5] / rows[0][5],
            "x",
        ),
        results.Row(
            f"atlas{quick}_heaviest_pair",
            f"two copies of the heaviest cell ({name}) at once: work done over one copy alone",
            ceiling,
            "x",
            f"{alone:.1f} s alone, {pair:.1f} s for two",
        ),
        results.Row(
            f"atlas{quick}_heaviest_pair_dask",
            f"two copies of the heaviest cell ({name}) at once on two Dask workers: work done over one copy alone",
            on_dask,
            "x",
            f"{dask_alone:.1f} s alone, {dask_pair:.1f} s for two",
        ),
        results.Row(
            f"atlas{quick}_arithmetic_pair",
            "two copies of a fixed arithmetic loop at once: work done over one copy alone",
            host,
            "x",
            f"{loop_alone:.2f} s alone, {loop_pair:.2f} s for two",
        ),
        *(
            results.Row(
                f"atlas{quick}_pair_{game_key}",
                f"two copies of {game}'s CFR at once ({megabytes:.1f} MB an iteration): work done over one alone",
                2 * alone_game / pair_game,
                "x",
                f"{alone_game:.2f} s alone, {pair_game:.2f} s for two",
            )
            for (game, megabytes, alone_game, pair_game), game_key in zip(pairs, _pair_keys())
        ),
    ]
    if not args.grid:
        print(f"written to {results.write('atlas_scaling', measured, command)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
