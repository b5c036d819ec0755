"""Classic Kuhn only: one CFR iteration tabled information set by information set ("show iteration t" re-derives any
earlier one from the seed), the game tree coloured by the current policy, the table of the 12 sets, and the check
against the equilibrium family with its parameter α."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import rmcore
from rmcore.trees.kuhn import INFOSETS

from .. import explain, state
from ..live import LiveRun
from ..live_chart import live_chart
from . import figures

#: While training, the tree's colours are redrawn once a second: its 80 labels made every screen update about a third
#: dearer in the browser (5.5 -> 3.6 updates a second, measured pinned), and its colours change slowly after the start.
TREE_EVERY = 1.0
#: "Show iteration t" re-derives any iteration's trace up to this one (about 0.2 s at 100,000 on a laptop core).
MAX_RETRACE = 100_000
_DEALS = [
    f"{rmcore.trees.kuhn.CARDS[c1]}·{rmcore.trees.kuhn.CARDS[c2]}"
    for c1, c2, _ in (rmcore.KUHN.node_labels[s] for s in rmcore.KUHN.tree.deal_root)
]


def tree_figure(policy: np.ndarray, iteration: int) -> dict:
    return figures.game_tree(
        rmcore.KUHN, policy, _DEALS, f"The game tree at iteration {iteration:,}: colour is the current P(bet or call)"
    )


def section(run: LiveRun) -> None:
    """The last Step +1's numbers (or iteration t's) in two tables, then the steps of one iteration as formulas.

    The numbers come first: the section sits right under Step +1, so that on a projector a step shows what it computed
    without a scroll."""
    wanted = st.number_input(
        f"Show iteration t (any t up to {MAX_RETRACE:,}, re-derived from the seed; empty: the last Step +1)",
        min_value=1,
        max_value=MAX_RETRACE,
        value=None,
        step=1,
        key="kuhn_show_iteration",
    )
    variant = run.race.variants[0]
    if wanted is not None:
        iteration, trace = int(wanted), state.retraced(run, int(wanted))
    elif run.trace is not None:
        iteration, trace = run.traced_at, run.trace
    else:
        iteration = trace = None
        st.info(
            "Press **Step +1** (or the right arrow key) to see one iteration's numbers here, or choose an iteration "
            "above."
        )
    if trace is not None:
        st.caption(
            f"Iteration {iteration:,} of {variant.algorithm} ({variant.updates} updates), information set by "
            "information set. Reach and values are sums over the two deals in the set, so a reach can exceed 1. "
            + explain.KUHN_INFOSET_NAMES
        )
        # One above the other: side by side, each table is cut off at 1280 px beside the sidebar.
        st.markdown("**Reach and counterfactual values**")
        _trace_table(trace, REACH_AND_VALUES, "kuhn_trace_values")
        st.markdown("**Regrets, regret matching and the average**")
        _trace_table(trace, THE_UPDATE, "kuhn_trace_update")
    st.markdown(
        r"""**How each number is computed.** For each information set $I$ of the player $i$ being updated, summing over
the histories $h \in I$ (the two deals that share $i$'s card):

1. **reach:** $\pi_i(h)$ is $i$'s own probability of playing to $h$; """
        r"""$\pi_{-i}(h)$ is the opponent's times chance's (1/6 per deal);
2. **counterfactual values:** $v(I, a) = \sum_h \pi_{-i}(h)\, u_i(h a)$ and """
        r"""$v(I) = \sum_h \pi_{-i}(h)\, u_i(h) = \sum_a \sigma(I, a)\, v(I, a)$;
3. **regrets:** $r(I, a) = v(I, a) - v(I)$, added to the cumulative $R(I, a)$ """
        r"""(CFR+ clips at 0; linear and discounted CFR scale it);
4. **regret matching:** $\sigma'(I, a) = R^+(I, a) / \sum_b R^+(I, b)$, uniform if no regret is positive;
5. **average:** $S(I, a) \mathrel{+}= w_t\, \pi_i(h)\, \sigma(I, a)$, and the average strategy is $S / \sum S$."""
    )


#: The walkthrough's columns: name -> (its help text, how to read it from a trace row).
REACH_AND_VALUES = {
    "player": ("Who acts at this information set.", lambda r: r.player),
    "σ(bet)": ("The strategy this iteration played: probability of bet (call).", lambda r: r.strategy[1]),
    "Σ π_i": ("Own reach, summed over the set's two deals: up to 2, not a probability.", lambda r: r.own_reach),
    "Σ π_-i": ("Opponent's and chance's reach, summed over the set's two deals.", lambda r: r.opponent_reach),
    "v(pass)": ("Counterfactual value of passing (folding): Σ_h π_-i(h) u_i(h·pass).", lambda r: r.action_values[0]),
    "v(bet)": ("Counterfactual value of betting (calling).", lambda r: r.action_values[1]),
    "v(I)": ("Counterfactual value of the set under σ: Σ_a σ(a) v(a).", lambda r: r.strategy_value),
}
THE_UPDATE = {
    "r(pass)": ("This iteration's regret of passing: v(pass) − v(I).", lambda r: r.regret_increment[0]),
    "r(bet)": ("This iteration's regret of betting: v(bet) − v(I).", lambda r: r.regret_increment[1]),
    "R(pass)": ("Cumulative regret of passing after the update.", lambda r: r.cumulative_regrets[0]),
    "R(bet)": ("Cumulative regret of betting after the update.", lambda r: r.cumulative_regrets[1]),
    "σ'(bet)": ("Regret matching's next strategy: R⁺(bet) / (R⁺(pass) + R⁺(bet)).", lambda r: r.new_strategy[1]),
    "avg(bet)": ("The average strategy after this iteration: S(bet) / ΣS.", lambda r: r.average_strategy[1]),
}


def _trace_table(trace: list[rmcore.CFRTrace], columns: dict, key: str) -> None:
    frame = pd.DataFrame(
        [{"infoset": r.infoset, **{name: read(r) for name, (_, read) in columns.items()}} for r in trace]
    )
    st.dataframe(
        frame.style.format(precision=4),
        hide_index=True,
        key=key,
        height=(len(frame) + 1) * 35 + 3,  # every row, no scrolling
        column_config={name: st.column_config.NumberColumn(help=text) for name, (text, _) in columns.items()},
    )


def alpha_sentence(estimate: float, target: float) -> str:
    """The α estimate as it is, and, when it lies outside the family's range, which member the targets use instead."""
    sentence = f"Estimated α = P(bet | J) = **{estimate:.4f}**."
    if estimate != target:
        sentence += (
            f" That lies outside the equilibrium family's range [0, 1/3] (the average is not an equilibrium yet), "
            f"so the dashed targets use its nearest member, α = {target:.4f}."
        )
    return sentence


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
    st.markdown(
        alpha_sentence(float(average["J"][1]), alpha)
        + f" The average policies' value for player 1 is **{game_value:.5f}**, against the game value "
        f"**{-1 / 18:.5f}** (−1/18)."
    )
