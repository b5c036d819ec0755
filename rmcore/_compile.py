"""Compile kernels into numba's disk cache in a process of its own: ``python -m rmcore._compile general|cfr|FLAGS``,
or every matrix kernel: ``python -m rmcore._compile every [K/N]`` (share K of N, to split the work between processes).

:func:`rmcore.compile_in_background` (``_runtime.py``) runs this so that a compile (several seconds of numba's type
inference, in Python, holding that process's GIL) never slows a server's other sessions: the server then loads the
finished kernel from the cache in a fraction of a second. ``FLAGS`` are a :class:`~rmcore._kernels.MatrixFlags`'
eight values as integers, e.g. ``1,0,0,1,1,0,1,0``.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np


def compile_matrix(flags, general: bool) -> None:
    from . import MatrixSolver, _kernels, preset

    variant = _kernels.MatrixFlags(*flags)
    solver = MatrixSolver(preset("rps"), opponent=[0.5, 0.25, 0.25] if variant.fixed_opponent else None)
    kernel = _kernels.run_matrix_general if general else _kernels.make_matrix_kernel(variant)
    m, n = solver.game.shape
    kernel(
        *solver._payoffs,  # (the solver's own writable copies: a game's read-only arrays are another type to numba)
        variant,
        solver._state,
        1,
        0,
        np.zeros(0, dtype=np.int64),
        _kernels.empty_matrix_record(0, m, n),
    )


def every_matrix_variant() -> list:
    """The flags of every matrix kernel a page can ask for, one variant per kernel: each rule and update order, in
    self-play on a zero-sum and on a general-sum game, and against a fixed opponent (its kernel ignores the update
    order; every kernel reads the sampling and the averaging at run time)."""
    from . import MatrixSolver, matrix, preset

    games = (preset("rps"), preset("random-general-sum", rows=3, cols=3, seed=1))
    variants = []
    for algorithm in matrix.ALGORITHMS:
        eta = 0.1 if algorithm in matrix.STEP_ALGORITHMS else None
        opponents = [(game, None, updates) for game in games for updates in ("simultaneous", "alternating")]
        for game, opponent, updates in [*opponents, (games[0], [0.5, 0.25, 0.25], "simultaneous")]:
            solver = MatrixSolver(game, algorithm, updates=updates, opponent=opponent, eta=eta)
            variants.append(tuple(solver._flags))
    return variants


def compile_every(share: int, shares: int) -> None:
    """Compile share ``share`` (1-based) of ``shares`` of :func:`every_matrix_variant`'s kernels."""
    for variant in every_matrix_variant()[share - 1 :: shares]:
        compile_matrix(variant, general=False)


#: Niceness of a compile: a page that waits for it is served meanwhile (plain Python or the general kernel), so the
#: server's sessions (and, on a lecturer's laptop, the browser) come first whenever they want the core it runs on.
NICENESS = 10


def _end_with_the_parent() -> None:
    """Stop this compile when the process that asked for it ends (a server stopped mid-compile).

    Linux's ``PR_SET_PDEATHSIG`` has the kernel send SIGTERM the moment the parent dies; elsewhere, and should that call
    be refused, a watcher thread notices the parent is gone (the process is handed to another parent) within a second.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the call above took effect
        os._exit(1)

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent watcher", daemon=True).start()


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    _end_with_the_parent()
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    if what == "cfr":
        from .cfr import warm_up

        warm_up()
    elif what == "general":
        compile_matrix((0, False, False, False, 0, False, True, False), general=True)
    elif what == "every":
        share, shares = (int(v) for v in (argv[1] if len(argv) > 1 else "1/1").split("/"))
        if not 1 <= share <= shares:
            print("usage: python -m rmcore._compile every [K/N] with 1 <= K <= N", file=sys.stderr)
            return 2
        compile_every(share, shares)
    else:
        values = [int(v) for v in what.split(",")]
        if len(values) != 8:
            print("usage: python -m rmcore._compile general|cfr|every [K/N]|a,o,s,u,p,f,z,t", file=sys.stderr)
            return 2
        algorithm, optimistic, sampled, alternating, power, fixed, zero_sum, track = values
        compile_matrix(
            (
                algorithm,
                bool(optimistic),
                bool(sampled),
                bool(alternating),
                power,
                bool(fixed),
                bool(zero_sum),
                bool(track),
            ),
            general=False,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
