"""The live-chart tutorial notebook in a real JupyterLab, in Chromium: every cell runs, Run on the Kuhn view moves its
charts while the kernel stays free, and Pause holds them still (what ``tests/test_watch.py`` checks of the view's
objects, seen here through the widgets' messages, JupyterLab's renderers and Plotly in the browser).

anywidget drops every kernel message to a widget whose module took more than two seconds to load, as the first
FigureWidgets of a notebook can on a busy machine; the test makes that happen to the Kuhn view's two figures (the
browser's two-second timer cut short for them), whose widgets the view then makes again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rmcore.plotting import words
from tests.browser import chromium_page, require_chromium
from tests.jupyter import (
    TRACE_LENGTHS_JS,
    last_iteration,
    open_notebook,
    page_state,
    require_jupyterlab,
    run_all_cells,
    running_jupyterlab,
    wait_for,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "docs" / "tutorials" / "cfr-in-a-notebook.ipynb"
#: anywidget's two-second limit on a widget model's loading, cut to a millisecond for the first two models made.
FIRST_MODELS_TIME_OUT = """(() => {
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    window.modelTimeoutsCut = 0;
    AbortSignal.timeout = ms => timeout(ms === 2000 && window.modelTimeoutsCut++ < 2 ? 1 : ms);
})()"""
SCREENSHOT = ROOT / "docs" / "images" / "notebook_watch.png"


def test_the_live_chart_notebook_runs_in_jupyterlab_and_its_run_and_pause_move_and_hold_the_charts():
    require_chromium()
    require_jupyterlab()
    with running_jupyterlab([NOTEBOOK]) as (url, _), chromium_page(width=1280, height=900) as page:
        page.add_init_script(FIRST_MODELS_TIME_OUT)
        open_notebook(page, url, NOTEBOOK.name)
        run_all_cells(page)
        # Both views drawn (Kuhn's and Leduc's: two charts each) and the kernel idle again: every cell ran.
        state = lambda: page_state(page)  # noqa: E731
        wait_for(lambda: len(page.evaluate(TRACE_LENGTHS_JS)) >= 4, 180, "the notebook's four charts never drew", state)
        page.get_by_text("| Idle").first.wait_for(timeout=180_000)
        assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        wait_for(lambda: last_iteration(page) is not None, 180, "the Kuhn view's chart never drew its curves", state)
        page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()  # (once made again: the chart it drew)
        shown = last_iteration(page)
        assert page.evaluate("window.modelTimeoutsCut") >= 2, "anywidget's two-second limit was not the one cut short"
        assert shown == 2000, f"the Kuhn view opens at the iteration the cell ran to, 2,000 (drew {shown})"

        run = page.locator(".widget-button").filter(has_text=words.WATCH_RUN).first
        pause = page.locator(".widget-button").filter(has_text=words.WATCH_PAUSE).first
        run.scroll_into_view_if_needed()
        run.click()
        seen = [shown]
        deadline = time.time() + 60
        while len(seen) < 4 and time.time() < deadline:
            time.sleep(0.2)
            now = last_iteration(page)
            if now is not None and now != seen[-1]:
                seen.append(now)
        assert len(seen) >= 4 and seen == sorted(seen), f"Run should move the Kuhn chart, update after update: {seen}"
        # The kernel answers while the view runs: a status line drawn by the thread names the iteration.
        assert page.get_by_text("iteration").count() > 0

        pause.click()
        held, since = last_iteration(page), time.time()
        deadline = time.time() + 30
        while time.time() - since < 2.0 and time.time() < deadline:  # the update in hand may still arrive
            time.sleep(0.2)
            now = last_iteration(page)
            if now != held:
                held, since = now, time.time()
        assert time.time() - since >= 2.0, "Pause should hold the chart still"
        time.sleep(1.5)
        assert last_iteration(page) == held, "a paused view draws nothing more"
        assert held > 2000
        page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
