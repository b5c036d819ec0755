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

from .. import state
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


LESSONS = {
    "pennies": FieldLesson(
        "Matching pennies: Hedge against optimistic Hedge",
        "Hedge and optimistic Hedge on matching pennies from 90% Heads against 30% Heads, 10 iterations an update, "
        "on the replicator dynamic's field.",
        _settings("matching-pennies", "hedge", "10 per update", race=("optimistic-hedge",)),
        "Lesson: both rules discretise the replicator dynamic, whose orbits around the centre are closed (the centre "
        "is neutral: its Jacobian's eigenvalues are ±i). Hedge's last iterate (red) steps off each orbit outward and "
        "spirals out to the corners (0.46 from the centre after 10 iterations, 0.69 after 1,000); optimistic Hedge's "
        "(blue) spirals in to the equilibrium (0.005 after 1,000). Both averages approach the centre.",
    ),
    "rps": FieldLesson(
        "Rock-Paper-Scissors: the replicator's closed orbits",
        "Hedge on Rock-Paper-Scissors, both players starting at 70% Rock, 20% Paper, 10% Scissors (one population), "
        "10 iterations an update.",
        _settings("rps", "hedge", "10 per update", start=(70, 20, 10)),
        "Lesson: both players start at one point and update alike, so one triangle holds the state. The replicator's "
        "orbits around the centre are closed (eigenvalues ±i/√3: neutral). Hedge's last iterate follows an orbit but "
        "drifts outward a little each turn (0.39 from the centre after 100 iterations, 0.62 after 1,000), while its "
        "average circles in to the equilibrium (nash_conv 0.043 after 1,000).",
    ),
    "shapley": FieldLesson(
        "Shapley's game: fictitious play cycles",
        "Fictitious play on Shapley's game from the game's suggested start, as fast as possible.",
        _settings("shapley", "fictitious-play", "as fast as possible"),
        "Lesson: the state is both players' strategies (four numbers), so no field is drawn; the joint best-response "
        "dynamic's only rest point, the uniform equilibrium, is unstable. Each player's average travels round a "
        "triangle, the Shapley triangle, and never settles: nash_conv stays near 0.29 (0.293 after 1,000 iterations, "
        "0.287 after 100,000).",
    ),
    "rps-br": FieldLesson(
        "Rock-Paper-Scissors: the best-response dynamic converges",
        "Fictitious play on Rock-Paper-Scissors, both players starting at 70% Rock, 20% Paper, 10% Scissors (one "
        "population), 100 iterations an update.",
        _settings("rps", "fictitious-play", "100 per update", start=(70, 20, 10)),
        "Lesson: the best-response dynamic's arrows point at the action that beats the most played one, and its rest "
        "point, the centre, is stable. The average turns an ever smaller triangle into the equilibrium (nash_conv "
        "0.043 after 1,000 iterations, 0.0042 after 100,000), as fictitious play does in every zero-sum game "
        "(Robinson 1951); the last iterate jumps from corner to corner.",
    ),
}


def _start(name: str) -> None:
    """A button's callback: the lesson's values into the widgets before they are drawn, and its game loaded."""
    state.set_widgets(LESSONS[name].settings)
    state.choose_field_lesson(name)
    load_preset()


def buttons() -> None:
    """The four lessons, in a popover beside the rules lesson."""
    with st.popover("Lessons: the field under the rule", icon=":material/air:"):
        for name, lesson in LESSONS.items():
            st.button(lesson.title, key=f"field_lesson_{name}", on_click=_start, args=(name,), help=lesson.help)


def words() -> str:
    """The chosen lesson's words while the page's settings are still the lesson's, else ``""``."""
    lesson = LESSONS.get(state.field_lesson())
    if lesson is None:
        return ""
    for key, value in lesson.settings.items():
        if st.session_state.get(key) != value:
            return ""
    return lesson.words
