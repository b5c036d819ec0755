"""Real-browser helpers: `streamlit run` on 127.0.0.1 and Debian's chromium driven by Playwright, for the browser
tests and the measurement scripts (``benchmarks/browser_rate.py`` counts a page's chart updates with them)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    """A free loopback port: the first free one of ``RMCORE_TEST_PORTS`` (``"8700-8749"``, say: the ports a shared
    machine leaves to one developer) when that is set, else any."""
    wanted = os.environ.get("RMCORE_TEST_PORTS")
    if wanted:
        low, high = (int(port) for port in wanted.split("-"))
        for port in range(low, high + 1):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError(f"no free port in RMCORE_TEST_PORTS={wanted}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def require_chromium() -> None:
    """Skip the calling test when Debian's chromium is missing, or fail it on CI (where .ci/run installs it)."""
    import pytest

    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run must apt-get install it")
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")


@contextlib.contextmanager
def running_app(
    timeout: float = 60.0,
    cpus: str | None = None,
    options: tuple[str, ...] = (),
    port: int | None = None,
    uvicorn: bool = False,
):
    """Start the app on a loopback port (``port``, or a free one; pinned to ``cpus`` with taskset, if given); yield its
    URL; stop it afterwards.

    ``options`` are more ``streamlit run`` options, such as ``("--theme.base", "dark")``; with ``uvicorn``, the app is
    served by ``uvicorn serve:app`` instead (``serve.py``) and ``options`` are uvicorn's.
    """
    port = port or _free_port()
    pin = ["taskset", "-c", cpus] if cpus else []
    if uvicorn:
        command = ["uvicorn", "serve:app", "--host", "127.0.0.1", "--port", str(port), "--no-access-log"]
    else:
        command = [
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
        ]
    server = subprocess.Popen(
        [*pin, sys.executable, "-m", *command, *options],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(f"{url}/_stcore/health", server, timeout, "streamlit")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def wait_until_answering(address: str, server: subprocess.Popen, timeout: float, what: str) -> None:
    """Wait until ``address`` answers 200; fail saying ``what`` did not start if the server exits or ``timeout``
    passes first."""
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(address, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"{what} did not start within {timeout:.0f} s") from None
            time.sleep(0.3)


@contextlib.contextmanager
def chromium_page(width: int = 1400, height: int = 1800):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()


_LAST_X_JS = """(namePart) => {
    for (const chart of document.querySelectorAll('.js-plotly-plot')) {
        const trace = (chart._fullData || []).find(t => (t.name || '').includes(namePart));
        if (trace && trace.x && trace.x.length) return Number(trace.x[trace.x.length - 1]);
    }
    return null;
}"""


@contextlib.contextmanager
def fresh_browser_at(page, url: str, ready: str, width: int = 1280, height: int = 720):
    """``url`` in a new context of ``page``'s browser (no cookies, no session: what a student who opens a shared
    link sees), once its button ``ready`` is drawn and the page has settled."""
    context = page.context.browser.new_context(viewport={"width": width, "height": height})
    try:
        fresh = context.new_page()
        fresh.goto(url)
        fresh.get_by_role("button", name=ready, exact=True).wait_for(timeout=90_000)
        wait_until_idle(fresh)
        yield fresh
    finally:
        context.close()


def plotly_chart_count(page) -> int:
    """Plotly charts drawn on the page (the live charts are drawn in the page itself, no frames)."""
    return _safe_evaluate(page, "() => document.querySelectorAll('.js-plotly-plot').length", None) or 0


def last_x_of_trace(page, name_part: str) -> float | None:
    """The last x drawn by the first Plotly trace whose name contains ``name_part`` (Plotly's decoded data)."""
    return _safe_evaluate(page, _LAST_X_JS, name_part)


def last_iteration_on_chart(page) -> float | None:
    """The largest iteration drawn on the matrix page's convergence chart."""
    return last_x_of_trace(page, "nash_conv")


def wait_for_chart_iteration(page, iteration: int, timeout: float = 30.0) -> float | None:
    deadline = time.time() + timeout
    while (value := last_iteration_on_chart(page)) != iteration and time.time() < deadline:
        time.sleep(0.1)
    return value


_RECORD_REDRAWS_JS = """(namePart) => {
    for (const chart of document.querySelectorAll('.js-plotly-plot')) {
        if (!(chart._fullData || []).some(t => (t.name || '').includes(namePart))) continue;
        window.__redraws = [];
        chart.on('plotly_afterplot', () => {
            const trace = chart._fullData.find(t => (t.name || '').includes(namePart));
            if (trace && trace.x && trace.x.length) window.__redraws.push(Number(trace.x[trace.x.length - 1]));
        });
        return true;
    }
    return false;
}"""


def chart_states_while_running(page, seconds: float, name_part: str = "nash_conv") -> list[float]:
    """Distinct last-iterations the convergence chart drew during ``seconds``, in order.

    A listener on the chart's own ``plotly_afterplot`` event records every redraw inside the
    browser, so the count does not depend on how often we could poll from outside.
    """
    if not _safe_evaluate(page, _RECORD_REDRAWS_JS, name_part):
        return []
    time.sleep(seconds)
    drawn = _safe_evaluate(page, "() => window.__redraws", None) or []
    seen = []
    for value in drawn:
        if not seen or value != seen[-1]:
            seen.append(value)
    return seen


_RACE_CURVES_JS = (
    """() => {
    for (const chart of document.querySelectorAll('.js-plotly-plot')) {
        const traces = chart._fullData || [];
        if (!traces.some(t => t.name === 'guide: 1/T')) continue;
        return traces.filter(t => t.showlegend !== false && (t.name || '').includes(' · ') """
    """&& !t.name.startsWith('current') && t.x && t.x.length > 1).map(t => t.name);
    }
    return null;
}"""
)


def race_curve_names(page) -> list[str]:
    """Names of the variant curves drawn on the race chart (median lines, with data)."""
    return _safe_evaluate(page, _RACE_CURVES_JS, None) or []


def _safe_evaluate(page, script: str, argument):
    try:
        return page.evaluate(script, argument)
    except Exception:  # the page navigating between asking and answering
        return None


def open_matrix_page_and_run(page, url: str) -> None:
    """Load the page, take one Step of 10 (so charts exist), then press Run."""
    page.goto(url)
    page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
    wait_until_idle(page)
    page.get_by_role("button", name="Step +10", exact=True).click()
    deadline = time.time() + 90
    while plotly_chart_count(page) < 4 and time.time() < deadline:
        time.sleep(0.2)
    wait_for_chart_iteration(page, 10)
    page.get_by_role("radio", name="Run").click()


def wait_until_idle(page, timeout: float = 90.0) -> None:
    """Wait until Streamlit has finished the script run (its status widget says nothing is running)."""
    deadline = time.time() + timeout
    time.sleep(0.3)
    while time.time() < deadline:
        if page.locator("[data-testid=stStatusWidget]").count() == 0:
            return
        time.sleep(0.2)


def pause_and_wait(page, press, timeout: float = 60.0, still: float = 1.5) -> None:
    """``press()`` (a click on Pause, the Space key), then wait until the server has answered it: the Pause radio is
    checked, the replay slider a paused page draws is there, and the iteration shown has held for ``still`` seconds.

    On a busy machine (a test suite in two processes) the answer can take seconds, and a replay slider drawn by an
    earlier pause can still be on the page while the run goes on, so no one of these alone proves the pause arrived.
    A pause never answered fails here, with its own message, rather than as charts that kept moving."""
    from ui import explain_app

    press()
    deadline = time.time() + timeout
    try:
        page.get_by_role("radio", name="Pause", checked=True).wait_for(timeout=timeout * 1000)
        page.get_by_text(explain_app.REPLAY_LABEL).first.wait_for(timeout=max(1.0, deadline - time.time()) * 1000)
    except Exception as error:  # noqa: BLE001  (playwright's TimeoutError)
        raise AssertionError(f"the page never showed the pause (within {timeout:.0f} s)") from error
    shown, since = iteration_shown(page), time.time()
    while time.time() < deadline:
        time.sleep(0.2)
        now = iteration_shown(page)
        if now != shown:
            shown, since = now, time.time()
        elif time.time() - since >= still:
            return
    raise AssertionError(f"the iteration shown kept changing for {timeout:.0f} s after the pause")


def click_until(page, locator, done, attempts: int = 4, timeout: float = 30.0) -> None:
    """Click ``locator`` until ``done()`` holds: a click sent while a script run is still going (a kernel compiling on a
    cold cache, say) can be lost, so check that it took effect and click again if not."""
    for _ in range(attempts):
        wait_until_idle(page)
        locator.click()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if done():
                return
            time.sleep(0.2)
    raise AssertionError(f"clicking {locator} never took effect")


def iteration_shown(page) -> str:
    """The iteration metric as the page shows it."""
    values = page.locator("[data-testid=stMetricValue]")
    return values.first.inner_text() if values.count() else ""


def choose_in_multiselect(page, label: str, options: list[str]) -> None:
    """Pick ``options`` in the multiselect whose label starts with ``label`` (typing each, then Enter)."""
    box = page.locator("[data-testid=stMultiSelect]").filter(has_text=label)
    for option in options:
        box.locator("input").click()
        box.locator("input").fill(option)
        page.get_by_role("option", name=option, exact=True).click()
        wait_until_idle(page)
    page.keyboard.press("Escape")


MATRIX_RACE = [
    "rm+ · expected · alternating · uniform",
    "prm+ · expected · alternating · linear",
    "rm · expected · simultaneous · linear",
    "rm+ · expected · simultaneous · quadratic",
    "prm+ · expected · simultaneous · uniform",
    "rm · expected · alternating · uniform",
    "rm+ · sampled · alternating · linear",
]
KUHN_RACE = [
    f"{name} · {updates}"
    for name in ("cfr", "cfr+", "linear", "discounted", "chance-sampling")
    for updates in ("alternating", "simultaneous")
][1:]


def open_page_and_run(page, url: str, which: str = "matrix", race: int = 1) -> str:
    """Load a page, choose ``race - 1`` extra variants, take a step so the charts exist, press Run.

    Returns the name part of a trace that changes on every redraw of the page's main live chart.
    """
    page.goto(url if which == "matrix" else f"{url}/game_trees")
    page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
    wait_until_idle(page)
    if race > 1:
        label = "Race: compare" if which == "matrix" else "Variants"
        choose_in_multiselect(page, label, (MATRIX_RACE if which == "matrix" else KUHN_RACE)[: race - 1])
    name = "nash_conv" if which == "matrix" and race == 1 else "guide: 1/T"
    click_until(
        page,
        page.get_by_role("button", name="Step +10", exact=True),
        lambda: last_x_of_trace(page, name) is not None,
        timeout=60,
    )
    click_until(
        page,
        page.get_by_role("radio", name="Run"),
        lambda: page.get_by_role("radio", name="Run").get_attribute("aria-checked") == "true",
        timeout=20,
    )
    return name


def open_lesson_and_run(page, url: str, lesson: str) -> str:
    """Open a lesson's link (``"rules"``: the matrix page's; ``"kuhn"``, ``"leduc"``: the tree page's), take a step
    so the charts exist, press Run; returns the name part of a trace that changes on every redraw."""
    import urllib.parse

    from ui.matrix import lesson as matrix_lesson
    from ui.trees import lesson as tree_lesson

    if lesson == "rules":
        address = f"{url}/?{urllib.parse.urlencode(matrix_lesson.RULES_LESSON.query())}"
    else:
        address = f"{url}/game_trees?{urllib.parse.urlencode(tree_lesson.query(lesson))}"
    page.goto(address)
    page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
    name = "guide: 1/T"
    click_until(
        page,
        page.get_by_role("button", name="Step +10", exact=True),
        lambda: last_x_of_trace(page, name) is not None,
        timeout=120,
    )
    wait_until_idle(page)
    page.get_by_role("radio", name="Run").click()
    return name


def server_pid(url: str) -> int:
    """The process id of the ``streamlit run`` serving ``url`` (found by its port in /proc)."""
    port = url.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"streamlit" in b" ".join(command) and port.encode() in command:
                return int(entry.name)
    raise LookupError(f"no streamlit process serves {url}")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process (all its threads) has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
