"""The atlas: every algorithm rmcore ships on every game it ships, as one grid (``atlas.toml``), one data file and one
table per game.

The grid runs every tree variant (``rmcore.CFR_ALGORITHMS``) on Kuhn poker, Leduc hold'em, Liar's dice (3, 4 and 6
sides) and Goofspiel (4 and 5 cards), and every matrix rule (``rmcore.ALGORITHMS``) on seven zero-sum matrix games and
the three general-sum games of the correlated-equilibrium lessons (Shapley's game, Aumann's Chicken, Battle of the
sexes), each with its defaults, to 10,000 iterations (``quick``: 1,000 and one seed). :func:`tables` reads the results
back as one table per game: the NashConv of the average and of the current policy (the last iterate) at 10, 100, 1,000
and 10,000 iterations (the measure the pages show, in both families), for a general-sum game the CE and CCE gaps of the
joint distribution of play at the same iterations (:data:`GAPS`), and the time per iteration; sampled variants give the
median over their seeds. :func:`markdown` writes them as ``docs/performance/atlas.md``, the best of each column in
bold; the figures it shows are drawn from the same data file by the dashboard's figure builders
(``python -m ui.atlas.report``), since this library draws nothing.

>>> grid = atlas_grid(quick=True)
>>> sorted({cell.spec["game"]["name"] for cell in grid.cells if cell.family == "tree"})
['goofspiel', 'kuhn', 'leduc', 'liars_dice']
>>> grid.cells[0].spec["iterations"], grid.cells[0].spec["checkpoints"][-4:]
(1000, [422, 562, 750, 1000])
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .sweep import Grid, machine, read_grid, versions

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ATLAS_GRID",
    "GAPS",
    "TABLE_ITERATIONS",
    "atlas_grid",
    "tables",
    "markdown",
    "figure_name",
    "has_gaps",
    "write_data",
]

#: The atlas's grid, shipped with the library.
ATLAS_GRID = Path(__file__).with_name("atlas.toml")
#: The iterations the tables show (those the grid reaches).
TABLE_ITERATIONS = (10, 100, 1_000, 10_000)
#: The quick atlas: the same games and algorithms, fewer iterations and one seed (minutes rather than a quarter hour).
QUICK = {"iterations": 1_000, "seeds": [0]}
#: The measures of the joint distribution of play, a general-sum matrix game's (the results' columns), by the names the
#: tables give them: ``rmcore.ce_gap`` and ``rmcore.cce_gap`` of the empirical joint distribution.
GAPS = {"ce_gap": "CE gap", "cce_gap": "CCE gap"}
#: The data file's metadata key (the run's description: command, machine, versions, date, timings).
DATA_KEY = b"rmcore-atlas"


def atlas_grid(quick: bool = False) -> Grid:
    """The atlas's grid (``quick``: 1,000 iterations, one seed)."""
    grid = read_grid(ATLAS_GRID)
    return grid.with_settings(**QUICK) if quick else grid


def figure_name(game: str, measure: str = "nash_conv") -> str:
    """The file name (without folder) of a game's figure of ``measure``, from its label in the results
    (``liars_dice(sides=6)`` -> ``liars_dice_sides_6.svg``; its CE gap's: ``shapley_ce_gap.svg``)."""
    suffix = "" if measure == "nash_conv" else "_" + measure
    return re.sub(r"[^a-z0-9]+", "_", game.lower()).strip("_") + suffix + ".svg"


def has_gaps(frame: pd.DataFrame) -> bool:
    """Whether ``frame``'s finished runs (of one game) are of a general-sum matrix game and hold its CE and CCE gaps.

    A zero-sum game is left out even where a rule kept the joint distribution (swap-rm and internal-rm keep it in
    every game): in a two-player zero-sum game the marginals of every coarse correlated equilibrium form a Nash
    equilibrium, and the CCE gap of expected play is the NashConv of its average strategies (unless a player's regret
    is negative), so NashConv already measures it there.
    """
    done = frame[frame.status == "done"]
    general = (done.family == "matrix") & (done.zero_sum == False)  # noqa: E712 - (a missing zero_sum is not False)
    return bool(general.any()) and all(done.loc[general, column].notna().any() for column in GAPS)


def _reached(curve: pd.DataFrame, iteration: int, column: str) -> float:
    """The value of ``column`` at ``iteration`` exactly (NaN if that checkpoint is not in the curve)."""
    row = curve[curve.iteration == iteration]
    return float(row[column].iloc[0]) if len(row) else math.nan


def tables(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """One table per game (in the order the games first appear), a row per algorithm (its label): the
    NashConv of the average (``average {n}``) and of the current policy (``last {n}``) at each of
    :data:`TABLE_ITERATIONS` the runs reached, for a game whose runs hold them (:func:`has_gaps`) the CE and CCE gaps
    of the joint distribution of play there (``CE gap {n}``, ``CCE gap {n}``), and the seconds per iteration; the
    median over seeds for a sampled variant (``seeds`` says how many). Failed cells are left out (``errors`` lists
    them)."""
    import pandas as pd

    done = frame[frame.status == "done"]
    reached = [n for n in TABLE_ITERATIONS if n <= (done.iteration.max() if len(done) else 0)]
    out = {}
    for game in dict.fromkeys(frame.game):
        rows = []
        of_game = done[done.game == game]
        measures = [("average", "nash_conv"), ("last", "nash_conv_current")]
        if has_gaps(of_game):
            measures += [(name, column) for column, name in GAPS.items()]
        for label in dict.fromkeys(of_game.label):
            runs = of_game[of_game.label == label]
            row = {"algorithm": label, "family": runs.family.iloc[0], "seeds": runs.cell.nunique()}
            per_seed = [curve for _, curve in runs.groupby("cell", sort=False)]
            for kind, column in measures:
                for n in reached:
                    row[f"{kind} {n}"] = float(np.median([_reached(curve, n, column) for curve in per_seed]))
            row["seconds per iteration"] = float(np.median([curve.seconds_per_iteration.iloc[0] for curve in per_seed]))
            rows.append(row)
        out[game] = pd.DataFrame(rows)
    return out


def _number(value: float) -> str:
    if not math.isfinite(value):
        return "–"
    return "0" if value == 0 else f"{value:.2e}"


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def _seeds(count: int) -> str:
    return "one seed" if count == 1 else f"{count} seeds, the median shown,"


def _this_run(about: dict) -> str:
    if not about["ran"]:
        return "the command found every run finished in its results folder and drew the tables again"
    return (
        f"the command ran {about['ran']} of them in {about['run_seconds'] / 60:.1f} minutes (wall time) on "
        f"{about['workers']}"
    )


def markdown(frame: pd.DataFrame, about: dict) -> str:
    """The atlas page: a header (the command, the machine, the versions, the date), then per game its figure and its
    table, the best (lowest) value of each column in bold, and the cells that failed."""
    lines = [
        "<!-- Generated by `python -m rmcore atlas`: do not edit; run it again. -->",
        "",
        f"Generated by `{about['command']}` on {about['date']}: {about['cells']} runs of up to "
        f"{about['iterations']:,} iterations ({_seeds(about['seeds'])} for each sampled variant), on "
        f"{about['machine']['processor']} ({about['machine']['cores']} cores), rmcore {about['versions']['rmcore']}, "
        f"numba {about['versions']['numba']}, Python {about['versions']['python']}. The runs took "
        f"{about['solver_seconds'] / 60:.1f} minutes of solver time ({about['wall_seconds'] / 60:.1f} minutes of "
        f"workers' time with the metrics); {_this_run(about)}.",
        "",
        "Each row is one algorithm with its defaults. *average n* is the NashConv of the average policy after n "
        "iterations (the sum of the players' best-response gains: twice the exploitability of a two-player zero-sum "
        "game), *last n* that of the current policy (the last iterate); the time per iteration leaves the metrics out. "
        "The lowest value of each column is in bold. The figures draw every checkpoint (solid: average; dashed: last "
        "iterate); `python -m ui.atlas.report` draws them from the data file, `atlas.parquet` (a row per run and "
        "checkpoint, `rmcore.read_results`'s columns).",
        "",
        "A general-sum game has a second table: *CE gap n* and *CCE gap n* are the gaps of the joint distribution of "
        "play after n iterations (`rmcore.ce_gap`, `rmcore.cce_gap`: the sum over the players of what the best switch "
        "away from each recommended action, or the best single action played whatever is recommended, would gain), "
        "drawn in two more figures; NashConv there is that of the average strategies, the marginals of that "
        "distribution. The zero-sum games have no such table: in a two-player zero-sum game the marginals of every "
        "coarse correlated equilibrium form a Nash equilibrium, and the CCE gap of expected play equals the NashConv "
        "of its average strategies whenever neither player's regret is negative, so NashConv already says how far "
        "the play is.",
        "",
    ]
    for game, table in tables(frame).items():
        title = frame[frame.game == game].game_title.iloc[0]
        lines += [f"### {title}", "", f"![{title}: NashConv against iterations](atlas/{figure_name(game)})", ""]
        if table.empty:
            lines += ["Every run of this game failed (see below).", ""]
            continue
        numbers = [c for c in table.columns if c.startswith(("average ", "last ")) or c == "seconds per iteration"]
        lines += _table(table, numbers)
        gaps = [c for c in table.columns if c.startswith(tuple(f"{name} " for name in GAPS.values()))]
        if gaps:
            lines += [
                "The joint distribution of play:",
                "",
                *(f"![{title}: {name} against iterations](atlas/{figure_name(game, m)})" for m, name in GAPS.items()),
                "",
                *_table(table, gaps),
            ]
    failed = frame[frame.status == "failed"]
    if len(failed):
        lines += ["### Runs that failed", ""]
        lines += [f"- {name}: {error}" for name, error in zip(failed.name, failed.error)]
        lines.append("")
    return "\n".join(lines)


def _table(table: pd.DataFrame, numbers: list[str]) -> list[str]:
    """The lines of a Markdown table of ``numbers`` (columns of ``table``), a row per algorithm, the lowest value of
    each column in bold."""
    header = ["algorithm", *(c if c != "seconds per iteration" else "time per iteration" for c in numbers)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    best = {c: table[c].min(skipna=True) for c in numbers}
    for _, row in table.iterrows():
        cells = [row["algorithm"] + (f" (median of {row['seeds']} seeds)" if row["seeds"] > 1 else "")]
        for c in numbers:
            text = _duration(row[c]) if c == "seconds per iteration" else _number(row[c])
            cells.append(f"**{text}**" if math.isfinite(row[c]) and row[c] == best[c] else text)
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def about_run(frame: pd.DataFrame, command: str, report, workers: str) -> dict:
    """The run's description for the page's header and the data file: the command, this machine, the versions, the
    date, and the timings (the cells' solver and wall seconds from their files; this run's from ``report``)."""
    per_cell = frame.drop_duplicates("cell")
    seeds = [json.loads(spec)["seed"] for spec in per_cell.spec]
    return {
        "command": command,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "versions": versions(),
        "cells": len(per_cell),
        "iterations": int(frame.iteration.max()) if len(frame) else 0,
        "seeds": len({s for s in seeds if s is not None}) or 1,
        "solver_seconds": float(frame.groupby("cell").seconds.max().sum()) if len(frame) else 0.0,
        "wall_seconds": float(per_cell.wall_seconds.sum()),
        "ran": report.ran,
        "run_seconds": report.seconds,
        "workers": workers,
    }


def write_data(frame: pd.DataFrame, about: dict, path) -> Path:
    """The data file: the results table as Parquet (exact numbers), the run's description in its metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    metadata = dict(table.schema.metadata or {})
    metadata[DATA_KEY] = json.dumps(about).encode()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table.replace_schema_metadata(metadata), path)
    return path
