"""Classic Kuhn only: one CFR iteration tabled information set by information set ("show iteration t" re-derives any
earlier one from the seed), the game tree coloured by the current policy, the table of the 12 sets, and the check
against the equilibrium family with its parameter α."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import rmcore
from rmcore.plotting import trees as figures
from rmcore.trees.kuhn import INFOSETS

from .. import explain, explain_trees, state
from ..live import LiveRun
from ..live_chart import live_chart
from . import state as trees_state

#: While training, the tree's colours are redrawn once a second: its 80 labels made every screen update about a third
#: dearer in the browser (measured with the server and the browser pinned to a core each), and its colours change slowly
#: after the start.
TREE_EVERY = 1.0
#: "Show iteration t" re-derives any iteration's trace up to this one (a fraction of a second at 100,000 on a laptop
#: core).
MAX_RETRACE = 100_000
_DEALS = [
    f"{rmcore.trees.kuhn.CARDS[c1]}·{rmcore.trees.kuhn.CARDS[c2]}"
    for c1, c2, _ in (rmcore.KUHN.node_labels[s] for s in rmcore.KUHN.tree.deal_root)
]


#: The walkthrough expander's key: its open state is the session's, so that the page can fold it.
EXPANDER_KEY = "kuhn_walkthrough"


def expander(presenting: bool):
    """The walkthrough's expander, under the run controls: open at first (folded in presentation mode), folded when a
    run starts, open again at Step +1. At 1280x720 the open walkthrough fills the screen under Run and pushes the
    iteration count and the charts below it; a run's place is the charts, a step's the walkthrough's tables."""
    if state.started("kuhn"):
        state.set_widgets({EXPANDER_KEY: False})
    elif st.session_state.get("kuhn_step_1"):  # (a button is True in the run its click starts)
        state.set_widgets({EXPANDER_KEY: True})
    elif EXPANDER_KEY not in st.session_state:
        state.set_widgets({EXPANDER_KEY: not presenting})
    return st.expander(explain_trees.WALKTHROUGH_TITLE, key=EXPANDER_KEY, on_change="rerun")


def tree_figure(policy: np.ndarray, iteration: int) -> dict:
    return figures.game_tree(rmcore.KUHN, policy, _DEALS, explain_trees.tree_title(iteration))


def section(run: LiveRun) -> None:
    """The last Step +1's numbers (or iteration t's) in two tables, then the steps of one iteration as formulas.

    The numbers come first: the section sits right under Step +1, so that on a projector a step shows what it computed
    without a scroll."""
    wanted = st.number_input(
        explain_trees.show_iteration_label(MAX_RETRACE),
        min_value=1,
        max_value=MAX_RETRACE,
        value=None,
        step=1,
        key="kuhn_show_iteration",
    )
    variant = run.race.variants[0]
    if wanted is not None:
        iteration, trace = int(wanted), trees_state.retraced(run, int(wanted))
    elif run.trace is not None:
        iteration, trace = run.traced_at, run.trace
    else:
        iteration = trace = None
        st.info(explain_trees.PRESS_STEP)
    if trace is not None:
        st.caption(
            explain_trees.iteration_caption(iteration, variant.algorithm, variant.updates)
            + " "
            + explain.KUHN_INFOSET_NAMES
        )
        # One above the other: side by side, each table is cut off at 1280 px beside the sidebar.
        st.markdown(explain_trees.REACH_HEADING)
        _trace_table(trace, REACH_AND_VALUES, "kuhn_trace_values")
        st.markdown(explain_trees.UPDATE_HEADING)
        _trace_table(trace, THE_UPDATE, "kuhn_trace_update")
    st.markdown(explain_trees.HOW_COMPUTED)


#: The walkthrough's columns: name -> how to read it from a trace row (each column's help is ``ui/explain_trees.py``'s).
REACH_AND_VALUES = {
    "player": lambda r: r.player,
    "σ(bet)": lambda r: r.strategy[1],
    "Σ π_i": lambda r: r.own_reach,
    "Σ π_-i": lambda r: r.opponent_reach,
    "v(pass)": lambda r: r.action_values[0],
    "v(bet)": lambda r: r.action_values[1],
    "v(I)": lambda r: r.strategy_value,
}
THE_UPDATE = {
    "r(pass)": lambda r: r.regret_increment[0],
    "r(bet)": lambda r: r.regret_increment[1],
    "R(pass)": lambda r: r.cumulative_regrets[0],
    "R(bet)": lambda r: r.cumulative_regrets[1],
    "σ'(bet)": lambda r: r.new_strategy[1],
    "avg(bet)": lambda r: r.average_strategy[1],
}


def _trace_table(trace: list[rmcore.CFRTrace], columns: dict, key: str) -> None:
    helps = explain_trees.REACH_AND_VALUES | explain_trees.THE_UPDATE
    frame = pd.DataFrame([{"infoset": r.infoset, **{name: read(r) for name, read in columns.items()}} for r in trace])
    st.dataframe(
        frame.style.format(precision=4),
        hide_index=True,
        key=key,
        height=(len(frame) + 1) * 35 + 3,  # every row, no scrolling
        column_config={name: st.column_config.NumberColumn(help=helps[name]) for name in columns},
    )


def policies(
    run: LiveRun,
    average: rmcore.Policy,
    current: rmcore.Policy,
    regrets: np.ndarray,
    iteration: int,
    game_value: float,
    look: dict,
) -> None:
    """The game tree coloured by the current policy, the table of the 12 sets, and the equilibrium check."""
    live_chart(
        tree_figure(current.probabilities, iteration),
        key="kuhn_tree",
        every=TREE_EVERY,
        caption=explain.KUHN_TREE,
        **look,
    )
    table = pd.DataFrame(
        {
            "player": [1] * 6 + [2] * 6,
            "current P(bet)": current.probabilities[:, 1],
            "average P(bet)": average.probabilities[:, 1],
            "R(pass)": regrets[:, 0],
            "R(bet)": regrets[:, 1],
        },
        index=pd.Index(INFOSETS, name="infoset"),
    )
    st.table(table.style.format(precision=4))
    if run.primary.learner is not None:
        # (the equilibrium family is self-play's answer: against a fixed player the learner heads for a best response)
        return
    spec, alpha = figures.equilibrium_check(average)
    live_chart(spec, key="kuhn_equilibrium", caption=explain.KUHN_CHECK, **look)
    st.markdown(explain_trees.alpha_sentence(float(average["J"][1]), alpha) + explain_trees.kuhn_value(game_value))
