"""Leduc hold'em's live rate in a real browser against the library's own rate, measured in one run.

    python -m benchmarks.leduc_rate              # server on core 0, browser on core 1
    python -m benchmarks.leduc_rate --seconds 20 --variant cfr+

Prints the library's iterations per second of CPU for the variant (on the server's core, before the server starts),
the page's iterations per second of wall time while running at full speed, and their ratio to what the solver's
share of each update allows: ``TIME_BUDGET / UPDATE_INTERVAL`` of the library's rate (25 ms of every 100 ms).
A measurement, printed and written to ``docs/performance/leduc_rate.json``; no test asserts it.
"""

from __future__ import annotations

import argparse
import os
import time
from urllib.parse import urlencode

import rmcore
from benchmarks import results
from tests.browser import chromium_page, click_until, iteration_shown, running_app, wait_until_idle
from ui.live import TIME_BUDGET, UPDATE_INTERVAL


def library_rate(variant: str, seconds: float) -> float:
    """Iterations per second of this thread's CPU for ``variant`` on Leduc, in chunks of 50 after 200 to warm up."""
    chosen = rmcore.CFRVariant.parse(variant)
    solver = rmcore.CFRSolver(rmcore.leduc_poker(), chosen.algorithm, chosen.updates)
    solver.run(200)
    iterations, started = 0, time.thread_time()
    while (spent := time.thread_time() - started) < seconds:
        solver.run(50)
        iterations += 50
    return iterations / spent


def _iteration(page) -> int | None:
    text = iteration_shown(page).replace(",", "").strip()
    return int(text) if text.isdigit() else None


def page_rate(url: str, variant: str, seconds: float) -> tuple[float, int]:
    """Iterations per second the page shows while running Leduc at full speed, and the iteration at the end."""
    chosen = rmcore.CFRVariant.parse(variant)
    query = urlencode(
        {"kuhn_game": "Leduc hold'em"} | ({} if chosen == rmcore.CFRVariant() else {"kuhn_variants": chosen.label})
    )
    with chromium_page(1280, 720) as page:
        page.goto(f"{url}/game_trees?{query}")
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
    parser.add_argument("--variant", default="cfr", help="a CFR variant as the page's link writes it, e.g. cfr or cfr+")
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    os.sched_setaffinity(0, {0})
    library = library_rate(args.variant, 3.0)
    os.sched_setaffinity(0, {1})  # the browser started below inherits it
    with running_app(timeout=120, cpus="0") as url:
        rate, last = page_rate(url, args.variant, args.seconds)
    share = TIME_BUDGET / UPDATE_INTERVAL
    print(
        f"Leduc {args.variant}: library {library:,.0f} iterations/s of CPU; page {rate:,.0f} iterations/s "
        f"(at iteration {last:,}); {rate / (share * library):.0%} of what a {share:.0%} solver share allows"
    )
    key = results.substitution_name(args.variant)
    measured = [
        results.Row(
            f"leduc_library_{key}", f"Leduc {args.variant}: the library's rate", library, "iterations a second"
        ),
        results.Row(
            f"leduc_page_{key}",
            f"Leduc {args.variant}: the page's rate, one session",
            rate,
            "iterations a second",
            f"{share * library:,.0f} a second (the solver's share of the library's rate)",
            rate / (share * library),
        ),
    ]
    command = f"python -m benchmarks.leduc_rate --variant {args.variant}"
    print(f"written to {results.write('leduc_rate', measured, command)}")


if __name__ == "__main__":
    main()
