"""Names of one release ago, kept working for one more: each use warns (``DeprecationWarning``) and names the new one.

Two kinds:

- **Modules** moved into the family packages (``rmcore.cfr`` is :mod:`rmcore.trees.cfr`): a finder on
  ``sys.meta_path`` answers for :data:`MOVED_MODULES`' names with the module itself, the same object (so that its
  state, and any patch of it, are shared). Python's import machinery reads ``sys.modules`` back after a loader runs,
  which is what lets a loader hand over a module that already exists without touching its ``__spec__``.
- **Names** renamed or merged into one (``tree_nash_conv`` is :func:`rmcore.nash_conv`): a module's ``__getattr__``
  (PEP 562) built by :func:`getattr_for` from :data:`RENAMED`; the old functions and records that took or returned
  something else live in ``rmcore/_deprecated_api.py``, which only this table names.
- **Parameters, attributes and metric names** renamed in a living class or function (``CFRSolver(variant=...)``,
  ``PlayerValues.row``, ``History.metrics["br_gain_row"]``) warn where they are read, each marked "Deprecated".

Nothing else in the library, its pages, docs or tests uses these names; ``tests/test_deprecated.py`` uses each once.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
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
    "install_moved_modules",
    "getattr_for",
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


#: Each earlier module name and where the module lives now.
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
    """A ``DeprecationWarning`` pointing at the caller's caller (the code that used the old name)."""
    warnings.warn(message, DeprecatedName, stacklevel=stacklevel)


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a module of ``moved`` (earlier name -> new name) and loads it as the module at its new name."""

    def __init__(self, moved: dict[str, str], owner: str):
        self.moved, self.owner = moved, owner

    def find_spec(self, fullname, path=None, target=None):
        return importlib.util.spec_from_loader(fullname, self) if fullname in self.moved else None

    def create_module(self, spec):
        return None  # a placeholder: exec_module puts the module itself in its place

    def exec_module(self, module):
        name = module.__name__
        new = self.moved[name]
        # (stacklevel: past this loader and the import machinery's frames, to the importing line where it can)
        warnings.warn(f"module {name} is now {new}; the old name goes in the next release", DeprecatedName, 4)
        sys.modules[name] = importlib.import_module(new)


def install_moved_modules(moved: dict[str, str], owner: str) -> None:
    """Put a finder for ``moved`` on ``sys.meta_path``, once per ``owner`` (the package whose modules moved), and keep
    the package's functions that share a moved module's name (``rmcore.liars_dice``, ``rmcore.goofspiel``): importing
    a submodule sets it as an attribute of its package, which would put the module where the function was."""
    if not any(getattr(finder, "owner", None) == owner for finder in sys.meta_path):
        sys.meta_path.insert(0, _MovedModules(moved, owner))
    if owner == "rmcore":
        sys.modules[owner].__class__ = _KeepsItsFunctions


class _KeepsItsFunctions(types.ModuleType):
    """A package whose functions stay where a moved module of the same name is imported by its old name."""

    def __setattr__(self, name, value):
        if (
            isinstance(value, types.ModuleType)
            and f"{self.__name__}.{name}" in MOVED_MODULES
            and callable(self.__dict__.get(name))
            and not isinstance(self.__dict__.get(name), types.ModuleType)
        ):
            return  # (as before the move: ``import rmcore.liars_dice`` left ``rmcore.liars_dice`` the function)
        super().__setattr__(name, value)


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
        moved = MOVED_MODULES.get(f"{module}.{name}")
        if moved is not None:  # (a moved submodule read as an attribute of its package, never imported by that name)
            warn(f"module {module}.{name} is now {moved}; the old name goes in the next release")
            return importlib.import_module(moved)
        if forward is not None and not name.startswith("__"):
            source = importlib.import_module(forward)
            if hasattr(source, name):
                warn(f"{module}.{name} is now {forward}.{name}; the old place goes in the next release")
                return getattr(source, name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

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
