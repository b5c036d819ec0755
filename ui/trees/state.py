"""The game-tree page's own session state: the one module that writes the page's keys (its own game, the hands
against the bot, the walkthrough's iteration, the game as the link carries it), each declared in :data:`KEYS`. The
session-wide keys (messages, the link, the run flag) are ``ui/state.py``'s; this module changes them through its
functions.
"""

from __future__ import annotations

import streamlit as st

from .. import escape, link, state
from ..live import LiveRun
from .games import UploadedGame, read_uploaded

#: Every key this module writes, with what it holds.
KEYS = {
    "kuhn_uploaded": "the page's own game (ui.trees.games.UploadedGame), from the link or the uploader; None: none",
    "kuhn_play": "the hands against the bot (ui.trees.play.Table; None before the first)",
    "kuhn_retrace": "(run, iteration, its CFRTrace list): the walkthrough's iteration, re-derived once",
    "tree_game_in_link": "whether the link carries the tree page's game (a catalogue game, or a small enough .efg)",
    "tree_game_link_chars": "the tree page's own game's length as the link's kuhn_efg (0: none)",
    "kuhn_efg_param": "(digest, kuhn_efg): the tree page's own game as the link's parameter, made once per game",
}
#: Widgets' own keys this module gives a value before the widget is drawn: none.
WIDGET_KEYS = ()


def init() -> None:
    """Create the page's state on a session's first run (after ``ui.state.init``); never overwrite it afterwards. The
    page's own game is the link's ``kuhn_efg``, if it carries one."""
    st.session_state.setdefault("kuhn_play", None)
    if "kuhn_uploaded" not in st.session_state:  # from the link, or uploaded later
        uploaded, problem = _linked_game()
        state.link_problem(problem)
        st.session_state.kuhn_uploaded = uploaded


def _linked_game() -> tuple[UploadedGame | None, str | None]:
    """On a session's first run: the game the link's ``kuhn_efg`` carries (None without one), and what was wrong with
    it, if anything: a bad one leaves the address, and the page opens its default game (with the uploader, if the
    link chose the user's game)."""
    param = st.query_params.get("kuhn_efg")
    if param is None:
        return None, None
    try:
        return read_uploaded(link.efg_from_param(param), "the link"), None
    except Exception as error:  # noqa: BLE001 - any failure: a hostile link must open the defaults, never crash
        reason = error if isinstance(error, ValueError) else f"it could not be read ({type(error).__name__})"
        del st.query_params["kuhn_efg"]
        return None, f"kuhn\\_efg: {escape.markdown(str(reason).rstrip('.'))}; showing the defaults instead"


def link_tree_game(uploaded: UploadedGame | None) -> None:
    """Keep the link's ``kuhn_efg`` in step with the page's game: the user's game (``uploaded``) when it is running and
    small enough, nothing for a catalogue game (None); ``tree_game_in_link`` says whether the link carries the game,
    for the Share box."""
    param = None if uploaded is None else _efg_param_of(uploaded)
    fits = link.tree_game_changed(param)
    st.session_state.tree_game_in_link = uploaded is None or fits
    st.session_state.tree_game_link_chars = 0 if param is None else len(param)


def _efg_param_of(uploaded: UploadedGame) -> str:
    """``link.efg_param`` of the uploaded game's text, made once per game in a session (compressing Liar's dice's
    text took more than a second, on every run of the page)."""
    made = st.session_state.get("kuhn_efg_param")
    if made is None or made[0] != uploaded.digest:
        made = (uploaded.digest, link.efg_param(uploaded.text))
        st.session_state.kuhn_efg_param = made
    return made[1]


def set_tree_game(uploaded: UploadedGame | None) -> None:
    """The page's own game is now ``uploaded`` (read from a file)."""
    st.session_state.kuhn_uploaded = uploaded


def set_play_table(table) -> None:
    """The hands against the bot start afresh at ``table`` (a new seat, seed or bot)."""
    st.session_state.kuhn_play = table


def retraced(run: LiveRun, iteration: int) -> list:
    """Iteration ``iteration`` of ``run``'s first run, re-derived once (a rerun of the page does not redo it)."""
    known = st.session_state.get("kuhn_retrace")
    if known is None or known[0] is not run or known[1] != iteration:
        known = (run, iteration, run.primary.retrace(iteration))
        st.session_state.kuhn_retrace = known
    return known[2]
