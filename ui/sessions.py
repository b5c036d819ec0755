"""What the server holds for closed tabs: a closed session is kept for its reconnect window
(``server.disconnectedSessionTTL``, two minutes by default), then let go, its runs and histories with it.

Streamlit keeps a disconnected session in a time-to-live cache that drops expired entries only when the cache is next
written or counted: on a server no new tab reaches, a class's closed sessions (their solvers, histories and figures)
stay in memory however long ago their window ended (measured: 20 closed Leduc races held over a gigabyte). No public
API reaps them, so :func:`reap` asks that cache to drop its expired entries; a thread does it every few seconds. The
memory freed goes back to the operating system: CPython's allocator and glibc's keep freed blocks for reuse, and
``malloc_trim`` hands the free pages back.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import logging
import threading
import time

_LOG = logging.getLogger(__name__)

#: Seconds between two looks for closed sessions whose reconnect window has ended.
REAP_EVERY = 5.0


def _expired_store():
    """Streamlit's store of disconnected sessions (``MemorySessionStorage``'s cache), or None where this Streamlit
    keeps them otherwise."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    manager = getattr(Runtime.instance(), "_session_mgr", None)
    storage = getattr(manager, "_session_storage", None)
    cache = getattr(storage, "_cache", None)
    return cache if callable(getattr(cache, "expire", None)) else None


def _trim_heap() -> None:
    """Hand the heap's free pages back to the operating system (glibc's ``malloc_trim``; nothing elsewhere)."""
    name = ctypes.util.find_library("c")
    if not name:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).malloc_trim(0)


def reap() -> int:
    """Let go of the closed sessions whose reconnect window has ended; returns how many."""
    store = _expired_store()
    if store is None:
        return 0
    removed = store.expire()
    count = len(removed) if removed else 0
    del removed  # (the sessions' last references)
    if count:
        gc.collect()  # (a session is a cycle of objects: freed by the collector, not by reference counts)
        _trim_heap()
    return count


def _reap_forever(every: float) -> None:
    while True:
        time.sleep(every)
        try:
            reap()
        except Exception:  # noqa: BLE001 - a Streamlit whose internals moved: say so once, stop looking
            _LOG.exception("closed sessions can no longer be reaped here; Streamlit lets them go on its own")
            return


_started = threading.Lock()
_thread: threading.Thread | None = None


def start_reaping(every: float = REAP_EVERY) -> None:
    """Start the thread that lets go of closed sessions (once per server process)."""
    global _thread
    with _started:
        if _thread is None:
            _thread = threading.Thread(target=_reap_forever, args=(every,), name="reap closed sessions", daemon=True)
            _thread.start()
