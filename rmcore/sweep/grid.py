"""Reading a sweep grid: a TOML file or a dict of games x algorithms x seeds, checked, into its cells."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import config
from .._deprecated import warn
from ..matrix.games import NORMAL_FORM_PRESETS, PRESETS
from ..matrix.solver import ALGORITHMS, ONLY_FORMS, MatrixVariant
from ..trees.catalogue import TREE_GAMES
from ..trees.cfr import CFR_ALGORITHMS, CFRVariant, variant_parameters

if TYPE_CHECKING:
    pass

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
    "max_payoffs": "the largest matrix game (rows times columns; the joint actions of more players) a cell runs",
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
    elif name in PRESETS or name in NORMAL_FORM_PRESETS:
        catalogued = PRESETS.get(name) or NORMAL_FORM_PRESETS[name]
        family, declared = "matrix", {p.name: p.integer for p in catalogued.parameters}
        defaults = {p.name: p.default for p in catalogued.parameters}
    else:
        raise GridError(
            f"{where}.game: unknown game {name!r}; tree games: {', '.join(TREE_GAMES)}; matrix games: "
            f"{', '.join([*PRESETS, *NORMAL_FORM_PRESETS])}"
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
    # (a rule of one sampling or update order, such as internal-rm's sampled play, defaults to it)
    only = ONLY_FORMS.get(name, {}) if isinstance(name, str) else {}
    defaults = {
        "sampling": only.get("sampling", "expected"),
        "updates": only.get("updates", "simultaneous"),
        "averaging": "uniform",
        "eta": None,
    }
    try:
        variant = MatrixVariant(
            name,
            fields["sampling"] or defaults["sampling"],
            fields["updates"] or defaults["updates"],
            fields["averaging"] or defaults["averaging"],
            fields["eta"],
        )
    except (ValueError, TypeError):
        fields = {key: defaults[key] if value is None else value for key, value in fields.items()}
        return {"matrix": name, **fields}, fields["sampling"] == "sampled"
    spec = {"matrix": name, "sampling": variant.sampling, "updates": variant.updates, "averaging": variant.averaging}
    return {**spec, "eta": variant.eta}, variant.is_sampled


def game_label(game: dict) -> str:
    """A game spec in a few words: ``kuhn``, ``liars_dice(sides=6)``, ``file:my_game.efg`` (parameters shown where they
    differ from the catalogue's defaults)."""
    if "file" in game:
        return f"file:{Path(game['file']).name}"
    entry = TREE_GAMES.get(game["name"]) or PRESETS.get(game["name"]) or NORMAL_FORM_PRESETS.get(game["name"])
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
