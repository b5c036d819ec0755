"""The atlas page (AppTest): it opens on the shipped atlas, loads a sweep folder of the user's own and refuses a bad one
with a sentence, and each run's link opens the matrix or the tree page with that very run set up."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

import rmcore
from rmcore.sweep import parse_grid, read_results, result_files, sweep
from tests.visits import opened, run_to_reached
from ui.atlas import data, figures, links

#: A run of each kind a link carries: the classic Kuhn, Kuhn on sliders, another catalogue game with parameters, a
#: discounted CFR with parameters on the page's sliders, a sampled tree variant with its seed, matrix rules with a
#: step, a parametric preset, sampled regrets with a seed, and a uniform start.
GRID = {
    "iterations": 60,
    "checkpoints_per_decade": 4,
    "seeds": [3],
    "games": [
        {"game": "kuhn"},
        {"game": "kuhn", "cards": 4, "bet": 1.5},
        {"game": "liars_dice", "sides": 3},
        {"game": "matching-pennies"},
        {"game": "weighted-rps", "rock_scissors": 2.0, "start": "uniform"},
    ],
    "algorithms": [
        {"tree": "discounted", "alpha": 1.0, "beta": 0.5, "gamma": 3.0},
        {"tree": "chance-sampling"},
        {"matrix": "hedge", "eta": 0.05},
        {"matrix": "rm+", "sampling": "sampled", "averaging": "linear"},
    ],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    report = sweep(GRID, out, workers=0)
    assert report.ran == 10 and not report.failed
    return out


def test_the_page_opens_on_the_shipped_atlas_and_draws_every_run_of_a_game():
    app = opened(url_path="atlas")
    assert not app.error, [e.value for e in app.error]
    frame, about = data.shipped()
    game = app.selectbox(key="atlas_game").value
    shown = json.loads(app.get("plotly_chart")[0].proto.spec)
    runs = frame[(frame.game == game) & (frame.status == "done")]
    assert {trace["meta"]["cell"] for trace in shown["data"]} == set(runs.cell)
    assert len(shown["data"]) == 2 * runs.cell.nunique()  # the average and the last iterate of each
    assert about["command"].startswith("python -m rmcore atlas")
    ranking = app.dataframe[0].value
    assert len(ranking) == runs.cell.nunique() and ranking["open"].str.contains("run_to=").all()
    app.radio(key="atlas_x").set_value("seconds").run()
    shown = json.loads(app.get("plotly_chart")[0].proto.spec)
    first = runs[runs.cell == shown["data"][0]["meta"]["cell"]]
    assert shown["data"][0]["x"] == first.seconds.tolist()
    app.radio(key="atlas_iterate").set_value("last").run()
    app.select_slider(key="atlas_target").set_value(1e-6).run()
    ranking = app.dataframe[0].value
    expected = data.ranking(runs, 1e-6, "last")
    assert ranking["run"].tolist() == expected["run"].tolist()
    assert not app.exception


def test_the_page_loads_a_sweep_folder_and_refuses_a_bad_one_keeping_what_was_loaded(folder, tmp_path):
    app = opened(url_path="atlas")
    app.radio(key="atlas_source").set_value("folder").run()
    assert app.info and not app.get("plotly_chart")
    app.text_input(key="atlas_folder").input(str(tmp_path)).run()
    app.button(key="atlas_load_folder").click().run()
    assert "Not loaded:" in app.error[0].value and "holds no sweep result files" in app.error[0].value
    app.text_input(key="atlas_folder").input(str(folder)).run()
    app.button(key="atlas_load_folder").click().run()
    assert not app.error and not app.exception
    assert app.selectbox(key="atlas_game").options == [
        "Kuhn poker",
        "Kuhn poker, 4 cards, bet 1.5",
        "Liar's dice, 3 sides",
        "Matching pennies",
        "Weighted RPS (1, 1, 2)",
    ]
    (tmp_path / "broken.parquet").write_bytes(b"not parquet")
    app.text_input(key="atlas_folder").input(str(tmp_path)).run()
    app.button(key="atlas_load_folder").click().run()
    assert "broken.parquet is not a sweep result file" in app.error[0].value
    assert app.text_input(key="atlas_folder").value == str(tmp_path)  # what was typed stays
    assert app.get("plotly_chart"), "the folder loaded before is still shown"
    app.selectbox(key="atlas_game").set_value("matching-pennies").run()
    ranking = app.dataframe[0].value
    assert len(ranking) == 2 and ranking["open"].str.startswith("/?preset=Matching+pennies").all()


def _zip(files: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_zip_of_a_sweep_folder_is_read_and_a_bad_one_refused(folder):
    files = {f"results/{path.name}": path.read_bytes() for path in result_files(folder)}
    frame = data.unzipped(_zip({**files, "results/grid.toml": b"iterations = 60"}))
    assert frame.cell.nunique() == 10 and set(frame.cell) == set(read_results(folder).cell)
    with pytest.raises(ValueError, match="not a zip file"):
        data.unzipped(b"PK but not really")
    with pytest.raises(ValueError, match="holds no sweep result files"):
        data.unzipped(_zip({"notes.txt": b"hello"}))
    with pytest.raises(ValueError, match="evil.parquet is not a sweep result file"):
        data.unzipped(_zip({"../../evil.parquet": b"x"}))
    with pytest.raises(ValueError, match="two result files of the same name"):
        name = next(iter(files))
        data.unzipped(_zip({name: files[name], "other/" + name.split("/")[1]: files[name]}))


def test_the_figure_draws_each_run_as_the_results_say(folder):
    frame = read_results(folder)
    kuhn = frame[frame.game == "kuhn"]
    figure = figures.curves(kuhn, "exploitability", "iteration", "Kuhn poker")
    for trace in figure["data"]:
        run = kuhn[kuhn.cell == trace["meta"]["cell"]]
        column = "exploitability" if trace["meta"]["iterate"] == "average" else "exploitability_current"
        assert trace["x"] == run.iteration.tolist()
        assert trace["y"] == [v if v > 0 else None for v in run[column]]
        assert trace["line"].get("dash") == (None if trace["meta"]["iterate"] == "average" else "dash")


def _cells():
    return [cell for cell in parse_grid(GRID).cells]


@pytest.mark.parametrize("cell", _cells(), ids=lambda cell: cell.name)
def test_each_runs_link_opens_its_page_with_that_run_set_up(folder, cell):
    found = links.link(cell.spec)
    assert found.path is not None, found.reason
    params: dict = {}
    for key, value in found.pairs:
        params.setdefault(key, []).append(value)
    page = "kuhn" if cell.family == "tree" else "matrix"
    app = run_to_reached(opened(params, url_path=found.path or None), page)
    assert not app.warning, [w.value for w in app.warning]
    solver = app.session_state[f"{page}_live"].primary
    assert solver.iteration == cell.spec["iterations"]
    run = read_results(folder, ids=[cell.id])
    assert solver.variant.label == run.label.iloc[0]
    game = solver.game
    assert game.name == run.game_title.iloc[0]
    # The page's run is the cell's run: the same exploitability at the last checkpoint, average and last iterate.
    metrics = solver.metrics()
    last = run.iloc[-1]
    assert metrics.exploitability == pytest.approx(last.exploitability, rel=1e-9, abs=1e-15)
    if cell.family == "tree":
        current = rmcore.nash_conv(game, solver.current_policy()) / 2
    else:
        current = metrics.nash_conv_current / 2
    assert current == pytest.approx(last.exploitability_current, rel=1e-9, abs=1e-15)


def test_a_run_no_page_can_set_up_says_why():
    spec = (
        parse_grid({"iterations": 10, "games": [{"game": "rps"}], "algorithms": [{"matrix": "hedge", "eta": 0.07}]})
        .cells[0]
        .spec
    )
    found = links.link(spec)
    assert found.path is None and "not 0.07" in found.reason
    spec = (
        parse_grid(
            {"iterations": 10, "games": [{"game": "kuhn"}], "algorithms": [{"tree": "discounted", "alpha": 1.1}]}
        )
        .cells[0]
        .spec
    )
    assert "steps of 0.25, not to 1.1" in links.link(spec).reason
