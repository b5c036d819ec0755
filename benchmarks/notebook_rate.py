"""How often a watched solver's charts update in a notebook, and how long an update keeps the kernel from answering
(a measurement, printed and written to ``docs/performance/notebook.json``; speed targets are not asserted in tests):

    python -m benchmarks.notebook_rate                   # CFR+ on Kuhn poker, as fast as possible, for --seconds
    python -m benchmarks.notebook_rate --game leduc --seconds 20
    python -m benchmarks.notebook_rate --browser --pin   # the tutorial notebook in JupyterLab, in Chromium

Without ``--browser`` the view (``rmcore.plotting.watch``) runs in its own thread as in a notebook, without a
browser: its widgets hold what they would send. Meanwhile this thread stands in for the kernel, waking every
millisecond; the longest it waited beyond that is the longest the view's thread held the interpreter (the GIL) in one
go. Printed: updates a second, the longest drawing time of an update (``Watch.longest_update``), that longest wait,
and the load average (on a shared machine the times follow the load).

With ``--browser`` the tutorial notebook ``docs/tutorials/cfr-in-a-notebook.ipynb`` runs in a real JupyterLab
(``tests/jupyter.py``); after its cells have run, Run is pressed on the Kuhn view and the rate is the view's first
chart's own ``plotly_afterplot`` events in Chromium (``--pin``: JupyterLab and its kernel on core 0, the browser on
core 1).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

import rmcore
from benchmarks import results

#: The updates a second a watched run should reach, and the longest an update may keep the kernel waiting.
TARGET_RATE = 5.0
TARGET_WAIT = 0.2
NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "tutorials" / "cfr-in-a-notebook.ipynb"


def in_the_kernel(game: str, algorithm: str, seconds: float) -> list[results.Row]:
    from rmcore.plotting import watch

    solver = rmcore.CFRSolver(rmcore.tree_game(game), algorithm)
    solver.run(1)  # (the kernels loaded before the clock starts)
    view = watch(solver, image=False)
    view.update()
    first = view.updates
    view.play()
    began = last = time.perf_counter()
    longest_wait = 0.0
    while time.perf_counter() - began < seconds:
        time.sleep(0.001)
        now = time.perf_counter()
        longest_wait = max(longest_wait, now - last - 0.001)
        last = now
    elapsed = time.perf_counter() - began
    view.pause()
    updates = view.updates - first
    rate = updates / elapsed
    print(f"{algorithm} on {game}: {updates} updates in {elapsed:.1f} s ({rate:.1f} a second)")
    print(f"iterations: {solver.iteration:,}")
    print(f"longest drawing of an update: {view.longest_update * 1000:.0f} ms")
    print(f"longest wait of the kernel's thread: {longest_wait * 1000:.0f} ms")
    what = f"a watched {algorithm} run on {game}, in the kernel"
    return [
        results.Row(
            f"notebook_{game}_kernel_rate",
            what,
            rate,
            "updates a second",
            target=f">= {TARGET_RATE:g} updates a second",
            met=rate >= TARGET_RATE,
        ),
        results.Row(
            f"notebook_{game}_kernel_wait",
            f"{what}: the kernel's longest wait",
            longest_wait,
            "seconds",
            target=f"<= {TARGET_WAIT:g} seconds",
            met=longest_wait <= TARGET_WAIT,
        ),
    ]


def in_a_browser(seconds: float, pin: bool) -> list[results.Row]:
    from rmcore.plotting import words
    from tests.browser import chart_states_while_running, chromium_page
    from tests.jupyter import last_iteration, open_notebook, run_all_cells, running_jupyterlab, wait_for

    with running_jupyterlab([NOTEBOOK], cpus="0" if pin else None) as (url, _):
        if pin:
            os.sched_setaffinity(0, {1})  # the browser started below inherits it
        with chromium_page(width=1280, height=900) as page:
            open_notebook(page, url, NOTEBOOK.name)
            run_all_cells(page)
            wait_for(lambda: last_iteration(page) is not None, 240, "the Kuhn view never drew")
            page.get_by_text("| Idle").first.wait_for(timeout=240_000)
            page.locator(".widget-button").filter(has_text=words.WATCH_RUN).first.click()
            time.sleep(2.0)
            seen = chart_states_while_running(page, seconds, "average")
            page.locator(".widget-button").filter(has_text=words.WATCH_PAUSE).first.click()
    rate = (len(seen) - 1) / seconds
    print(
        f"the tutorial notebook's Kuhn view in JupyterLab, headless chromium{' (pinned)' if pin else ''}: {rate:.1f} "
        f"chart updates a second over {seconds:.0f} s; iteration {seen[-1] if seen else 0:,.0f} drawn at the end"
    )
    return [
        results.Row(
            "notebook_kuhn_browser_rate",
            "a watched cfr+ run on kuhn, in JupyterLab in Chromium",
            rate,
            "updates a second",
            target=f">= {TARGET_RATE:g} updates a second",
            met=rate >= TARGET_RATE,
        )
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description="Time a watched solver's updates.")
    parser.add_argument("--game", default="kuhn", choices=sorted(rmcore.TREE_GAMES))
    parser.add_argument("--algorithm", default="cfr+")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--browser", action="store_true", help="the tutorial notebook in JupyterLab, in Chromium")
    parser.add_argument("--pin", action="store_true", help="with --browser: JupyterLab on core 0, Chromium on core 1")
    args = parser.parse_args()
    if args.browser and (args.game, args.algorithm) != ("kuhn", "cfr+"):
        parser.error("--browser runs the tutorial notebook's view: CFR+ on Kuhn poker")
    rows = (
        in_a_browser(args.seconds, args.pin) if args.browser else in_the_kernel(args.game, args.algorithm, args.seconds)
    )
    print(f"load average: {' '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores")
    command = shlex.join(["python", "-m", "benchmarks.notebook_rate", *sys.argv[1:]])
    print(f"written to {results.write('notebook', rows, command)}")


if __name__ == "__main__":
    main()
