"""Hostile OpenSpiel links against a real server (``streamlit run``, Chromium): a string that crashes OpenSpiel, one
that names a server file and one that never finishes each get a sentence next to the box, while the server goes on
answering every other visitor. A killed or frozen server fails these tests."""

from __future__ import annotations

import os
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from .browser import CHROMIUM, chromium_page, iteration_shown, running_app, wait_until_idle

pytestmark = pytest.mark.browser
pytest.importorskip("pyspiel")

#: The child process's limit on this test server, in seconds: small, so that the slow link is stopped soon.
SECONDS = 6


def _link(url: str, game_string: str) -> str:
    query = urllib.parse.urlencode({"kuhn_game": "OpenSpiel game", "kuhn_openspiel": game_string})
    return f"{url}/kuhn_poker?{query}"


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def app_url():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    before = os.environ.get("RM_OPENSPIEL_SECONDS")
    os.environ["RM_OPENSPIEL_SECONDS"] = str(SECONDS)  # (the server's environment: running_app inherits this one)
    try:
        with running_app() as url:
            yield url
    finally:
        if before is None:
            del os.environ["RM_OPENSPIEL_SECONDS"]
        else:
            os.environ["RM_OPENSPIEL_SECONDS"] = before


def test_hostile_links_get_a_sentence_and_the_server_keeps_serving(app_url):
    with chromium_page(1280, 900) as page:
        page.goto(_link(app_url, "connect_four(rows=0)"))  # a segmentation fault inside OpenSpiel
        page.get_by_text("OpenSpiel crashed loading or converting connect_four(rows=0)").wait_for(timeout=90_000)
        assert _healthy(app_url)

        page.goto(_link(app_url, "efg_game(filename=/etc/passwd)"))
        page.get_by_text("a game string may not name a file").wait_for(timeout=60_000)
        assert "root:" not in page.content() and "nologin" not in page.content()

        # A game that never finishes: the server answers others all the while, and stops it at its limit.
        page.goto(_link(app_url, "mnk(m=1000,n=1000,k=3)"))
        page.get_by_text("Loading the OpenSpiel game in a process of its own").wait_for(timeout=30_000)
        answered = []
        deadline = time.time() + SECONDS + 60
        while time.time() < deadline and page.get_by_text(f"within {SECONDS} s, so it was stopped").count() == 0:
            answered.append(_healthy(app_url))
            time.sleep(0.5)
        assert page.get_by_text(f"did not load and convert mnk(m=1000,n=1000,k=3) within {SECONDS} s").count() == 1
        assert answered and all(answered), "the server answered while OpenSpiel ran"

    with chromium_page(1280, 900) as page:  # a new visitor: a normal page still runs
        page.goto(f"{app_url}/kuhn_poker")
        step = page.get_by_role("button", name="Step +10", exact=True)
        step.wait_for(timeout=90_000)
        wait_until_idle(page)
        step.click()
        deadline = time.time() + 60
        while iteration_shown(page) != "10" and time.time() < deadline:
            time.sleep(0.2)
        assert iteration_shown(page) == "10"
        assert page.locator("[data-testid=stException]").count() == 0
