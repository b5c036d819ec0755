"""Exact answers, computed once per game on this server, in a background thread, for both pages: a zero-sum game's
LP (``rmcore.solve_exactly``: a matrix game's, or a tree's sequence form) and a general-sum matrix game's Nash
equilibria (:func:`nash_equilibria`). No game blocks a page while its answer is computed, and a class opening one game
computes its answer once.

An answer is kept by what computes it (the function itself) and the game's key (a tree page's settings, a
matrix game's payoffs: :func:`matrix_key`); a failure is kept too, so a game whose computation gave up is not tried
again on every rerun. Each page decides how long it waits for an answer and what it says meanwhile
(``ui/trees/exact.py``, ``ui/matrix/state.py``).

Leduc's LP takes a fraction of a second, Liar's dice with 6 sides' (294,883 histories) seconds; HiGHS releases the GIL
meanwhile, so the pages' own threads go on drawing.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as NotYet
from typing import NamedTuple

import streamlit as st

import rmcore

#: Most answers computed at once on the server: one, so that thirty sessions opening a large game queue its solve
#: instead of taking every core from the live runs.
SOLVERS = 1
#: Seconds of the server a general-sum game's equilibria may take: an 8x8 game's vertex enumeration takes about a
#: second, a 200x200 game's Lemke-Howson path well under that; a larger game may take minutes, and the page then says
#: it gave up.
EQUILIBRIA_SECONDS = 3.0
#: Seconds of the server each correlated-equilibrium program may take (HiGHS's time limit): a 64x64 game's program
#: has 4,096 variables and 8,064 constraints.
CORRELATED_SECONDS = 3.0


class Pending(NamedTuple):
    """An answer on its way: its future, when it was first asked for, and what computes it (kept, so that no other
    function takes its id while the answer is kept)."""

    future: Future
    started: float
    solve: Callable


class Progress(NamedTuple):
    """Where an answer is: ``done`` (with ``error`` None: it is there; else why it failed), or ``seconds`` since it was
    first asked for."""

    done: bool
    seconds: float
    error: BaseException | None


@st.cache_resource(show_spinner=False)
def _solvers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=SOLVERS, thread_name_prefix="rmcore-exact-answer")


@st.cache_resource(max_entries=64, show_spinner=False)
def _pending(computation: tuple[str, str, int], game_key: Hashable, _solve: Callable, _game) -> Pending:
    """The one computation ``computation`` of the game ``game_key`` names on this server (the game itself is not
    hashed)."""
    return Pending(_solvers().submit(_solve, _game), time.monotonic(), _solve)


def _asked(solve: Callable, game_key: Hashable, game) -> Pending:
    if not callable(solve):
        raise TypeError(f"an exact answer is computed by a function, not {type(solve).__name__}")
    # By the function itself: two closures may share a name. Its entry keeps it alive, so its id stays its own.
    computation = (getattr(solve, "__module__", ""), getattr(solve, "__qualname__", ""), id(solve))
    return _pending(computation, game_key, solve, game)


def answer(solve: Callable, game_key: Hashable, game, wait: float | None) -> object | None:
    """``solve(game)``, if it is there within ``wait`` seconds of when it was first asked for on this server (None:
    wait until it is); else None. A failed computation is None too; :func:`progress` says why.

    Parameters
    ----------
    solve : callable
        What computes the answer from ``game`` (``rmcore.solve_exactly``, :func:`nash_equilibria`).
    game_key : hashable
        Names the game: equal keys stand for the same game (:func:`matrix_key` for a matrix game).
    game : rmcore.MatrixGame or rmcore.TreeGame
        The game, computed on when no answer of its key is kept.
    wait : float or None
        Seconds from when the answer was first asked for.
    """
    pending = _asked(solve, game_key, game)
    timeout = None if wait is None else max(0.0, pending.started + wait - time.monotonic())
    try:
        return pending.future.result(timeout=timeout)
    except NotYet:
        return None
    except Exception:  # noqa: BLE001 - the failure is said through progress(); the page runs on without the answer
        return None


def progress(solve: Callable, game_key: Hashable, game) -> Progress:
    """Where the answer :func:`answer` gives is: computing (for how long), failed (why), or there."""
    pending = _asked(solve, game_key, game)
    if not pending.future.done():
        return Progress(False, time.monotonic() - pending.started, None)
    return Progress(True, time.monotonic() - pending.started, pending.future.exception())


def matrix_key(game: rmcore.MatrixGame) -> tuple:
    """A matrix game as a key of this cache: its payoffs (the names and the start change no answer)."""
    if not isinstance(game, rmcore.MatrixGame):
        raise TypeError(f"a matrix game's key is made from an rmcore.MatrixGame, not {type(game).__name__}")
    digest = hashlib.sha256()
    for payoffs in (game.row_payoffs, game.col_payoffs):
        digest.update(repr(payoffs.shape).encode())
        digest.update(payoffs.astype(float).tobytes())
    return ("matrix", digest.hexdigest())


def submit(solve: Callable, *args, **kwargs) -> Future:
    """``solve(*args, **kwargs)`` on the server's one solver thread, behind the answers already asked for: for an
    answer that is not per game (the correlated equilibrium closest to a session's joint play), kept by its caller."""
    return _solvers().submit(solve, *args, **kwargs)


def welfare_ranges(game: rmcore.MatrixGame) -> tuple[tuple[float, float], tuple[float, float]]:
    """The range of total payoff over a general-sum game's correlated equilibria and over its coarse ones (four
    linear programs, each within :data:`CORRELATED_SECONDS`)."""
    return (
        rmcore.welfare_range(game, time_limit=CORRELATED_SECONDS),
        rmcore.welfare_range(game, coarse=True, time_limit=CORRELATED_SECONDS),
    )


def nash_equilibria(game: rmcore.MatrixGame) -> rmcore.NashEquilibria:
    """A general-sum game's Nash equilibria (every one up to 8x8, one by Lemke-Howson beyond), within
    :data:`EQUILIBRIA_SECONDS`: ``RuntimeError`` when its time limit or pivot cap is reached."""
    return rmcore.nash_equilibria(game, time_limit=EQUILIBRIA_SECONDS)
