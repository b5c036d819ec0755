"""What a lecturer sees, in a real Chromium: at a projector's 1280x720, Run on the tree page brings its iteration
count and charts up under the controls (the walkthrough folds, and opens again at Step +1); at 1920x1080 the matrix
editor's column headers show the actions' names whole."""

from __future__ import annotations

import io
import re
import time

import numpy as np
import pytest
from PIL import Image

from .browser import (
    chromium_page,
    click_until,
    iteration_shown,
    require_chromium,
    running_app,
    wait_until_idle,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url():
    require_chromium()
    with running_app() as url:
        yield url


def _on_screen(page, locator) -> bool:
    """Whether ``locator``'s element lies within the viewport as it is scrolled now (wholly)."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def test_run_on_the_tree_page_shows_the_count_and_the_charts_on_the_screen_where_it_was_pressed(app_url):
    with chromium_page(1280, 720) as page:
        page.goto(f"{app_url}/game_trees")
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        walkthrough = page.get_by_text("Show iteration t", exact=False)
        # (Open before the first run: it is where Step +1 shows its numbers. Waited for: on a busy machine the idle
        # page may not have drawn the walkthrough's body yet.)
        walkthrough.wait_for(state="visible", timeout=30_000)
        run = page.get_by_role("radio", name="Run")
        run.scroll_into_view_if_needed()
        click_until(page, run, lambda: iteration_shown(page) not in ("", "0"))
        time.sleep(2.0)
        assert _on_screen(page, run), "the page did not scroll: Run is where it was pressed"
        count = page.locator("[data-testid=stMetricValue]").first
        assert _on_screen(page, count), "the iteration count is below the first screen"
        first_chart = page.locator(".js-plotly-plot").first
        box = first_chart.bounding_box()
        assert box is not None and box["y"] < page.viewport_size["height"] - 100, "no chart starts on the first screen"
        assert not walkthrough.is_visible()
        page.get_by_role("radio", name="Pause").click()
        wait_until_idle(page)
        step = page.get_by_role("button", name=re.compile(r"^Step \+1(?!\d)"))  # (its name ends in its key's arrow)
        click_until(page, step, walkthrough.is_visible)


def _header_margins(png: bytes) -> list[int]:
    """For each column of a data editor's screenshot (the index column first), the pixels between its header's last
    dark (text) pixel and the column's right edge. The grid is drawn on a canvas: its lines are the pixel columns
    that are neither background nor text down most of the body, and a header's text is the pixels darker than 200."""
    image = np.asarray(Image.open(io.BytesIO(png)).convert("L")).astype(int)
    height, width = image.shape
    body = image[40 : height - 4]
    lines = [x for x in range(width) if ((body[:, x] < 245) & (body[:, x] > 180)).mean() > 0.9]
    header = image[4:32]
    margins = []
    for left, right in zip(lines, lines[1:]):
        text = [x for x in range(left + 2, right - 1) if (header[:, x] < 200).any()]
        margins.append(right - text[-1] if text else right - left)
    return margins


def test_the_editors_headers_show_the_action_names_whole_at_1920(app_url):
    with chromium_page(1920, 1080) as page:
        page.goto(f"{app_url}/?preset=Rock-Paper-Scissors")
        editor = page.locator("[data-testid=stDataFrame]").first
        editor.wait_for(timeout=90_000)
        wait_until_idle(page)
        editor.scroll_into_view_if_needed()
        time.sleep(1.0)
        margins = _header_margins(editor.screenshot())
        assert len(margins) == 4, margins  # the index column, then Rock, Paper and Scissors
        assert min(margins[1:]) >= 8, f"a header's name runs into its column's edge (cut): {margins}"
