"""Running a grid: the cells without a result file, on a Dask cluster or one after another in this process."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..matrix.games import preset
from ..trees.catalogue import tree_game
from .cells import CellResult, run_cell
from .files import finished, write_cell
from .grid import Cell, Grid, GridError, parse_grid, read_grid

if TYPE_CHECKING:
    pass


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
    from .._runtime import prepare_kernels

    prepare_kernels((family,))
