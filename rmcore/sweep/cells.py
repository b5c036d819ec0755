"""Running one cell of a grid: its game, its solver, its history at the grid's checkpoints."""

from __future__ import annotations

import hashlib
import math
import os
import platform
import socket
import sys
import time
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import numpy as np

from .. import config
from ..matrix.games import NormalFormGame, preset
from ..matrix.solver import MatrixSolver
from ..trees.catalogue import tree_game
from ..trees.cfr import CFRSolver
from .files import FORMAT, SCHEMA, CellResult
from .grid import Cell, game_label

if TYPE_CHECKING:
    pass


def build_game(cell: Cell):
    """The cell's game: a :class:`~rmcore.TreeGame`, a :class:`~rmcore.MatrixGame` or a
    :class:`~rmcore.NormalFormGame` of three players or more; ``ValueError`` for one the library refuses or one larger
    than the grid's cap."""
    from ..formats import read_efg, read_nfg

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
    elif math.prod(game.shape) > spec["max_payoffs"]:  # (rows times columns; the joint actions of more players)
        raise ValueError(
            f"{game.name or 'the game'} is {'x'.join(map(str, game.shape))}, more payoffs than the grid's cap of "
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
    if isinstance(game, NormalFormGame) and cell.spec["game"].get("start", "suggested") == "suggested":
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
    package = sys.modules.get("rmcore")
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
