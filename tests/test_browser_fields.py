"""The strategy-space chart in a real browser: a click on the square or the triangle sets the start, restarts the run
there and writes it into the link, and the Share control's link opens that start and that run in a fresh session
(Debian's chromium, driven by Playwright, against `streamlit run`)."""

import os
import time
import urllib.parse
from pathlib import Path

import pytest

from ui.explain import ALGORITHM_NAMES
from ui.matrix.settings import START_CHOICES

from .browser import CHROMIUM, chromium_page, click_until, iteration_shown, running_app, wait_until_idle

pytestmark = pytest.mark.browser

#: The chart's plot area in page pixels, and where Plotly placed the triangle (from its own layout).
_GEOMETRY_JS = """() => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')].find(
        c => c._fullLayout && (c._fullData || []).some(t => (t.name || '').startsWith('rest point')));
    if (!chart) return null;
    const box = chart.getBoundingClientRect(), layout = chart._fullLayout;
    if (layout.ternary && layout.ternary._subplot) {
        const t = layout.ternary._subplot;
        return {kind: 'ternary', left: box.left + t.x0, top: box.top + t.y0, width: t.w, height: t.h};
    }
    const xa = layout.xaxis, ya = layout.yaxis;
    return {kind: 'square', left: box.left + xa._offset, top: box.top + ya._offset, width: xa._length,
            height: ya._length};
}"""
_START_JS = """() => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')].find(
        c => (c._fullData || []).some(t => t.name === 'start'));
    if (!chart) return null;
    const start = chart._fullData.find(t => t.name === 'start');
    return start.a ? [start.a[0], start.b[0], start.c[0]] : [start.x[0], start.y[0]];
}"""
#: Each run's average line and its last iterate on the square, as Plotly drew them.
_ITERATES_JS = """() => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')].find(
        c => (c._fullData || []).some(t => (t.name || '').endsWith(': last iterate now')));
    if (!chart) return null;
    const drawn = {};
    for (const t of chart._fullData)
        if (t.name.endsWith(': last iterate now') || t.name.endsWith(': average'))
            drawn[t.name] = [Array.from(t.x), Array.from(t.y)];
    return drawn;
}"""


@pytest.fixture(scope="module")
def app_url():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run must apt-get install it")
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    with running_app() as url:
        yield url


def _open(page, address: str) -> dict:
    page.goto(address)
    page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
    wait_until_idle(page)
    deadline = time.time() + 60
    while (geometry := page.evaluate(_GEOMETRY_JS)) is None and time.time() < deadline:
        time.sleep(0.3)
    assert geometry is not None, "the strategy-space chart with its field is drawn before the first iteration"
    page.locator(".rm-live-chart").filter(has_text="and the iterates").first.scroll_into_view_if_needed()
    time.sleep(0.5)
    return page.evaluate(_GEOMETRY_JS)  # (after the scroll)


def _query(page) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def _click_until_started(page, place, wanted: dict) -> dict:
    """Click at ``place(geometry)`` (again, if a click met a script run still going) until the link carries the start
    asked for; the chart's place is read afresh before each click (an update may move the page)."""
    for _ in range(3):
        wait_until_idle(page)
        page.locator(".rm-live-chart").filter(has_text="and the iterates").first.scroll_into_view_if_needed()
        time.sleep(0.5)
        x, y = place(page.evaluate(_GEOMETRY_JS))
        page.mouse.move(x, y)
        time.sleep(0.3)
        page.mouse.click(x, y)
        deadline = time.time() + 20
        while time.time() < deadline:
            query = _query(page)
            if all(query.get(key) == value for key, value in wanted.items()):
                return query
            time.sleep(0.3)
        wait_until_idle(page)
    raise AssertionError(f"the click never set the start: the link is {page.url}")


def test_a_click_on_the_square_sets_both_players_start_and_restarts_the_run(app_url):
    with chromium_page(1280, 1000) as page:
        geometry = _open(page, f"{app_url}/?preset=Matching+pennies&algorithm=hedge")
        assert geometry["kind"] == "square"
        step = page.get_by_role("button", name="Step +10", exact=True)
        click_until(page, step, lambda: iteration_shown(page) == "10")
        query = _click_until_started(
            page,
            lambda g: (g["left"] + 0.2 * g["width"], g["top"] + (1 - 0.8) * g["height"]),
            {"start_row_2_0": "20", "start_col_2_0": "80"},
        )
        assert query["start_row_2_1"] == "80" and query["start_col_2_1"] == "20"
        wait_until_idle(page)
        assert iteration_shown(page) == "0", "the run restarts from the start clicked"
        assert page.evaluate(_START_JS) == pytest.approx([0.2, 0.8])
        problems = page.locator("[data-testid=stException]")
        assert problems.count() == 0, problems.first.inner_text()


def test_the_share_link_of_a_clicked_start_opens_that_start_and_that_run(app_url):
    """Click a start, take ten iterations, copy the Share control's link (with *run to the current iteration*) and
    open it in a fresh session: the same start, the same ten iterations, the same iterates drawn."""
    with chromium_page(1280, 1000) as page:
        written = urllib.parse.urlencode({"preset": "Matching pennies", "algorithm": ALGORITHM_NAMES["hedge"]})
        _open(page, f"{app_url}/?{written}")  # (the link as the page writes it: the algorithm by its label)
        query = _click_until_started(
            page,
            lambda g: (g["left"] + 0.3 * g["width"], g["top"] + (1 - 0.9) * g["height"]),
            {"start_row_2_0": "30", "start_col_2_0": "90"},
        )
        assert query["start_mode"] == START_CHOICES["custom"]  # (the link names a choice by its words)
        wait_until_idle(page)
        step = page.get_by_role("button", name="Step +10", exact=True)
        click_until(page, step, lambda: iteration_shown(page) == "10")
        wait_until_idle(page)
        drawn_here = _iterates_at(page, 10)
        link = _shared_link(page)
        given = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))
        assert given["algorithm"] == ALGORITHM_NAMES["hedge"] and given["run_to"] == "10", link
        assert (given["start_row_2_0"], given["start_col_2_0"]) == ("30", "90"), link

        fresh = page.context.browser.new_page(viewport={"width": 1280, "height": 1000})
        fresh.goto(link)
        fresh.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        deadline = time.time() + 60
        while iteration_shown(fresh) != "10" and time.time() < deadline:
            time.sleep(0.3)
        assert iteration_shown(fresh) == "10", "the link runs to the iteration it carries"
        wait_until_idle(fresh)
        drawn_there = _iterates_at(fresh, 10)
        assert fresh.evaluate(_START_JS) == pytest.approx([0.3, 0.9]), "the link opens the start clicked"
        assert drawn_there.keys() == drawn_here.keys()
        for name, (x, y) in drawn_here.items():
            assert drawn_there[name] == [pytest.approx(x, rel=1e-9), pytest.approx(y, rel=1e-9)], name
        assert fresh.locator("[data-testid=stException]").count() == 0


def test_a_link_naming_the_algorithm_as_the_library_does_keeps_it_in_the_address(app_url):
    with chromium_page(1280, 1000) as page:
        _open(page, f"{app_url}/?preset=Matching+pennies&algorithm=hedge")
        assert page.evaluate(_GEOMETRY_JS)["kind"] == "square", "the page runs Hedge (its field is drawn)"
        assert _query(page).get("algorithm") == ALGORITHM_NAMES["hedge"], page.url


def _iterates_at(page, iteration: int) -> dict:
    """The square's iterates once the chart has drawn ``iteration`` (its average line ends there)."""
    deadline = time.time() + 30
    while time.time() < deadline:
        drawn = page.evaluate(_ITERATES_JS)
        if drawn and iteration_shown(page) == str(iteration):
            return drawn
        time.sleep(0.3)
    raise AssertionError(f"the strategy-space chart never drew iteration {iteration}")


def _shared_link(page) -> str:
    """The link the Share control gives, with *Also run to the current iteration* ticked."""
    page.get_by_text("Share this setup").first.click()
    page.get_by_text("Also run to the current iteration").first.click()
    code = page.locator("[data-testid=stCode]").filter(has_text="run_to=")
    code.first.wait_for(timeout=20_000)
    link = "".join(code.first.inner_text().split())
    page.keyboard.press("Escape")
    return link


def test_a_click_on_one_populations_triangle_starts_both_players_there(app_url):
    uniform = urllib.parse.quote_plus("uniform (zero regrets)")
    with chromium_page(1280, 1000) as page:
        geometry = _open(page, f"{app_url}/?preset=Rock-Paper-Scissors&algorithm=hedge&start_mode={uniform}")
        assert geometry["kind"] == "ternary"
        a, c = 0.6, 0.1  # (b = 0.3)
        wanted = {f"start_{who}_3_{k}": str(w) for who in ("row", "col") for k, w in enumerate((60, 30, 10))}
        _click_until_started(
            page, lambda g: (g["left"] + g["width"] * (c + a / 2), g["top"] + g["height"] * (1 - a)), wanted
        )
        wait_until_idle(page)
        assert page.evaluate(_START_JS) == pytest.approx([0.6, 0.3, 0.1])
        assert page.locator("[data-testid=stException]").count() == 0
