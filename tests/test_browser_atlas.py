"""The atlas page in a real browser: Debian's chromium, driven by Playwright, against ``streamlit run`` on a port of
8600-8699. Three runs of the shipped atlas, picked at random, are drawn on the page exactly as the library computes
them: each curve's points (read from the Plotly figure in the page) against a fresh run of the same cell."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest

from rmcore.kernels.matrix import WIDE_ROWS
from rmcore.sweep import Cell, build_game, make_solver
from ui.atlas import data

from .browser import chromium_page, require_chromium, running_app, wait_until_idle

pytestmark = pytest.mark.browser

#: Runs whose cell took longer than this (in the shipped atlas's own timing) are not run again here.
MAX_CELL_SECONDS = 5.0

_TRACES_JS = """() => {
    const chart = document.querySelector('.js-plotly-plot');
    if (!chart || !chart.data) return null;
    return chart.data.map(t => ({meta: t.meta, x: Array.from(t.x), y: Array.from(t.y)}));
}"""


def _port() -> int:
    """A free port of 8600-8699 (the range this project's browser tests start Streamlit in)."""
    for port in random.sample(range(8600, 8700), 100):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8600-8699")


@pytest.fixture(scope="module")
def app_url():
    require_chromium()
    with running_app(port=_port()) as url:
        yield url


def library_curves(spec: dict) -> dict[str, list]:
    """The cell's nash_conv of the average and of the last iterate at each checkpoint, run afresh here with the
    public solvers (``history()`` at each checkpoint), and whether the game's rows are wide (``WIDE_ROWS`` columns or
    more: their sums reassociated in vector registers, so the last bits follow the machine's vector width)."""
    cell = Cell("fresh", "fresh", spec)
    game = build_game(cell)
    solver = make_solver(cell, game)
    average, last, done = [], [], 0
    wide = getattr(game, "shape", (0, 0))[-1] >= WIDE_ROWS
    for point in spec["checkpoints"]:
        solver.run(point - done)
        done = point
        metrics = solver.history().metrics
        average.append(float(metrics["nash_conv"][-1]))
        last.append(float(metrics["nash_conv_current"][-1]))
    return {"x": [float(p) for p in spec["checkpoints"]], "average": average, "last": last, "wide": wide}


def _on_chart(value: float):
    return value if value > 0 else None  # (a log axis shows no zero: the page leaves a gap)


def test_the_atlas_pages_curves_equal_the_librarys_for_three_runs_picked_at_random(app_url):
    frame, _ = data.shipped()
    runs = frame[(frame.status == "done") & (frame.wall_seconds <= MAX_CELL_SECONDS)].drop_duplicates("cell")
    seed = int(time.time())
    picked = runs.sample(3, random_state=seed)
    print(f"\nrandom_state={seed}: {', '.join(picked.name)}")
    with chromium_page(1400, 1600) as page:
        page.goto(f"{app_url}/atlas")
        page.locator(".js-plotly-plot").first.wait_for(timeout=90_000)
        wait_until_idle(page)
        for _, run in picked.iterrows():
            spec = json.loads(run.spec)

            def drawn(cell=run.cell):
                traces = page.evaluate(_TRACES_JS) or []
                return [t for t in traces if (t.get("meta") or {}).get("cell") == cell]

            # A choice sent while a script run is still going can be lost: choose again until the chart shows it.
            for _ in range(4):
                if drawn():
                    break
                wait_until_idle(page)
                page.get_by_role("combobox", name="Game").click()
                page.get_by_role("option", name=run.game_title, exact=True).click()
                deadline = time.time() + 30
                while time.time() < deadline and not drawn():
                    time.sleep(0.2)
            traces = {t["meta"]["iterate"]: t for t in drawn()}
            assert set(traces) == {"average", "last"}, f"{run['name']} is drawn, average and last iterate"
            expected = library_curves(spec)
            for iterate in ("average", "last"):
                assert traces[iterate]["x"] == expected["x"], run["name"]
                on_chart = [_on_chart(v) for v in expected[iterate]]
                if expected["wide"]:
                    # The page draws the shipped file's numbers to the last bit. The shipped atlas ran on another
                    # machine: a wide game's row sums take their last bits from its vector width at every iteration,
                    # and a run carries them on (1.8e-12 relative at swap-rm's 24th checkpoint on 100 x 100), so the
                    # library's run here agrees to 1e-9.
                    column = "nash_conv" if iterate == "average" else "nash_conv_current"
                    shipped = frame[frame.cell == run.cell].sort_values("iteration")
                    assert traces[iterate]["y"] == [_on_chart(float(v)) for v in shipped[column]], run["name"]
                    assert [y is None for y in traces[iterate]["y"]] == [v is None for v in on_chart], run["name"]
                    assert traces[iterate]["y"] == [
                        None if v is None else pytest.approx(v, rel=1e-9, abs=0) for v in on_chart
                    ], (run["name"], iterate)
                else:
                    assert traces[iterate]["y"] == on_chart, (run["name"], iterate)
        assert page.locator("[data-testid=stException]").count() == 0
