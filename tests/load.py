"""A class on one server: N real sessions press Run on the matrix page at once; print what each of them gets.

    python -m tests.load --sessions 10              # starts `streamlit run`, server on core 0, clients on core 1
    python -m tests.load --sessions 30 --seconds 20
    python -m tests.load --sessions 10 --url http://127.0.0.1:8080   # an already running server (or a load balancer)

The clients are tabs of one headless Chromium with the chart frames blocked, so that drawing charts does not eat the
core the clients share; every session still runs the whole page on the server (solver, figures, Streamlit's
rerun and the messages). Printed: per-session screen updates per second (counted in each tab from changes of the
iteration shown), the Pause latency (from the click until the last update that still arrived, p50 / p95, Pause
pressed in one session after another while the others keep running), the server's CPU per screen update and its
memory. A measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from pathlib import Path

from .browser import CHROMIUM, CHROMIUM_ARGS, cpu_seconds, running_app, server_pid

# Count every change of the iteration shown, with its time, inside the tab.
_WATCH_JS = """() => {
    const value = document.querySelector('[data-testid=stMetricValue]');
    window.__changes = [];
    let last = value.innerText;
    const observer = new MutationObserver(() => {
        const now = value.innerText;  // a rerun may redraw the same number: only a new iteration counts
        if (now !== last) { window.__changes.push([performance.now(), now]); last = now; }
    });
    observer.observe(value, {subtree: true, childList: true, characterData: true});
    return true;
}"""


def _memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _open_and_run(page, url: str) -> None:
    page.goto(url)
    run = page.get_by_role("radio", name="Run")
    run.wait_for(timeout=120_000)
    for _ in range(5):  # a click during the first script run of a loaded server can come late: check, and again
        run.click()
        deadline = time.time() + 20
        while time.time() < deadline:
            shown = page.locator("[data-testid=stMetricValue]").first.inner_text()
            if shown not in ("", "0"):
                return
            time.sleep(0.3)
    raise RuntimeError("a session never started running")


def measure(url: str, sessions: int, seconds: float, pid: int | None) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # Streamlit's browser side schedules a running fragment's reruns: a tab in the background must not be slowed.
        unthrottled = ["--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows", "--disable-renderer-backgrounding"]
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + unthrottled)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.route("**/component/ui.live_chart*/**", lambda route: route.abort())  # no chart frames: no drawing
        pages = [context.new_page() for _ in range(sessions)]
        started = time.time()
        for page in pages:
            _open_and_run(page, url)
        print(f"{sessions} sessions running after {time.time() - started:.0f} s")
        time.sleep(2.0)
        for page in pages:
            page.evaluate(_WATCH_JS)
        cpu_before = cpu_seconds(pid) if pid else None
        time.sleep(seconds)
        cpu_used = cpu_seconds(pid) - cpu_before if pid else None
        counts = [len(page.evaluate("() => window.__changes")) for page in pages]
        rates = [count / seconds for count in counts]

        latencies = []
        for page in pages:
            clicked = page.evaluate("() => performance.now()")
            page.get_by_role("radio", name="Pause").click()
            time.sleep(0.5)
            latencies.append((page, clicked))
        time.sleep(3.0)
        delays = []
        for page, clicked in latencies:
            after = [t for t, _ in page.evaluate("() => window.__changes") if t > clicked]
            delays.append((max(after) - clicked) / 1000 if after else 0.0)
        errors = sum(page.locator("[data-testid=stException]").count() for page in pages)
        browser.close()

    delays.sort()
    p95 = delays[min(len(delays) - 1, int(round(0.95 * (len(delays) - 1))))]
    print(f"screen updates per second per session: min {min(rates):.2f}, median {statistics.median(rates):.2f}, "
          f"max {max(rates):.2f} (over {seconds:.0f} s)")  # fmt: skip
    print(f"Pause latency: p50 {statistics.median(delays):.2f} s, p95 {p95:.2f} s, max {max(delays):.2f} s")
    if pid:
        updates = sum(counts)
        print(f"server CPU: {cpu_used / seconds:.2f} cores; {1000 * cpu_used / max(updates, 1):.1f} ms per screen update; "
              f"memory {_memory_mb(pid):.0f} MB")  # fmt: skip
    print(f"errors shown: {errors}")


def main() -> None:
    parser = argparse.ArgumentParser(description="N sessions running at once against one server: updates/s, Pause latency, CPU, memory.")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--url", help="an already running server (default: start one, pinned to core 0)")
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    if args.url:
        server = contextlib.nullcontext(args.url)
    else:
        server = running_app(cpus=str(cores[0]), timeout=120)
    with server as url:
        if len(cores) > 1:
            os.sched_setaffinity(0, {cores[-1]})  # the browser started below inherits it
        pid = None if args.url else server_pid(url)
        measure(url, args.sessions, args.seconds, pid)


if __name__ == "__main__":
    main()
