"""Which iterations a bounded history keeps: log-spaced early, evenly spaced later.

The set of checkpoints after ``T`` iterations is a function of ``T`` and ``max_points`` only, and
shrinks by dropping points (never adding past ones) as ``T`` grows. So a run split into chunks
records exactly the rows a single run would, and memory stays flat however long it runs.

* Log-spaced part (a quarter of the budget): ``round(10 ** (k * step / 32))`` for ``k = 0, 1, ...``;
  ``step`` doubles (keeping every other point) whenever the part would exceed its budget.
* Evenly spaced part (the rest): multiples of a stride that doubles in the same way.

>>> checkpoints_between(0, 20, max_points=8).tolist()
[1, 4, 8, 10, 12, 16, 20]
>>> len(checkpoints_between(0, 10**8, max_points=2000)) <= 2000
True
"""

from __future__ import annotations

import functools

import numpy as np

from . import config


def _budgets(max_points: int) -> tuple[int, int]:
    log_budget = int(max_points * config.LOG_CHECKPOINT_SHARE)
    return log_budget, max_points - log_budget


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


def _log_grid(stop: int, max_points: int) -> np.ndarray:
    """The log-spaced checkpoints up to ``stop`` (read-only; cached: a live page asks on every update)."""
    budget, _ = _budgets(max_points)
    if budget == 0 or stop < 1:
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


def _even_stride(stop: int, max_points: int) -> int:
    _, budget = _budgets(max_points)
    stride = 1
    while stop // stride > budget:
        stride *= 2
    return stride


def checkpoints_between(start: int, stop: int, max_points: int) -> np.ndarray:
    """The checkpoints in ``(start, stop]`` that the history keeps once ``stop`` iterations have run."""
    if max_points <= 0 or stop <= start:
        return np.empty(0, dtype=np.int64)
    stride = _even_stride(stop, max_points)
    first = (start // stride + 1) * stride
    even = np.arange(first, stop + 1, stride, dtype=np.int64)
    log = _log_grid(stop, max_points)
    log = log[log > start]
    return np.union1d(even, log)


def kept(iterations: np.ndarray, stop: int, max_points: int) -> np.ndarray:
    """Boolean mask: which of the recorded ``iterations`` are still checkpoints at ``stop``."""
    iterations = np.asarray(iterations, dtype=np.int64)
    if max_points <= 0:
        return np.zeros(iterations.shape, dtype=bool)
    stride = _even_stride(stop, max_points)
    return (iterations % stride == 0) | _members(iterations, _log_grid(stop, max_points))


def _members(values: np.ndarray, sorted_grid: np.ndarray) -> np.ndarray:
    """``np.isin(values, sorted_grid)`` for a sorted grid, by binary search (``isin`` sorts both again)."""
    if sorted_grid.size == 0:
        return np.zeros(values.shape, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_grid, values), sorted_grid.size - 1)
    return sorted_grid[at] == values


def on_log_grid(iterations: np.ndarray) -> np.ndarray:
    """Boolean mask: which ``iterations`` are on the finest log grid, ``round(10 ** (k / 32))``.

    A history keeps all of these until its log-spaced budget runs out (about 10^15 iterations at
    the default ``max_points``), so quantities read at them do not depend on how a run was chunked.

    >>> on_log_grid(np.array([1, 100, 133, 134, 154])).tolist()
    [True, True, True, False, True]
    """
    iterations = np.asarray(iterations, dtype=np.int64)
    if iterations.size == 0:
        return np.zeros(0, dtype=bool)
    return _members(iterations, _log_grid_of(_exponents_up_to(iterations.max()), 1))
