"""The matrix page's last-iterate lesson, one click away: on Cai et al.'s 3x3 game, RM+ (simultaneous and alternating)
and PRM+, whose current strategies never settle, race optimistic Hedge, optimistic GDA, smooth predictive RM+ and
extragradient RM+, whose current strategies converge; the race table ranked by the current strategies.

A setup like any other: the values of the page's own widgets (:func:`settings_of`), written into the session by the
button before the page runs; :func:`link` is the same setup as a share link.
"""

from __future__ import annotations

import urllib.parse

import numpy as np
import streamlit as st

import rmcore

from .. import explain, state
from .settings import RunSettings, load_preset

#: Cai et al.'s 3x3 game (value 1/4), from the uniform start.
PRESET = "cai-3x3"
#: The race, expected payoffs, uniform averages, the default step η = 0.1: the first is the page's own algorithm.
VARIANTS = (
    rmcore.MatrixVariant("rm+"),
    rmcore.MatrixVariant("rm+", updates="alternating"),
    rmcore.MatrixVariant("prm+"),
    rmcore.MatrixVariant("optimistic-hedge"),
    rmcore.MatrixVariant("optimistic-gda"),
    rmcore.MatrixVariant("sprm+"),
    rmcore.MatrixVariant("exrm+"),
)


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
        "rank_by": "current",
        "log_x": True,
    }


def query() -> list[tuple[str, str]]:
    """The lesson's query parameters (only what differs from the page's defaults): as the bound widgets write them, but
    the algorithm as the library names it (``algorithm=rm+``, which the page reads as its label)."""
    return (
        [("preset", rmcore.PRESETS[PRESET].title), ("algorithm", VARIANTS[0].algorithm)]
        + [("race_variants", v.label) for v in VARIANTS[1:]]
        + [("show_current", "true"), ("rank_by", explain.MATRIX_RANK_BY["current"])]
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
        explain.LAST_ITERATE_TITLE,
        key="matrix_last_iterate_lesson",
        on_click=_start,
        help=explain.LAST_ITERATE_HELP,
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
    """The lesson's lines under the race chart, with its link; None for another setup."""
    if not is_lesson(game, chosen):
        return None
    return f"{explain.last_iterate_words()} This lesson's link: {link()}"
