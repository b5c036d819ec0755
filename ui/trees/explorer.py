"""The bigger games: the exact answer beside the learner's; for Kuhn on sliders and Leduc hold'em a heat map of
P(bet or raise) over every information set of one player and round and an explorer that tables any one set; for any
other game (Liar's dice, Goofspiel, the user's own) a searchable list of its information sets, by name, that tables
any one."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import rmcore
from rmcore.plotting import trees as figures

from .. import escape, explain, explain_trees
from ..live import LiveRun
from ..live_chart import live_chart
from . import exact

#: Most information-set names offered at once in the list: the list travels to the browser with every screen update
#: (Liar's dice with 6 sides has 12,288 a player; all of them were 300 kB an update). Typing narrows it.
LISTED = 200


def section(
    run: LiveRun, average: rmcore.Policy, current: rmcore.Policy, regrets: np.ndarray, game_value: float, look: dict
) -> None:
    """The exact answer beside the learner; then poker's heat map and explorer, or any game's list of sets."""
    game = run.race.game
    answer = run.key.exact_answer()
    if answer is None:
        st.info(exact.note(run.key.game_key, game) or explain_trees.COMPUTING_EXACT)
    else:
        st.markdown(explain_trees.exact_answer(answer.game_value, game_value, run.key.opponent is not None))
    if not figures.is_poker(game):
        _infoset_list(run, game, average, current, regrets, answer)
        return
    leduc = isinstance(game.rules, rmcore.LeducRules)
    c1, c2, c3 = st.columns(3)
    player = c1.radio("Player", _seats(game), horizontal=True, key="kuhn_explore_player")
    round_ = c2.radio("Round", [1, 2], horizontal=True, key="kuhn_explore_round") if leduc else 1
    kinds = ["average", "current"] + ([] if answer is None else ["exact (LP)"])
    kind = c3.radio("Strategy", kinds, horizontal=True, key="kuhn_explore_kind")
    names = [
        name
        for k, name in enumerate(game.infosets)
        if game.tree.infoset_player[k] == player - 1 and ("/" in name) == (round_ == 2)
    ]
    policies = {"average": average, "current": current}
    if answer is not None:
        policies["exact (LP)"] = answer.policy
    shown = policies.get(kind, average).probabilities
    live_chart(
        figures.aggression_heatmap(game, shown, names, explain_trees.heatmap_title(player, kind)),
        key="kuhn_heatmap",
        caption=explain_trees.HEATMAP_CAPTION,
        **look,
    )
    _explorer(run, game, names, average, current, regrets, answer)


def _seats(game: rmcore.TreeGame) -> list[int]:
    """The players whose information sets can be chosen: 1 to n."""
    return list(range(1, game.players + 1))


@st.cache_resource(max_entries=64, show_spinner=False)
def _matching(game_key: tuple, player: int, typed: str, _game: rmcore.TreeGame) -> tuple[str, ...]:
    """Player ``player``'s information sets whose names contain ``typed`` (any case), once per game and text on this
    server: the live panel asks on every update, and searching Liar's dice's 24,576 names took a large part of it."""
    owner, typed = _game.tree.infoset_player, typed.lower()
    return tuple(name for k, name in enumerate(_game.infosets) if owner[k] == player - 1 and typed in name.lower())


def _infoset_list(run: LiveRun, game: rmcore.TreeGame, average, current, regrets, answer) -> None:
    """Any game: one player's information sets by name (narrowed by what is typed), and the chosen set's table."""
    c1, c2 = st.columns([1, 3])
    player = c1.radio("Player", _seats(game), horizontal=True, key="kuhn_explore_player")
    typed = c2.text_input(
        "Information sets whose name contains",
        key="kuhn_explore_search",
        help=explain_trees.SEARCH_HELP,
    )
    owner = game.tree.infoset_player
    names = [name for k, name in enumerate(game.infosets) if owner[k] == player - 1 and typed.lower() in name.lower()]
    if not names:
        st.caption(explain_trees.no_infoset_named(player, typed))
        return
    name = st.selectbox(
        explain_trees.infoset_label(len(names), player, LISTED),
        list(names[:LISTED]),
        key="kuhn_explore_infoset",
    )
    if name is None:
        return
    _table(run, game, name, average, current, regrets, answer, "")


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
    _table(run, game, name, average, current, regrets, answer, explain.POKER_INFOSET_NAMES)


def _table(run: LiveRun, game, name: str, average, current, regrets, answer, words: str) -> None:
    """One information set: its current and average strategy, cumulative regrets, the LP's, and how often it is
    reached."""
    k = game.infosets.index(name)
    reach = run.primary.reach_probabilities(current)[k]
    actions = game.actions[k]
    columns = {
        "current": current.probabilities[k, : len(actions)],
        "average": average.probabilities[k, : len(actions)],
        "cumulative regret": regrets[k, : len(actions)],
    }
    if answer is not None:
        columns["exact (LP)"] = answer.policy.probabilities[k, : len(actions)]
    # (st.table renders Markdown in every cell, the index and its name included)
    table = pd.DataFrame(columns, index=pd.Index([escape.markdown(a) for a in actions], name=escape.markdown(name)))
    st.table(table.style.format(precision=4))
    st.caption(explain_trees.reached(name, reach, words))
