"""Result files: one Parquet table per cell, with its metadata (the cell, the versions, the timings) and a digest of
its data."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .grid import Cell

if TYPE_CHECKING:
    import pandas as pd


#: The result files' format, in their metadata under ``METADATA_KEY``.
FORMAT = "rmcore-sweep/1"
METADATA_KEY = b"rmcore-sweep"
#: The version of a result table's columns, in the metadata under ``"schema"`` (a file without one is of schema 1).
#: Schema 3: every history's metric columns, the same in both families (``rmcore.solver.METRIC_COLUMNS``), among them
#: ``ce_gap``, ``internal_regret`` and ``internal_regret_bound``, and ``cce_gap`` as the sum over the players of the
#: joint distribution's gaps. Schema 2: the same without those three, and ``cce_gap`` the larger player's average
#: external regret. Schema 1: a game tree's file held ``exploitability`` and ``exploitability_current`` (half of
#: ``nash_conv`` and ``nash_conv_current``) beside ``nash_conv``; a matrix game's held ``nash_conv`` and
#: ``nash_conv_current``. :func:`read_results` reads all three. A game of n >= 3 players adds its players' own columns
#: after those of schema 3 (``average_regret_3``, ``regret_bound_3``, ``br_gain_3``, ... up to player n, as its
#: ``history()`` orders them): columns added, none changed, so the schema stays 3 and every reader of it reads them.
SCHEMA = 3


class CellResult(NamedTuple):
    """What a cell's run produced: its table's columns (``iteration`` and the metrics, arrays of one length) and its
    metadata (see the package's docstring)."""

    columns: dict
    meta: dict


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "sweep result files are Parquet: install pyarrow (pip install -r requirements.txt)"
        ) from None
    return pa, pq


def data_digest(table) -> str:
    """The SHA-256 of a result table's data (a ``pyarrow.Table``): each column's name, type and values, in order.

    A sweep writes it into the file's metadata (``data_sha256``); reading the file computes it again, so a file
    damaged inside its data (its footer, and so its metadata, intact) is found, not read as numbers.
    """
    digest = hashlib.sha256()
    for name, column in zip(table.column_names, table.columns):
        digest.update(json.dumps([name, str(column.type)]).encode())
        values = column.to_numpy()
        if values.dtype.kind in "biuf":
            digest.update(np.ascontiguousarray(values).tobytes())
        else:  # (text, or anything else a policies table may hold: digested as its JSON)
            digest.update(json.dumps([None if v is None else str(v) for v in values.tolist()]).encode())
    return digest.hexdigest()


def write_cell(folder, result: CellResult, file_name: str) -> Path:
    """Write a cell's result file into ``folder`` atomically: a temporary file in the same folder, flushed to disk,
    then renamed over the final name (``os.replace``), so a reader never sees half a file. The metadata holds the
    table's :func:`data_digest`. The file's mode is the usual one for a new file (``0o666`` less the umask: ``0644``
    under a umask of 022)."""
    pa, pq = _pyarrow()
    folder = Path(folder)
    table = pa.table({name: pa.array(values) for name, values in result.columns.items()})
    meta = {**result.meta, "data_sha256": data_digest(table)}
    table = table.replace_schema_metadata({METADATA_KEY: json.dumps(meta).encode()})
    # os.open rather than tempfile.mkstemp, whose files are private (0600) whatever the umask.
    temporary = folder / f".{file_name}.{secrets.token_hex(6)}.part"
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            pq.write_table(table, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, folder / file_name)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return folder / file_name


#: Most values (rows times columns, as its footer declares them) of a result file that is read: a Parquet file of a
#: few kB can declare a billion rows of one repeated value, and reading it would take gigabytes.
MAX_RESULT_VALUES = 200_000_000


def _open(path: Path, max_values: int | None = MAX_RESULT_VALUES):
    """A result file's metadata and its table (a ``pyarrow.Table``), checked: ``ValueError`` naming the file and
    what is wrong with it (not Parquet, not a sweep's, larger than ``max_values``, damaged)."""
    _, pq = _pyarrow()
    name = path.name
    if not path.is_file():
        raise ValueError(f"{name}: no such file")
    try:
        parquet = pq.ParquetFile(path)
    except Exception:  # noqa: BLE001 - anything pyarrow cannot open as Parquet
        raise ValueError(f"{name} is not a sweep result file (not a Parquet file)") from None
    try:
        try:
            meta = json.loads((parquet.schema_arrow.metadata or {})[METADATA_KEY])
        except Exception:  # noqa: BLE001 - no such key, or not JSON
            meta = None
        if (
            not isinstance(meta, dict)
            or meta.get("format") != FORMAT
            or not isinstance(meta.get("id"), str)
            or not isinstance(meta.get("name"), str)
            or not isinstance(meta.get("cell"), dict)
        ):
            raise ValueError(f"{name} is not a sweep result file (a Parquet file with rmcore-sweep metadata)")
        schema = meta.get("schema", 1)
        if isinstance(schema, bool) or schema not in range(1, SCHEMA + 1):
            raise ValueError(f"{name} is a sweep result file of schema {schema!r}; this rmcore reads 1 to {SCHEMA}")
        values = parquet.metadata.num_rows * parquet.metadata.num_columns
        if max_values is not None and values > max_values:
            raise ValueError(f"{name} declares {values:,} values; a result file read here holds at most {max_values:,}")
        try:
            table = parquet.read()
        except Exception as error:  # noqa: BLE001 - a damaged page: pyarrow's errors have many types
            raise ValueError(f"{name} is damaged: its data cannot be read ({type(error).__name__})") from None
    finally:
        parquet.close()
    expected = meta.get("data_sha256")
    # (a file without a digest is one of format 1's first files: read as it is, since its data did read)
    if expected is not None and data_digest(table) != expected:
        raise ValueError(f"{name} is damaged: its data do not match the digest the sweep wrote with them")
    return meta, table


class CellFile(NamedTuple):
    """A result file read back: its metadata and its table (a DataFrame, a row per checkpoint)."""

    meta: dict
    frame: pd.DataFrame


def read_cell(path) -> CellFile:
    """A result file, its data checked against the digest in its metadata; ``ValueError`` naming the file if it is
    not one or is damaged."""
    meta, table = _open(Path(path))
    return CellFile(meta, table.to_pandas())


def finished(folder, cell: Cell) -> dict | None:
    """The metadata of the cell's result file in ``folder`` if it is there, whole and its data match their digest;
    else None (the cell runs again)."""
    path = Path(folder) / cell.file_name
    if not path.is_file():
        return None
    try:
        meta, _ = _open(path, max_values=None)
    except ValueError:
        return None
    return meta if meta.get("id") == cell.id else None
