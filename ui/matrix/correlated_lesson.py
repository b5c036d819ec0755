"""The correlated-equilibrium lesson, one click on the matrix page: Shapley's game from its suggested start, regret
matching racing swap RM and Hart & Mas-Colell's procedure, each learner's joint play measured against the CE and the
CCE sets.

Like the field lessons (``ui/matrix/field_lessons.py``) it is a setup of the page's own widgets: its button writes
them into the session before the page runs and loads the game; its words show under the race chart while the page's
settings are still the lesson's, and the page's share link (every widget bound to the address) reopens it. The numbers
in the words are this library's (``tests/test_correlated_page.py`` runs the same solvers and holds the words to them).
"""

from __future__ import annotations

import streamlit as st

import rmcore

from .. import explain_correlated, state
from .settings import load_preset

#: The learners: regret matching (expected play) as the page's own algorithm, swap RM (expected play) and Hart &
#: Mas-Colell's procedure (sampled: its only form) racing it.
LEARNERS = (
    rmcore.MatrixVariant("rm"),
    rmcore.MatrixVariant("swap-rm"),
    rmcore.MatrixVariant("internal-rm", "sampled"),
)
#: Every widget the lesson depends on, so that no earlier setting (a fixed opponent, another averaging) leaks in.
SETTINGS = {
    "preset": "shapley",
    "opponent_mode": "Self-play",
    "algorithm": LEARNERS[0].algorithm,
    "sampling": LEARNERS[0].sampling,
    "updates": LEARNERS[0].updates,
    "averaging": LEARNERS[0].averaging,
    "start_mode": "suggested",  # (Shapley's game suggests a start away from its equilibrium)
    "race_variants": [v.label for v in LEARNERS[1:]],
    "race_seeds": 1,
    "seed": 0,
    "show_current": False,
    "log_x": True,
    "matrix_speed": "as fast as possible",
}


def _start() -> None:
    """The button's callback: the lesson's values into the widgets before they are drawn, and its game loaded."""
    state.set_widgets(SETTINGS)
    load_preset()


def button() -> None:
    """The lesson's one button."""
    st.button(
        explain_correlated.LESSON_TITLE,
        key="correlated_lesson",
        on_click=_start,
        help=explain_correlated.LESSON_HELP,
        icon=":material/school:",
    )


def is_lesson() -> bool:
    """Whether the page's widgets still hold the lesson's values."""
    return all(st.session_state.get(key) == value for key, value in SETTINGS.items())


def words() -> str | None:
    """The lesson's words under the race chart while the page's settings are still the lesson's; else None."""
    return explain_correlated.LESSON_WORDS if is_lesson() else None
