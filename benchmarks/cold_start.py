"""A server's first minute as a lecturer meets it, from a fresh install (an empty numba cache), in headless Chromium
with the browser on the same machine. A measurement, printed and written to ``docs/performance/cold_start.json``.

    python -m benchmarks.cold_start                  # the matrix page, then the game-tree page, at 1280x720
    python -m benchmarks.cold_start --tree-first     # the game-tree page first
    python -m benchmarks.cold_start --warm           # then a second server on the cache the first filled
    python -m benchmarks.cold_start --switches       # settings switched while running, each switch timed
    python -m benchmarks.cold_start --game leduc     # the tree page first, on Leduc, by its link
    python -m benchmarks.cold_start --readme         # the README's first command: compile both families, then serve

By default, for each page: the seconds from ``streamlit run`` to the first chart with data (Run pressed as soon as the
page shows it), to the moment the line "compiling ... s so far" under the iteration is gone (compiled code runs from
then on; for a page that never shows it, the moment its kernel family's last file went into the numba cache, when that
came before the page's first update), and the longest wait between two screen updates while it runs; every time stamped
by the page itself (``Date.now()``). With ``--switches``: for each switch of a setting while running (updates,
sampling, averaging, a rule, two tree variants), the seconds from the click (the page's own clock) to the first screen
update of the new run. With ``--readme``: the README's compile step on an empty cache (timed, the load average
before and after it), then each page's first chart and compiled code after ``streamlit run``.
"""

from __future__ import annotations

import argparse
import contextlib
import json  # noqa: F401
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from benchmarks import results
from tests.browser import ROOT, chromium_page, last_iteration_on_chart, running_app, wait_until_idle

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


#: Stamps every change of the iteration metric and whether a compile line shows, from the page's own clock.
_WATCH_JS = """
window.__rmUpdates = [];
window.__rmCompiling = [];
const readMetric = () => { const v = document.querySelector('[data-testid=stMetricValue]');
                           return v ? v.innerText : null; };
let lastMetric = null;
new MutationObserver(() => {
  const now = Date.now();
  const metric = readMetric();
  if (metric !== null && metric !== lastMetric) { lastMetric = metric; window.__rmUpdates.push([now, metric]); }
  window.__rmCompiling.push([now, document.body.innerText.includes('(once per server)')]);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def _iteration(text: str | None) -> int:
    digits = (text or "").split(" ")[0].replace(",", "")
    return int(digits) if digits.isdigit() else 0


def _press_run_watched(page, timeout: float = 120.0) -> None:
    run = page.get_by_role("radio", name="Run")
    run.wait_for(timeout=timeout * 1000)
    deadline = time.time() + timeout
    while time.time() < deadline:  # (a click during the page's first script run can be lost: press until it runs)
        run.click()
        for _ in range(25):
            updates = page.evaluate("window.__rmUpdates")
            if any(_iteration(text) > 0 for _, text in updates):
                return
            time.sleep(0.2)
    raise RuntimeError("Run never took effect")


#: The longest a page is watched for its compile to end, past its ``seconds``: a busy machine's compile takes minutes.
COMPILE_WAIT = 180.0


def _watch(page, path: str, started_ms: float, seconds: float) -> dict:
    """Open ``path``, press Run, watch for ``seconds`` and on until the line "compiling ... s so far" is gone (at most
    :data:`COMPILE_WAIT` more); times relative to ``started_ms`` (``streamlit run``, in ms since the epoch)."""
    page.goto(path)
    _press_run_watched(page)
    time.sleep(seconds)
    deadline = time.time() + COMPILE_WAIT
    while "(once per server)" in page.inner_text("body") and time.time() < deadline:
        time.sleep(1.0)
    time.sleep(1.0)  # (a last update on compiled code)
    updates = page.evaluate("window.__rmUpdates")
    compiling = page.evaluate("window.__rmCompiling")
    running = [(t, _iteration(text)) for t, text in updates if _iteration(text) > 0]
    first = running[0][0] if running else float("nan")
    gaps = sorted(((b[0] - a[0], a[0] - started_ms) for a, b in zip(running, running[1:])), reverse=True)
    shown = [t for t, on in compiling if on]
    compiled = (max(shown) if shown else first) - started_ms
    return {
        "compiling_shown": bool(shown),
        "first_chart_s": (first - started_ms) / 1000.0,
        "longest_wait_between_updates_s": gaps[0][0] / 1000.0 if gaps else float("nan"),
        "longest_waits": [(round(gap / 1000.0, 2), round(at / 1000.0, 1)) for gap, at in gaps[:3]],
        "updates": len(running),
        "compiled_after_s": compiled / 1000.0,
        "last_iteration": running[-1][1] if running else 0,
    }


def first_minute(
    cache: str, width: int = 1280, height: int = 720, watch: float = 40.0, tree_first: bool = False
) -> dict:
    """The first minute of a server whose numba cache is ``cache``: the matrix page, then the game-tree page (or the
    other way round)."""
    os.environ["NUMBA_CACHE_DIR"] = cache  # (the server started below inherits it)
    with chromium_page(width=width, height=height) as page:  # (the lecturer's browser is open before the server)
        page.add_init_script(_WATCH_JS)
        launched, load = time.time(), os.getloadavg()[0]
        with running_app(timeout=120) as url:
            results = {"server_up_s": time.time() - launched}
            pages = [("matrix", url, watch), ("tree", f"{url}/kuhn_poker", watch / 2)]
            for name, path, seconds in pages[::-1] if tree_first else pages:  # (in the order opened)
                results[name] = _watch(page, path, launched * 1000.0, seconds)
    for name in ("matrix", "tree"):
        # A page that never said "compiling" ran compiled code from its first update; when it was opened after its
        # family had compiled (the page opened second, say), the family's compiled code was there before the page
        # was: from the moment its last file went into the numba cache (0 for a warm cache).
        if not results[name]["compiling_shown"]:
            ready = _family_ready_s(cache, name, launched)
            results[name]["compiled_after_s"] = min(results[name]["compiled_after_s"], ready)
    results["load_average"] = (load, os.getloadavg()[0])  # (the machine's other work lengthens a compile)
    return results


def _family_ready_s(cache: str, family: str, launched: float) -> float:
    """Seconds from ``launched`` to the last write of the kernel family's files in the numba cache ``cache`` (0 if they
    were all there before; infinity if there are none)."""
    written = [path.stat().st_mtime for path in Path(cache).rglob(f"{family}.*.nb*")]
    return max(max(written) - launched, 0.0) if written else float("inf")


def _first_minute_rows(runs: dict, width: int, height: int) -> list[results.Row]:
    """The first minute as data rows: for each cache (cold, warm) and page, opened first or second, the first chart
    (the page opened first: at most 8 s after ``streamlit run``), the moment compiled code runs (at most 30 s) and the
    longest wait between two screen updates."""
    out = []
    for cache, measured in runs.items():
        pages = [name for name in measured if name not in ("server_up_s", "load_average")]
        load = "load average {:.1f} at `streamlit run`, {:.1f} at the end".format(*measured["load_average"])
        for order, page_name in zip(("first", "second"), pages):
            page = measured[page_name]
            key = f"{cache}_{page_name}_{order}"
            where = f"{cache} cache, the {page_name} page opened {order}, {width}x{height}"
            if order == "first":
                out.append(
                    results.Row(
                        f"{key}_first_chart",
                        f"{where}: `streamlit run` to the first chart with data",
                        page["first_chart_s"],
                        "s",
                        target="<= 8 s",
                        met=page["first_chart_s"] <= 8,
                    )
                )
            out += [
                results.Row(
                    f"{key}_compiled",
                    f"{where}: `streamlit run` to compiled code",
                    page["compiled_after_s"],
                    "s",
                    baseline=load,
                    target="<= 30 s",
                    met=page["compiled_after_s"] <= 30,
                ),
                results.Row(
                    f"{key}_longest_wait",
                    f"{where}: the longest wait between two screen updates",
                    page["longest_wait_between_updates_s"],
                    "s",
                ),
            ]
    return out


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


def readme_path(width: int = 1280, height: int = 720) -> dict:
    """The README's first command on a fresh install (an empty numba cache): ``python -m rmcore._compile all`` timed
    with the machine's load beside it, then ``streamlit run`` and each page's first minute (:func:`first_minute`)."""
    cache = tempfile.mkdtemp(prefix="rm-readme-numba-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    load_before, started = os.getloadavg()[0], time.perf_counter()
    subprocess.run([sys.executable, "-m", "rmcore._compile", "all"], cwd=ROOT, env=env, check=True)
    measured = {
        "compile_s": time.perf_counter() - started,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
    }
    print(
        f"the README's compile step on an empty numba cache: {measured['compile_s']:.1f} s (load average "
        f"{load_before:.1f} before, {measured['load_after']:.1f} after)",
        flush=True,
    )
    measured["server"] = first_minute(cache, width, height, watch=20.0)
    return measured


def _readme_rows(measured: dict, width: int, height: int) -> list[results.Row]:
    """The README's path as data rows: its compile step (with the load average beside it), and each page's first
    chart and compiled code after ``streamlit run``."""
    out = [
        results.Row(
            "readme_compile",
            "the README's compile step on an empty numba cache, both families at once",
            measured["compile_s"],
            "s",
            baseline=f"load average {measured['load_before']:.1f} before, {measured['load_after']:.1f} after",
        )
    ]
    for page_name in ("matrix", "tree"):
        page = measured["server"][page_name]
        where = f"after the README's compile step, the {page_name} page, {width}x{height}"
        out += [
            results.Row(
                f"readme_{page_name}_first_chart",
                f"{where}: `streamlit run` to the first chart with data",
                page["first_chart_s"],
                "s",
            ),
            results.Row(
                f"readme_{page_name}_compiled",
                f"{where}: `streamlit run` to compiled code",
                page["compiled_after_s"],
                "s",
                target="<= 8 s",
                met=page["compiled_after_s"] <= 8,
            ),
        ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", action="store_true", help="the README's first command: compile, then serve")
    parser.add_argument("--game", choices=["sliders", "leduc"], help="open the CFR page on this game first instead")
    parser.add_argument("--switches", action="store_true", help="switch settings while running, timing each")
    parser.add_argument("--tree-first", action="store_true", help="open the game-tree page before the matrix page")
    parser.add_argument("--warm", action="store_true", help="then start a second server on the cache the first filled")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    arguments = parser.parse_args()
    if arguments.readme:
        size = (arguments.width, arguments.height)
        written = results.write(
            "cold_start", _readme_rows(readme_path(*size), *size), "python -m benchmarks.cold_start --readme"
        )
        print(f"written to {written}")
        return
    if arguments.game:
        measure_poker_first(arguments.game)
        return
    if arguments.switches:
        written = results.write("cold_start", _rows(measure()), "python -m benchmarks.cold_start --switches")
        print(f"written to {written}")
        return
    cache = tempfile.mkdtemp(prefix="rm-first-minute-numba-")
    size = (arguments.width, arguments.height)
    runs = {"cold": first_minute(cache, *size, tree_first=arguments.tree_first)}
    if arguments.warm:
        runs["warm"] = first_minute(cache, *size, tree_first=arguments.tree_first)
    for name, result in runs.items():
        print(f"{name} numba cache: server up after {result['server_up_s']:.1f} s")
        for page_name in [name for name in result if name not in ("server_up_s", "load_average")]:
            page = result[page_name]
            print(
                f"  {page_name} page: first chart {page['first_chart_s']:.1f} s after streamlit run, longest wait "
                f"between updates {page['longest_wait_between_updates_s']:.2f} s over {page['updates']} updates, "
                f"compiled code from {page['compiled_after_s']:.1f} s; longest waits (s, at s): {page['longest_waits']}"
            )
    command = "python -m benchmarks.cold_start" + " --tree-first" * arguments.tree_first + " --warm" * arguments.warm
    print(f"written to {results.write('cold_start', _first_minute_rows(runs, *size), command)}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
