"""Files handed out by main at b500d43 keep working: its share links, its setup files and its reproducibility bundles
(saved in ``tests/saved/b500d43`` by that version's own code: ``make_saved.py`` there) open the same page, game and
settings today, and a bundle's command reproduces its numbers (a game tree's to the last digit; a matrix game's to
rounding, as the matrix kernel adds its sums in another order since).

The tree page's path was ``/kuhn_poker``; it is ``/game_trees`` now, and the old path opens it with every parameter the
link carries. The page id ``kuhn``, every ``kuhn_*`` key, ``matrix=``, ``run_to=`` and the setup format
``rmcore-setup/1`` are unchanged.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.parse
import zipfile
from pathlib import Path

import pytest

from rmcore.records import HALVED_METRICS, RENAMED_METRICS
from tests.visits import opened, run_to_reached
from ui import link

SAVED = Path(__file__).parent / "saved" / "b500d43"
ROOT = Path(__file__).resolve().parent.parent
LINKS = sorted(path.name.removesuffix(".link.txt") for path in SAVED.glob("*.link.txt"))
BUNDLES = sorted(SAVED.glob("*.bundle.zip"))


def _opened_at(url: str):
    """The app opened at ``url``'s path with its query, as a browser's first request opens a link."""
    parts = urllib.parse.urlsplit(url)
    params = {}
    for key, value in urllib.parse.parse_qsl(parts.query):
        params.setdefault(key, []).append(value)
    params = {key: values if len(values) > 1 else values[0] for key, values in params.items()}
    return opened(params, parts.path.strip("/") or None)


def _state(app, page: str) -> dict:
    """What a page runs after a link opened it: its game, the variants and the iteration reached, and every setting the
    link named as its widget shows it."""
    run_to_reached(app, page)
    assert not app.exception and not app.warning, [w.value for w in app.warning]
    live = app.session_state[f"{page}_live"]
    game = live.race.game
    return {
        "title": app.title[0].value if app.title else None,
        "game": getattr(game, "name", None),
        "size": len(game.infosets) if hasattr(game, "infosets") else game.shape,
        "variants": [v.label for v in live.race.variants],
        "seed": live.race.seed,
        "iteration": live.iteration,
    }


def _page(setup: dict) -> str:
    return setup["page"]


def test_the_saved_files_are_there():
    assert set(LINKS) == {"matrix_hedge", "tree_kuhn_dcfr", "tree_leduc", "tree_liars_dice"} and len(BUNDLES) == 2


@pytest.mark.parametrize("name", LINKS)
def test_an_old_link_and_its_setup_file_open_the_same_game_and_settings(name):
    setup = json.loads((SAVED / f"{name}.setup.json").read_text())
    old_link = (SAVED / f"{name}.link.txt").read_text().strip()
    page = _page(setup)
    by_link = _state(_opened_at(old_link), page)
    target = link.link_from_setup(json.dumps(setup).encode(), "http://host:8501")
    assert urllib.parse.urlsplit(target).path == ("/game_trees" if page == "kuhn" else "/")
    by_setup = _state(_opened_at(target), page)
    assert by_link == by_setup and by_link["iteration"] == setup["iteration"]
    named = dict(setup["parameters"])
    if page == "kuhn":
        assert by_link["title"] == "CFR on game trees"
        assert [label for key, label in setup["parameters"] if key == "kuhn_variants"] or ["cfr · alternating"] == (
            by_link["variants"]
        )
        if "kuhn_seed" in named:
            assert by_link["seed"] == int(named["kuhn_seed"])
        wanted = {"tree_leduc": ("Leduc", 936), "tree_liars_dice": ("Liar's dice, 4 sides", 1024)}.get(name)
        if wanted:
            assert by_link["game"].startswith(wanted[0]) and by_link["size"] == wanted[1]
    else:
        assert by_link["game"] == "Matching pennies" and by_link["variants"][0].startswith("hedge(η=0.05)")
        assert "alternating" in by_link["variants"][0]


@pytest.mark.parametrize("bundle", BUNDLES, ids=lambda path: path.name)
def test_an_old_bundle_opens_its_setup_and_its_command_reproduces_its_numbers(bundle, tmp_path):
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(tmp_path)
    setup = json.loads((tmp_path / "setup.json").read_text())
    numbers = json.loads((tmp_path / "numbers.json").read_text())
    assert setup["format"] == "rmcore-setup/1" and setup["iteration"] == numbers["iteration"]
    target = link.link_from_setup(json.dumps(setup).encode(), "http://host:8501")
    state = _state(_opened_at(target), _page(setup))
    assert state["iteration"] == setup["iteration"]
    command = next(line.strip() for line in (tmp_path / "README.txt").read_text().splitlines() if "python -m" in line)
    arguments = command.split()[3:]  # after "python -m rmcore"
    out = subprocess.run(
        [sys.executable, "-m", "rmcore", *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    # The measure keeps its name, but for a fixed matrix opponent's (the learner's gain is player 1's by name now) and a
    # tree's: its exploitability is half the NashConv that every race measures now.
    measure = RENAMED_METRICS.get(numbers["measure"], numbers["measure"])
    halved = measure in HALVED_METRICS
    measure = HALVED_METRICS.get(measure, measure)
    assert result["measure"] == measure
    got = {row["variant"]: row[measure] / (2 if halved else 1) for row in result["variants"]}
    if setup["page"] == "kuhn":
        assert got == numbers["variants"]  # to the last digit
    else:
        # The matrix kernel adds its sums in another order since b500d43 (one kernel for every rule, no fastmath):
        # the same numbers to rounding, not to the last digit.
        assert got == pytest.approx(numbers["variants"], rel=1e-12, abs=0)
