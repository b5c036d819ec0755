"""In a real Chromium at a projector's 1280x720: the lesson's link opens the matrix page on three-player matching
pennies, Run moves its charts (the strategies, the cube of the three players' strategies, NashConv beside the CCE
gap), the page's own address reopens it in a fresh browser, and the screenshot
docs/images/matching_pennies_three_players.png is what the docs show."""

from __future__ import annotations

import time
import urllib.parse

import pytest

from .browser import (
    ROOT,
    _safe_evaluate,
    chart_states_while_running,
    chromium_page,
    click_until,
    fresh_browser_at,
    iteration_shown,
    pause_and_wait,
    require_chromium,
    running_app,
    wait_until_idle,
)

pytestmark = pytest.mark.browser

_TITLES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(c => (c.layout.title || {}).text || '')"""
LINK = urllib.parse.urlencode({"preset": "Three-player matching pennies", "player_start_mode": "suggested"})


def test_three_player_matching_pennies_runs_and_its_link_reopens_it():
    require_chromium()
    with running_app() as url, chromium_page(1280, 720) as page:
        page.goto(f"{url}/?{LINK}")
        page.get_by_role("button", name="Step +100", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        page.get_by_text("Now solving: Three-player matching pennies").wait_for(timeout=30_000)
        run = page.get_by_role("radio", name="Run")
        run.scroll_into_view_if_needed()
        click_until(page, run, lambda: iteration_shown(page) not in ("", "0"))
        deadline = time.time() + 60  # (the chart may still wait for its first curves on a busy machine)
        drawn = chart_states_while_running(page, 4.0, "nash_conv")
        while len(drawn) < 2 and time.time() < deadline:
            time.sleep(0.5)
            drawn = chart_states_while_running(page, 4.0, "nash_conv")
        assert len(drawn) >= 2 and drawn == sorted(drawn), f"the chart did not move: {drawn}"
        titles = _safe_evaluate(page, _TITLES_JS, None) or []
        assert any("cube" in title for title in titles), titles
        pause_and_wait(page, lambda: page.get_by_role("radio", name="Pause").click())
        page.locator(".js-plotly-plot").nth(1).scroll_into_view_if_needed()  # the cube, beside the convergence chart
        page.evaluate("() => window.scrollBy(0, 120)")
        page.mouse.move(5, 700)  # (a chart under the pointer shows its tool bar over its title)
        wait_until_idle(page)
        page.screenshot(path=str(ROOT / "docs" / "images" / "matching_pennies_three_players.png"))
        shared = page.url
        with fresh_browser_at(page, shared, "Step +100") as fresh:
            assert fresh.get_by_text("Now solving: Three-player matching pennies").count() == 1, shared
            assert fresh.get_by_text("Heads 90%").count() >= 1, f"{shared} lost the start"
