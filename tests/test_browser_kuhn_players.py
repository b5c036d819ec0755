"""In a real Chromium at a projector's 1280x720: a link ``?kuhn_players=3`` opens the tree page on 3-player Kuhn poker,
Run moves its nash_conv chart, the page's own address reopens it in a fresh browser, and the screenshot
docs/images/kuhn_three_players.png is what the docs show."""

from __future__ import annotations

import time

import pytest

from ui import explain_trees

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

#: The titles of the page's Plotly charts.
_TITLES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(c => (c.layout.title || {}).text || '')"""


def test_a_three_player_link_runs_and_its_nash_conv_chart_moves():
    require_chromium()
    with running_app() as url, chromium_page(1280, 720) as page:
        page.goto(f"{url}/game_trees?kuhn_players=3")
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        players = page.locator("[data-testid=stSlider]").filter(has_text="Players")
        assert players.get_by_test_id("stSliderThumbValue").inner_text() == "3"
        page.get_by_text(explain_trees.WALKTHROUGH_TWO_PLAYERS).wait_for(timeout=30_000)
        run = page.get_by_role("radio", name="Run")
        run.scroll_into_view_if_needed()
        click_until(page, run, lambda: iteration_shown(page) not in ("", "0"))
        # (the chart may still be waiting for its first curves, on a busy machine: watch again until it moves, a minute
        # at most)
        deadline = time.time() + 60
        drawn = chart_states_while_running(page, 4.0, "cfr")
        while len(drawn) < 2 and time.time() < deadline:
            time.sleep(0.5)
            drawn = chart_states_while_running(page, 4.0, "cfr")
        assert len(drawn) >= 2 and drawn == sorted(drawn), f"the chart did not move: {drawn}"
        titles = _safe_evaluate(page, _TITLES_JS, None) or []
        assert any("nash_conv" in title for title in titles) and not any("xploitab" in t for t in titles), titles
        pause_and_wait(page, lambda: page.get_by_role("radio", name="Pause").click())
        # The players' table at the top, below the page's header, and the charts under it: the page scrolls in its
        # main section, not the window.
        page.locator("table").filter(has_text="best-response gain").first.evaluate(
            "t => { t.scrollIntoView(); t.closest('[data-testid=stMain]').scrollBy(0, -90); }"
        )
        page.mouse.move(5, 700)  # (a chart under the pointer shows its tool bar over its title)
        wait_until_idle(page)
        page.screenshot(path=str(ROOT / "docs" / "images" / "kuhn_three_players.png"))
        shared = page.url  # the page's own address, as Share this setup gives it
        with fresh_browser_at(page, shared, "Step +10") as fresh:
            again = fresh.locator("[data-testid=stSlider]").filter(has_text="Players")
            assert again.get_by_test_id("stSliderThumbValue").inner_text() == "3", f"{shared} lost the players"
            assert fresh.get_by_text("best-response gain").count() >= 1  # (the table of the three players)
