"""How often a page's live charts update while running, in a real browser: headless Chromium against
``streamlit run`` (a measurement, printed and written to ``docs/performance/browser.json``; speed targets are not
asserted in tests).

    python -m benchmarks.browser_rate                      # matrix page, one variant
    python -m benchmarks.browser_rate --page kuhn          # the game-tree page (its id is kuhn), Kuhn poker
    python -m benchmarks.browser_rate --race 8             # matrix page, a race of 8 variants (3x3)
    python -m benchmarks.browser_rate --page kuhn --race 10
    python -m benchmarks.browser_rate --lesson rules       # a lesson's link (rules, kuhn, leduc)
    python -m benchmarks.browser_rate --pin                # server on core 0, browser on core 1
    python -m benchmarks.browser_rate --query "preset=Matching+pennies&algorithm=hedge" --key browser_pennies_hedge

The rate is the main live chart's own ``plotly_afterplot`` events over ``--seconds`` at full speed. Each case is a row
of the data file, keyed ``browser_{page}_{race}``, ``browser_lesson_{lesson}`` or ``--key``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

from benchmarks import results
from tests.browser import chart_states_while_running, chromium_page, open_lesson_and_run, open_page_and_run, running_app

#: The updates a second every page should reach.
TARGET = 4.0


def main() -> None:
    parser = argparse.ArgumentParser(description="Chart updates per second in headless Chromium against streamlit run.")
    parser.add_argument("--page", choices=["matrix", "kuhn"], default="matrix")
    parser.add_argument("--race", type=int, default=1, help="variants running (1: no race)")
    parser.add_argument("--lesson", choices=["rules", "kuhn", "leduc"], help="run a lesson's link instead")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--query", default="", help="a link's parameters for the matrix page (its setup)")
    parser.add_argument("--pin", action="store_true", help="server on core 0, browser and this script on core 1")
    parser.add_argument("--key", help="the data file's name for this case (needed with --query)")
    args = parser.parse_args()
    if args.query and not args.key:
        parser.error("--query needs --key: the data file's name for the case")
    if args.pin:
        os.sched_setaffinity(0, {1})  # the browser started below inherits it
    with running_app(cpus="0" if args.pin else None) as url, chromium_page() as page:
        if args.lesson:
            name = open_lesson_and_run(page, url, args.lesson)
        else:
            opened = f"{url}/?{args.query}" if args.query and args.page == "matrix" else url
            name = open_page_and_run(page, opened, args.page, args.race)
        time.sleep(1.0)
        seen = chart_states_while_running(page, args.seconds, name)
        errors = page.locator("[data-testid=stException]").count()
    rate = (len(seen) - 1) / args.seconds
    what = f"the {args.lesson} lesson" if args.lesson else f"{args.page} page, {args.race} variant(s)"
    what += f" ({args.query})" if args.query else ""
    print(
        f"{what}, headless chromium{' (pinned)' if args.pin else ''}: {rate:.1f} "
        f"chart updates per second over {args.seconds:.0f} s; {seen[-1] if seen else 0:,.0f} iterations drawn at the "
        f"end; {errors} errors"
    )
    key = args.key or (f"browser_lesson_{args.lesson}" if args.lesson else f"browser_{args.page}_{args.race}")
    row = results.Row(key, what, rate, "updates a second", target=f">= {TARGET:g} updates a second", met=rate >= TARGET)
    command = shlex.join(["python", "-m", "benchmarks.browser_rate", *sys.argv[1:]])
    print(f"written to {results.write('browser', [row], command)}")


if __name__ == "__main__":
    main()
