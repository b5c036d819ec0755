"""The bigger games (Kuhn on sliders, Leduc hold'em): the exact answer beside the learner's, a heat map of P(bet or
raise) over every information set of one player and round, and an explorer that tables any one set."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import rmcore

from .. import explain
from ..live import LiveRun
from ..live_chart import live_chart
from . import figures
from .settings import exact_answer


def _game_key(run: LiveRun) -> tuple:
    return run.key.game_key


def section(
    run: LiveRun, average: rmcore.Policy, current: rmcore.Policy, regrets: np.ndarray, game_value: float, look: dict
) -> None:
    """Kuhn on sliders and Leduc: the exact answer beside the learner, a heat map of P(bet or raise), and an
    explorer."""
    game = run.race.game
    answer = exact_answer(_game_key(run))
    st.markdown(
        f"**The exact answer** (sequence-form linear program, HiGHS): game value for player 1 **{answer.value:.6f}**; "
        f"the learner's average policy gets **{game_value:.6f}** (gap {game_value - answer.value:+.2e})."
    )
    leduc = isinstance(game.rules, rmcore.LeducRules)
    c1, c2, c3 = st.columns(3)
    player = c1.radio("Player", [1, 2], horizontal=True, key="kuhn_explore_player")
    round_ = c2.radio("Round", [1, 2], horizontal=True, key="kuhn_explore_round") if leduc else 1
    kind = c3.radio("Strategy", ["average", "current", "exact (LP)"], horizontal=True, key="kuhn_explore_kind")
    names = [
        name
        for k, name in enumerate(game.infosets)
        if game.tree.infoset_player[k] == player - 1 and ("/" in name) == (round_ == 2)
    ]
    shown = {"average": average, "current": current, "exact (LP)": answer.policy}[kind].probabilities
    live_chart(
        figures.aggression_heatmap(game, shown, names, f"P(bet or raise), player {player}, {kind}"),
        key="kuhn_heatmap",
        caption="Each cell is one information set: the cards its player sees (rows) and the betting so far (columns, "
        "only where a bet or raise is allowed). Light: it rarely bets; dark blue: it always does.",
        **look,
    )
    _explorer(run, game, names, average, current, regrets, answer)


def _explorer(run: LiveRun, game, names: list[str], average, current, regrets, answer) -> None:
    """One information set: its current and average strategy, cumulative regrets, the LP's, and how often it is
    reached."""
    rules = game.rules
    seen = list(dict.fromkeys(rules.split(name)[0] for name in names))
    c1, c2 = st.columns(2)
    cards = c1.selectbox("Cards seen", seen, key="kuhn_explore_cards")
    histories = [rules.split(name)[1] for name in names if rules.split(name)[0] == cards]
    bets = c2.selectbox(
        "Betting so far", histories, format_func=lambda h: h or "(first to act)", key="kuhn_explore_history"
    )
    if bets is None or cards is None:
        return
    name = next(n for n in names if rules.split(n) == (cards, bets))
    k = game.infosets.index(name)
    reach = run.primary.reach_probabilities(current)[k]
    actions = game.actions[k]
    table = pd.DataFrame(
        {
            "current": current.probabilities[k, : len(actions)],
            "average": average.probabilities[k, : len(actions)],
            "cumulative regret": regrets[k, : len(actions)],
            "exact (LP)": answer.policy.probabilities[k, : len(actions)],
        },
        index=pd.Index(actions, name=name),
    )
    st.table(table.style.format(precision=4))
    st.caption(
        f"**{name}**: reached with probability {reach:.4f} under the current policy (chance and both players). "
        + explain.POKER_INFOSET_NAMES
    )
