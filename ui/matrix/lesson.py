"""The matrix page's lessons, one click away: a race on a preset from the uniform start, each variant drawn with its
average and its current strategies.

- :data:`RULES_LESSON`: the eight learning rules on Rock-Paper-Scissors with a crash;
- ``last_iterate.py``'s: the rules whose last iterates settle against those whose never do, on Cai et al.'s game.

A lesson is a setup like any other: the values of the page's own widgets (:meth:`MatrixLesson.settings_of`). Its button
writes them into the session before the page runs (the bound widgets then write the URL), and
:meth:`MatrixLesson.link` is the same setup as a share link, a URL a lecturer can hand out.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

import rmcore

from .. import explain, state
from .settings import RunSettings, load_preset

#: The page's own defaults for what a lesson may change: a link names only what differs from them.
_DEFAULT_ALGORITHM = "rm"
_DEFAULT_RANK_BY = "average"


@dataclass(frozen=True)
class MatrixLesson:
    """A race on ``preset`` from the uniform start, expected payoffs: ``variants[0]`` is the page's own algorithm, the
    others its race; the race table ranked by ``rank_by`` (``"average"`` or ``"current"``). ``title``, ``help`` and
    ``key`` are its button's; ``words`` says what the class sees."""

    preset: str
    variants: tuple[rmcore.MatrixVariant, ...]
    rank_by: str
    title: str
    help: str
    key: str
    words_of: Callable[[], str]

    def settings_of(self) -> dict:
        """The lesson as the page's widget values, by key: everything a share link could change is set, so that no
        earlier setting (a fixed opponent, a custom start, another averaging) leaks into the lesson."""
        primary = self.variants[0]
        return {
            "preset": self.preset,
            "opponent_mode": "Self-play",
            "algorithm": primary.algorithm,
            "sampling": primary.sampling,
            "updates": primary.updates,
            "averaging": primary.averaging,
            "eta": format(rmcore.config.DEFAULT_ETA, "g"),
            "start_mode": "suggested",  # these games suggest none: learning starts uniform
            "race_variants": [v.label for v in self.variants[1:]],
            "show_current": True,
            "rank_by": self.rank_by,
            "log_x": True,
        }

    def query(self) -> list[tuple[str, str]]:
        """The lesson's query parameters, as the bound widgets write them (only what differs from the page's
        defaults): the preset by its title, the race by its labels, the current strategies shown; the algorithm by its
        label and the ranking, where they are not the page's own."""
        algorithm = self.variants[0].algorithm
        return (
            [("preset", rmcore.PRESETS[self.preset].title)]
            + ([("algorithm", explain.ALGORITHM_NAMES[algorithm])] if algorithm != _DEFAULT_ALGORITHM else [])
            + [("race_variants", v.label) for v in self.variants[1:]]
            + [("show_current", "true")]
            + ([("rank_by", explain.MATRIX_RANK_BY[self.rank_by])] if self.rank_by != _DEFAULT_RANK_BY else [])
        )

    def link(self) -> str:
        """The lesson as a share link: this app's matrix page with the lesson's parameters."""
        base = (st.context.url or "").split("?")[0].rstrip("/").removesuffix("/kuhn_poker")
        return f"{base}/?{urllib.parse.urlencode(self.query())}"

    def _start(self) -> None:
        """The button's callback: the lesson's values into the widgets before they are drawn, and its game loaded (a
        preset chosen by code runs no ``on_change``)."""
        state.set_widgets(self.settings_of())
        load_preset()

    def button(self) -> None:
        """The lesson's one button, with its title."""
        st.button(self.title, key=self.key, on_click=self._start, help=self.help, icon=":material/school:")

    def is_lesson(self, game: rmcore.MatrixGame, chosen: RunSettings) -> bool:
        """Whether the page's setup is the lesson: its race, in self-play from the uniform start, on its game."""
        return (
            chosen.variants == self.variants
            and chosen.opponent is None
            and chosen.start is None
            and game.name == rmcore.PRESETS[self.preset].title
            and np.array_equal(game.row_payoffs, rmcore.preset(self.preset).row_payoffs)
            and game.is_zero_sum
        )

    def words(self, game: rmcore.MatrixGame, chosen: RunSettings) -> str | None:
        """The lesson's lines under the race chart; None for another setup."""
        if not self.is_lesson(game, chosen):
            return None
        return f"{self.words_of()} {explain.LESSON_LINK_BELOW}"

    def link_line(self, game: rmcore.MatrixGame, chosen: RunSettings) -> None:
        """Under the charts, while the page runs the lesson: its link, as a link (its 600 characters printed in the
        chart's caption filled three lines of a projector)."""
        if self.is_lesson(game, chosen):
            st.caption(explain.lesson_link(self.link()))


#: The eight rules, expected payoffs, simultaneous updates, uniform averages, the default step η = 0.1, on RPS with a
#: crash (Scissors beats Paper by 2), whose uniform start is not its equilibrium. (The smoothed regret matchers have a
#: lesson of their own: ``last_iterate.py``.)
RULES = ("rm", "rm+", "prm+", "hedge", "optimistic-hedge", "fictitious-play", "gda", "optimistic-gda")
RULES_LESSON = MatrixLesson(
    preset="rps-crash",
    variants=tuple(rmcore.MatrixVariant(rule) for rule in RULES),
    rank_by="average",
    title=explain.MATRIX_LESSON_TITLE,
    help=explain.MATRIX_LESSON_HELP,
    key="matrix_lesson",
    words_of=explain.matrix_lesson_words,
)
