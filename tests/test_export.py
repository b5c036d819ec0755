"""Export: the history CSV, the setup file and the bundle whose command reproduces the numbers to the last digit."""

import io
import json
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import rmcore
from ui import export
from ui.live import LiveRun

ROOT = Path(__file__).resolve().parents[1]


def _run_in(folder, *arguments) -> subprocess.CompletedProcess:
    """Python run in an unpacked bundle's folder as a reader would, with this checkout's rmcore on its path."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def _live(game, variants, steps=(7, 300, 2_000), **race):
    run = LiveRun(rmcore.Race(game, variants, **race))
    for n in steps:  # the page's chunks: any split gives the same numbers
        run.step(n)
    return run, run.frame()


def test_the_history_csv_has_every_run_with_its_variant_and_seed():
    run, frame = _live(rmcore.preset("rps-crash"), ["rm", "rm+/sampled"], seeds=3, seed=4)
    table = export.history_frame(run, frame)
    assert list(table.columns[:4]) == ["variant", "seed", "iteration", "nash_conv"]
    assert "row_average[Rock]" in table.columns and "col_current[Scissors]" in table.columns
    assert set(table["seed"]) == {"", 4, 5, 6} and table["iteration"].max() == run.iteration
    assert table.groupby(["variant", "seed"]).size().shape[0] == 1 + 3


@pytest.mark.slow
@pytest.mark.parametrize(
    "game,variants,race",
    [
        (rmcore.preset("battle-of-sexes"), ["prm+/alternating/linear", "rm/sampled"], dict(seeds=2, seed=3)),
        (rmcore.preset("rps"), ["rm+"], dict(opponent={"col": (30 / 110, 50 / 110, 30 / 110)})),
        # the page's sliders at 7, 28, 7: normalised once by the page and again by the solver, whose last bit the
        # raw weights 7, 28, 7 do not give (0.0696249807249601 against 0.06962498072496007 after 1,000 iterations)
        (rmcore.preset("rps"), ["rm", "rm+/sampled"], dict(opponent={"col": (7 / 42, 28 / 42, 7 / 42)}, seeds=2)),
        (rmcore.preset("rps"), ["rm", "prm+/alternating"], dict(start=((60.0, 30.0, 10.0), (0.2, 0.2, 0.6)))),
        (rmcore.preset("rps-crash"), ["hedge/eta=0.05", "optimistic-gda/eta=0.2"], dict(start=((6, 2, 2), (2, 2, 6)))),
        # a game of three players: its .nfg in the bundle, a start of three strategies, a sampled rule's seeds
        (
            rmcore.preset("matching-pennies-3p"),
            ["rm", "hedge/sampled"],
            dict(start=((0.9, 0.1), (0.6, 0.4), (0.2, 0.8)), seeds=2, seed=7),
        ),
        (rmcore.KUHN, ["cfr+", "chance-sampling/simultaneous"], dict(seeds=2, seed=1)),
        # discounted CFR with the page's sliders moved: both update orders, one set of parameters (--alpha ...)
        (
            rmcore.KUHN,
            [rmcore.CFRVariant("discounted", updates, (0.75, -2.5, 3.25)) for updates in rmcore.CFR_UPDATES],
            {},
        ),
        # MMD with the page's temperature slider moved (--mmd-alpha), beside CFR+
        (rmcore.KUHN, [rmcore.CFRVariant("mmd", mmd=(0.2, None)), "cfr+"], {}),
        # PDCFR+ and DCFR+ with their sliders moved (their parameters travel in their own parts), beside discounted CFR
        (
            rmcore.KUHN,
            [
                rmcore.CFRVariant("pdcfr+", "alternating", (1.7, 3.5)),
                rmcore.CFRVariant("dcfr+", "simultaneous", (2.0, 4.0)),
                rmcore.CFRVariant("dcfr+"),
                rmcore.CFRVariant("discounted", "alternating", (1.0, 0.5, 2.0)),
            ],
            {},
        ),
        # the smoothed regret matchers on Cai et al.'s game, with a step of their own
        (rmcore.preset("cai-3x3"), ["sprm+/eta=0.2", "exrm+/linear", "prm+"], {}),
        (
            rmcore.kuhn_poker(4, 1.5),
            ["linear"],
            dict(
                opponent=rmcore.fixed_strategy(
                    rmcore.kuhn_poker(4, 1.5),
                    1,
                    rmcore.solve_exactly(rmcore.kuhn_poker(4, 1.5)).policy,
                    {"K": (0.3, 0.7)},
                )
            ),
        ),
    ],
    ids=[
        "general-sum race",
        "fixed opponent",
        "fixed opponent 7-28-7",
        "a start",
        "steps",
        "three players",
        "kuhn",
        "kuhn dcfr",
        "kuhn mmd",
        "kuhn pdcfr+ dcfr+",
        "smoothed rules",
        "kuhn-4, player 1 fixed",
    ],
)
def test_the_bundle_command_reproduces_the_numbers_to_the_last_digit(tmp_path, game, variants, race):
    run, frame = _live(game, variants, **race)
    data = export.bundle(
        {"format": "rmcore-setup/1", "page": "x", "parameters": [], "iteration": run.iteration}, run, frame
    )
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path)
        names = set(archive.namelist())
    assert {"README.txt", "setup.json", "versions.json", "numbers.json", "history.csv"} <= names
    numbers = json.loads((tmp_path / "numbers.json").read_text())
    command = next(
        line.strip()
        for line in (tmp_path / "README.txt").read_text().splitlines()
        if line.strip().startswith("python -m rmcore")
    )
    args = shlex.split(command)[3:]  # after "python -m rmcore", split as a shell does
    out = _run_in(tmp_path, "-m", "rmcore", *args)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    again = {row["variant"]: row[result["measure"]] for row in result["variants"]}
    assert again == numbers["variants"] and result["measure"] == numbers["measure"]
    assert json.loads((tmp_path / "versions.json").read_text())["numpy"]


def test_the_bundle_command_reports_the_crossings_the_page_shows(tmp_path):
    """The page keeps every checkpoint of a small game (history_share=None) in a budgeted history and runs in many
    small updates; the command line keeps the library's defaults and runs in one call. Both read a crossing at the
    same iterations (rmcore.first_crossing), so the bundle's command prints the page's table."""
    game = rmcore.preset("rps-crash")
    run, frame = _live(
        game,
        ["rm+/alternating", "prm+/alternating/linear", "rm+/sampled"],
        steps=(7, 300, 2_000, 1_000, 1_693),
        seeds=3,
        history_share=None,
        history_budget=50_000,
    )
    data = export.bundle(
        {"format": "rmcore-setup/1", "page": "x", "parameters": [], "iteration": run.iteration}, run, frame
    )
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path)
    numbers = json.loads((tmp_path / "numbers.json").read_text())
    assert sum(r is not None for reached in numbers["reached"].values() for r in reached.values()) >= 3
    command, _ = export.command(run, run.iteration)
    out = subprocess.run(
        [sys.executable, "-m", "rmcore", *shlex.split(command)[3:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    again = {
        row["variant"]: {t: r and r["iterations"] for t, r in row["reached"].items()}
        for row in json.loads(out.stdout)["variants"]
    }
    assert again == numbers["reached"]


@pytest.mark.parametrize("players", [3, 4])
def test_a_bundle_of_kuhn_for_more_than_two_players_reproduces_its_numbers_from_the_command_line(tmp_path, players):
    """Kuhn poker of 3 and 4 players travels as the bundle's game.efg (the catalogue builds two-player Kuhn): the
    command line's race on it prints each variant's NashConv to the last digit, a sampled variant's median included."""
    variants = [
        rmcore.CFRVariant("cfr+"),
        rmcore.CFRVariant("discounted", "simultaneous", (1.25, -0.5, 3.0)),
        rmcore.CFRVariant("external-sampling"),
    ]
    run, frame = _live(rmcore.kuhn_poker(players=players), variants, steps=(7, 93), seeds=2, seed=5)
    command, files = export.command(run, run.iteration)
    assert command.startswith("python -m rmcore race --efg game.efg") and set(files) == {"game.efg"}
    assert "--alpha 1.25 --beta -0.5 --gamma 3.0" in command and "--seeds 2 --seed 5" in command
    data = export.bundle({"format": "rmcore-setup/1", "page": "kuhn", "parameters": [], "iteration": 100}, run, frame)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path)
        names = set(archive.namelist())
    assert names == {"README.txt", "setup.json", "versions.json", "numbers.json", "history.csv", "game.efg"}
    assert rmcore.read_efg(tmp_path / "game.efg").players == players
    numbers = json.loads((tmp_path / "numbers.json").read_text())
    assert command in (tmp_path / "README.txt").read_text()
    out = _run_in(tmp_path, "-m", "rmcore", *shlex.split(command)[3:])
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed["game"] == f"Kuhn poker, {players} players" and printed["measure"] == "nash_conv"
    assert {row["variant"]: row["nash_conv"] for row in printed["variants"]} == numbers["variants"]
    assert all(gap > 0 for gap in numbers["variants"].values()) and "exploitability" not in out.stdout
