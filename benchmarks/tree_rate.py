"""Chart updates per second of the tree page on its largest game, Liar's dice with 6 sides, in a real browser.

    python -m benchmarks.tree_rate                      # --seconds 15 by default, a screenshot in /tmp/tree_rate.png
    python -m benchmarks.tree_rate --seconds 30 --screenshot /tmp/liars.png

Opens the page at 1280x720 in headless Chromium against ``streamlit run``, on the catalogue's Liar's dice (6 sides)
by its link. Takes ten steps, presses Run and counts the exploitability chart's redraws (its own ``plotly_afterplot``
events, as ``tests/browser.py`` counts them). A measurement, printed and written to ``docs/performance/browser.json``;
no test asserts it.
"""

from __future__ import annotations

import argparse
import time
from urllib.parse import urlencode

import rmcore
from benchmarks import results
from tests.browser import (
    chart_states_while_running,
    chromium_page,
    click_until,
    iteration_shown,
    last_x_of_trace,
    running_app,
    wait_until_idle,
)

CHART_TRACE = "guide: 1/T"  # a trace of the exploitability chart, redrawn on every update


def open_liars_dice(page, url: str) -> None:
    query = urlencode({"kuhn_game": rmcore.TREE_GAMES["liars_dice"].title, "kuhn_liars_dice_sides": "6"})
    page.goto(f"{url}/game_trees?{query}")
    page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=120_000)
    wait_until_idle(page, 300)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--screenshot", default="/tmp/tree_rate.png")
    args = parser.parse_args()
    with running_app(timeout=120) as url, chromium_page(1280, 720) as page:
        open_liars_dice(page, url)
        click_until(
            page,
            page.get_by_role("button", name="Step +10", exact=True),
            lambda: last_x_of_trace(page, CHART_TRACE) is not None,
            timeout=300,
        )
        wait_until_idle(page, 300)
        page.get_by_role("radio", name="Run").click()
        time.sleep(3.0)  # past the first chunks, which learn the cost of an iteration
        first = iteration_shown(page)
        seen = chart_states_while_running(page, args.seconds, CHART_TRACE)
        last = iteration_shown(page)
        page.screenshot(path=args.screenshot)
        errors = page.locator("[data-testid=stException]").count()
    rate = (len(seen) - 1) / args.seconds
    print(
        f"Liar's dice, 6 sides, headless chromium 1280x720: {rate:.1f} chart updates per second over "
        f"{args.seconds:.0f} s (iteration {first} to {last}); {errors} errors; screenshot {args.screenshot}"
    )
    row = results.Row("browser_tree_liars_dice_6", "tree page, Liar's dice with 6 sides", rate, "updates a second")
    print(f"written to {results.write('browser', [row], 'python -m benchmarks.tree_rate')}")


if __name__ == "__main__":
    main()
