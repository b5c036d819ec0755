"""Which kernel runs a call: background compiles, the compile subprocess, the plain-Python twin, and their status.

A kernel compiled by numba takes seconds to compile the first time (several seconds of type inference, in Python,
holding the GIL), then loads from numba's disk cache in a fraction of a second. By default a call simply compiles
what it needs. With :func:`compile_in_background` on (the dashboard turns it on) no call waits for a compile:

- a matrix variant whose own kernel is not ready runs on the general kernel (``_kernels.run_matrix_general``),
  or for a small call on :func:`python_twin` (``_kernels.py`` run as plain Python), while its own kernel compiles
  in a process of its own (``python -m rmcore._compile``, see :func:`_compile_elsewhere`);
- the CFR kernels likewise run as plain Python while they compile (:func:`call_cfr`);
- compiles wait in one queue, those a page waits for first (:class:`_CompileQueue`).

The kernels themselves live in ``_kernels.py``; this module only chooses among them and reports what runs
(:func:`matrix_kernel_status`, :func:`cfr_kernel_status`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import itertools
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

from . import _kernels, config
from ._kernels import MatrixFlags

__all__ = [
    "compile_in_background",
    "compiles_in_background",
    "matrix_kernel_status",
    "cfr_kernel_status",
    "call_cfr",
    "python_twin",
    "run_matrix",
    "record_checkpoint_now",
    "prepare_general_kernel",
    "copies",
    "compiled_matrix_kernel_ready",
    "register_cfr_warm_up",
]

# Which kernels this process has ready (compiled, or loaded from numba's disk cache), which are being prepared, and
# what each variant not ready yet ran on last ("python" or "general").
_kernel_lock = threading.Lock()
_kernel_prepared = threading.Condition(_kernel_lock)  # notified whenever a background preparation ends
_this_thread = threading.local()  # .prepares: this thread prepares kernels, so what it calls must compile, not stand in


class _CompileQueue:
    """One background compile at a time (the other core keeps serving the pages), the most wanted first: a kernel that
    a page is waiting for (running as plain Python or on the general kernel meanwhile) before one prepared ahead of
    need. A compile takes 5-13 s, so order matters: a lock lets its waiters in in any order."""

    URGENT, AHEAD = 0, 1

    def __init__(self):
        self._changed = threading.Condition()
        self._busy = False
        self._waiting: dict = {}  # key -> (urgency, arrival)
        self._arrivals = itertools.count()

    def promote(self, key) -> None:
        """A page now waits for ``key``: if it is queued, it goes ahead of everything prepared ahead of need."""
        with self._changed:
            if key in self._waiting:
                self._waiting[key] = (self.URGENT, self._waiting[key][1])
                self._changed.notify_all()

    def waiting(self) -> list:
        """The keys waiting for the slot, the next first."""
        with self._changed:
            return sorted(self._waiting, key=self._waiting.get)

    @contextlib.contextmanager
    def slot(self, key, urgency: int):
        with self._changed:
            self._waiting[key] = (urgency, next(self._arrivals))
            while self._busy or min(self._waiting, key=self._waiting.get) != key:
                self._changed.wait()
            del self._waiting[key]
            self._busy = True
        try:
            yield
        finally:
            with self._changed:
                self._busy = False
                self._changed.notify_all()


_compiles = _CompileQueue()
_ready: set = set()
_preparing: set = set()
_preparing_since: dict = {}  # key -> time.monotonic() when its preparation began
_standing_in: dict = {}
_background = False
_GENERAL = "general"
_log = logging.getLogger(__name__)


def compile_in_background(enabled: bool = True) -> None:
    """Never make a caller wait for a kernel to compile (several seconds each, on an empty numba cache).

    A variant whose own kernel is neither loaded nor in numba's disk cache then runs at once, on the general kernel
    once that is ready, else (for a call small enough, ``config.PYTHON_TWIN_WORK``) on the kernels run as plain
    Python (:func:`python_twin`), while its own kernel compiles in a process of its own; later calls use it. Iterations
    run as plain Python are provisional: the solver runs them again on the first compiled kernel ready (milliseconds)
    and keeps that, so every result is the compiled kernels' to the last bit. The general kernel itself (then the CFR
    kernels) compiles in the background when asked (:meth:`rmcore.MatrixSolver.prepare_in_background`). Off by
    default: a library call then compiles what it needs before it returns. The dashboard turns it on, so that no
    setting change freezes its page.
    """
    global _background
    _background = bool(enabled)


def compiles_in_background() -> bool:
    """Whether :func:`compile_in_background` is on: a kernel not compiled yet may then run as plain Python (slowly)."""
    return _background


def compiling() -> dict[str, float]:
    """The kernels being prepared in the background now, and for how many seconds: ``{"cfr": 4.2}`` while the CFR
    kernels compile (``"general"`` for the matrix page's general kernel, a variant's flags for its own kernel)."""
    now = time.monotonic()
    with _kernel_lock:
        return {
            key if isinstance(key, str) else ",".join(str(int(v)) for v in key): now - since
            for key, since in _preparing_since.items()
        }


def matrix_kernel_status(variant: MatrixFlags) -> str:
    """``"ready"``, ``"general"``, ``"python"`` or ``"load"``: see :attr:`rmcore.MatrixSolver.kernel_status`."""
    if variant in _ready:
        return "ready"
    if _background and _GENERAL in _ready:
        return "general"
    return _standing_in.get(variant, "load") if _background else "load"


def cfr_kernel_status() -> str:
    """``"ready"`` once the CFR kernels (one for every variant) are compiled or loaded in this process, ``"python"``
    while they run as plain Python (:func:`compile_in_background`), else ``"load"``."""
    if "cfr" in _ready:
        return "ready"
    if _background and "cfr" in _standing_in:
        return _standing_in["cfr"]
    return "ready" if _kernels.run_cfr.signatures else "load"


#: What makes the CFR kernels ready in this process (loads them from numba's disk cache, else compiles them):
#: ``cfr.warm_up``, registered by ``cfr.py`` (which builds on this module) with :func:`register_cfr_warm_up`.
_cfr_warm_up = None


def register_cfr_warm_up(warm_up) -> None:
    """Name the function that runs every CFR kernel once on a small game (``rmcore.cfr.warm_up``)."""
    global _cfr_warm_up
    _cfr_warm_up = warm_up


def call_cfr(kernel, *arguments, work: int = 0):
    """``kernel(*arguments)`` for a CFR kernel of ``_kernels`` (``call_cfr(_kernels.run_cfr, tree, ...)``).

    It runs compiled when it is loaded or in numba's disk cache; else, with :func:`compile_in_background` and for a
    call of at most ``config.PYTHON_TWIN_CFR_WORK`` (``work``: iterations times tree nodes), its namesake in
    :func:`python_twin` runs as plain Python while the CFR kernels compile in the background (a larger call waits for
    that compile to finish, as it would for its own). The CFR kernels use no ``fastmath``, so both give the same
    results to the last bit (``tests/test_kernel_fallback.py``)."""
    standing_in_allowed = _background and _cfr_warm_up is not None and not getattr(_this_thread, "prepares", False)
    if standing_in_allowed and "cfr" not in _ready and not _on_disk(kernel, arguments):
        _prepare("cfr", _cfr_warm_up)
        if work <= config.PYTHON_TWIN_CFR_WORK:
            _standing_in["cfr"] = "python"
            with np.errstate(over="ignore"):  # (chance sampling's uint64 generator wraps around by design)
                return getattr(python_twin(), _name(kernel))(*arguments)
        # Too large for plain Python: wait for the background compile and load what it wrote, rather than compile
        # the same kernels here beside it (twice the work, on a server whose cores serve the other sessions).
        with _kernel_prepared:
            _kernel_prepared.wait_for(lambda: "cfr" not in _preparing)
    _standing_in.pop("cfr", None)
    return kernel(*arguments)


def _name(kernel) -> str:
    """A kernel's name in ``_kernels.py`` (and so in its plain-Python twin)."""
    return getattr(kernel, "py_func", kernel).__name__


@functools.cache
def python_twin():
    """``_kernels.py`` loaded a second time with every ``@njit`` left out: the same kernels as plain Python functions.

    A 3x3 iteration takes 15-35 us this way instead of 30 ns, but it needs no compile, so a server started on an
    empty numba cache can draw its first chart while the compiled kernels are still being prepared. With
    ``fastmath`` the compiled kernels may reorder sums, so the two agree to rounding (about 1e-14), not to the last
    bit; the solvers therefore treat plain-Python iterations as provisional (:func:`compile_in_background`).
    Integer overflow in the random number generator is intended (uint64 arithmetic): call it under
    ``np.errstate(over="ignore")``.
    """
    spec = importlib.util.spec_from_file_location(_kernels.__name__ + _kernels.TWIN_SUFFIX, _kernels.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _on_disk(kernel, arguments) -> bool:
    """Whether ``kernel(*arguments)`` would load from numba's disk cache (or has loaded) rather than compile.

    numba has no public way to ask this; this computes the cache's own index key as ``Dispatcher.compile`` does, and
    answers False (a compile in the background, while plain Python stands in) should those internals ever change.
    """
    try:
        signature = tuple(kernel.typeof_pyval(a) for a in arguments)
        if signature in kernel.overloads:
            return True
        cache = kernel._cache
        return cache._index_key(signature, kernel.targetctx.codegen()) in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - any change in numba's internals means "not known to be on disk"
        return False


def _compile_elsewhere(key, urgency: int = _CompileQueue.URGENT) -> None:
    """Compile ``key``'s kernel into numba's disk cache in a process of its own (``rmcore/_compile.py``): numba's
    type inference is Python that holds the GIL for seconds, which in this process would slow every other session."""
    argument = key if isinstance(key, str) else ",".join(str(int(v)) for v in key)
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    with _compiles.slot(key, urgency):
        subprocess.run(
            [sys.executable, "-m", "rmcore._compile", argument],
            env=env,
            cwd=root,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=600,
        )


def _prepare(key, compile_it, ahead: bool = False) -> None:
    """Make ``key``'s kernel ready in a background thread (once): compiled in a process of its own, then loaded here
    from numba's cache by ``compile_it`` (which compiles here instead, should that process fail). ``ahead``: no page
    waits for it yet, so a kernel a page waits for compiles first (a later call without ``ahead`` promotes it)."""
    with _kernel_lock:
        if key in _ready:
            return
        if key in _preparing:
            if not ahead:
                _compiles.promote(key)
            return
        _preparing.add(key)
        _preparing_since[key] = time.monotonic()
    urgency = _CompileQueue.AHEAD if ahead else _CompileQueue.URGENT

    def work():
        try:
            try:
                _compile_elsewhere(key, urgency)
            except (OSError, subprocess.SubprocessError) as error:
                _log.warning("compiling %s in a process of its own failed (%s); compiling it here", key, error)
            # (Else, should that process have failed, the CFR warm-up would run as plain Python.)
            _this_thread.prepares = True
            compile_it()
        except Exception:  # the caller keeps using what stands in
            _log.exception("compiling the kernel for %s failed", key)
        else:
            with _kernel_lock:
                _ready.add(key)
                _standing_in.pop(key, None)
            if key == _GENERAL and _cfr_warm_up is not None:  # then the CFR kernels, so that a first visit to a
                _prepare("cfr", _cfr_warm_up, ahead=True)  # sequential game does not wait either
        finally:
            with _kernel_lock:
                _preparing.discard(key)
                _preparing_since.pop(key, None)
                _kernel_prepared.notify_all()

    threading.Thread(target=work, name=f"compile {key}", daemon=True).start()


def copies(state):
    """A copy of a state record, array by array."""
    return type(state)(*[a.copy() for a in state])


def compiled_matrix_kernel_ready(variant: MatrixFlags) -> bool:
    """Whether a compiled kernel (the variant's own, or the general one) can run ``variant`` now, without a compile."""
    return variant in _ready or _GENERAL in _ready


def run_matrix(row_payoffs, col_payoffs, variant, state, first_iteration, last_iteration, checkpoints, record):
    """Run iterations ``first_iteration .. last_iteration`` (inclusive) of regret matching (the other rules, Hedge,
    fictitious play and GDA, change step 1's strategy map and add their own update in step 3: see
    ``_kernels.play`` and ``_kernels.learn``).

    One iteration t, with ``RM(R)_i = max(R_i, 0) / sum_j max(R_j, 0)`` (uniform if none positive):

    1. ``x_t = RM(R1)``, ``y_t = RM(R2)`` (predictive RM+: ``RM(R + r_{t-1})``).
    2. Utilities: expected ``u1 = A y_t``, ``u2 = x_t^T B``; sampled ``a ~ x_t``, ``b ~ y_t``,
       ``u1 = A[:, b]``, ``u2 = B[a, :]``. Values ``v1 = x_t . u1`` (sampled: ``A[a, b]``), likewise v2.
    3. ``R1 += u1 - v1``, ``R2 += u2 - v2``; RM+ and predictive RM+ clip R at 0 afterwards.
       Alternating updates: the column player's step uses ``x_{t+1} = RM(R1)`` after the row
       player's update (a fresh sample ``a ~ x_{t+1}`` when sampling), as OpenSpiel's CFR does.
    4. ``S1 += w_t x_t``, ``S2 += w_t y_t`` with ``w_t = t ** averaging_power``.

    A fixed opponent keeps ``y`` (in ``state.y``) constant, and only the row player learns.
    The variant's own kernel runs it (or, with :func:`compile_in_background` while that compiles, the general kernel,
    with the same results, or for a small call plain Python, with results equal to rounding). ``checkpoints`` lists,
    in order, the iterations after which row ``k`` of ``record`` is written (all within the range). Returns how many
    rows were written, and whether the iterations ran as plain Python (provisional: run them again once
    :func:`compiled_matrix_kernel_ready`).
    """
    arguments = (row_payoffs, col_payoffs, variant, state, first_iteration, last_iteration, checkpoints, record)
    own = _kernels.make_matrix_kernel(variant)
    if _background and variant not in _ready and not _on_disk(own, arguments):
        # Its own kernel compiles meanwhile; something that needs no compile answers now.
        _prepare(variant, lambda: own(row_payoffs, col_payoffs, variant, copies(state), 1, 0, checkpoints[:0], record))
        if _GENERAL in _ready:
            return _kernels.run_matrix_general(*arguments), False
        m, n = row_payoffs.shape
        if (last_iteration - first_iteration + 1) * (m * n + m + n) <= config.PYTHON_TWIN_WORK:
            _standing_in[variant] = "python"
            with np.errstate(over="ignore"):
                return python_twin().run_matrix_general(*arguments), True
    written = own(*arguments)  # (a call too large for plain Python waits for the fastest kernel)
    _ready.add(variant)
    return written, False


def record_checkpoint_now(row_payoffs, col_payoffs, variant, state, iteration, record, k) -> None:
    """:func:`rmcore._kernels.record_checkpoint`, for reading a solver's state: in plain Python while it would have to
    be compiled first (with :func:`compile_in_background`), since a read is recomputed every time it is asked for."""
    arguments = (row_payoffs, col_payoffs, variant, state, iteration, record, k)
    # (Asking numba whether it has the kernel types every argument: a live page reads several times a second, and the
    # arguments' types never change, so once it has run compiled that is remembered.)
    if _background and "record" not in _ready and not _on_disk(_kernels.record_checkpoint, arguments):
        with np.errstate(over="ignore"):
            python_twin().record_checkpoint(*arguments)
    else:
        _kernels.record_checkpoint(*arguments)
        _ready.add("record")


def prepare_general_kernel(row_payoffs, col_payoffs, variant, state, checkpoints, record) -> None:
    """Compile the general kernel (then the CFR kernels) in a background thread, for arguments of these types.

    Called by :meth:`rmcore.MatrixSolver.prepare_in_background` once the caller has compiled what it needs first:
    numba compiles one function at a time, so a background compile holds up any compile in the foreground.
    """
    general = _kernels.run_matrix_general
    # (Not ahead of need: every variant runs on it.)
    _prepare(_GENERAL, lambda: general(row_payoffs, col_payoffs, variant, copies(state), 1, 0, checkpoints[:0], record))
