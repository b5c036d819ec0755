"""The correlated-equilibrium lessons in a real browser at 1280x720 (Debian's chromium, driven by Playwright, against
`streamlit run`): one click opens Shapley's game with its three learners, Run moves every learner's CE and CCE gap
curves, and after 10,000 iterations regret matching's CE gap stays high while swap RM's has fallen; Aumann's Chicken
draws its tetrahedron with the joint play's trail. The screenshots go in the tutorial
(docs/tutorials/correlated-equilibria.md)."""

import time

import pytest

from rmcore.plotting import words as figure_words
from ui import explain_correlated as words

from .browser import (
    ROOT,
    chromium_page,
    iteration_shown,
    pause_and_wait,
    require_chromium,
    running_app,
    wait_until_idle,
)

pytestmark = pytest.mark.browser

#: Each CE gap curve's first and last value as Plotly drew them, by the curve's name.
_GAPS_JS = """(title) => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')].find(
        c => c._fullLayout && c._fullLayout.title && c._fullLayout.title.text === title);
    if (!chart) return null;
    const drawn = {};
    for (const t of chart._fullData)
        if ((t.name || '').startsWith('CE gap'))
            drawn[t.name] = [Number(t.x[t.x.length - 1]), t.y[0], t.y[t.y.length - 1]];
    return drawn;
}"""
#: The number of points of the joint play's trail in the tetrahedron.
_TRAIL_JS = """(name) => {
    const chart = [...document.querySelectorAll('.js-plotly-plot')].find(
        c => (c._fullData || []).some(t => t.type === 'scatter3d' && t.name === name));
    if (!chart) return null;
    return chart._fullData.find(t => t.name === name).x.length;
}"""


def _open_lesson(page, title: str) -> None:
    """Open the lessons' popover (again, if a click met a script run still going) and click the lesson's button."""
    lesson = page.get_by_role("button", name=title)
    for _ in range(3):
        wait_until_idle(page)
        popover = page.get_by_role("button", name=words.LESSONS_TITLE)
        popover.scroll_into_view_if_needed()
        popover.click()
        try:
            lesson.wait_for(timeout=10_000)
        except Exception:  # noqa: BLE001  (playwright's TimeoutError: the popover did not open)
            page.keyboard.press("Escape")
            continue
        lesson.click()
        wait_until_idle(page)
        return
    raise AssertionError(f"the lesson {title!r} never showed in its popover")


def _run_to(page, iteration: int, timeout: float = 60.0) -> None:
    page.get_by_role("radio", name="Run").click()
    deadline = time.time() + timeout
    while int(iteration_shown(page).split()[0].replace(",", "") or 0) < iteration and time.time() < deadline:
        time.sleep(0.25)
    pause_and_wait(page, lambda: page.get_by_role("radio", name="Pause").click())
    wait_until_idle(page)


def test_the_lessons_open_with_one_click_and_their_joint_play_converges_on_a_projector():
    require_chromium()
    with running_app() as url, chromium_page(width=1280, height=720) as page:
        page.goto(url)
        page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=90_000)
        wait_until_idle(page)
        _open_lesson(page, words.LESSONS["shapley"][0])
        _run_to(page, 10_000)
        gaps = page.evaluate(_GAPS_JS, figure_words.GAPS_RACE_TITLE)
        assert gaps is not None and len(gaps) == 3, gaps
        rm = next(v for name, v in gaps.items() if "rm · expected" in name and "swap" not in name)
        swap = next(v for name, v in gaps.items() if "swap-rm" in name)
        assert rm[0] >= 10_000 and swap[0] >= 10_000, "the curves moved to the iteration reached"
        assert rm[2] > 0.1, "regret matching's joint play stays out of the CE set"
        assert swap[2] < 0.02 and swap[2] < swap[1] / 4, "swap RM's CE gap fell"
        assert page.locator("[data-testid=stException]").count() == 0
        page.set_viewport_size({"width": 1280, "height": 2600})  # (only what the viewport shows is painted)
        time.sleep(1.0)
        chart = page.locator(".st-key-chart_correlated_race")
        chart.scroll_into_view_if_needed()
        chart.screenshot(path=str(ROOT / "docs" / "images" / "correlated_lesson.png"))
        page.locator(".st-key-chart_correlated").screenshot(
            path=str(ROOT / "docs" / "images" / "correlated_heatmaps.png")
        )

        page.set_viewport_size({"width": 1280, "height": 720})
        _open_lesson(page, words.LESSONS["chicken"][0])
        _run_to(page, 2_000)
        assert (page.evaluate(_TRAIL_JS, figure_words.TRAIL) or 0) > 10, "the trail of the joint play is drawn"
        assert page.locator("[data-testid=stException]").count() == 0
        page.set_viewport_size({"width": 1280, "height": 2600})
        time.sleep(1.0)
        tetrahedron = page.locator(".st-key-chart_correlated")
        tetrahedron.scroll_into_view_if_needed()
        tetrahedron.screenshot(path=str(ROOT / "docs" / "images" / "correlated_tetrahedron.png"))
