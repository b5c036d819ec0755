"""The names of one release ago keep working: every name ``rmcore.__all__`` had at b500d43 (saved in
``tests/saved/b500d43/rmcore_all.txt``), the modules by their old paths, and the renamed parameters, attributes and
metrics. A moved name is the same object; a renamed one warns (``DeprecationWarning``), names its successor and the
release that removes it, and computes what the new one does. All of it is plain Python (module ``__getattr__``, PEP
562): importing rmcore or ui adds no import hook and leaves every module a plain module.

The only place in the project that uses these names (``rmcore/_deprecated.py`` and ``rmcore/_deprecated_api.py``
define them).
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from packaging.version import Version

import rmcore
from rmcore import _deprecated

SAVED = Path(__file__).parent / "saved" / "b500d43"
OLD_ALL = SAVED.joinpath("rmcore_all.txt").read_text().split()
#: Each renamed top-level name and a word its warning must say (its successor).
RENAMED = {
    "tree_nash_conv": "rmcore.nash_conv",
    "kuhn_nash_conv": "rmcore.nash_conv(rmcore.KUHN",
    "best_response_gains": "rmcore.best_response",
    "BestResponseGains": "rmcore.PlayerValues",
    "solve_zero_sum": "rmcore.solve_exactly",
    "ZeroSumSolution": "rmcore.ExactSolution",
    "solve_tree_game": "rmcore.solve_exactly",
    "TreeSolution": "rmcore.ExactSolution",
    "KuhnCFR": "rmcore.CFRSolver(rmcore.KUHN",
    "MatrixMetrics": "rmcore.Metrics",
    "CFRMetrics": "rmcore.Metrics",
    "StrategyProfile": "average_policy()",
    "CFR_VARIANTS": "rmcore.CFR_ALGORITHMS",
    "liars_dice": "rmcore.liars_dice_game",
    "goofspiel": "rmcore.goofspiel_game",
}
#: The functions named as their modules one release ago: ``rmcore.race`` is the module, the function ``run_race``.
MODULES_NOW = {"race": "run_race", "sweep": "run_sweep"}


@pytest.fixture(autouse=True)
def _old_module_names_forgotten_after_each_test():
    """Each test leaves the old module names as a fresh process has them: neither imported nor attributes of their
    package (importing a submodule sets it as one), so that no later test finds them by accident; and finds them so
    itself, whatever ran before it in this process (collecting the doctests of ``rmcore/`` imports every old path)."""
    _forget_old_modules()
    yield
    _forget_old_modules()


def _forget_old_modules():
    for old in _deprecated.MOVED_MODULES:
        sys.modules.pop(old, None)
        parent, _, leaf = old.rpartition(".")
        if isinstance(sys.modules[parent].__dict__.get(leaf), type(sys)):
            del sys.modules[parent].__dict__[leaf]


def _quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return function(*args, **kwargs)


def test_every_old_name_is_there_a_moved_one_silently_a_renamed_one_with_its_successor_named():
    assert len(OLD_ALL) == 83
    for name in OLD_ALL:
        if name in MODULES_NOW:
            continue
        if name in RENAMED:
            with pytest.warns(DeprecationWarning, match=rf"rmcore\.{name} is deprecated: .*{RENAMED[name][:12]}"):
                getattr(rmcore, name)
            assert name not in rmcore.__all__
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("error", DeprecationWarning)
                getattr(rmcore, name)
            assert name in rmcore.__all__, name
    for name, new in MODULES_NOW.items():  # (calling the module cannot warn; its old function's name, inside it, does)
        module = getattr(rmcore, name)
        assert module is sys.modules[f"rmcore.{name}"] and name not in rmcore.__all__
        with pytest.warns(DeprecationWarning, match=rf"rmcore\.{name}\.{name} is deprecated: use rmcore\.{new}"):
            assert getattr(module, name) is getattr(rmcore, new)
        with pytest.raises(TypeError, match="'module' object is not callable"):
            module(rmcore.KUHN, ["cfr"], 1)
    assert set(RENAMED) | {"race"} <= set(OLD_ALL)  # (the sweep module came after)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        rmcore.no_such_name  # noqa: B018


def test_from_rmcore_import_an_old_name_warns_once_and_works():
    with pytest.warns(DeprecationWarning, match="KuhnCFR is deprecated"):
        from rmcore import KuhnCFR
    solver = KuhnCFR("cfr")
    solver.run(100)
    assert isinstance(solver, rmcore.CFRSolver) and solver.game is rmcore.KUHN
    assert f"{solver.metrics().exploitability:.3g}" == "0.00823"  # OpenSpiel's CFRSolver after 100 iterations


def test_the_old_metrics_compute_what_the_new_ones_do():
    game = rmcore.preset("random-general-sum", rows=3, cols=4, seed=2)
    x, y = np.array([0.2, 0.5, 0.3]), np.array([0.1, 0.2, 0.3, 0.4])
    gains = _quietly(lambda: rmcore.best_response_gains(game, x, y))
    assert (gains.row, gains.col) == tuple(rmcore.best_response(game, (x, y), p).gain for p in (1, 2))
    with pytest.warns(DeprecationWarning, match=r"nash_conv\(game, x, y\) is deprecated"):
        old = rmcore.nash_conv(game, x, y)
    assert old == rmcore.nash_conv(game, game.policy(x, y)) == gains.row + gains.col
    crash = rmcore.preset("rps-crash")
    with pytest.warns(DeprecationWarning, match=r"exploitability\(game, x, y\) is deprecated"):
        assert rmcore.exploitability(crash, [1, 0, 0], [0, 1, 0]) == rmcore.exploitability(
            crash, ([1, 0, 0], [0, 1, 0])
        )
    uniform = {name: [0.5, 0.5] for name in rmcore.KUHN.infosets}
    assert _quietly(lambda: rmcore.kuhn_nash_conv(uniform)) == rmcore.nash_conv(rmcore.KUHN, uniform)
    assert _quietly(lambda: rmcore.tree_nash_conv(rmcore.KUHN, uniform)) == rmcore.nash_conv(rmcore.KUHN, uniform)
    with pytest.warns(DeprecationWarning, match=r"learner=\.\.\.\) is deprecated"):
        old = rmcore.best_response(rmcore.KUHN, uniform, learner=2)
    assert old.value == rmcore.best_response(rmcore.KUHN, uniform, player=2).value
    with pytest.warns(DeprecationWarning, match="learner"):
        first = rmcore.trees.exploit.best_response(rmcore.KUHN, uniform, learner=1)
    assert first.value == rmcore.best_response(rmcore.KUHN, uniform, 1).value


def test_the_old_exact_answers_are_the_new_ones_in_their_old_records():
    crash = rmcore.preset("rps-crash")
    old, new = _quietly(lambda: rmcore.solve_zero_sum(crash)), rmcore.solve_exactly(crash)
    assert old.value == new.game_value and old.row_strategy == pytest.approx(tuple(new.policy["row"]), abs=1e-15)
    assert isinstance(old.col_strategy, tuple)
    tree = _quietly(lambda: rmcore.solve_tree_game(rmcore.KUHN))
    exact = rmcore.solve_exactly(rmcore.KUHN)
    assert (tree.value, tree.policy, tree.nash_conv) == (exact.game_value, exact.policy, exact.nash_conv)
    with pytest.raises(ValueError, match="zero-sum"):
        _quietly(lambda: rmcore.solve_zero_sum(rmcore.preset("chicken")))


def test_renamed_parameters_and_methods_warn_and_work():
    with pytest.warns(DeprecationWarning, match=r"CFRSolver\(variant=\.\.\.\) is deprecated"):
        old = rmcore.CFRSolver(rmcore.KUHN, variant="cfr+")
    assert old.algorithm == "cfr+"
    with pytest.warns(DeprecationWarning, match="CFRVariant.name is deprecated"):
        assert old.variant.name == "cfr+"
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"), "rm+")
    solver.run(50)
    with pytest.warns(DeprecationWarning, match="average_strategies"):
        average = solver.average_strategies()
    with pytest.warns(DeprecationWarning, match="current_strategies"):
        current = solver.current_strategies()
    assert average.row.tolist() == solver.average_policy()["row"].tolist()
    assert current.col.tolist() == solver.current_policy()["col"].tolist()
    bot = rmcore.solve_exactly(rmcore.KUHN).policy
    with pytest.warns(DeprecationWarning, match="student"):
        hand = rmcore.Hand(rmcore.KUHN, bot, student=2, seed=1, number=0)
    assert hand.player == 2
    with pytest.warns(DeprecationWarning, match="Hand.student"):
        assert hand.student == 1  # (the old attribute counted from 0)


def test_a_matrix_opponent_as_bare_weights_warns_and_plays_as_the_dict():
    game = rmcore.preset("rps")
    with pytest.warns(DeprecationWarning, match=r"opponent=weights\) is deprecated"):
        old = rmcore.MatrixSolver(game, "rm+", opponent=[4, 3, 3])
    new = rmcore.MatrixSolver(game, "rm+", opponent={"col": [4, 3, 3]})
    old.run(300), new.run(300)
    assert old.metrics() == new.metrics() and old.opponent == new.opponent == {"col": (0.4, 0.3, 0.3)}
    with pytest.warns(DeprecationWarning, match=r"Race\(opponent=weights\)"):
        race = rmcore.Race(game, ["rm+"], opponent=[4, 3, 3])
    race.run(300)
    assert race.solvers[0].metrics() == new.metrics()


def test_the_tree_step_sizes_old_name_warns_and_runs_as_eta():
    from rmcore.sweep import parse_grid

    with pytest.warns(DeprecationWarning, match=r"CFRSolver\(stepsize=...\) is deprecated: use eta="):
        old = rmcore.CFRSolver(rmcore.KUHN, "mmd", stepsize=0.3)
    new = rmcore.CFRSolver(rmcore.KUHN, "mmd", eta=0.3)
    old.run(5), new.run(5)
    assert old.metrics() == new.metrics() and old.variant == new.variant
    with pytest.warns(DeprecationWarning, match=r"CFRSolver.stepsize is deprecated"):
        assert old.stepsize == new.eta == 0.3
    with pytest.raises(ValueError, match="give the step size once"), pytest.warns(DeprecationWarning):
        rmcore.CFRSolver(rmcore.KUHN, "mmd", eta=0.3, stepsize=0.3)
    grid = {"iterations": 5, "checkpoints": [5], "games": [{"game": "kuhn"}]}
    with pytest.warns(DeprecationWarning, match="stepsize is deprecated: write eta"):
        cells = parse_grid({**grid, "algorithms": [{"tree": "mmd", "stepsize": 0.3}]}).cells
    assert cells == parse_grid({**grid, "algorithms": [{"tree": "mmd", "eta": 0.3}]}).cells


def test_old_record_fields_and_metric_names_warn_and_read_the_new_ones():
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    solver.run(20)
    metrics, history = solver.metrics(), solver.history()
    with pytest.warns(DeprecationWarning, match="PlayerValues.row"):
        assert metrics.br_gains.row == metrics.br_gains.player_1
    with pytest.warns(DeprecationWarning, match="PlayerValues.col"):
        assert metrics.average_regret.col == metrics.average_regret.player_2
    with pytest.warns(DeprecationWarning, match="Metrics.value"):
        assert metrics.value == metrics.game_value
    for old, new in [("br_gain_row", "br_gain_1"), ("regret_bound_col", "regret_bound_2"), ("value", "game_value")]:
        with pytest.warns(DeprecationWarning, match=f"the metric '{old}' is now '{new}'"):
            assert history.metrics[old] is history.metrics[new]
        assert old not in history.metrics
    with pytest.raises(KeyError):
        history.metrics["no_such_metric"]


@pytest.mark.parametrize("old,new", sorted(_deprecated.MOVED_MODULES.items()))
def test_every_moved_module_imports_by_its_old_path_and_hands_over_the_new_modules_objects(old, new):
    module, current = importlib.import_module(old), importlib.import_module(new)
    assert module.__file__.endswith(old.replace(".", "/") + ".py")  # a file of its own: no import hook finds it
    names = getattr(current, "__all__", None) or [name for name in vars(current) if not name.startswith("_")]
    for name in names:
        with pytest.warns(DeprecationWarning, match=rf"{old}\.{name}: module {old} is now {new} \(removed in rmcore"):
            assert getattr(module, name) is getattr(current, name)
    with pytest.raises(AttributeError, match=f"module '{old}' \\(now '{new}'\\) has no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018
    with pytest.raises(ModuleNotFoundError, match="is not a package"):
        importlib.import_module(f"{old}.anything")


def test_from_an_old_path_import_star_takes_the_new_modules_names():
    namespace = {}
    with pytest.warns(DeprecationWarning, match="module rmcore.cfr is now rmcore.trees.cfr"):
        exec("from rmcore.cfr import *", namespace)
    assert namespace["CFRSolver"] is rmcore.CFRSolver and set(rmcore.trees.cfr.__all__) <= set(namespace)


def test_the_old_names_liars_dice_and_goofspiel_are_the_functions_until_their_old_module_path_is_imported():
    """Both were a function and a module path one release ago, and a package's attribute holds one thing: the name
    reads as the function (its documented use), and importing the old path makes it that module, as importing any
    submodule does."""
    for name in ("liars_dice", "goofspiel"):
        with pytest.warns(DeprecationWarning, match=rf"rmcore\.{name} is deprecated: use rmcore\.{name}_game"):
            assert getattr(rmcore, name) is getattr(rmcore, f"{name}_game")
        with pytest.warns(DeprecationWarning) as caught:
            old = getattr(importlib.import_module(f"rmcore.{name}"), name)  # (from rmcore.liars_dice import ...)
        said = " | ".join(str(warning.message) for warning in caught)
        assert f"module rmcore.{name} is now rmcore.trees.{name}" in said and f"use rmcore.{name}_game" in said
        assert old is getattr(rmcore, f"{name}_game")
        assert getattr(rmcore, name) is sys.modules[f"rmcore.{name}"]
        assert isinstance(getattr(rmcore.trees, name), type(sys)), "rmcore.trees.liars_dice is the module"


def test_old_module_paths_keep_their_old_names():
    with pytest.warns(DeprecationWarning):
        from rmcore.cfr import CFRSolver, tree_nash_conv  # noqa: F401
    assert CFRSolver is rmcore.CFRSolver
    with pytest.warns(DeprecationWarning, match="is now rmcore.matrix.solver.step_size"):
        from rmcore.matrix import step_size  # the matrix solver's module was rmcore.matrix
    assert step_size(None, "hedge") == 0.1
    with pytest.warns(DeprecationWarning, match="rmcore.exact.solve_zero_sum is deprecated"):
        from rmcore.exact import solve_zero_sum  # noqa: F401
    with pytest.warns(DeprecationWarning, match="rmcore.metrics.BestResponseGains is deprecated"):
        from rmcore.metrics import BestResponseGains  # noqa: F401
    with pytest.warns(DeprecationWarning, match="module rmcore.poker is now rmcore.trees.poker"):
        assert rmcore.poker.kuhn_poker is rmcore.kuhn_poker  # (an attribute, never imported by that name)


def test_old_metrics_at_functions_read_what_the_solvers_do():
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr", max_points=8, history_share=None)
    solver.run(30)
    history = solver.history()
    with pytest.warns(DeprecationWarning, match=r"solver\.metrics_at"):
        from rmcore.trees.cfr import metrics_at
    assert metrics_at(history, 3) == solver.metrics_at(history, 3)
    matrix = rmcore.MatrixSolver(rmcore.preset("rps-crash"), max_points=8, history_share=None)
    matrix.run(30)
    history = matrix.history()
    with pytest.warns(DeprecationWarning):
        from rmcore.matrix import metrics_at as matrix_metrics_at
    assert matrix_metrics_at(history, 2, True) == matrix.metrics_at(history, 2)


def test_no_deprecated_name_is_used_outside_the_shims_and_this_test():
    """``git grep`` for every old name: only ``rmcore/_deprecated*.py``, this file, the deprecated members in their
    own classes and the command line's JSON keys may hold one. (The compiled kernels' own record fields, in
    ``rmcore/kernels``, are not the library's names.)"""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    # (``liars_dice`` and ``goofspiel`` stay the catalogue's and the modules' names: only their old calls are sought)
    names = [*(set(RENAMED) - {"liars_dice", "goofspiel"}), "average_strategies", "current_strategies", "br_gain_row"]
    pattern = "|".join([*names, "regret_bound_row"])
    calls = r"|\brmcore\.(trees\.)?(race|sweep|liars_dice|goofspiel)(\(|\.cache_)|\b(race|sweep)\.(race|sweep)\b"
    found = subprocess.run(
        [
            "git",
            "grep",
            "-n",
            "-E",
            rf"\b({pattern})\b{calls}",
            "--",
            ".",
            ":!rmcore/_deprecated*.py",
            ":!tests/saved",
            f":!tests/{Path(__file__).name}",
            ":!rmcore/kernels",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    allowed = {
        # the command line's JSON keys keep their names: scripts read them
        "rmcore/__main__.py": ("average_strategies", "current_strategies"),
        "docs/reference/cli.md": ("average_strategies", "current_strategies"),
        "tests/test_cli.py": ("average_strategies", "current_strategies"),
        "tests/test_hostile_inputs.py": ("average_strategies",),
        # the deprecated members themselves, in their classes, and the table of old metric names
        "rmcore/matrix/solver.py": ("average_strategies", "current_strategies", "StrategyProfile", "record.br_gain"),
        "rmcore/records.py": ("br_gain_row", "regret_bound_row"),
        # the table of deprecated names and their successors (its rows)
        "docs/reference/index.md": ("| `",),
    }
    unexplained = [line for line in found if not any(word in line for word in allowed.get(line.split(":", 1)[0], ()))]
    assert not unexplained, "\n".join(unexplained)


def test_importing_rmcore_and_ui_adds_no_import_hook_and_leaves_plain_modules():
    script = (
        "import sys; n = len(sys.meta_path); import rmcore, ui, ui.trees, ui.matrix; assert len(sys.meta_path) == n, "
        "sys.meta_path; assert type(sys.modules['rmcore']).__name__ == 'module'; "
        "assert all(type(m) is type(sys) for k, m in sys.modules.items() if k.split('.')[0] in ('rmcore', 'ui'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=Path(__file__).resolve().parent.parent, text=True, capture_output=True
    )
    assert done.returncode == 0, done.stderr


def _packages(root: str):
    package = importlib.import_module(root)
    yield package
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            yield from _packages(f"{root}.{info.name}")


@pytest.mark.parametrize("root", ["rmcore", "ui"])
def test_no_name_of_a_package_is_also_its_submodules(root):
    """``rmcore.race.MAX_VARIANTS`` reads the module: no function, class or constant of a package hides a submodule
    of the same name (importing the submodule would replace it, or it would hide the module)."""
    clashes = []
    for package in _packages(root):
        for info in pkgutil.iter_modules(package.__path__):
            value = package.__dict__.get(info.name)
            if value is not None and not isinstance(value, type(sys)):
                clashes.append(f"{package.__name__}.{info.name} is a {type(value).__name__} and a submodule")
    assert not clashes, clashes
    assert rmcore.race.MAX_VARIANTS == 10 and rmcore.sweep.FORMAT.startswith("rmcore-sweep/")


def test_the_release_that_removes_the_old_names_has_not_come():
    """Fails once ``rmcore.__version__`` reaches :data:`rmcore._deprecated.REMOVED_IN`: that release deletes
    ``rmcore/_deprecated.py``, ``rmcore/_deprecated_api.py``, the old module paths' files, every ``__getattr__`` built
    by them, the members marked "Deprecated" and this test file."""
    assert Version(rmcore.__version__) < Version(_deprecated.REMOVED_IN), (
        f"rmcore {rmcore.__version__} is the release that removes the deprecated names (REMOVED_IN = "
        f"{_deprecated.REMOVED_IN}): delete them and this file"
    )
    with pytest.warns(DeprecationWarning, match=rf"\(removed in rmcore {_deprecated.REMOVED_IN}\)$"):
        rmcore.KuhnCFR  # noqa: B018
    for old in _deprecated.MOVED_MODULES:
        path = Path(rmcore.__file__).parent.parent.joinpath(*old.split(".")).with_suffix(".py")
        assert "REMOVED_IN" in path.read_text(), path
    listed = Path(__file__).resolve().parent.parent.joinpath("docs", "reference", "index.md").read_text()
    assert f"## Deprecated names, removed in rmcore {_deprecated.REMOVED_IN}" in listed
