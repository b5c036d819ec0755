"""Reading a folder of result files into one table, refusing (or leaving out) the files that are not results."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .files import _open
from .grid import algorithm_label, game_label

if TYPE_CHECKING:
    import pandas as pd

#: Most result files :func:`read_results` reads from a folder.
MAX_RESULT_FILES = 20_000


def result_files(folder) -> list[Path]:
    """The result files in ``folder``; ``ValueError`` saying why a folder is not a sweep's."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder")
    files = sorted(path for path in folder.glob("*.parquet") if path.is_file())
    if not files:
        raise ValueError(f"{folder} holds no sweep result files (*.parquet, written by python -m rmcore sweep)")
    if len(files) > MAX_RESULT_FILES:
        raise ValueError(f"{folder} holds {len(files):,} result files; at most {MAX_RESULT_FILES:,} are read")
    return files


#: The columns of :func:`read_results`, in order.
RESULT_COLUMNS = (
    "cell",
    "name",
    "status",
    "error",
    "family",
    "game",
    "game_title",
    "zero_sum",
    "algorithm",
    "label",
    "seed",
    "iteration",
    "nash_conv",
    "nash_conv_current",
    "ce_gap",
    "cce_gap",
    "seconds",
    "seconds_per_iteration",
    "wall_seconds",
    "spec",
)


class ResultFileWarning(UserWarning):
    """A file that :func:`read_results` left out (``skip_bad=True``): its message names the file and what is wrong."""


#: How many bad files a message names one by one (the rest are counted).
_NAMED_FILES = 5


def read_results(source, ids=None, *, skip_bad: bool = False) -> pd.DataFrame:
    """Every result of a sweep as one table, a row per cell and checkpoint (:data:`RESULT_COLUMNS`).

    Parameters
    ----------
    source : path or list of paths
        A results folder (its ``*.parquet`` files) or a list of result files (cells in the order of their names).
    ids : iterable of str, optional
        Keep only those cells, in this order (a grid's: ``[cell.id for cell in grid.cells]``).
    skip_bad : bool
        What to do with a file that is not a readable result file (not Parquet, not a sweep's, or damaged: its data
        do not match the digest the sweep wrote in its metadata). ``False`` (the default): refuse, with a
        ``ValueError`` that names every such file and what is wrong with it. ``True``: leave each out with a
        :class:`ResultFileWarning` that names it; the table's ``attrs["skipped"]`` lists the same messages. A source
        with no readable file at all is refused either way.

    Returns
    -------
    pandas.DataFrame
        ``nash_conv`` and ``nash_conv_current`` are the NashConv of the average and of the current policy, in
        either family, of any number of players, and in files of every :data:`SCHEMA` (a two-player zero-sum game's
        exploitability is half of each); ``ce_gap`` and ``cce_gap`` are the CE and CCE gaps of the joint distribution
        of play (``rmcore.ce_gap``, ``rmcore.cce_gap``; summed over the players) in files of schema 3 on, wherever the
        run kept that distribution (a general-sum matrix game's runs, of two players or more, and swap-rm's and
        internal-rm's in every matrix game), NaN elsewhere (a file of schema 1 or 2 held another ``cce_gap``, the
        larger player's average external regret, which is not read as this one); ``zero_sum`` says whether the game
        is zero-sum (missing for a failed cell); ``seconds`` is the solver's time up to the checkpoint (the metrics'
        time left out). A failed cell is one row with its error and no numbers. A game's per-player columns
        (``br_gain_1``, ... of any number of players) are in its cell's file, read by :func:`read_cell`.
    """
    import pandas as pd

    if not isinstance(skip_bad, bool):
        raise TypeError(f"skip_bad must be True or False; got {skip_bad!r}")
    files = result_files(source) if isinstance(source, (str, os.PathLike)) else [Path(p) for p in source]
    order = None if ids is None else {cell_id: k for k, cell_id in enumerate(ids)}
    frames, bad = [], []
    for path in files:
        try:
            meta, table = _open(path)
        except ValueError as error:
            bad.append(str(error))
            continue
        if order is not None and meta.get("id") not in order:
            continue
        frames.append((order[meta["id"]] if order is not None else meta["name"], _result_rows(meta, table.to_pandas())))
    if bad and (not skip_bad or len(bad) == len(files)):
        named = "; ".join(bad[:_NAMED_FILES])
        if len(bad) > _NAMED_FILES:
            named += f"; and {len(bad) - _NAMED_FILES:,} more"
        if len(bad) == len(files):
            raise ValueError(named if len(bad) == 1 else f"no file is a readable sweep result file: {named}")
        raise ValueError(
            (named if len(bad) == 1 else f"{len(bad):,} of the {len(files):,} files are not readable: {named}")
            + " (python -m rmcore sweep runs a damaged cell again; skip_bad=True leaves such files out)"
        )
    for message in bad:
        warnings.warn(message, ResultFileWarning, stacklevel=2)
    if not frames:
        out = pd.DataFrame({name: [] for name in RESULT_COLUMNS})
    else:
        frames.sort(key=lambda pair: pair[0])
        out = pd.concat([frame for _, frame in frames], ignore_index=True)[list(RESULT_COLUMNS)]
    out.attrs["skipped"] = tuple(bad)
    return out


def _result_rows(meta: dict, frame: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    spec = meta["cell"]
    algorithm = spec["algorithm"]
    family = "tree" if "tree" in algorithm else "matrix"
    count = len(frame)
    rows = {
        "iteration": frame["iteration"].to_numpy(dtype=np.int64) if count else np.zeros(1, dtype=np.int64),
    }
    nan = np.full(max(count, 1), np.nan)
    if count:
        rows["nash_conv"] = frame["nash_conv"].to_numpy()
        if meta.get("schema", 1) == 1 and family == "tree":  # (it kept the current policy's exploitability: half)
            rows["nash_conv_current"] = 2.0 * frame["exploitability_current"].to_numpy()
        else:
            rows["nash_conv_current"] = frame["nash_conv_current"].to_numpy()
        for name in ("ce_gap", "cce_gap"):
            held = meta.get("schema", 1) >= 3 and name in frame.columns
            rows[name] = frame[name].to_numpy(dtype=float) if held else nan
        rows["seconds"] = np.asarray(meta["checkpoint_seconds"], dtype=float)
    else:
        for name in ("nash_conv", "nash_conv_current", "ce_gap", "cce_gap", "seconds"):
            rows[name] = nan
    size = max(count, 1)
    out = pd.DataFrame(rows)
    out.insert(0, "cell", meta["id"])
    out["name"] = meta["name"]
    out["status"] = meta.get("status", "done")
    out["error"] = meta.get("error") or ""
    out["family"] = family
    out["game"] = game_label(spec["game"])
    out["game_title"] = meta.get("game_title") or game_label(spec["game"])
    out["zero_sum"] = pd.array([meta.get("zero_sum")] * size, dtype="boolean")
    out["algorithm"] = algorithm.get("tree", algorithm.get("matrix"))
    out["label"] = meta.get("label") or algorithm_label(algorithm)
    out["seed"] = pd.array([spec["seed"]] * size, dtype="Int64")
    out["seconds_per_iteration"] = meta.get("seconds_per_iteration", np.nan)
    out["wall_seconds"] = meta.get("wall_seconds", np.nan)
    out["spec"] = json.dumps(spec, sort_keys=True)
    return out
