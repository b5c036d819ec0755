"""The matrix page's own session state: the one module that writes the page's keys (the game, the editor's draft, the
fixed opponent, the lessons' and the strategy chart's keys), each declared in :data:`KEYS`. The session-wide keys
(messages, the link, the run flag) are ``ui/state.py``'s; this module changes them through its functions.

The game's exact answer (a zero-sum game's LP) and a general-sum game's equilibria are computed once per game on the
server (``ui/exact.py``), and said here when they fail or are still on their way.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as NotYet
from typing import NamedTuple

import numpy as np
import streamlit as st

import rmcore

from .. import escape, exact, explain_app, link, state
from .editor import Draft

#: Every key this module writes, with what it holds.
KEYS = {
    "game": "the game being solved (rmcore.MatrixGame)",
    "from_preset": "whether that game is a preset's (False: edited, uploaded or linked)",
    "game_in_link": "whether the link carries the matrix page's game (its preset, or a game small enough)",
    "game_key": "(game, its key): the game as a key of the server's exact answers (ui/exact.py), made once per game",
    "draft": "the editor's Draft: cells and names as typed, and a version that renews the editor's widgets",
    "player_editor_version": "the version of the slice editor's tables (three players or more), renewed by a new game",
    "opponent": "the last valid fixed opponent, as a tuple of the column player's weights (None: none yet)",
    "field_lesson": "the field lesson last chosen: its words show while the page's settings stay the lesson's",
    "space_clicked": "True after a click on the strategy-space chart set a start: the live panel reruns the page",
    "space_animation": "the strategy chart's last animation: (iteration range, frames, format, bytes)",
    "correlated_closest": "the CE closest to the joint play as last computed, and the program on its way (Closest)",
}
#: Widgets' own keys this module gives a value before the widget is drawn: the preset box.
WIDGET_KEYS = ("preset",)

DEFAULT_PRESET = "rps-crash"
#: Seconds a page waits for its game's exact answer or equilibria, from when they were first asked for on the server:
#: the equilibria's own time limit and a second more. A page draws without them, saying so, only while other games'
#: answers are computed ahead of them.
WAIT_SECONDS = exact.EQUILIBRIA_SECONDS + 1.0


def init() -> None:
    """Create the page's state on a session's first run (after ``ui.state.init``); never overwrite it afterwards. The
    game is the link's (its ``matrix``, or its preset), else the default preset."""
    if "game" not in st.session_state:
        game, source, problem = link.initial_game(DEFAULT_PRESET)
        state.link_problem(problem)
        st.session_state.game = game
        st.session_state.from_preset = source[0] == "preset"
        # (the two-player editor's draft: a game of three players or more is edited slice by slice, matrix/players.py)
        st.session_state.draft = Draft.from_game(game if game.num_players == 2 else rmcore.preset(DEFAULT_PRESET))
        st.session_state.opponent = None


def label_link_algorithm() -> None:
    """Before the page's widgets are drawn in a session's first run: an algorithm the link names as the library does
    goes into the address by its widget's label, and the run starts again from there
    (:func:`ui.link.label_named_algorithm` says why)."""
    if not st.session_state.link_checked and link.label_named_algorithm():
        st.rerun()


def load_game(game: rmcore.MatrixGame, from_preset: bool) -> None:
    """Make ``game`` the one being solved, show it in the editor (when it fits there) and in the link."""
    st.session_state.game_in_link = link.game_changed(game, from_preset)
    st.session_state.game = game
    st.session_state.from_preset = from_preset
    state.unsay("preset", "editor", "upload_csv")
    version = st.session_state.draft.version + 1
    if game.num_players == 2 and max(game.shape) <= 10:
        st.session_state.draft = Draft.from_game(game, version)
    st.session_state.player_editor_version = player_editor_version() + 1


def player_editor_version() -> int:
    """The version of the slice editor's tables (a game of three players or more): a loaded game shows them afresh."""
    return st.session_state.get("player_editor_version", 0)


def ready_preset_box() -> None:
    """The preset box's value before it is drawn: the default preset at first (set here, not as the widget's default:
    a link may set it too), and none for an edited, uploaded or linked game (the box said "RPS with crash" over a
    200x200 CSV)."""
    st.session_state.setdefault("preset", DEFAULT_PRESET)
    if not st.session_state.get("from_preset", True):
        st.session_state.preset = None


def set_draft(draft: Draft) -> None:
    """What the editor shows: ``draft`` (a new shape, zero-sum switched)."""
    st.session_state.draft = draft


def remember_opponent(opponent: tuple[float, ...]) -> None:
    """The last valid fixed opponent (the column player's weights): kept while the sliders say something invalid."""
    st.session_state.opponent = opponent


def choose_field_lesson(name: str) -> None:
    """The field lesson ``name`` was chosen: its words show while the page's settings stay the lesson's."""
    st.session_state.field_lesson = name


def field_lesson() -> str | None:
    """The field lesson last chosen (None: none yet)."""
    return st.session_state.get("field_lesson")


def start_clicked() -> None:
    """A click on the strategy-space chart set a start (the live panel then reruns the whole page)."""
    st.session_state.space_clicked = True


def take_start_click() -> bool:
    """Whether a click on the strategy-space chart set a start since last asked."""
    return bool(st.session_state.pop("space_clicked", False))


def remember_animation(made: tuple) -> None:
    """The strategy chart's last animation: ``(iteration range, frames, format, bytes)``, offered for download."""
    st.session_state.space_animation = made


def animation() -> tuple | None:
    """The strategy chart's last animation (:func:`remember_animation`), or None."""
    return st.session_state.get("space_animation")


def _key_of(game: rmcore.MatrixGame) -> tuple:
    """``game``'s key among the server's exact answers, made once per game in a session (it hashes the payoffs: a
    200x200 game's would be hashed on every update of the live panel)."""
    known = st.session_state.get("game_key")
    if known is None or known[0] is not game:
        known = (game, exact.matrix_key(game))
        st.session_state.game_key = known
    return known[1]


def _answer(widget: str, solve, game: rmcore.MatrixGame, failed, computing) -> object | None:
    """``solve(game)`` from the server's exact answers; else None, and the input ``widget`` says why: ``failed(error)``
    when it failed, ``computing(seconds)`` while it is on its way."""
    key = _key_of(game)
    found = exact.answer(solve, key, game, WAIT_SECONDS)
    if found is not None:
        state.unsay(widget)
        return found
    where = exact.progress(solve, key, game)
    if not where.done:
        state.say(widget, computing(where.seconds), "info")
    elif where.error is not None:
        failed(where.error)
    return None


def exact_answer(game: rmcore.MatrixGame) -> rmcore.ExactSolution | None:
    """The LP value and an equilibrium of a zero-sum game, solved once per game on the server; None for general-sum
    games, and while the LP is not there (the message of ``"exact"`` says why)."""
    if not game.is_zero_sum:
        return None
    return _answer(
        "exact",
        rmcore.solve_exactly,
        game,
        # the LP solver gave up: said on the page; the run goes on without it
        lambda error: state.say("exact", explain_app.exact_failed(error), "warning"),
        explain_app.exact_computing,
    )


def nash_equilibria(game: rmcore.MatrixGame) -> rmcore.NashEquilibria | None:
    """A general-sum game's Nash equilibria (every one up to 8x8, one by Lemke-Howson beyond), computed once per game
    on the server; None for a zero-sum game (its LP answers), and where the computation gave up or is not there yet
    (the message of ``"equilibria"`` says why)."""
    if game.is_zero_sum:
        return None
    return _answer(
        "equilibria",
        exact.nash_equilibria,
        game,
        # its time limit or pivot cap: said on the page; the run goes on without it
        lambda error: state.say("equilibria", escape.markdown(str(error))),
        explain_app.still_computing,
    )


def welfare_ranges(
    game: rmcore.MatrixGame, running: bool = True
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The range of total payoff over the CE set and over the CCE set of a general-sum game, computed once per game on
    the server (:func:`ui.exact.welfare_ranges`); None while it is on its way or where it failed. A running page never
    waits for it (the live panel draws on without it); a paused one, which redraws on no timer, up to
    :data:`CLOSEST_PAUSED_WAIT` seconds from when it was first asked for. Zero-sum games: None."""
    if game.is_zero_sum:
        return None
    return exact.answer(exact.welfare_ranges, _key_of(game), game, 0.0 if running else CLOSEST_PAUSED_WAIT)


def welfare_ranges_failed(game: rmcore.MatrixGame) -> BaseException | None:
    """Why :func:`welfare_ranges` has no answer, once its programs gave up (None while they run, or when they
    succeeded)."""
    return exact.progress(exact.welfare_ranges, _key_of(game), game).error


#: Seconds between two closest-CE programs of one session while its run is running: a 64x64 game's program takes
#: seconds, and every session's wait behind the server's one solver thread.
CLOSEST_EVERY = 5.0
#: Seconds a paused page waits for the closest CE of the iteration it shows (a paused page redraws on no timer).
CLOSEST_PAUSED_WAIT = 1.5


class Closest(NamedTuple):
    """The CE closest to a session's joint play: the last one computed (and at which iteration, or why it failed),
    and the program on its way (of which iteration, asked when)."""

    game: rmcore.MatrixGame
    coarse: bool = False
    iteration: int | None = None
    found: rmcore.CorrelatedEquilibrium | None = None
    error: str | None = None
    pending: Future | None = None
    pending_iteration: int | None = None
    asked: float = 0.0


def _collected(kept: Closest) -> Closest:
    """``kept`` with its program's answer taken in, once it is there."""
    if kept.pending is None or not kept.pending.done():
        return kept
    error = kept.pending.exception()
    return kept._replace(
        iteration=kept.pending_iteration,
        found=None if error is not None else kept.pending.result(),
        error=None if error is None else str(error),
        pending=None,
        pending_iteration=None,
    )


def closest_equilibrium(
    game: rmcore.MatrixGame, joint: np.ndarray, iteration: int, running: bool, coarse: bool = False
) -> Closest:
    """The CE (with ``coarse`` the CCE) closest to the joint play ``joint`` of ``iteration``, by linear programming on
    the server's solver thread: asked again at most every :data:`CLOSEST_EVERY` seconds while the run runs, at once
    for the iteration a paused page shows (waiting up to :data:`CLOSEST_PAUSED_WAIT` for it); meanwhile the last one
    computed."""
    kept = st.session_state.get("correlated_closest")
    if kept is None or kept.game is not game or kept.coarse != coarse:
        kept = Closest(game, coarse)
    kept = _collected(kept)
    now = time.monotonic()
    due = kept.pending is None and kept.iteration != iteration and (not running or now - kept.asked >= CLOSEST_EVERY)
    if due:
        future = exact.submit(
            rmcore.closest_correlated_equilibrium,
            game,
            np.array(joint),
            coarse=coarse,
            time_limit=exact.CORRELATED_SECONDS,
        )
        kept = kept._replace(pending=future, pending_iteration=iteration, asked=now)
    if not running and kept.pending is not None:
        try:
            kept.pending.result(timeout=CLOSEST_PAUSED_WAIT)
        except NotYet:
            pass
        except Exception:  # noqa: BLE001, S110 - the failure is taken in below and said on the page
            pass
        kept = _collected(kept)
    st.session_state.correlated_closest = kept
    return kept
