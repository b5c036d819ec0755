"""A page's live rate in a real browser against the library's own rate, measured in one run: Leduc hold'em on the tree
page, or Rock-Paper-Scissors with a crash on the matrix page.

    python -m benchmarks.leduc_rate                          # Leduc, CFR: server on core 0, browser on core 1
    python -m benchmarks.leduc_rate --variant cfr+ --seconds 20
    python -m benchmarks.leduc_rate --game rps-crash         # the matrix page's default game and rule (RM)

Prints the library's iterations per second of CPU for the game and variant (``run()`` on the server's core, before the
server starts), the page's iterations per second of wall time while one session runs it at full speed, and their
ratio; the target is 0.6x (a session alone gets most of each update: ``ui.governor.fair_budget``). A measurement,
printed and written to ``docs/performance/leduc_rate.json``; no test asserts it.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from urllib.parse import urlencode

import rmcore
from benchmarks import results
from tests.browser import chromium_page, click_until, iteration_shown, running_app, wait_until_idle

#: The page's rate a session alone should reach, as a share of the library's.
TARGET = results.PAGE_RATE_TARGET
#: Each game: the page that runs it, the link that opens it, and the library's solver for a variant.
GAMES = {
    "leduc": dict(
        page="game_trees",
        query=lambda variant: (
            {"kuhn_game": "Leduc hold'em"}
            | ({} if rmcore.CFRVariant.parse(variant) == rmcore.CFRVariant() else {"kuhn_variants": variant})
        ),
        solver=lambda variant: rmcore.CFRSolver(
            rmcore.leduc_poker(), rmcore.CFRVariant.parse(variant).algorithm, rmcore.CFRVariant.parse(variant).updates
        ),
        default="cfr",
    ),
    "rps-crash": dict(
        page="",
        query=lambda variant: {"preset": "rps-crash", "algorithm": variant},
        solver=lambda variant: rmcore.MatrixSolver(rmcore.preset("rps-crash"), variant),
        default="rm",
    ),
}


def library_rate(game: str, variant: str, seconds: float) -> float:
    """Iterations per second of this thread's CPU for ``variant`` on ``game`` through ``run()``, in calls of about 10 ms
    each after a first call to warm up."""
    solver = GAMES[game]["solver"](variant)
    solver.run(200)
    started = time.thread_time()
    solver.run(1_000)
    chunk = max(int(1_000 * 0.01 / max(time.thread_time() - started, 1e-6)), 1)
    iterations, started = 0, time.thread_time()
    while (spent := time.thread_time() - started) < seconds:
        solver.run(chunk)
        iterations += chunk
    return iterations / spent


def _iteration(page) -> int | None:
    text = iteration_shown(page).replace(",", "").strip()
    return int(text) if text.isdigit() else None


def page_rate(url: str, game: str, variant: str, seconds: float) -> tuple[float, int]:
    """Iterations per second the page shows while running ``game`` at full speed, and the iteration at the end."""
    spec = GAMES[game]
    with chromium_page(1280, 720) as page:
        page.goto(f"{url}/{spec['page']}?{urlencode(spec['query'](variant))}")
        page.get_by_role("radio", name="Run").wait_for(timeout=120_000)
        wait_until_idle(page, 180)
        click_until(page, page.get_by_role("radio", name="Run"), lambda: (_iteration(page) or 0) > 0, timeout=120)
        time.sleep(3.0)  # past the first chunks, which learn the cost of an iteration
        first, t0 = _iteration(page), time.perf_counter()
        time.sleep(seconds)
        last, t1 = _iteration(page), time.perf_counter()
    return (last - first) / (t1 - t0), last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="leduc")
    parser.add_argument("--variant", help="a CFR variant as the tree page's link writes it (cfr, cfr+), or a rule (rm)")
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    variant = args.variant or GAMES[args.game]["default"]
    cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cores[0]})
    load = os.getloadavg()[0]
    library = library_rate(args.game, variant, 3.0)
    os.sched_setaffinity(0, {cores[-1]})  # the browser started below inherits it
    with running_app(timeout=120, cpus=str(cores[0])) as url:
        rate, last = page_rate(url, args.game, variant, args.seconds)
    ratio = rate / library
    print(
        f"{args.game} {variant}: library {library:,.0f} iterations/s of CPU; page {rate:,.0f} iterations/s (at "
        f"iteration {last:,}, one session, server on core {cores[0]}); {ratio:.2f}x the library's rate (target "
        f"{TARGET:g}x); load average {load:.1f} at the start"
    )
    prefix = "leduc" if args.game == "leduc" else results.substitution_name(args.game)
    key = results.substitution_name(variant)
    measured = [
        results.Row(
            f"{prefix}_library_{key}", f"{args.game} {variant}: the library's rate", library, "iterations a second"
        ),
        results.Row(
            f"{prefix}_page_{key}",
            f"{args.game} {variant}: the page's rate, one session",
            rate,
            "iterations a second",
            f"{library:,.0f} a second (the library's rate)",
            ratio,
            target=f">= {TARGET:g}x the library's rate",
            met=ratio >= TARGET,
        ),
    ]
    command = shlex.join(["python", "-m", "benchmarks.leduc_rate", *sys.argv[1:]])
    print(f"written to {results.write('leduc_rate', measured, command)}")


if __name__ == "__main__":
    main()
