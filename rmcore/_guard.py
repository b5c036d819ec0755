"""A solver's state and its iteration counter always agree: one thread at a time, and Ctrl-C between chunks only.

A run advances the arrays in place in compiled code, then the counter and the checkpoint rows in Python. Two threads
running one solver interleaved those steps (iteration 3e6 where 6e6 ran, a history that went backwards), and a Ctrl-C
that landed after a kernel returned but before the counter moved left them apart (``iteration`` 2,000 where the arrays
had run 2e8). So :func:`exclusive` refuses a second thread with a clear error while the first is inside the solver,
and :func:`interrupts_between_chunks` holds a Ctrl-C back until the chunk in hand is recorded, then raises it.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import threading

from . import config


class ConcurrentUseError(RuntimeError):
    """A solver used by a second thread while another is inside it."""


def exclusive(method):
    """Decorate a solver method: a second thread entering the solver meanwhile gets :class:`ConcurrentUseError`."""

    # Written for the cost of a call without arguments (``metrics()`` on Kuhn poker takes about a microsecond in
    # all): the lock read as an attribute, acquired with a positional argument and the method called without
    # forwarding empty ``*args, **kwargs`` cost well under half of what a wrapper forwarding them does.
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            lock = self._guard_lock
        except AttributeError:
            lock = self.__dict__.setdefault("_guard_lock", threading.RLock())
        if not lock.acquire(False):  # (without blocking)
            raise ConcurrentUseError(
                f"this {type(self).__name__} is in use by another thread; a solver serves one thread at a time "
                "(give each thread its own solver)"
            )
        try:
            return method(self, *args, **kwargs) if args or kwargs else method(self)
        finally:
            lock.release()

    return guarded


@contextlib.contextmanager
def interrupts_between_chunks():
    """Inside, a Ctrl-C (SIGINT) is held back: the block receives a list that holds it once it came, and raises
    ``KeyboardInterrupt`` itself between two pieces of work (or the block's end raises it).

    Only the main thread receives signals; elsewhere (and where a handler cannot be set) the list stays empty.
    """
    caught: list = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    try:
        previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    except (ValueError, TypeError):  # not settable here (an embedded interpreter, say)
        yield caught
        return
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def run_in_chunks(solver, iterations: int, chunk: int) -> None:
    """``solver._run_chunk`` over ``iterations`` in pieces of at most ``chunk``, each recorded before a Ctrl-C may
    land, after checking that the total stays within ``config.MAX_ITERATIONS``."""
    if solver.iteration + iterations > config.MAX_ITERATIONS:
        raise ValueError(
            f"a solver runs at most {config.MAX_ITERATIONS:,} iterations in all; it is at "
            f"{solver.iteration:,} and was asked for {iterations:,} more"
        )
    # (One handler for the whole run: setting one takes a few microseconds, as much as a chunk of a small game.)
    with interrupts_between_chunks() as caught:
        while iterations > 0:
            step = min(iterations, chunk)
            solver._run_chunk(step)
            iterations -= step
            if caught and iterations > 0:
                raise KeyboardInterrupt
