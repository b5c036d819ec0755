"""What the server holds for closed tabs: a closed session is kept for its reconnect window
(``server.disconnectedSessionTTL``, two minutes by default), then shut down, its runs and histories with it.

Streamlit keeps a disconnected session in a time-to-live cache that drops expired entries only when the cache is next
written or counted, and drops them without shutting the session down (streamlit/streamlit#12506): the session's
deferred downloads stay registered with the media file manager, whose closures hold the session's state, so a closed
tab's runs stay in memory for the life of the server. No public API reaps them, so this module watches the cache's
removals (:func:`reap` asks it to drop its expired entries every few seconds; an entry evicted for room or dropped when
a new tab closes is seen the same way) and shuts each removed session down as Streamlit does a session it closes
itself, unless it reconnected meanwhile. The memory freed goes back to the operating system: CPython's allocator and
glibc's keep freed blocks for reuse, and ``malloc_trim`` hands the free pages back.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import logging
import threading
import time
from collections import deque

_LOG = logging.getLogger(__name__)

#: Seconds between two looks for closed sessions whose reconnect window has ended.
REAP_EVERY = 5.0


#: Sessions Streamlit's store has let go of (session id, its ``SessionInfo``), waiting for :func:`reap` to shut them
#: down: the store calls back under its owner's lock, where nothing slow may run.
_removed: deque = deque()


def _note_removal(session_id, info) -> None:
    _removed.append((session_id, info))


def _closed_sessions():
    """Streamlit's session manager and its store of disconnected sessions (``MemorySessionStorage``'s cache), the
    store watched for removals; ``(None, None)`` where this Streamlit keeps them otherwise."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None, None
    manager = getattr(Runtime.instance(), "_session_mgr", None)
    storage = getattr(manager, "_session_storage", None)
    cache = getattr(storage, "_cache", None)
    if not (callable(getattr(cache, "expire", None)) and hasattr(cache, "_on_remove")):
        return None, None
    if cache._on_remove is None:
        cache._on_remove = _note_removal
    elif cache._on_remove is not _note_removal:  # (a Streamlit that watches its own removals: nothing to add)
        return None, None
    return manager, cache


def _trim_heap() -> None:
    """Hand the heap's free pages back to the operating system (glibc's ``malloc_trim``; nothing elsewhere)."""
    name = ctypes.util.find_library("c")
    if not name:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).malloc_trim(0)


def reap() -> int:
    """Shut down the closed sessions whose reconnect window has ended (and any other the store let go of that did not
    reconnect); returns how many."""
    manager, store = _closed_sessions()
    if store is None:
        return 0
    store.expire()  # (its removals arrive through _note_removal)
    count = 0
    while _removed:
        session_id, info = _removed.popleft()
        if manager.is_active_session(session_id):  # (it reconnected: the store let go of it to hand it back)
            continue
        try:
            info.session.shutdown()  # Streamlit's own clean-up: its files, deferred downloads, uploads and caches
            # Its state and fragments too (its runs and histories, and the page closures that reach them): Streamlit's
            # message loop keeps the last session it flushed referenced until it flushes another, which on a server
            # every tab has left is never.
            info.session.session_state.clear()
            info.session._fragment_storage.clear()
        except Exception:  # noqa: BLE001 - one session's failing clean-up must not stop the others'
            _LOG.exception("a closed session %s could not be shut down", session_id)
        count += 1
    info = None  # (the sessions' last references)
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
