"""The matrix page's lesson, one click away: the eight learning rules race on Rock-Paper-Scissors with a crash from
the uniform start, each drawn with its average and its current strategies.

The lesson is a setup like any other: the values of the page's own widgets (:func:`settings_of`). Its button writes
them into the session before the page runs (the bound widgets then write the URL), and :func:`link` is the same setup
as a share link, a URL a lecturer can hand out.
"""

from __future__ import annotations

import urllib.parse

import numpy as np
import streamlit as st

import rmcore

from .. import explain, state
from .settings import RunSettings, load_preset

#: The lesson's game: RPS with a crash (Scissors beats Paper by 2), whose uniform start is not its equilibrium.
PRESET = "rps-crash"
#: The eight rules, expected payoffs, simultaneous updates, uniform averages, the default step η = 0.1: the first is
#: the page's own algorithm, the others its race. (The smoothed regret matchers have a lesson of their own:
#: ``last_iterate.py``.)
RULES = ("rm", "rm+", "prm+", "hedge", "optimistic-hedge", "fictitious-play", "gda", "optimistic-gda")
VARIANTS = tuple(rmcore.MatrixVariant(rule) for rule in RULES)


def settings_of() -> dict:
    """The lesson as the page's widget values, by key: everything a share link could change is set, so that no
    earlier setting (a fixed opponent, a custom start, another averaging) leaks into the lesson."""
    primary = VARIANTS[0]
    return {
        "preset": PRESET,
        "opponent_mode": "Self-play",
        "algorithm": primary.algorithm,
        "sampling": primary.sampling,
        "updates": primary.updates,
        "averaging": primary.averaging,
        "eta": format(rmcore.config.DEFAULT_ETA, "g"),
        "start_mode": "suggested",  # this game suggests none: learning starts uniform
        "race_variants": [v.label for v in VARIANTS[1:]],
        "show_current": True,
        "rank_by": "average",
        "log_x": True,
    }


def query() -> list[tuple[str, str]]:
    """The lesson's query parameters, as the bound widgets write them (only what differs from the page's defaults):
    the preset by its title, the race by its labels, the current strategies shown."""
    return (
        [("preset", rmcore.PRESETS[PRESET].title)]
        + [("race_variants", v.label) for v in VARIANTS[1:]]
        + [("show_current", "true")]
    )


def link() -> str:
    """The lesson as a share link: this app's matrix page with the lesson's parameters."""
    base = (st.context.url or "").split("?")[0].rstrip("/").removesuffix("/kuhn_poker")
    return f"{base}/?{urllib.parse.urlencode(query())}"


def _start() -> None:
    """The button's callback: the lesson's values into the widgets before they are drawn, and its game loaded (a
    preset chosen by code runs no ``on_change``)."""
    state.set_widgets(settings_of())
    load_preset()


def button() -> None:
    """The lesson's one button, with its title."""
    st.button(
        explain.MATRIX_LESSON_TITLE,
        key="matrix_lesson",
        on_click=_start,
        help=explain.MATRIX_LESSON_HELP,
        icon=":material/school:",
    )


def is_lesson(game: rmcore.MatrixGame, chosen: RunSettings) -> bool:
    """Whether the page's setup is the lesson: its race, in self-play from the uniform start, on its game."""
    return (
        chosen.variants == VARIANTS
        and chosen.opponent is None
        and chosen.start is None
        and game.name == rmcore.PRESETS[PRESET].title
        and np.array_equal(game.row_payoffs, rmcore.preset(PRESET).row_payoffs)
        and game.is_zero_sum
    )


def words(game: rmcore.MatrixGame, chosen: RunSettings) -> str | None:
    """The lesson's lines under the race chart; None for another setup."""
    if not is_lesson(game, chosen):
        return None
    return f"{explain.matrix_lesson_words()} {explain.LESSON_LINK_BELOW}"


def link_line(game: rmcore.MatrixGame, chosen: RunSettings) -> None:
    """Under the charts, while the page runs the lesson: its link, as a link (its 600 characters printed in the
    chart's caption filled three lines of a projector)."""
    if is_lesson(game, chosen):
        st.caption(explain.lesson_link(link()))
