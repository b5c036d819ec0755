"""Which code answers a kernel call: the compiled family, or, while it compiles in a process of its own, the same file
run as plain Python. Nothing ever compiles in a process that serves pages.

The kernels come in two families (``rmcore/kernels/matrix.py`` and ``tree.py``), each compiled as a whole: on an empty
numba cache a family takes several seconds, numba's type inference holding the GIL all along; afterwards it loads
from numba's disk cache in a fraction of a second. By default (a library call, a script) a call simply compiles or
loads what it needs. With :func:`compile_in_background` on (the dashboard turns it on):

- each family compiles in a process of its own (``python -m rmcore._compile FAMILY``, at ``nice 10``), then this
  process loads it from the cache, in a background thread; :func:`prepare_kernels` starts both at once;
- meanwhile a call small enough (``work``, see :func:`call`) runs on the family's plain-Python twin, which computes the
  same numbers to the last bit (``rmcore.kernels.python_twin``); a larger one raises :class:`KernelsCompiling`, which
  the live page answers by waiting and saying what compiles and for how long (:func:`compiling`).

A family that cannot be prepared (its compile process fails, numba's cache cannot say whether it holds the family, or
loading it fails) is *failed*: small calls go on as plain Python, a larger one raises :class:`KernelsUnavailable`, and
:func:`kernels_failed` says why, in words a page shows. Whether the cache holds a family is read from numba's private
cache classes (:func:`on_disk`), which is why ``requirements.txt`` pins the numba releases this is tested with
(:data:`rmcore.kernels.NUMBA_TESTED`).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from . import config
from .kernels import FAMILIES, NUMBA_TESTED, python_twin

__all__ = [
    "KernelsCompiling",
    "KernelsUnavailable",
    "compile_in_background",
    "compiles_in_background",
    "compiling",
    "kernels_failed",
    "prepare_kernels",
    "family_status",
    "twin_budget",
    "call",
    "register_warm_up",
]

_log = logging.getLogger(__name__)


class KernelsCompiling(RuntimeError):
    """A call too large for plain Python while its family compiles in the background: try again once it is ready."""

    def __init__(self, family: str):
        super().__init__(f"the {family} kernels are compiling in a process of their own; this call waits for them")
        self.family = family


class KernelsUnavailable(RuntimeError):
    """A call too large for plain Python, in a process whose ``family`` of kernels could not be compiled or loaded
    (``reason`` says why): it cannot run in this process; small calls go on as plain Python."""

    def __init__(self, family: str, reason: str):
        super().__init__(
            f"the {family} kernels could not be prepared ({reason}), so only small runs go on, as plain Python"
        )
        self.family = family
        self.reason = reason


class CacheUnreadable(Exception):
    """numba's disk cache cannot say whether it holds a kernel: its private classes are not the ones :func:`on_disk`
    reads (a numba release outside :data:`rmcore.kernels.NUMBA_TESTED`)."""


class _Family:
    """One family's state in this process: ``"cold"`` (nothing asked yet), ``"compiling"`` (its compile process
    runs), ``"loading"`` (this process loads it from numba's cache), ``"ready"`` or ``"failed"``."""

    def __init__(self, name: str):
        self.name = name
        self.state = "cold"
        self.since = 0.0  # time.monotonic() when its preparation began
        self.warm_up: Callable[[], None] | None = None  # calls every entry of the family once (compiles or loads it)
        self.on_disk: Callable[[], bool] | None = None  # whether numba's cache holds every entry for those calls
        self.loader: threading.Thread | None = None  # the thread loading it (its calls run compiled code, see call)
        self.problem: str | None = None  # why its preparation failed, in words a page shows


_families = {name: _Family(name) for name in FAMILIES}
_lock = threading.Lock()
_background = False


def register_warm_up(family: str, warm_up: Callable[[], None], on_disk: Callable[[], bool]) -> None:
    """Name the function that runs every kernel of ``family`` once on a small game (so compiling or loading it), and
    the one that says whether numba's disk cache already holds them all (the solver modules register theirs)."""
    _families[family].warm_up = warm_up
    _families[family].on_disk = on_disk


def compile_in_background(enabled: bool = True) -> None:
    """Never let a call compile a kernel in this process (the dashboard's server turns this on).

    A family not yet loaded is then compiled in a process of its own and loaded in a background thread; meanwhile
    small calls run as plain Python, with the same results, and larger ones raise :class:`KernelsCompiling`. Off by
    default: a library call compiles or loads what it needs before it returns.
    """
    global _background
    _background = bool(enabled)


def compiles_in_background() -> bool:
    """Whether :func:`compile_in_background` is on."""
    return _background


def compiling() -> dict[str, float]:
    """The families being prepared now, with the seconds since their preparation began: ``{"tree": 4.2}``."""
    now = time.monotonic()
    with _lock:
        return {f.name: now - f.since for f in _families.values() if f.state in ("compiling", "loading")}


def kernels_failed() -> dict[str, str]:
    """The families whose preparation failed in this process, with why: ``{"tree": "its compile process ended with
    status 1: ..."}``. Their small calls go on as plain Python; larger ones raise :class:`KernelsUnavailable`."""
    with _lock:
        return {f.name: f.problem or "no reason given" for f in _families.values() if f.state == "failed"}


def family_status(family: str) -> str:
    """``"ready"`` (compiled code runs the next call), ``"compiling"`` (being prepared in the background: small calls
    run as plain Python meanwhile, larger ones wait) or ``"failed"`` (its preparation failed, :func:`kernels_failed`
    says why: small calls go on as plain Python, larger ones raise :class:`KernelsUnavailable`); ``"load"`` outside
    background mode while nothing ran yet (the next call loads or compiles it).

    Whether a given solver's calls run meanwhile is the solver's to say (``MatrixSolver.kernel_status``): it depends
    on the size of its calls."""
    state = _families[family].state
    if state == "ready":
        return "ready"
    if not _background:
        return "load"
    return "compiling" if state in ("compiling", "loading", "cold") else "failed"


def prepare_kernels(families=FAMILIES) -> None:
    """Make ``families`` ready in the background (once each): compiled in a process of its own unless numba's cache
    holds them, then loaded here. Without :func:`compile_in_background` it loads or compiles them in this thread."""
    for name in families:
        family = _families[name]
        if not _background:
            if family.state != "ready" and family.warm_up is not None:
                family.warm_up()
                family.state = "ready"
            continue
        with _lock:
            if family.state != "cold":
                continue
            family.state, family.since = "compiling", time.monotonic()
        threading.Thread(target=_prepare, args=(family,), name=f"prepare {name} kernels", daemon=True).start()


#: Seconds a server whose compile was stopped by a signal is given to stop too, before the log says so.
_STOPPING = 3.0


class _CompileStopped(Exception):
    """The compile process was stopped by a signal (its server stopping, Ctrl-C in its terminal, a kill)."""


class _PreparationFailed(Exception):
    """A family's preparation failed; the message says why, in words a page shows."""


def _prepare(family: _Family) -> None:
    try:
        try:
            if not family.on_disk():
                _compile_elsewhere(family.name)
            if not family.on_disk():  # (it wrote signatures this process does not call)
                raise _PreparationFailed("numba's cache lacks them after their compile process ran")
        except CacheUnreadable as unreadable:
            raise _PreparationFailed(str(unreadable)) from unreadable
        with _lock:
            family.state, family.loader = "loading", threading.current_thread()
        try:
            family.warm_up()  # (loads from the cache: on_disk said every entry is there, so nothing compiles here)
        except Exception as error:
            raise _PreparationFailed(
                f"loading them from numba's cache failed: {type(error).__name__}: {error}"
            ) from error
    except _CompileStopped as stopped:
        with _lock:
            family.state, family.problem = "failed", f"their compile process was stopped ({stopped})"
        # A server that stops (SIGTERM or Ctrl-C to its process group) takes its compiles with it, and its main thread
        # ends within moments: nothing to say. A compile stopped by something else leaves this server on plain Python
        # for small calls, and the log says so in one line.
        threading.main_thread().join(timeout=_STOPPING)
        if threading.main_thread().is_alive():
            _log.warning(
                "the %s kernels' compile was stopped (%s); small calls go on as plain Python", family.name, stopped
            )
        return
    except Exception as error:  # a failed preparation leaves small calls on plain Python and says so in the log
        _log.exception("preparing the %s kernels failed; small calls go on as plain Python", family.name)
        problem = str(error) if isinstance(error, _PreparationFailed) else f"{type(error).__name__}: {error}"
        with _lock:  # (and its thread no longer loads it: its calls go to plain Python too)
            family.state, family.problem, family.loader = "failed", problem, None
        return
    with _lock:
        family.state, family.loader = "ready", None


def _compile_elsewhere(family: str) -> None:
    """Compile ``family`` into numba's disk cache in a process of its own (``rmcore/_compile.py``): numba's type
    inference is Python that holds the GIL for seconds, which in this process would stall every other session."""
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    env["RMCORE_COMPILE_PARENT"] = str(os.getpid())  # (rmcore._compile.PARENT_VARIABLE: it ends with this process)
    done = subprocess.run(
        [sys.executable, "-m", _COMPILE_MODULE, family],
        env=env,
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        timeout=600,
    )
    if done.returncode < 0:  # (ended by a signal: rmcore._compile leaves SIGTERM and SIGINT to their default action)
        raise _CompileStopped(f"signal {-done.returncode}")
    if done.returncode:
        last = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise _PreparationFailed(f"their compile process ended with status {done.returncode}: {last[0]}")


#: The module a compile process runs (``python -m rmcore._compile FAMILY``).
_COMPILE_MODULE = "rmcore._compile"


#: Largest call each family runs as plain Python while it compiles, in its own unit of work (``call``'s ``work``).
_TWIN_WORK = {"matrix": config.PYTHON_TWIN_WORK, "tree": config.PYTHON_TWIN_CFR_WORK}


def twin_budget(family: str) -> int | None:
    """The most work a call of ``family`` may do now without waiting: ``None`` (any: compiled code runs it, or outside
    :func:`compile_in_background` it compiles what it needs), else what runs as plain Python meanwhile."""
    if _families[family].state == "ready" or not _background:
        return None
    return _TWIN_WORK[family]


def call(family: str, kernel, *arguments, work: int = 0, twin: bool = True):
    """``kernel(*arguments)``, a kernel of ``family`` (``call("tree", kernels.tree.run_cfr, ...)``).

    Compiled whenever that family is ready, and always outside :func:`compile_in_background`. In background mode,
    while the family is not ready: as plain Python if ``twin`` (the twin computes this call's numbers to the last bit)
    and ``work`` (the call's size: iterations times the cells of a matrix game, or times a tree's nodes) is within
    ``config.PYTHON_TWIN_WORK`` (matrix games) or ``config.PYTHON_TWIN_CFR_WORK`` (trees); else
    :class:`KernelsCompiling`, or :class:`KernelsUnavailable` once the family's preparation failed.
    """
    target = _families[family]
    # (The thread loading the family runs compiled code: its warm-up calls are what load the kernels into this process;
    # run as plain Python, they would leave the loading to a session's first large call.)
    if target.state == "ready" or not _background or target.loader is threading.current_thread():
        return kernel(*arguments)
    prepare_kernels((family,))
    if target.state == "ready":
        return kernel(*arguments)
    if not twin or work > _TWIN_WORK[family]:
        if target.state == "failed":
            raise KernelsUnavailable(family, target.problem or "no reason given")
        raise KernelsCompiling(family)
    with np.errstate(over="ignore"):  # (the random numbers' uint64 arithmetic wraps around by design)
        return getattr(python_twin(family), _name(kernel))(*arguments)


def _name(kernel) -> str:
    """A kernel's name in its file (and so in its plain-Python twin)."""
    return getattr(kernel, "py_func", kernel).__name__


def on_disk(kernel, arguments) -> bool:
    """Whether ``kernel(*arguments)`` would load from numba's disk cache (or has loaded) rather than compile.

    numba has no public way to ask this; this computes the cache's own index key as ``Dispatcher.compile`` does. Should
    those internals change (a numba release outside :data:`rmcore.kernels.NUMBA_TESTED`), it raises
    :class:`CacheUnreadable`: a server then says that it cannot prepare the family rather than guess, and compiles
    nothing itself.
    """
    try:
        signature = tuple(kernel.typeof_pyval(a) for a in arguments)
        if signature in kernel.overloads:
            return True
        cache = kernel._cache
        return cache._index_key(signature, kernel.targetctx.codegen()) in cache._cache_file._load_index()
    except Exception as error:  # noqa: BLE001 - any failure here is numba's internals not being the ones read here
        raise CacheUnreadable(
            f"numba {numba.__version__}'s cache cannot say whether it holds them ({type(error).__name__}: {error}); "
            f"rmcore is tested with numba {NUMBA_TESTED}"
        ) from error
