"""A hostile ``kuhn_efg`` link against a real server: one chance node of 10,000 outcomes below a decision, raced by ten
variants of twenty seeds each up to ``run_to``, opens, reaches its iteration, and leaves the server answering."""

import os
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.browser import CHROMIUM, chromium_page, running_app
from tests.test_efg_limits import _wide_text

pytestmark = pytest.mark.browser


def _answers(url: str) -> bool:
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as response:
        return response.status == 200


def test_a_link_with_a_chance_node_of_ten_thousand_outcomes_raced_by_ten_variants_opens_and_runs_to_its_end():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run must apt-get install it")
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    from ui import link
    from ui.trees import games, settings

    labels, algorithms = [], set()
    for variant in settings.ALL_VARIANTS:  # ten algorithms, the sampled ones among them (each raced over 20 seeds)
        if variant.algorithm not in algorithms and len(labels) < 10:
            algorithms.add(variant.algorithm)
            labels.append(variant.label)
    query = [("kuhn_game", games.UPLOAD_LABEL), ("kuhn_efg", link.efg_param(_wide_text()))]
    query += [("kuhn_variants", label) for label in labels] + [("kuhn_seeds", "20"), ("run_to", "100")]
    with running_app() as url, chromium_page(1280, 720) as page:
        page.goto(f"{url}/game_trees?{urllib.parse.urlencode(query)}")
        iteration = page.locator("[data-testid=stMetric]").filter(has_text="iteration").first
        iteration.wait_for(timeout=180_000)
        deadline = time.time() + 600  # (on a cold numba cache the page runs plain Python while it compiles)
        while "100" not in iteration.inner_text().split() and time.time() < deadline:
            assert _answers(url), "the server stopped answering"
            time.sleep(0.5)
        assert iteration.inner_text().split()[:2] == ["iteration", "100"]
        assert page.locator("[data-testid=stException]").count() == 0
        assert page.get_by_text("showing the defaults instead").count() == 0  # the link's own game, not Kuhn
        page.close()
        assert _answers(url)
