"""The strategy-space chart in a real browser: a click on the square or the triangle sets the start, restarts the run
there and writes it into the link, the Share control's link opens that start and that run in a fresh session, and
while a run is live the field is drawn once, in a layer under the moving iterates, and at 1280x720 the square and the
triangle take most of their column with the legend and the colour bar off them (Debian's chromium, driven by
Playwright, against `streamlit run`)."""

import io
import os
import time
import urllib.parse
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from rmcore.plotting import space as space_figure
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


#: The strategy-space chart and the field's layer under it (``ui/live_chart_frontend/live_chart.js``), kept in
#: ``window.__rmLayers``: which traces each draws, whether the layer shows, both plot areas (page pixels) and where
#: each puts its ticks (the grid).
_LAYERS_JS = """(field) => {
    const chart = [...document.querySelectorAll('.rm-live-chart')].find(
        c => (c._fullData || []).some(t => (t.name || '').startsWith('rest point')));
    const underlay = chart && chart.parentElement.querySelector('.rm-live-underlay');
    if (!underlay || !underlay._fullLayout || !chart._fullLayout) return null;
    window.__rmLayers = {chart, underlay};
    const area = (plot) => {
        const box = plot.getBoundingClientRect(), layout = plot._fullLayout;
        if (layout.ternary && layout.ternary._subplot) {
            const t = layout.ternary._subplot;
            return [box.left + t.x0, box.top + t.y0, t.w, t.h];
        }
        return [box.left + layout.xaxis._offset, box.top + layout.yaxis._offset, layout.xaxis._length,
                layout.yaxis._length];
    };
    const ticks = (plot) => {
        const layout = plot._fullLayout;
        const axes = layout.ternary ? ['aaxis', 'baxis', 'caxis'].map(a => layout.ternary[a])
                                    : [layout.xaxis, layout.yaxis];
        return axes.map(axis => (axis._vals || []).filter(tick => !tick.minor).map(tick => tick.x));
    };
    const box = chart.getBoundingClientRect();
    return {
        shown: underlay.style.visibility !== 'hidden',
        under: (underlay._fullData || []).map(t => t.meta === field),
        above: chart._fullData.filter(t => t.meta === field).length,
        areas: [area(chart), area(underlay)],
        ticks: [ticks(chart), ticks(underlay)],
        box: [box.left, box.top, box.width, box.height],
    };
}"""
#: Count both plots' redraws from now on, mark the layer's element, and note where the last iterate is at each redraw.
_WATCH_JS = """() => {
    const {chart, underlay} = window.__rmLayers;
    const seen = window.__rmSeen = {chart: 0, underlay: 0, places: new Set()};
    underlay.__rmMark = 'the same element';
    underlay.on('plotly_afterplot', () => { seen.underlay += 1; });
    chart.on('plotly_afterplot', () => {
        seen.chart += 1;
        const now = chart._fullData.find(t => (t.name || '').endsWith(': last iterate now'));
        if (now) seen.places.add(JSON.stringify([[...(now.x || now.a)], [...(now.y || now.b)]]));
    });
}"""
_SEEN_JS = """() => {
    const {chart} = window.__rmLayers, seen = window.__rmSeen;
    const underlay = chart.parentElement.querySelector('.rm-live-underlay');
    return {chart: seen.chart, underlay: seen.underlay, places: seen.places.size, mark: underlay.__rmMark || null};
}"""
#: The last iterate's marker centre in page pixels, as the chart placed it.
_LAST_ITERATE_JS = """() => {
    // The marker as drawn: the centre of the "last iterate now" trace's point in the page (the trace's group carries
    // its uid). Read from the drawing rather than from the data, which may already hold an update not yet drawn.
    const {chart} = window.__rmLayers;
    const now = chart._fullData.find(t => (t.name || '').endsWith(': last iterate now'));
    const point = now && chart.querySelector(`g.trace${now.uid} path.point`);
    if (!point) return null;
    const box = point.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
}"""


def _shot(page, box) -> np.ndarray:
    left, top, width, height = box
    clip = dict(x=left, y=top, width=width, height=height)
    return np.asarray(Image.open(io.BytesIO(page.screenshot(clip=clip))).convert("RGB"), dtype=int)


#: Rock-Paper-Scissors in one population, from a start off its rest point (both players at (60, 30, 10) %).
_RPS_MOVING = urllib.parse.urlencode(
    {"preset": "Rock-Paper-Scissors", "algorithm": "hedge", "start_mode": START_CHOICES["custom"]}
    | {f"start_{who}_3_{k}": w for who in ("row", "col") for k, w in enumerate((60, 30, 10))}
)


@pytest.mark.parametrize("query", ["preset=Matching+pennies&algorithm=hedge", _RPS_MOVING], ids=["square", "triangle"])
def test_while_running_the_field_is_drawn_once_under_the_moving_iterates(app_url, query):
    """Plotly.react redraws every trace of a plot whose data changed: the field's thousands of points go to a layer of
    their own while the run is live, which keeps its element and is not redrawn while the iterates move above it; the
    field shows through the chart, in its plot area to the pixel, and the last iterate is drawn over it."""
    with chromium_page(1920, 1080) as page:  # (a chart large enough to tick its square every 0.2)
        _open(page, f"{app_url}/?{query}")
        step = page.get_by_role("button", name="Step +10", exact=True)
        click_until(page, step, lambda: iteration_shown(page) == "10")
        wait_until_idle(page)
        page.get_by_role("radio", name="Run").click()
        page.mouse.move(1, 1)  # (off the chart: the chart under the pointer is drawn interactive, in one plot)
        deadline = time.time() + 60
        while time.time() < deadline:
            layers = page.evaluate(_LAYERS_JS, space_figure.FIELD)
            if layers and layers["shown"] and layers["under"]:
                break
            time.sleep(0.3)
        assert layers and layers["shown"], f"while running, the field is drawn in a layer under the chart: {layers}"
        assert all(layers["under"]) and len(layers["under"]) > 1, "the layer holds the field's streamlines only"
        assert layers["above"] == 0, "the chart above redraws without the field"
        chart_area, underlay_area = layers["areas"]
        assert underlay_area == pytest.approx(chart_area, abs=0.01), "the field lies in the chart's plot area"
        assert layers["ticks"][1] == layers["ticks"][0], "the grid under the field lies at the chart's ticks"

        page.evaluate(_WATCH_JS)
        # Watched until the chart has redrawn three times with the iterates in two places (a busy machine draws every
        # few seconds): the field must stay undrawn through those redraws.
        deadline = time.time() + 60
        while (seen := page.evaluate(_SEEN_JS))["chart"] < 3 or seen["places"] < 2:
            if time.time() > deadline:
                break
            time.sleep(0.2)
        assert seen["chart"] >= 3 and seen["places"] >= 2, f"the iterates move while the run is live: {seen}"
        assert seen["underlay"] == 0, f"the field is not drawn again while only the iterates move: {seen}"
        assert seen["mark"] == "the same element", "the field's layer keeps its element"

        page.evaluate("() => { window.requestAnimationFrame = () => 0; }")  # (the chart draws no more updates)
        # The run goes on: while a rerun has not yet reached it, Streamlit fades the chart's container as stale (a
        # third of its opacity), which would fade one screenshot and not the other. The pixels compared are the chart's.
        page.add_style_tag(content="[data-stale=true] { opacity: 1 !important; transition: none !important; }")
        time.sleep(1.0)
        page.evaluate("() => window.__rmLayers.chart.scrollIntoView({block: 'center'})")
        time.sleep(0.5)
        box = page.evaluate(_LAYERS_JS, space_figure.FIELD)["box"]
        marker = page.evaluate(_LAST_ITERATE_JS)
        assert marker, "the last iterate's marker is drawn"
        x, y = marker
        with_field = _shot(page, box)
        page.evaluate("() => { window.__rmLayers.underlay.style.visibility = 'hidden'; }")
        without = _shot(page, box)
        changed = int((np.abs(with_field - without).max(axis=-1) > 40).sum())
        # (The streamlines change 4% of the triangle's box and 9% of the square's at this size.)
        share = changed / (chart_area[2] * chart_area[3])
        assert share > 0.01, f"the field shows through the chart: {share:.1%} of the plot area differs without it"
        # (The marker's disc, 13 px across, less its outline; an axis line may cross it: a share of its pixels.)
        row, column = round(y - box[1]), round(x - box[0])
        trail = [int(space_figure.TRAIL_COLOURS[0][k : k + 2], 16) for k in (1, 3, 5)]
        disc = [shot[row - 3 : row + 4, column - 3 : column + 4] for shot in (with_field, without)]
        blue = [int((np.abs(pixels - trail).max(axis=-1) <= 40).sum()) for pixels in disc]
        # (Compositing one more layer may move a pixel's channels by a unit or two.)
        assert blue[0] >= 15 and np.abs(disc[0] - disc[1]).max() <= 8, f"the last iterate is over the field {blue}"
        assert page.locator("[data-testid=stException]").count() == 0


#: What the field chart's parts cover on the page, in page pixels: the plot (the square or the triangle), the legend,
#: the colour bar, the axis titles.
_PARTS_JS = """(titles) => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')].find(
        c => (c._fullData || []).some(t => (t.name || '').startsWith('rest point')));
    if (!chart) return null;
    const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
                       return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
    return {
        chart: box(chart),
        legend: box(chart.querySelector('.legend .bg')),
        colourbar: box(chart.querySelector('.colorbar')),
        titles: [...chart.querySelectorAll('text')].filter(t => titles.includes(t.textContent)).map(box),
    };
}"""


def _apart(one: dict, other: dict) -> bool:
    return (
        one["right"] <= other["left"]
        or other["right"] <= one["left"]
        or one["bottom"] <= other["top"]
        or other["bottom"] <= one["top"]
    )


TITLES = {"pennies": ["row plays Heads", "column plays Heads"], "rps": ["Rock", "Paper", "Scissors"]}


@pytest.mark.parametrize("lesson", ["pennies", "rps"])
def test_at_1280x720_the_field_is_wide_and_its_legend_and_colour_bar_stay_off_it(app_url, lesson):
    from ui.matrix import field_lessons

    values = field_lessons.LESSONS[lesson].settings
    preset = "Matching pennies" if lesson == "pennies" else "Rock-Paper-Scissors"
    written = {"preset": preset, "algorithm": ALGORITHM_NAMES["hedge"]}
    if lesson == "rps":
        written |= {key: value for key, value in values.items() if key.startswith(("start_row_", "start_col_"))}
        written["start_mode"] = START_CHOICES["custom"]
    with chromium_page(1280, 720) as page:
        _open(page, f"{app_url}/?{urllib.parse.urlencode(written)}")
        geometry = page.evaluate(_GEOMETRY_JS)
        parts = page.evaluate(_PARTS_JS, TITLES[lesson])
    plot = {
        "left": geometry["left"],
        "top": geometry["top"],
        "right": geometry["left"] + geometry["width"],
        "bottom": geometry["top"] + geometry["height"],
    }
    legend, bar = parts["legend"], parts["colourbar"]
    assert len(parts["titles"]) == len(TITLES[lesson])
    assert min(plot["right"] - plot["left"], plot["bottom"] - plot["top"]) >= 240  # (about 140 beside the legend)
    assert _apart(plot, legend) and _apart(plot, bar)
    for title in parts["titles"]:  # Rock, Paper, Scissors; the square's axis titles
        assert _apart(title, legend) and _apart(title, bar), title
        assert parts["chart"]["left"] <= title["left"] and title["right"] <= parts["chart"]["right"] + 1
