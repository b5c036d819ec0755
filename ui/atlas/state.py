"""The atlas's own session state: the one module that writes the page's keys (its own results, and its game box before
it is drawn), each declared in :data:`KEYS` or :data:`WIDGET_KEYS`. The session-wide keys are ``ui/state.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

#: Every key this module writes, with what it holds.
KEYS = {
    "atlas_results": "the page's own results: (table, where from, in words); None: the shipped atlas",
}
#: Widgets' own keys this module gives a value before the widget is drawn: the atlas's game box.
WIDGET_KEYS = ("atlas_game",)


def init() -> None:
    """Create the page's state on a session's first run; never overwrite it afterwards."""
    st.session_state.setdefault("atlas_results", None)


def set_results(table, where: str) -> None:
    """The atlas shows ``table`` (a sweep's results) from now on; ``where`` says where it came from."""
    if not isinstance(where, str):
        raise TypeError(f"where results came from is said in words, not {type(where).__name__}")
    st.session_state.atlas_results = (table, where)


def ready_game_box(offered: Mapping) -> None:
    """The game box before it is drawn: the first game ``offered`` (id -> title) when the box's game is not among them
    (new results)."""
    if st.session_state.get("atlas_game") not in offered:
        st.session_state.atlas_game = next(iter(offered))
