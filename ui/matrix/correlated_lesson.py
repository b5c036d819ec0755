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


def _settings(preset: str) -> dict:
    """Every widget a lesson depends on, so that no earlier setting (a fixed opponent, another averaging) leaks in."""
    return {
        "preset": preset,
        "opponent_mode": "Self-play",
        "algorithm": LEARNERS[0].algorithm,
        "sampling": LEARNERS[0].sampling,
        "updates": LEARNERS[0].updates,
        "averaging": LEARNERS[0].averaging,
        "start_mode": "suggested",  # (Shapley's game suggests a start away from its equilibrium; Chicken none)
        "race_variants": [v.label for v in LEARNERS[1:]],
        "race_seeds": 1,
        "seed": 0,
        "show_current": False,
        "log_x": True,
        "matrix_speed": "as fast as possible",
    }


#: The lessons by name: each one's settings; their titles, help and words are ``ui/explain_correlated.py``'s.
SETTINGS = {"shapley": _settings("shapley"), "chicken": _settings("aumann-chicken")}


def _start(name: str) -> None:
    """A button's callback: the lesson's values into the widgets before they are drawn, and its game loaded."""
    state.set_widgets(SETTINGS[name])
    load_preset()


def buttons() -> None:
    """The lessons' buttons, in a popover beside the other lessons."""
    with st.popover(explain_correlated.LESSONS_TITLE, icon=":material/school:"):
        for name, (title, help_text, _) in explain_correlated.LESSONS.items():
            st.button(title, key=f"correlated_lesson_{name}", on_click=_start, args=(name,), help=help_text)


def lesson() -> str | None:
    """The lesson whose values the page's widgets still hold, or None."""
    for name, settings in SETTINGS.items():
        if all(st.session_state.get(key) == value for key, value in settings.items()):
            return name
    return None


def words() -> str | None:
    """The lesson's words under the race chart while the page's settings are still the lesson's; else None."""
    name = lesson()
    return None if name is None else explain_correlated.LESSONS[name][2]
