"""A locked player: the learner's exact best response to it, the value the learner's average earns climbing towards
that best response, the gain the locks give away, and the deviations from the equilibrium that exploit them."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rmcore
from rmcore.plotting import trees as figures
from rmcore.plotting import words as figure_words

from .. import escape, explain, explain_trees
from ..live import LiveRun
from ..live_chart import live_chart
from . import exact
from .settings import RunSettings


@st.cache_resource(max_entries=64, show_spinner=False)
def _exact_response(
    game_key: tuple, opponent: tuple, _chosen: RunSettings
) -> tuple[rmcore.BestResponse, list[rmcore.Deviation]]:
    """The learner's exact best response to the fixed player, and where it deviates from the equilibrium (once per
    setup: ``game_key`` and ``opponent`` name it; the settings themselves are not hashed)."""
    game, answer = _chosen.tree_game, _chosen.exact_answer(wait=None)
    response = rmcore.best_response(game, _chosen.fixed_opponent(), player=3 - opponent[0])
    deviations = [] if answer is None else rmcore.exploiting_deviations(game, response, answer.policy)
    return response, deviations


#: Most exploiting deviations tabled (Leduc can have hundreds; the largest gains first).
DEVIATIONS_SHOWN = 12


def section(run: LiveRun, history: rmcore.History, row: int, look: dict) -> None:
    """The learner's value climbing to the exact best-response value, the gain the locks give away, and the
    deviations."""
    chosen = run.key
    fixed, locks = chosen.opponent
    learner = 3 - fixed
    sign = 1.0 if learner == 1 else -1.0
    answer = chosen.exact_answer(wait=None)  # (the run's fixed player needed it already: it is there)
    if answer is None:
        st.warning(explain_trees.no_exact_for_fixed(exact.note(chosen.game_key, chosen.tree_game), fixed))
        return
    response, deviations = _exact_response(chosen.game_key, chosen.opponent, chosen)
    equilibrium = sign * answer.game_value
    values = sign * history.metrics["game_value"][: row + 1]
    st.subheader(f"Against the fixed player {fixed}")
    locked = (
        "; ".join(
            f"{escape.markdown(name)}: "
            + " / ".join(
                f"{escape.markdown(a)} {p:.0%}"
                for a, p in zip(run.race.game.actions[run.race.game.infosets.index(name)], probs)
            )
            for name, probs in locks
        )
        or explain_trees.NOTHING_LOCKED
    )
    st.markdown(explain_trees.against_fixed(fixed, locked, learner, response.value, equilibrium, values[-1]))
    live_chart(
        figures.value_against_fixed(
            history.iterations[: row + 1],
            values,
            response.value,
            equilibrium,
            learner,
            figure_words.tree_unit(figures.is_poker(run.race.game)),
        ),
        key="kuhn_fixed_value",
        caption=explain.CFR_FIXED_VALUE,
        **look,
    )
    if deviations:
        rows = [
            {
                "information set": d.infoset,
                "best response": f"always {d.action}",
                "equilibrium plays it": f"{d.equilibrium_probability:.0%}",
                "gain there": d.gain,
            }
            for d in deviations[:DEVIATIONS_SHOWN]
        ]
        st.markdown(explain_trees.deviations_heading(learner))
        st.dataframe(pd.DataFrame(rows).style.format({"gain there": "{:.4f}"}), hide_index=True, key="kuhn_deviations")
        if len(deviations) > DEVIATIONS_SHOWN:
            st.caption(f"The {DEVIATIONS_SHOWN} largest of {len(deviations)}.")
    else:
        st.markdown(explain_trees.no_deviation(learner))
