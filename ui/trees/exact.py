"""The exact answer of the tree page's game (the sequence-form LP, ``rmcore.solve_exactly``), solved once per game
on this server, in a background thread, so that no game blocks the page while its LP runs.

Leduc's LP takes a fraction of a second, Liar's dice with 6 sides' (294,883 histories) seconds; HiGHS releases the GIL
meanwhile (the page's own thread is held up for no more than a few screen updates' drawing). Every
game the page runs (``games.MAX_PAGE_NODES``) is therefore solved; a page draws without the answer, saying so, until
it is there.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as NotYet
from typing import NamedTuple

import streamlit as st

import rmcore

from .. import explain_trees

#: Seconds, from when a game's LP was first asked for, that a page waits for its answer before drawing without it:
#: Leduc's is there at once; the largest games' follow on a later update, and the live panel never waits for
#: them again (half a second on every update held Liar's dice with 6 sides under one chart update a second).
WAIT_SECONDS = 1.0
#: Most LPs solved at once on the server: one, so that thirty sessions opening a large game queue its solve instead
#: of taking every core from the live runs.
SOLVERS = 1


class Pending(NamedTuple):
    """A game's LP on its way: the future of its :class:`rmcore.ExactSolution`, and when it was asked for."""

    future: Future
    started: float


@st.cache_resource(show_spinner=False)
def _solvers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=SOLVERS, thread_name_prefix="rmcore-exact-answer")


@st.cache_resource(max_entries=64, show_spinner=False)
def _pending(game_key: tuple, _game: rmcore.TreeGame) -> Pending:
    """The one LP per game on this server (``game_key`` names the game; the tree itself is not hashed)."""
    return Pending(_solvers().submit(rmcore.solve_exactly, _game), time.monotonic())


def answer(game_key: tuple, game: rmcore.TreeGame, wait: float | None = WAIT_SECONDS) -> rmcore.ExactSolution | None:
    """The LP's value and equilibrium, if it is there within ``wait`` seconds of when it was first asked for (None:
    wait until it is); else None.

    A failed LP is None too; :func:`note` says why.
    """
    pending = _pending(game_key, game)
    timeout = None if wait is None else max(0.0, pending.started + wait - time.monotonic())
    try:
        return pending.future.result(timeout=timeout)
    except NotYet:
        return None
    except Exception:  # noqa: BLE001 - the LP's failure is said by note(); the page runs on without the answer
        return None


def note(game_key: tuple, game: rmcore.TreeGame) -> str | None:
    """What to say instead of the answer while it is not there (None once it is)."""
    pending = _pending(game_key, game)
    if not pending.future.done():
        return explain_trees.computing_exact(time.monotonic() - pending.started, game.tree.player.shape[0])
    error = pending.future.exception()
    if error is not None:
        return explain_trees.exact_failed(error)
    return None
