"""One real-browser test: Debian's chromium, driven by Playwright, against `streamlit run` on 127.0.0.1."""

import re
import time
import urllib.parse

import pytest

import rmcore

from .browser import (
    ROOT,
    chart_states_while_running,
    chromium_page,
    click_until,
    fresh_browser_at,
    iteration_shown,
    last_iteration_on_chart,
    last_x_of_trace,
    open_matrix_page_and_run,
    open_page_and_run,
    pause_and_wait,
    race_curve_names,
    require_chromium,
    running_app,
    wait_until_idle,
)

SCREENSHOT = ROOT / "docs" / "images" / "matrix_page.png"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url():
    require_chromium()
    with running_app() as url:
        yield url


def test_run_moves_the_charts_and_pause_stops_them(app_url):
    with chromium_page(height=3000) as page:
        open_matrix_page_and_run(page, app_url)
        # On a cold numba cache the first seconds run as plain Python (a few thousand iterations a second) while the
        # kernel compiles; the measurement below is of the compiled run, which passes a million within seconds.
        wait_for_compiled_speed(page)
        page.evaluate(_MARK_CHARTS_JS)
        seen = chart_states_while_running(page, 3.0)
        print(f"\nchart updates seen in 3 s: {len(seen) - 1}; last iteration drawn {seen[-1]:,.0f}")
        assert len(seen) >= 3, "the charts should redraw several times while running"
        assert seen == sorted(seen) and seen[-1] > 10_000
        assert page.evaluate(_MARKS_JS) == [0, 1, 2, 3], (
            "every update redraws the charts in place (none is mounted afresh)"
        )

        pause_and_wait(page, page.get_by_role("radio", name="Pause").click)
        before = last_iteration_on_chart(page)
        paused = chart_states_while_running(page, 1.0)
        assert len(paused) <= 1 and last_iteration_on_chart(page) == before, "paused charts stay still"
        assert page.locator("[data-testid=stException]").count() == 0
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT), full_page=True)


#: A mark on each live chart's element: a chart mounted afresh (a new element) has none.
_MARK_CHARTS_JS = "() => document.querySelectorAll('.rm-live-chart').forEach((chart, k) => { chart.__rmMark = k; })"
_MARKS_JS = "() => [...document.querySelectorAll('.rm-live-chart')].map(chart => chart.__rmMark ?? null)"


def wait_for_compiled_speed(page, iterations: int = 1_000_000, timeout: float = 120.0) -> None:
    deadline = time.time() + timeout
    while (last_iteration_on_chart(page) or 0) < iterations and time.time() < deadline:
        time.sleep(0.5)


def test_a_link_to_kuhn_poker_opens_the_tree_page_at_game_trees_with_all_its_parameters(app_url):
    """The tree page's path is /game_trees; a link to /kuhn_poker opens it there, every parameter kept (a repeated one
    with all its values), in the same browser tab."""
    query = "kuhn_game=Leduc+hold%27em&kuhn_variants=cfr%2B+%C2%B7+simultaneous&kuhn_variants=cfr+%C2%B7+alternating"
    with chromium_page(1280, 720) as page:
        page.goto(f"{app_url}/kuhn_poker?{query}&kuhn_seed=5")
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        assert urllib.parse.urlsplit(page.url).path == "/game_trees"
        kept = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
        assert kept["kuhn_game"] == ["Leduc hold'em"] and kept["kuhn_seed"] == ["5"]
        assert kept["kuhn_variants"] == ["cfr+ · simultaneous", "cfr · alternating"]
        assert page.get_by_text(rmcore.TREE_GAMES["leduc"].how_to_play[:60]).count() >= 1  # the game's own words
        assert page.locator("[data-testid=stException]").count() == 0
        assert page.get_by_text("could not be used").count() == 0


def test_the_poker_page_opens_at_kuhn_poker_steps_and_trains(app_url):
    with chromium_page(height=3400) as page:
        page.goto(f"{app_url}/kuhn_poker")
        page.get_by_role("button", name="Step +1 Shortcut").wait_for(timeout=90_000)
        page.get_by_role("heading", name="CFR on game trees").wait_for(timeout=10_000)
        page.get_by_role("link", name="CFR on game trees").first.wait_for(timeout=10_000)  # the sidebar's navigation
        traced = page.get_by_text("Iteration 1 of cfr (alternating updates)")
        click_until(page, page.get_by_role("button", name="Step +1 Shortcut"), lambda: traced.count() > 0)
        page.get_by_role("radio", name="Run").click()

        deadline, seen = time.time() + 20, set()
        while time.time() < deadline and len(seen) < 3:
            value = last_x_of_trace(page, "cfr · alternating")
            if value is not None:
                seen.add(value)
            time.sleep(0.1)
        assert len(seen) >= 3, "the exploitability chart should move while training"
        page.get_by_role("radio", name="Pause").click()
        time.sleep(1.0)
        assert not traced.is_visible()  # (Run folded the walkthrough: the charts come up under the controls)
        click_until(page, page.get_by_text("One iteration, step by step"), traced.is_visible)  # (for the picture)
        assert page.locator("[data-testid=stException]").count() == 0
        page.screenshot(path=str(ROOT / "docs" / "images" / "kuhn_page.png"), full_page=True)


@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
def test_poker_games_a_fixed_opponent_and_hands_against_the_bot(app_url, width, height):
    """Kuhn on sliders with player 2 fixed (the default lock), 100 iterations, the exact answer against it; then two
    hands against the bot, each revealed and tallied. The screenshots go in the README (docs/images/play_bot.png)."""
    with chromium_page(width, height) as page:
        page.goto(f"{app_url}/kuhn_poker")
        step = page.get_by_role("button", name="Step +100", exact=True)
        step.wait_for(timeout=90_000)
        wait_until_idle(page)
        cards = page.get_by_text("Cards", exact=True)
        click_until(page, page.get_by_role("radio", name="Kuhn on sliders"), lambda: cards.count() > 0)
        against = page.get_by_text("Against the fixed player 2")
        click_until(
            page,
            page.get_by_text("Player 2 fixed", exact=True),  # (the chart title says "player 2 fixed" too)
            lambda: page.get_by_text("Player 2's locked information sets").count() > 0,
        )
        click_until(page, step, lambda: against.count() > 0, timeout=60)
        page.get_by_text("The exploiting deviations").wait_for(
            timeout=30_000
        )  # (the page streams in: wait, then it is there)
        page.get_by_text("learner's best-response gain (cfr)").wait_for(timeout=30_000)
        page.get_by_text("Play against the bot").click()
        held = page.get_by_text("The bot held")
        for hand in range(2):
            for _ in range(6):  # at most a few decisions a hand in Kuhn: always bet, or call
                if held.count() > 0:
                    break
                bet = page.get_by_role("button", name=re.compile(r"^(bet|call)$"))  # the bot's bet is met with a call
                click_until(
                    page,
                    bet,
                    lambda bet=bet: held.count() > 0 or bet.count() == 0 or page.get_by_text("Betting:").count() > 0,
                    timeout=20,
                )
            assert held.count() > 0
            if hand == 0:
                click_until(page, page.get_by_role("button", name="Next hand"), lambda: held.count() == 0)
        page.get_by_text("After 2 hands you average").wait_for(timeout=30_000)
        assert page.locator("[data-testid=stException]").count() == 0
        against.scroll_into_view_if_needed()
        page.screenshot(
            path=str(ROOT / "docs" / "images" / f"fixed_opponent_{width}x{height}.png")
        )  # (to look at; not in the README)
        if (
            width == 1280
        ):  # the README's picture: the whole section (Streamlit scrolls inside the page: a tall window shows it)
            page.set_viewport_size({"width": width, "height": 2400})
            wait_until_idle(page)
            page.locator("[data-testid=stExpander]").filter(has_text="Play against the bot").screenshot(
                path=str(ROOT / "docs" / "images" / "play_bot.png")
            )


@pytest.mark.parametrize("which", ["matrix", "kuhn"])
def test_a_race_of_three_overlays_three_curves_and_fills_its_table(app_url, which):
    with chromium_page(height=3400) as page:
        name = open_page_and_run(page, app_url, which, race=3)
        seen = [last_x_of_trace(page, name)]  # polled, not listened to: a race chart can be mounted afresh as its
        deadline = time.time() + 20  # table appears, and a busy machine (two test processes) draws every few seconds
        while len(seen) < 3 and time.time() < deadline:
            time.sleep(0.2)
            drawn = last_x_of_trace(page, name)
            if drawn is not None and drawn != seen[-1]:
                seen.append(drawn)
        assert len(seen) >= 3 and seen == sorted(seen), f"the race chart should redraw while running: {seen}"
        curves = race_curve_names(page)
        assert len(curves) >= 3, curves
        page.get_by_role("radio", name="Pause").click()
        wait_until_idle(page)
        page.get_by_text("Iterations and solver seconds (per seed)").wait_for(timeout=30_000)
        assert page.locator("[data-testid=stException]").count() == 0
        if which == "kuhn":
            page.screenshot(path=str(ROOT / "docs" / "images" / "kuhn_race.png"), full_page=True)


def test_a_link_whose_run_to_takes_several_updates_stops_there(app_url):
    """The browser's timed rerun, scheduled before the pause reaches it, must not switch the run back on: without
    ``state.pause_unasked`` renaming the switch this link ran on past 1.8 million, three times in three."""
    with chromium_page(width=1280, height=720) as page:
        page.goto(f"{app_url}/?show_current=true&run_to=900000")
        iteration = page.locator("[data-testid=stMetric]").filter(has_text="iteration").first
        iteration.wait_for(timeout=90_000)
        deadline = time.time() + 90
        while "900,000" not in iteration.inner_text() and time.time() < deadline:
            time.sleep(0.25)
        time.sleep(3.0)  # long enough for a stale Run to have taken effect
        assert iteration.inner_text().split()[:2] == ["iteration", "900,000"]  # (then a compile note, when cold)
        assert page.get_by_role("radio", name="Pause").get_attribute("aria-checked") == "true"


def test_the_rules_lesson_link_runs_eight_rules_with_their_last_iterates_on_a_projector(app_url):
    """The matrix lesson's link with ``run_to``, on a 1280x720 screen: sixteen curves (each rule's average and its
    current strategies), the lesson's words and the table; the screenshot goes in the lesson's tutorial."""
    from ui.matrix import lesson

    query = "&".join(f"{key}={urllib.parse.quote_plus(value)}" for key, value in lesson.RULES_LESSON.query())
    with chromium_page(width=1280, height=720) as page:
        page.goto(f"{app_url}/?{query}&run_to=10000")
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        page.get_by_text("Iterations and solver seconds (per seed)").wait_for(timeout=120_000)
        iteration = page.locator("[data-testid=stMetric]").filter(has_text="iteration").first
        deadline = time.time() + 120
        while "10,000" not in iteration.inner_text() and time.time() < deadline:
            time.sleep(0.5)
        wait_until_idle(page)
        assert iteration.inner_text().split()[:2] == ["iteration", "10,000"]  # (then a compile note, when cold)
        deadline = time.time() + 30
        while len(curves := race_curve_names(page)) < 16 and time.time() < deadline:  # (drawn after the pause's rerun)
            time.sleep(0.25)
        assert sum("current (last iterate)" in name for name in curves) == 8, curves
        assert sum(name.endswith("uniform average") for name in curves) == 8, curves
        assert page.get_by_text("The lesson, as run here", exact=False).count() == 1
        assert page.locator("[data-testid=stException]").count() == 0
        page.set_viewport_size({"width": 1280, "height": 2600})  # (only what the viewport shows is painted)
        time.sleep(1.0)
        chart = page.locator(".st-key-chart_race")
        chart.scroll_into_view_if_needed()
        chart.screenshot(path=str(ROOT / "docs" / "images" / "rules_lesson.png"))


def test_a_shared_link_restores_the_setup_in_a_fresh_browser(app_url):
    with chromium_page(height=1600) as page:
        page.goto(app_url)
        page.get_by_role("button", name="Step +100", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        rm_plus = page.get_by_role("option", name="RM+", exact=True)  # (a click sent during a rerun can be lost)
        click_until(page, page.locator("[data-testid=stSelectbox]").filter(has_text="Variant"), lambda: rm_plus.count())
        rm_plus.click()
        wait_until_idle(page)
        click_until(
            page, page.get_by_role("button", name="Step +100", exact=True), lambda: iteration_shown(page) == "100"
        )
        page.get_by_role("button", name="Share this setup").click()
        code = page.locator("[data-testid=stPopoverBody] code")
        click_until(
            page,
            page.get_by_text("Also run to the current iteration (100)"),
            lambda: "run_to=100" in code.inner_text(),
            attempts=2,
        )
        shared = code.inner_text().strip()
    assert "algorithm=RM%2B" in shared and "run_to=100" in shared, shared
    with chromium_page(height=1600) as fresh:  # a new browser: nothing but the link
        fresh.goto(shared)
        fresh.get_by_role("button", name="Step +100", exact=True).wait_for(timeout=90_000)
        wait_until_idle(fresh)
        assert fresh.get_by_role("combobox", name="Variant", exact=True).input_value() == "RM+"
        assert _shows_iteration(fresh, "100")
        assert fresh.locator("[data-testid=stException]").count() == 0


def _shows_iteration(page, expected: str, timeout: float = 30.0) -> bool:
    """Whether the page comes to show ``expected`` as its iteration (a page still finishing its first run may show
    the metrics row half drawn for a moment)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if iteration_shown(page) == expected:
            return True
        time.sleep(0.2)
    print(f"the page shows iteration {iteration_shown(page)!r}")
    return False


_CHART_COLOURS_JS = (
    """() => [...document.querySelectorAll('.js-plotly-plot')].filter(chart => chart._fullLayout)"""
    """.map(chart => {
    const lines = (chart._fullData || []).map(t => t.line && t.line.color).filter(Boolean);
    return {paper: chart._fullLayout.paper_bgcolor, font: chart._fullLayout.font.color, lines: lines};
})"""
)


def _brightness(colour: str) -> float:
    """0 (black) to 1 (white) for '#rrggbb' or 'rgb(r, g, b)'."""
    if colour.startswith("#"):
        channels = [int(colour[k : k + 2], 16) for k in (1, 3, 5)]
    else:
        channels = [float(v) for v in colour[colour.index("(") + 1 : -1].split(",")[:3]]
    return min(channels) / 255


@pytest.mark.slow
def test_in_the_dark_theme_charts_sit_on_the_page_and_use_light_ink():
    with running_app(options=("--theme.base", "dark")) as url, chromium_page(width=1280, height=2400) as page:
        page.goto(url)
        step = page.get_by_role("button", name="Step +100", exact=True)
        step.wait_for(timeout=90_000)
        wait_until_idle(page)
        colours = []
        for _ in range(3):  # a click sent while the first script run is still going can be lost: check, and again
            step.click()
            deadline = time.time() + 20
            while time.time() < deadline and len(colours) < 4:
                colours = page.evaluate(_CHART_COLOURS_JS)
                time.sleep(0.3)
            if len(colours) >= 4:
                break
        assert len(colours) >= 4, "the four live charts"
        for chart in colours:
            assert chart["paper"].replace(" ", "") == "rgba(0,0,0,0)", (
                chart
            )  # transparent: the page's dark background shows
            assert _brightness(chart["font"]) > 0.8, chart  # light text on the dark page
            assert not any(c in ("black", "#000000") or c.replace(" ", "") == "rgb(0,0,0)" for c in chart["lines"]), (
                chart
            )
        page.screenshot(path=str(ROOT / "docs" / "images" / "matrix_dark.png"), full_page=False)


def test_export_the_history_and_the_setup_then_load_the_setup_in_a_fresh_browser(app_url, tmp_path):
    import csv

    with chromium_page(height=3000) as page:
        page.goto(f"{app_url}/?algorithm=RM%2B")
        step = page.get_by_role("button", name="Step +100", exact=True)
        step.wait_for(timeout=90_000)
        click_until(page, step, lambda: iteration_shown(page) == "100")
        page.get_by_role("button", name="History (CSV)").wait_for(timeout=60_000)
        wait_until_idle(page)
        with page.expect_download() as download:
            page.get_by_role("button", name="History (CSV)").click()
        rows = list(csv.reader(open(download.value.path(), encoding="utf-8")))
        assert rows[0][:4] == ["variant", "seed", "iteration", "nash_conv"] and "row_average[Rock]" in rows[0]
        assert rows[1][0] == "rm+ · expected · simultaneous · uniform" and rows[-1][2] == "100"
        with page.expect_download() as download:
            page.get_by_role("button", name="Setup (JSON)").click()
        saved = tmp_path / "setup.json"
        download.value.save_as(saved)
    with chromium_page(height=1600) as fresh:
        fresh.goto(app_url)
        fresh.get_by_role("button", name="Share this setup").wait_for(timeout=90_000)
        wait_until_idle(fresh)
        fresh.get_by_role("button", name="Share this setup").click()
        fresh.locator("[data-testid=stPopoverBody] input[type=file]").set_input_files(str(saved))
        fresh.wait_for_url("**run_to=100**", timeout=60_000)
        fresh.get_by_role("button", name="Step +100", exact=True).wait_for(timeout=90_000)
        wait_until_idle(fresh)
        assert fresh.get_by_role("combobox", name="Variant", exact=True).input_value() == "RM+"
        assert _shows_iteration(fresh, "100")


# -- presentation mode, the keyboard, and interaction while live -----------------------------------------

_MAIN_CHART_JS = (
    """(namePart) => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')]"""
    """.find(c => (c._fullData || []).some(t => (t.name || '').includes(namePart)));
    if (!chart) return null;
    const xaxis = chart._fullLayout.xaxis;
    return {font: chart._fullLayout.font.size, range: xaxis.range.slice(), autorange: xaxis.autorange, """
    """redraws: window.__afterplots || 0,
            widths: chart._fullData.filter(t => (t.name || '').includes('(average)')).map(t => t.line.width)};
}"""
)
_COUNT_REDRAWS_JS = (
    """(namePart) => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')]"""
    """.find(c => (c._fullData || []).some(t => (t.name || '').includes(namePart)));
    if (!chart) return false;
    window.__afterplots = 0;
    chart.on('plotly_afterplot', () => { window.__afterplots += 1; });
    return true;
}"""
)


_HAS_TRACE_JS = """(chart, namePart) => (chart._fullData || []).some(t => (t.name || '').includes(namePart))"""


def _chart(page, name_part: str):
    """The live chart (a locator) with a trace named with ``name_part``."""
    deadline = time.time() + 60
    while time.time() < deadline:
        charts = page.locator(".rm-live-chart")
        for k in range(charts.count()):
            if charts.nth(k).evaluate(_HAS_TRACE_JS, name_part):
                return charts.nth(k)
        time.sleep(0.3)
    raise AssertionError(f"no chart with a trace named {name_part!r}")


#: Controls in the page's main area whose content is wider than their box: Streamlit then clips them or scrolls them
#: sideways (Run | Pause did at 1280 wide with the sidebar open: "Pau", its play icon scrolled away).
_CLIPPED_CONTROLS_JS = (
    """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stButtonGroup], """
    """[data-testid=stMain] [data-testid=stButtonGroup] *, """
    """[data-testid=stMain] button')]
  .filter(e => e.offsetParent && e.scrollWidth > e.clientWidth + 1)
  .map(e => [e.getAttribute('data-testid') || e.tagName, e.innerText.replace(/\\s+/g, ' ').slice(0, 40), """
    """e.scrollWidth, e.clientWidth])"""
)


@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("path", ["/", "/game_trees", "/kuhn_poker"])
def test_no_control_is_clipped_on_a_projector_or_a_large_screen(app_url, path, width, height):
    with chromium_page(width, height) as page:
        page.goto(app_url + path)
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        assert page.evaluate(_CLIPPED_CONTROLS_JS) == []


def test_presentation_mode_puts_the_controls_and_the_main_chart_on_a_1280x720_screen(app_url):
    with chromium_page(width=1280, height=720) as page:
        page.goto(f"{app_url}/?present=true")
        step = page.get_by_role("button", name="Step +10", exact=True)
        step.wait_for(timeout=90_000)
        click_until(page, step, lambda: page.get_by_text("iteration 10 ·").count() > 0)
        page.get_by_role("radio", name="Run").click()
        main_chart = _chart(page, "(average)")
        time.sleep(2.0)
        viewport = page.viewport_size
        boxes = {
            "Run": page.get_by_role("radio", name="Run").bounding_box(),
            "Speed": page.locator("[data-testid=stSlider]").first.bounding_box(),
            "main chart": main_chart.bounding_box(),
        }
        for name, box in boxes.items():
            assert (
                box
                and box["y"] >= 0
                and box["y"] + box["height"] <= viewport["height"]
                and box["x"] + box["width"] <= viewport["width"]
            ), (name, box)
        chart = page.evaluate(_MAIN_CHART_JS, "(average)")
        assert chart["font"] >= 18 and min(chart["widths"]) >= 3, chart
        assert page.get_by_text("Space").count() and page.locator("[data-testid=stException]").count() == 0
        page.screenshot(path=str(ROOT / "docs" / "images" / "presentation.png"))


def test_keys_run_pause_step_and_reset(app_url):
    with chromium_page(height=1600) as page:
        page.goto(app_url)
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        page.locator("h1").first.click()  # focus the page, not a field
        for _ in range(4):  # a key pressed while the first script run is still going can be lost, like a click
            page.keyboard.press("ArrowRight")
            deadline = time.time() + 10  # a slow machine answers late: press again only when nothing came of the key
            while time.time() < deadline and iteration_shown(page) in ("", "0"):
                time.sleep(0.2)
            if iteration_shown(page) not in ("", "0"):
                break
        assert iteration_shown(page) == "1"
        page.keyboard.press("Space")
        deadline = time.time() + 20
        while time.time() < deadline and int(iteration_shown(page).replace(",", "") or 0) < 1000:
            time.sleep(0.2)
        assert int(iteration_shown(page).replace(",", "")) >= 1000, "Space runs"
        pause_and_wait(page, lambda: page.keyboard.press("Space"))
        held = iteration_shown(page)
        time.sleep(1.0)
        assert iteration_shown(page) == held, "Space again pauses"
        page.keyboard.press("r")
        deadline = time.time() + 10
        while time.time() < deadline and iteration_shown(page) != "0":
            time.sleep(0.2)
        assert iteration_shown(page) == "0", "R resets"


def test_a_zoom_made_while_running_survives_later_updates(app_url):
    with chromium_page(width=1400, height=1600) as page:
        open_matrix_page_and_run(page, app_url)
        chart = _chart(page, "(average)")
        chart.scroll_into_view_if_needed()  # (the pointer reaches only what is on screen)
        box = chart.bounding_box()
        plot = chart.locator(".nsewdrag").first  # the first panel's plot area (present once the chart is interactive)
        page.mouse.move(
            box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.45
        )  # the pointer enters: interactive
        plot.wait_for(timeout=10_000)
        area = plot.bounding_box()
        x0, y0 = area["x"] + area["width"] * 0.3, area["y"] + area["height"] * 0.2  # page coordinates
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + area["width"] * 0.3, y0 + area["height"] * 0.6, steps=8)
        page.mouse.up()
        time.sleep(0.3)
        zoomed = page.evaluate(_MAIN_CHART_JS, "(average)")
        assert zoomed["autorange"] is False, zoomed
        # While running, the chart under the pointer also offers its image downloads (asked again for a few seconds:
        # the redraw that follows the release may come after this line).
        page.mouse.move(x0 + area["width"] * 0.1, y0 + area["height"] * 0.1)
        deadline = time.time() + 5
        while True:
            buttons = chart.evaluate(
                "chart => [...chart.querySelectorAll('.modebar-btn')].map(b => b.getAttribute('data-title'))"
            )
            if buttons or time.time() > deadline:
                break
            time.sleep(0.2)
        assert {"Download plot as a PNG", "Download plot as SVG"} <= set(buttons) and "Share chart..." not in buttons, (
            buttons
        )
        page.mouse.move(5, box["y"] - 40)  # the pointer leaves: the chart goes back to the cheap static drawing
        assert page.evaluate(_COUNT_REDRAWS_JS, "(average)")
        deadline = time.time() + 20
        while time.time() < deadline and (page.evaluate(_MAIN_CHART_JS, "(average)") or {}).get("redraws", 0) < 3:
            time.sleep(0.1)
        later = page.evaluate(_MAIN_CHART_JS, "(average)")
        assert later["redraws"] >= 3, "the chart kept updating"
        assert later["range"] == pytest.approx(zoomed["range"]) and later["autorange"] is False, (zoomed, later)
        # ... and through Pause and Run (one fragment draws both, so the plot is never mounted afresh).
        for control in ("Pause", "Run"):
            page.get_by_role("radio", name=control).click()
            wait_until_idle(page)
            time.sleep(1.0)
            now = page.evaluate(_MAIN_CHART_JS, "(average)")
            assert now["range"] == pytest.approx(zoomed["range"]) and now["autorange"] is False, (control, now)


def clicks_while_running_leave_the_run_whole(url: str, clicks: int = 24) -> list[str]:
    """Pause, Run and Step +1, pressed in turn every 0.15 s while the matrix page runs; returns what went wrong.

    A click starts a new script run while the last one may still be inside the solver (its update takes up to the
    time budget). The two must not meet: the solver refuses a second thread (``ConcurrentUseError``), which stopped
    the live panel, or raised from a Step's callback."""
    with chromium_page(width=1400, height=1600) as page:
        open_matrix_page_and_run(page, url)
        wait_until_idle(page)
        time.sleep(1.0)
        controls = [
            page.get_by_role("radio", name="Pause"),
            page.get_by_role("radio", name="Run"),
            page.get_by_role("button", name="Step +1 Shortcut →"),
            page.get_by_role("radio", name="Run"),
        ]
        for k in range(clicks):
            try:
                controls[k % len(controls)].click(timeout=10_000)
            except Exception as error:  # noqa: BLE001  a control gone from the page (a traceback in its place) is reported
                traceback = page.locator("[data-testid=stException]").all_inner_texts()
                return [f"click {k}: {type(error).__name__}", *traceback]
            time.sleep(0.15)
        wait_until_idle(page)
        time.sleep(1.0)
        problems = [page.locator(f"[data-testid={kind}]").all_inner_texts() for kind in ("stException", "stAlert")]
        return [text for texts in problems for text in texts if "stopped" in text or "Error" in text]


def test_clicks_while_running_never_meet_the_last_update_in_the_solver(app_url):
    assert clicks_while_running_leave_the_run_whole(app_url) == []


@pytest.mark.parametrize(
    "which, control", [("matrix", "Run"), ("matrix", "Step +10"), ("kuhn_poker", "Run"), ("kuhn_poker", "Step +10")]
)
def test_a_control_pressed_as_soon_as_the_page_shows_it_takes_effect(app_url, which, control):
    """One click, sent as soon as the control is on screen (the page's first script run may still be going): no
    retry."""
    with chromium_page(height=1600) as page:
        page.goto(f"{app_url}/{'' if which == 'matrix' else which}")
        target = (
            page.get_by_role("radio", name="Run")
            if control == "Run"
            else page.get_by_role("button", name=control, exact=True)
        )
        target.wait_for(timeout=90_000)
        target.click()
        deadline = time.time() + 30
        while time.time() < deadline and iteration_shown(page) in ("", "0"):
            time.sleep(0.2)
        assert iteration_shown(page) not in ("", "0"), f"{control} on {which} was lost"


def test_a_tab_closed_mid_run_leaves_no_work_running(app_url):
    from .browser import cpu_seconds, server_pid

    pid = server_pid(app_url)
    with chromium_page(height=1600) as page:
        open_matrix_page_and_run(page, app_url)
        time.sleep(1.0)
        before = cpu_seconds(pid)
        time.sleep(2.0)
        running = (cpu_seconds(pid) - before) / 2.0
    time.sleep(2.0)  # the browser is gone: the session's fragment must stop rerunning
    for _ in range(4):  # (on a loaded machine the server may still be answering the tab's last requests at first)
        before = cpu_seconds(pid)
        time.sleep(3.0)
        idle = (cpu_seconds(pid) - before) / 3.0
        if idle < min(0.05, running / 4):
            break
    print(f"\nserver CPU: {running:.2f} of a core while running, {idle:.3f} after the tab closed")
    assert running > 0.05 and idle < min(0.05, running / 4), (running, idle)


def test_after_a_server_restart_a_shared_link_restores_the_setup():
    query = "?preset=Matching+pennies&algorithm=RM%2B&sampling=sampled&seed=5&present=true&run_to=300"
    for _ in range(2):  # two servers one after the other: nothing survives between them but the link
        with running_app() as url, chromium_page(height=1600) as page:
            page.goto(url + "/" + query)
            page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
            wait_until_idle(page)
            # Presentation mode's one line, at the link's iteration (run to in time-bounded updates: several reruns).
            page.get_by_text("iteration 300 ·").wait_for(timeout=60_000)
            assert page.get_by_text("iteration 300 ·").count() == 1
            page.get_by_text("Game and settings: Matching pennies").click()
            assert page.get_by_role("combobox", name="Variant", exact=True).input_value() == "RM+"
            assert page.locator("[data-testid=stException]").count() == 0


# -- a class on one server -----------------------------------------------------------------------------


def test_every_preset_chosen_opens_again_from_its_link_and_after_a_refresh(app_url):
    """A bound select box leaves its first option out of the address: that option must be the app's default game."""
    with chromium_page(height=1600) as page:
        page.goto(app_url)
        page.get_by_role("button", name="Step +100", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        for title in ("Rock-Paper-Scissors", "RPS with crash", "Matching pennies"):
            page.locator("[data-testid=stSelectbox]").filter(has_text="Preset").click()
            page.get_by_role("option", name=title, exact=True).click()
            # (the address changes with the choice, before the rerun that draws the new game has ended: wait for it)
            page.get_by_text(f"Now solving: {title}").wait_for(timeout=60_000)
            wait_until_idle(page)
            assert page.get_by_text(f"Now solving: {title}").count() == 1
            shared = page.url
            page.reload()
            page.get_by_role("button", name="Step +100", exact=True).wait_for(timeout=90_000)
            wait_until_idle(page)
            assert page.get_by_text(f"Now solving: {title}").count() == 1, f"a refresh of {shared} lost {title}"
            with fresh_browser_at(page, shared, "Step +100", 1400, 1600) as fresh:
                assert fresh.get_by_text(f"Now solving: {title}").count() == 1, f"{shared} did not open {title}"


def test_on_a_projector_step_plus_one_shows_its_numbers_without_a_scroll(app_url):
    """At 1280x720, with Step +1 at the top of the screen, the walkthrough's table of that step is on screen too."""
    with chromium_page(1280, 720) as page:
        page.goto(f"{app_url}/kuhn_poker")
        step = page.get_by_role("button", name="Step +1 Shortcut")
        step.wait_for(timeout=90_000)
        wait_until_idle(page)
        step.evaluate("button => button.scrollIntoView({block: 'start'})")
        caption = page.get_by_text("Iteration 1 of cfr", exact=False)
        click_until(page, step, lambda: caption.count() > 0, timeout=60)
        step.evaluate("button => button.scrollIntoView({block: 'start'})")
        table = page.locator("[data-testid=stDataFrame]").first
        box, viewport = table.bounding_box(), page.viewport_size
        assert box is not None and box["y"] < viewport["height"], f"the step's table starts at y={box and box['y']:.0f}"
        assert caption.first.bounding_box()["y"] < viewport["height"]


_SWITCH_JS = (
    """() => [...document.querySelectorAll('.st-key-matrix_running button')].map(b => b.getAttribute('aria-checked'))"""
)


def test_a_page_left_while_running_comes_back_with_its_switch_lit(app_url):
    with chromium_page(1280, 900) as page:
        page.goto(app_url)
        run = page.get_by_role("radio", name="Run")
        run.wait_for(timeout=90_000)
        wait_until_idle(page)
        click_until(page, run, lambda: page.evaluate(_SWITCH_JS) == ["true", "false"])
        # The switch lights at the click, before the server has taken it: leave only once the run is seen to move (a
        # page switch sent first would carry the click away with the page it leaves).
        before = iteration_shown(page)
        deadline = time.time() + 60
        while iteration_shown(page) == before and time.time() < deadline:
            time.sleep(0.2)
        assert iteration_shown(page) != before, "Run should move the iteration before the page is left"
        page.get_by_role("link", name="CFR on game trees").first.click()
        page.get_by_role("heading", name="CFR on game trees").wait_for(timeout=60_000)
        wait_until_idle(page)
        page.get_by_role("link", name="Matrix game").first.click()
        page.get_by_role("radio", name="Run").wait_for(timeout=60_000)
        wait_until_idle(page)
        time.sleep(1.0)
        said = page.locator("[data-testid=stAlert], [data-testid=stToast]").all_inner_texts()
        assert page.evaluate(_SWITCH_JS) == ["true", "false"], (
            f"Run stays lit: the page is still running (the switch's segments {page.evaluate(_SWITCH_JS)}; "
            f"the page said {said})"
        )


def test_the_pages_ask_nothing_of_the_internet(app_url):
    """The app works offline: every request a page makes goes to the app's own server (the favicon included)."""
    with chromium_page(1280, 900) as page:
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        for path in ("", "/kuhn_poker"):
            page.goto(app_url + path)
            page.get_by_role("radio", name="Run").wait_for(timeout=90_000)
            wait_until_idle(page)
            time.sleep(1.0)
    outside = [url for url in asked if not url.startswith((app_url, "data:", "blob:"))]
    assert not outside, outside
    assert any("favicon" in url or url.endswith(".png") for url in asked), "the page asked for its icon"


def test_the_tree_page_runs_an_uploaded_efg_and_explains_a_bad_file(app_url, tmp_path):
    import rmcore

    good, bad = tmp_path / "kuhn.efg", tmp_path / "bad.efg"
    good.write_text(rmcore.write_efg(rmcore.KUHN))
    bad.write_text("EFG 2 R nonsense")
    with chromium_page(1280, 720) as page:
        page.goto(f"{app_url}/kuhn_poker?kuhn_game=Your+game+%28.efg%29")
        uploader = page.locator("[data-testid=stFileUploader]").filter(has_text="Gambit .efg file")
        uploader.wait_for(timeout=90_000)
        uploader.locator("input[type=file]").set_input_files(str(good))
        page.get_by_text("from the file kuhn.efg").wait_for(timeout=60_000)
        page.get_by_text("12 information sets").first.wait_for(timeout=10_000)
        wait_until_idle(page)
        click_until(
            page, page.get_by_role("button", name="Step +10", exact=True), lambda: iteration_shown(page) == "10"
        )
        uploader.locator("input[type=file]").set_input_files(str(bad))
        page.get_by_text("Not loaded: the file bad.efg, line 1").wait_for(timeout=60_000)
        assert iteration_shown(page) == "10" and page.get_by_text("from the file kuhn.efg").count() > 0
        assert page.locator("[data-testid=stException]").count() == 0


def test_a_race_of_eleven_from_a_link_an_openspiel_export_and_a_game_by_name_show_no_traceback(app_url, tmp_path):
    """The first hour on the tree page at 1280x720: a link asking for 11 CFR variants races the first 10 and says
    which one it dropped (Run and Step stay); OpenSpiel's own .efg export of Leduc runs, with the note on how its
    decimals were read; an OpenSpiel game typed by name runs, and one that cannot is refused next to the box."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.gambit import export_gambit

    from ui.trees.settings import ALL_VARIANTS

    exported = tmp_path / "leduc.efg"
    exported.write_text(export_gambit(pyspiel.load_game("leduc_poker")))
    labels = [v.label for v in ALL_VARIANTS][:11]
    with chromium_page(1280, 720) as page:
        page.goto(f"{app_url}/kuhn_poker?{urllib.parse.urlencode([('kuhn_variants', label) for label in labels])}")
        page.get_by_text("a race takes at most 10 variants").wait_for(timeout=90_000)
        assert page.get_by_text(f"dropped '{labels[10]}'").count() == 1  # (the notice shows once)
        wait_until_idle(page)
        click_until(
            page, page.get_by_role("button", name="Step +10", exact=True), lambda: iteration_shown(page) == "10"
        )
        page.goto(f"{app_url}/kuhn_poker?kuhn_game=Your+game+%28.efg%29")
        uploader = page.locator("[data-testid=stFileUploader]").filter(has_text="Gambit .efg file")
        uploader.wait_for(timeout=90_000)
        uploader.locator("input[type=file]").set_input_files(str(exported))
        page.get_by_text("read 0.1666666666666667 as 1/6").wait_for(timeout=60_000)
        page.get_by_text("936 information sets").first.wait_for(timeout=10_000)
        page.goto(f"{app_url}/kuhn_poker?kuhn_game=OpenSpiel+game&kuhn_openspiel=liars_dice%28dice_sides%3D3%29")
        page.get_by_text("192 information sets").first.wait_for(timeout=90_000)
        wait_until_idle(page)
        box = page.get_by_role("textbox", name="OpenSpiel game (the string pyspiel.load_game takes)")
        box.fill("chess")
        box.press("Enter")
        page.get_by_text("plays are too long").wait_for(timeout=60_000)
        assert page.locator("[data-testid=stException]").count() == 0


def _iteration_number(page) -> int:
    digits = iteration_shown(page).split(" ")[0].replace(",", "")
    return int(digits) if digits.isdigit() else 0


def _choose_while_running(page, box: str, option: str, done) -> None:
    """Pick ``option`` in the select box ``box`` while the page runs, until ``done()`` holds: an update can close the
    opened list before the option is clicked (a person opens it again; so does this)."""
    from playwright.sync_api import TimeoutError as NotThere

    choice = page.get_by_role("option", name=option, exact=True)
    for _ in range(6):
        page.get_by_role("combobox", name=box, exact=True).click()
        try:
            choice.click(timeout=5_000)
        except NotThere:  # (the list closed under the pointer: open it again)
            page.keyboard.press("Escape")
            continue
        deadline = time.time() + 60
        while time.time() < deadline:
            if done():
                return
            time.sleep(0.2)
    raise AssertionError(f"{option!r} was never chosen in {box!r}")


@pytest.mark.slow
def test_the_first_hour_on_an_empty_cache_every_rule_and_both_pages_say_what_runs(tmp_path, monkeypatch):
    """A lecturer's first hour on a fresh install (an empty numba cache). The first Run, and then a switch to a
    variant never compiled, answer without waiting for a compile (plain Python stands in while the kernels compile in
    the background), and the page says so with the update (the seconds are printed, not asserted:
    ``benchmarks/cold_start.py`` measures them). Then the matrix page runs every learning rule in turn, each with the
    line under the title saying how that rule plays (its own words, not regret matching's); then the tree page runs a
    race of ten CFR variants from a link. No traceback anywhere, and every run advances."""
    from benchmarks.cold_start import _CLOCK_JS, first_update_after, switch
    from ui import explain

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # the server below compiles everything afresh
    with running_app(timeout=120) as url, chromium_page(width=1280, height=720) as page:
        page.add_init_script(_CLOCK_JS)
        page.goto(url)
        run = page.get_by_role("radio", name="Run")
        run.wait_for(timeout=120_000)
        wait_until_idle(page)
        notice = page.get_by_text("Meanwhile", exact=False)  # the notice: plain Python meanwhile
        first = first_update_after(
            page, lambda: click_until(page, run, lambda: page.evaluate("window.__rmShown") is not None), started=True
        )
        print(f"first Run on an empty cache: first update after {first:.2f} s (the page's clock, from the click)")
        notice.first.wait_for(timeout=10_000)  # said with the first update: it ran on a stand-in, not after a compile
        notice.first.wait_for(state="detached", timeout=30_000)  # (a toast goes by itself)
        seconds = first_update_after(page, switch(page, "radio", "sampled"))
        print(f"switched to a variant never compiled: first update after {seconds:.2f} s (the page's clock)")
        notice.first.wait_for(timeout=10_000)  # said again for the new setting: it did not wait for its compile either
        switch(page, "radio", "expected")()
        wait_until_idle(page)
        for rule, name in explain.ALGORITHM_NAMES.items():
            words = explain.RULE_PLAYS[rule][:60]
            _choose_while_running(page, "Variant", name, lambda words=words: page.get_by_text(words).count() > 0)
            time.sleep(1.0)  # (the new run's first updates)
            before = _iteration_number(page)
            deadline = time.time() + 60
            while _iteration_number(page) <= before and time.time() < deadline:  # (it advances)
                time.sleep(0.2)
            assert _iteration_number(page) > before, rule
            assert page.locator("[data-testid=stException]").count() == 0, rule
        variants = [
            f"{name} · {updates}"
            for name in ("cfr", "cfr+", "linear", "discounted", "pcfr+")
            for updates in ("alternating", "simultaneous")
        ]
        query = urllib.parse.urlencode({"kuhn_variants": variants}, doseq=True)
        page.goto(f"{url}/game_trees?{query}")
        run = page.get_by_role("radio", name="Run")
        run.wait_for(timeout=120_000)
        wait_until_idle(page)
        click_until(page, run, lambda: _iteration_number(page) > 0, timeout=90)
        deadline = time.time() + 90
        while len(set(race_curve_names(page))) < 10 and time.time() < deadline:  # (each curve once it has two points)
            time.sleep(0.5)
        assert len(set(race_curve_names(page))) >= 10, race_curve_names(page)
        assert page.locator("[data-testid=stException]").count() == 0
