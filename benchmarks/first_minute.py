"""A server's first minute as a lecturer meets it: ``streamlit run`` on an empty numba cache (or a warm one), the
matrix page opened and Run pressed, then the game-tree page; printed, and written to a data file.

    python -m benchmarks.first_minute                  # empty numba cache, 1280x720
    python -m benchmarks.first_minute --warm           # the same server twice: the second start finds the cache full
    python -m benchmarks.first_minute --json docs/performance/first-minute.json

For each page: seconds from ``streamlit run`` to the first chart with data (Run pressed as soon as the page shows it),
the longest wait between two screen updates while it runs (a freeze would show here), and the seconds from ``streamlit
run`` until the line "compiling ... s so far" under the iteration is gone (the page runs compiled code from then on).
Every time is stamped by the page itself (``Date.now()``, the machine's clock), not by Playwright.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

from tests.browser import chromium_page, running_app

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


def _press_run(page, timeout: float = 120.0) -> None:
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


def _watch(page, path: str, started_ms: float, seconds: float) -> dict:
    """Open ``path``, press Run, watch for ``seconds``; times relative to ``started_ms`` (``streamlit run``, in ms
    since the epoch)."""
    page.goto(path)
    _press_run(page)
    time.sleep(seconds)
    updates = page.evaluate("window.__rmUpdates")
    compiling = page.evaluate("window.__rmCompiling")
    running = [(t, _iteration(text)) for t, text in updates if _iteration(text) > 0]
    first = running[0][0] if running else float("nan")
    gaps = sorted(((b[0] - a[0], a[0] - started_ms) for a, b in zip(running, running[1:])), reverse=True)
    shown = [t for t, on in compiling if on]
    compiled = (max(shown) if shown else first) - started_ms
    return {
        "first_chart_s": (first - started_ms) / 1000.0,
        "longest_wait_between_updates_s": gaps[0][0] / 1000.0 if gaps else float("nan"),
        "longest_waits": [(round(gap / 1000.0, 2), round(at / 1000.0, 1)) for gap, at in gaps[:3]],
        "updates": len(running),
        "compiled_after_s": compiled / 1000.0,
        "last_iteration": running[-1][1] if running else 0,
    }


def measure(cache: str, width: int = 1280, height: int = 720, watch: float = 40.0, tree_first: bool = False) -> dict:
    """The first minute of a server whose numba cache is ``cache``: the matrix page, then the game-tree page (or the
    other way round)."""
    os.environ["NUMBA_CACHE_DIR"] = cache  # (the server started below inherits it)
    with chromium_page(width=width, height=height) as page:  # (the lecturer's browser is open before the server)
        page.add_init_script(_WATCH_JS)
        launched = time.time()
        with running_app(timeout=120) as url:
            results = {"server_up_s": time.time() - launched}
            pages = [("matrix", url, watch), ("tree", f"{url}/kuhn_poker", watch / 2)]
            for name, path, seconds in pages[::-1] if tree_first else pages:
                results[name] = _watch(page, path, launched * 1000.0, seconds)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", action="store_true", help="start a second server on the cache the first filled")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--tree-first", action="store_true", help="open the game-tree page first")
    parser.add_argument("--json", metavar="PATH", help="write the results to this data file")
    arguments = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="rm-first-minute-numba-")
    size = (arguments.width, arguments.height)
    runs = {"cold": measure(cache, *size, tree_first=arguments.tree_first)}
    if arguments.warm:
        runs["warm"] = measure(cache, *size, tree_first=arguments.tree_first)
    for name, result in runs.items():
        print(f"{name} numba cache: server up after {result['server_up_s']:.1f} s")
        for page_name in result.keys() - {"server_up_s"}:
            page = result[page_name]
            print(
                f"  {page_name} page: first chart {page['first_chart_s']:.1f} s after streamlit run, longest wait "
                f"between updates {page['longest_wait_between_updates_s']:.2f} s over {page['updates']} updates, "
                f"compiled code from {page['compiled_after_s']:.1f} s; longest waits (s, at s): {page['longest_waits']}"
            )
    if arguments.json:
        about = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_average": os.getloadavg()[0]}
        with open(arguments.json, "w", encoding="utf-8") as out:
            json.dump(dict(runs, viewport=[arguments.width, arguments.height], **about), out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
