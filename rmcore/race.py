"""A convergence race: several variants on one game, advanced together and compared.

Each variant runs on the same game for the same number of iterations. A deterministic variant is one
run; a sampled one (sampled regret matching, chance-sampling CFR) is ``seeds`` runs with seeds
``seed, seed + 1, ...``, summarised by the median and the min-max band of their convergence measure
(NashConv in self-play on every game, matrix or tree; the learner's best-response gain against a fixed
opponent: each history's ``gap``).

"First reached ε" is the first of the log-spaced iterations ``round(10 ** (k / 32))`` (32 a decade: 1, 2, 3, ...,
10, 11, 12, 13, 14, 15, 17, ...) at which the variant's measure, the median over its seeds, is at or below ε
(:func:`first_crossing`). The race reads every run's measure at each of these iterations as it passes them, whatever
its history keeps, so the crossing depends on the game, the variant and the seeds alone: not on the history's size or
stride, nor on how the race was split into chunks. The page, its share link, its bundle and ``python -m rmcore race``
all say the same.
Reading a measure costs a row of the history (two best responses), and each reading splits the runs' chunks there: 32
a decade, so they weigh on the first hundred iterations and hardly after. Seconds are the solvers' own time (per seed;
the race's readings left out), interpolated within the chunk where ε was reached.

The runs of one variant keep histories of different lengths (the first run of the first variant, which a page draws in
detail, keeps more rows): a variant's curve is read at the iterations all its runs keep.

>>> import rmcore
>>> result = rmcore.run_race(rmcore.preset("rps-crash"), ["rm", "rm+", "prm+/alternating/linear"], 10_000)
>>> [s.label for s in result.standings]  # doctest: +NORMALIZE_WHITESPACE
['rm · expected · simultaneous · uniform', 'rm+ · expected · simultaneous · uniform',
 'prm+ · expected · alternating · linear']
>>> best = result.standings[2]
>>> best.reached[1e-4].iterations < 10_000 and result.standings[0].reached[1e-4] is None
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _runtime, checkpoints, config
from ._deprecated import getattr_for, warn
from .matrix.games import MatrixGame, NormalFormGame
from .matrix.solver import MatrixVariant
from .solver import Runner
from .trees.cfr import CFRSolver, CFRVariant
from .trees.game import TreeGame
from .validation import history_points, whole_number

__all__ = [
    "Race",
    "RaceResult",
    "Standing",
    "Reached",
    "Curve",
    "run_race",
    "first_crossing",
    "THRESHOLDS",
    "MAX_VARIANTS",
]

#: The levels of the convergence measure (NashConv in self-play, in both families) whose first crossing a race reports.
THRESHOLDS = (1e-2, 1e-3, 1e-4, 1e-6)
#: Most variants in one race (ten curves with their bands are as many as one chart can show apart).
MAX_VARIANTS = 10
#: Seeds per sampled variant by default.
DEFAULT_SEEDS = 5


class Reached(NamedTuple):
    """When a variant's convergence measure first reached a threshold."""

    iterations: int
    seconds: float


class Standing(NamedTuple):
    """One variant's row of the race table."""

    label: str
    iterations: int
    seconds: float  # solver time per seed
    iterations_per_second: float | None
    gap: float  # the median convergence measure now
    reached: dict  # threshold -> Reached, or None ("not yet")
    #: The same measure of the current profile (the last iterate) now, the median over seeds; None where the history
    #: has none (against a fixed opponent the learner's gain is of its average only).
    current_gap: float | None = None


class Curve(NamedTuple):
    """One variant's convergence measure at the log-spaced checkpoints (plus now): median and band."""

    label: str
    iterations: np.ndarray
    median: np.ndarray
    low: np.ndarray
    high: np.ndarray
    runs: int
    #: Nodes touched by then (the median over seeds) at the same checkpoints, where the history counts them (CFR and
    #: its variants: a sampled iteration costs far less than a full pass); None for matrix games.
    work: np.ndarray | None = None


class RaceResult(NamedTuple):
    standings: list[Standing]
    curves: list[Curve]
    gap_name: str


def first_crossing(iterations, values, threshold: float) -> int | None:
    """The first of ``iterations`` at which ``values`` is at or below ``threshold`` (None if none is): how every part
    of the project (a race's table, the pages, a bundle, ``python -m rmcore race``) says when a measure reached a
    level.

    >>> first_crossing([1, 2, 3, 4], [0.5, 0.01, 0.2, 0.001], 0.01)
    2
    """
    iterations, values = np.asarray(iterations), np.asarray(values, dtype=float)
    if iterations.shape != values.shape or iterations.ndim != 1:
        raise ValueError(
            f"iterations and values must be two lists of one length; got {iterations.shape} and {values.shape}"
        )
    below = np.flatnonzero(values <= threshold)
    return int(iterations[below[0]]) if below.size else None


@dataclass
class _Entry:
    label: str
    solvers: list
    seconds: float = 0.0  # total solver time over all seeds
    timeline: list = None  # (iteration, seconds per seed) after each chunk
    #: (iteration, the median measure over the runs) at each iteration of the finest log grid passed
    #: (:func:`rmcore.checkpoints.log_grid_between`): where :func:`first_crossing` is read.
    probes: list = None

    def __post_init__(self):
        self.timeline = [(0, 0.0)]
        self.probes = []

    def advance(self, start: int, stop: int) -> None:
        """Every run from ``start`` to ``stop``, its measure read at each iteration of the log grid on the way; the
        solvers' time is added to ``seconds``, the reading's is not (it is the race's measuring, not the solver's
        work)."""
        at = start
        for probe in checkpoints.log_grid_between(start, stop).tolist():
            self._run(probe - at)
            self.probe(probe)
            at = probe
        self._run(stop - at)

    def _run(self, iterations: int) -> None:
        started = time.perf_counter()
        for solver in self.solvers:
            solver.run(iterations)
        self.seconds += time.perf_counter() - started

    def probe(self, iteration: int) -> None:
        """Read every run's measure now, at ``iteration`` of the log grid."""
        self.probes.append((iteration, float(np.median([solver.metrics().gap for solver in self.solvers]))))


def _parse_variant(game, variant):
    if isinstance(game, NormalFormGame):
        if isinstance(variant, MatrixVariant):
            return variant
        if isinstance(variant, str):
            return MatrixVariant.parse(variant)
        raise ValueError(
            f"a matrix-game variant is a MatrixVariant or a string like 'rm+/sampled'; got {type(variant).__name__}"
        )
    if isinstance(variant, CFRVariant):
        return variant
    if isinstance(variant, str):
        return CFRVariant.parse(variant)
    raise ValueError(
        f"a CFR variant is a CFRVariant or a string like 'cfr+/simultaneous'; got {type(variant).__name__}"
    )


class Race(Runner):
    """Variants of one solver family on one game, advanced together by :meth:`run` (the solvers' ``run(n)`` and
    ``iteration``: :class:`rmcore.solver.Runner`).

    Parameters
    ----------
    game : MatrixGame or TreeGame
    variants : sequence of str, MatrixVariant or CFRVariant
        At most :data:`MAX_VARIANTS`, no repeats; strings as ``MatrixVariant.parse`` / ``CFRVariant.parse`` take them.
    seeds : int
        Runs per sampled variant (1 to 50).
    seed : int
        The first seed.
    opponent : dict, optional
        A fixed opponent, as the solvers take it: ``{"col": weights}`` on a matrix game, one player's whole strategy
        on a game tree (as :func:`rmcore.fixed_strategy` builds it); then only the other player learns.
    start : pair of array_like, optional
        Where learning starts (matrix games only; see :class:`~rmcore.MatrixSolver`).
    max_points : int, optional
        Checkpoint rows the first run of the first variant keeps (the run a page draws in detail); by default
        ``config.DEFAULT_MAX_POINTS``, or fewer within ``history_budget``.
    member_points : int, optional
        Checkpoint rows every other run keeps: it draws one curve. By default ``config.RACE_MEMBER_POINTS``, or fewer
        within ``history_budget``.
    history_budget : int
        The most memory, in bytes, the runs' histories may take where a count is left to its default (a row holds
        the policies: one of Liar's dice with six sides takes megabytes). Both defaults are then scaled down by the same
        share, to at least 2 rows a run. Counts given are kept as given. By default ``config.DEFAULT_HISTORY_BYTES``.
    history_share : float or None
        The share of each run's time its history may take (see :class:`~rmcore.MatrixSolver`).
    mu : float, optional
        The inertia of every ``internal-rm`` variant (see :class:`~rmcore.MatrixSolver`); the other variants take
        none. By default the least Hart & Mas-Colell allow on the game (:func:`rmcore.internal_rm_inertia`).
    """

    def __init__(
        self,
        game,
        variants,
        *,
        seeds: int = DEFAULT_SEEDS,
        seed: int = 0,
        opponent=None,
        start=None,
        max_points: int | None = None,
        member_points: int | None = None,
        history_budget: int = config.DEFAULT_HISTORY_BYTES,
        history_share: float | None = config.HISTORY_SHARE,
        mu: float | None = None,
    ):
        if not isinstance(game, (NormalFormGame, TreeGame)):
            raise ValueError(
                f"game must be a MatrixGame or a TreeGame (rmcore.KUHN), or a NormalFormGame of n players, got "
                f"{type(game).__name__}"
            )
        if isinstance(variants, str) or not hasattr(variants, "__iter__"):
            raise ValueError("variants must be a list of variants, e.g. ['rm', 'rm+/alternating']")
        parsed = [_parse_variant(game, v) for v in variants]
        if not 1 <= len(parsed) <= MAX_VARIANTS:
            raise ValueError(f"a race takes 1 to {MAX_VARIANTS} variants; got {len(parsed)}")
        labels = [v.label for v in parsed]
        if len(set(labels)) != len(labels):
            repeated = next(label for label in labels if labels.count(label) > 1)
            raise ValueError(f"variant {repeated!r} appears more than once")
        seeds = whole_number(seeds, "seeds", 1)
        if seeds > 50:
            raise ValueError(f"seeds must be at most 50, got {seeds}")
        seed = whole_number(seed, "seed", 0)
        if start is not None and not isinstance(game, NormalFormGame):
            raise ValueError("a start is for matrix games")
        if mu is not None and not any(getattr(v, "algorithm", None) == "internal-rm" for v in parsed):
            raise ValueError("mu is the inertia of internal-rm (Hart & Mas-Colell's procedure); no variant here is one")
        if isinstance(game, MatrixGame) and opponent is not None and not isinstance(opponent, dict):
            warn("Race(opponent=weights) is deprecated on a matrix game: give {'col': weights}")
            opponent = {"col": opponent}
        self.game = game
        self.variants = tuple(parsed)
        self.seeds = seeds
        self.seed = seed
        self.opponent = opponent
        self.start = start
        self.mu = mu
        given = [None if points is None else history_points(points) for points in (max_points, member_points)]
        history_budget = whole_number(history_budget, "history_budget", 0)
        self.history_share = history_share
        self._entries = []
        for variant in parsed:
            runs = range(seed, seed + (seeds if variant.is_sampled else 1))
            inertia = {"mu": mu} if mu is not None and variant.algorithm == "internal-rm" else {}
            made = [
                variant.solver(
                    game, opponent=opponent, seed=s, start=start, max_points=0, history_share=history_share, **inertia
                )
                for s in runs
            ]
            self._entries.append(_Entry(variant.label, made))
        # The counts are set once the solvers are made, which know what a row of the game takes.
        self.max_points, self.member_points = self._points_within(history_budget, *given)
        for k, entry in enumerate(self._entries):
            for j, solver in enumerate(entry.solvers):
                solver._keep_rows(self.max_points if k == 0 and j == 0 else self.member_points)
        self._iteration = 0
        # The kernels compiled or loaded before any run is timed (or, in the background, started on their way).
        _runtime.prepare_kernels(("matrix" if isinstance(game, NormalFormGame) else "tree",))

    def fresh(self) -> Race:
        """The same race from iteration 0."""
        return Race(
            self.game,
            self.variants,
            seeds=self.seeds,
            seed=self.seed,
            opponent=self.opponent,
            start=self.start,
            max_points=self.max_points,
            member_points=self.member_points,
            history_share=self.history_share,
            mu=self.mu,
        )

    @staticmethod
    def planned_runs(game, variants, seeds: int = DEFAULT_SEEDS) -> int:
        """How many solvers a race of ``variants`` with ``seeds`` would advance (a sampled variant once per seed),
        known before any is made: a page can trim a race that would not fit before it allocates it."""
        seeds = whole_number(seeds, "seeds", 1)
        return sum(seeds if _parse_variant(game, v).is_sampled else 1 for v in variants)

    def state_bytes(self) -> int:
        """The memory the runs' solver states take (regrets, policies, sums and their work arrays)."""
        return sum(solver.state_bytes() for entry in self._entries for solver in entry.solvers)

    def history_bytes(self, max_points: int | None = None, member_points: int | None = None) -> int:
        """The most memory the runs' histories can take: every run's rows of policies and metrics, at the race's
        counts or at the ones given (the first run keeps ``max_points`` rows, every other ``member_points``)."""
        first = self.max_points if max_points is None else max_points
        others = self.member_points if member_points is None else member_points
        return sum(
            (first if k == 0 and j == 0 else others) * solver.row_bytes()
            for k, entry in enumerate(self._entries)
            for j, solver in enumerate(entry.solvers)
        )

    def _points_within(self, budget: int, first: int | None, others: int | None) -> tuple[int, int]:
        """The rows the first run and every other one keep: the counts given, and in place of a count not given its
        default, or, where the defaults would pass ``budget`` bytes, both scaled down by the same share (see
        ``history_budget``)."""
        wanted = (
            config.DEFAULT_MAX_POINTS if first is None else first,
            config.RACE_MEMBER_POINTS if others is None else others,
        )
        if first is not None and others is not None or self.history_bytes(*wanted) <= budget:
            return wanted
        kept_as_given = self.history_bytes(*(0 if n is None else n for n in (first, others)))
        share = max(budget - kept_as_given, 0) / (self.history_bytes(*wanted) - kept_as_given)
        return tuple(n if n is not None else max(int(want * share), 2) for n, want in zip((first, others), wanted))

    @property
    def solvers(self) -> list:
        """The first run of each variant, in order (the one a page draws in detail)."""
        return [entry.solvers[0] for entry in self._entries]

    @property
    def runs(self) -> int:
        """How many solvers the race advances (a sampled variant counts once per seed)."""
        return sum(len(entry.solvers) for entry in self._entries)

    def _chunk_iterations(self) -> int:
        return config.MAX_ITERATIONS  # (one chunk: every solver runs its own chunks)

    def _run_chunk(self, iterations: int) -> None:
        """Advance every run by ``iterations``, timing each variant's solver."""
        for entry in self._entries:
            entry.advance(self._iteration, self._iteration + iterations)
            entry.timeline.append((self._iteration + iterations, entry.seconds / len(entry.solvers)))
        self._iteration += iterations

    def trace_step(self) -> list:
        """One iteration for every run, the first run's traced (:meth:`CFRSolver.trace_iteration`; CFR races only)."""
        first = self._entries[0].solvers[0]
        if not isinstance(first, CFRSolver):
            raise ValueError("only CFR solvers trace an iteration")
        started = time.perf_counter()
        trace = first.trace_iteration()
        self._entries[0].seconds += time.perf_counter() - started
        for k, entry in enumerate(self._entries):
            started = time.perf_counter()
            for solver in entry.solvers[1 if k == 0 else 0 :]:
                solver.run(1)
            entry.seconds += time.perf_counter() - started
            if checkpoints.log_grid_between(self._iteration, self._iteration + 1).size:
                entry.probe(self._iteration + 1)
            entry.timeline.append((self._iteration + 1, entry.seconds / len(entry.solvers)))
        self._iteration += 1
        return trace

    def histories(self) -> list[list]:
        """Every run's :class:`~rmcore.History`, variant by variant (each read once)."""
        return [[solver.history() for solver in entry.solvers] for entry in self._entries]

    def result(self, histories=None, thresholds=THRESHOLDS) -> RaceResult:
        """The table and the curves now, from ``histories`` (as :meth:`histories` returns; read afresh if omitted).

        A variant's curve is read at the iterations all its runs keep; its crossings at the log grid up to the
        histories' last iteration (:func:`first_crossing`), so that histories read earlier give the table of then.
        """
        if histories is None:
            histories = self.histories()
        standings, curves = [], []
        gap_name = ""
        for entry, runs in zip(self._entries, histories):
            gap_name = runs[0].gap_name
            iterations, rows = _common_rows(runs)
            gaps = np.vstack([h.gap[r] for h, r in zip(runs, rows)])
            grid = checkpoints.on_log_grid(iterations, entry.solvers[0].checkpoint_stride)
            if len(iterations) and not grid[-1]:
                shown = grid.copy()
                shown[-1] = True  # the chart also shows where the run is now
            else:
                shown = grid
            median = np.median(gaps, axis=0) if gaps.size else np.empty(0)
            work = None
            if "nodes_touched" in runs[0].metrics:
                work = np.median(np.vstack([h.metrics["nodes_touched"][r] for h, r in zip(runs, rows)]), axis=0)[shown]
            curves.append(
                Curve(
                    entry.label,
                    iterations[shown],
                    median[shown],
                    gaps.min(axis=0)[shown] if gaps.size else median,
                    gaps.max(axis=0)[shown] if gaps.size else median,
                    len(entry.solvers),
                    work,
                )
            )
            seconds = entry.seconds / len(entry.solvers)
            timeline = np.array(entry.timeline, dtype=float)
            now = int(iterations[-1]) if len(iterations) else 0
            probes = np.array([p for p in list(entry.probes) if p[0] <= now], dtype=float).reshape(-1, 2)
            reached = {}
            for threshold in thresholds:
                at = first_crossing(probes[:, 0].astype(np.int64), probes[:, 1], threshold)
                reached[threshold] = None if at is None else Reached(at, float(np.interp(at, *timeline.T)))
            current = f"{gap_name}_current"
            standings.append(
                Standing(
                    entry.label,
                    self._iteration,
                    seconds,
                    self._iteration / seconds if seconds > 0 else None,
                    float(median[-1]) if median.size else float("nan"),
                    reached,
                    float(np.median([h.metrics[current][-1] for h in runs]))
                    if current in runs[0].metrics and len(iterations)
                    else None,
                )
            )
        return RaceResult(standings, curves, gap_name)


def _common_rows(runs) -> tuple[np.ndarray, list[np.ndarray]]:
    """The iterations every history of ``runs`` keeps, and each history's rows at them (a variant's first run may keep
    more rows than its other runs: its extra ones are left out of the median)."""
    common = runs[0].iterations
    for history in runs[1:]:
        common = np.intersect1d(common, history.iterations, assume_unique=True)
    return common, [np.searchsorted(h.iterations, common) for h in runs]


def run_race(
    game,
    variants,
    iterations: int,
    *,
    seeds: int = DEFAULT_SEEDS,
    seed: int = 0,
    opponent=None,
    start=None,
    chunks: int = 1,
    history_share: float | None = config.HISTORY_SHARE,
) -> RaceResult:
    """Run a :class:`Race` for ``iterations`` (in ``chunks`` equal steps) and return its result.

    ``game`` is a :class:`~rmcore.MatrixGame` or a :class:`~rmcore.TreeGame` such as :data:`rmcore.KUHN`;
    ``variants`` and ``history_share`` as :class:`Race` takes them.
    """
    iterations = whole_number(iterations, "iterations", 1)
    chunks = whole_number(chunks, "chunks", 1)
    contest = Race(game, variants, seeds=seeds, seed=seed, opponent=opponent, start=start, history_share=history_share)
    done = 0
    for k in range(1, chunks + 1):
        target = iterations * k // chunks
        contest.run(target - done)
        done = target
    return contest.result()


# (``race``, this function's name one release ago, is the module's: read inside it, it warns and answers)
__getattr__ = getattr_for(__name__)
