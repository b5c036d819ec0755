"""The atlas page's data: the shipped atlas (``docs/performance/atlas.parquet``), or a sweep folder of the user's own
(a path on the server, or an uploaded zip), read as ``rmcore.read_results``' table; and what the page ranks.

No Streamlit here. Every source is validated before it is read: a bad folder or zip is refused with one sentence that
says why (``ValueError``).
"""

from __future__ import annotations

import io
import json
import math
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from rmcore.sweep import MAX_RESULT_FILES, RESULT_COLUMNS, read_results

#: The atlas's data file, written by ``python -m rmcore atlas``.
SHIPPED = Path(__file__).resolve().parents[2] / "docs" / "performance" / "atlas.parquet"
#: The largest zip accepted, in megabytes (a sweep's file is a few kB to a few MB), and the most it may unpack to.
ZIP_MEGABYTES = 200
UNZIPPED_MEGABYTES = 2_000
#: The exploitability targets the ranking offers.
TARGETS = (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)


def shipped() -> tuple[pd.DataFrame, dict]:
    """The shipped atlas's table and the description of the run that made it (command, machine, date, ...)."""
    import pyarrow.parquet as pq

    from rmcore.atlas import DATA_KEY

    if not SHIPPED.is_file():
        raise ValueError(f"the atlas's data file {SHIPPED.name} is missing: run python -m rmcore atlas")
    table = pq.read_table(SHIPPED)
    about = json.loads((table.schema.metadata or {}).get(DATA_KEY, b"{}"))
    return _checked(table.to_pandas(), SHIPPED.name), about


def folder(path: str) -> pd.DataFrame:
    """The results in a sweep folder on this machine (the folder ``python -m rmcore sweep --out`` wrote)."""
    text = path.strip()
    if not text:
        raise ValueError("type the path of a sweep's results folder")
    return _checked(read_results(Path(text).expanduser()), text)


def unzipped(data: bytes, name: str = "the zip") -> pd.DataFrame:
    """The results in a zip of a sweep folder: its ``.parquet`` files, in any folder of the archive, read from a
    temporary folder (names are flattened: nothing is written outside it)."""
    if len(data) > ZIP_MEGABYTES * 2**20:
        raise ValueError(f"{name} is {len(data) / 2**20:,.0f} MB; at most {ZIP_MEGABYTES} MB is read")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ValueError(f"{name} is not a zip file") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir() and m.filename.endswith(".parquet")]
        members = [m for m in members if not Path(m.filename).name.startswith(".")]
        if not members:
            raise ValueError(f"{name} holds no sweep result files (*.parquet, written by python -m rmcore sweep)")
        if len(members) > MAX_RESULT_FILES:
            raise ValueError(f"{name} holds {len(members):,} result files; at most {MAX_RESULT_FILES:,} are read")
        if sum(m.file_size for m in members) > UNZIPPED_MEGABYTES * 2**20:
            raise ValueError(f"{name} unpacks to more than {UNZIPPED_MEGABYTES:,} MB")
        names = [Path(m.filename).name for m in members]
        if len(set(names)) != len(names):
            raise ValueError(f"{name} holds two result files of the same name: one sweep folder per zip")
        with tempfile.TemporaryDirectory(prefix="rmcore-atlas-") as folder:
            for member, file_name in zip(members, names):
                try:
                    (Path(folder) / file_name).write_bytes(archive.read(member))
                except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as error:
                    raise ValueError(f"{file_name} in {name} could not be unpacked ({error})") from None
            return _checked(read_results(folder), name)


def _checked(frame: pd.DataFrame, source: str) -> pd.DataFrame:
    """A results table the page can show: the columns of ``rmcore.read_results``, at least one finished run."""
    missing = [column for column in RESULT_COLUMNS if column not in frame.columns]
    if missing:
        raise ValueError(f"{source} is not a table of sweep results (it has no {missing[0]!r} column)")
    if not (frame.status == "done").any():
        errors = frame.drop_duplicates("cell").error
        first = f" (the first error: {errors.iloc[0]})" if len(errors) else ""
        raise ValueError(f"every run in {source} failed{first}")
    return frame


def games(frame: pd.DataFrame) -> dict[str, str]:
    """The games with a finished run, label -> title, in the order they come."""
    done = frame[frame.status == "done"]
    return dict(zip(done.game, done.game_title))


def measure(frame: pd.DataFrame) -> str:
    """What the page plots and ranks: ``exploitability`` (zero-sum games) or ``nash_conv`` (a general-sum game)."""
    return "exploitability" if np.isfinite(frame.exploitability).any() else "nash_conv"


def ranking(frame: pd.DataFrame, target: float, iterate: str = "average") -> pd.DataFrame:
    """A row per run of one game: the first checkpoint at which its measure (of the average, or of the ``"last"``
    iterate) is at most ``target``, in iterations and in seconds (the solver's time up to it); NaN if never. The
    runs are in the order of the fewest iterations; ``rank by seconds`` says their order by time."""
    column = measure(frame)
    if iterate == "last":
        column += "_current"
    rows = []
    for cell, runs in frame[frame.status == "done"].groupby("cell", sort=False):
        reached = runs[runs[column] <= target]
        first = reached.iloc[0] if len(reached) else None
        rows.append(
            {
                "cell": cell,
                "run": runs.name.iloc[0],
                "label": runs.label.iloc[0],
                "seed": runs.seed.iloc[0],
                "iterations": math.nan if first is None else float(first.iteration),
                "seconds": math.nan if first is None else float(first.seconds),
                "final": float(runs[column].iloc[-1]),
                "spec": runs.spec.iloc[0],
            }
        )
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["rank by seconds"] = table.seconds.rank(method="min", na_option="keep")
    table = table.sort_values(["iterations", "seconds", "final"], na_position="last", kind="stable")
    table.insert(0, "rank by iterations", table.iterations.rank(method="min", na_option="keep"))
    return table.reset_index(drop=True)
