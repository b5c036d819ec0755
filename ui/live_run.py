"""The live-run controller: a solver advanced in bounded chunks, one per screen update.

Free of Streamlit so it can be tested on its own; the page keeps one instance per browser session
in ``st.session_state`` and calls :meth:`LiveRun.tick` from a fragment that reruns a few times a
second while the run flag is on.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

import rmcore

#: Speed choices: iterations per screen update, or None for "as many as fit in the time budget".
SPEEDS: dict[str, int | None] = {
    "1 per update": 1,
    "10 per update": 10,
    "100 per update": 100,
    "1,000 per update": 1_000,
    "as fast as possible": None,
}
#: Seconds of solver time per screen update at full speed: leaves room to draw 4+ updates a second.
TIME_BUDGET = 0.025
#: Seconds between screen updates while running.
UPDATE_INTERVAL = 0.1
#: History rows kept for the charts: a few hundred points per trace look smooth, and every point
#: costs drawing time in the browser on each update.
CHART_POINTS = 250
_MAX_CHUNK = 50_000_000


@dataclass(frozen=True)
class RunSettings:
    """Everything that changes the dynamics: a change means a new run."""

    algorithm: str = "rm"
    sampling: str = "expected"
    updates: str = "simultaneous"
    averaging: str = "uniform"
    opponent: tuple[float, ...] | None = None
    seed: int = 0


class LiveRun:
    """A :class:`rmcore.MatrixSolver` that advances chunk by chunk and knows how fast it goes."""

    def __init__(self, game: rmcore.MatrixGame, settings: RunSettings):
        self.game = game
        self.settings = settings
        self.solver = rmcore.MatrixSolver(
            game,
            algorithm=settings.algorithm,
            sampling=settings.sampling,
            updates=settings.updates,
            averaging=settings.averaging,
            opponent=settings.opponent,
            seed=settings.seed,
            max_points=CHART_POINTS,
        )
        self.running = False
        self._rate = 1e5  # iterations per second of solver time; refined after every chunk
        self._progress = deque(maxlen=12)  # (wall time, iteration) at recent updates

    @property
    def iteration(self) -> int:
        return self.solver.iteration

    def step(self, iterations: int) -> None:
        """Advance exactly ``iterations`` (a Step button)."""
        self._advance(iterations)

    def chunk_size(self, speed: int | None) -> int:
        """Iterations for the next update: the chosen count, or what fits in ``TIME_BUDGET``."""
        if speed is not None:
            return speed
        return int(min(max(self._rate * TIME_BUDGET, 1), _MAX_CHUNK))

    def tick(self, speed: int | None) -> int:
        """One screen update's worth of iterations; returns how many ran."""
        size = self.chunk_size(speed)
        self._advance(size)
        return size

    def _advance(self, iterations: int) -> None:
        started = time.perf_counter()
        self.solver.run(iterations)
        elapsed = time.perf_counter() - started
        if iterations >= 100 and elapsed > 0:
            # Smooth the estimate so one slow chunk (a compile, a busy machine) does not starve the next.
            self._rate = 0.5 * self._rate + 0.5 * iterations / elapsed
        self._progress.append((time.perf_counter(), self.solver.iteration))

    def iterations_per_second(self) -> float | None:
        """Progress over the last few updates in wall-clock time (None until there are two)."""
        if len(self._progress) < 2:
            return None
        (t0, i0), (t1, i1) = self._progress[0], self._progress[-1]
        return (i1 - i0) / (t1 - t0) if t1 > t0 else None
