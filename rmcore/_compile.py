"""Compile a kernel family into numba's disk cache in a process of its own: ``python -m rmcore._compile
matrix|tree|all``.

:func:`rmcore._runtime.prepare` runs this in the background of a server (``rmcore.compile_in_background``), so that a
compile (several seconds of numba's type inference, in Python, holding that process's GIL) never slows the server's
sessions: the server then loads the finished family from the cache in a fraction of a second. ``all`` is the set-up
step of the README's first command and of CI (``.ci/run``): both families at once, each in a process of its own (one
core each), a line for each as it is ready, and nothing for a family the cache already holds.

A compile stopped by a signal (its server stopped, Ctrl-C) ends quietly: numba writes each cache file whole, so what
is there stays valid, and the next compile goes on from it.
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


#: The environment variable in which the process that starts a compile names itself (its pid).
PARENT_VARIABLE = "RMCORE_COMPILE_PARENT"

#: Niceness of a compile: a page that waits for it is served meanwhile (as plain Python, or it waits and says so), so
#: the server's sessions (and, on a lecturer's laptop, the browser) come first whenever they want the core it runs on.
NICENESS = 10


def _end_with_the_parent() -> None:
    """Stop this compile when the process that asked for it ends (a server stopped mid-compile).

    Linux's ``PR_SET_PDEATHSIG`` has the kernel send SIGTERM the moment the parent dies; elsewhere, and should that call
    be refused, a watcher thread notices the parent is gone (the process is handed to another parent) within a second.
    The parent names itself in ``RMCORE_COMPILE_PARENT``: this runs only once ``rmcore`` is imported (seconds on a busy
    machine), and a parent that died meanwhile would otherwise go unnoticed, its compile running on for a minute.
    """
    named = os.environ.get(PARENT_VARIABLE, "")
    parent = int(named) if named.isdigit() else os.getppid()
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


def _quiet_on_stop() -> None:
    """A stop mid-compile (SIGTERM from a server that stops, Ctrl-C's SIGINT in a terminal) ends this process at once,
    as the signal's default action: a Python handler would wait for numba's compiler to return to Python (seconds),
    and Ctrl-C's ``KeyboardInterrupt`` would print the compiler's traceback."""
    import signal

    for name in ("SIGTERM", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def _on_disk(name: str) -> bool:
    from . import _runtime, matrix  # noqa: F401 - (the solver modules register their families' checks)
    from .trees import cfr  # noqa: F401

    check = _runtime._families[name].on_disk
    try:
        return check is not None and check()
    except _runtime.CacheUnreadable:  # (then compile: here, in a process of its own, a compile stalls no server)
        return False


def compile_all(families, out=sys.stdout) -> int:
    """Compile ``families`` at once, each in a process of its own (``python -m rmcore._compile NAME``), skipping those
    numba's cache already holds; a line to ``out`` as each is ready. Returns 0, or the first failed compile's status."""
    import subprocess

    started, children = time.monotonic(), {}
    for name in families:
        if _on_disk(name):
            print(f"the {name} kernels are compiled already (numba's cache)", file=out, flush=True)
            continue
        print(f"compiling the {name} kernels (once per install) ...", file=out, flush=True)
        env = dict(os.environ, **{PARENT_VARIABLE: str(os.getpid())})
        children[name] = subprocess.Popen([sys.executable, "-m", "rmcore._compile", name], env=env)
    status = 0
    for name, child in children.items():
        code = child.wait()
        if code:
            print(f"compiling the {name} kernels failed (status {code})", file=sys.stderr, flush=True)
            status = status or code
        else:
            print(f"the {name} kernels are compiled: {time.monotonic() - started:.0f} s", file=out, flush=True)
    return status


def main(argv: list[str]) -> int:
    from .kernels import FAMILIES

    what = argv[0] if argv else ""
    if what not in (*FAMILIES, "all") or len(argv) > 1:
        print(f"usage: python -m rmcore._compile {'|'.join(FAMILIES)}|all", file=sys.stderr)
        return 2
    _quiet_on_stop()
    _end_with_the_parent()
    if what == "all":  # (each family's own process is niced; this one only waits)
        return compile_all(FAMILIES)
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    compile_family(what)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
