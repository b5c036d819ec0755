"""A server started from a fresh install (an empty numba cache): how long until the first chart, and does any setting
change freeze the page? A measurement, printed and written to ``docs/performance/cold_start.json``;
``tests/test_browser.py`` checks the same with a limit (slow).

    python -m benchmarks.cold_start                # streamlit run with an empty NUMBA_CACHE_DIR, headless Chromium
    python -m benchmarks.cold_start --game leduc   # the same, but the first page opened is the CFR page on Leduc

Printed: seconds from `streamlit run` to the first chart drawn with data (Run pressed as soon as it shows), then, while
running, for each switch of a setting that needs another compiled kernel (updates, sampling, averaging, algorithm, and
two Kuhn variants), the seconds from the click (the page's own clock) to the first screen update of the new run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
import urllib.parse

from benchmarks import results
from tests.browser import chromium_page, last_iteration_on_chart, running_app, wait_until_idle

#: Matrix settings to switch to in turn while running: each needs a kernel of its own.
SWITCHES = [("radio", "alternating"), ("radio", "sampled"), ("radio", "linear"), ("option", "Predictive RM+")]


def iteration_number(page) -> int | None:
    values = page.locator("[data-testid=stMetricValue]")
    text = values.first.inner_text() if values.count() else ""
    digits = text.split(" ")[0].replace(",", "")
    return int(digits) if digits.isdigit() else None


#: Installed in every page: when the last click reached the page, and (once armed) when the metric shows a new run.
_CLOCK_JS = """
window.__rmClicks = [];
document.addEventListener('click', () => window.__rmClicks.push(performance.now()), true);
"""
_ARM_JS = """([before, started]) => {
  window.__rmShown = null;
  const read = () => { const v = document.querySelector('[data-testid=stMetricValue]');
                       return v ? Number(v.innerText.split(' ')[0].replaceAll(',', '')) : NaN; };
  const observer = new MutationObserver(() => {
    if (started ? read() > 0 : read() < before) { window.__rmShown = performance.now(); observer.disconnect(); } });
  observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def first_update_after(page, click, timeout: float = 60.0, started: bool = False) -> float:
    """Seconds from the (last) click reaching the page until the page shows a new run's first iterations (the run
    restarts at 0; with ``started``, a run starts from 0), both read from the page's own clock: Playwright's time to
    find and click an element in a busy page is not the user's. The page must have ``_CLOCK_JS`` installed."""
    before = iteration_number(page) or 0
    page.evaluate(_ARM_JS, [before, started])
    begun = time.perf_counter()
    click()
    while time.perf_counter() - begun < timeout:
        shown = page.evaluate("window.__rmShown")
        if shown is not None:
            clicks = [t for t in page.evaluate("window.__rmClicks") if t <= shown]
            return (shown - clicks[-1]) / 1000.0
        time.sleep(0.02)
    return float("inf")


#: Kuhn variants to add while running (a race: the run restarts with both).
KUHN_SWITCHES = ["cfr+ · alternating", "chance-sampling · simultaneous"]


def choose_kuhn_variant(page, label: str) -> None:
    page.get_by_role("combobox").first.click()
    page.get_by_role("option", name=label, exact=True).click()
    page.keyboard.press("Escape")


def press_run(page, timeout: float = 120.0) -> None:
    run = page.get_by_role("radio", name="Run")
    run.wait_for(timeout=timeout * 1000)
    deadline = time.time() + timeout
    while time.time() < deadline:
        run.click()
        for _ in range(50):
            if (iteration_number(page) or 0) > 0:
                return
            time.sleep(0.2)
    raise RuntimeError("Run never took effect")


def switch(page, kind: str, name: str):
    if kind == "radio":
        return lambda: page.get_by_role("radio", name=name, exact=True).click(
            force=True
        )  # (a radio's input sits under its label)

    def choose():
        page.get_by_role("combobox", name="Variant", exact=True).click()
        page.get_by_role("option", name=name, exact=True).click()

    return choose


def measure(cache: str | None = None) -> dict:
    cache = cache or tempfile.mkdtemp(prefix="rm-cold-numba-")
    os.environ["NUMBA_CACHE_DIR"] = cache  # the server started below inherits it: nothing compiled yet
    started = time.perf_counter()
    results = {}
    with running_app(timeout=120) as url, chromium_page(width=1280, height=1600) as page:
        page.add_init_script(_CLOCK_JS)
        page.goto(url)
        press_run(page)
        deadline = time.time() + 120
        while (
            not (last_iteration_on_chart(page) or 0) > 0 and time.time() < deadline
        ):  # (the charts wait, empty, before Run)
            time.sleep(0.1)
        results["first chart"] = time.perf_counter() - started
        print(
            f"from `streamlit run` (empty numba cache) to the first chart: {results['first chart']:.1f} s", flush=True
        )
        time.sleep(1.0)
        for kind, name in SWITCHES:
            seconds = first_update_after(page, switch(page, kind, name))
            results[name] = seconds
            print(f"switched to {name} while running: first update after {seconds:.2f} s", flush=True)
            time.sleep(1.5)
        page.get_by_role("radio", name="Pause").click()
        wait_until_idle(page)
        page.goto(f"{url}/game_trees")
        clicked = time.perf_counter()
        press_run(page)
        results["kuhn"] = time.perf_counter() - clicked
        print(
            f"Kuhn page opened and Run pressed: first update after {results['kuhn']:.2f} s (page load included)",
            flush=True,
        )
        time.sleep(1.5)
        for label in KUHN_SWITCHES:
            seconds = first_update_after(page, lambda label=label: choose_kuhn_variant(page, label))
            results[label] = seconds
            print(f"Kuhn: {label} added while running: first update after {seconds:.2f} s", flush=True)
            time.sleep(1.5)
    return results


def _rows(measured: dict) -> list[results.Row]:
    """The measurement as data rows: the first chart, the slowest matrix switch, the tree page's first update and its
    slowest switch."""
    matrix = [measured[name] for _, name in SWITCHES]
    tree = [measured[label] for label in KUHN_SWITCHES]
    return [
        results.Row(
            "cold_first_chart",
            "`streamlit run` to the first chart with data",
            measured["first chart"],
            "s",
            target="<= 15 s",
            met=measured["first chart"] <= 15,
        ),
        results.Row(
            "cold_matrix_switch",
            "slowest switch while running (updates, sampling, averaging, PRM+)",
            max(matrix),
            "s",
            target="<= 1 s",
            met=max(matrix) <= 1,
        ),
        results.Row(
            "cold_tree_first_update",
            "tree page opened, Run pressed: first update (page load included)",
            measured["kuhn"],
            "s",
        ),
        results.Row(
            "cold_tree_switch",
            "tree page: slowest variant added while running",
            max(tree),
            "s",
            target="<= 1 s",
            met=max(tree) <= 1,
        ),
    ]


#: The CFR page's games beyond classic Kuhn, by the label its shared link carries.
POKER_GAMES = {"sliders": "Kuhn on sliders", "leduc": "Leduc hold'em"}


def measure_poker_first(game: str, cache: str | None = None) -> float:
    """Seconds from `streamlit run` (empty numba cache) until the CFR page, opened first on ``game`` (``sliders`` or
    ``leduc``, by its shared link) with Run pressed at once, shows its first update."""
    os.environ["NUMBA_CACHE_DIR"] = cache or tempfile.mkdtemp(prefix="rm-cold-numba-")
    started = time.perf_counter()
    with running_app(timeout=120) as url, chromium_page(width=1280, height=1600) as page:
        page.goto(f"{url}/game_trees?" + urllib.parse.urlencode({"kuhn_game": POKER_GAMES[game]}))
        press_run(page, timeout=180)
        seconds = time.perf_counter() - started
        print(
            f"from `streamlit run` (empty numba cache) to the first {game} update on the CFR page: {seconds:.1f} s",
            flush=True,
        )
        page.screenshot(path=os.path.join(tempfile.gettempdir(), f"cold_{game}.png"), full_page=False)
    results.write(
        "cold_start",
        [results.Row(f"cold_{game}_first_update", f"`streamlit run` to the first {game} update", seconds, "s")],
        f"python -m benchmarks.cold_start --game {game}",
    )
    return seconds


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["sliders", "leduc"], help="open the CFR page on this game first instead")
    arguments = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        if arguments.game:
            measure_poker_first(arguments.game)
        else:
            print(f"written to {results.write('cold_start', _rows(measure()), 'python -m benchmarks.cold_start')}")
