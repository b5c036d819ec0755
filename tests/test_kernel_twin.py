"""While a kernel family compiles in a process of its own, the same file run as plain Python answers small calls with
the same numbers to the last bit; larger ones wait; nothing compiles in the process that serves pages; and each
family's cache is stale exactly when a file it reads has changed."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import rmcore
from rmcore import _runtime, kernels
from rmcore.kernels import python_twin

ROOT = Path(__file__).resolve().parents[1]

GAMES = {
    "zero-sum 3x3": rmcore.preset("rps-crash"),
    "general-sum 3x4": rmcore.preset("random-general-sum", rows=3, cols=4, seed=2),
}


def _twin_run(solver, iterations: int):
    """``solver.run(iterations)`` as the plain-Python twin of its family runs it (with the checkpoints the solver
    would write), returning the rows; the solver's state advances as the compiled kernel would advance it."""
    from rmcore import checkpoints

    start, stop = solver.iteration, solver.iteration + iterations
    points = checkpoints.checkpoints_between(start, stop, solver.max_points, solver.checkpoint_stride)
    record = solver._empty_record(points.shape[0])
    twin = python_twin(solver.family)
    entry = twin.run_matrix if solver.family == "matrix" else twin.entry_for(solver._flags.code)
    arguments = (*solver._payoffs, solver._flags) if solver.family == "matrix" else (solver.game.tree,)
    state = (solver._state,) if solver.family == "matrix" else (solver._state, solver._flags)
    with np.errstate(over="ignore"):
        written = entry(*arguments, *state, start + 1, stop, points, record)
    assert written == points.shape[0]
    solver._iteration = stop
    return record


MATRIX_VARIANTS = [
    dict(algorithm=a, sampling=s, updates=u, averaging=w)
    for a, (s, u, w) in itertools.product(
        rmcore.ALGORITHMS,
        [
            ("expected", "simultaneous", "uniform"),
            ("sampled", "alternating", "linear"),
            ("expected", "alternating", "quadratic"),
        ],
    )
    # (a rule limited to some forms, extragradient RM+, runs in those alone: ONLY_FORMS)
    if all(dict(sampling=s, updates=u)[k] == v for k, v in rmcore.matrix.ONLY_FORMS.get(a, {}).items())
] + [dict(algorithm="exrm+", sampling="expected", updates="simultaneous", averaging="linear")]


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("variant", MATRIX_VARIANTS, ids=lambda v: "/".join(v.values()))
@pytest.mark.parametrize("opponent", [None, "fixed"])
def test_the_matrix_kernel_as_plain_python_gives_the_same_bits(game_name, variant, opponent):
    game = GAMES[game_name]
    fixed = {"col": np.linspace(1, 2, game.shape[1])} if opponent else None
    eta = 0.3 if variant["algorithm"] in rmcore.matrix.STEP_ALGORITHMS else None
    start = (np.linspace(2, 1, game.shape[0]), np.linspace(1, 3, game.shape[1]))
    compiled, plain = (
        rmcore.MatrixSolver(game, seed=11, opponent=fixed, eta=eta, start=start, history_share=None, **variant)
        for _ in range(2)
    )
    compiled.run(37)
    compiled.run(300)
    rows = [_twin_run(plain, 37), _twin_run(plain, 300)]
    for name in compiled._state._fields:
        assert np.array_equal(getattr(compiled._state, name), getattr(plain._state, name)), name
    kept = compiled._record
    twin_rows = [np.concatenate([getattr(r, f) for r in rows]) for f in kept._fields]
    for field, theirs in zip(kept._fields, twin_rows):
        ours = getattr(kept, field)
        assert np.array_equal(ours, theirs[-ours.shape[0] :], equal_nan=True), field


TREE_GAMES = {
    "kuhn": lambda: rmcore.KUHN,
    "kuhn 4": lambda: rmcore.kuhn_poker(4, 1.5),
    "liars dice 3": lambda: rmcore.trees.liars_dice_game(3),
}


@pytest.mark.parametrize("game_name", TREE_GAMES)
@pytest.mark.parametrize(
    "variant, updates",
    [(name, None) for name in rmcore.CFR_ALGORITHMS]
    + [("cfr+", "simultaneous"), ("discounted", "simultaneous"), ("pdcfr+", "simultaneous"), ("dcfr+", "simultaneous")],
)
def test_the_tree_kernels_as_plain_python_give_the_same_bits(game_name, variant, updates):
    game = TREE_GAMES[game_name]()
    compiled, plain = (rmcore.CFRSolver(game, variant, updates, seed=5, history_share=None) for _ in range(2))
    compiled.run(7)
    record = _twin_run(plain, 7)
    for name in ("regrets", "strategy_sums", "policy", "last_regrets", "rng", "touched"):
        assert np.array_equal(getattr(compiled._state, name), getattr(plain._state, name)), name
    for field in record._fields:
        assert np.array_equal(getattr(compiled._record, field), getattr(record, field)), field


def test_a_wide_game_is_summed_in_vector_registers_and_its_twin_does_not_stand_in():
    """From WIDE_ROWS columns on, a row's dot product is reassociated; the twin then agrees to rounding only, so the
    runtime never lets it stand in for such a game."""
    wide = rmcore.preset("random-zero-sum", rows=40, cols=kernels.matrix.WIDE_ROWS + 3, seed=4)
    compiled, plain = (rmcore.MatrixSolver(wide, history_share=None) for _ in range(2))
    compiled.run(20)
    _twin_run(plain, 20)
    np.testing.assert_allclose(compiled._state.regrets_row, plain._state.regrets_row, rtol=1e-12, atol=1e-12)
    assert not plain._twin_exact() and rmcore.MatrixSolver(rmcore.preset("rps"))._twin_exact()


@pytest.fixture
def cold_server(monkeypatch):
    """As on a server whose numba cache is empty: every family compiling in the background (no process started, so
    they stay so), and any compile in this process recorded."""
    registered = _runtime._families
    monkeypatch.setattr(_runtime, "_families", {name: _runtime._Family(name) for name in kernels.FAMILIES})
    for family in _runtime._families.values():
        family.state, family.since = "compiling", 0.0
        family.warm_up, family.on_disk = registered[family.name].warm_up, registered[family.name].on_disk
    rmcore.compile_in_background(True)  # (conftest.py turns it off again)
    compiles = []

    class Listener(numba.core.event.Listener):
        def on_start(self, event):
            compiles.append(event.data["dispatcher"])

        def on_end(self, event):
            pass

    listener = Listener()
    numba.core.event.register("numba:compile", listener)
    yield compiles
    numba.core.event.unregister("numba:compile", listener)


def test_on_a_cold_server_small_runs_go_as_plain_python_and_nothing_compiles_here(cold_server):
    compiles = cold_server
    game = rmcore.preset("rps-crash")
    solver = rmcore.MatrixSolver(game, "prm+", seed=1)
    assert solver.kernel_status == "python" and solver.iterations_now() > 100
    solver.run(solver.iterations_now())
    solver.metrics(), solver.history()
    kuhn = rmcore.CFRSolver(rmcore.KUHN, "cfr+")
    kuhn.run(kuhn.iterations_now())
    kuhn.metrics()
    assert compiles == []
    reference = rmcore.MatrixSolver(game, "prm+", seed=1)
    rmcore.compile_in_background(False)
    reference.run(solver.iteration)
    assert np.array_equal(reference._state.regrets_row, solver._state.regrets_row)


def test_on_a_cold_server_each_solver_says_whether_it_runs_as_plain_python_or_waits(cold_server):
    """The status a page's notice reads is the solver's own: a small game runs as plain Python while its family
    compiles, a large one waits, whichever family began compiling first."""
    crash, kuhn = rmcore.MatrixSolver(rmcore.preset("rps-crash")), rmcore.CFRSolver(rmcore.KUHN)
    leduc = rmcore.CFRSolver(rmcore.leduc_poker())
    wide = rmcore.MatrixSolver(rmcore.preset("random-zero-sum", rows=30, cols=30, seed=1))
    for family in ("tree", "matrix"):  # (the tree family first, as when the tree page was opened first)
        _runtime._families[family].since = 10.0 if family == "matrix" else 0.0
    assert [s.kernel_status for s in (crash, kuhn, leduc, wide)] == ["python", "python", "compiling", "compiling"]
    _runtime._families["matrix"].state = "ready"
    assert crash.kernel_status == wide.kernel_status == "ready" and leduc.kernel_status == "compiling"


def test_on_a_cold_server_a_large_call_waits_for_its_compile(cold_server):
    compiles = cold_server
    leduc = rmcore.CFRSolver(rmcore.leduc_poker(), "cfr")
    assert leduc.iterations_now() == 0
    with pytest.raises(rmcore.KernelsCompiling, match="tree kernels are compiling"):
        leduc.run(1)
    wide = rmcore.MatrixSolver(rmcore.preset("random-zero-sum", rows=30, cols=30, seed=1))
    assert wide.iterations_now() == 0
    with pytest.raises(rmcore.KernelsCompiling):
        wide.run(1)
    assert leduc.iteration == wide.iteration == 0 and compiles == []


def test_a_live_run_waits_for_a_large_game_and_says_what_compiles_for_how_long(cold_server):
    import time

    from ui import explain
    from ui.live import LiveRun

    _runtime._families["tree"].since = time.monotonic() - 5.0
    leduc = LiveRun(rmcore.Race(rmcore.leduc_poker(), ["cfr"]))
    assert leduc.kernel_status() == "compiling" and leduc.waits_for_compile()
    assert leduc.tick(None) == 0 and leduc.iteration == 0
    seconds = leduc.compile_seconds()
    assert 5.0 <= seconds < 60
    assert (
        explain.compiling(seconds, "tree")
        == f"compiling the game-tree solver (once per server): {seconds:.0f} s so far"
    )
    kuhn = LiveRun(rmcore.Race(rmcore.KUHN, ["cfr", "cfr+"]))  # a small tree goes on as plain Python meanwhile
    assert not kuhn.waits_for_compile() and kuhn.tick(None) > 0
    assert kuhn.chunk_size(None) <= kuhn.iterations_now()
    _runtime._families["tree"].state = "ready"
    assert not leduc.waits_for_compile() and leduc.tick(None) > 0 and leduc.compile_seconds() is None


def test_on_a_cold_server_no_route_compiles_here(cold_server):
    """Every route to a kernel on a server still compiling its families: Monte Carlo CFR and MMD, the metrics and the
    exploitability of a tree, a policy's reach, the average policy of a game too large for plain Python. Each runs as
    plain Python or waits (KernelsCompiling); none compiles in this process."""
    compiles = cold_server
    for variant in ("mmd", "external-sampling", "outcome-sampling", "chance-sampling", "pcfr+"):
        solver = rmcore.CFRSolver(rmcore.KUHN, variant, seed=3)
        solver.run(min(solver.iterations_now(), 20))
        solver.metrics(), solver.history(), solver.average_policy()
    leduc = rmcore.leduc_poker()
    uniform = rmcore.CFRSolver(leduc).current_policy()
    rmcore.nash_conv(leduc, uniform)  # (one best-response sweep: small enough for plain Python)
    rmcore.best_response(leduc, uniform, 1)
    liars = rmcore.CFRSolver(rmcore.trees.liars_dice_game(6), "cfr")
    with pytest.raises(rmcore.KernelsCompiling):
        liars.metrics()  # (a history row of 294,876 nodes waits for the compile)
    liars.average_policy(), liars.current_policy()
    with pytest.raises(rmcore.KernelsCompiling):
        rmcore.MatrixSolver(rmcore.preset("random-zero-sum", rows=200, cols=200, seed=1)).run(50)
    assert compiles == []


def test_on_a_cold_server_a_history_is_spaced_without_timing_plain_python(cold_server, monkeypatch):
    """No compiled code to time while a family compiles: a solver whose first chunk runs as plain Python keeps every
    point of the grid (stride 1) for good; one whose call waits fixes no stride, and gets its measured one once the
    family is ready."""
    from rmcore import solver as core

    measured = []
    monkeypatch.setattr(core, "_row_costs", {})
    monkeypatch.setattr(core, "_measure_row_cost", lambda solver: measured.append(solver) or 5.0)
    small = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    small.run(50)
    assert small.checkpoint_stride == 1 and small._record.iteration.tolist()[:12] == list(range(1, 13))
    leduc = rmcore.CFRSolver(rmcore.leduc_poker())
    with pytest.raises(rmcore.KernelsCompiling):
        leduc.run(1)
    assert measured == []
    _runtime._families["matrix"].state = _runtime._families["tree"].state = "ready"
    assert small.checkpoint_stride == 1 and leduc.checkpoint_stride == 100 and measured == [leduc]
    assert rmcore.MatrixSolver(rmcore.preset("rps-crash")).checkpoint_stride == 100


def test_on_a_cold_server_the_tree_page_runs_leduc_when_compiled_and_says_so_meanwhile(cold_server):
    """The tree page on Leduc with Run pressed while its solver compiles: no traceback, the iteration line says what
    compiles and for how long, the panel says the run starts when it is ready (not "Press Run"), nothing compiles
    here; once the family is ready the same page runs."""
    from streamlit.testing.v1 import AppTest

    from ui import explain

    compiles = cold_server
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("app_pages/trees.py").run()
    app.button_group(key="kuhn_game").set_value("leduc").run()
    app.segmented_control(key="kuhn_running").set_value("Run").run()
    assert not app.exception
    assert any(info.value == explain.WAITING_FOR_COMPILE for info in app.info)
    assert not any("Press **Run**" in info.value for info in app.info)
    assert "once per server" in (app.metric[0].proto.delta or "") and app.metric[0].value == "0"
    assert compiles == []
    _runtime._families["tree"].state = "ready"  # (the compile process is done: this process loads the family)
    app.segmented_control(key="kuhn_running").set_value("Pause").run()
    app.segmented_control(key="kuhn_running").set_value("Run").run()
    assert not app.exception and int(app.metric[0].value.replace(",", "")) > 0


def test_on_a_cold_server_the_matrix_page_says_its_small_game_runs_as_plain_python(cold_server):
    """The tree family began compiling first, then the matrix page runs Rock-Paper-Scissors with a crash: it runs as
    plain Python meanwhile, and its notice says so (not that the game is too large for plain Python)."""
    from streamlit.testing.v1 import AppTest

    from ui import explain

    _runtime._families["matrix"].since = 5.0  # (after the tree family's 0.0)
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.segmented_control(key="matrix_running").set_value("Run").run()
    assert not app.exception and int(app.metric[0].value.replace(",", "")) > 0
    notices = [toast.value for toast in app.toast]
    assert explain.COMPILING_NOTICE["python"] in notices and explain.COMPILING_NOTICE["compiling"] not in notices


#: Each way a family's preparation fails on a server, and words its reason holds.
FAILURES = {
    "compile process": "their compile process ended with status 1",
    "numba internals": f"rmcore is tested with numba {kernels.NUMBA_TESTED}",
    "load": "loading them from numba's cache failed: EOFError",
}
#: Every compiled entry point (their ``overloads`` say what this process holds).
ENTRIES = (
    "matrix.run_matrix",
    *(f"tree.{name}" for name in ("run_cfr", "run_mccfr", "run_mmd", "best_responses", "reach_of")),
)


@pytest.fixture(params=list(FAILURES))
def failed_server(request, monkeypatch, cold_server):
    """A server on which both families' preparation failed, each of the ways :data:`FAILURES` names, simulated where
    it fails: a compile process that ends with an error (on an empty cache); a numba whose cache classes lack what
    ``_runtime.on_disk`` reads (in a process that holds no compiled kernel yet); a cache file that cannot be loaded.
    Yields ``(reason words, compiles recorded)``."""
    how = request.param
    if how == "compile process":
        monkeypatch.setattr(_runtime, "_COMPILE_MODULE", "rmcore._no_such_compile_module")
        for family in _runtime._families.values():
            monkeypatch.setattr(family, "on_disk", lambda: False)
    elif how == "numba internals":
        for entry in ENTRIES:
            module, name = entry.split(".")
            monkeypatch.setattr(getattr(getattr(kernels, module), name), "overloads", {})
        monkeypatch.delattr(numba.core.caching.Cache, "_index_key")
    else:

        def truncated():
            raise EOFError("Ran out of input")  # (what unpickling a cut-off cache file raises)

        for family in _runtime._families.values():
            monkeypatch.setattr(family, "warm_up", truncated)
    for family in _runtime._families.values():
        _runtime._prepare(family)
    assert set(rmcore.kernels_failed()) == set(kernels.FAMILIES)
    yield FAILURES[how], cold_server


def test_a_failed_preparation_says_why_small_runs_go_on_and_a_large_one_raises_a_clear_error(failed_server):
    words, compiles = failed_server
    assert all(words in problem for problem in rmcore.kernels_failed().values()), rmcore.kernels_failed()
    assert rmcore.compiling() == {}
    crash = rmcore.MatrixSolver(rmcore.preset("rps-crash"), "prm+", seed=1)
    assert crash.kernel_status == "failed" and crash.iterations_now() > 100
    crash.run(crash.iterations_now())
    leduc = rmcore.CFRSolver(rmcore.leduc_poker(), "cfr")
    assert leduc.kernel_status == "failed" and leduc.iterations_now() == 0
    with pytest.raises(rmcore.KernelsUnavailable, match="tree kernels could not be prepared") as raised:
        leduc.run(1)
    assert not isinstance(raised.value, rmcore.KernelsCompiling)
    assert raised.value.family == "tree" and words in raised.value.reason and words in str(raised.value)
    assert compiles == [] and leduc.iteration == 0
    from ui.live import LiveRun

    failed_chunk = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"])).chunk_size(None)
    _runtime._families["matrix"].state = "compiling"  # (plain Python too: a live run's first chunk is sized alike)
    assert failed_chunk == LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"])).chunk_size(None)
    _runtime._families["matrix"].state = "failed"
    reference = rmcore.MatrixSolver(rmcore.preset("rps-crash"), "prm+", seed=1)
    rmcore.compile_in_background(False)
    reference.run(crash.iteration)
    assert np.array_equal(reference._state.regrets_row, crash._state.regrets_row)


def test_on_a_failed_server_the_matrix_page_says_why_and_runs_its_small_game_as_plain_python(failed_server):
    from streamlit.testing.v1 import AppTest

    from ui import explain

    _, compiles = failed_server
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.segmented_control(key="matrix_running").set_value("Run").run()
    assert not app.exception and int(app.metric[0].value.replace(",", "")) > 0
    notices = [toast.value for toast in app.toast]
    assert explain.kernels_failed(rmcore.kernels_failed()["matrix"], runs=True) in notices
    assert not set(explain.COMPILING_NOTICE.values()) & set(notices)
    assert app.metric[0].proto.delta == explain.NO_COMPILED_SOLVER and compiles == []


def test_on_a_failed_server_the_tree_page_says_that_leduc_cannot_run_and_why(failed_server):
    from streamlit.testing.v1 import AppTest

    from ui import explain

    _, compiles = failed_server
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("app_pages/trees.py").run()
    app.button_group(key="kuhn_game").set_value("leduc").run()
    app.segmented_control(key="kuhn_running").set_value("Run").run()
    assert not app.exception and app.metric[0].value == "0"
    problem = rmcore.kernels_failed()["tree"]
    assert [info.value for info in app.info if "compiled solvers" in info.value] == [
        explain.waiting_for_kernels(problem)
    ]
    assert not any(info.value == explain.WAITING_FOR_COMPILE for info in app.info)
    assert explain.kernels_failed(problem, runs=False) in [toast.value for toast in app.toast]
    assert app.metric[0].proto.delta == explain.NO_COMPILED_SOLVER and compiles == []


@pytest.mark.parametrize("status", ["compiling", "failed"])
def test_the_matrix_page_runs_a_game_too_large_for_plain_python_into_a_sentence_not_a_traceback(cold_server, status):
    """A 30x30 game (its rows summed in vector registers: never plain Python) with Run pressed, while the matrix
    family compiles or after its preparation failed: the panel says it waits for the compile, or that the game cannot
    run on this server and why; nothing compiles here."""
    from streamlit.testing.v1 import AppTest

    from ui import explain

    compiles = cold_server
    if status == "failed":
        for family in _runtime._families.values():
            family.state, family.problem = "failed", "their compile process ended with status 1: a simulated failure"
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.selectbox(key="preset").set_value("random-zero-sum").run()
    app.slider(key="param_random-zero-sum_rows").set_value(30).run()
    app.slider(key="param_random-zero-sum_cols").set_value(30).run()
    app.segmented_control(key="matrix_running").set_value("Run").run()
    assert not app.exception and app.metric[0].value == "0" and compiles == []
    problem = rmcore.kernels_failed().get("matrix")
    assert explain.waiting_for_kernels(problem) in [info.value for info in app.info]
    assert (problem is None) == (app.metric[0].proto.delta != explain.NO_COMPILED_SOLVER)


def test_a_numba_without_the_cache_classes_read_here_fails_at_import_naming_the_tested_releases():
    with pytest.raises(ImportError, match=rf"tested with numba {re.escape(kernels.NUMBA_TESTED)}"):
        kernels._stamp_families(object())


def test_the_numba_pin_is_the_tested_range_everywhere_it_is_stated():
    """requirements.txt, pyproject.toml, the README and the docs state the range of ``NUMBA_TESTED``, and it holds the
    installed numba (the release these tests ran on)."""
    from packaging.specifiers import SpecifierSet

    pin = f"numba{kernels.NUMBA_TESTED}"
    assert pin in (ROOT / "requirements.txt").read_text().splitlines()
    assert f'"{pin}"' in (ROOT / "pyproject.toml").read_text()
    for page in ("README.md", "docs/how-to/serve-a-class.md"):
        assert f"`{pin}`" in (ROOT / page).read_text(), page
    assert f"`{kernels.NUMBA_TESTED}`" in (ROOT / "docs/reference/api/compiling.md").read_text()
    assert numba.__version__ in SpecifierSet(kernels.NUMBA_TESTED)


def test_off_by_default_a_library_call_compiles_what_it_needs():
    fresh = subprocess.run(
        [sys.executable, "-c", "import rmcore; print(rmcore.compiles_in_background())"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert fresh.stdout.strip() == "False"  # (the app's tests turn it on in this process)
    solver = rmcore.MatrixSolver(GAMES["zero-sum 3x3"], algorithm="rm+")
    solver.run(10)
    assert solver.iterations_now() is None


def test_each_family_is_stamped_with_the_files_it_reads(tmp_path, monkeypatch):
    """numba caches a family by the stamp of its file; the stamp covers the kernel files it reads too, so an edit to
    the random numbers makes both families stale and an edit to the tree kernels the tree family alone."""
    assert kernels._reads("matrix") == ("rng",) and kernels._reads("tree") == ("rng",) and kernels._reads("rng") == ()
    for name in ("matrix", "tree", "rng"):
        (tmp_path / f"{name}.py").write_text((Path(kernels.__file__).parent / f"{name}.py").read_text())
    monkeypatch.setattr(kernels, "_HERE", str(tmp_path))
    before = {name: kernels.family_stamp(str(tmp_path / f"{name}.py")) for name in ("matrix", "tree")}
    with open(tmp_path / "tree.py", "a") as tree:
        tree.write("\n# an edit\n")
    after_tree = {name: kernels.family_stamp(str(tmp_path / f"{name}.py")) for name in ("matrix", "tree")}
    assert after_tree["matrix"] == before["matrix"] and after_tree["tree"] != before["tree"]
    with open(tmp_path / "rng.py", "a") as generator:
        generator.write("\n# an edit\n")
    after_rng = {name: kernels.family_stamp(str(tmp_path / f"{name}.py")) for name in ("matrix", "tree")}
    assert after_rng["matrix"] != after_tree["matrix"] and after_rng["tree"] != after_tree["tree"]


def test_the_kernels_are_cached_under_their_family_stamp():
    entries = (kernels.tree.run_cfr, kernels.tree.run_mccfr, kernels.tree.run_mmd, kernels.tree.best_responses)
    for entry in (kernels.matrix.run_matrix, *entries):
        locator = entry._cache._impl.locator
        assert isinstance(locator, kernels._FamilyStamp)
        assert locator.get_source_stamp() == kernels.family_stamp(entry.py_func.__code__.co_filename)


# The compile process (``python -m rmcore._compile``) runs each family's warm-up: the signatures it leaves in numba's
# cache are the ones the warm-ups call. Solvers then run; any signature of theirs the warm-ups did not call is printed.
SIGNATURES = """
import rmcore
from rmcore import _compile, kernels
entries = (kernels.matrix.run_matrix, kernels.tree.run_cfr, kernels.tree.run_mccfr, kernels.tree.run_mmd,
           kernels.tree.best_responses, kernels.tree.reach_of)
_compile.compile_family("matrix")
_compile.compile_family("tree")
warmed = {entry: set(entry.signatures) for entry in entries}
assert all(warmed.values()), "every entry point is called by its family's warm-up"
solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"), "hedge", updates="alternating")
solver.run(10)
rmcore.MatrixSolver(rmcore.preset("shapley"), "rm", sampling="sampled", seed=3).run(10)
tree = rmcore.CFRSolver(rmcore.leduc_poker(), "pcfr+")
tree.run(3)
rmcore.CFRSolver(rmcore.KUHN, "external-sampling", seed=1).run(3)
rmcore.CFRSolver(rmcore.KUHN, "mmd").run(3)
rmcore.nash_conv(rmcore.KUHN, rmcore.equilibrium_policy(0.1))
print([str(s) for entry in entries for s in set(entry.signatures) - warmed[entry]])
"""


def test_solvers_call_exactly_the_signatures_the_compile_process_compiles():
    """A server loads what the compile process wrote and never compiles a kernel itself (which would hold its GIL for
    seconds): so every solver's call has a signature the family's warm-up (the compile process's work) called."""
    ran = subprocess.run([sys.executable, "-c", SIGNATURES], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip() == "[]", ran.stdout


# On a server (background mode), once a family says "ready" every entry point is in the process: a session's first
# call loads nothing (printed: the first RPS chunk's CPU seconds and the entries not yet loaded when "ready").
BACKGROUND_LOAD = """
import time
import rmcore
from rmcore import _runtime, kernels
rmcore.compile_in_background(True)
_runtime.prepare_kernels()
deadline = time.monotonic() + 300
while {_runtime.family_status(f) for f in kernels.FAMILIES} != {"ready"} and time.monotonic() < deadline:
    time.sleep(0.02)
entries = (kernels.matrix.run_matrix, kernels.tree.run_cfr, kernels.tree.run_mccfr, kernels.tree.run_mmd,
           kernels.tree.best_responses, kernels.tree.reach_of)
unloaded = [entry.py_func.__name__ for entry in entries if not entry.overloads]
before = sum(len(entry.overloads) for entry in entries)
solver = rmcore.MatrixSolver(rmcore.preset("rps"))
solver.run(250)
rmcore.CFRSolver(rmcore.KUHN, "cfr+").run(5)
print(unloaded, sum(len(entry.overloads) for entry in entries) - before)
"""


def test_on_a_server_a_family_is_loaded_before_it_says_ready():
    """The family's warm-up runs compiled code in the thread that loads it, even though background mode sends other
    threads' calls to plain Python until "ready": else the first session's first large call loads the kernels itself
    (half a second of a 250-iteration RPS chunk, which also priced a link's run_to as if it took minutes)."""
    ran = subprocess.run([sys.executable, "-c", BACKGROUND_LOAD], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.split() == ["[]", "0"], ran.stdout


@pytest.mark.parametrize("extra_columns", [0, 5])
@pytest.mark.parametrize("zero_sum", [True, False])
def test_a_game_summed_in_one_loop_a_row_repeats_itself_wherever_its_arrays_lie(zero_sum, extra_columns):
    """A matrix of FUSED_FROM_COLUMNS columns or more: a row's utility and its part of the column utilities are one
    vectorised loop behind LLVM's run-time check that the stores lie clear of the loads: the check never fails for
    distinct arrays of that size, so solvers whose arrays lie anywhere compute the same numbers to the last bit."""
    columns = kernels.matrix.FUSED_FROM_COLUMNS + extra_columns
    game = rmcore.preset("random-zero-sum", rows=7, cols=columns, seed=2)
    if not zero_sum:
        game = rmcore.MatrixGame(game.row_payoffs, 0.5 - 0.75 * game.row_payoffs)  # (general-sum: B read as it is)
    runs = []
    for spacer in range(3):  # (other arrays allocated between the solvers' own: their arrays lie elsewhere)
        padding = [np.empty(1 + 97 * spacer) for _ in range(spacer)]
        solver = rmcore.MatrixSolver(game, max_points=0)
        solver.run(30)
        runs.append((solver.average_policy().probabilities, padding))
    first = runs[0][0]
    for probabilities, _ in runs[1:]:
        assert np.array_equal(probabilities, first)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint64])
def test_aligned_copies_keep_values_dtype_and_shape_on_a_cache_line(dtype):
    for shape in [(1,), (3,), (5, 7), (64, 64)]:  # (an empty array has no start to align)
        array = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
        copy = kernels.aligned(array)
        assert copy.ctypes.data % kernels.ALIGNMENT == 0
        assert copy.dtype == array.dtype and copy.shape == array.shape and copy.flags.c_contiguous
        assert copy.flags.writeable and np.array_equal(copy, array) and not np.shares_memory(copy, array)


def test_a_matrix_solver_gives_the_kernel_every_array_on_a_cache_line():
    """numpy starts arrays on 16-byte boundaries; a kernel's vector loads from an array that starts mid-line span two
    lines (mid-size games ran at half speed)."""
    for algorithm in ("rm", "hedge", "gda"):
        solver = rmcore.MatrixSolver(rmcore.preset("random-zero-sum", rows=40, cols=33, seed=1), algorithm=algorithm)
        arrays = [*solver._payoffs, *solver._state]
        assert all(array.ctypes.data % kernels.ALIGNMENT == 0 for array in arrays)
