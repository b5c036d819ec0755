"""The live panel's part on correlated equilibria: where a general-sum self-play run's joint distribution of play
``sigma_t`` goes, drawn against the CE set.

A 2x2 game's joint distributions fill a tetrahedron (:func:`rmcore.plotting.correlated.tetrahedron_figure`): the
learner's trail of ``sigma_t``, up to the iteration shown, moves through it live. A larger game's ``sigma_t`` is drawn
as a heatmap beside the CE closest to it (:func:`~rmcore.plotting.correlated.joint_heatmaps_figure`), whose linear
program runs on the server's solver thread at most every few seconds of a running page
(:func:`ui.matrix.state.closest_equilibrium`), so that no update waits for it. Under either, the joint play's total
payoff beside its range over the CE and the CCE sets (computed once per game on the server).

Zero-sum games (where the CE set's marginals are the game's equilibria) and a fixed opponent (no joint learning) show
none of it.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import rmcore
from rmcore.plotting import correlated as correlated_figure
from rmcore.plotting import matrix as figures
from rmcore.plotting import words as figure_words

from .. import explain_correlated as words
from ..escape import markdown as escape
from ..live_chart import live_chart
from . import state as matrix_state

#: Height of the tetrahedron on the page: room for its legend under it, beside nothing.
TETRAHEDRON_HEIGHT = 560


#: The tetrahedron's layers by the picture's toggles (ui/matrix/settings.py PICTURE_LAYERS): each solid by its
#: ``meta``, the others by their legend entry.
_LAYER_TRACES = {
    "CE set": ("meta", correlated_figure.CE_META),
    "CCE set": ("meta", correlated_figure.CCE_META),
    "independent play": ("name", figure_words.PRODUCTS),
    "Nash equilibria": ("name", figure_words.NASH),
    "welfare-best CE": ("name", figure_words.BEST),
}


def with_layers(figure: dict, layers: tuple[str, ...]) -> dict:
    """The tetrahedron ``figure`` with the layers named in ``layers`` shown and the others waiting in the legend."""
    for trace in figure["data"]:
        for layer, (field, value) in _LAYER_TRACES.items():
            if trace.get(field) == value:
                trace["visible"] = True if layer in layers else "legendonly"
    return figure


def draw(solver: rmcore.MatrixSolver, iteration: int, running: bool, look: dict, race=None, picture=None) -> None:
    """The part, for the run ``solver`` at ``iteration`` (a history row's), if it applies (:func:`applies`); in a race
    (``race``: each variant's first run's history, and the variants), every learner's CE and CCE gaps first.
    ``picture``: the tetrahedron's layers shown and whether the heatmap's closest point is a CCE (by default every
    layer the figure shows, and a CE)."""
    if not figures.shows_joint_play(solver):
        return
    layers, coarse = picture if picture is not None else (None, False)
    game = solver.game
    trail = figures.joint_trail(solver, iteration)
    now = trail[-1]
    st.markdown(words.PANEL_HEADING)
    if race is not None:
        histories, variants = race
        shown = [
            (h, v.label) for h, v in zip(histories, variants) if len(h.iterations) and h.iterations[0] <= iteration
        ]
        figure = correlated_figure.gaps_race_figure(
            [h.rows(np.flatnonzero(h.iterations <= iteration)) for h, _ in shown], [name for _, name in shown]
        )
        live_chart(figure, key="chart_correlated_race", caption=words.GAPS_RACE_CAPTION, **look)
    if game.shape == (2, 2):
        figure = correlated_figure.tetrahedron_figure(game, trail, height=TETRAHEDRON_HEIGHT)
        if layers is not None:
            figure = with_layers(figure, layers)
        live_chart(figure, key="chart_correlated", caption=words.TETRAHEDRON_CAPTION, **look)
    elif game.shape[0] * game.shape[1] <= rmcore.correlated.MAX_CELLS:
        closest = matrix_state.closest_equilibrium(game, now, iteration, running, coarse)
        if closest.found is not None:
            figure = correlated_figure.joint_heatmaps_figure(now, closest.found, game)
            caption = words.heatmaps_caption(closest.iteration, iteration, running, closest.pending is not None)
            live_chart(figure, key="chart_correlated", caption=caption, **look)
        elif closest.error is not None:
            st.caption(escape(words.closest_failed(closest.error)))
        else:
            st.caption(words.heatmaps_caption(None, iteration, running, True))
    else:
        st.caption(words.too_large(game.shape, rmcore.correlated.MAX_CELLS))
    _welfare(game, now, running)


def _welfare(game: rmcore.MatrixGame, joint: np.ndarray, running: bool) -> None:
    """The joint play's total payoff beside the ranges over the CE and CCE sets."""
    learner = float(((game.row_payoffs + game.col_payoffs) * joint).sum())
    if game.shape[0] * game.shape[1] > rmcore.correlated.MAX_CELLS:
        st.markdown(words.welfare_line(learner, None, None).split(";")[0] + ".")
        return
    ranges = matrix_state.welfare_ranges(game, running)
    if ranges is None:
        failed = matrix_state.welfare_ranges_failed(game)
        if failed is not None:
            st.markdown(words.welfare_line(learner, None, None).split(";")[0] + ".")
            st.caption(escape(words.welfare_failed(failed)))
            return
        st.markdown(words.welfare_line(learner, None, None))
        return
    st.markdown(words.welfare_line(learner, *ranges))
