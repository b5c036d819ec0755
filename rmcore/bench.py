"""``python -m rmcore bench``: rmcore against baselines measured in the same run, as ratios.

Timings on a shared 2-core machine swing by 2x from one second to the next, so every contender is
run several times, interleaved with its baseline, after a warm-up spin, and the best time of each
is kept. Numpy baselines run with ``OPENBLAS_NUM_THREADS=1`` (the bench re-executes itself so the
variable is set before numpy loads).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .games import preset
from .matrix import MatrixSolver


def _best_of(functions: dict, repeats: int, timed_inside: bool = False) -> dict:
    """The best time of each function over ``repeats`` interleaved rounds; with ``timed_inside``, each function
    times itself and returns its seconds (to leave its set-up out)."""
    best = {name: float("inf") for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            started = time.perf_counter()
            seconds = function()
            elapsed = seconds if timed_inside else time.perf_counter() - started
            best[name] = min(best[name], elapsed)
    return best


def _spin(seconds: float = 1.0) -> None:
    """Busy-wait so the CPU is at full clock before the first measurement."""
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


def python_cfr(iterations: int) -> dict:
    """The plain Python CFR of the tutorials (recursive, dicts), alternating updates as OpenSpiel does."""
    import itertools

    deals = list(itertools.permutations(range(3), 2))
    regrets: dict[str, list[float]] = {}
    sums: dict[str, list[float]] = {}
    terminal = {"pp", "bp", "bb", "pbp", "pbb"}

    def strategy(key):
        r = regrets.setdefault(key, [0.0, 0.0])
        positive = [max(v, 0.0) for v in r]
        total = positive[0] + positive[1]
        return [positive[0] / total, positive[1] / total] if total > 0 else [0.5, 0.5]

    def walk(h, cards, reach, updating, increments):
        if h in terminal:
            win = 1.0 if cards[0] > cards[1] else -1.0
            return {"bp": 1.0, "pbp": -1.0}.get(h, win * (2.0 if "b" in h else 1.0))
        player = len(h) % 2
        key = "JQK"[cards[player]] + h
        sigma = strategy(key)
        values = []
        for a, action in enumerate("pb"):
            child = list(reach)
            child[player] *= sigma[a]
            values.append(walk(h + action, cards, child, updating, increments))
        value = sigma[0] * values[0] + sigma[1] * values[1]
        if player == updating:
            sign = 1.0 if player == 0 else -1.0
            inc = increments.setdefault(key, [0.0, 0.0])
            s = sums.setdefault(key, [0.0, 0.0])
            for a in range(2):
                inc[a] += reach[1 - player] * reach[2] * sign * (values[a] - value)
                s[a] += reach[player] * sigma[a]
        return value

    for _ in range(iterations):
        for player in (0, 1):
            increments: dict[str, list[float]] = {}
            for cards in deals:
                walk("", cards, [1.0, 1.0, 1.0 / 6.0], player, increments)
            for key, inc in increments.items():
                r = regrets[key]
                r[0] += inc[0]
                r[1] += inc[1]
    return sums


def _openspiel_kuhn():
    """OpenSpiel's C++ CFRSolver on Kuhn poker, or None when open_spiel is not installed (a dev dependency)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("kuhn_poker")
    return pyspiel.CFRSolver(game)


def _kuhn_rows(quick: bool) -> None:
    from .kuhn import KuhnCFR

    repeats = 3 if quick else 7
    solver = KuhnCFR("cfr", max_points=0)
    solver.run(10)
    ours_n, python_n = (20_000, 20) if quick else (200_000, 200)
    times = _best_of({"rmcore": lambda: solver.run(ours_n), "python": lambda: python_cfr(python_n)}, repeats)
    ours, theirs = times["rmcore"] / ours_n, times["python"] / python_n
    _row(
        "Kuhn vanilla CFR: per iteration",
        f"{ours * 1e6:.2f} us",
        f"{theirs * 1e6:.0f} us (plain Python)",
        f"{theirs / ours:.0f}x",
        "<= 2 us",
    )

    openspiel = _openspiel_kuhn()
    history_n, openspiel_n = (20_000, 500) if quick else (100_000, 2_000)

    def with_history():  # a fresh run that records its default 2000 checkpoints, as a live page does
        fresh = KuhnCFR("cfr")
        fresh.run(history_n)
        fresh.history()

    contenders = {"rmcore": with_history}
    if openspiel is not None:
        contenders["openspiel"] = lambda: [openspiel.evaluate_and_update_policy() for _ in range(openspiel_n)]
    times = _best_of(contenders, repeats)
    ours = times["rmcore"] / history_n
    if openspiel is None:
        _row(
            "Kuhn CFR with its history: per iteration",
            f"{ours * 1e6:.2f} us",
            "(open_spiel not installed)",
            "",
            ">= 10x OpenSpiel",
        )
    else:
        theirs = times["openspiel"] / openspiel_n
        _row(
            "Kuhn CFR with its history: per iteration",
            f"{ours * 1e6:.2f} us",
            f"{theirs * 1e6:.1f} us (OpenSpiel C++)",
            f"{theirs / ours:.1f}x",
            ">= 10x",
        )
    calls = 2_000 if quick else 20_000
    times = _best_of({"metrics": lambda: [solver.metrics() for _ in range(calls)]}, repeats)
    _row(
        "Kuhn metrics (2 best responses + value): per call",
        f"{times['metrics'] / calls * 1e6:.2f} us",
        "",
        "",
        "<= 10 us",
    )


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


def _liteefg_rows(quick: bool) -> None:
    """CFR, CFR+ and predictive CFR+ on Kuhn and Leduc poker against LiteEFG's (C++ engine) in the same process: the
    same iterations of a fresh run on both sides (from the second: the first allocates), then the exploitability of
    CFR+'s average after 100 iterations, per call."""
    from .cfr import CFRSolver
    from .kuhn import KUHN
    from .poker import leduc_poker

    games = (
        ("Kuhn", KUHN, "kuhn_poker", 500 if quick else 2_000, 2_000 if quick else 20_000),
        ("Leduc", leduc_poker(), "leduc_poker", 5 if quick else 30, 20 if quick else 200),
    )
    repeats = 3 if quick else 5
    installed = _liteefg_installed()
    for title, game, openspiel_name, n, calls in games:
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
            name = f"{title} {variant}" + (" (simultaneous)" if updates == "simultaneous" else "") + ": per iteration"
            _compare_liteefg(name, contenders, n, n, repeats, label, ">= 3x", True)

        solver = CFRSolver(game, "cfr+", max_points=0)
        solver.run(100)
        contenders = {"rmcore": lambda s=solver, k=calls: [s.metrics() for _ in range(k)]}
        run = liteefg_run(openspiel_name, "CFRplus")
        if run is not None:
            env, graph, step = run
            for _ in range(100):
                step()
            strategy = graph.current_strategy()
            contenders["liteefg"] = lambda e=env, g=strategy, k=calls: [
                e.exploitability(g, "linear-avg-iterate") for _ in range(k)
            ]
        _compare_liteefg(
            # (Leduc's own row against OpenSpiel's bears the plain name.)
            f"{title} exploitability (average{'' if title == 'Kuhn' else ', CFR+'}): per call",
            contenders,
            calls,
            calls,
            repeats,
            "",
            ">= 1x",
            False,
        )


def _compare_liteefg(name, contenders, ours_n, theirs_n, repeats, label, target, timed_inside) -> None:
    times = _best_of(contenders, repeats, timed_inside=timed_inside)
    ours = times["rmcore"] / ours_n
    unit, scale = ("us", 1e6) if ours < 1e-4 else ("ms", 1e3)
    if "liteefg" not in times:
        _row(name, f"{ours * scale:.3g} {unit}", "(LiteEFG not installed)", "", f"{target} LiteEFG")
        return
    theirs = times["liteefg"] / theirs_n
    baseline = f"{theirs * scale:.3g} {unit} (LiteEFG{' ' + label if label else ''})"
    _row(name, f"{ours * scale:.3g} {unit}", baseline, f"{theirs / ours:.1f}x", target)


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


class _Scale(NamedTuple):
    """A bigger game measured against OpenSpiel's C++ on the same game: how many CFR iterations and exploitability
    calls each side runs per repeat, and the repeats, in the full and the ``--quick`` bench."""

    title: str
    build: Callable
    openspiel: str  # the game's OpenSpiel string; turn-based when its moves are simultaneous
    full: tuple[int, int, int, int, int, int]  # ours_n, theirs_n, repeats; calls, their_calls, repeats
    quick: tuple[int, int, int, int, int, int]  # (their_calls 0: OpenSpiel's exploitability is left out)


def _scales() -> tuple[_Scale, ...]:
    from .goofspiel import goofspiel
    from .liars_dice import liars_dice
    from .poker import leduc_poker

    # Both sides run the same iterations (2 to n + 1 of a fresh run: both skip the subtrees no player reaches, so an
    # iteration's cost falls as the policy sharpens). OpenSpiel's exploitability on Liar's dice takes 3-8 s, so it
    # runs once per repeat, and not at all with --quick.
    return (
        _Scale("Leduc", leduc_poker, "leduc_poker", (100, 100, 5, 500, 5, 5), (20, 20, 3, 50, 2, 3)),
        _Scale("Liar's dice 6", lambda: liars_dice(6), "liars_dice", (10, 10, 3, 20, 1, 2), (3, 3, 2, 3, 0, 2)),
        _Scale(
            "Goofspiel 5",
            lambda: goofspiel(5),
            "goofspiel(num_cards=5,imp_info=True,points_order=descending)",
            (50, 50, 5, 500, 3, 3),
            (10, 10, 3, 50, 1, 2),
        ),
    )


def _scale_rows(quick: bool) -> dict[str, float]:
    """Leduc hold'em, Liar's dice (6 sides) and Goofspiel (5 cards): CFR per iteration and the exploitability of the
    average policy, against OpenSpiel's C++ CFRSolver and C++ exploitability on the same game in the same run; and
    Leduc's sequence-form LP. Returns our seconds per CFR iteration by title."""
    from .cfr import CFRSolver
    from .poker import leduc_poker
    from .sequence_form import solve_tree_game

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    per_iteration = {}
    for scale in _scales():
        ours_n, theirs_n, repeats, calls, their_calls, metric_repeats = scale.quick if quick else scale.full
        game = scale.build()
        solver = CFRSolver(game, "cfr", max_points=0)
        solver.run(10)  # (the average policy whose exploitability both sides compute: after 10 iterations)

        def ours_fresh(n=ours_n, game=game):  # from the second iteration of a fresh run, as OpenSpiel's below
            fresh = CFRSolver(game, "cfr", max_points=0)
            fresh.run(1)
            started = time.perf_counter()
            fresh.run(n)
            return time.perf_counter() - started

        contenders = {"rmcore": ours_fresh}
        exploitability_contenders = {"rmcore": lambda s=solver, n=calls: [s.metrics() for _ in range(n)]}
        if pyspiel is not None:
            theirs_game = pyspiel.load_game(scale.openspiel)
            if theirs_game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
                theirs_game = pyspiel.convert_to_turn_based(theirs_game)

            def theirs_fresh(n=theirs_n, game=theirs_game):
                # Timed from the second iteration of a fresh run, as ours (the first allocates).
                fresh = pyspiel.CFRSolver(game)
                fresh.evaluate_and_update_policy()
                started = time.perf_counter()
                for _ in range(n):
                    fresh.evaluate_and_update_policy()
                return time.perf_counter() - started

            contenders["openspiel"] = theirs_fresh
            theirs = pyspiel.CFRSolver(theirs_game)
            for _ in range(10):  # the same average policy as ours, for its exploitability
                theirs.evaluate_and_update_policy()
            if their_calls:
                exploitability_contenders["openspiel"] = lambda g=theirs_game, t=theirs, n=their_calls: [
                    pyspiel.exploitability(g, t.average_policy()) for _ in range(n)
                ]
        for name, these, ours_count, their_count, times_repeated in (
            (f"{scale.title} CFR: per iteration", contenders, ours_n, theirs_n, repeats),
            (
                f"{scale.title} exploitability (average): per call",
                exploitability_contenders,
                calls,
                their_calls,
                metric_repeats,
            ),
        ):
            times = _best_of(these, times_repeated, timed_inside=these is contenders)
            ours = times["rmcore"] / ours_count
            if name.endswith("per iteration"):
                per_iteration[scale.title] = ours
            if pyspiel is None:
                _row(name, f"{ours * 1e3:.3f} ms", "(open_spiel not installed)", "", ">= 10x OpenSpiel")
            elif "openspiel" not in these:
                _row(name, f"{ours * 1e3:.3f} ms", "(skipped with --quick)", "", ">= 10x")
            else:
                base = times["openspiel"] / their_count
                baseline = f"{base * 1e3:.2f} ms (OpenSpiel C++)"
                _row(name, f"{ours * 1e3:.3f} ms", baseline, f"{base / ours:.0f}x", ">= 10x")
    solve_tree_game(leduc_poker())  # (scipy's first import is not the LP's time)
    times = _best_of({"lp": lambda: solve_tree_game(leduc_poker())}, 1 if quick else 3)
    _row("Leduc sequence-form LP (value and equilibrium)", f"{times['lp']:.2f} s", "", "", "< 5 s")
    return per_iteration


def _per_history_rows(quick: bool, measured: dict[str, float]) -> None:
    """Our CFR iteration divided by the game's histories, for every tree game: the kernels' cost per node, which
    stays near 25 ns while a game's arrays fit in the cache and rises beyond (Liar's dice with 6 sides)."""
    from .cfr import CFRSolver
    from .goofspiel import goofspiel
    from .kuhn import KUHN
    from .liars_dice import liars_dice
    from .poker import leduc_poker

    games = (
        ("Kuhn", lambda: KUHN),
        ("Leduc", leduc_poker),
        ("Liar's dice 3", lambda: liars_dice(3)),
        ("Liar's dice 6", lambda: liars_dice(6)),
        ("Goofspiel 4", lambda: goofspiel(4)),
        ("Goofspiel 5", lambda: goofspiel(5)),
    )
    for title, build in games:
        game = build()
        seconds = measured.get(title)
        if seconds is None:  # (the small games: about 0.2 s of iterations per repeat)
            solver = CFRSolver(game, "cfr", max_points=0)
            solver.run(2)
            n = max(1, (200_000 if quick else 2_000_000) // histories(game))
            seconds = _best_of({"rmcore": lambda s=solver, k=n: s.run(k)}, 3 if quick else 5)["rmcore"] / n
        _row(
            f"{title} CFR: per history per iteration",
            f"{seconds / histories(game) * 1e9:.1f} ns",
            f"({histories(game):,} histories)",
            "",
            "",
        )


def _startup_seconds(cache_dir: str) -> float:
    code = (
        "import time; t = time.perf_counter(); import rmcore; "
        "s = rmcore.MatrixSolver(rmcore.preset('rps-crash')); s.run(1000); s.metrics(); "
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def _row(name: str, ours: str, baseline: str, ratio: str, target: str) -> None:
    print(f"| {name:<50} | {ours:>12} | {baseline:>22} | {ratio:>8} | {target:<12} |", flush=True)


def _matrix_rows(quick: bool) -> None:
    repeats = 3 if quick else 7
    small = preset("rps-crash")
    A = np.array(small.row_payoffs)
    numpy_iterations = 2_000 if quick else 20_000
    our_iterations = 200_000 if quick else 2_000_000
    for sampling in ("expected", "sampled"):
        solver = MatrixSolver(small, sampling=sampling, seed=1, max_points=0)
        solver.run(10)
        times = _best_of(
            {
                "rmcore": lambda s=solver: s.run(our_iterations),
                "numpy": lambda sampled=(sampling == "sampled"): numpy_self_play(A, numpy_iterations, sampled),
            },
            repeats,
        )
        ours, theirs = times["rmcore"] / our_iterations, times["numpy"] / numpy_iterations
        _row(
            f"3x3 self-play, {sampling}: per iteration",
            f"{ours * 1e9:.1f} ns",
            f"{theirs * 1e6:.2f} us (numpy)",
            f"{theirs / ours:.0f}x",
            ">= 400x",
        )

    _rule_rows(small, our_iterations // 2, repeats)

    big = preset("random-zero-sum", rows=1000, cols=1000, seed=1)
    matrix = np.array(big.row_payoffs)
    solver = MatrixSolver(big, max_points=0)
    solver.run(2)
    steps = 5 if quick else 20
    times = _best_of(
        {"rmcore": lambda: solver.run(steps), "sum": lambda: [matrix.sum() for _ in range(steps)]}, repeats
    )
    ours, theirs = times["rmcore"] / steps, times["sum"] / steps
    _row(
        "1000x1000 expected self-play: per iteration",
        f"{ours * 1e3:.3f} ms",
        f"{theirs * 1e3:.3f} ms (A.sum)",
        f"{ours / theirs:.2f}x",
        "<= 2x A.sum",
    )

    iterations = 100_000 if quick else 1_000_000

    def fresh_run(max_points):
        MatrixSolver(small, max_points=max_points).run(iterations)

    times = _best_of({"history": lambda: fresh_run(2000), "none": lambda: fresh_run(0)}, repeats)
    overhead = times["history"] / times["none"] - 1.0
    _row(
        f"history of 2000 points over {iterations:,} its",
        f"{times['history'] * 1e3:.1f} ms",
        f"{times['none'] * 1e3:.1f} ms (none)",
        f"{overhead * 100:+.1f}%",
        "< 10%",
    )

    _parallel_row(small, quick, repeats)

    with tempfile.TemporaryDirectory() as cache_dir:
        cold = _startup_seconds(cache_dir)
        warm = min(_startup_seconds(cache_dir) for _ in range(2 if quick else 3))
    _row("import + first run, empty numba cache", f"{cold:.2f} s", "", "", "(compile)")
    _row("import + first run, warm numba cache", f"{warm:.2f} s", "", "", "< 1 s")


def _rule_rows(game, iterations: int, repeats: int) -> None:
    """Each rule beside regret matching on the 3x3 expected self-play kernel, against RM's ns per iteration measured
    in the same rounds (interleaved, so that both see the same machine). From a start off the equilibrium, as a
    lecture runs them; a long run reaches the regime each rule settles in (Hedge's and GDA's strategies at the
    boundary, the optimistic ones' at the equilibrium)."""
    start = ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6])
    rules = ("rm", "hedge", "optimistic-hedge", "fictitious-play", "gda", "optimistic-gda")
    solvers = {rule: MatrixSolver(game, algorithm=rule, start=start, max_points=0) for rule in rules}
    for solver in solvers.values():
        solver.run(10)
    times = _best_of({rule: lambda s=solver: s.run(iterations) for rule, solver in solvers.items()}, repeats)
    rm = times["rm"] / iterations
    for rule in rules[1:]:
        ours = times[rule] / iterations
        _row(
            f"3x3 self-play, {rule}: per iteration",  # (expected)
            f"{ours * 1e9:.1f} ns",
            f"{rm * 1e9:.1f} ns (rm)",
            f"{ours / rm:.2f}x",
            "<= 1.5x rm",
        )


def _parallel_row(game, quick: bool, repeats: int) -> None:
    """Two solvers (two sessions, say) in two threads against the same two one after the other: the kernels release
    the GIL, so on a machine with two free cores the threads should take about half the time."""
    import threading

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

    times = _best_of(
        {"threads": threaded, "sequential": lambda: [solver.run(iterations) for solver in solvers]}, repeats
    )
    cores = len(os.sched_getaffinity(0))
    _row(
        f"two 3x3 runs in two threads ({cores} cores free)",
        f"{times['threads'] * 1e3:.0f} ms",
        f"{times['sequential'] * 1e3:.0f} ms (in turn)",
        f"{times['sequential'] / times['threads']:.2f}x",
        "~2x (nogil)",
    )


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


def main(quick: bool = False, markdown: bool = False) -> None:
    """Print the table; with ``markdown``, as a Markdown page fragment that names its command, machine and date."""
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        flags = (["--quick"] if quick else []) + (["--markdown"] if markdown else [])
        sys.exit(subprocess.call([sys.executable, "-m", "rmcore", "bench", *flags], env=env))
    _spin()
    mode = "quick" if quick else "full"
    if markdown:
        command = "python -m rmcore bench --markdown" + (" --quick" if quick else "")
        date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        load = f"; load average {os.getloadavg()[0]:.1f} at the start" if hasattr(os, "getloadavg") else ""
        repeats = 3 if quick else "5-7"
        print(f"Generated by `{command}` on {date}, on {machine()}{load}. Each contender runs {repeats} times,")
        print("interleaved with its baseline in the same process after a warm-up, and the best time of each is kept;")
        print("numpy baselines run with `OPENBLAS_NUM_THREADS=1`.")
        print()
    else:
        print(f"rmcore bench ({mode}; best of repeated, interleaved runs; OPENBLAS_NUM_THREADS=1)")
    _row("measurement", "rmcore", "baseline", "ratio", "target")
    print(f"|{'-' * 52}|{'-' * 14}|{'-' * 24}|{'-' * 10}|{'-' * 14}|", flush=True)
    _matrix_rows(quick)
    _kuhn_rows(quick)
    _liteefg_rows(quick)
    _per_history_rows(quick, _scale_rows(quick))
    if markdown:
        print()
    print("For scale (measured elsewhere, not in this run): OpenSpiel's Python CFR about 450 us per Kuhn iteration,")
    print("its C++ best response about 95 us per call.")
