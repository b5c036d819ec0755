"""Play against the bot: hands of the page's game against the learner's average strategy (now, or at an earlier
iteration), each revealed afterwards, with the running mean of the student's winnings."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import rmcore
from rmcore.plotting import trees as figures
from rmcore.plotting import words as figure_words
from rmcore.plotting.trees import short_name

from .. import explain_trees, state
from ..escape import markdown as escape
from ..live import LiveRun
from ..live_chart import live_chart
from . import state as trees_state


@dataclass
class Table:
    """The hands played at one setup (game, seat, seed, bot): a new setup starts a new tally."""

    setup: tuple
    hand: rmcore.Hand
    winnings: list[float] = field(default_factory=list)
    best_response: list[float] = field(
        default_factory=list
    )  # a best response's exact expectation against each hand's bot


def _bot(run: LiveRun, at: int | None) -> tuple[int, rmcore.Policy]:
    """The iteration whose average strategy the bot plays (the latest checkpoint at or before ``at``), and that
    policy."""
    solver = run.primary
    if solver.iteration == 0:
        return 0, solver.average_policy()
    history = solver.history()
    row = len(history) - 1 if at is None else history.row_at(max(int(history.iterations[0]), at))
    return int(history.iterations[row]), history.policy("average", row)


def section(run: LiveRun, game_value: float | None) -> None:
    """``game_value``: player 1's exact value of the game (the LP's, None while it is computed), to set the student's
    mean beside."""
    game = run.race.game
    c1, c2, c3 = st.columns(3)
    seat = c1.radio("Your seat", [1, 2], horizontal=True, key="kuhn_play_seat", format_func=lambda p: f"player {p}")
    at = c2.number_input(
        explain_trees.BOT_LABEL,
        min_value=0,
        value=None,
        step=1,
        key="kuhn_play_at",
        help=explain_trees.BOT_HELP,
    )
    seed = int(c3.number_input("Deal seed", 0, 2**31 - 1, 0, key="kuhn_play_seed", help=explain_trees.DEAL_SEED_HELP))
    bot_iteration, bot = _bot(run, None if at is None else int(at))
    setup = (run.key.game_key, seat, seed, bot_iteration if at is not None else "now")
    table: Table | None = st.session_state.kuhn_play
    if table is None or table.setup != setup or table.hand.game is not game:
        table = Table(setup, rmcore.Hand(game, bot, seat, seed, 0))
        trees_state.set_play_table(table)
    untouched = not table.hand.is_over and all(who != "you" for who, _ in table.hand.steps)
    if untouched and not np.array_equal(table.hand.policy, bot.probabilities):
        table.hand = rmcore.Hand(
            game, bot, seat, seed, table.hand.number
        )  # (a hand not yet begun meets the bot as it is now)
    hand = table.hand
    when = f"now (iteration {bot_iteration:,})" if at is None else f"at iteration {bot_iteration:,}"
    poker = hand.rules is not None
    if poker:
        knows = f"your card{'s' if ' ' in hand.your_cards else ''}: **{escape(hand.your_cards)}**"
    elif hand.is_over:
        knows = "the hand is over"
    else:  # the information set's name is what the seat knows (its own moves, what it saw of chance and the other)
        knows = f"your information set: **{escape(short_name(hand.your_cards, 200))}**"
    st.markdown(explain_trees.hand(hand.number + 1, when, seat, knows))
    if hand.steps and (poker or hand.is_over):  # (a general game may hide the bot's moves: shown after the hand)
        said = " · ".join(f"{who} {escape(what)}" for who, what in hand.steps)
        st.markdown(("Betting: " if poker else "The hand: ") + said)
    elif hand.steps:
        st.markdown("Your moves: " + " · ".join(escape(what) for who, what in hand.steps if who == "you"))
    if not hand.is_over:
        with st.container(horizontal=True):
            for action in hand.legal_actions:
                st.button(escape(action), key=f"kuhn_play_{action}", on_click=_act, args=(action,))
    else:
        won = hand.winnings
        held = f"The bot held **{escape(hand.bot_cards)}**. " if poker else ""
        st.markdown(
            f"**You {'won' if won > 0 else 'lost' if won < 0 else 'split the pot:'} {abs(won):g}**. {held}"
            + " ".join(
                f"At {escape(short_name(m.infoset))} it chose {escape(m.action)} (probability {m.probability:.2f})."
                for m in hand.bot_moves
            )
        )
        st.button("Next hand", key="kuhn_play_next", on_click=_next_hand, args=(run, bot), type="primary")
    _tally(table, None if game_value is None else game_value * (1 if seat == 1 else -1))


def _act(action: str) -> None:
    table: Table = st.session_state.kuhn_play
    table.hand.play(action)
    if table.hand.is_over:
        seat = table.hand.player
        table.winnings.append(table.hand.winnings)
        table.best_response.append(rmcore.best_response(table.hand.game, table.hand.policy, seat).value)


def _next_hand(run: LiveRun, bot: rmcore.Policy) -> None:
    table: Table = st.session_state.kuhn_play
    table.hand = rmcore.Hand(run.race.game, bot, table.hand.player, table.hand.seed, table.hand.number + 1)


def _tally(table: Table, value: float | None) -> None:
    if not table.winnings:
        st.caption(explain_trees.TALLY_FIRST)
        return
    wins = np.asarray(table.winnings)
    n = np.arange(1, wins.shape[0] + 1)
    means = np.cumsum(wins) / n
    half = np.array([rmcore.running_mean(wins[:k]).half_width for k in n])
    best = np.cumsum(table.best_response) / n
    summary = rmcore.running_mean(wins)
    band = f" ± {summary.half_width:.2f} (95%)" if summary.hands > 1 else ""
    st.markdown(explain_trees.tally(summary.hands, summary.mean, band, value, best[-1]))
    live_chart(
        figures.winnings(
            n,
            means,
            np.nan_to_num(half),
            best,
            math.nan if value is None else value,
            figure_words.tree_unit(table.hand.rules is not None),
        ),
        key="kuhn_play_chart",
        projector=state.presenting(),
    )
