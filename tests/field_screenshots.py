"""Screenshots of the four field lessons for docs/tutorials/field-under-the-rule.md, taken from the running app in
headless Chromium at 1280x720 (``python -m tests.field_screenshots``): each lesson opened with its button, run a
while, paused, and its strategy-space chart scrolled into view."""

from __future__ import annotations

import time

from .browser import ROOT, chromium_page, click_until, running_app, wait_until_idle

#: Lesson button -> (image file, seconds to run before pausing).
LESSONS = {
    "Matching pennies: Hedge against optimistic Hedge": ("field_pennies.png", 3.0),
    "Rock-Paper-Scissors: the replicator's closed orbits": ("field_rps.png", 4.0),
    "Shapley's game: fictitious play cycles": ("field_shapley.png", 4.0),
    "Rock-Paper-Scissors: the best-response dynamic converges": ("field_rps_br.png", 4.0),
}


def main() -> None:
    with running_app() as url, chromium_page(1280, 720) as page:
        for button, (name, seconds) in LESSONS.items():
            page.goto(f"{url}/?present=true")  # presentation mode: no sidebar, the charts in a projector's type
            page.get_by_role("button", name="Step +10", exact=True).wait_for(timeout=120_000)
            wait_until_idle(page)
            page.get_by_text("Game and settings").first.click()
            opener = page.get_by_role("button", name="Lessons: the field under the rule")
            click_until(page, opener, lambda button=button: page.get_by_role("button", name=button).count() > 0)
            page.get_by_role("button", name=button).click()
            wait_until_idle(page)
            time.sleep(1.0)
            click_until(page, page.get_by_role("button", name="Step +10", exact=True), lambda: True)
            wait_until_idle(page)
            page.get_by_role("radio", name="Run").click()
            time.sleep(seconds)
            page.get_by_role("radio", name="Pause").click()
            time.sleep(1.5)
            wait_until_idle(page)
            chart = page.locator(".rm-live-chart").filter(has_text="and the iterates")
            if chart.count() == 0:  # no field: the strategy path on the triangle
                chart = page.locator(".rm-live-chart").filter(has_text="Average strategy path")
            chart.first.evaluate("element => element.scrollIntoView({block: 'center'})")
            time.sleep(1.0)
            path = ROOT / "docs" / "images" / name
            page.screenshot(path=str(path))
            print(f"{path.name}: {path.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
