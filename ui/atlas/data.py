"""The atlas page's data: the shipped atlas (``docs/performance/atlas.parquet``), or a sweep folder of the user's own
(one of the folders the server offers, or an uploaded zip), read as ``rmcore.read_results``' table; and what the page
ranks.

No Streamlit here. Every source is validated before it is read: a bad folder or zip is refused with one sentence that
says why (``ValueError``), and names no path of the server's beyond the folders its operator offers.

The server reads only the folders its operator names: the environment variable ``RM_ATLAS_FOLDERS`` (folders
separated by ``os.pathsep``, read when the page draws its choice), each of them a sweep's results folder or a folder of
such folders; without it, the ``atlas-results`` folder of the app's own checkout (``python -m rmcore atlas``'s
results). A visitor picks one by its name (the offered folder's own name, then the sweep folder's inside it); nothing a
visitor sends is read as a path.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import tempfile
import warnings
import zipfile
from pathlib import Path

import pandas as pd

from rmcore.atlas import GAPS, has_gaps
from rmcore.sweep import MAX_RESULT_FILES, RESULT_COLUMNS, ResultFileWarning, read_results

#: The page shows the files it leaves out itself (the table's ``attrs["skipped"]``), not in the server's log.
warnings.filterwarnings("ignore", category=ResultFileWarning, module=re.escape(__name__))

#: The app's checkout (this file is ui/atlas/data.py in it).
CHECKOUT = Path(__file__).resolve().parents[2]
#: The atlas's data file, written by ``python -m rmcore atlas``.
SHIPPED = CHECKOUT / "docs" / "performance" / "atlas.parquet"
#: The environment variable that names the results folders the page may read.
FOLDERS_VARIABLE = "RM_ATLAS_FOLDERS"
#: What the page may read without it: the atlas's results folder in the checkout (``python -m rmcore atlas --out``'s
#: default).
DEFAULT_FOLDERS = (CHECKOUT / "atlas-results",)
#: Most sweep folders offered inside one named folder (the first, by name).
MAX_OFFERED = 200
#: The largest zip accepted, in megabytes (a sweep's file is a few kB to a few MB); the most its result files may
#: unpack to, each and in all (counted as they unpack, whatever the zip declares); the most its central directory may
#: take (every member costs the reader a record before anything is unpacked: a limit of 8 MB is some 40,000 members).
ZIP_MEGABYTES = 200
MEMBER_MEGABYTES = 100
UNZIPPED_MEGABYTES = 500
CENTRAL_DIRECTORY_MEGABYTES = 8
#: A Parquet file's first four bytes.
PARQUET_MAGIC = b"PAR1"
_CHUNK = 2**20
#: The nash_conv targets the ranking offers.
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


def allowed_folders() -> tuple[Path, ...]:
    """The folders the operator lets the page read (``RM_ATLAS_FOLDERS``, or :data:`DEFAULT_FOLDERS`)."""
    given = os.environ.get(FOLDERS_VARIABLE)
    if given is None:
        return DEFAULT_FOLDERS
    return tuple(Path(entry.strip()).expanduser() for entry in given.split(os.pathsep) if entry.strip())


def _holds_results(folder: Path) -> bool:
    try:
        return any(path.is_file() for path in folder.glob("*.parquet"))
    except OSError:
        return False


def offered() -> dict[str, Path]:
    """The results folders a visitor may load, by the names the page shows: each allowed folder that holds result
    files, by its own name, and each folder directly inside one that does, as ``allowed/inside``."""
    found: dict[str, Path] = {}

    def offer(label: str, path: Path) -> None:
        if label in found:  # two allowed folders of one name: the second is told apart by its number
            label = next(f"{label} ({k})" for k in range(2, len(found) + 3) if f"{label} ({k})" not in found)
        found[label] = path

    for root in allowed_folders():
        if not root.is_dir():
            continue
        name = root.name or "results"
        if _holds_results(root):
            offer(name, root)
        try:
            inside = sorted(path for path in root.iterdir() if path.is_dir() and not path.name.startswith("."))
        except OSError:
            continue
        for path in [path for path in inside if _holds_results(path)][:MAX_OFFERED]:
            offer(f"{name}/{path.name}", path)
    return found


def folder(name: str) -> pd.DataFrame:
    """The results in one of the :func:`offered` folders, by its name; ``ValueError`` for any other name (a path
    typed or sent is never read)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("choose one of the results folders this server offers")
    path = offered().get(name.strip())
    if path is None:
        raise ValueError(f"{name.strip()!r} is not one of the results folders this server offers")
    files = sorted(p for p in path.glob("*.parquet") if p.is_file())
    if len(files) > MAX_RESULT_FILES:
        raise ValueError(f"{name} holds {len(files):,} result files; at most {MAX_RESULT_FILES:,} are read")
    if not files:
        raise ValueError(f"{name} holds no sweep result files (*.parquet, written by python -m rmcore sweep)")
    return _read(files, name, ())


def _central_directory_bytes(data: bytes) -> int:
    """The size of a zip's central directory, as its end record declares it (the zip64 record's where there is one);
    0 when there is no end record (``zipfile`` then says it is not a zip)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or end + 22 > len(data):
        return 0
    size = int.from_bytes(data[end + 12 : end + 16], "little")
    record = end - 20 - 56  # the zip64 end record, just before its locator, just before the end record
    if data[end - 20 : end - 16] == b"PK\x06\x07" and record >= 0 and data[record : record + 4] == b"PK\x06\x06":
        size = max(size, int.from_bytes(data[record + 40 : record + 48], "little"))
    return size


def unzipped(data: bytes, name: str = "the zip") -> pd.DataFrame:
    """The results in a zip of a sweep folder: its ``.parquet`` files, in any folder of the archive, unpacked into a
    temporary folder (names are flattened: nothing is written outside it) and read from there.

    Before anything is unpacked: the zip's size, its central directory's and its result files' count are bounded, and
    a member that does not start as a Parquet file does is left out (and named). While unpacking, each member is
    streamed to disk, its bytes counted as they come: one that passes :data:`MEMBER_MEGABYTES`, or all together
    :data:`UNZIPPED_MEGABYTES`, stops the unpacking and refuses the zip, whatever sizes the zip declares.
    """
    if len(data) > ZIP_MEGABYTES * 2**20:
        raise ValueError(f"{name} is {len(data) / 2**20:,.0f} MB; at most {ZIP_MEGABYTES} MB is read")
    if _central_directory_bytes(data) > CENTRAL_DIRECTORY_MEGABYTES * 2**20:
        raise ValueError(f"{name} lists more files than a sweep folder holds; at most {MAX_RESULT_FILES:,} are read")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        raise ValueError(f"{name} is not a zip file") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir() and m.filename.endswith(".parquet")]
        members = [m for m in members if not Path(m.filename).name.startswith(".")]
        if not members:
            raise ValueError(f"{name} holds no sweep result files (*.parquet, written by python -m rmcore sweep)")
        if len(members) > MAX_RESULT_FILES:
            raise ValueError(f"{name} holds {len(members):,} result files; at most {MAX_RESULT_FILES:,} are read")
        names = [Path(m.filename).name for m in members]
        if len(set(names)) != len(names):
            raise ValueError(f"{name} holds two result files of the same name: one sweep folder per zip")
        with tempfile.TemporaryDirectory(prefix="rmcore-atlas-") as folder:
            written, refused, total = [], [], 0
            for member, file_name in zip(members, names):
                target = Path(folder) / file_name
                try:
                    with archive.open(member) as source:
                        head = source.read(len(PARQUET_MAGIC))
                        if head != PARQUET_MAGIC:
                            refused.append(f"{file_name} is not a sweep result file (not a Parquet file)")
                            continue
                        total = _stream(source, head, target, total, file_name, name)
                except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as error:
                    # (an OSError's own text names the temporary file: a path of the server's)
                    reason = error.strerror if isinstance(error, OSError) and error.strerror else error
                    raise ValueError(f"{file_name} in {name} could not be unpacked ({reason})") from None
                written.append(target)
            return _read(written, name, tuple(refused))


def _stream(source, head: bytes, target: Path, total: int, file_name: str, name: str) -> int:
    """Copy one member to ``target`` a chunk at a time, counting the bytes it unpacks to; the zip's running total."""
    size = len(head)
    with open(target, "wb") as out:
        out.write(head)
        while chunk := source.read(_CHUNK):
            size += len(chunk)
            if size > MEMBER_MEGABYTES * 2**20:
                raise ValueError(f"{file_name} in {name} unpacks to more than {MEMBER_MEGABYTES} MB: not a result file")
            if total + size > UNZIPPED_MEGABYTES * 2**20:
                raise ValueError(f"{name} unpacks to more than {UNZIPPED_MEGABYTES:,} MB")
            out.write(chunk)
    return total + size


def _read(files: list[Path], source: str, refused: tuple[str, ...]) -> pd.DataFrame:
    """The results of ``files`` (each a file of the source), the bad ones left out and named in ``attrs["skipped"]``
    (with ``refused``, those left out before)."""
    if not files:
        raise ValueError("; ".join(refused[:5]) + (f"; and {len(refused) - 5:,} more" if len(refused) > 5 else ""))
    frame = _checked(read_results(files, skip_bad=True), source)
    frame.attrs["skipped"] = refused + tuple(frame.attrs.get("skipped", ()))
    return frame


def _checked(frame: pd.DataFrame, source: str) -> pd.DataFrame:
    """A results table the page can show: the columns of ``rmcore.read_results``, at least one finished run. An atlas
    data file written without the CE and CCE gap columns (and ``zero_sum``) reads with them empty, as runs that kept
    no gaps."""
    for column in GAP_MEASURES:
        if column not in frame.columns:
            frame[column] = math.nan
    if "zero_sum" not in frame.columns:
        frame["zero_sum"] = pd.array([None] * len(frame), dtype="boolean")
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


#: What the page plots and ranks first, in every game: the number the game's own page shows for the same run.
MEASURE = "nash_conv"
#: The measures of the joint distribution of play, which a general-sum matrix game's runs also hold, by their names.
GAP_MEASURES = GAPS
#: Every measure the page may offer, by the name it shows.
MEASURES = {MEASURE: "NashConv", **GAP_MEASURES}


def measures(frame: pd.DataFrame) -> dict[str, str]:
    """The measures one game's runs hold, column -> name: NashConv always; the CE and CCE gaps for a general-sum
    matrix game (``rmcore.atlas.has_gaps``)."""
    return dict(MEASURES) if has_gaps(frame) else {MEASURE: MEASURES[MEASURE]}


def ranking(frame: pd.DataFrame, target: float, iterate: str = "average", measure: str = MEASURE) -> pd.DataFrame:
    """A row per run of one game: the first checkpoint at which its ``measure`` (NashConv of the average, or of the
    ``"last"`` iterate; a gap of the joint distribution of play, which has no last iterate) is at most ``target``, in
    iterations and in seconds (the solver's time up to it); NaN if never. The runs are in the order of the fewest
    iterations; ``rank by seconds`` says their order by time."""
    if measure not in MEASURES:
        raise ValueError(f"the atlas ranks by {', '.join(MEASURES)}; got {measure!r}")
    if iterate not in ("average", "last"):
        raise ValueError(f"iterate is 'average' or 'last'; got {iterate!r}")
    column = measure
    if iterate == "last" and measure == MEASURE:
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
