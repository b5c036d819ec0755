"""The matrix page's last-iterate lesson, one click away: on Cai et al.'s 3x3 game, RM+ (simultaneous and alternating)
and PRM+, whose current strategies never settle, race optimistic Hedge, optimistic GDA, smooth predictive RM+ and
extragradient RM+, whose current strategies converge; the race table ranked by the current strategies. A
:class:`~ui.matrix.lesson.MatrixLesson` like the rules lesson.
"""

from __future__ import annotations

import rmcore

from .. import explain
from .lesson import MatrixLesson

#: Cai et al.'s 3x3 game (value 1/4), from the uniform start; the race, expected payoffs, uniform averages, the default
#: step η = 0.1: the first is the page's own algorithm.
LESSON = MatrixLesson(
    preset="cai-3x3",
    variants=(
        rmcore.MatrixVariant("rm+"),
        rmcore.MatrixVariant("rm+", updates="alternating"),
        rmcore.MatrixVariant("prm+"),
        rmcore.MatrixVariant("optimistic-hedge"),
        rmcore.MatrixVariant("optimistic-gda"),
        rmcore.MatrixVariant("sprm+"),
        rmcore.MatrixVariant("exrm+"),
    ),
    rank_by="current",
    title=explain.LAST_ITERATE_TITLE,
    help=explain.LAST_ITERATE_HELP,
    key="matrix_last_iterate_lesson",
    words_of=explain.last_iterate_words,
)
