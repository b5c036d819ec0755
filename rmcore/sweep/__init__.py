"""Sweeps: a grid of runs (games x algorithms x seeds) on Dask distributed, one Parquet result file per cell.

A research question is rarely one run: it is a table of algorithms x games x parameters x seeds. A *grid* names them
(a TOML file, or the same as a dict); every combination is a *cell*, run to the grid's iterations with the metrics
recorded at its checkpoints:

* games: the tree catalogue's (``rmcore.TREE_GAMES``) and the matrix presets (``rmcore.PRESETS``, and the
  three-player ``rmcore.NORMAL_FORM_PRESETS``) by name with their parameters, and Gambit ``.efg`` (trees) and ``.nfg``
  (matrix games of any number of players) files;
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

from .._deprecated import getattr_for

# (The package reads every public name of its modules, as the one module it is made of did: code that imports
# rmcore.sweep.cost or rmcore.sweep.FORMAT reads on.)
from .cells import CellResult, build_game, machine, make_solver, run_cell, versions  # noqa: F401
from .driver import SweepProgress, SweepReport, as_grid, cost, local_cluster, local_workers, prepare_family, run_sweep  # noqa: F401
from .files import (  # noqa: F401
    FORMAT,
    MAX_RESULT_VALUES,
    METADATA_KEY,
    SCHEMA,
    CellFile,
    data_digest,
    finished,
    read_cell,
    write_cell,
)
from .grid import ALL, Cell, Grid, GridError, algorithm_label, game_label, parse_grid, read_grid  # noqa: F401
from .results import MAX_RESULT_FILES, RESULT_COLUMNS, ResultFileWarning, read_results, result_files  # noqa: F401

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

# (``sweep``, this function's name one release ago, is the module's: read inside it, it warns and answers)
__getattr__ = getattr_for(__name__)
