"""``python -m rmcore bench``: rmcore's speed, each figure beside a baseline measured in the same process, with its
target.

Timings on a shared machine drift from one second to the next, so every contender runs several times, interleaved
with its baseline, after a warm-up spin, and the median of each is kept (a ratio compares two medians of the same
rounds). The numpy baselines run with ``OPENBLAS_NUM_THREADS=1`` (the bench re-executes itself so that the variable is
set before numpy loads). The compile rows run fresh interpreters on an empty numba cache of their own.

Every row is a :class:`Row`; ``--json PATH`` writes them with the machine, the date and the load to a data file (the
documentation draws its figures from ``docs/performance/bench.json``), ``--markdown`` prints the table as Markdown.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import checkpoints, config
from .matrix.games import preset
from .matrix.solver import ALGORITHMS, CORRELATED_ALGORITHMS, ONLY_FORMS, MatrixSolver
from .solver import _measure_row_cost, measured_row_cost

__all__ = ["Row", "measure", "main", "machine", "numpy_self_play", "liteefg_run", "histories"]


class Row(NamedTuple):
    """One measurement: ``value`` in ``unit`` (``"ns"``, ``"us"``, ``"ms"``, ``"s"`` or ``"x"``), the baseline it was
    compared with (words, or ``""``), their ratio where there is one, and the target in words with whether it was
    met (``None`` where a row has no target)."""

    key: str
    name: str
    value: float
    unit: str
    baseline: str = ""
    ratio: float | None = None
    target: str = ""
    met: bool | None = None

    def cells(self) -> tuple[str, str, str, str, str]:
        """The row as the printed table shows it."""
        ratio = "" if self.ratio is None else f"{self.ratio:.3g}x" if self.ratio < 100 else f"{self.ratio:.0f}x"
        verdict = "" if self.met is None else (" (met)" if self.met else " (NOT MET)")
        return self.name, f"{self.value:.4g} {self.unit}", self.baseline, ratio, self.target + verdict


def _median_of(functions: dict[str, Callable[[], float | None]], repeats: int, timed_inside: bool = False) -> dict:
    """Each function's median seconds over ``repeats`` interleaved rounds; with ``timed_inside``, a function times
    itself and returns its seconds (to leave its set-up out)."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            started = time.perf_counter()
            seconds = function()
            times[name].append(seconds if timed_inside else time.perf_counter() - started)
    return {name: statistics.median(values) for name, values in times.items()}


def _spin(seconds: float = 1.0) -> None:
    """Busy-wait so that the processor is at full clock before the first measurement."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def numpy_self_play(row_payoffs: np.ndarray, iterations: int, sampled: bool, seed: int = 0) -> np.ndarray:
    """The straightforward numpy loop the tutorials write: regret matching, one iteration at a time."""
    col_payoffs = -row_payoffs
    m, n = row_payoffs.shape
    rng = np.random.default_rng(seed)
    regrets_row, regrets_col = np.zeros(m), np.zeros(n)
    sums_row, sums_col = np.zeros(m), np.zeros(n)

    def strategy(regrets):
        positive = np.maximum(regrets, 0.0)
        total = positive.sum()
        return positive / total if total > 0 else np.full(len(regrets), 1.0 / len(regrets))

    for _ in range(iterations):
        x, y = strategy(regrets_row), strategy(regrets_col)
        if sampled:
            a, b = rng.choice(m, p=x), rng.choice(n, p=y)
            regrets_row += row_payoffs[:, b] - row_payoffs[a, b]
            regrets_col += col_payoffs[a, :] - col_payoffs[a, b]
        else:
            u_row, u_col = row_payoffs @ y, col_payoffs.T @ x
            regrets_row += u_row - x @ u_row
            regrets_col += u_col - y @ u_col
        sums_row += x
        sums_col += y
    return sums_row / iterations


#: The algorithms compared with LiteEFG: ours by variant and update order, LiteEFG's baseline module, its label and
#: the averaging its own training script uses. LiteEFG's CFR updates both players at once; its CFR+ and PCFR+
#: alternate, with the last instantaneous regret as PCFR+'s prediction, as ours (tests/test_liteefg.py).
_LITEEFG_ALGORITHMS = (
    ("cfr", "simultaneous", "CFR", "CFR", "avg-iterate"),
    ("cfr+", "alternating", "CFRplus", "CFR+", "linear-avg-iterate"),
    ("pcfr+", "alternating", "PCFR", "PCFR+", "linear-avg-iterate"),
)


def liteefg_run(openspiel_name: str, module: str):
    """LiteEFG's baseline ``module`` (``"CFR"``, ``"CFRplus"``, ``"PCFR"``) on an OpenSpiel game, as its training
    script sets it up: ``(env, graph, step)``, where ``step()`` runs one iteration (the update, then the average's).
    None when LiteEFG (optional, built from its source package by pip) is not installed."""
    import contextlib
    import importlib
    import io

    try:
        import LiteEFG
        import pyspiel
    except ImportError:
        return None
    with contextlib.redirect_stdout(io.StringIO()):  # (its graphs print a banner when built)
        env = LiteEFG.OpenSpielEnv(pyspiel.load_game(openspiel_name))
        graph = importlib.import_module(f"LiteEFG.baselines.{module}").graph()
        env.set_graph(graph)
    strategy = graph.current_strategy()

    def step():
        graph.update_graph(env)
        env.update_strategy(strategy)

    return env, graph, step


def _liteefg_installed() -> bool:
    try:
        import LiteEFG  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def histories(game) -> int:
    """A tree game's histories as OpenSpiel counts them: our nodes, and the chance nodes above the deals (which the
    arrays fold into the deals' probabilities)."""
    above = {path[:k] for path in game.deal_paths for k in range(len(path))}
    return game.tree.player.shape[0] + len(above)


def machine() -> str:
    """The machine a table was measured on: platform, CPU model, usable cores, Python, numpy and numba versions."""
    import platform

    import numba

    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{platform.platform()}, {cpu}, {cores} cores; Python {platform.python_version()}, "
        f"numpy {np.__version__}, numba {numba.__version__}"
    )


# -- matrix games ------------------------------------------------------------------------------------------------

#: The shapes the matrix rows measure: the lessons' 3x3, a few small ones, a wide one and a large one.
MATRIX_SHAPES = ((3, 3), (3, 4), (5, 5), (64, 64), (1000, 1000))


def _matrix_game(m: int, n: int):
    return preset("rps-crash") if (m, n) == (3, 3) else preset("random-zero-sum", rows=m, cols=n, seed=1)


def _matrix_rows(quick: bool) -> list[Row]:
    rows = []
    repeats = 3 if quick else 7
    small = _matrix_game(3, 3)
    A = np.array(small.row_payoffs)
    numpy_iterations = 2_000 if quick else 20_000
    our_iterations = 200_000 if quick else 2_000_000
    for sampling in ("expected", "sampled"):
        solver = MatrixSolver(small, sampling=sampling, seed=1, max_points=0)
        solver.run(10)
        times = _median_of(
            {
                "rmcore": lambda s=solver: s.run(our_iterations),
                "numpy": lambda sampled=(sampling == "sampled"): numpy_self_play(A, numpy_iterations, sampled),
            },
            repeats,
        )
        ours, theirs = times["rmcore"] / our_iterations, times["numpy"] / numpy_iterations
        ratio = theirs / ours
        rows.append(
            Row(
                f"matrix_3x3_{sampling}",
                f"3x3 self-play, {sampling}, rm: per iteration",
                ours * 1e9,
                "ns",
                f"{theirs * 1e6:.2f} us (numpy loop)",
                ratio,
                ">= 400x the numpy loop",
                ratio >= 400,
            )
        )
    rows += _rule_rows(small, our_iterations // 2, repeats)
    rows += _shape_rows(quick, repeats)
    rows += _matrix_history_rows(quick, repeats)
    return rows


def _rule_rows(game, iterations: int, repeats: int) -> list[Row]:
    """Each rule beside regret matching on 3x3 expected self-play, in the same interleaved rounds, from a start off
    the equilibrium (a long run reaches the regime each rule settles in: Hedge's and GDA's strategies at the boundary,
    the optimistic ones' at the equilibrium). The learners of correlated equilibria, whose work an iteration grows
    with the square of the actions, have rows of their own (:func:`_correlated_rows`)."""
    start = ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6])
    rows = []
    for updates in ("simultaneous", "alternating"):
        rules = [
            rule
            for rule in ALGORITHMS
            if rule not in CORRELATED_ALGORITHMS and ONLY_FORMS.get(rule, {}).get("updates", updates) == updates
        ]
        solvers = {
            rule: MatrixSolver(game, algorithm=rule, updates=updates, start=start, max_points=0) for rule in rules
        }
        for solver in solvers.values():
            solver.run(10)
        times = _median_of({rule: lambda s=solver: s.run(iterations) for rule, solver in solvers.items()}, repeats)
        rm = times["rm"] / iterations
        for rule in rules:
            ours = times[rule] / iterations
            ratio = ours / rm
            rows.append(
                Row(
                    f"matrix_rule_{rule}_{updates}",
                    f"3x3 self-play, {rule}, {updates}: per iteration",
                    ours * 1e9,
                    "ns",
                    "" if rule == "rm" else f"{rm * 1e9:.1f} ns (rm, {updates})",
                    None if rule == "rm" else ratio,
                    "" if rule == "rm" else "<= 1.5x rm",
                    None if rule == "rm" else ratio <= 1.5,
                )
            )
    return rows


def _shape_rows(quick: bool, repeats: int) -> list[Row]:
    """Regret matching on every shape, per iteration and per cell; the largest against one ``A.sum()`` (an iteration
    reads the matrix once: a pass over memory is its floor)."""
    rows = []
    for m, n in MATRIX_SHAPES:
        game = _matrix_game(m, n)
        matrix = np.array(game.row_payoffs)
        solver = MatrixSolver(game, max_points=0)
        solver.run(2)
        steps = max(5, int((3e6 if quick else 3e7) // (m * n + m + n)))
        contenders = {"rmcore": lambda s=solver, k=steps: s.run(k)}
        large = m * n >= 10**6
        if large:
            contenders["sum"] = lambda k=steps, a=matrix: [a.sum() for _ in range(k)]
        times = _median_of(contenders, repeats)
        ours = times["rmcore"] / steps
        if large:
            theirs = times["sum"] / steps
            ratio = ours / theirs
            rows.append(
                Row(
                    f"matrix_shape_{m}x{n}",
                    f"{m}x{n} self-play, rm: per iteration",
                    ours * 1e3,
                    "ms",
                    f"{theirs * 1e3:.3f} ms (A.sum())",
                    ratio,
                    "<= 1.2x one A.sum()",
                    ratio <= 1.2,
                )
            )
        else:
            rows.append(
                Row(
                    f"matrix_shape_{m}x{n}",
                    f"{m}x{n} self-play, rm: per iteration",
                    ours * 1e9,
                    "ns",
                    f"{ours / (m * n) * 1e9:.2f} ns a cell",
                )
            )
    return rows


def _matrix_history_rows(quick: bool, repeats: int) -> list[Row]:
    """A default solver (checkpoints spaced by their cost) against the kernel alone, and a history row's cost in
    iterations, in the default run and back to back, beside the price the spacing measured
    (:func:`rmcore.solver.measured_row_cost`)."""
    rows = []
    shapes = ((3, 3, 2_000_000), (64, 64, 20_000), (10, 1000, 20_000))  # (a rectangular game pads its rows)
    for m, n, iterations in ((m, n, k // 10 if quick else k) for m, n, k in shapes):
        game = _matrix_game(m, n)

        def fresh(max_points, k=iterations, game=game):
            solver = MatrixSolver(game, max_points=max_points)
            started = time.perf_counter()
            solver.run(k)
            return time.perf_counter() - started

        fresh(None), fresh(0)
        times = _median_of(
            {"default": lambda: fresh(None), "kernel": lambda: fresh(0)},
            repeats,
            timed_inside=True,
        )
        ratio = times["default"] / times["kernel"]
        rows.append(
            Row(
                f"matrix_default_{m}x{n}",
                f"{m}x{n} rm, default history, {iterations:,} its",
                times["default"] * 1e3,
                "ms",
                f"{times['kernel'] * 1e3:.1f} ms (kernel alone)",
                ratio,
                "<= 1.1x the kernel alone",
                ratio <= 1.1,
            )
        )
        rows.append(
            _row_cost_in_run_row(f"matrix_row_cost_in_run_{m}x{n}", f"{m}x{n}", MatrixSolver(game), iterations, times)
        )
        rows.append(
            _row_cost_row(
                f"matrix_row_cost_{m}x{n}",
                f"{m}x{n} history row, in iterations",
                lambda game=game, **options: MatrixSolver(game, **options),
                iterations // 100,
                repeats,
            )
        )
    return rows


def _row_cost_in_run_row(key: str, title: str, spaced, iterations: int, times: dict) -> Row:
    """What a row costs where a default run of ``iterations`` records it (its metrics, and the fresh memory it is
    written to), in iterations: the default run's time beyond the kernel's alone (``times``) over the rows its chunks
    recorded (some are thinned later), beside the price the spacing measured for ``spaced``'s kind of solver."""
    recorded = 0
    for start in range(0, iterations, spaced._chunk_iterations()):
        stop = min(start + spaced._chunk_iterations(), iterations)
        recorded += checkpoints.checkpoints_between(start, stop, spaced.max_points, spaced.checkpoint_stride).size
    per_row = (times["default"] - times["kernel"]) / max(recorded, 1) / (times["kernel"] / iterations)
    return Row(
        key,
        f"{title} history row in the default run, in iterations ({recorded:,} rows recorded)",
        per_row,
        "x",
        _price(spaced, timed=True),
    )


def _price(solver, timed: bool = False) -> str:
    """The price of a row the spacing measured for ``solver``'s kind and the stride it gives, in words; ``timed``: with
    the time one more measurement takes (what the first run of that kind in a process spends on it)."""
    words = f"{measured_row_cost(solver):.2f} (measured price; stride {solver.checkpoint_stride:,}"
    if timed:
        started = time.perf_counter()
        _measure_row_cost(solver)
        words += f"; measured in {(time.perf_counter() - started) * 1e3:.0f} ms"
    return words + ")"


def _row_cost_row(key: str, name: str, make: Callable, n: int, repeats: int) -> Row:
    """A history row's cost inside a run, in iterations: ``n`` iterations recording a row after every one (no
    spacing) against the same iterations alone, beside the price the spacing measured (rows apart, in fresh memory:
    :func:`rmcore.solver.measured_row_cost`)."""

    points = config.DEFAULT_MAX_POINTS

    def fresh(dense: bool) -> float:
        solver = make(max_points=points, history_share=None) if dense else make(max_points=0)
        solver.run(1)
        started = time.perf_counter()
        solver.run(n)
        return time.perf_counter() - started

    times = _median_of({"dense": lambda: fresh(True), "kernel": lambda: fresh(False)}, repeats, timed_inside=True)
    rows = len(checkpoints.checkpoints_between(1, n + 1, points))
    measured = (times["dense"] - times["kernel"]) / rows / (times["kernel"] / n)
    return Row(key, name, measured, "x", _price(make()))


# -- game trees ----------------------------------------------------------------------------------------------------


class _TreeGame(NamedTuple):
    """A game tree the bench runs: its title, builder, OpenSpiel string (made turn-based when its moves are
    simultaneous), CFR's target per iteration in seconds, and how many iterations a timed call runs."""

    key: str
    title: str
    build: Callable
    openspiel: str
    target: float
    iterations: int


def _tree_games() -> tuple[_TreeGame, ...]:
    from .trees.goofspiel import goofspiel_game
    from .trees.kuhn import KUHN
    from .trees.liars_dice import liars_dice_game
    from .trees.poker import leduc_poker

    return (
        _TreeGame("kuhn", "Kuhn", lambda: KUHN, "kuhn_poker", 1e-6, 1000),
        _TreeGame("leduc", "Leduc", leduc_poker, "leduc_poker", 50e-6, 200),
        _TreeGame("liars_dice_6", "Liar's dice 6", lambda: liars_dice_game(6), "liars_dice", 3e-3, 10),
        _TreeGame(
            "goofspiel_5",
            "Goofspiel 5",
            lambda: goofspiel_game(5),
            "goofspiel(num_cards=5,imp_info=True,points_order=descending)",
            0.15e-3,
            50,
        ),
    )


def _openspiel_game(name: str):
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    return game


def _openspiel_cfr_seconds(game, n: int) -> float:
    """Seconds of ``n`` iterations of OpenSpiel's C++ ``CFRSolver`` on ``game``, from the second of a fresh run (the
    first allocates; OpenSpiel's iteration skips what no player reaches, as ours)."""
    import pyspiel

    fresh = pyspiel.CFRSolver(game)
    fresh.evaluate_and_update_policy()
    started = time.perf_counter()
    for _ in range(n):
        fresh.evaluate_and_update_policy()
    return time.perf_counter() - started


def _format_seconds(seconds: float) -> tuple[float, str]:
    if seconds < 1e-6:
        return seconds * 1e9, "ns"
    if seconds < 1e-3:
        return seconds * 1e6, "us"
    if seconds < 1.0:
        return seconds * 1e3, "ms"
    return seconds, "s"


def _tree_rows(quick: bool) -> list[Row]:
    """CFR (alternating updates, as OpenSpiel's) per iteration on each game against its target and OpenSpiel's C++
    CFRSolver on the same game; a default solver against the kernel alone; a history row's cost; the exploitability
    of the average policy against OpenSpiel's."""
    from .trees.cfr import CFRSolver

    import_openspiel = _openspiel_game
    rows = []
    repeats = 3 if quick else 5
    for game_spec in _tree_games():
        game = game_spec.build()
        n = max(1, game_spec.iterations // (4 if quick and game_spec.key != "kuhn" else 1))

        def ours(game=game, n=n):  # a run of n iterations, from the second of a fresh run (the first allocates)
            fresh = CFRSolver(game, "cfr", max_points=0)
            fresh.run(1)
            started = time.perf_counter()
            fresh.run(n)
            return time.perf_counter() - started

        contenders = {"rmcore": ours}
        theirs_game = import_openspiel(game_spec.openspiel)
        their_n = max(1, n // 20) if game_spec.key == "kuhn" else n
        if theirs_game is not None:
            contenders["openspiel"] = lambda game=theirs_game, n=their_n: _openspiel_cfr_seconds(game, n)
        times = _median_of(contenders, repeats, timed_inside=True)
        per_iteration = times["rmcore"] / n
        value, unit = _format_seconds(per_iteration)
        target_value, target_unit = _format_seconds(game_spec.target)
        baseline, ratio = "(open_spiel not installed)", None
        if "openspiel" in times:
            theirs_seconds = times["openspiel"] / their_n
            baseline = "{:.4g} {} (OpenSpiel C++)".format(*_format_seconds(theirs_seconds))
            ratio = theirs_seconds / per_iteration
        rows.append(
            Row(
                f"tree_cfr_{game_spec.key}",
                f"{game_spec.title} CFR: per iteration" + (" (in a run of 1,000)" if game_spec.key == "kuhn" else ""),
                value,
                unit,
                baseline,
                ratio,
                f"<= {target_value:g} {target_unit}",
                per_iteration <= game_spec.target,
            )
        )
        rows.append(
            Row(
                f"tree_cfr_per_history_{game_spec.key}",
                f"{game_spec.title} CFR: per history per iteration",
                per_iteration / histories(game) * 1e9,
                "ns",
                f"{histories(game):,} histories",
            )
        )
        if game_spec.key != "kuhn":
            rows += _tree_history_rows(game_spec, game, quick, repeats)
        rows += _exploitability_rows(game_spec, game, theirs_game, quick)
    return rows


def _tree_history_rows(game_spec: _TreeGame, game, quick: bool, repeats: int) -> list[Row]:
    """A default ``CFRSolver(game).run(n)`` against the kernel alone, and a history row's cost in iterations, in the
    default run and back to back, beside the price the spacing measured (:func:`rmcore.solver.measured_row_cost`)."""
    from .trees.cfr import CFRSolver

    n = game_spec.iterations * (2 if quick else 10)

    def fresh(max_points, n=n):
        solver = CFRSolver(game, "cfr", max_points=max_points)
        started = time.perf_counter()
        solver.run(n)
        return time.perf_counter() - started

    measured_row_cost(CFRSolver(game, "cfr"))  # (measured once a process: its time is shown apart, not this run's)
    times = _median_of({"default": lambda: fresh(None), "kernel": lambda: fresh(0)}, repeats, timed_inside=True)
    ratio = times["default"] / times["kernel"]
    value, unit = _format_seconds(times["default"])
    kernel_value, kernel_unit = _format_seconds(times["kernel"])
    rows = [
        Row(
            f"tree_default_{game_spec.key}",
            f"{game_spec.title} CFR, default history, {n:,} its",
            value,
            unit,
            f"{kernel_value:.4g} {kernel_unit} (kernel alone)",
            ratio,
            "<= 1.1x the kernel alone",
            ratio <= 1.1,
        ),
        _row_cost_in_run_row(
            f"tree_row_cost_in_run_{game_spec.key}", game_spec.title, CFRSolver(game, "cfr"), n, times
        ),
    ]
    rows.append(
        _row_cost_row(
            f"tree_row_cost_{game_spec.key}",
            f"{game_spec.title} history row, in iterations",
            lambda **options: CFRSolver(game, "cfr", **options),
            max(2, game_spec.iterations // 2),
            repeats,
        )
    )
    return rows


def _exploitability_rows(game_spec: _TreeGame, game, theirs_game, quick: bool) -> list[Row]:
    """The exploitability of CFR's average policy after 10 iterations (``metrics()``: both best responses and the
    value), against OpenSpiel's C++ ``exploitability`` of the same policy; Kuhn's against a target per call."""
    from .trees.cfr import CFRSolver

    solver = CFRSolver(game, "cfr", max_points=0)
    solver.run(10)
    calls = {"kuhn": 20_000, "leduc": 200, "liars_dice_6": 5, "goofspiel_5": 100}[game_spec.key]
    calls = max(1, calls // (10 if quick else 1))
    contenders = {"rmcore": lambda: [solver.metrics() for _ in range(calls)]}
    # OpenSpiel's exploitability of Liar's dice takes seconds a call: once, and not with --quick.
    their_calls = 1 if game_spec.key == "liars_dice_6" else max(1, calls // 10)
    if theirs_game is not None and not (quick and game_spec.key == "liars_dice_6"):
        import pyspiel

        theirs = pyspiel.CFRSolver(theirs_game)
        for _ in range(10):
            theirs.evaluate_and_update_policy()
        contenders["openspiel"] = lambda: [
            pyspiel.exploitability(theirs_game, theirs.average_policy()) for _ in range(their_calls)
        ]
    times = _median_of(contenders, 1 if game_spec.key == "liars_dice_6" else 3)
    ours = times["rmcore"] / calls
    value, unit = _format_seconds(ours)
    if "openspiel" in times:
        theirs_seconds = times["openspiel"] / their_calls
        baseline = "{:.4g} {} (OpenSpiel C++)".format(*_format_seconds(theirs_seconds))
        ratio = theirs_seconds / ours
    else:
        baseline, ratio = "(OpenSpiel left out)", None
    kuhn = game_spec.key == "kuhn"
    return [
        Row(
            f"tree_exploitability_{game_spec.key}",
            f"{game_spec.title} exploitability (metrics()): per call",
            value,
            unit,
            baseline,
            ratio,
            "<= 10 us" if kuhn else "",
            ours <= 10e-6 if kuhn else None,
        )
    ]


def _leduc_lp_row(quick: bool) -> list[Row]:
    from .exact.sequence_form import solve
    from .trees.poker import leduc_poker

    solve(leduc_poker())  # (scipy's first import is not the LP's time)
    times = _median_of({"lp": lambda: solve(leduc_poker())}, 1 if quick else 3)
    return [
        Row(
            "tree_lp_leduc",
            "Leduc sequence-form LP (value and equilibrium)",
            times["lp"],
            "s",
            "",
            None,
            "< 5 s",
            times["lp"] < 5.0,
        )
    ]


def _liteefg_rows(quick: bool) -> list[Row]:
    """CFR, CFR+ and predictive CFR+ on Kuhn and Leduc against LiteEFG's C++ engine in the same process: the same
    iterations of a fresh run on both sides (from the second: the first allocates)."""
    from .trees.cfr import CFRSolver
    from .trees.kuhn import KUHN
    from .trees.poker import leduc_poker

    installed = _liteefg_installed()
    rows = []
    games = (
        ("kuhn", "Kuhn", KUHN, "kuhn_poker", 500 if quick else 2_000),
        ("leduc", "Leduc", leduc_poker(), "leduc_poker", 5 if quick else 30),
    )
    for key, title, game, openspiel_name, n in games:
        for variant, updates, module, label, _ in _LITEEFG_ALGORITHMS:

            def ours(variant=variant, updates=updates, game=game, n=n):
                fresh = CFRSolver(game, variant, updates, max_points=0)
                fresh.run(1)
                started = time.perf_counter()
                fresh.run(n)
                return time.perf_counter() - started

            def theirs(module=module, n=n, openspiel_name=openspiel_name):
                step = liteefg_run(openspiel_name, module)[2]
                step()
                started = time.perf_counter()
                for _ in range(n):
                    step()
                return time.perf_counter() - started

            contenders = {"rmcore": ours, "liteefg": theirs} if installed else {"rmcore": ours}
            times = _median_of(contenders, 3 if quick else 5, timed_inside=True)
            per_iteration = times["rmcore"] / n
            value, unit = _format_seconds(per_iteration)
            name = f"{title} {variant}" + (" (simultaneous)" if updates == "simultaneous" else "") + ": per iteration"
            if "liteefg" in times:
                baseline = "{:.4g} {} (LiteEFG {})".format(*_format_seconds(times["liteefg"] / n), label)
                ratio = times["liteefg"] / times["rmcore"]
                rows.append(Row(f"liteefg_{key}_{variant}", name, value, unit, baseline, ratio, ">= 3x", ratio >= 3))
            else:
                rows.append(Row(f"liteefg_{key}_{variant}", name, value, unit, "(LiteEFG not installed)"))
    return rows


# -- the frontier variants ----------------------------------------------------------------------------------------

#: The variants published since 2023 against their closest established kin: (title, game, iterations a round,
#: baseline, contenders), each contender at most 1.2 times its baseline an iteration.
_FRONTIER_CASES = (
    ("Kuhn", "kuhn", 5_000, "pcfr+", ("pdcfr+", "dcfr+")),
    ("Leduc", "leduc", 50, "pcfr+", ("pdcfr+", "dcfr+")),
    ("3x3", "3x3", 100_000, "prm+", ("sprm+", "exrm+")),
    ("64x64", "64x64", 3_000, "prm+", ("sprm+", "exrm+")),
)
#: The rules that evaluate the regrets more than once an iteration: extragradient RM+, a look-ahead and a step.
_EVALUATIONS = {"exrm+": 2}


def _frontier_solvers(key: str, names) -> dict:
    from .trees.cfr import CFRSolver
    from .trees.kuhn import KUHN
    from .trees.poker import leduc_poker

    if key in ("kuhn", "leduc"):
        game = KUHN if key == "kuhn" else leduc_poker()
        return {name: CFRSolver(game, name, max_points=0) for name in names}
    game = _matrix_game(3, 3) if key == "3x3" else _matrix_game(64, 64)
    start = ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6]) if key == "3x3" else None
    return {name: MatrixSolver(game, name, start=start, max_points=0) for name in names}


def _frontier_rows(quick: bool) -> list[Row]:
    """PDCFR+ and DCFR+ against PCFR+ (alternating updates), SPRM+ and ExRM+ against PRM+ (simultaneous self-play),
    an iteration each, in the same rounds.

    Where a solver's arrays lie in memory moves its time (PRM+ on the 64x64 game, from one set of solvers to another,
    while the same solver measured again stays put: arrays 4 KiB apart make the processor stall loads behind stores
    it takes for the same place). So each case runs on several fresh sets of solvers, all kept alive (new
    arrays, new places), and a time is the median over the sets of each set's median over its rounds."""
    instances, rounds = (3, 5) if quick else (7, 9)
    rows = []
    for title, key, iterations, baseline, contenders in _FRONTIER_CASES:
        names = (baseline, *contenders)
        kept, per_instance = [], {name: [] for name in names}
        n = max(iterations // (4 if quick else 1), 1)
        for _ in range(instances):
            solvers = _frontier_solvers(key, names)
            kept.append(solvers)
            for solver in solvers.values():  # (compiled or loaded, and past the first iterations' allocations)
                solver.run(max(iterations // 10, 1))
            medians = _median_of({name: lambda s=solver, k=n: s.run(k) for name, solver in solvers.items()}, rounds)
            for name, seconds in medians.items():
                per_instance[name].append(seconds / n)
        times = {name: statistics.median(values) for name, values in per_instance.items()}
        base_value, base_unit = _format_seconds(times[baseline])
        for name in contenders:
            value, unit = _format_seconds(times[name])
            ratio = times[name] / times[baseline]
            rows.append(
                Row(
                    f"frontier_{key}_{name}",
                    f"{title} {name}: per iteration",
                    value,
                    unit,
                    f"{base_value:.4g} {base_unit} ({baseline})",
                    ratio,
                    f"<= 1.2x {baseline}",
                    ratio <= 1.2,
                )
            )
            if name in _EVALUATIONS:  # (an iteration of two regret evaluations, per evaluation)
                per_evaluation = times[name] / _EVALUATIONS[name]
                value, unit = _format_seconds(per_evaluation)
                rows.append(
                    Row(
                        f"frontier_{key}_{name}_per_evaluation",
                        f"{title} {name}: per regret evaluation ({_EVALUATIONS[name]} an iteration)",
                        value,
                        unit,
                        f"{base_value:.4g} {base_unit} ({baseline})",
                        per_evaluation / times[baseline],
                    )
                )
    return rows


def _correlated_rows(quick: bool) -> list[Row]:
    """The learners of correlated equilibria against regret matching (3x3 general-sum self-play, from a start off the
    equilibrium: swap RM expected, Hart & Mas-Colell's procedure sampled against sampled RM), and keeping the joint
    distribution of play against not (RM, expected, ``joint=True`` against ``joint=False``, on a 3x3 and a 64x64
    general-sum game), each pair in the same interleaved rounds."""
    repeats = 3 if quick else 7
    small = preset("random-general-sum", rows=3, cols=3, seed=1)
    start = ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6])
    cases = [
        ("3x3", "swap-rm, expected", small, 200_000, dict(algorithm="swap-rm", start=start), dict(start=start), 5.0),
        (
            "3x3",
            "internal-rm, sampled",
            small,
            200_000,
            dict(algorithm="internal-rm", sampling="sampled", seed=1, start=start),
            dict(sampling="sampled", seed=1, start=start),
            None,
        ),
        ("3x3", "rm keeping the joint distribution", small, 400_000, dict(joint=True), dict(joint=False), 1.3),
        (
            "64x64",
            "rm keeping the joint distribution",
            preset("random-general-sum", rows=64, cols=64, seed=1),
            4_000,
            dict(joint=True),
            dict(joint=False),
            1.5,
        ),
    ]
    rows = []
    for shape, title, game, iterations, options, baseline_options, target in cases:
        iterations = max(iterations // (5 if quick else 1), 1)
        solvers = {
            "ours": MatrixSolver(game, max_points=0, **options),
            "baseline": MatrixSolver(game, max_points=0, **baseline_options),
        }
        for solver in solvers.values():
            solver.run(10)
        runs = {name: lambda s=solver, n=iterations: s.run(n) for name, solver in solvers.items()}
        times = _median_of(runs, repeats)
        ours, theirs = times["ours"] / iterations, times["baseline"] / iterations
        baseline_name = "rm, joint not kept" if "joint" in options else f"rm, {options.get('sampling', 'expected')}"
        value, unit = _format_seconds(ours)
        base_value, base_unit = _format_seconds(theirs)
        rows.append(
            Row(
                f"correlated_{shape}_{title.split(',')[0].replace(' ', '_')}",
                f"{shape} general-sum self-play, {title}: per iteration",
                value,
                unit,
                f"{base_value:.4g} {base_unit} ({baseline_name})",
                ours / theirs,
                "" if target is None else f"<= {target:g}x {baseline_name.split(',')[0]}",
                None if target is None else ours / theirs <= target,
            )
        )
    return rows


# -- compiling -----------------------------------------------------------------------------------------------------

_FIRST_MATRIX_RUN = "s = rmcore.MatrixSolver(rmcore.preset('rps-crash')); s.run(1000); s.metrics()"
_FIRST_TREE_RUN = "s = rmcore.CFRSolver(rmcore.kuhn_poker()); s.run(1000); s.metrics()"
_EVERY_MATRIX_RULE = (  # (in each update order and with the sampling the rule has: ExRM+ is simultaneous only, ...)
    "[rmcore.MatrixSolver(rmcore.preset('rps-crash'), algorithm=rule, updates=updates, "
    "sampling=rmcore.matrix.solver.ONLY_FORMS.get(rule, {}).get('sampling', 'expected')).run(1000) "
    "for rule in rmcore.ALGORITHMS for updates in ('simultaneous', 'alternating') "
    "if rmcore.matrix.solver.ONLY_FORMS.get(rule, {}).get('updates', updates) == updates]"
)


def _seconds_in_fresh_process(statement: str, cache_dir: str) -> float:
    """Wall seconds of ``import rmcore`` and ``statement`` in a fresh interpreter whose numba cache is ``cache_dir``."""
    code = f"import time; t = time.perf_counter(); import rmcore; {statement}; print(time.perf_counter() - t)"
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def _family_seconds(family: str, cache_dir: str) -> float:
    """Wall seconds of ``python -m rmcore._compile FAMILY`` on an empty cache: what a server spends on it."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rmcore._compile", family], env=env, cwd=root, check=True)
    return time.perf_counter() - started


def _compile_rows(quick: bool) -> list[Row]:
    """Fresh interpreters on empty numba caches: a first run from Python, every matrix rule in both update orders,
    each family compiled whole (what ``streamlit run app.py`` compiles in a process of its own), then warm."""
    rows = []
    for key, name, statement, target in (
        ("compile_first_matrix_run", "import + first matrix run, empty numba cache", _FIRST_MATRIX_RUN, 10.0),
        ("compile_first_tree_run", "import + first CFR run (Kuhn), empty numba cache", _FIRST_TREE_RUN, 10.0),
        ("compile_every_matrix_rule", "every matrix rule in each order it has, empty cache", _EVERY_MATRIX_RULE, 45.0),
    ):
        with tempfile.TemporaryDirectory() as cache_dir:
            seconds = _seconds_in_fresh_process(statement, cache_dir)
            if key == "compile_first_matrix_run":
                warm = statistics.median(_seconds_in_fresh_process(statement, cache_dir) for _ in range(3))
        rows.append(Row(key, name, seconds, "s", "", None, f"<= {target:g} s", seconds <= target))
        if key == "compile_first_matrix_run":
            rows.append(
                Row(
                    "compile_warm_first_matrix_run",
                    "import + first matrix run, warm numba cache",
                    warm,
                    "s",
                    "",
                    None,
                    "< 1 s",
                    warm < 1.0,
                )
            )
    for family in ("matrix", "tree"):
        with tempfile.TemporaryDirectory() as cache_dir:
            seconds = _family_seconds(family, cache_dir)
        rows.append(Row(f"compile_family_{family}", f"the {family} family, compiled whole", seconds, "s"))
    return rows


def _parallel_rows(quick: bool) -> list[Row]:
    """Two solvers (two sessions, say) in two threads against the same two in turn: the kernels release the GIL, so
    with two free cores the threads take about half the time."""
    import threading

    game = preset("rps-crash")
    iterations = 2_000_000 if quick else 20_000_000
    solvers = [MatrixSolver(game, max_points=0) for _ in range(2)]
    for solver in solvers:
        solver.run(10)

    def threaded():
        threads = [threading.Thread(target=solver.run, args=(iterations,)) for solver in solvers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    times = _median_of({"threads": threaded, "in_turn": lambda: [s.run(iterations) for s in solvers]}, 3)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return [
        Row(
            "parallel_two_threads",
            f"two 3x3 runs in two threads ({cores} cores)",
            times["threads"] * 1e3,
            "ms",
            f"{times['in_turn'] * 1e3:.0f} ms (in turn)",
            times["in_turn"] / times["threads"],
            "about 2x with two free cores",
        )
    ]


#: Games of more than two players, with OpenSpiel's name for each, its per-iteration target as a ratio to OpenSpiel's
#: C++ CFRSolver (where the issue of n players sets one), and CFR iterations timed per run.
_N_PLAYER_GAMES = (
    ("kuhn_3p", "3-player Kuhn", 3, "kuhn_poker(players=3)", None, 200),
    ("kuhn_4p", "4-player Kuhn", 4, "kuhn_poker(players=4)", None, 50),
    ("leduc_3p", "3-player Leduc", 3, "leduc_poker(players=3)", 50.0, 2),
)
#: The longest a 3-player Leduc tree may take to build, in seconds.
LEDUC_3P_BUILD_TARGET = 30.0


def _tree_bytes(game) -> int:
    """The memory a tree's arrays take."""
    return sum(part.nbytes for part in game.tree if isinstance(part, np.ndarray))


def _players_rows(quick: bool) -> list[Row]:
    """Games of more than two players: 3-player Leduc's build, and CFR per iteration against OpenSpiel's C++
    ``CFRSolver`` on the same game (3-player Leduc with its memory: the tree's arrays and the solver's state)."""
    from .trees.cfr import CFRSolver
    from .trees.poker import kuhn_poker, leduc_poker

    rows = []
    for key, title, players, openspiel_name, target, n in _N_PLAYER_GAMES:
        leduc = key.startswith("leduc")
        started = time.perf_counter()
        game = leduc_poker(players=players) if leduc else kuhn_poker(players=players)
        built = time.perf_counter() - started
        if leduc:
            rows.append(
                Row(
                    f"tree_build_{key}",
                    f"{title}: building the tree",
                    built,
                    "s",
                    f"{histories(game):,} histories",
                    None,
                    f"<= {LEDUC_3P_BUILD_TARGET:g} s",
                    built <= LEDUC_3P_BUILD_TARGET,
                )
            )
        n = max(1, n // (2 if quick else 1))
        solver = CFRSolver(game, "cfr", max_points=0)
        solver.run(1)  # (the first iteration allocates)
        repeats = 1 if leduc else (2 if quick else 3)

        def ours(solver=solver, n=n):
            started = time.perf_counter()
            solver.run(n)
            return time.perf_counter() - started

        contenders = {"rmcore": ours}
        theirs_game = _openspiel_game(openspiel_name)
        their_n = 1 if leduc else max(1, n // 10)
        if theirs_game is not None:
            contenders["openspiel"] = lambda game=theirs_game, n=their_n: _openspiel_cfr_seconds(game, n)
        times = _median_of(contenders, repeats, timed_inside=True)
        per_iteration = times["rmcore"] / n
        value, unit = _format_seconds(per_iteration)
        baseline, ratio = "(open_spiel not installed)", None
        if "openspiel" in times:
            theirs_seconds = times["openspiel"] / their_n
            baseline = "{:.4g} {} (OpenSpiel C++)".format(*_format_seconds(theirs_seconds))
            ratio = theirs_seconds / per_iteration
        name = f"{title} CFR: per iteration"
        if leduc:
            megabytes = (_tree_bytes(game) + solver.state_bytes()) / 2**20
            name += f" ({megabytes:,.0f} MB: tree and solver state)"
        rows.append(
            Row(
                f"tree_cfr_{key}",
                name,
                value,
                unit,
                baseline,
                ratio,
                "" if target is None else f">= {target:g}x OpenSpiel C++",
                None if target is None or ratio is None else ratio >= target,
            )
        )
    return rows


#: The sections of the bench, in the order they run; ``python -m rmcore bench --only SECTION`` runs one.
SECTIONS = {
    "matrix": _matrix_rows,
    "tree": _tree_rows,
    "players": _players_rows,
    "frontier": _frontier_rows,
    "correlated": _correlated_rows,
    "lp": _leduc_lp_row,
    "liteefg": _liteefg_rows,
    "compile": _compile_rows,
    "parallel": _parallel_rows,
}


def measure(quick: bool = False, only: tuple[str, ...] = ()) -> list[Row]:
    """Every row of the bench (or of the sections ``only`` names), printing each section's as it finishes."""
    unknown = [name for name in only if name not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown bench section {unknown[0]!r}: choose from {', '.join(SECTIONS)}")
    rows: list[Row] = []
    for name, section in SECTIONS.items():
        if only and name not in only:
            continue
        these = section(quick)
        for row in these:
            _print_row(row.cells())
        rows += these
    return rows


def _print_row(cells) -> None:
    name, value, baseline, ratio, target = cells
    print(f"| {name:<52} | {value:>12} | {baseline:>30} | {ratio:>8} | {target:<28} |", flush=True)


def describe() -> dict:
    """The command, date, machine and load a table was measured with."""
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": machine(),
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def main(quick: bool = False, markdown: bool = False, json_path: str | None = None, only: tuple[str, ...] = ()) -> None:
    """Measure and print the table; write its rows to ``json_path`` if given (merged into the rows already there, so
    that one section can be measured again alone)."""
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        flags = (["--quick"] if quick else []) + (["--markdown"] if markdown else [])
        flags += ["--json", json_path] if json_path else []
        for section in only:
            flags += ["--only", section]
        sys.exit(subprocess.call([sys.executable, "-m", "rmcore", "bench", *flags], env=env))
    _spin()
    about = describe()
    command = "python -m rmcore bench" + (" --quick" if quick else "")
    load = "" if about["load_average"] is None else f"; load average {about['load_average']:.1f}"
    print(f"{command}: medians of interleaved runs; {about['machine']}{load}")
    _print_row(("measurement", "rmcore", "baseline", "ratio", "target"))
    print(f"|{'-' * 54}|{'-' * 14}|{'-' * 32}|{'-' * 10}|{'-' * 30}|", flush=True)
    rows = measure(quick, only)
    if json_path:
        write_json(json_path, rows, dict(about, command=command))
    if markdown:
        print()
        print(markdown_table(rows))


def write_json(path: str, rows: list[Row], about: dict) -> None:
    """Write ``rows`` to the data file ``path``, keeping the rows of other keys already there."""
    kept = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as existing:
            kept = {row["key"]: row for row in json.load(existing).get("rows", [])}
    for row in rows:
        kept[row.key] = dict(row._asdict(), **about)
    with open(path, "w", encoding="utf-8") as out:
        json.dump({"rows": list(kept.values())}, out, indent=1)
        out.write("\n")


def markdown_table(rows) -> str:
    """The rows (records, or dicts read from a data file) as a Markdown table."""
    lines = ["| measurement | rmcore | baseline | ratio | target |", "|---|---:|---|---:|---|"]
    for row in rows:
        row = row if isinstance(row, Row) else Row(**{field: row[field] for field in Row._fields})
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row.cells()) + " |")
    return "\n".join(lines)
