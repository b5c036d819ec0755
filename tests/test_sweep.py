"""Sweeps (rmcore.sweep): grids read and refused with a message naming the entry, cells recorded with their errors,
resumed without running finished cells again, and a two-worker Dask cluster that loses a worker (SIGKILL) midway and
still writes, bit for bit, the files of a serial run."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import rmcore
from rmcore.__main__ import main
from rmcore.solver import METRIC_COLUMNS
from rmcore.sweep import (
    METADATA_KEY,
    RESULT_COLUMNS,
    SCHEMA,
    GridError,
    ResultFileWarning,
    data_digest,
    local_cluster,
    parse_grid,
    read_cell,
    read_grid,
    read_results,
    result_files,
    run_sweep,
)

from .test_kuhn import OPENSPIEL_CFR, OPENSPIEL_CFR_PLUS

SAVED = Path(__file__).parent / "saved"

#: Cells of about a quarter second each on this machine (Leduc and Liar's dice with 4 sides at 2,000 iterations): long
#: enough for a worker to be killed in the middle of one.
FAULT_GRID = {
    "iterations": 2_000,
    "checkpoints_per_decade": 4,
    "seeds": [0, 1],
    "games": [{"game": "leduc"}, {"game": "liars_dice", "sides": 4}, {"game": "kuhn"}],
    "algorithms": [{"tree": "cfr"}, {"tree": "cfr+"}, {"tree": "pcfr+"}, {"tree": "external-sampling"}],
}


def _tables(folder) -> dict:
    """Every result file's table (as raw bytes per column, so that NaNs compare bit for bit) and the metadata that
    does not depend on when or where it ran, by file name."""
    out = {}
    for path in result_files(folder):
        table = pq.read_table(path)
        meta = json.loads(table.schema.metadata[METADATA_KEY])
        columns = {name: np.ascontiguousarray(table[name].to_numpy()).tobytes() for name in table.column_names}
        fixed = {key: meta[key] for key in ("id", "name", "cell", "status", "error", "label", "game_title", "size")}
        out[path.name] = (columns, fixed)
    return out


# -- reading grids ------------------------------------------------------------------------------------------------


def test_all_reads_the_catalogues_and_sampled_variants_run_once_per_seed():
    grid = parse_grid(
        {
            "iterations": 10,
            "seeds": [3, 4],
            "games": [{"game": "kuhn"}, {"game": "rps"}],
            "algorithms": [{"tree": "all"}, {"matrix": "all"}],
        }
    )
    tree = [cell for cell in grid.cells if cell.family == "tree"]
    sampled = [name for name in rmcore.CFR_ALGORITHMS if rmcore.CFRVariant(name).is_sampled]
    assert {cell.spec["algorithm"]["tree"] for cell in tree} == set(rmcore.CFR_ALGORITHMS)
    assert len(tree) == len(rmcore.CFR_ALGORITHMS) + len(sampled)  # each sampled variant twice (two seeds)
    assert sorted(c.spec["seed"] for c in tree if c.spec["algorithm"]["tree"] == sampled[0]) == [3, 4]
    matrix = [cell for cell in grid.cells if cell.family == "matrix"]
    names = [cell.spec["algorithm"]["matrix"] for cell in matrix]
    only_sampled = [name for name in rmcore.ALGORITHMS if rmcore.ONLY_FORMS.get(name, {}).get("sampling") == "sampled"]
    assert list(dict.fromkeys(names)) == list(rmcore.ALGORITHMS) and only_sampled == ["internal-rm"]
    assert len(matrix) == len(rmcore.ALGORITHMS) + len(only_sampled)  # (a rule of sampled play only: once per seed)
    assert sorted(c.spec["seed"] for c in matrix if c.spec["algorithm"]["matrix"] in only_sampled) == [3, 4]
    assert all(c.spec["seed"] is None for c in matrix if c.spec["algorithm"]["matrix"] not in only_sampled)
    assert grid.cells[0].spec["checkpoints"] == [1, 2, 3, 4, 6, 7, 10]


def test_a_cell_is_the_same_however_its_defaults_are_spelled():
    plain = parse_grid({"iterations": 10, "games": [{"game": "kuhn"}], "algorithms": [{"tree": "discounted"}]})
    spelled = parse_grid(
        {
            "iterations": 10,
            "checkpoints": [1, 2, 3, 4, 6, 7, 10],
            "games": [{"game": "kuhn", "cards": 3.0, "bet": 1}],
            "algorithms": [{"tree": "discounted", "alpha": 1.5, "beta": 0, "gamma": 2, "updates": "alternating"}],
        }
    )
    assert [c.id for c in plain.cells] == [c.id for c in spelled.cells]
    other = parse_grid({"iterations": 10, "games": [{"game": "kuhn", "cards": 4}], "algorithms": [{"tree": "cfr"}]})
    assert other.cells[0].id != plain.cells[0].id


GOOD = {"iterations": 10, "games": [{"game": "kuhn"}], "algorithms": [{"tree": "cfr"}]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"iteration": 5}, "unknown setting 'iteration'"),
        ({"iterations": None}, "iterations is missing"),
        ({"iterations": 2.5}, "iterations must be a whole number"),
        ({"iterations": 0}, "iterations must be a whole number from 1"),
        ({"checkpoints": [5, 3]}, "checkpoints must increase"),
        ({"checkpoints": [20]}, "checkpoints[0] must be a whole number from 1 to 10"),
        ({"checkpoints": [5], "checkpoints_per_decade": 4}, "not both"),
        ({"seeds": [1, 1]}, "seeds lists a seed twice"),
        ({"seeds": [-1]}, "seeds[0] must be a whole number"),
        ({"policies": "yes"}, "policies must be true or false"),
        ({"games": []}, "the grid needs a list of games"),
        ({"games": [{"game": "poker"}]}, "games[0].game: unknown game 'poker'"),
        ({"games": [{"game": "kuhn", "sides": 6}]}, "games[0]: kuhn has no parameter 'sides'"),
        ({"games": [{"game": "kuhn", "cards": [3]}]}, "games[0].cards must be a number or text"),
        ({"games": [{"game": "kuhn", "file": "x.efg"}]}, "games[0] needs game"),
        ({"games": [{"file": "game.txt"}]}, "games[0].file must name a .efg"),
        ({"games": [{"file": "missing.efg"}]}, "missing.efg is not a file"),
        ({"games": [{"game": "rps", "start": "center"}]}, "games[0].start must be"),
        ({"algorithms": [{"tree": "cfr++"}]}, "algorithms[0].tree: unknown tree algorithm 'cfr++'"),
        (
            {"algorithms": [{"tree": "cfr", "sampling": "sampled"}]},
            "algorithms[0]: tree algorithm 'cfr' has no parameter 'sampling'",
        ),
        ({"algorithms": [{"tree": "all", "updates": "simultaneous"}]}, "tree = 'all' runs every variant"),
        ({"algorithms": [{"matrix": "rm"}]}, "is a tree game, and the grid has no tree algorithm"),
        ({"algorithms": [{"tree": "cfr"}, {"matrix": "rm"}]}, "is a matrix algorithm, and the grid has no matrix game"),
        ({"algorithms": ["cfr"]}, "algorithms[0] must be a table"),
    ],
)
def test_a_bad_grid_is_refused_naming_the_entry(tmp_path, change, message):
    grid = {**GOOD, **change}
    grid = {key: value for key, value in grid.items() if value is not None}
    with pytest.raises(GridError) as refused:
        parse_grid(grid, base=tmp_path)
    assert message in str(refused.value)


def test_a_grid_file_with_a_toml_error_is_refused_with_its_line(tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text('iterations = 10\n[[games]]\ngame = "kuhn\n', encoding="utf-8")
    with pytest.raises(GridError, match=r"grid.toml: not valid TOML: .*line 3"):
        read_grid(path)
    with pytest.raises(GridError, match="no such grid file"):
        read_grid(tmp_path / "missing.toml")


def test_the_command_line_says_what_is_wrong_in_one_line(tmp_path, capsys):
    path = tmp_path / "grid.toml"
    path.write_text('iterations = 10\n[[games]]\ngame = "kuhn"\n[[algorithms]]\ntree = "cfr+"\nalpha = 1\n')
    assert main(["sweep", str(path), "--out", str(tmp_path / "out"), "--scheduler", "x:1", "--workers", "2"]) == 2
    assert "--workers sizes the local cluster" in capsys.readouterr().err
    (tmp_path / "taken").write_text("a file")
    assert main(["sweep", str(path), "--out", str(tmp_path / "taken"), "--workers", "0"]) == 2
    assert "taken is not a folder" in capsys.readouterr().err
    assert main(["sweep", str(path), "--out", str(tmp_path / "out"), "--workers", "1000"]) == 2
    assert "workers must be a whole number from 0 to" in capsys.readouterr().err
    path.write_text('iterations = 10\n[[games]]\ngame = "kuhn"\n[[algorithms]]\ntree = "cfr++"\n')
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: algorithms[0].tree: unknown tree algorithm 'cfr++'") and "Traceback" not in err


# -- running cells ------------------------------------------------------------------------------------------------


def test_a_cell_records_the_history_at_its_checkpoints_and_how_it_was_made(tmp_path):
    grid = {"iterations": 100, "checkpoints": [10, 100], "games": [{"game": "kuhn"}], "algorithms": [{"tree": "cfr"}]}
    tree = tmp_path / "grid.toml"
    tree.write_text(
        'iterations = 100\ncheckpoints = [10, 100]\n[[games]]\ngame = "kuhn"\n[[algorithms]]\ntree = "cfr"\n'
    )
    report = run_sweep(tree, tmp_path / "out", workers=0)
    assert (report.ran, report.skipped, report.failed, report.lost) == (1, 0, (), ())
    (path,) = result_files(tmp_path / "out")
    meta, frame = read_cell(path)
    assert frame.iteration.tolist() == [10, 100]
    # OpenSpiel's CFRSolver on Kuhn poker (../shared/REFERENCE.md), an independent route to the same numbers.
    nash_conv = [2 * OPENSPIEL_CFR[10], 2 * OPENSPIEL_CFR[100]]  # (OpenSpiel's exploitability is nash_conv / 2)
    assert frame.nash_conv.tolist() == pytest.approx(nash_conv, rel=5e-3)
    assert list(frame.columns) == ["iteration", *METRIC_COLUMNS] and meta["schema"] == SCHEMA
    assert meta["status"] == "done" and meta["error"] is None
    assert meta["command"] == f"python -m rmcore sweep {tree} --out {tmp_path / 'out'} --cell {meta['id']}"
    assert meta["versions"]["rmcore"] == rmcore.__version__ and "numba" in meta["versions"]
    assert meta["machine"]["cores"] >= 1 and meta["machine"]["host"]
    assert meta["wall_seconds"] >= meta["run_seconds"] > 0
    assert meta["seconds_per_iteration"] == pytest.approx(meta["run_seconds"] / 100)
    assert len(meta["checkpoint_seconds"]) == 2 and meta["checkpoint_seconds"][-1] == meta["run_seconds"]
    assert not [p for p in (tmp_path / "out").iterdir() if p.suffix != ".parquet"], "no temporary file is left"
    # The cell's own command runs it again: its file is finished, so nothing runs.
    assert main(["sweep", str(tree), "--out", str(tmp_path / "out"), "--cell", meta["id"], "--workers", "0"]) == 0
    curves = read_results(tmp_path / "out")
    assert curves.nash_conv.tolist() == frame.nash_conv.tolist()
    assert curves.seconds.tolist() == meta["checkpoint_seconds"]
    assert grid["checkpoints"] == curves.iteration.tolist()


def test_failing_cells_are_recorded_with_their_errors_and_the_sweep_goes_on(tmp_path):
    grid = {
        "iterations": 100,
        "checkpoints": [10, 100],
        "max_nodes": 1_000,
        "games": [{"game": "kuhn"}, {"game": "leduc"}, {"game": "kuhn", "cards": 20}],
        "algorithms": [{"tree": "cfr+"}, {"tree": "discounted", "alpha": 50}],
    }
    report = run_sweep(grid, tmp_path, workers=0)
    assert report.ran == 6 and not report.lost
    failed = dict(report.failed)
    assert failed == {
        "kuhn · discounted(alpha=50)": "alpha must be a finite number between -10 and 10; got 50.0",
        "leduc · cfr+ · alternating": "Leduc hold'em has 9,450 nodes, more than the grid's cap of 1,000 (max_nodes)",
        "leduc · discounted(alpha=50)": "Leduc hold'em has 9,450 nodes, more than the grid's cap of 1,000 (max_nodes)",
        "kuhn(cards=20) · cfr+ · alternating": "Kuhn poker's cards must be 3 to 13; got 20",
        "kuhn(cards=20) · discounted(alpha=50)": "Kuhn poker's cards must be 3 to 13; got 20",
    }  # (the game is built first: a game the library refuses fails every cell on it with its own reason)
    curves = read_results(tmp_path)
    assert set(curves[curves.status == "done"].name) == {"kuhn · cfr+ · alternating"}
    assert curves[curves.status == "done"].nash_conv.tolist() == pytest.approx(
        [2 * OPENSPIEL_CFR_PLUS[10], 2 * OPENSPIEL_CFR_PLUS[100]], rel=5e-3
    )
    assert set(curves[curves.status == "failed"].error) == set(failed.values())
    # A recorded failure is finished: it runs again only when asked to.
    assert run_sweep(grid, tmp_path, workers=0).ran == 0
    assert run_sweep(grid, tmp_path, workers=0, retry_failed=True).ran == 5


def test_policies_are_kept_when_asked_and_refused_for_a_game_too_wide(tmp_path, monkeypatch):
    monkeypatch.setattr(rmcore.config, "SWEEP_MAX_POLICY_COLUMNS", 100)  # Kuhn's 72 columns, not Liar's dice's
    grid = {
        "iterations": 10,
        "checkpoints": [5, 10],
        "policies": True,
        "games": [{"game": "kuhn"}, {"game": "liars_dice", "sides": 3}],
        "algorithms": [{"tree": "cfr"}],
    }
    report = run_sweep(grid, tmp_path, workers=0)
    (failure,) = report.failed
    assert failure[0].startswith("liars_dice · cfr") and "would keep 1,134 columns a checkpoint" in failure[1]
    (kuhn,) = [path for path in result_files(tmp_path) if path.name.startswith("kuhn")]
    frame = read_cell(kuhn).frame
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr", max_points=0)
    solver.run(10)
    expected = solver.history().to_frame()
    assert list(frame.columns) == list(expected.columns)
    assert np.array_equal(frame.iloc[-1].to_numpy(float), expected.iloc[0].to_numpy(float), equal_nan=True)


def test_running_the_sweep_again_runs_only_the_cells_without_a_file(tmp_path):
    grid = {
        "iterations": 50,
        "checkpoints": [5, 50],
        "seeds": [0, 1],
        "games": [{"game": "kuhn"}, {"game": "matching-pennies"}],
        "algorithms": [{"tree": "cfr+"}, {"tree": "chance-sampling"}, {"matrix": "rm+", "sampling": "sampled"}],
    }
    first = run_sweep(grid, tmp_path, workers=0)
    assert (first.ran, first.skipped) == (5, 0)
    stamps = {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in result_files(tmp_path)}
    seen = []
    again = run_sweep(grid, tmp_path, workers=0, progress=seen.append)
    assert (again.ran, again.skipped) == (0, 5)
    assert seen[-1].left == 0 and seen[-1].skipped == 5
    assert {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in result_files(tmp_path)} == stamps
    gone = sorted(stamps)[1]
    (tmp_path / gone).unlink()
    (tmp_path / sorted(stamps)[2]).write_bytes(b"half a file")  # not a result file: it runs again
    third = run_sweep(grid, tmp_path, workers=0)
    assert (third.ran, third.skipped) == (2, 3)
    assert {path.name for path in result_files(tmp_path)} == set(stamps)


def test_read_results_refuses_a_folder_that_is_not_a_sweep(tmp_path):
    with pytest.raises(ValueError, match="holds no sweep result files"):
        read_results(tmp_path)
    (tmp_path / "x.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(ValueError, match="x.parquet is not a sweep result file"):
        read_results(tmp_path)
    with pytest.raises(ValueError, match="is not a folder"):
        read_results(tmp_path / "x.parquet")


# -- on a Dask cluster --------------------------------------------------------------------------------------------


def _profiler_enabled() -> bool:
    import dask

    return dask.config.get("distributed.worker.profile.enabled")


def test_a_worker_killed_midway_loses_no_cell_and_the_files_equal_a_serial_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    serial = run_sweep(FAULT_GRID, tmp_path / "serial", workers=0)
    assert serial.ran == 15 and not serial.failed
    killed = []
    with local_cluster(2, dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        # (the cluster a sweep starts: its workers sample no Python stacks while a compiled cell runs)
        assert set(client.run(_profiler_enabled).values()) == {False}

        def kill_one_midway(progress):
            if progress.done < 1 or killed:
                return
            busy = {worker: keys for worker, keys in client.processing().items() if keys}
            pids = client.run(os.getpid)
            for worker, keys in busy.items():
                cells = [key for key in keys if not key.startswith("prepare kernels")]
                if cells and worker in pids:
                    os.kill(pids[worker], signal.SIGKILL)
                    killed.append((pids[worker], cells))
                    return

        report = run_sweep(FAULT_GRID, tmp_path / "dask", client=client, progress=kill_one_midway)
        assert killed, "a worker was running a cell when one finished"
        assert killed[0][0] not in client.run(os.getpid).values()
    assert (report.ran, report.lost, report.failed) == (15, (), ())
    assert report.dashboard.startswith("http")
    assert _tables(tmp_path / "dask") == _tables(tmp_path / "serial")
    names = {json.loads(pq.read_schema(p).metadata[METADATA_KEY])["name"] for p in result_files(tmp_path / "dask")}
    assert {key.rsplit("-", 1)[0].replace("\u2010", "-") for key in killed[0][1]} <= names


def test_the_dashboard_names_each_task_by_its_cell():
    key_split = pytest.importorskip("dask.utils").key_split
    grid = parse_grid(
        {
            "iterations": 10,
            "seeds": [0],
            "games": [{"game": "rps-crash"}, {"game": "liars_dice", "sides": 4}],
            "algorithms": [{"tree": "external-sampling"}, {"matrix": "optimistic-gda"}],
        }
    )
    for cell in grid.cells:
        assert key_split(cell.task_key).replace("\u2010", "-") == cell.name


def test_rmcore_imports_and_sweeps_in_one_process_without_dask(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    # A None entry in sys.modules makes any import of that name fail at once, as if dask were not installed.
    code = (
        "import sys; sys.modules['dask'] = sys.modules['distributed'] = None\n"
        "import rmcore\n"
        "grid = {'iterations': 5, 'games': [{'game': 'kuhn'}], 'algorithms': [{'tree': 'cfr'}]}\n"
        f"print(rmcore.run_sweep(grid, {str(tmp_path)!r}, workers=0).ran)\n"
        "try:\n"
        f"    rmcore.run_sweep(grid, {str(tmp_path / 'other')!r})\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error)\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    ran, message = out.stdout.strip().splitlines()
    assert ran == "1" and message.startswith("sweeps run on Dask: install it")


# -- result files that are damaged, foreign or old; grid files as editors save them ---------------------------------

SMALL = {
    "iterations": 200,
    "checkpoints_per_decade": 8,
    "games": [{"game": "kuhn"}],
    "algorithms": [{"tree": "cfr"}, {"tree": "cfr+"}, {"tree": "pcfr+"}],
}


def _damage_inside_the_data(path) -> None:
    """Overwrite bytes inside the nash_conv column's data, the footer (and so the metadata) left intact."""
    parquet = pq.ParquetFile(path)
    columns = parquet.metadata.row_group(0)
    chunk = next(
        columns.column(k) for k in range(columns.num_columns) if columns.column(k).path_in_schema == "nash_conv"
    )
    end = chunk.data_page_offset + chunk.total_compressed_size
    footer = path.stat().st_size - 8 - parquet.metadata.serialized_size
    assert end <= footer
    raw = bytearray(path.read_bytes())
    raw[end - 12 : end - 4] = bytes(b ^ 0x5A for b in raw[end - 12 : end - 4])
    path.write_bytes(bytes(raw))


def test_a_file_damaged_inside_its_data_is_not_done_is_run_again_and_is_named_when_read(tmp_path):
    assert run_sweep(SMALL, tmp_path, workers=0).ran == 3
    good = read_results(tmp_path)
    damaged = sorted(result_files(tmp_path))[1]
    _damage_inside_the_data(damaged)
    assert pq.read_schema(damaged).metadata[METADATA_KEY], "the footer still reads"
    with pytest.raises(ValueError, match=rf"^{re.escape(damaged.name)} is damaged: its data"):
        read_results(tmp_path)
    with pytest.warns(ResultFileWarning, match=re.escape(damaged.name)):
        partial = read_results(tmp_path, skip_bad=True)
    assert partial.cell.nunique() == 2 and partial.attrs["skipped"][0].startswith(damaged.name)
    again = run_sweep(SMALL, tmp_path, workers=0)
    assert (again.ran, again.skipped) == (1, 2), "the damaged file is not done: its cell runs again"
    assert (
        read_results(tmp_path)
        .drop(columns=["seconds", "seconds_per_iteration", "wall_seconds"])
        .equals(good.drop(columns=["seconds", "seconds_per_iteration", "wall_seconds"]))
    )


def test_the_command_lists_a_damaged_file_as_to_run_and_runs_it_again(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'iterations = 200\ncheckpoints_per_decade = 8\n[[games]]\ngame = "kuhn"\n'
        '[[algorithms]]\ntree = "cfr"\n[[algorithms]]\ntree = "cfr+"\n'
    )
    out = tmp_path / "out"
    assert main(["sweep", str(grid), "--out", str(out), "--workers", "0"]) == 0
    damaged = sorted(result_files(out))[0]
    _damage_inside_the_data(damaged)
    status, listed = _cli_output("sweep", grid, "--out", out, "--list")
    assert status == 0
    (line,) = [line for line in listed.splitlines() if damaged.name.rsplit("-", 1)[1].startswith(line.split()[0])]
    assert line.split()[1:3] == ["to", "run"], listed
    status, err = _cli("sweep", grid, "--out", out, "--workers", "0")
    assert status == 0 and "1 cells run" in err and "1 finished before" in err, err
    assert read_results(out).cell.nunique() == 2


def test_read_results_names_every_foreign_file_and_skips_them_when_asked(tmp_path):
    import pyarrow as pa

    run_sweep(SMALL, tmp_path, workers=0)
    pq.write_table(pa.table({"x": [1.0, 2.0]}), tmp_path / "notes.parquet")
    (tmp_path / "zz.parquet").write_bytes(b"PAR1 and nothing else")
    with pytest.raises(ValueError) as refused:
        read_results(tmp_path)
    assert str(refused.value).startswith("2 of the 5 files are not readable: notes.parquet is not a sweep result file")
    assert "zz.parquet is not a sweep result file (not a Parquet file)" in str(refused.value)
    with pytest.warns(ResultFileWarning) as warned:
        frame = read_results(tmp_path, skip_bad=True)
    assert sorted(str(w.message).split(" ")[0] for w in warned) == ["notes.parquet", "zz.parquet"]
    assert frame.cell.nunique() == 3
    with pytest.raises(TypeError, match="skip_bad must be True or False"):
        read_results(tmp_path, skip_bad="yes")


def test_a_result_file_without_a_digest_is_read_and_counts_as_done(tmp_path):
    run_sweep(SMALL, tmp_path, workers=0)
    path = sorted(result_files(tmp_path))[0]
    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[METADATA_KEY])
    assert len(meta.pop("data_sha256")) == 64
    pq.write_table(table.replace_schema_metadata({METADATA_KEY: json.dumps(meta).encode()}), path)
    assert read_results(tmp_path).cell.nunique() == 3
    assert run_sweep(SMALL, tmp_path, workers=0).ran == 0


@pytest.mark.parametrize("umask", [0o022, 0o027], ids=["022", "027"])
def test_result_files_get_the_usual_mode_for_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        run_sweep(GOOD, tmp_path, workers=0)
    finally:
        os.umask(old)
    (path,) = result_files(tmp_path)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def _cli(*args, cwd=None, timeout=300):
    """``python -m rmcore ARGS`` in a child process: its exit status and stderr."""
    status, _, err = _child(args, cwd, timeout)
    return status, err


def _cli_output(*args, cwd=None, timeout=300):
    """``python -m rmcore ARGS`` in a child process: its exit status and stdout."""
    status, out, _ = _child(args, cwd, timeout)
    return status, out


def _child(args, cwd, timeout):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run(
        [sys.executable, "-m", "rmcore", *map(str, args)],
        cwd=cwd or root,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done.returncode, done.stdout, done.stderr


def test_a_grid_saved_with_a_byte_order_mark_runs(tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text('\ufeffiterations = 10\n[[games]]\ngame = "kuhn"\n[[algorithms]]\ntree = "cfr"\n', encoding="utf-8")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert len(read_grid(path).cells) == 1
    status, err = _cli("sweep", path, "--out", tmp_path / "out", "--workers", "0")
    assert status == 0, err
    assert read_results(tmp_path / "out").cell.nunique() == 1


@pytest.fixture(params=[None, 10_000], ids=["default-recursion-limit", "raised-recursion-limit"])
def recursion_limit(request):
    """The interpreter's recursion limit, raised for the test where the parameter says so, and restored after it."""
    previous = sys.getrecursionlimit()
    if request.param is not None:
        sys.setrecursionlimit(request.param)
    yield sys.getrecursionlimit()
    sys.setrecursionlimit(previous)


@pytest.mark.parametrize(
    "nested",
    ["seeds = " + "[" * 2000 + "]" * 2000, "name = " + "{a = " * 600 + "1" + "}" * 600],
    ids=["arrays", "tables"],
)
def test_a_grid_nested_too_deeply_is_refused_in_one_line(tmp_path, nested, recursion_limit):
    """Refused alike whatever the interpreter's recursion limit (another module of the process may have raised it)."""
    path = tmp_path / "grid.toml"
    path.write_text(nested + '\niterations = 10\n[[games]]\ngame = "kuhn"\n[[algorithms]]\ntree = "cfr"\n')
    with pytest.raises(GridError, match="nests arrays or tables hundreds of levels deep"):
        read_grid(path)
    status, err = _cli("sweep", path, "--out", tmp_path / "out")
    assert status == 2
    assert err.startswith("error: ") and "nests arrays or tables hundreds of levels deep" in err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(GridError, match="hundreds of levels deep"):
        parse_grid({**GOOD, "seeds": deep})


INTERRUPTED_GRID = """iterations = 1500
checkpoints_per_decade = 4
[[games]]
game = "leduc"
[[games]]
game = "liars_dice"
sides = 4
[[algorithms]]
tree = "cfr"
[[algorithms]]
tree = "cfr+"
[[algorithms]]
tree = "pcfr+"
"""


def test_ctrl_c_stops_a_sweep_with_one_line_and_the_same_command_goes_on(tmp_path):
    """Ctrl-C at a terminal: SIGINT to the command's whole process group (its Dask workers too)."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    pytest.importorskip("distributed")
    root = Path(__file__).resolve().parents[1]
    grid, out = tmp_path / "grid.toml", tmp_path / "out"
    grid.write_text(INTERRUPTED_GRID)
    env = dict(os.environ, PYTHONPATH=str(root))
    command = [sys.executable, "-m", "rmcore", "sweep", str(grid), "--out", str(out), "--workers", "2"]
    # (As at a terminal, SIGINT has its default action in the command: a test process may ignore it, as pytest-xdist's
    # workers do, and an ignored signal stays ignored across exec, so Python would never raise KeyboardInterrupt.)
    child = subprocess.Popen(
        command,
        cwd=root,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 300
        while not list(out.glob("*.parquet")) and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert child.poll() is None, "the sweep ran to its end before it could be interrupted"
        os.killpg(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "WARNING" not in err, err
    assert err.rstrip().endswith("interrupted: every finished cell is written; run the same command again to go on")
    left = time.monotonic() + 30  # (a killed worker stays a zombie until the system reaps it)
    while time.monotonic() < left:
        try:
            os.killpg(child.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("a process of the interrupted sweep is still running")
    written = {path.name for path in out.glob("*.parquet")}
    assert 1 <= len(written) < 6 and all(path.suffix == ".parquet" for path in out.iterdir())
    status, err = _cli("sweep", grid, "--out", out, "--workers", "0")
    assert status == 0, err
    assert f"{6 - len(written)} cells run" in err and f"{len(written)} finished before" in err
    assert read_results(out).cell.nunique() == 6


def test_result_files_of_schema_1_read_as_nash_conv_in_both_families(tmp_path):
    """Files an earlier release wrote (``tests/saved/a6231df/sweep``: no schema in their metadata, a game tree's
    measure halved into ``exploitability``) read into the same columns as new ones, with the numbers a run gives now."""
    old = SAVED / "a6231df" / "sweep"
    assert all("schema" not in read_cell(path).meta for path in result_files(old))
    assert "exploitability_current" in read_cell(next(old.glob("kuhn*.parquet"))).frame
    curves = read_results(old)
    assert list(curves.columns) == list(RESULT_COLUMNS)
    grid = {
        "iterations": 30,
        "checkpoints": [3, 30],
        "games": [{"game": "kuhn"}, {"game": "rps-crash"}, {"game": "prisoners-dilemma"}],
        "algorithms": [{"tree": "cfr+"}, {"matrix": "prm+"}],
    }
    run_sweep(grid, tmp_path, workers=0)
    now = read_results(tmp_path)
    assert set(now.cell) == set(curves.cell)
    for column in ("iteration", "nash_conv", "nash_conv_current"):
        assert now.sort_values(["cell", "iteration"])[column].to_numpy() == pytest.approx(
            curves.sort_values(["cell", "iteration"])[column].to_numpy(), rel=1e-12, abs=1e-15
        ), column


def test_result_files_of_schema_2_read_without_the_correlated_columns(tmp_path):
    """A file of schema 2 has no ``ce_gap``, ``internal_regret`` or ``internal_regret_bound`` column: it reads, its
    curves as a file of the schema now."""
    grid = {"iterations": 30, "checkpoints": [3, 30], "games": [{"game": "chicken"}], "algorithms": [{"matrix": "rm"}]}
    run_sweep(grid, tmp_path, workers=0)
    (path,) = result_files(tmp_path)
    now = read_results(tmp_path)
    table = pq.read_table(path).drop_columns(["ce_gap", "internal_regret", "internal_regret_bound"])
    meta = {**json.loads(table.schema.metadata[METADATA_KEY]), "schema": 2}
    meta["data_sha256"] = data_digest(table)
    pq.write_table(table.replace_schema_metadata({METADATA_KEY: json.dumps(meta).encode()}), path)
    assert "ce_gap" not in read_cell(path).frame and read_cell(path).meta["schema"] == 2
    old = read_results(tmp_path)
    assert old[["iteration", "nash_conv", "nash_conv_current"]].equals(
        now[["iteration", "nash_conv", "nash_conv_current"]]
    )


def test_a_result_file_of_a_newer_schema_is_refused_with_a_sentence(tmp_path):
    (path,) = [shutil.copy(p, tmp_path) for p in (SAVED / "a6231df" / "sweep").glob("kuhn*.parquet")]
    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[METADATA_KEY])
    table = table.replace_schema_metadata({METADATA_KEY: json.dumps({**meta, "schema": SCHEMA + 1}).encode()})
    pq.write_table(table, path)
    with pytest.raises(ValueError, match=rf"of schema {SCHEMA + 1}; this rmcore reads 1 to {SCHEMA}"):
        read_results(tmp_path)


def test_games_of_three_and_four_players_run_and_their_rows_carry_nash_conv_and_the_correlated_gaps(tmp_path):
    from rmcore.sweep.cells import build_game

    from .test_cli import NFG_FOUR

    (tmp_path / "four.nfg").write_text(NFG_FOUR)
    grid = {
        "iterations": 100,
        "checkpoints": [10, 100],
        "games": [{"game": "nau-2x2x2"}, {"file": "four.nfg"}],
        "algorithms": [{"matrix": "rm+"}, {"matrix": "exrm+"}, {"matrix": "rm", "updates": "alternating"}],
    }
    report = run_sweep(parse_grid(grid, base=tmp_path), tmp_path / "out", workers=0)
    assert report.ran == 6 and not report.lost
    failed = dict(report.failed)
    assert failed["file:four.nfg · rm · expected · alternating · uniform"].startswith(
        "alternating updates let the column player answer the row player's new strategy"
    )
    assert (
        "it runs on two-player games; this game has 3 players"
        in failed["nau-2x2x2 · exrm+(η=0.1) · expected · simultaneous · uniform"]
    )
    assert len(failed) == 4
    curves = read_results(tmp_path / "out")
    for name, game in (("nau-2x2x2", rmcore.preset("nau-2x2x2")), ("file:four.nfg", rmcore.read_nfg(NFG_FOUR))):
        rows = curves[curves.name == f"{name} · rm+ · expected · simultaneous · uniform"]
        solver = rmcore.MatrixSolver(game, "rm+", seed=0)
        expected = []
        for steps in (10, 90):
            solver.run(steps)
            m = solver.metrics()
            expected.append([m.nash_conv, m.nash_conv_current, m.ce_gap, m.cce_gap])
        got = rows[["nash_conv", "nash_conv_current", "ce_gap", "cce_gap"]].to_numpy().tolist()
        assert got == expected and rows.iteration.tolist() == [10, 100] and not rows.zero_sum.any()
        assert expected[-1][0] > 0 and None not in expected[-1]  # (the joint play is kept: general-sum self-play)
    (four,) = [path for path in result_files(tmp_path / "out") if path.name.startswith("file_four.nfg_rm+")]
    meta, frame = read_cell(four)
    assert meta["size"] == [2, 2, 2, 2] and meta["schema"] == SCHEMA and meta["game_title"] == "Four"
    assert list(frame.columns)[: 1 + len(METRIC_COLUMNS)] == ["iteration", *METRIC_COLUMNS]
    assert frame.br_gain_4.iloc[-1] == solver.metrics().br_gains.of(4)  # (each player's columns, players 3 on after)
    capped = parse_grid({**grid, "max_payoffs": 8}, base=tmp_path).cells
    with pytest.raises(ValueError, match=r"Four is 2x2x2x2, more payoffs than the grid's cap of 8 \(max_payoffs\)"):
        build_game(next(cell for cell in capped if "four" in cell.name))


def test_three_player_matching_pennies_starts_at_its_suggested_start_unless_the_grid_says_uniform(tmp_path):
    """From uniform play, the game's only equilibrium, nothing moves (NashConv 0); from the game's suggested start the
    sweep's cell is the library's run from ``game.start``, to the last bit."""
    grid = {
        "iterations": 200,
        "checkpoints": [200],
        "games": [{"game": "matching-pennies-3p"}, {"game": "matching-pennies-3p", "start": "uniform"}],
        "algorithms": [{"matrix": "rm"}],
    }
    report = run_sweep(parse_grid(grid, base=tmp_path), tmp_path / "out", workers=0)
    assert report.ran == 2 and not report.failed
    curves = read_results(tmp_path / "out")
    game = rmcore.preset("matching-pennies-3p")
    suggested = rmcore.MatrixSolver(game, "rm", seed=0, start=game.start)
    suggested.run(200)
    by_name = {name: rows.nash_conv.iloc[-1] for name, rows in curves.groupby("name")}
    assert by_name["matching-pennies-3p · rm · expected · simultaneous · uniform"] == suggested.metrics().nash_conv
    assert suggested.metrics().nash_conv > 0.5
    assert by_name["matching-pennies-3p(start=uniform) · rm · expected · simultaneous · uniform"] == 0.0
