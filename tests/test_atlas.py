"""The atlas (rmcore.atlas): its grid reads every algorithm from the catalogues, and its tables and page say what the
results say, the best of each column marked."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import rmcore
from rmcore import atlas
from rmcore.sweep import game_label, parse_grid, read_results, run_sweep

SMALL = {
    "iterations": 100,
    "checkpoints_per_decade": 4,
    "seeds": [0, 1, 2],
    "games": [{"game": "kuhn"}, {"game": "rps-crash"}],
    "algorithms": [
        {"tree": "cfr+"},
        {"tree": "pcfr+"},
        {"tree": "external-sampling"},
        {"matrix": "rm"},
        {"matrix": "prm+"},
    ],
}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("atlas")
    report = run_sweep(SMALL, folder, workers=0)
    assert report.ran == 7 and not report.failed
    return read_results(folder, ids=[cell.id for cell in parse_grid(SMALL).cells]), report


def test_the_atlas_runs_every_algorithm_of_the_catalogues_on_the_games_it_names():
    grid = atlas.atlas_grid()
    tree_games = {game_label(c.spec["game"]) for c in grid.cells if c.family == "tree"}
    assert tree_games == {
        "kuhn",
        "leduc",
        "liars_dice",
        "liars_dice(sides=4)",
        "liars_dice(sides=6)",
        "goofspiel",
        "goofspiel(cards=5)",
    }  # (Liar's dice's default is 3 sides, Goofspiel's 4 cards)
    matrix = [c for c in grid.cells if c.family == "matrix"]
    presets = {c.spec["game"]["name"] for c in matrix}
    assert len(presets) >= 6 and {"rps", "rps-crash", "matching-pennies"} <= presets
    big = [c for c in matrix if c.spec["game"]["parameters"].get("rows") == 100]
    assert big and big[0].spec["game"]["parameters"]["cols"] == 100
    general = {name for name in presets if not rmcore.preset(name).is_zero_sum}
    assert general == {"shapley", "aumann-chicken", "battle-of-sexes"}  # the correlated lessons' games
    for game in tree_games:
        names = {c.spec["algorithm"]["tree"] for c in grid.cells if game_label(c.spec["game"]) == game}
        assert names == set(rmcore.CFR_ALGORITHMS)
    for name in presets:
        assert {c.spec["algorithm"]["matrix"] for c in matrix if c.spec["game"]["name"] == name} == set(
            rmcore.ALGORITHMS
        )
    spec = grid.cells[0].spec
    assert spec["iterations"] == 10_000 and set(atlas.TABLE_ITERATIONS) <= set(spec["checkpoints"])
    quick = atlas.atlas_grid(quick=True)
    assert {c.spec["iterations"] for c in quick.cells} == {1_000} and {c.spec["seed"] for c in quick.cells} <= {0, None}


def test_a_variant_added_to_a_catalogue_joins_the_atlas(monkeypatch):
    monkeypatch.setitem(rmcore.CFR_ALGORITHMS, "dcfr+", "A variant the catalogue gains later.")
    monkeypatch.setitem(rmcore.ALGORITHMS, "sprm+", "A rule the catalogue gains later.")
    grid = atlas.atlas_grid(quick=True)
    assert sum(c.spec["algorithm"].get("tree") == "dcfr+" for c in grid.cells) == 7
    assert sum(c.spec["algorithm"].get("matrix") == "sprm+" for c in grid.cells) == 10  # (seven zero-sum, three not)


def test_the_tables_hold_the_results_at_the_tables_iterations_and_the_median_over_seeds(small):
    frame, _ = small
    tables = atlas.tables(frame)
    assert list(tables) == ["kuhn", "rps-crash"]
    kuhn = tables["kuhn"].set_index("algorithm")
    assert list(kuhn.index) == ["cfr+ · alternating", "pcfr+ · alternating", "external-sampling · alternating"]
    cfr_plus = frame[frame.label == "cfr+ · alternating"].set_index("iteration")
    assert kuhn.loc["cfr+ · alternating", "average 100"] == cfr_plus.nash_conv[100]
    assert kuhn.loc["cfr+ · alternating", "last 10"] == cfr_plus.nash_conv_current[10]
    sampled = frame[(frame.label == "external-sampling · alternating") & (frame.iteration == 100)]
    assert len(sampled) == 3 and kuhn.loc["external-sampling · alternating", "seeds"] == 3
    assert kuhn.loc["external-sampling · alternating", "average 100"] == np.median(sampled.nash_conv)
    assert "average 1000" not in kuhn.columns  # the runs stopped at 100
    rps = tables["rps-crash"].set_index("algorithm")
    prm = frame[frame.label.str.startswith("prm+")].set_index("iteration")
    assert rps.iloc[1]["average 10"] == prm.nash_conv[10]


def test_the_page_marks_the_best_of_each_column_and_names_its_figures(small):
    frame, report = small
    about = atlas.about_run(frame, "python -m rmcore atlas --quick", report, "1 process")
    page = atlas.markdown(frame, about)
    assert page.count("### ") == 2 and "![Kuhn poker: NashConv against iterations](atlas/kuhn.svg)" in page
    assert "(atlas/rps_crash.svg)" in page and "python -m rmcore atlas --quick" in page
    kuhn = atlas.tables(frame)["kuhn"]
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    header = rows[0].strip("| ").split(" | ")
    body = [row.strip("| ").split(" | ") for row in rows[1:4]]
    for k, column in enumerate(header[1:], start=1):
        values = kuhn[column if column != "time per iteration" else "seconds per iteration"]
        for row, value in zip(body, values):
            bold = row[k].startswith("**")
            assert bold == (value == values.min()), (column, row[k])
    assert body[2][0] == "external-sampling · alternating (median of 3 seeds)"
    number = re.sub(r"\*", "", body[0][header.index("average 100")])
    assert math.isclose(float(number), kuhn["average 100"][0], rel_tol=5e-3)


def test_the_data_file_holds_the_results_exactly_and_the_runs_description(small, tmp_path):
    frame, report = small
    about = atlas.about_run(frame, "python -m rmcore atlas", report, "1 process")
    path = atlas.write_data(frame, about, tmp_path / "atlas.parquet")
    import json

    import pyarrow.parquet as pq

    table = pq.read_table(path)
    assert json.loads(table.schema.metadata[atlas.DATA_KEY])["cells"] == 7
    back = table.to_pandas()
    for column in ("nash_conv", "nash_conv_current", "seconds"):
        assert np.array_equal(back[column].to_numpy(), frame[column].to_numpy(), equal_nan=True)


def test_the_atlas_command_writes_the_page_and_its_data(tmp_path, monkeypatch, capsys):
    from rmcore.__main__ import main

    small = parse_grid({**SMALL, "seeds": [0]})
    monkeypatch.setattr(atlas, "atlas_grid", lambda quick=False: small)
    out, docs = tmp_path / "results", tmp_path / "docs"
    assert main(["atlas", "--workers", "0", "--out", str(out), "--docs", str(docs)]) == 0
    assert "draw its figures with: python -m ui.atlas.report" in capsys.readouterr().err
    page = (docs / "atlas.md").read_text()
    assert "Generated by `python -m rmcore atlas` on" in page and "the command ran 5 of them in" in page
    assert "on one process, without Dask" in page
    frame = read_results(out, ids=[cell.id for cell in small.cells])
    assert page == atlas.markdown(frame, {**_about(docs), "date": _about(docs)["date"]})


def _about(docs):
    import json

    import pyarrow.parquet as pq

    return json.loads(pq.read_schema(docs / "atlas.parquet").metadata[atlas.DATA_KEY])


def test_every_figure_the_shipped_atlas_shows_is_there():
    page = (atlas.ATLAS_GRID.parents[1] / "docs" / "performance" / "atlas.md").read_text()
    figures = re.findall(r"\]\((atlas/[^)]+\.svg)\)", page)
    assert figures, "the atlas page shows its figures"
    for figure in figures:
        assert (atlas.ATLAS_GRID.parents[1] / "docs" / "performance" / figure).is_file(), (
            f"{figure} is missing: python -m ui.atlas.report draws it"
        )


def test_the_atlas_and_the_page_show_the_same_number_for_the_same_run(tmp_path):
    """RM+ on RPS-crash: the atlas's final value is what the solver the page runs reports, the NashConv itself."""
    grid = {"iterations": 1_000, "checkpoints": [10, 1_000], "games": [{"game": "rps-crash"}]}
    grid["algorithms"] = [{"matrix": "rm+"}]
    run_sweep(grid, tmp_path, workers=0)
    frame = read_results(tmp_path)
    table = atlas.tables(frame)["rps-crash"]
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"), "rm+")
    solver.run(1_000)
    metrics = solver.metrics()
    assert table["average 1000"].iloc[0] == metrics.nash_conv == metrics.gap
    assert table["last 1000"].iloc[0] == metrics.nash_conv_current


#: A general-sum game beside a zero-sum one, with the rules that reach the coarse (rm) and the correlated equilibria
#: (swap-rm, and internal-rm, which samples).
GENERAL = {
    "iterations": 300,
    "checkpoints": [10, 100, 300],
    "seeds": [0],
    "games": [{"game": "shapley"}, {"game": "rps-crash"}],
    "algorithms": [{"matrix": "rm"}, {"matrix": "swap-rm"}, {"matrix": "internal-rm"}],
}


@pytest.fixture(scope="module")
def general(tmp_path_factory):
    folder = tmp_path_factory.mktemp("general")
    grid = parse_grid(GENERAL)
    report = run_sweep(grid, folder, workers=0)
    assert report.ran == 6 and not report.failed
    return read_results(folder, ids=[cell.id for cell in grid.cells]), grid


def test_a_general_sum_games_table_holds_the_ce_and_cce_gaps_of_the_runs_joint_distribution(general):
    from rmcore.sweep import build_game, make_solver

    frame, grid = general
    tables = atlas.tables(frame)
    shapley = tables["shapley"].set_index("algorithm")
    assert {"CE gap 10", "CE gap 100", "CCE gap 10", "CCE gap 100"} <= set(shapley.columns)
    for cell in (c for c in grid.cells if c.spec["game"]["name"] == "shapley"):
        game = build_game(cell)
        solver = make_solver(cell, game)
        solver.run(100)
        joint = solver.joint_distribution()
        label = solver.variant.label
        assert math.isclose(shapley.loc[label, "CE gap 100"], rmcore.ce_gap(game, joint), rel_tol=1e-12), label
        assert math.isclose(shapley.loc[label, "CCE gap 100"], rmcore.cce_gap(game, joint), rel_tol=1e-12), label
        assert shapley.loc[label, "CE gap 100"] > 0  # (the joint play of 100 iterations is no equilibrium yet)
    # a zero-sum game's table has no gap columns, although swap-rm and internal-rm keep the joint distribution there
    assert not [c for c in tables["rps-crash"].columns if "gap" in c]
    assert frame[(frame.game == "rps-crash") & (frame.algorithm == "swap-rm")].ce_gap.notna().all()
    assert atlas.has_gaps(frame[frame.game == "shapley"]) and not atlas.has_gaps(frame[frame.game == "rps-crash"])


def test_the_page_gives_a_general_sum_game_a_table_and_figures_of_its_gaps(general):
    frame, _ = general
    about = {
        "command": "python -m rmcore atlas",
        "date": "2026-01-01 00:00 UTC",
        "cells": 6,
        "iterations": 300,
        "seeds": 1,
        "machine": {"processor": "a CPU", "cores": 2},
        "versions": {"rmcore": "0", "numba": "0", "python": "3"},
        "solver_seconds": 1.0,
        "wall_seconds": 1.0,
        "ran": 6,
        "run_seconds": 1.0,
        "workers": "one process, without Dask",
    }
    page = atlas.markdown(frame, about)
    shapley = page[page.index("### Shapley") : page.index("### RPS with crash")]
    assert "(atlas/shapley_ce_gap.svg)" in shapley and "(atlas/shapley_cce_gap.svg)" in shapley
    header = next(line for line in shapley.splitlines() if line.startswith("| algorithm | CE gap"))
    assert header.split(" | ")[1:] == ["CE gap 10", "CE gap 100", "CCE gap 10", "CCE gap 100 |"]
    table = atlas.tables(frame)["shapley"]
    rows = [line for line in shapley.splitlines() if line.startswith("| ")]
    ce = rows[rows.index(header) + 1 + int(table["CE gap 100"].argmin())]
    assert ce.split(" | ")[2].startswith("**"), "the lowest CE gap is in bold"
    rps = page[page.index("### RPS with crash") :]
    assert "CE gap" not in rps and "_ce_gap.svg" not in rps
    assert "NashConv already says how far the play is" in page


def test_files_that_kept_another_cce_gap_read_with_no_gaps():
    """A file of schema 1 held a general-sum game's ``cce_gap`` as the larger player's average external regret: it is
    not read as the gap of the joint distribution."""
    from pathlib import Path

    old = read_results(Path(__file__).parent / "saved" / "a6231df" / "sweep")
    dilemma = old[old.game == "prisoners-dilemma"]
    assert len(dilemma) and dilemma.ce_gap.isna().all() and dilemma.cce_gap.isna().all()
    assert not atlas.has_gaps(dilemma)
