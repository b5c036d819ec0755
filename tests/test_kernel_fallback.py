"""While a variant's own kernel compiles, something that needs no compile answers at once: the general kernel
(bit-identical results), or before that the kernels run as plain Python (CFR: bit-identical; matrix games: provisional
iterations that are run again on the compiled kernel, so that the results are bit-identical in the end)."""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest

import rmcore
from rmcore import _kernels, _runtime, checkpoints

#: What a run carries from one iteration to the next (the rest of the state is scratch).
CARRIED = (
    "regrets_row",
    "regrets_col",
    "predictions_row",
    "predictions_col",
    "scores_row",
    "scores_col",
    "strategy_sums_row",
    "strategy_sums_col",
    "external_row",
    "external_col",
    "weight_sum",
    "rng",
)
GAMES = {
    "zero-sum 3x3": rmcore.preset("rps-crash"),
    "general-sum 3x4": rmcore.preset("random-general-sum", rows=3, cols=4, seed=2),
}
# Every value of every flag, every rule, in a few variants (compiling every own kernel would take long on a cold cache).
VARIANTS = [
    dict(algorithm=a, sampling=s, updates=u, averaging=w)
    for a, s, u, w in [
        ("rm", "expected", "simultaneous", "uniform"),
        ("rm+", "expected", "alternating", "linear"),
        ("prm+", "expected", "alternating", "quadratic"),
        ("rm", "sampled", "alternating", "linear"),
        ("rm+", "sampled", "simultaneous", "quadratic"),
        ("prm+", "sampled", "simultaneous", "uniform"),
        ("hedge", "expected", "alternating", "linear"),
        ("optimistic-hedge", "sampled", "simultaneous", "uniform"),
        ("fictitious-play", "expected", "simultaneous", "quadratic"),
        ("gda", "sampled", "alternating", "uniform"),
        ("optimistic-gda", "expected", "simultaneous", "linear"),
        ("hedge", "expected", "simultaneous", "quadratic"),  # (on a 3x3 game, a loop of its own)
        ("optimistic-hedge", "expected", "simultaneous", "linear"),
    ]
]


def _run_on(kernel, solver, first, last):
    m, n = solver.game.shape
    points = checkpoints.checkpoints_between(first - 1, last, solver.max_points)
    record = _kernels.empty_matrix_record(points.shape[0], m, n)
    # The solver's own payoff arrays: the game's read-only ones are another signature to numba, compiled afresh.
    written = kernel(*solver._payoffs, solver._flags, solver._state, first, last, points, record)
    return record, written


@pytest.mark.parametrize(
    "game_name, opponent, variant",
    [
        (g, o, v)
        for g, o, v in itertools.product(GAMES, (None, "fixed"), VARIANTS)
        if not (o and GAMES[g].shape[1] != 3)
    ],
)
def test_the_general_kernel_gives_bit_identical_results(game_name, opponent, variant):
    game = GAMES[game_name]
    fixed = [0.5, 0.3, 0.2] if opponent else None
    own, general = (rmcore.MatrixSolver(game, opponent=fixed, seed=11, **variant) for _ in range(2))
    own_kernel = _kernels.make_matrix_kernel(own._flags)
    for first, last in ((1, 37), (38, 400)):  # two calls: the state carried between them must agree as well
        own_record, own_rows = _run_on(own_kernel, own, first, last)
        general_record, general_rows = _run_on(_kernels.run_matrix_general, general, first, last)
        assert own_rows == general_rows
        for name in own_record._fields:
            assert np.array_equal(getattr(own_record, name), getattr(general_record, name), equal_nan=True), name
        for name in CARRIED:
            assert np.array_equal(getattr(own._state, name), getattr(general._state, name)), name


def test_a_variant_not_compiled_yet_answers_at_once_then_switches_to_its_own_kernel(monkeypatch):
    game = GAMES["zero-sum 3x3"]
    settings = dict(algorithm="prm+", sampling="sampled", updates="alternating", averaging="linear")
    warm = rmcore.MatrixSolver(game, seed=3, **settings)
    warm.run(10)  # this process has both kernels
    _run_on(_kernels.run_matrix_general, rmcore.MatrixSolver(game, seed=3, **settings), 1, 1)
    monkeypatch.setattr(_runtime, "_ready", {_runtime._GENERAL})  # as on a fresh server: only the general kernel ...
    monkeypatch.setattr(_runtime, "_on_disk", lambda kernel, arguments: False)  # ... and nothing in numba's cache
    rmcore.compile_in_background(True)  # (conftest.py turns it off again)
    calls = []
    real_general = _kernels.run_matrix_general
    monkeypatch.setattr(_kernels, "run_matrix_general", lambda *a: calls.append(a[4]) or real_general(*a))

    solver = rmcore.MatrixSolver(game, seed=3, **settings)
    assert solver.kernel_status == "general"
    solver.run(500)  # answered by the general kernel; the own one is prepared in the background
    assert calls == [1] and solver.iteration == 500
    deadline = time.time() + 120
    while solver.kernel_status != "ready" and time.time() < deadline:
        time.sleep(0.05)
    assert solver.kernel_status == "ready"
    solver.run(1_500)  # now on its own kernel
    assert calls == [1]

    reference = rmcore.MatrixSolver(game, seed=3, **settings)
    rmcore.compile_in_background(False)
    reference.run(500)
    reference.run(1_500)
    for name in CARRIED:
        assert np.array_equal(getattr(solver._state, name), getattr(reference._state, name)), name
    assert np.array_equal(solver.history().gap, reference.history().gap)


def test_off_by_default_a_library_call_compiles_what_it_needs(monkeypatch):
    import subprocess
    import sys

    fresh = subprocess.run(
        [sys.executable, "-c", "import rmcore; print(rmcore.compiles_in_background())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert fresh.stdout.strip() == "False"  # (the app's tests turn it on in this process)
    rmcore.compile_in_background(False)
    monkeypatch.setattr(_runtime, "_ready", set())
    solver = rmcore.MatrixSolver(GAMES["zero-sum 3x3"], algorithm="rm+")
    assert solver.kernel_status == "load"
    solver.run(10)
    assert solver.kernel_status == "ready" and rmcore.KuhnCFR("cfr").kernel_status in ("ready", "load")


def _nothing_compiled(monkeypatch, prepared: list) -> None:
    """As on a server started on an empty numba cache: nothing loaded, nothing on disk, compiles asked for but not
    done."""
    monkeypatch.setattr(_runtime, "_ready", set())
    monkeypatch.setattr(_runtime, "_standing_in", {})
    monkeypatch.setattr(_runtime, "_on_disk", lambda kernel, arguments: False)
    monkeypatch.setattr(_runtime, "_prepare", lambda key, compile_it: prepared.append(key))
    rmcore.compile_in_background(True)  # (conftest.py turns it off again)


@pytest.mark.parametrize("variant", VARIANTS[:2] + VARIANTS[3:4])
def test_before_anything_is_compiled_a_run_goes_as_plain_python_then_settles_on_the_compiled_kernel(
    monkeypatch, variant
):
    game = GAMES["general-sum 3x4"]
    reference = rmcore.MatrixSolver(game, seed=5, **variant)
    reference.run(300)
    reference.run(700)  # (compiled here, before the server is made cold)
    prepared = []
    _nothing_compiled(monkeypatch, prepared)
    solver = rmcore.MatrixSolver(game, seed=5, **variant)
    assert solver.metrics().iteration == 0  # read as plain Python too: nothing to wait for
    solver.run(300)
    assert solver.kernel_status == "python" and solver._provisional and prepared == [solver._flags]
    assert solver.history().gap[-1] == pytest.approx(
        reference.history().gap[list(reference.history().iterations).index(300)], rel=1e-9
    )
    _runtime._ready.add(solver._flags)  # its own kernel is ready: the next run first runs the 300 again on it
    solver.run(700)
    assert solver.kernel_status == "ready" and not solver._provisional
    for name in CARRIED:
        assert np.array_equal(getattr(solver._state, name), getattr(reference._state, name)), name
    for name in solver._record._fields:
        assert np.array_equal(getattr(solver._record, name), getattr(reference._record, name), equal_nan=True), name


def test_a_call_too_large_for_plain_python_waits_for_the_compiled_kernel(monkeypatch):
    game = GAMES["zero-sum 3x3"]
    rmcore.MatrixSolver(game).run(1)
    _nothing_compiled(monkeypatch, [])
    solver = rmcore.MatrixSolver(game)
    solver.run(rmcore.config.PYTHON_TWIN_WORK)  # 15 numbers per iteration: far past the limit
    assert solver.kernel_status == "ready" and not solver._provisional


@pytest.mark.parametrize(
    "variant, updates",
    [
        ("cfr", "alternating"),
        ("cfr+", "simultaneous"),
        ("linear", "alternating"),
        ("discounted", "alternating"),
        ("chance-sampling", "simultaneous"),
        ("pcfr+", "alternating"),
        ("pcfr+", "simultaneous"),
        ("mmd", "simultaneous"),
    ],
)
def test_the_cfr_kernels_as_plain_python_give_bit_identical_results(monkeypatch, variant, updates):
    reference = rmcore.KuhnCFR(variant, updates, seed=9)
    reference.run(40)
    expected = (reference.history(), reference.metrics(), reference.average_policy().probabilities)
    prepared = []
    _nothing_compiled(monkeypatch, prepared)
    solver = rmcore.KuhnCFR(variant, updates, seed=9)
    solver.run(15)
    solver.run(25)
    assert solver.kernel_status == "python" and prepared and set(prepared) == {"cfr"}
    history, metrics, average = solver.history(), solver.metrics(), solver.average_policy().probabilities
    assert metrics == expected[1] and np.array_equal(average, expected[2])
    for name in ("iterations", "average", "current", "regrets"):
        assert np.array_equal(getattr(history, name), getattr(expected[0], name)), name
    for name, values in history.metrics.items():
        assert np.array_equal(values, expected[0].metrics[name], equal_nan=True), name
    solver.run(1_000)  # 54,000 node-iterations: too large for plain Python, so it is compiled (here: loaded) first
    assert solver.iteration == 1_040


def test_a_cfr_call_too_large_for_plain_python_waits_for_the_background_compile_instead_of_compiling_beside_it(
    monkeypatch,
):
    rmcore.KuhnCFR("cfr").run(1)  # (compiled here, before the server is made cold)
    events = []
    _nothing_compiled(monkeypatch, [])
    monkeypatch.setattr(_runtime, "_preparing", {"cfr"})  # its compile is under way in the background

    def compile_finishes():
        time.sleep(0.3)
        with _runtime._kernel_prepared:
            events.append("compiled")
            _runtime._preparing.discard("cfr")
            _runtime._kernel_prepared.notify_all()

    threading.Thread(target=compile_finishes).start()
    solver = rmcore.KuhnCFR("cfr")
    solver.run(1_000)  # 54,000 node-iterations: past the plain-Python limit
    events.append("ran")
    assert events == ["compiled", "ran"] and solver.iteration == 1_000 and solver.kernel_status == "ready"


def test_should_the_compile_process_fail_the_cfr_kernels_are_compiled_in_the_server_not_run_as_plain_python(
    monkeypatch,
):
    rmcore.KuhnCFR("cfr").run(1)  # (compiled here, before the server is made cold)
    monkeypatch.setattr(_runtime, "_ready", set())
    monkeypatch.setattr(_runtime, "_preparing", set())
    monkeypatch.setattr(_runtime, "_standing_in", {})
    monkeypatch.setattr(_runtime, "_on_disk", lambda kernel, arguments: False)
    rmcore.compile_in_background(True)  # (conftest.py turns it off again)

    def no_process(key, urgency=None):
        raise OSError("no subprocess here")

    def no_twin():
        raise AssertionError("the warm-up ran as plain Python")

    monkeypatch.setattr(_runtime, "_compile_elsewhere", no_process)
    monkeypatch.setattr(_runtime, "python_twin", no_twin)
    _runtime._prepare("cfr", rmcore.cfr.warm_up)
    with _runtime._kernel_prepared:
        assert _runtime._kernel_prepared.wait_for(lambda: "cfr" not in _runtime._preparing, timeout=60)
    assert "cfr" in _runtime._ready  # (a failed warm-up would have been logged and left it out)


def test_a_compile_a_page_waits_for_goes_before_one_prepared_ahead_of_need():
    queue, order = _runtime._CompileQueue(), []
    holding, release = __import__("threading").Event(), __import__("threading").Event()

    def compile_(key, urgency, hold=False):
        with queue.slot(key, urgency):
            order.append(key)
            if hold:
                holding.set()
                release.wait(10)

    import threading

    first = threading.Thread(target=compile_, args=("variant", queue.URGENT, True))
    first.start()
    assert holding.wait(10)
    later = [
        threading.Thread(target=compile_, args=args)
        for args in (("cfr", queue.AHEAD), ("general", queue.URGENT), ("other", queue.AHEAD))
    ]
    for thread in later:
        thread.start()
    deadline = time.time() + 10
    while len(queue.waiting()) < 3 and time.time() < deadline:
        time.sleep(0.01)
    assert queue.waiting() == ["general", "cfr", "other"]  # urgent first, then in order of arrival
    queue.promote("other")  # a page now waits for it
    assert queue.waiting() == ["general", "other", "cfr"]
    release.set()
    for thread in [first, *later]:
        thread.join(10)
    assert order == ["variant", "general", "other", "cfr"]


def test_a_live_run_starts_with_a_small_chunk_while_its_kernels_run_as_plain_python(monkeypatch):
    from ui.live import LiveRun

    ready = LiveRun(rmcore.Race(rmcore.KUHN, ["cfr", "cfr+"]))
    _nothing_compiled(monkeypatch, [])
    cold = LiveRun(rmcore.Race(rmcore.KUHN, ["cfr", "cfr+"]))
    cold.tick(None)  # (a Kuhn iteration and its checkpoint take milliseconds as plain Python)
    assert cold.iteration <= 2 < ready.chunk_size(None)
    assert cold.race.solvers[0].kernel_status == "python"
    for _ in range(3):
        cold.tick(None)  # timed now: the chunks follow what fits in the budget
    assert cold.chunk_size(None) < ready.chunk_size(
        None
    )  # sized by plain Python's speed, not a compiled kernel's guess
    leduc = LiveRun(rmcore.Race(rmcore.poker_tree(rmcore.LeducRules()), ["cfr"]))
    leduc.tick(None)  # one Leduc iteration (9,450 nodes) as plain Python; two would wait for the compile
    assert leduc.iteration == 1 and leduc.race.solvers[0].kernel_status == "python"


def test_a_large_tree_waits_for_its_compile_and_says_for_how_long(monkeypatch):
    """Leduc as plain Python crawls (0.7 s an iteration) and slows the compile it waits for: a live run of it runs
    nothing until the CFR kernels are ready, and tells how long they have been compiling."""
    import time as clock

    from ui import explain
    from ui.live import LiveRun

    _nothing_compiled(monkeypatch, [])
    monkeypatch.setattr(_runtime, "_preparing_since", {"cfr": clock.monotonic() - 5.0})
    leduc = LiveRun(rmcore.Race(rmcore.poker_tree(rmcore.LeducRules()), ["cfr"]))
    assert leduc.race.solvers[0].kernel_status == "python" and leduc.waits_for_compile()
    assert leduc.tick(None) == 0 and leduc.iteration == 0
    seconds = leduc.compile_seconds()  # (5 s and however long building Leduc took)
    assert 5.0 <= seconds < 60 and rmcore.compiling()["cfr"] >= 5.0
    assert explain.compiling(seconds, "cfr").startswith(f"compiling the solver: {seconds:.0f} s so far (about 11 s")
    kuhn = LiveRun(rmcore.Race(rmcore.KUHN, ["cfr"]))  # a small tree goes on as plain Python meanwhile
    assert not kuhn.waits_for_compile() and kuhn.tick(None) > 0
    _runtime._ready.add("cfr")
    monkeypatch.setattr(_runtime, "_preparing_since", {})
    assert not leduc.waits_for_compile() and leduc.tick(None) > 0 and leduc.compile_seconds() is None


def _packed_side_by_side(state):
    """The same arrays, copied into one buffer with nothing between them (as a fresh process may happen to lay them
    out): a vectorised loop whose loads and stores lie this close takes LLVM's scalar fallback."""
    buffer = np.zeros(sum(a.nbytes for a in state) + 64, np.uint8)
    offset = -buffer.ctypes.data % 64
    packed = []
    for array in state:
        view = buffer[offset : offset + array.nbytes].view(array.dtype).reshape(array.shape)
        view[...] = array
        packed.append(view)
        offset += array.nbytes
    return type(state)(*packed)


@pytest.mark.parametrize(
    "game, variant",
    [
        (rmcore.preset("random-general-sum", rows=3, cols=4, seed=2), VARIANTS[0]),
        (rmcore.preset("random-zero-sum", rows=5, cols=5, seed=2), VARIANTS[2]),
        (rmcore.preset("random-zero-sum", rows=4, cols=4, seed=2), VARIANTS[6]),
        # From _kernels._FUSED_FROM_COLUMNS columns on, one loop sums a row and updates the columns.
        (rmcore.preset("random-general-sum", rows=3, cols=_kernels._FUSED_FROM_COLUMNS, seed=2), VARIANTS[0]),
        (rmcore.preset("random-zero-sum", rows=3, cols=_kernels._FUSED_FROM_COLUMNS, seed=2), VARIANTS[7]),
    ],
    ids=[
        "general-sum 3x4 rm",
        "zero-sum 5x5 prm+",
        "zero-sum 4x4 hedge",
        "general-sum 3x64 rm",
        "zero-sum 3x64 o-hedge",
    ],
)
def test_results_do_not_depend_on_array_addresses(game, variant):
    spread, packed = (rmcore.MatrixSolver(game, seed=11, **variant) for _ in range(2))
    packed._state = _packed_side_by_side(packed._state)
    _run_on(_kernels.run_matrix_general, spread, 1, 2000)
    _run_on(_kernels.run_matrix_general, packed, 1, 2000)
    for name in CARRIED:
        assert np.array_equal(getattr(spread._state, name), getattr(packed._state, name)), name
