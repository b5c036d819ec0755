"""Names of one release ago, kept working for one more: each use warns (``DeprecationWarning``), names the new one and
the release that removes it (:data:`REMOVED_IN`). Everything here is plain Python: no import hook, no module class.

Three kinds:

- **Module paths** moved into the family packages (``rmcore.cfr`` is :mod:`rmcore.trees.cfr`): each old path is a
  file of a few lines (``rmcore/cfr.py``) whose module ``__getattr__`` (PEP 562), built by :func:`moved_module`, hands
  over the new module's objects, warning at every name read through the old path. (The objects are the same; the
  module is not, so a patch of ``rmcore.cfr.x`` does not reach ``rmcore.trees.cfr``.) :data:`MOVED_MODULES` lists them.
- **Names** renamed or merged into one (``tree_nash_conv`` is :func:`rmcore.nash_conv`; the function ``race`` is
  :func:`rmcore.run_race`, as ``rmcore.race`` is its module): a module's ``__getattr__`` built by :func:`getattr_for`
  from :data:`RENAMED`; the old functions and records that took or returned something else live in
  ``rmcore/_deprecated_api.py``, which only this table names.
- **Parameters, attributes and metric names** renamed in a living class or function (``CFRSolver(variant=...)``,
  ``PlayerValues.row``, ``History.metrics["br_gain_row"]``) warn where they are read, each marked "Deprecated".

Two old names cannot warn: ``rmcore.race`` and ``rmcore.sweep`` are the modules, so calling them as the functions of
one release ago raises ``TypeError: 'module' object is not callable``. And ``rmcore.liars_dice`` and
``rmcore.goofspiel`` are old names of both a function and a module path: the name reads as the function (warning)
until the old path is imported (``import rmcore.liars_dice``), which makes it that module, as importing any submodule
does.

Nothing else in the library, its pages, docs or tests uses these names; ``tests/test_deprecated.py`` uses each once,
and fails once ``rmcore.__version__`` reaches :data:`REMOVED_IN`: that release deletes this module,
``rmcore/_deprecated_api.py``, the files of :data:`MOVED_MODULES` and every ``__getattr__`` built here.
"""

from __future__ import annotations

import importlib
import warnings
from typing import NamedTuple

__all__ = [
    "BestResponseGains",
    "StrategyProfile",
    "ZeroSumSolution",
    "TreeSolution",
    "DeprecatedName",
    "MOVED_MODULES",
    "RENAMED",
    "REMOVED_IN",
    "getattr_for",
    "moved_module",
    "warn",
]


class DeprecatedName(DeprecationWarning):
    """A name of one release ago was used (a ``DeprecationWarning``; the test suite turns it into an error, so that the
    project itself uses the new names only)."""


# The records of one release ago (their functions are in rmcore/_deprecated_api.py).


class BestResponseGains(NamedTuple):
    """What each player gains by switching to a best response (now :class:`~rmcore.PlayerValues`)."""

    row: float
    col: float


class StrategyProfile(NamedTuple):
    """One mixed strategy per player (now a :class:`~rmcore.Policy` over ``row`` and ``col``)."""

    row: object  # an array
    col: object


class ZeroSumSolution(NamedTuple):
    """The value of a zero-sum game (to the row player) and one equilibrium (now :class:`~rmcore.ExactSolution`)."""

    value: float
    row_strategy: tuple[float, ...]
    col_strategy: tuple[float, ...]


class TreeSolution(NamedTuple):
    """A game tree's value, an equilibrium and its NashConv (now :class:`~rmcore.ExactSolution`)."""

    value: float
    policy: object  # an rmcore.Policy
    nash_conv: float


#: The release of rmcore that removes every deprecated name, module path, parameter and metric name.
REMOVED_IN = "0.4.0"

#: Each earlier module path and where the module lives now (the old path is a file that forwards, ``rmcore/cfr.py``).
MOVED_MODULES = {
    "rmcore.games": "rmcore.matrix.games",
    "rmcore.tree": "rmcore.trees.game",
    "rmcore.tree_builder": "rmcore.trees.builder",
    "rmcore.catalogue": "rmcore.trees.catalogue",
    "rmcore.poker": "rmcore.trees.poker",
    "rmcore.kuhn": "rmcore.trees.kuhn",
    "rmcore.liars_dice": "rmcore.trees.liars_dice",
    "rmcore.goofspiel": "rmcore.trees.goofspiel",
    "rmcore.cfr": "rmcore.trees.cfr",
    "rmcore.exploit": "rmcore.trees.exploit",
    "rmcore.play": "rmcore.trees.play",
    "rmcore.sequence_form": "rmcore.exact.sequence_form",
}


def warn(message: str, stacklevel: int = 3) -> None:
    """A ``DeprecationWarning`` pointing at the caller's caller (the code that used the old name), saying which release
    removes the name."""
    warnings.warn(f"{message} (removed in rmcore {REMOVED_IN})", DeprecatedName, stacklevel=stacklevel)


#: The renamed names, by the module that had them: ``old -> ("module:new object", how to say it)``.
RENAMED: dict[str, dict[str, tuple[str, str]]] = {}


def _renamed(modules: tuple[str, ...], old: str, target: str, message: str) -> None:
    for module in modules:
        RENAMED.setdefault(module, {})[old] = (target, message)


def _resolve(target: str):
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def getattr_for(module: str, forward: str | None = None):
    """A module ``__getattr__`` (PEP 562) for the names :data:`RENAMED` lists under ``module``: each use warns and
    returns the new object. With ``forward``, any other name is looked up in that module (which holds what this
    module held before a move), also with a warning."""
    renamed = RENAMED.get(module, {})

    def __getattr__(name: str):
        if name in renamed:
            target, message = renamed[name]
            warn(f"{module}.{name} is deprecated: {message}")
            return _resolve(target)
        if f"{module}.{name}" in MOVED_MODULES:
            # (an old module path read as an attribute of its package: its file warns at each name read through it)
            return importlib.import_module(f"{module}.{name}")
        if forward is not None and not name.startswith("__"):
            source = importlib.import_module(forward)
            if hasattr(source, name):
                warn(f"{module}.{name} is now {forward}.{name}")
                return getattr(source, name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


def moved_module(old: str):
    """The module ``__getattr__`` of the old module path ``old`` (a key of :data:`MOVED_MODULES`): every name read
    through it (``from rmcore.cfr import CFRSolver``, ``rmcore.cfr.CFRSolver``) warns and is the new module's object,
    ``__all__`` included, so that ``from rmcore.cfr import *`` takes what the new module exports."""
    new = MOVED_MODULES[old]

    def __getattr__(name: str):
        if name.startswith("__") and name != "__all__":
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        source = importlib.import_module(new)
        try:
            value = getattr(source, name)
        except AttributeError:
            raise AttributeError(f"module {old!r} (now {new!r}) has no attribute {name!r}") from None
        warn(f"{old}.{name}: module {old} is now {new}")
        return value

    return __getattr__


_API = "rmcore._deprecated_api"
_renamed(("rmcore",), "tree_nash_conv", f"{_API}:tree_nash_conv", "use rmcore.nash_conv(game, policy)")
_renamed(("rmcore.trees.cfr",), "tree_nash_conv", f"{_API}:tree_nash_conv", "use rmcore.nash_conv(game, policy)")
_renamed(
    ("rmcore", "rmcore.trees.kuhn"),
    "kuhn_nash_conv",
    f"{_API}:kuhn_nash_conv",
    "use rmcore.nash_conv(rmcore.KUHN, policy)",
)
_renamed(
    ("rmcore", "rmcore.metrics"),
    "best_response_gains",
    f"{_API}:best_response_gains",
    "use rmcore.best_response(game, policy, player).gain, or metrics().br_gains",
)
_renamed(
    ("rmcore", "rmcore.metrics"), "BestResponseGains", "rmcore._deprecated:BestResponseGains", "use rmcore.PlayerValues"
)
_renamed(("rmcore", "rmcore.exact"), "solve_zero_sum", f"{_API}:solve_zero_sum", "use rmcore.solve_exactly(game)")
_renamed(
    ("rmcore", "rmcore.exact"), "ZeroSumSolution", "rmcore._deprecated:ZeroSumSolution", "use rmcore.ExactSolution"
)
_renamed(
    ("rmcore", "rmcore.exact.sequence_form"),
    "solve_tree_game",
    f"{_API}:solve_tree_game",
    "use rmcore.solve_exactly(game)",
)
_renamed(
    ("rmcore", "rmcore.exact.sequence_form"),
    "TreeSolution",
    "rmcore._deprecated:TreeSolution",
    "use rmcore.ExactSolution",
)
_renamed(("rmcore", "rmcore.trees.kuhn"), "KuhnCFR", f"{_API}:KuhnCFR", "use rmcore.CFRSolver(rmcore.KUHN, algorithm)")
_renamed(
    ("rmcore", "rmcore.matrix", "rmcore.matrix.solver"),
    "MatrixMetrics",
    "rmcore.records:Metrics",
    "use rmcore.Metrics (one record for both families)",
)
_renamed(
    ("rmcore", "rmcore.trees.cfr"),
    "CFRMetrics",
    "rmcore.records:Metrics",
    "use rmcore.Metrics (one record for both families)",
)
_renamed(
    ("rmcore", "rmcore.matrix", "rmcore.matrix.solver"),
    "StrategyProfile",
    "rmcore._deprecated:StrategyProfile",
    "use the solver's average_policy() and current_policy() (an rmcore.Policy)",
)
_renamed(
    ("rmcore", "rmcore.trees.cfr"),
    "CFR_VARIANTS",
    "rmcore.trees.cfr:CFR_ALGORITHMS",
    "use rmcore.CFR_ALGORITHMS (the word both families use)",
)
_renamed(
    ("rmcore.matrix", "rmcore.matrix.solver"),
    "metrics_at",
    f"{_API}:matrix_metrics_at",
    "use solver.metrics_at(history, row)",
)
_renamed(("rmcore.trees.cfr",), "metrics_at", f"{_API}:tree_metrics_at", "use solver.metrics_at(history, row)")
# Functions that had their module's name (a submodule's attribute on its package hid one or the other)
_renamed(("rmcore.race",), "race", "rmcore.race:run_race", "use rmcore.run_race (rmcore.race is its module)")
_renamed(("rmcore.sweep",), "sweep", "rmcore.sweep:run_sweep", "use rmcore.run_sweep (rmcore.sweep is its module)")
_renamed(
    ("rmcore", "rmcore.trees.liars_dice"),
    "liars_dice",
    "rmcore.trees.liars_dice:liars_dice_game",
    "use rmcore.liars_dice_game (rmcore.trees.liars_dice is its module)",
)
_renamed(
    ("rmcore", "rmcore.trees.goofspiel"),
    "goofspiel",
    "rmcore.trees.goofspiel:goofspiel_game",
    "use rmcore.goofspiel_game (rmcore.trees.goofspiel is its module)",
)
