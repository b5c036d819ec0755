"""Four lessons on the field under the rule, one click each: what a class sees, in words under the strategy-space
chart.

Each lesson is a setup like the page's rules lesson (``ui/matrix/lesson.py``): the values of the page's own widgets.
Its button writes them into the session before the page runs and loads the lesson's game; its words show while the
page's settings are still the lesson's. The numbers in the words are this library's (``tests/test_field_lessons.py``
runs the same solvers and holds the words to them).
"""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

import rmcore

from .. import explain_matrix, link, state
from . import state as matrix_state
from .settings import load_preset


class FieldLesson(NamedTuple):
    """A lesson: its button's title and help, the page's widget values it sets, and what the class sees."""

    title: str
    help: str
    settings: dict
    words: str


def _settings(preset: str, algorithm: str, speed: str, start=None, race=()) -> dict:
    """Every widget a lesson depends on, so that no earlier setting (a fixed opponent, another averaging, a layer
    turned off) leaks into it."""
    values = {
        "preset": preset,
        "opponent_mode": "Self-play",
        "algorithm": algorithm,
        "sampling": "expected",
        "updates": "simultaneous",
        "averaging": "uniform",
        "start_mode": "suggested" if start is None else "custom",
        "race_variants": [rmcore.MatrixVariant(rule).label for rule in race],
        "show_current": True,
        "log_x": True,
        "space_layers": ["field", "last iterate", "average"],
        "matrix_speed": speed,
    }
    if algorithm in rmcore.STEP_ALGORITHMS:  # (the step's slider is drawn, and kept, for these rules only)
        values["eta"] = "0.1"
    if start is not None:  # one point for both players: one population
        size = len(start)
        values |= {f"start_{who}_{size}_{k}": w for who in ("row", "col") for k, w in enumerate(start)}
    return values


#: Each lesson's settings; its title, help and words are ``ui/explain_matrix.py``'s (``FIELD_LESSONS``).
_SETTINGS = {
    "pennies": _settings("matching-pennies", "hedge", "10 per update", race=("optimistic-hedge",)),
    "rps": _settings("rps", "hedge", "10 per update", start=(70, 20, 10)),
    "shapley": _settings("shapley", "fictitious-play", "as fast as possible"),
    "rps-br": _settings("rps", "fictitious-play", "100 per update", start=(70, 20, 10)),
}
LESSONS = {
    name: FieldLesson(title, help_text, _SETTINGS[name], words)
    for name, (title, help_text, words) in explain_matrix.FIELD_LESSONS.items()
}


def _start(name: str) -> None:
    """A button's callback: the lesson's values into the widgets before they are drawn, and its game loaded."""
    settings = LESSONS[name].settings
    state.set_widgets(settings)
    # The start sliders are drawn only once the start is one's own: the address, and so the share link, takes their
    # weights from here (without them a link opens the lesson at the suggested or uniform start).
    link.write_drawn_later(
        {key: value for key, value in settings.items() if key.startswith(("start_row_", "start_col_"))}
    )
    matrix_state.choose_field_lesson(name)
    load_preset()


def buttons() -> None:
    """The four lessons, in a popover beside the rules lesson."""
    with st.popover(explain_matrix.FIELD_LESSONS_TITLE, icon=":material/air:"):
        for name, lesson in LESSONS.items():
            st.button(lesson.title, key=f"field_lesson_{name}", on_click=_start, args=(name,), help=lesson.help)


def words() -> str:
    """The chosen lesson's words while the page's settings are still the lesson's, else ``""``."""
    lesson = LESSONS.get(matrix_state.field_lesson())
    if lesson is None:
        return ""
    for key, value in lesson.settings.items():
        if st.session_state.get(key) != value:
            return ""
    return lesson.words
