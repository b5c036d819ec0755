"""Which iterations a bounded history keeps: log-spaced early, evenly spaced later, and never closer than a row's cost
allows.

The set of checkpoints after ``T`` iterations is a function of ``T``, ``max_points`` and the ``stride`` only, and
shrinks by dropping points (never adding past ones) as ``T`` grows. So a run split into chunks
records exactly the rows a single run would, and memory stays flat however long it runs.

* Log-spaced part (a quarter of the budget): ``round(10 ** (k * step / 32))`` for ``k = 0, 1, ...``;
  ``step`` doubles (keeping every other point) whenever the part would exceed its budget.
* Evenly spaced part (the rest): multiples of a spacing that doubles in the same way.
* ``stride``: both parts are laid on the multiples of ``stride`` (``stride * round(10 ** (k / 32))`` ...), so that at
  most one checkpoint in ``stride`` iterations is written. A solver picks the stride from what a row costs beside an
  iteration, as its process measured it (:func:`stride_for`, ``rmcore.solver.measured_row_cost``), so that its history
  costs at most a set share of its run; the stride is fixed before a solver's first iteration.
* The first iterate: with a stride above 1, iteration 1 is kept too, in one row of the log part's budget, so that
  every curve starts at iteration 1 (a Leduc history's stride is dozens of iterations).

>>> checkpoints_between(0, 20, max_points=8).tolist()
[1, 4, 8, 10, 12, 16, 20]
>>> checkpoints_between(0, 200, max_points=8, stride=10).tolist()
[1, 10, 40, 80, 120, 160, 200]
>>> len(checkpoints_between(0, 10**8, max_points=2000)) <= 2000
True
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import config


def _budgets(max_points: int, stride: int = 1) -> tuple[int, int]:
    """The rows of the log-spaced grid and of the evenly spaced one; with a stride above 1 the first iterate takes one
    of the log part's rows (:func:`_keeps_first`)."""
    log_budget = int(max_points * config.LOG_CHECKPOINT_SHARE)
    return log_budget - _keeps_first(max_points, stride), max_points - log_budget


def _keeps_first(max_points: int, stride: int) -> bool:
    """Whether iteration 1 is kept apart from the grids: with a stride above 1 it is on neither, and it is kept
    whenever the log part has a row for it."""
    return stride > 1 and int(max_points * config.LOG_CHECKPOINT_SHARE) > 0


@functools.lru_cache(maxsize=1)
def _log_exponent_values() -> np.ndarray:
    """``round(10 ** (j / 32))`` for every ``j`` whose value fits in an int64 (non-decreasing; computed once).

    The grid of step ``s`` is the values at ``j = 0, s, 2s, ...`` (rounded duplicates merged): slicing this array
    gives every log grid, the finest (``s = 1``) included.
    """
    values, j = [], 0
    while (value := int(round(10.0 ** (j / config.LOG_POINTS_PER_DECADE)))) < 2**63:
        values.append(value)
        j += 1
    return np.array(values, dtype=np.int64)


def _exponents_up_to(stop) -> int:
    """How many exponents ``j`` have ``round(10 ** (j / 32)) <= stop``."""
    return int(np.searchsorted(_log_exponent_values(), stop, side="right"))


def _log_grid(stop: int, budget: int) -> np.ndarray:
    """The log-spaced checkpoints up to ``stop`` within ``budget`` rows (read-only; cached: a live page asks on every
    update)."""
    if budget <= 0 or stop < 1:
        return np.empty(0, dtype=np.int64)
    # Budget the raw count (before merging rounded duplicates) so the rule never depends on rounding.
    reached = _exponents_up_to(stop)
    step = 1
    while -(-reached // step) > budget:
        step *= 2
    return _log_grid_of(reached, step)


@functools.lru_cache(maxsize=256)
def _log_grid_of(reached: int, step: int) -> np.ndarray:
    values = _log_exponent_values()[:reached:step]
    fresh = np.ones(values.shape, dtype=bool)
    fresh[1:] = values[1:] != values[:-1]
    grid = values[fresh]
    grid.flags.writeable = False
    return grid


def _even_stride(stop: int, budget: int) -> int:
    stride = 1
    while stop // stride > budget:
        stride *= 2
    return stride


def at(iteration: int) -> np.ndarray:
    """The checkpoint list of a single row at ``iteration`` (a snapshot of the state now)."""
    return np.array([iteration], dtype=np.int64)


def stride_for(row_cost: float, iteration_cost: float, share: float | None) -> int:
    """The fewest iterations between checkpoints for the rows of any run of at least that many iterations, its row at
    iteration 1 included, to cost at most ``share`` of the run: a row costs ``row_cost``, an iteration
    ``iteration_cost`` (in one unit); ``share=None`` asks for every point (stride 1).

    A run of ``T`` iterations keeps at most ``1 + T / s`` rows with stride ``s`` (iteration 1, then one in ``s``).
    Counting iterations as the unit, with ``c`` a row's cost, they cost ``c (1 + T / s)``: at most ``share T`` for
    every ``T >= s`` exactly when ``s >= 2 c / share`` (``T = s`` is the tightest), and about half of that in a long
    run.

    >>> stride_for(3.0, 1.0, 0.1), stride_for(0.05, 1.0, 0.1), stride_for(3.0, 1.0, None)
    (60, 1, 1)
    """
    if share is None or row_cost <= 0.0:
        return 1
    return max(1, math.ceil(2.0 * row_cost / (share * iteration_cost)))


def checkpoints_between(start: int, stop: int, max_points: int, stride: int = 1) -> np.ndarray:
    """The checkpoints in ``(start, stop]`` that the history keeps once ``stop`` iterations have run."""
    if max_points <= 0 or stop <= start:
        return np.empty(0, dtype=np.int64)
    log_budget, even_budget = _budgets(max_points, stride)
    first_iterate = np.ones(1 if _keeps_first(max_points, stride) and start < 1 else 0, dtype=np.int64)
    scaled = stop // stride
    if scaled < 1:
        return first_iterate
    spacing = _even_stride(scaled, even_budget)
    first = (start // stride // spacing + 1) * spacing
    even = np.arange(first, scaled + 1, spacing, dtype=np.int64)
    log = _log_grid(scaled, log_budget)
    points = np.union1d(first_iterate, stride * np.union1d(even, log))
    return points[points > start]


def thins(start: int, stop: int, max_points: int, stride: int = 1) -> bool:
    """Whether the grid at ``stop`` drops some of the points it held at ``start`` (its even spacing or its log step
    grew): only then can :func:`kept` mark a recorded row as dropped."""
    if max_points <= 0 or start <= 0:
        return start > 0
    before, after = start // stride, stop // stride
    log_budget, even_budget = _budgets(max_points, stride)
    if _even_stride(before, even_budget) != _even_stride(after, even_budget):
        return True
    return _log_step(before, log_budget) != _log_step(after, log_budget)


def _log_step(stop: int, budget: int) -> int:
    """The log grid's step at ``stop`` within ``budget`` rows (see :func:`_log_grid`)."""
    reached = _exponents_up_to(stop) if stop >= 1 else 0
    step = 1
    while budget > 0 and -(-reached // step) > budget:
        step *= 2
    return step


def kept(iterations: np.ndarray, stop: int, max_points: int, stride: int = 1) -> np.ndarray:
    """Boolean mask: which of the recorded ``iterations`` are still checkpoints at ``stop``."""
    iterations = np.asarray(iterations, dtype=np.int64)
    if max_points <= 0:
        return np.zeros(iterations.shape, dtype=bool)
    log_budget, even_budget = _budgets(max_points, stride)
    scaled = stop // stride
    spacing = _even_stride(scaled, even_budget)
    on_stride = iterations % stride == 0
    units = iterations // stride
    on_grid = on_stride & ((units % spacing == 0) | _members(units, _log_grid(scaled, log_budget)))
    return on_grid | ((iterations == 1) & _keeps_first(max_points, stride))


def _members(values: np.ndarray, sorted_grid: np.ndarray) -> np.ndarray:
    """``np.isin(values, sorted_grid)`` for a sorted grid, by binary search (``isin`` sorts both again)."""
    if sorted_grid.size == 0:
        return np.zeros(values.shape, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_grid, values), sorted_grid.size - 1)
    return sorted_grid[at] == values


def on_log_grid(iterations: np.ndarray, stride: int = 1) -> np.ndarray:
    """Boolean mask: which ``iterations`` are on the finest log grid, ``stride * round(10 ** (k / 32))``, or are the
    first iterate (kept beside it with a stride above 1).

    A history keeps all of these until its log-spaced budget runs out (about 10^15 iterations at
    the default ``max_points``), so quantities read at them do not depend on how a run was chunked.

    >>> on_log_grid(np.array([1, 100, 133, 134, 154])).tolist()
    [True, True, True, False, True]
    >>> on_log_grid(np.array([1, 5, 10, 20, 1000]), stride=10).tolist()
    [True, False, True, True, True]
    """
    iterations = np.asarray(iterations, dtype=np.int64)
    if iterations.size == 0:
        return np.zeros(0, dtype=bool)
    units = iterations // stride
    finest = _log_grid_of(_exponents_up_to(max(int(units.max()), 1)), 1)
    return (iterations % stride == 0) & _members(units, finest) | (iterations == 1)


def log_grid_between(start: int, stop: int) -> np.ndarray:
    """The iterations of the finest log grid, ``round(10 ** (k / 32))``, in ``(start, stop]`` (whatever a history
    keeps: a race reads its crossings there, :func:`rmcore.race.first_crossing`).

    >>> log_grid_between(8, 20).tolist()
    [9, 10, 11, 12, 13, 14, 15, 17, 18, 19]
    """
    if stop <= start or stop < 1:
        return np.empty(0, dtype=np.int64)
    finest = _log_grid_of(_exponents_up_to(stop), 1)
    return finest[np.searchsorted(finest, start, side="right") :].copy()
