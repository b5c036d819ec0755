"""The Kuhn poker page's sections: settings, the game, the walkthrough and live training."""

from __future__ import annotations

import itertools
from typing import NamedTuple

import pandas as pd
import streamlit as st

import rmcore
from rmcore.cfr import metrics_at
from rmcore.kuhn import INFOSETS

from .. import state
from ..live import LiveRun, chart_rows
from ..live_chart import live_chart
from .. import explain, export, race_view
from ..charts import race_figure
from . import figures

#: Every variant a race can include: the five CFR variants, each alternating or simultaneous.
ALL_VARIANTS = tuple(rmcore.CFRVariant(name, updates) for name, updates in itertools.product(rmcore.CFR_VARIANTS, rmcore.CFR_UPDATES))
VARIANT_HELP = " ".join(f"{name}: {text}" for name, text in rmcore.CFR_VARIANTS.items())


class RunSettings(NamedTuple):
    variants: tuple[rmcore.CFRVariant, ...]
    seed: int = 0
    seeds: int = 1


def settings() -> RunSettings:
    labels = {v.label: v for v in ALL_VARIANTS}
    c1, c2, c3 = st.columns([4, 1, 1])
    chosen = c1.multiselect("Variants (the first is traced and tabled; several race each other)", list(labels), default=[ALL_VARIANTS[0].label],
                            key="kuhn_variants", bind="query-params", help=VARIANT_HELP + " " + " ".join(f"{k}: {v}" for k, v in rmcore.CFR_UPDATES.items()))  # fmt: skip
    seed = int(c2.number_input("Seed", 0, 2**31 - 1, 0, key="kuhn_seed", help="For chance sampling: same seed, same run.", bind="query-params"))
    if not chosen:
        st.error("Choose at least one variant; the last choice stays in use.")
        current = state.live("kuhn")
        return current.key if current is not None else RunSettings((ALL_VARIANTS[0],), seed)
    variants = tuple(labels[label] for label in chosen)
    seeds = 1
    if len(variants) > 1 and any(v.is_sampled for v in variants):
        seeds = int(c3.number_input("Seeds", 1, 20, 5, key="kuhn_seeds", help="Runs per sampled variant: the race draws the median and the min-max band.", bind="query-params"))
    return RunSettings(variants, seed, seeds)


def _describe(old: RunSettings, new: RunSettings) -> str:
    names = [name for name in RunSettings._fields if getattr(old, name) != getattr(new, name)]
    return " and ".join(name.replace("variants", "the variants") for name in names) or "the settings"


def live_run(chosen: RunSettings) -> LiveRun:
    return state.sync_live("kuhn", chosen, lambda: rmcore.Race(rmcore.KUHN, chosen.variants, seeds=chosen.seeds, seed=chosen.seed), _describe)


def tree(run: LiveRun) -> None:
    """The information sets coloured by the current policy. Drawn on full reruns only: redrawn on every live update
    (its annotations are costly to lay out) it held the page to 4.4 updates a second instead of 6.4-7.1."""
    solver = run.primary
    live_chart(figures.game_tree(solver.current_policy(), solver.reach_probabilities()), key="kuhn_tree", running=state.running("kuhn"))


def walkthrough(run: LiveRun) -> None:
    st.markdown(
        r"""For each information set $I$ of the player $i$ being updated, summing over the histories $h \in I$
(the two deals that share $i$'s card):

1. **reach:** $\pi_i(h)$ is $i$'s own probability of playing to $h$; $\pi_{-i}(h)$ is the opponent's times chance's (1/6 per deal);
2. **counterfactual values:** $v(I, a) = \sum_h \pi_{-i}(h)\, u_i(h a)$ and $v(I) = \sum_h \pi_{-i}(h)\, u_i(h) = \sum_a \sigma(I, a)\, v(I, a)$;
3. **regrets:** $r(I, a) = v(I, a) - v(I)$, added to the cumulative $R(I, a)$ (CFR+ clips at 0; linear and discounted CFR scale it);
4. **regret matching:** $\sigma'(I, a) = R^+(I, a) / \sum_b R^+(I, b)$, uniform if no regret is positive;
5. **average:** $S(I, a) \mathrel{+}= w_t\, \pi_i(h)\, \sigma(I, a)$, and the average strategy is $S / \sum S$."""
    )
    if run.trace is None:
        st.info("Press **Step +1** to see one iteration's numbers here, information set by information set.")
        return
    rows = []
    for r in run.trace:
        rows.append({
            "infoset": r.infoset, "player": r.player + 1, "σ bet": r.strategy[1], "π_i": r.own_reach, "π_-i": r.opponent_reach,
            "v(I,pass)": r.action_values[0], "v(I,bet)": r.action_values[1], "v(I)": r.strategy_value,
            "r pass": r.regret_increment[0], "r bet": r.regret_increment[1],
            "R pass": r.cumulative_regrets[0], "R bet": r.cumulative_regrets[1], "σ' bet": r.new_strategy[1], "average bet": r.average_strategy[1],
        })  # fmt: skip
    variant = run.race.variants[0]
    st.caption(f"The last traced iteration, of {variant.name} ({variant.updates} updates):")
    st.dataframe(pd.DataFrame(rows).style.format(precision=4), hide_index=True, key="kuhn_trace")


def alpha_sentence(estimate: float, target: float) -> str:
    """The α estimate as it is, and, when it lies outside the family's range, which member the targets use instead."""
    sentence = f"Estimated α = P(bet | J) = **{estimate:.4f}**."
    if estimate != target:
        sentence += (f" That lies outside the equilibrium family's range [0, 1/3] (the average is not an equilibrium yet), "
                     f"so the dashed targets use its nearest member, α = {target:.4f}.")  # fmt: skip
    return sentence


def draw(run: LiveRun, show_current: bool) -> None:
    """The live panel: read every run once, then draw from that one frame."""
    running = state.running("kuhn")
    c1, c2, c3 = st.columns(3)
    c1.metric("iteration", f"{run.iteration:,}")
    if run.iteration == 0:
        metrics = run.primary.metrics()
        c2.metric(f"exploitability ({run.race.variants[0].name})", f"{metrics.exploitability:.3e}")
        c3.metric("game value for player 1", f"{metrics.game_value:.5f}", help="The equilibrium value is -1/18 = -0.05556.")
        st.info("Press **Run** or **Step +1** to start.")
        return
    frame = run.frame()
    metrics = metrics_at(frame.history, -1)
    c2.metric(f"exploitability ({run.race.variants[0].name})", f"{metrics.exploitability:.3e}")
    c3.metric("game value for player 1", f"{metrics.game_value:.5f}", help="The equilibrium value is -1/18 = -0.05556.")
    firsts = [runs[0] for runs in frame.histories]
    labels = [v.label for v in run.race.variants]
    extra = figures.current_exploitability_traces([h.rows(chart_rows(h.iterations)) for h in firsts], labels) if show_current else []
    left, right = st.columns(2)
    with left:
        live_chart(race_figure(frame.race, extra), key="kuhn_exploitability", running=running)
        st.caption(explain.RACE if run.is_race else explain.KUHN_EXPLOITABILITY)
    with right:
        shown = frame.history.rows(chart_rows(frame.history.iterations))
        live_chart(figures.infoset_trajectories(shown), key="kuhn_trajectories", running=running)
        st.caption(explain.KUHN_TRAJECTORIES)
    if run.is_race:
        race_view.table(frame.race)
    average, current = frame.history.policy("average"), frame.history.policy("current")
    regrets = run.primary.cumulative_regrets()
    table = pd.DataFrame({
        "player": [1] * 6 + [2] * 6,
        "current P(bet)": current.probabilities[:, 1], "average P(bet)": average.probabilities[:, 1],
        "R(pass)": regrets[:, 0], "R(bet)": regrets[:, 1],
    }, index=pd.Index(INFOSETS, name="infoset"))  # fmt: skip
    st.table(table.style.format(precision=4))
    spec, alpha = figures.equilibrium_check(average)
    live_chart(spec, key="kuhn_equilibrium", running=running)
    st.caption(explain.KUHN_CHECK)
    st.markdown(alpha_sentence(float(average["J"][1]), alpha) + f" Game value **{metrics.game_value:.5f}** against the equilibrium's **{-1 / 18:.5f}** (−1/18).")
    st.subheader("Export")
    export.section("kuhn", run, frame)
