"""Compile a kernel family into numba's disk cache in a process of its own: ``python -m rmcore._compile
matrix|tree|all``.

:func:`rmcore._runtime.prepare` runs this in the background of a server (``rmcore.compile_in_background``), so that a
compile (several seconds of numba's type inference, in Python, holding that process's GIL) never slows the server's
sessions: the server then loads the finished family from the cache in a fraction of a second. CI runs it before the
tests (``.ci/run``).
"""

from __future__ import annotations

import os
import sys
import threading
import time


def compile_family(name: str) -> None:
    """Run every kernel of family ``name`` once on a small game, which compiles it into numba's disk cache."""
    from . import _runtime, matrix  # noqa: F401 - (the solver modules register their families' warm-ups)
    from .trees import cfr  # noqa: F401

    _runtime._families[name].warm_up()


#: Niceness of a compile: a page that waits for it is served meanwhile (as plain Python, or it waits and says so), so
#: the server's sessions (and, on a lecturer's laptop, the browser) come first whenever they want the core it runs on.
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
    from .kernels import FAMILIES

    what = argv[0] if argv else ""
    if what not in (*FAMILIES, "all"):
        print(f"usage: python -m rmcore._compile {'|'.join(FAMILIES)}|all", file=sys.stderr)
        return 2
    _end_with_the_parent()
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    for name in FAMILIES if what == "all" else (what,):
        compile_family(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
