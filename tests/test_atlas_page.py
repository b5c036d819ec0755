"""The atlas page (AppTest): it opens on the shipped atlas, loads a sweep folder of the user's own and refuses a bad one
with a sentence, and each run's link opens the matrix or the tree page with that very run set up."""

from __future__ import annotations

import io
import json
import os
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

from rmcore.sweep import parse_grid, read_results, result_files, run_sweep
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
    out = tmp_path_factory.mktemp("offered") / "poker"
    report = run_sweep(GRID, out, workers=0)
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


def _texts(app) -> str:
    return " ".join(str(e.value) for kind in (app.error, app.warning, app.info, app.caption) for e in kind)


def test_the_page_loads_a_folder_the_server_offers_and_refuses_a_bad_one_keeping_what_was_loaded(
    folder, tmp_path, monkeypatch
):
    root = tmp_path / "sweeps"
    (root / "empty").mkdir(parents=True)
    (root / "broken").mkdir()
    (root / "broken" / "broken.parquet").write_bytes(b"not parquet")
    (root / "poker").mkdir()
    for path in result_files(folder):
        (root / "poker" / path.name).write_bytes(path.read_bytes())
    (root / "poker" / "notes.parquet").write_bytes(b"PAR1 of another program")
    monkeypatch.setenv(data.FOLDERS_VARIABLE, str(root))
    app = opened(url_path="atlas")
    app.radio(key="atlas_source").set_value("folder").run()
    assert app.info and not app.get("plotly_chart")
    assert app.selectbox(key="atlas_folder").options == ["sweeps/broken", "sweeps/poker"]  # (no results: not offered)
    app.selectbox(key="atlas_folder").set_value("sweeps/poker").run()
    app.button(key="atlas_load_folder").click().run()
    assert not app.error and not app.exception
    assert "Loaded without 1 file: notes.parquet is not a sweep result file" in app.warning[0].value
    assert app.selectbox(key="atlas_game").options == [
        "Kuhn poker",
        "Kuhn poker, 4 cards, bet 1.5",
        "Liar's dice, 3 sides",
        "Matching pennies",
        "Weighted RPS (1, 1, 2)",
    ]
    app.selectbox(key="atlas_folder").set_value("sweeps/broken").run()
    app.button(key="atlas_load_folder").click().run()
    assert "Not loaded:" in app.error[0].value and "broken.parquet is not a sweep result file" in app.error[0].value
    assert app.selectbox(key="atlas_folder").value == "sweeps/broken"  # what was chosen stays
    assert app.get("plotly_chart"), "the folder loaded before is still shown"
    assert str(tmp_path) not in _texts(app), "no path of the server's is shown"
    app.selectbox(key="atlas_game").set_value("matching-pennies").run()
    ranking = app.dataframe[0].value
    assert len(ranking) == 2 and ranking["open"].str.startswith("/?preset=Matching+pennies").all()


def test_a_server_that_offers_no_folder_says_how_to_offer_one(monkeypatch):
    monkeypatch.setenv(data.FOLDERS_VARIABLE, "")
    app = opened(url_path="atlas")
    app.radio(key="atlas_source").set_value("folder").run()
    assert not app.exception and "atlas_folder" not in [box.key for box in app.selectbox]
    assert "RM_ATLAS_FOLDERS" in app.info[0].value and "offers no results folder" in app.info[0].value


def test_a_folder_is_read_only_by_the_name_it_is_offered_under(folder, monkeypatch):
    monkeypatch.delenv(data.FOLDERS_VARIABLE, raising=False)
    assert data.allowed_folders() == (data.CHECKOUT / "atlas-results",)
    monkeypatch.setenv(data.FOLDERS_VARIABLE, f"{folder.parent}{os.pathsep}{folder.parent / 'missing'}")
    name = f"{folder.parent.name}/poker"
    assert list(data.offered()) == [name]
    assert data.folder(name).cell.nunique() == 10
    home = str(Path.home())
    for typed in ("~", "~/", str(folder), f"{folder.parent.name}/../{folder.parent.name}/poker", "/etc", "", "poker"):
        with pytest.raises(ValueError) as refused:
            data.folder(typed)
        message = str(refused.value)
        assert "is not one of the results folders this server offers" in message or "choose one" in message
        assert home not in message or home in typed, "~ is never expanded"
        assert str(folder) not in message or str(folder) in typed, "no server path but what was typed"


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


def test_a_zips_member_that_is_not_parquet_is_left_out_unread_and_named(folder):
    files = {f"results/{path.name}": path.read_bytes() for path in result_files(folder)}
    frame = data.unzipped(_zip({**files, "results/fake.parquet": b"hello, not Parquet"}), "mine.zip")
    assert frame.cell.nunique() == 10
    assert frame.attrs["skipped"] == ("fake.parquet is not a sweep result file (not a Parquet file)",)
    with pytest.raises(ValueError, match=r"holds 4 result files; at most 3 are read"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(data, "MAX_RESULT_FILES", 3)
            data.unzipped(_zip(dict(list(files.items())[:4])))
    with pytest.raises(ValueError, match="lists more files than a sweep folder holds"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(data, "CENTRAL_DIRECTORY_MEGABYTES", 0.0001)
            data.unzipped(_zip(files))


def _bomb(megabytes: int, members: int = 1) -> bytes:
    """A zip of ``members`` members named as result files, each a Parquet file's first bytes then ``megabytes`` MB
    of zeros, at its true size (deflate packs a MB of zeros into about a kB)."""
    buffer, zeros = io.BytesIO(), bytes(2**20)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for k in range(members):
            with archive.open(f"results/bomb{k}.parquet", "w", force_zip64=True) as member:
                member.write(data.PARQUET_MAGIC)
                for _ in range(megabytes):
                    member.write(zeros)
    return buffer.getvalue()


def _refused_within(bomb: bytes, megabytes: int) -> str:
    """The message ``data.unzipped`` refuses ``bomb`` with, checking that it held less than ``megabytes`` MB of memory
    on the way (Python's allocations, where zipfile's and zlib's buffers are)."""
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as refused:
            data.unzipped(bomb, "bomb.zip")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < megabytes * 2**20 + len(bomb), f"{peak / 2**20:.0f} MB held while unpacking"
    return str(refused.value)


def test_a_zip_bomb_is_refused_as_it_unpacks_in_bounded_memory():
    bomb = _bomb(300)
    assert len(bomb) < 2**20, "300 MB packed into less than a megabyte"
    message = _refused_within(bomb, 32)
    assert message == "bomb0.parquet in bomb.zip unpacks to more than 100 MB: not a result file"


def test_members_under_the_cap_each_are_refused_past_the_cap_in_all(monkeypatch):
    monkeypatch.setattr(data, "UNZIPPED_MEGABYTES", 100)
    monkeypatch.setattr(data, "MEMBER_MEGABYTES", 60)
    assert _refused_within(_bomb(50, members=3), 32) == "bomb.zip unpacks to more than 100 MB"


def test_the_ranking_shows_a_dash_where_a_run_never_reached_the_target(folder, monkeypatch):
    import pyarrow as pa

    monkeypatch.setenv(data.FOLDERS_VARIABLE, str(folder.parent))
    app = opened(url_path="atlas")
    app.radio(key="atlas_source").set_value("folder").run()
    app.button(key="atlas_load_folder").click().run()
    app.select_slider(key="atlas_target").set_value(1e-6).run()
    table = app.dataframe[0]
    # (st.dataframe draws a missing number as "None" whatever the Styler says: a run that never got there is infinite)
    assert not table.value.isna().any().any()
    missing = ~np.isfinite(table.value["iterations"].to_numpy())
    assert missing.any(), "a run that never got there"
    shown = pa.ipc.open_stream(table.proto.arrow_data.styler.display_values).read_all().to_pandas()
    for column in ("rank by iterations", "rank by seconds", "iterations", "seconds"):
        texts = shown[column].tolist()
        assert "None" not in texts and "nan" not in texts
        assert all(text == "–" for text in shown[column][missing])
    assert all(text.isdigit() for text in shown["iterations"][~missing])
    assert "–: not within its iterations" in " ".join(c.value for c in app.caption)


def test_the_figure_draws_each_run_as_the_results_say(folder):
    frame = read_results(folder)
    kuhn = frame[frame.game == "kuhn"]
    figure = figures.curves(kuhn, "nash_conv", "iteration", "Kuhn poker")
    for trace in figure["data"]:
        run = kuhn[kuhn.cell == trace["meta"]["cell"]]
        column = "nash_conv" if trace["meta"]["iterate"] == "average" else "nash_conv_current"
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
    # The page's run is the cell's run: the same nash_conv at the last checkpoint, average and last iterate.
    metrics = solver.metrics()
    last = run.iloc[-1]
    assert metrics.nash_conv == pytest.approx(last.nash_conv, rel=1e-9, abs=1e-15)
    assert metrics.nash_conv_current == pytest.approx(last.nash_conv_current, rel=1e-9, abs=1e-15)


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


#: A general-sum game beside a zero-sum one.
GENERAL = {
    "iterations": 200,
    "checkpoints_per_decade": 4,
    "games": [{"game": "shapley"}, {"game": "rps-crash"}],
    "algorithms": [{"matrix": "rm"}, {"matrix": "swap-rm"}],
}


def test_a_general_sum_game_offers_its_ce_and_cce_gaps_and_a_zero_sum_game_says_why_it_has_none(tmp_path, monkeypatch):
    from ui import explain_atlas

    out = tmp_path / "sweeps" / "general"
    assert not run_sweep(GENERAL, out, workers=0).failed
    monkeypatch.setenv(data.FOLDERS_VARIABLE, str(out.parent))
    app = opened(url_path="atlas")
    app.radio(key="atlas_source").set_value("folder").run()
    app.button(key="atlas_load_folder").click().run()
    app.selectbox(key="atlas_game").set_value("shapley").run()
    measure = app.radio(key="atlas_measure")
    assert list(measure.options) == ["NashConv", "CE gap", "CCE gap"]
    frame = read_results(out)
    shapley = frame[frame.game == "shapley"]
    for column in ("ce_gap", "cce_gap"):
        app.radio(key="atlas_measure").set_value(column).run()
        assert not app.exception
        shown = json.loads(app.get("plotly_chart")[0].proto.spec)
        assert len(shown["data"]) == 2, "one line a run: the joint distribution of play"
        for trace in shown["data"]:
            run = shapley[shapley.cell == trace["meta"]["cell"]]
            assert trace["y"] == [v if v > 0 else None for v in run[column]]
        ranking = app.dataframe[0].value
        name = data.MEASURES[column]
        finals = {r: float(shapley[shapley.name == r][column].iloc[-1]) for r in ranking.run}
        assert ranking[f"final {name}"].tolist() == [finals[r] for r in ranking.run]
        assert "atlas_iterate" not in [radio.key for radio in app.radio]  # (the distribution has no last iterate)
        assert "of the joint distribution of play" in " ".join(c.value for c in app.caption)
    app.selectbox(key="atlas_game").set_value("rps-crash").run()
    assert not app.exception and "atlas_measure" not in [radio.key for radio in app.radio]
    assert explain_atlas.NO_GAPS in [c.value for c in app.caption]
    shown = json.loads(app.get("plotly_chart")[0].proto.spec)
    assert {trace["meta"]["iterate"] for trace in shown["data"]} == {"average", "last"}
