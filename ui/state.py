"""Session-state defaults in one place. Each browser tab is its own session, with its own run."""

from __future__ import annotations

import streamlit as st

import rmcore

from .live_run import LiveRun, RunSettings
from .matrix_editor import Draft

DEFAULT_PRESET = "rps-crash"


def init_matrix_page() -> None:
    """Create the matrix page's state on a session's first visit; never overwrite it afterwards."""
    if "game" not in st.session_state:
        game = rmcore.preset(DEFAULT_PRESET)
        st.session_state.game = game
        st.session_state.draft = Draft.from_game(game)
        st.session_state.run = LiveRun(game, RunSettings())
        st.session_state.editor_error = None
        st.session_state.game_error = None
        st.session_state.upload_error = None
        st.session_state.notice = None
        st.session_state.opponent = None  # the last valid fixed opponent, as a tuple


def load_game(game: rmcore.MatrixGame) -> None:
    """Make ``game`` the one being solved and show it in the editor (when it fits there)."""
    st.session_state.game = game
    st.session_state.editor_error = None
    st.session_state.game_error = None
    version = st.session_state.draft.version + 1
    if max(game.shape) <= 10:
        st.session_state.draft = Draft.from_game(game, version)


def sync_run(settings: RunSettings) -> LiveRun:
    """The session's run, restarted (with a visible notice) when the game or the settings changed."""
    run: LiveRun = st.session_state.run
    game = st.session_state.game
    if run.game is game and run.settings == settings:
        return run
    fresh = LiveRun(game, settings)
    if run.iteration > 0:
        what = "the game" if run.game is not game else _changed(run.settings, settings)
        st.session_state.notice = f"Changing {what} changes the dynamics, so the run restarted from iteration 0 (it had reached {run.iteration:,})."
    st.session_state.run = fresh
    return fresh


def _changed(old: RunSettings, new: RunSettings) -> str:
    names = [field for field in old.__dataclass_fields__ if getattr(old, field) != getattr(new, field)]
    return " and ".join(names) or "the settings"
