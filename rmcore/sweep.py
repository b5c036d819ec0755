"""Sweeps: a grid of runs (games x algorithms x seeds) on Dask distributed, one Parquet result file per cell.

A research question is rarely one run: it is a table of algorithms x games x parameters x seeds. A *grid* names them
(a TOML file, or the same as a dict); every combination is a *cell*, run to the grid's iterations with the metrics
recorded at its checkpoints:

* games: the tree catalogue's (``rmcore.TREE_GAMES``) and the matrix presets (``rmcore.PRESETS``) by name with their
  parameters, and Gambit ``.efg`` (trees) and ``.nfg`` (matrix games) files;
* algorithms: a tree variant (``rmcore.CFR_ALGORITHMS``) or a matrix rule (``rmcore.ALGORITHMS``) by name with its
  parameters, or ``"all"`` of a catalogue (read when the grid is read, so a new variant joins every grid that asks
  for all); each runs on every game of its family;
* seeds: a sampled variant (chance and Monte Carlo CFR, sampled regret matching) runs once per seed, the others once;
* iterations and checkpoints: the metrics of the average and of the current policy (the last iterate) are computed at
  fixed iterations, so a cell's rows never depend on how fast it ran.

:func:`run_sweep` runs the cells that have no result file yet, on a Dask cluster (by default a ``LocalCluster`` of one
single-threaded worker process per core; the workers import rmcore from the same checkout, so numba's disk cache of
compiled kernels is shared) or, with ``workers=0``, one after another in this process. Each finished cell is written
at once, atomically (a temporary file, then ``os.replace``), by the process that called :func:`run_sweep`: a worker that
dies loses only the cell it was running, which the scheduler runs again elsewhere. A cell is deterministic (fixed
seeds, fixed checkpoints, and runs that any split into chunks leaves bit for bit the same), so the files of a sweep
are those of a serial run. A cell that fails (a parameter the library refuses, a game over the size cap) is written
with its error, and the sweep goes on. Interrupted (Ctrl-C, ``KeyboardInterrupt``), a sweep ends the local cluster's
workers at once and quietly (they ignore SIGINT themselves: only this process answers it), and running it again goes on
from the files written.

A result file is one table, a row per checkpoint: ``iteration`` and every metric of the solver's ``history()``
(with ``policies = true`` also the policies and regrets of :meth:`rmcore.History.to_frame`). Its Parquet metadata
(key ``rmcore-sweep``) holds the cell as data, its status and error, the command that runs it again, the versions,
the machine, the wall time, the solver's seconds at each checkpoint and the time per iteration (the metrics' time
left out), and a digest of the table's data (:func:`data_digest`): a file that does not read whole, or whose data do
not match it, is not done, and runs again. Timings live in the metadata, so the table itself is what a rerun
reproduces. :func:`read_results` refuses a folder holding a file that is not a readable result file, naming each such
file, or leaves them out with a warning (``skip_bad=True``).

>>> grid = {
...     "iterations": 100,
...     "checkpoints": [10, 100],
...     "games": [{"game": "kuhn"}, {"game": "rps-crash"}],
...     "algorithms": [{"tree": "cfr+"}, {"matrix": "prm+"}],
... }
>>> [cell.name for cell in parse_grid(grid).cells]
['kuhn · cfr+ · alternating', 'rps-crash · prm+ · expected · simultaneous · uniform']
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     report = run_sweep(grid, folder, workers=0)
...     curves = read_results(folder)
>>> report.ran, report.failed
(2, ())
>>> curves[curves.algorithm == "cfr+"].nash_conv.round(4).tolist()
[0.0654, 0.0024]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import platform
import re
import secrets
import signal
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import config
from ._deprecated import getattr_for, warn
from .matrix.games import PRESETS, MatrixGame, preset
from .matrix.solver import ALGORITHMS, MatrixSolver, MatrixVariant
from .trees.catalogue import TREE_GAMES, tree_game
from .trees.cfr import CFR_ALGORITHMS, CFRSolver, CFRVariant, variant_parameters

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Cell",
    "CellResult",
    "Grid",
    "GridError",
    "SweepProgress",
    "SweepReport",
    "parse_grid",
    "read_grid",
    "run_cell",
    "prepare_family",
    "run_sweep",
    "read_cell",
    "read_results",
    "ResultFileWarning",
    "data_digest",
]

#: The result files' format, in their metadata under ``METADATA_KEY``.
FORMAT = "rmcore-sweep/1"
METADATA_KEY = b"rmcore-sweep"
#: The version of a result table's columns, in the metadata under ``"schema"`` (a file without one is of schema 1).
#: Schema 2: every history's metric columns, the same in both families (``rmcore.solver.METRIC_COLUMNS``). Schema 1: a
#: game tree's file held ``exploitability`` and ``exploitability_current`` (half of ``nash_conv`` and
#: ``nash_conv_current``) beside ``nash_conv``; a matrix game's held ``nash_conv`` and ``nash_conv_current``.
#: :func:`read_results` reads both.
SCHEMA = 2
#: "every variant of the catalogue", as a grid writes it.
ALL = "all"
_TOP_KEYS = {
    "name": "a title for the grid",
    "description": "what the grid is for",
    "iterations": "how many iterations every cell runs",
    "checkpoints": "the iterations at which the metrics are recorded",
    "checkpoints_per_decade": "metrics at round(10 ** (k / n)) instead of a list of checkpoints",
    "seeds": "the seeds of sampled variants",
    "policies": "whether to keep the policies and regrets at every checkpoint",
    "max_nodes": "the largest tree a cell runs",
    "max_payoffs": "the largest matrix game (rows times columns) a cell runs",
    "games": "the games",
    "algorithms": "the algorithms",
}
_TREE_KEYS = ("updates", "alpha", "beta", "gamma", "eta")
_MATRIX_KEYS = ("sampling", "updates", "averaging", "eta")
_STARTS = ("suggested", "uniform")
_FILE_FAMILIES = {".efg": "tree", ".nfg": "matrix"}
#: Largest game file a grid names, in bytes (the readers' own caps are lower: .efg 50 million characters).
_MAX_FILE_BYTES = 60_000_000
_TOO_DEEP = (
    "the grid nests arrays or tables hundreds of levels deep; a grid needs two (a list of tables, such as [[games]])"
)
#: Deepest nesting of tables and arrays a grid may hold: a grid needs three (a list of tables holding a list); the
#: check is a loop rather than a recursion, so it answers alike whatever the interpreter's recursion limit is.
_MAX_GRID_DEPTH = 32


def _nests_too_deeply(value, limit: int = _MAX_GRID_DEPTH) -> bool:
    """Whether ``value`` holds tables (mappings) or arrays (lists, tuples) nested more than ``limit`` levels deep.

    >>> _nests_too_deeply({"games": [{"game": "kuhn"}]}), _nests_too_deeply([[[1]]], limit=2)
    (False, True)
    """
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class GridError(ValueError):
    """A grid that cannot be read: the message names the entry (``games[2]``, ``algorithms[0].tree``) and what is
    wrong with it."""


@dataclass(frozen=True)
class Cell:
    """One run of a grid: a game, an algorithm, a seed, the iterations and checkpoints.

    ``spec`` is the cell as plain data (what the result file records, defaults filled in); ``id`` is a digest of it,
    so the same cell in any grid has the same id and result file. ``data`` holds a game file's bytes (read once, when
    the grid is read, so that workers need not see the grid's folder).
    """

    id: str
    name: str
    spec: dict = field(compare=False, hash=False)
    data: bytes | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def family(self) -> str:
        """``"tree"`` or ``"matrix"``."""
        return "tree" if "tree" in self.spec["algorithm"] else "matrix"

    @property
    def file_name(self) -> str:
        """The result file's name: the cell's name made safe for a file system, then its id."""
        slug = re.sub(r"[^A-Za-z0-9=+.,()]+", "_", self.name.replace(" · ", "__")).strip("_")
        return f"{slug[:120]}-{self.id}.parquet"

    @property
    def task_key(self) -> str:
        """The Dask task's key: the dashboard names a task by its key up to the first ``-`` that precedes anything but
        letters (``dask.utils.key_split``), so the name's hyphens become hyphen characters (U+2010) and the id, which
        starts with a digit, ends the name."""
        return f"{self.name.replace('-', chr(0x2010))}-{self.id}"


@dataclass(frozen=True)
class Grid:
    """A validated grid: its cells, and where it came from (``path`` for a file, for the cells' command)."""

    cells: tuple[Cell, ...]
    name: str = ""
    path: Path | None = None
    #: The settings, games and algorithms as read (for :meth:`with_settings` and a cell's command).
    _source: dict = field(default_factory=dict, compare=False, repr=False)

    def select(self, ids) -> Grid:
        """The cells whose id starts with one of ``ids``; ``GridError`` for an id that matches none."""
        chosen, ids = [], [str(i) for i in ids]
        for prefix in ids:
            matching = [cell for cell in self.cells if cell.id.startswith(prefix)]
            if not matching:
                raise GridError(f"no cell of the grid has an id starting with {prefix!r}")
            chosen += [cell for cell in matching if cell not in chosen]
        return Grid(tuple(chosen), self.name, self.path, self._source)

    def with_settings(self, **settings) -> Grid:
        """The same grid with top-level settings replaced (``iterations``, ``seeds``, ...): read again from its
        source. Only for a grid read from a file or a mapping (see :func:`read_grid`)."""
        data = dict(self._source)
        data.update(settings)
        for given, other in (("checkpoints", "checkpoints_per_decade"), ("checkpoints_per_decade", "checkpoints")):
            if given in settings:
                data.pop(other, None)
        if "iterations" in settings and "checkpoints" in data and "checkpoints" not in settings:
            data["checkpoints"] = [c for c in data["checkpoints"] if c < settings["iterations"]] or [1]
        return parse_grid(data, base=self.path.parent if self.path else None, path=self.path)


# -- reading a grid ------------------------------------------------------------------------------------------------


def read_grid(path) -> Grid:
    """The grid in a TOML file (games' files are found relative to it).

    Raises :class:`GridError` naming the line of a TOML syntax error, or the entry that is wrong.
    """
    path = Path(path)
    try:
        if not path.is_file():
            raise GridError(f"{path}: no such grid file" if not path.exists() else f"{path}: not a regular file")
        if path.stat().st_size > config.MAX_GRID_CHARS * 4:
            raise GridError(f"{path}: a grid file is at most {config.MAX_GRID_CHARS:,} characters")
        # (utf-8-sig: a grid saved by an editor that starts UTF-8 with a byte-order mark reads as the same text)
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise GridError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise GridError(f"{path}: {error.strerror or error}") from None
    if len(text) > config.MAX_GRID_CHARS:
        raise GridError(f"{path}: a grid file is at most {config.MAX_GRID_CHARS:,} characters")
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GridError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively: a few hundred levels exhaust it
        raise GridError(f"{path}: {_TOO_DEEP}") from None
    return parse_grid(data, base=path.parent, path=path)


def parse_grid(data: Mapping, base=None, path: Path | None = None) -> Grid:
    """The grid a mapping describes (a TOML file's tables, or the same as Python data); ``base`` is the folder that
    game files are relative to (by default the current one).

    Names (of games, variants, parameters and settings) and the grid's structure are checked here
    (:class:`GridError`); values are the library's to judge when a cell runs: a value it refuses fails that cell,
    recorded with its error.
    """
    if _nests_too_deeply(data):
        raise GridError(f"{path}: {_TOO_DEEP}" if path is not None else _TOO_DEEP)
    try:
        return _parse_grid(data, base, path)
    except RecursionError:  # a value nested hundreds of levels deep, met while it is quoted or digested
        raise GridError(_TOO_DEEP) from None


def _parse_grid(data: Mapping, base, path: Path | None) -> Grid:
    if not isinstance(data, Mapping):
        raise GridError(f"a grid is a table (a dict) of settings, games and algorithms; got {type(data).__name__}")
    base = Path(base) if base is not None else Path.cwd()
    for key in data:
        if key not in _TOP_KEYS:
            raise GridError(f"unknown setting {key!r}; a grid has {', '.join(_TOP_KEYS)}")
    name = data.get("name", "")
    for key in ("name", "description"):
        if not isinstance(data.get(key, ""), str):
            raise GridError(f"{key} must be text")
    iterations = _whole(data.get("iterations"), "iterations", 1, config.MAX_ITERATIONS, required=True)
    checkpoints = _checkpoints(data, iterations)
    seeds = data.get("seeds", [0])
    if not isinstance(seeds, list) or not seeds:
        raise GridError("seeds must be a list of whole numbers, such as [0, 1, 2]")
    seeds = [_whole(seed, f"seeds[{k}]", 0, 2**63 - 1) for k, seed in enumerate(seeds)]
    if len(set(seeds)) != len(seeds):
        raise GridError(f"seeds lists a seed twice: {seeds}")
    policies = data.get("policies", False)
    if not isinstance(policies, bool):
        raise GridError(f"policies must be true or false; got {policies!r}")
    limits = {
        "max_nodes": _whole(data.get("max_nodes", config.SWEEP_MAX_NODES), "max_nodes", 1, 10**12),
        "max_payoffs": _whole(data.get("max_payoffs", config.SWEEP_MAX_PAYOFFS), "max_payoffs", 1, 10**12),
    }
    games = [_game(entry, k, base) for k, entry in enumerate(_tables(data, "games"))]
    algorithms = [a for k, entry in enumerate(_tables(data, "algorithms")) for a in _algorithms(entry, k)]
    for family in ("tree", "matrix"):
        has_games = any(g[0] == family for g in games)
        takers = [a for a in algorithms if a[0] == family]
        if takers and not has_games:
            raise GridError(f"{takers[0][2]} is a {family} algorithm, and the grid has no {family} game to run it on")
        lonely = next((g for g in games if g[0] == family), None) if not takers else None
        if lonely is not None:
            raise GridError(f"{lonely[3]} is a {family} game, and the grid has no {family} algorithm to run on it")
    cells: dict[str, Cell] = {}
    for family, game, data_bytes, _ in games:
        for kind, algorithm, _where, sampled in algorithms:
            if kind != family:
                continue
            for seed in seeds if sampled else [None]:
                spec = {
                    "game": game,
                    "algorithm": algorithm,
                    "seed": seed,
                    "iterations": iterations,
                    "checkpoints": checkpoints,
                    "policies": policies,
                    # The cap of the cell's own family only: a tree's nodes, a matrix game's payoffs.
                    **{key: value for key, value in limits.items() if (key == "max_nodes") == (family == "tree")},
                }
                digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()
                # The id starts with a digit, so that a task key's name ends before it (Cell.task_key).
                cell_id = f"{int(digest[:12], 16) % 10**14:014d}"
                cells.setdefault(cell_id, Cell(cell_id, _cell_name(spec), spec, data_bytes))
                if len(cells) > config.MAX_SWEEP_CELLS:
                    raise GridError(f"the grid has more than {config.MAX_SWEEP_CELLS:,} cells")
    return Grid(tuple(cells.values()), name, path, dict(data))


def _whole(value, what: str, low: int, high: int, required: bool = False) -> int:
    if value is None and required:
        raise GridError(f"{what} is missing: a whole number from {low:,} to {high:,}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GridError(f"{what} must be a whole number from {low:,} to {high:,}; got {value!r}")
    return value


def _checkpoints(data: Mapping, iterations: int) -> list[int]:
    """The checkpoints, increasing, the last iteration among them."""
    if "checkpoints" in data and "checkpoints_per_decade" in data:
        raise GridError("give checkpoints or checkpoints_per_decade, not both")
    if "checkpoints" in data:
        given = data["checkpoints"]
        if not isinstance(given, list) or not given:
            raise GridError("checkpoints must be a list of iterations, such as [10, 100, 1000]")
        points = [_whole(p, f"checkpoints[{k}]", 1, iterations) for k, p in enumerate(given)]
        if any(b <= a for a, b in zip(points, points[1:])):
            raise GridError(f"checkpoints must increase; got {points}")
    else:
        per_decade = _whole(
            data.get("checkpoints_per_decade", config.SWEEP_CHECKPOINTS_PER_DECADE), "checkpoints_per_decade", 1, 64
        )
        points, k = [], 0
        while (point := round(10 ** (k / per_decade))) <= iterations:
            if not points or point > points[-1]:
                points.append(point)
            k += 1
    return points if points[-1] == iterations else [*points, iterations]


def _tables(data: Mapping, key: str) -> list[Mapping]:
    entries = data.get(key)
    if not isinstance(entries, list) or not entries:
        example = '[[games]] game = "kuhn"' if key == "games" else '[[algorithms]] tree = "cfr+"'
        raise GridError(f"the grid needs a list of {key} ({example})")
    for k, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise GridError(f"{key}[{k}] must be a table, such as {{ game = 'kuhn' }}; got {entry!r}")
    return entries


def _scalar(value, where: str):
    if isinstance(value, (str, int, float)):  # (bool is an int: the library refuses it where a number is meant)
        return value
    raise GridError(f"{where} must be a number or text; got {value!r}")


def _number(value, integer: bool):
    """A parameter's value in one spelling (4 and 4.0 name the same game), or as given if it is not a number (the
    library then refuses it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return value
    return int(value) if integer and float(value).is_integer() else float(value) if not integer else value


def _game(entry: Mapping, k: int, base: Path) -> tuple[str, dict, bytes | None, str]:
    """``(family, game spec, file bytes, where)`` of ``games[k]``."""
    where = f"games[{k}]"
    kinds = [key for key in ("game", "file") if key in entry]
    if len(kinds) != 1:
        raise GridError(f"{where} needs game = 'a catalogue name' or file = 'a .efg or .nfg file', exactly one")
    if "file" in entry:
        extra = [key for key in entry if key != "file"]
        if extra:
            raise GridError(f"{where}: a game from a file takes no parameters; got {extra[0]!r}")
        name = entry["file"]
        if not isinstance(name, str) or Path(name).suffix.lower() not in _FILE_FAMILIES:
            raise GridError(f"{where}.file must name a .efg (game tree) or .nfg (matrix game) file; got {name!r}")
        path = base / name
        try:
            if not path.is_file():
                raise GridError(f"{where}.file: {path} is not a file")
            if path.stat().st_size > _MAX_FILE_BYTES:
                raise GridError(f"{where}.file: {path} is larger than {_MAX_FILE_BYTES // 10**6} MB")
            data = path.read_bytes()
        except OSError as error:
            raise GridError(f"{where}.file: {path}: {error.strerror or error}") from None
        spec = {"file": name, "sha256": hashlib.sha256(data).hexdigest()}
        return _FILE_FAMILIES[Path(name).suffix.lower()], spec, data, f"{where} (file {name!r})"
    name = entry["game"]
    if name in TREE_GAMES:
        family, declared = "tree", {p.name: p.integer for p in TREE_GAMES[name].parameters}
        defaults = {p.name: p.default for p in TREE_GAMES[name].parameters}
    elif name in PRESETS:
        family, declared = "matrix", {p.name: p.integer for p in PRESETS[name].parameters}
        defaults = {p.name: p.default for p in PRESETS[name].parameters}
    else:
        raise GridError(
            f"{where}.game: unknown game {name!r}; tree games: {', '.join(TREE_GAMES)}; matrix games: "
            f"{', '.join(PRESETS)}"
        )
    parameters = {}
    for key, value in entry.items():
        if key == "game" or (key == "start" and family == "matrix"):  # (a tree game has no start)
            continue
        if key not in declared:
            takes = f"takes {', '.join(declared)}" if declared else "takes no parameters"
            start = " and start" if family == "matrix" else ""
            raise GridError(f"{where}: {name} has no parameter {key!r} (it {takes}{start})")
        parameters[key] = _scalar(value, f"{where}.{key}")
    spec = {
        "name": name,
        "parameters": {p: _number(parameters.get(p, defaults[p]), integer) for p, integer in declared.items()},
    }
    if family == "matrix":
        start = entry.get("start", "suggested")
        if start not in _STARTS:
            raise GridError(f"{where}.start must be {' or '.join(map(repr, _STARTS))}; got {start!r}")
        spec["start"] = start
    return family, spec, None, f"{where} ({name})"


def _algorithms(entry: Mapping, k: int) -> list[tuple[str, dict, str, bool]]:
    """``(family, algorithm spec, where, sampled)`` for every algorithm ``algorithms[k]`` names."""
    where = f"algorithms[{k}]"
    kinds = [key for key in ("tree", "matrix") if key in entry]
    if len(kinds) != 1:
        raise GridError(f"{where} needs tree = 'a CFR variant' or matrix = 'a learning rule', exactly one")
    family = kinds[0]
    catalogue, keys = (CFR_ALGORITHMS, _TREE_KEYS) if family == "tree" else (ALGORITHMS, _MATRIX_KEYS)
    name = entry[family]
    given = {key: value for key, value in entry.items() if key != family}
    if family == "tree" and "stepsize" in given:  # (its name of one release ago)
        if "eta" in given:
            raise GridError(f"{where}: give the step size once, as eta (stepsize is its deprecated name)")
        warn(f"{where}: stepsize is deprecated: write eta (the step size's name in both families)", 2)
        given["eta"] = given.pop("stepsize")
    if name == ALL:
        if given:
            raise GridError(
                f"{where}: {family} = 'all' runs every variant with its defaults and takes no {next(iter(given))!r}; "
                f"name a variant ({family} = '{next(iter(catalogue))}') to give it parameters"
            )
        names = list(catalogue)
    elif name in catalogue:
        names = [name]
    else:
        raise GridError(f"{where}.{family}: unknown {family} algorithm {name!r}; choose one of {', '.join(catalogue)}")
    for key, value in given.items():
        if key not in keys:
            raise GridError(
                f"{where}: {family} algorithm {name!r} has no parameter {key!r} (it takes {', '.join(keys)})"
            )
        if value is not None:
            _scalar(value, f"{where}.{key}")
    described = f"{where} ({family} = {name!r})"
    return [(family, spec, described, sampled) for spec, sampled in (_canonical(family, n, given) for n in names)]


def _canonical(family: str, name: str, given: dict) -> tuple[dict, bool]:
    """The algorithm's spec with the library's defaults filled in (the same run however it is spelled), and whether it
    samples; as given when the library refuses it (the cell then fails with the library's reason)."""
    if family == "tree":
        numbers = {key: given[key] for key in ("alpha", "beta", "gamma", "eta") if key in given}
        sampled = CFRVariant(name).is_sampled
        try:
            parameters = variant_parameters(name, **numbers)
            updates = CFRVariant(name, given.get("updates")).updates
        except (ValueError, TypeError):
            return {"tree": name, "updates": given.get("updates"), "parameters": numbers}, sampled
        return {"tree": name, "updates": updates, "parameters": parameters}, sampled
    fields = {key: given.get(key) for key in _MATRIX_KEYS}
    try:
        variant = MatrixVariant(
            name,
            fields["sampling"] or "expected",
            fields["updates"] or "simultaneous",
            fields["averaging"] or "uniform",
            fields["eta"],
        )
    except (ValueError, TypeError):
        defaults = {"sampling": "expected", "updates": "simultaneous", "averaging": "uniform", "eta": None}
        fields = {key: defaults[key] if value is None else value for key, value in fields.items()}
        return {"matrix": name, **fields}, fields["sampling"] == "sampled"
    spec = {"matrix": name, "sampling": variant.sampling, "updates": variant.updates, "averaging": variant.averaging}
    return {**spec, "eta": variant.eta}, variant.is_sampled


def game_label(game: dict) -> str:
    """A game spec in a few words: ``kuhn``, ``liars_dice(sides=6)``, ``file:my_game.efg`` (parameters shown where they
    differ from the catalogue's defaults)."""
    if "file" in game:
        return f"file:{Path(game['file']).name}"
    entry = TREE_GAMES.get(game["name"]) or PRESETS.get(game["name"])
    defaults = {p.name: p.default for p in entry.parameters} if entry else {}
    shown = [
        f"{key}={value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else f"{key}={value}"
        for key, value in game["parameters"].items()
        if value != defaults.get(key)
    ]
    if game.get("start", "suggested") != "suggested":
        shown.append(f"start={game['start']}")
    return game["name"] + (f"({', '.join(shown)})" if shown else "")


def algorithm_label(algorithm: dict) -> str:
    """The variant's label as the library writes it (``cfr+ · alternating``, ``hedge(η=0.1) · expected · simultaneous
    · uniform``), or its name and given values when the library refuses them."""
    try:
        if "tree" in algorithm:
            parameters = algorithm["parameters"]
            name = algorithm["tree"]
            if name == "mmd":
                eta = parameters.get("eta", parameters.get("stepsize"))  # (a cell of schema 1 named it stepsize)
                return CFRVariant(name, algorithm["updates"], mmd=(parameters["alpha"], eta)).label
            discount = tuple(parameters.values()) if parameters else None
            return CFRVariant(name, algorithm["updates"], discount).label
        fields = {key: algorithm[key] for key in _MATRIX_KEYS}
        return MatrixVariant(algorithm["matrix"], **fields).label
    except (ValueError, TypeError, KeyError):  # the library refuses it: the name and the values as given
        if "tree" in algorithm:
            given = ", ".join(f"{k}={v}" for k, v in algorithm.get("parameters", {}).items())
            name = algorithm["tree"] + (f"({given})" if given else "")
            return " · ".join(str(part) for part in (name, algorithm.get("updates")) if part is not None)
        step = algorithm.get("eta")
        name = algorithm["matrix"] + ("" if step is None else f"(η={step})")
        return " · ".join(str(algorithm.get(key, "?")) if key else name for key in ("", *_MATRIX_KEYS[:3]))


def _cell_name(spec: dict) -> str:
    seed = "" if spec["seed"] is None else f" · seed {spec['seed']}"
    return f"{game_label(spec['game'])} · {algorithm_label(spec['algorithm'])}{seed}"


# -- running one cell ----------------------------------------------------------------------------------------------


class CellResult(NamedTuple):
    """What a cell's run produced: its table's columns (``iteration`` and the metrics, arrays of one length) and its
    metadata (see the module's docstring)."""

    columns: dict
    meta: dict


def build_game(cell: Cell):
    """The cell's game: a :class:`~rmcore.TreeGame` or a :class:`~rmcore.MatrixGame`; ``ValueError`` for one the
    library refuses or one larger than the grid's cap."""
    from .formats import read_efg, read_nfg

    spec = cell.spec
    game_spec = spec["game"]
    if "file" in game_spec:
        if cell.data is None or hashlib.sha256(cell.data).hexdigest() != game_spec["sha256"]:
            raise ValueError(f"the game file {game_spec['file']!r} is not the one the grid was read with")
        if cell.family == "tree":
            game = read_efg(cell.data, max_nodes=spec["max_nodes"])
        else:
            game = read_nfg(cell.data)
    elif cell.family == "tree":
        game = tree_game(game_spec["name"], **game_spec["parameters"])
    else:
        game = preset(game_spec["name"], **game_spec["parameters"])
    if cell.family == "tree":
        nodes = game.tree.player.shape[0]
        if nodes > spec["max_nodes"]:
            raise ValueError(
                f"{game.name} has {nodes:,} nodes, more than the grid's cap of {spec['max_nodes']:,} (max_nodes)"
            )
    else:
        m, n = game.shape
        if m * n > spec["max_payoffs"]:
            raise ValueError(
                f"{game.name or 'the game'} is {m}x{n}, more payoffs than the grid's cap of "
                f"{spec['max_payoffs']:,} (max_payoffs)"
            )
    return game


def make_solver(cell: Cell, game, max_points: int = 0):
    """A fresh solver for the cell's algorithm on ``game`` (a seed of 0 for the variants that do not sample, so that
    nothing in a cell draws fresh entropy)."""
    algorithm, seed = cell.spec["algorithm"], cell.spec["seed"] or 0
    if "tree" in algorithm:
        return CFRSolver(
            game,
            algorithm["tree"],
            updates=algorithm["updates"],
            seed=seed,
            max_points=max_points,
            **algorithm["parameters"],
        )
    start = None
    if isinstance(game, MatrixGame) and cell.spec["game"].get("start", "suggested") == "suggested":
        start = game.start
    return MatrixSolver(
        game,
        algorithm["matrix"],
        algorithm["sampling"],
        algorithm["updates"],
        algorithm["averaging"],
        seed=seed,
        max_points=max_points,
        start=start,
        eta=algorithm["eta"],
    )


def _warm_up(cell: Cell, game) -> None:
    """Run the cell's algorithm twice on a small game of the same kind, so that loading (or compiling) its kernels is
    not counted in its time per iteration."""
    if cell.family == "tree":
        small = tree_game("kuhn")
    else:
        small = preset("rps") if game.is_zero_sum else preset("prisoners-dilemma")
    solver = make_solver(cell, small)
    solver.run(2)
    solver.history()


def _policy_columns(game) -> int:
    actions = game.actions if hasattr(game, "actions") else (game.row_actions, game.col_actions)
    return 3 * sum(len(a) for a in actions)


def run_cell(cell: Cell) -> CellResult:
    """Run one cell: build its game and solver, run to each checkpoint, and record the metrics there (or the error
    that stopped it). Deterministic: the columns depend on the cell alone; only the timings in ``meta`` vary."""
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    clock = time.perf_counter()
    meta = {"format": FORMAT, "schema": SCHEMA, "id": cell.id, "name": cell.name, "cell": cell.spec}
    meta["started"] = started
    meta.update(versions=versions(), machine=machine())
    try:
        columns, details = _run(cell)
    except Exception as error:  # noqa: BLE001 - a cell's failure is recorded with it, and the sweep goes on
        columns, details = {"iteration": np.zeros(0, dtype=np.int64)}, {"status": "failed"}
        message = str(error).strip() or "no message"
        details["error"] = message if isinstance(error, ValueError) else f"{type(error).__name__}: {message}"
    meta.update(details)
    meta["wall_seconds"] = time.perf_counter() - clock
    return CellResult(columns, meta)


def _run(cell: Cell) -> tuple[dict, dict]:
    game = build_game(cell)
    policies = cell.spec["policies"]
    if policies and _policy_columns(game) > config.SWEEP_MAX_POLICY_COLUMNS:
        raise ValueError(
            f"policies = true would keep {_policy_columns(game):,} columns a checkpoint for {game.name}; at most "
            f"{config.SWEEP_MAX_POLICY_COLUMNS:,} (set policies = false for this game)"
        )
    solver = make_solver(cell, game)
    _warm_up(cell, game)
    histories, seconds, solving, done = [], [], 0.0, 0
    for point in cell.spec["checkpoints"]:
        clock = time.perf_counter()
        solver.run(point - done)
        solving += time.perf_counter() - clock
        done = point
        histories.append(solver.history())
        seconds.append(solving)
    if policies:
        import pandas as pd

        frame = pd.concat([history.to_frame() for history in histories], ignore_index=True)
        columns = {name: frame[name].to_numpy() for name in frame.columns}
    else:
        columns = {"iteration": np.concatenate([history.iterations for history in histories])}
        for name in histories[0].metrics:
            columns[name] = np.concatenate([history.metrics[name] for history in histories])
    size = game.tree.player.shape[0] if cell.family == "tree" else list(game.shape)
    return columns, {
        "status": "done",
        "error": None,
        "label": solver.variant.label,
        "game_title": game.name or game_label(cell.spec["game"]),
        "zero_sum": True if cell.family == "tree" else bool(game.is_zero_sum),
        "size": size,
        "run_seconds": solving,
        "seconds_per_iteration": solving / done,
        "checkpoint_seconds": seconds,
    }


def versions() -> dict:
    """The versions that produced a result: rmcore's, Python's and those of the packages it ran on."""
    import numba

    # The package's version, read where ``import rmcore`` left it (importing the package from here would be an import
    # circle: rmcore imports this module).
    package = sys.modules.get(__package__)
    found = {"rmcore": getattr(package, "__version__", "?"), "python": platform.python_version()}
    found["numpy"] = np.__version__
    found["numba"] = numba.__version__
    for name in ("pandas", "pyarrow", "dask", "distributed"):
        module = sys.modules.get(name)
        if module is not None:
            found[name] = getattr(module, "__version__", "?")
    return found


def machine() -> dict:
    """Where a result was produced: host, platform, processor, cores and the load average when it started."""
    about = {"host": socket.gethostname(), "platform": platform.platform(), "cores": os.cpu_count()}
    about["processor"] = _processor()
    if hasattr(os, "getloadavg"):
        about["load"] = [round(v, 2) for v in os.getloadavg()]
    return about


def _processor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# -- result files --------------------------------------------------------------------------------------------------


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


# -- running a grid ------------------------------------------------------------------------------------------------


class SweepProgress(NamedTuple):
    """Where a sweep is: cells finished in this run (``failed`` of them with an error), left, lost with a worker
    (run the sweep again to run them), finished before it started (``skipped``), seconds so far and an estimate of the
    seconds left (None until the first cell is done), the cell just finished, and the Dask dashboard's address (once
    the cluster is up; None without Dask)."""

    done: int
    failed: int
    left: int
    lost: int
    skipped: int
    elapsed: float
    seconds_left: float | None
    last: str | None
    dashboard: str | None = None


class SweepReport(NamedTuple):
    """A finished sweep: the folder, the grid's cells, those run now, those finished before, the failures
    ``(cell name, error)`` recorded now, the cells lost (their workers died too often; not written: running the sweep
    again runs them), the seconds it took and the Dask dashboard's address (None without Dask)."""

    folder: Path
    cells: int
    ran: int
    skipped: int
    failed: tuple
    lost: tuple
    seconds: float
    dashboard: str | None


def as_grid(grid) -> Grid:
    """A :class:`Grid` from a Grid, a mapping or a TOML file's path."""
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, Mapping):
        return parse_grid(grid)
    if isinstance(grid, (str, os.PathLike)):
        return read_grid(grid)
    raise GridError(f"a grid is a TOML file's path, a dict or a Grid; got {type(grid).__name__}")


def cost(cell: Cell) -> float:
    """A rough cost of the cell, to run the longest first and to estimate the time left: iterations times the game's
    size (tree nodes, or a matrix game's payoffs), a tenth of that for sampled variants (a sampled walk touches part of
    the tree)."""
    try:
        if "file" in cell.spec["game"]:
            size = len(cell.data or b"") / 30.0
        elif cell.family == "tree":
            size = tree_game(cell.spec["game"]["name"], **cell.spec["game"]["parameters"]).tree.player.shape[0]
        else:
            m, n = preset(cell.spec["game"]["name"], **cell.spec["game"]["parameters"]).shape
            size = m * n + m + n
    except (ValueError, TypeError):
        return 0.0  # it fails at once
    algorithm = cell.spec["algorithm"]
    sampled = cell.spec["seed"] is not None and "tree" in algorithm
    return cell.spec["iterations"] * (size + 1000) * (0.1 if sampled else 1.0)


def _command(grid: Grid, folder: Path, cell: Cell) -> str:
    if grid.path is not None:
        return f"python -m rmcore sweep {grid.path} --out {folder} --cell {cell.id}"
    return f"rmcore.run_sweep(grid, {str(folder)!r}, cells=[{cell.id!r}])  # grid: {json.dumps(grid._source)}"


def run_sweep(
    grid,
    out,
    client=None,
    *,
    workers: int | None = None,
    cells=None,
    retry_failed: bool = False,
    progress: Callable[[SweepProgress], None] | None = None,
) -> SweepReport:
    """Run every cell of ``grid`` that has no result file in ``out`` yet, one Parquet file per cell.

    Parameters
    ----------
    grid : Grid, dict or path
        A grid (see the module's docstring), or a TOML file's path.
    out : path
        The results folder (created if need be). Cells already there are skipped.
    client : dask.distributed.Client or str, optional
        A Dask client, or a scheduler's address (``tcp://host:8786``). By default a ``LocalCluster`` of ``workers``
        single-threaded worker processes (one per core), started and closed here.
    workers : int, optional
        The local cluster's workers; ``0`` runs the cells one after another in this process, without Dask.
    cells : iterable of str, optional
        Run only the cells whose ids start with these.
    retry_failed : bool
        Run again the cells whose result file records a failure.
    progress : callable, optional
        Called with a :class:`SweepProgress` when the sweep starts and after every cell.

    Returns
    -------
    SweepReport
    """
    grid = as_grid(grid)
    if cells is not None:
        grid = grid.select(cells)
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= 4 * local_workers():
            raise ValueError(
                f"workers must be a whole number from 0 to {4 * local_workers()} (four per core); got {workers!r}"
            )
        if client is not None:
            raise ValueError("workers sizes the local cluster; a client's cluster has workers of its own")
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is not a folder: the results go into a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the results folder {folder}: {error.strerror or error}") from None
    todo = []
    for cell in grid.cells:
        meta = finished(folder, cell)
        if meta is None or (retry_failed and meta.get("status") == "failed"):
            todo.append(cell)
    costs = {cell.id: cost(cell) for cell in todo}
    todo.sort(key=lambda cell: -costs[cell.id])  # the longest first: the last cells to finish are short ones
    tracker = _Tracker(len(grid.cells) - len(todo), costs, progress)

    def record(cell: Cell, result: CellResult) -> None:
        result.meta["command"] = _command(grid, folder, cell)
        write_cell(folder, result, cell.file_name)
        tracker.finished(cell, result)

    dashboard = None
    if (workers == 0 and client is None) or not todo:  # (nothing to run: no cluster to start)
        tracker.report()
        for cell in todo:
            record(cell, run_cell(cell))
    else:
        dashboard = _run_on_dask(client, workers, todo, record, tracker)
    return SweepReport(
        folder,
        len(grid.cells),
        len(todo) - len(tracker.lost),
        tracker.skipped,
        tuple(tracker.failures),
        tuple(tracker.lost),
        time.perf_counter() - tracker.started,
        dashboard,
    )


class _Tracker:
    """Counts finished cells and estimates the time left from the cost finished so far (cells run in parallel, so the
    rate is cost finished per second of the sweep's wall time)."""

    def __init__(self, skipped: int, costs: dict, callback):
        self.skipped, self.costs, self.callback = skipped, costs, callback
        self.left_cost = sum(costs.values())
        self.done_cost = 0.0
        self.done = 0
        self.failures: list = []
        self.lost: list = []
        self.started = time.perf_counter()
        self.last = None
        self.dashboard = None

    def finished(self, cell: Cell, result: CellResult) -> None:
        self.done += 1
        if result.meta.get("status") == "failed":
            self.failures.append((cell.name, result.meta.get("error")))
        self._account(cell)
        self.report()

    def lose(self, cell: Cell, error: BaseException) -> None:
        self.lost.append((cell.name, f"{type(error).__name__}: {error}"))
        self._account(cell)
        self.report()

    def _account(self, cell: Cell) -> None:
        self.done_cost += self.costs[cell.id]
        self.left_cost -= self.costs[cell.id]
        self.last = cell.name

    def report(self) -> None:
        if self.callback is None:
            return
        elapsed = time.perf_counter() - self.started
        left = len(self.costs) - self.done - len(self.lost)
        estimate = None
        if self.done and self.done_cost > 0:
            estimate = max(self.left_cost, 0.0) * elapsed / self.done_cost
        elif left == 0:
            estimate = 0.0
        self.callback(
            SweepProgress(
                self.done,
                len(self.failures),
                left,
                len(self.lost),
                self.skipped,
                elapsed,
                estimate,
                self.last,
                self.dashboard,
            )
        )


def local_workers() -> int:
    """One worker per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _run_on_dask(client, workers: int | None, todo: list, record, tracker: _Tracker) -> str | None:
    """Run ``todo`` on a Dask cluster: ``client`` (a Client or a scheduler's address), or a LocalCluster started (and
    closed) here. Dask is imported here, so that ``import rmcore`` never needs it."""
    try:
        from dask.distributed import Client, as_completed
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "sweeps run on Dask: install it (pip install 'dask[distributed]'), or pass workers=0 to run the cells "
            "one after another in this process"
        ) from None
    owned, cluster, interrupted = [], None, False
    try:
        if client is None:
            # Ctrl-C at a terminal sends SIGINT to the whole foreground process group, the workers too: they would each
            # print a KeyboardInterrupt traceback. Started with SIGINT ignored, they keep ignoring it (an ignored signal
            # stays ignored across exec, and Python then installs no handler of its own); this process answers Ctrl-C
            # and shuts them down.
            with _interrupts_ignored():
                cluster = local_cluster(workers)
            owned.append(cluster)
            client = Client(cluster)
            owned.insert(0, client)
            # (a worker that the nanny starts again after a death: it ignores SIGINT from its first task on)
            client.register_plugin(_ignore_interrupts_plugin(), name="rmcore-ignore-interrupts")
        elif isinstance(client, str):
            client = Client(client)
            owned.append(client)
        dashboard = client.dashboard_link
        tracker.dashboard = dashboard
        tracker.report()
        # Kernels first, one task per family the cells use, so that two workers do not compile the same family at once
        # on an empty numba cache (several seconds each); then every worker loads them from the cache (a fraction of a
        # second each), so that no cell's time holds a load.
        families = sorted({cell.family for cell in todo})
        warm = [
            client.submit(prepare_family, family, key=f"prepare kernels-{family}", pure=False) for family in families
        ]
        client.gather(warm)
        del warm
        for family in families:
            client.run(prepare_family, family)
        futures = {}
        for rank, cell in enumerate(todo):
            futures[client.submit(run_cell, cell, key=cell.task_key, priority=len(todo) - rank, pure=False)] = cell
        for future in as_completed(futures):
            cell = futures.pop(future)
            try:
                result = future.result()
            except Exception as error:  # noqa: BLE001 - a cell whose workers kept dying (KilledWorker) is left to rerun
                tracker.lose(cell, error)
            else:
                record(cell, result)
            future.release()
        return dashboard
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        with _quiet_shutdown(interrupted):
            if interrupted and cluster is not None:
                _kill_workers(cluster)
            for owner in owned:
                owner.close()


@contextlib.contextmanager
def _interrupts_ignored():
    """SIGINT ignored inside the block, in this process and in the processes it starts (from the main thread only:
    elsewhere Python lets no thread change a signal's handler, and a sweep started there is not the terminal's)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ignore_interrupts_plugin():
    """A Dask worker plugin that makes its worker ignore SIGINT (built here: ``import rmcore`` never needs Dask)."""
    from distributed import WorkerPlugin

    class IgnoreInterrupts(WorkerPlugin):
        def setup(self, worker):
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreInterrupts()


@contextlib.contextmanager
def _quiet_shutdown(interrupted: bool):
    """After Ctrl-C: closing the cluster logs nothing (Dask's, Tornado's and asyncio's words then are all about the
    interruption itself, some with tracebacks), and a second Ctrl-C does not break off the closing."""
    if not interrupted:
        yield
        return
    import logging

    disabled = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with _interrupts_ignored():
            yield
    finally:
        logging.disable(disabled)


def _kill_workers(cluster) -> None:
    """End a local cluster's worker processes at once (SIGKILL): each is in the middle of a cell whose result is lost
    anyway, and a worker asked to close waits for its cell (seconds to minutes) and logs the cancellation."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(nanny, "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def local_cluster(workers: int | None = None, dashboard_address: str | None = ":8787"):
    """The ``LocalCluster`` a sweep starts on this machine: ``workers`` single-threaded worker processes (default: one
    per core), with numba's cache shared through the file system.

    Its workers run without Dask's statistical profiler, which samples the task thread's Python stack every 10 ms: in
    a cell it sees one compiled call, and its wake-ups cost the cells time (``benchmarks/atlas_scaling.py`` measures
    two copies of the heaviest cell at once on two such workers beside two plain processes).
    """
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return LocalCluster(
            n_workers=workers or local_workers(),
            threads_per_worker=1,
            processes=True,
            dashboard_address=dashboard_address,
        )


def prepare_family(family: str) -> None:
    """Load (or compile) one family of kernels (``"matrix"`` or ``"tree"``) in this process: what a sweep runs on
    each worker before its cells."""
    from ._runtime import prepare_kernels

    prepare_kernels((family,))


# -- reading results -----------------------------------------------------------------------------------------------

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
    "algorithm",
    "label",
    "seed",
    "iteration",
    "nash_conv",
    "nash_conv_current",
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
        either family and in files of every :data:`SCHEMA` (a two-player zero-sum game's exploitability is half of
        each); ``seconds`` is the solver's time up to the checkpoint (the metrics' time left out). A failed cell is one
        row with its error and no numbers.
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
        rows["seconds"] = np.asarray(meta["checkpoint_seconds"], dtype=float)
    else:
        for name in ("nash_conv", "nash_conv_current", "seconds"):
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
    out["algorithm"] = algorithm.get("tree", algorithm.get("matrix"))
    out["label"] = meta.get("label") or algorithm_label(algorithm)
    out["seed"] = pd.array([spec["seed"]] * size, dtype="Int64")
    out["seconds_per_iteration"] = meta.get("seconds_per_iteration", np.nan)
    out["wall_seconds"] = meta.get("wall_seconds", np.nan)
    out["spec"] = json.dumps(spec, sort_keys=True)
    return out


# (``sweep``, this function's name one release ago, is the module's: read inside it, it warns and answers)
__getattr__ = getattr_for(__name__)
