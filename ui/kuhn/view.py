"""The Kuhn poker page's sections: settings, the game, the walkthrough and live training."""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

import rmcore
from rmcore.cfr import metrics_at
from rmcore.kuhn import INFOSETS

from .. import state
from ..live import LiveRun, chart_rows
from ..live_chart import live_chart
from .. import explain, race_view
from ..charts import legend_right, mark_iteration, race_figure, waiting
from . import figures

#: Every variant a race can include: the five CFR variants, each alternating or simultaneous.
ALL_VARIANTS = tuple(rmcore.CFRVariant(name, updates) for name, updates in itertools.product(rmcore.CFR_VARIANTS, rmcore.CFR_UPDATES))
VARIANT_HELP = " ".join(f"{name}: {text}" for name, text in rmcore.CFR_VARIANTS.items())


#: The games the page offers: classic Kuhn (with its tree, walkthrough and equilibrium family), Kuhn poker with more
#: cards and another bet, and Leduc hold'em.
GAMES = {"kuhn": "Kuhn poker", "sliders": "Kuhn on sliders", "leduc": "Leduc hold'em"}
GAME_HELP = ("Kuhn poker: 3 cards, the classic (value −1/18), taught step by step. Kuhn on sliders: 3 to 13 cards and a bet "
             "of 0.5 to 4 antes; the exact value and equilibrium follow the sliders. Leduc hold'em: 6 cards, two betting rounds "
             "and a public card (OpenSpiel's leduc_poker, 936 information sets).")  # fmt: skip


class RunSettings(NamedTuple):
    variants: tuple[rmcore.CFRVariant, ...]
    seed: int = 0
    seeds: int = 1
    game: str = "kuhn"
    cards: int = 3
    bet: float = 1.0
    opponent: tuple | None = None  # (the fixed player 1 or 2, ((locked information set, probabilities), ...))

    @property
    def tree_game(self) -> rmcore.TreeGame:
        if self.game == "sliders":
            return rmcore.tree_game("kuhn", cards=self.cards, bet=self.bet)
        return rmcore.tree_game(self.game)

    @property
    def game_key(self) -> tuple:
        return (self.game, self.cards, self.bet)

    def fixed_opponent(self) -> dict | None:
        """The fixed player's whole strategy: the locks, and the exact equilibrium everywhere else."""
        if self.opponent is None:
            return None
        player, locks = self.opponent
        return rmcore.fixed_strategy(self.tree_game, player, exact_answer(self.game_key).policy, dict(locks))


#: Who learns: both players, or one against the other held fixed (the matrix page's "fixed opponent").
OPPONENTS = {"self-play": "Self-play", "2": "Player 2 fixed", "1": "Player 1 fixed"}
OPPONENT_HELP = ("Self-play: both players learn. A fixed player plays the exact equilibrium except at the information sets "
                 "you lock; the other player, the learner, runs CFR alone and learns to exploit the locks.")  # fmt: skip


def settings() -> RunSettings:
    game = st.segmented_control("Game", list(GAMES), format_func=GAMES.get, default="kuhn", key="kuhn_game", bind="query-params", help=GAME_HELP)
    game = game or "kuhn"  # (a segmented control can be clicked off: that keeps the classic)
    cards, bet = 3, 1.0
    if game == "sliders":
        left, right = st.columns(2)
        cards = int(left.slider("Cards", *rmcore.poker.KUHN_CARDS, 4, key="kuhn_cards", bind="query-params",
                                help="How many cards (each player gets one; the higher wins a showdown)."))  # fmt: skip
        bet = float(right.slider("Bet, in antes", *rmcore.poker.KUHN_BETS, 1.0, 0.25, key="kuhn_bet", bind="query-params",
                                 help="The size of a bet or call; each player antes 1."))  # fmt: skip
    opponent = _opponent_settings(RunSettings((), game=game, cards=cards, bet=bet))
    labels = {v.label: v for v in ALL_VARIANTS}
    c1, c2, c3 = st.columns([4, 1, 1])
    chosen = c1.multiselect("Variants (the first is traced and tabled; several race each other)", list(labels), default=[ALL_VARIANTS[0].label],
                            key="kuhn_variants", bind="query-params", help=VARIANT_HELP + " " + " ".join(f"{k}: {v}" for k, v in rmcore.CFR_UPDATES.items()))  # fmt: skip
    seed = int(c2.number_input("Seed", 0, 2**31 - 1, 0, key="kuhn_seed", help="For chance sampling: same seed, same run.", bind="query-params"))
    if not chosen:
        st.error("Choose at least one variant; the last choice stays in use.")
        current = state.live("kuhn")
        return current.key if current is not None else RunSettings((ALL_VARIANTS[0],), seed, 1, game, cards, bet, opponent)
    variants = tuple(labels[label] for label in chosen)
    seeds = 1
    if len(variants) > 1 and any(v.is_sampled for v in variants):
        seeds = int(c3.number_input("Seeds", 1, 20, 5, key="kuhn_seeds", help="Runs per sampled variant: the race draws the median and the min-max band.", bind="query-params"))
    return RunSettings(variants, seed, seeds, game, cards, bet, opponent)


def _opponent_settings(chosen: RunSettings) -> tuple | None:
    """Self-play, or one player fixed: the information sets it is locked at, each with weight sliders (normalised, as the
    matrix page's fixed opponent); at every other set it plays the exact equilibrium."""
    mode = st.radio("Opponent", list(OPPONENTS), format_func=OPPONENTS.get, horizontal=True, key="kuhn_opponent", bind="query-params",
                    help=OPPONENT_HELP)  # fmt: skip
    if mode in (None, "self-play"):
        return None
    player = int(mode)
    game = chosen.tree_game
    names = [name for k, name in enumerate(game.infosets) if game.tree.infoset_player[k] == player - 1]
    default = ["Jp"] if rmcore.is_classic_kuhn(game) and player == 2 else names[:1]  # "player 2 never bluffs with J"
    suffix = "_".join(str(part) for part in chosen.game_key)
    locked = st.multiselect(f"Player {player}'s locked information sets (it plays the exact equilibrium at the others)", names,
                            default=default, key=f"kuhn_locks_{player}_{suffix}", bind="query-params",
                            help="An information set is the player's cards and the betting so far, e.g. Jp: holding J after a pass.")  # fmt: skip
    locks = []
    for name in locked:
        k = game.infosets.index(name)
        actions = game.actions[k]
        columns = st.columns(len(actions))
        weights = [column.slider(f"{name}: weight of {action}", 0, 100, 100 if a == 0 else 0, key=f"kuhn_lock_{suffix}_{k}_{a}",
                                 bind="query-params") for a, (column, action) in enumerate(zip(columns, actions))]  # fmt: skip
        total = sum(weights)
        if total == 0:
            st.error(f"All weights at {name} are zero: give at least one action a positive weight. Until then {name} plays the equilibrium.")
            continue
        locks.append((name, tuple(w / total for w in weights)))
        st.caption(f"At {name} player {player} plays " + " / ".join(f"{action} {w / total:.0%}" for action, w in zip(actions, weights)))
    return (player, tuple(locks))


def _describe(old: RunSettings, new: RunSettings) -> str:
    names = [name for name in RunSettings._fields if getattr(old, name) != getattr(new, name)]
    names = ["the game" if name in ("game", "cards", "bet") else "the fixed opponent" if name == "opponent" else name for name in names]
    return " and ".join(dict.fromkeys(name.replace("variants", "the variants") for name in names)) or "the settings"


def live_run(chosen: RunSettings) -> LiveRun:
    return state.sync_live("kuhn", chosen, lambda: rmcore.Race(chosen.tree_game, chosen.variants, seeds=chosen.seeds, seed=chosen.seed,
                                                               opponent=chosen.fixed_opponent()), _describe)  # fmt: skip


#: While training, the tree's colours are redrawn once a second: its 80 labels made every screen update about a third
#: dearer in the browser (5.5 -> 3.6 updates a second, measured pinned), and its colours change slowly after the start.
TREE_EVERY = 1.0
#: "Show iteration t" re-derives any iteration's trace up to this one (about 0.2 s at 100,000 on a laptop core).
MAX_RETRACE = 100_000
_DEALS = [f"{rmcore.kuhn.CARDS[c1]}·{rmcore.kuhn.CARDS[c2]}" for c1, c2, _ in (rmcore.KUHN.node_labels[s] for s in rmcore.KUHN.tree.deal_start)]


def tree_figure(policy: np.ndarray, iteration: int) -> dict:
    return figures.game_tree(rmcore.KUHN, policy, _DEALS, f"The game tree at iteration {iteration:,}: colour is the current P(bet or call)")


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
    wanted = st.number_input(f"Show iteration t (any t up to {MAX_RETRACE:,}, re-derived from the seed; empty: the last Step +1)",
                             min_value=1, max_value=MAX_RETRACE, value=None, step=1, key="kuhn_show_iteration")  # fmt: skip
    variant = run.race.variants[0]
    if wanted is not None:
        iteration, trace = int(wanted), _retrace(run, int(wanted))
    elif run.trace is not None:
        iteration, trace = run.traced_at, run.trace
    else:
        st.info("Press **Step +1** (or the right arrow key) to see one iteration's numbers here, or choose an iteration above.")
        return
    st.caption(f"Iteration {iteration:,} of {variant.name} ({variant.updates} updates), information set by information set. "
               "Reach and values are sums over the two deals in the set, so a reach can exceed 1.")  # fmt: skip
    # One above the other: side by side, each table was cut off at 1280 px beside the sidebar.
    st.markdown("**Reach and counterfactual values**")
    _trace_table(trace, REACH_AND_VALUES, "kuhn_trace_values")
    st.markdown("**Regrets, regret matching and the average**")
    _trace_table(trace, THE_UPDATE, "kuhn_trace_update")


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
    frame = pd.DataFrame([{"infoset": r.infoset, **{name: read(r) for name, (_, read) in columns.items()}} for r in trace])
    st.dataframe(frame.style.format(precision=4), hide_index=True, key=key, height=(len(frame) + 1) * 35 + 3,  # every row, no scrolling
                 column_config={name: st.column_config.NumberColumn(help=text) for name, (text, _) in columns.items()})  # fmt: skip


def _retrace(run: LiveRun, iteration: int) -> list[rmcore.CFRTrace]:
    """Iteration ``iteration`` of the first run, re-derived (kept for the run, so a rerun does not redo it)."""
    known = st.session_state.get("kuhn_retrace")
    if known is None or known[0] is not run or known[1] != iteration:
        known = (run, iteration, run.primary.retrace(iteration))
        st.session_state.kuhn_retrace = known
    return known[2]


def alpha_sentence(estimate: float, target: float) -> str:
    """The α estimate as it is, and, when it lies outside the family's range, which member the targets use instead."""
    sentence = f"Estimated α = P(bet | J) = **{estimate:.4f}**."
    if estimate != target:
        sentence += (f" That lies outside the equilibrium family's range [0, 1/3] (the average is not an equilibrium yet), "
                     f"so the dashed targets use its nearest member, α = {target:.4f}.")  # fmt: skip
    return sentence


def draw(run: LiveRun, show_current: bool, timeline) -> None:
    """The live panel: read every run once, then draw from that one frame (at the replay's iteration, when paused on one)."""
    look = dict(running=state.running("kuhn"), projector=state.presenting())
    if run.iteration == 0:
        _before_the_start(run, look)
        return
    frame = run.frame()
    history = frame.history
    at = timeline.at(history)
    row = len(history) - 1 if at is None else history.row_at(at)
    shown_at = None if at is None else int(history.iterations[row])
    metrics = metrics_at(history, row)
    _numbers(run, metrics, shown_at)
    mark = (lambda spec: spec) if shown_at is None else (lambda spec: mark_iteration(spec, shown_at))  # noqa: E731
    firsts = [runs[0] for runs in frame.histories]
    labels = [v.label for v in run.race.variants]
    fixed = run.primary.learner is not None
    extra = figures.current_exploitability_traces([h.rows(chart_rows(h.iterations)) for h in firsts], labels) if show_current and not fixed else []
    with st.container():  # on a projector each chart takes the full width, the exploitability first; the replay under both
        left, right = (st.container(), st.container()) if look["projector"] else st.columns(2)
        with left:
            exploitability = race_figure(frame.race, extra, height=420 if look["projector"] else 440)
            live_chart(mark(legend_right(exploitability) if look["projector"] else exploitability), key="kuhn_exploitability",
                       caption=_convergence_caption(run), **look)  # fmt: skip
        with right:
            shown = history.rows(chart_rows(history.iterations))
            game = run.race.game
            classic = rmcore.is_classic_kuhn(game)
            trajectories = figures.infoset_trajectories(shown) if classic else figures.opening_trajectories(
                shown, game.rules)
            words = explain.KUHN_TRAJECTORIES if classic and not fixed else explain.trajectories(classic, fixed)
            live_chart(mark(trajectories), key="kuhn_trajectories", caption=words, **look)
        timeline.slider(history)
    with st.container():  # (there with or without a table: the charts after it keep their place, see state.notice)
        if run.is_race:
            race_view.table(frame.race)
    if fixed:
        _against_the_fixed_opponent(run, history, row, look)
    _policies(run, history.policy("average", row), history.policy("current", row), history.regrets[row], int(history.iterations[row]),
              metrics.game_value, look)  # fmt: skip


def _convergence_caption(run: LiveRun) -> str:
    if run.is_race:
        return explain.RACE
    learner = run.primary.learner
    return explain.KUHN_EXPLOITABILITY if learner is None else explain.cfr_fixed(learner)


@st.cache_resource(max_entries=64, show_spinner=False)
def _exact_response(game_key: tuple, opponent: tuple) -> tuple[rmcore.BestResponse, list[rmcore.Deviation]]:
    """The learner's exact best response to the fixed player, and where it deviates from the equilibrium (once per setup)."""
    chosen = RunSettings((), game=game_key[0], cards=game_key[1], bet=game_key[2], opponent=opponent)
    game, answer = chosen.tree_game, exact_answer(game_key)
    response = rmcore.best_response(game, chosen.fixed_opponent(), learner=3 - opponent[0])
    return response, rmcore.exploiting_deviations(game, response, answer.policy)


#: Most exploiting deviations tabled (Leduc can have hundreds; the largest gains first).
DEVIATIONS_SHOWN = 12


def _against_the_fixed_opponent(run: LiveRun, history: rmcore.History, row: int, look: dict) -> None:
    """The learner's value climbing to the exact best-response value, the gain the locks give away, and the deviations."""
    chosen = run.key
    fixed, locks = chosen.opponent
    learner = 3 - fixed
    sign = 1.0 if learner == 1 else -1.0
    answer = exact_answer(chosen.game_key)
    response, deviations = _exact_response(chosen.game_key, chosen.opponent)
    equilibrium = sign * answer.value
    values = sign * history.metrics["game_value"][: row + 1]
    st.subheader(f"Against the fixed player {fixed}")
    locked = "; ".join(f"{name}: " + " / ".join(f"{a} {p:.0%}" for a, p in zip(run.race.game.actions[run.race.game.infosets.index(name)], probs))
                       for name, probs in locks) or "nothing locked: it plays the equilibrium"  # fmt: skip
    st.markdown(f"Player {fixed} is fixed ({locked}). A best response earns the learner, player {learner}, exactly "
                f"**{response.value:.6f}** a hand; the equilibrium value for player {learner} is {equilibrium:.6f}, so the locks give "
                f"away **{response.value - equilibrium:.6f}** a hand. The learner's average now earns **{values[-1]:.6f}** "
                f"({response.value - values[-1]:.2e} short).")  # fmt: skip
    live_chart(figures.value_against_fixed(history.iterations[: row + 1], values, response.value, equilibrium, learner),
               key="kuhn_fixed_value", caption=explain.CFR_FIXED_VALUE, **look)  # fmt: skip
    if deviations:
        rows = [{"information set": d.infoset, "best response": f"always {d.action}", "equilibrium plays it": f"{d.equilibrium_probability:.0%}",
                 "gain there": d.gain} for d in deviations[:DEVIATIONS_SHOWN]]  # fmt: skip
        st.markdown(f"**The exploiting deviations**: where player {learner}'s best response leaves the equilibrium, largest gain first.")
        st.dataframe(pd.DataFrame(rows).style.format({"gain there": "{:.4f}"}), hide_index=True, key="kuhn_deviations")
        if len(deviations) > DEVIATIONS_SHOWN:
            st.caption(f"The {DEVIATIONS_SHOWN} largest of {len(deviations)}.")
    else:
        st.markdown(f"No deviation from the equilibrium pays: these locks give player {learner} nothing to exploit.")


def _before_the_start(run: LiveRun, look: dict) -> None:
    """Iteration 0: the live panel's places in the order :func:`draw` draws them, the charts over time waiting for the
    first update, so that Run only redraws the charts the page has already mounted (see the matrix page's)."""
    solver = run.primary
    metrics = solver.metrics()
    with st.container():
        _numbers(run, metrics, None)
        st.info("Press **Run** or **Step +1** to start.")
    with st.container():
        left, right = (st.container(), st.container()) if look["projector"] else st.columns(2)
        with left:
            live_chart(waiting("Exploitability (log-log)", 420 if look["projector"] else 440), key="kuhn_exploitability",
                       caption=_convergence_caption(run), **look)  # fmt: skip
        with right:
            live_chart(waiting("Average P(bet) at each information set", 440), key="kuhn_trajectories", caption=explain.KUHN_TRAJECTORIES,
                       **look)  # fmt: skip
    st.container()  # (the race table's place)
    _policies(run, solver.average_policy(), solver.current_policy(), solver.cumulative_regrets(), 0, metrics.game_value, look)


def _policies(run: LiveRun, average: rmcore.Policy, current: rmcore.Policy, regrets: np.ndarray, iteration: int, game_value: float,
              look: dict) -> None:  # fmt: skip
    """The game tree coloured by the current policy, the table of the 12 sets, and the equilibrium check (classic Kuhn);
    for the other games the exact answer, the heat map and the strategy explorer."""
    if not rmcore.is_classic_kuhn(run.race.game):
        _bigger_game(run, average, current, regrets, game_value, look)
        return
    live_chart(tree_figure(current.probabilities, iteration), key="kuhn_tree", every=TREE_EVERY, caption=explain.KUHN_TREE, **look)
    table = pd.DataFrame({
        "player": [1] * 6 + [2] * 6,
        "current P(bet)": current.probabilities[:, 1], "average P(bet)": average.probabilities[:, 1],
        "R(pass)": regrets[:, 0], "R(bet)": regrets[:, 1],
    }, index=pd.Index(INFOSETS, name="infoset"))  # fmt: skip
    st.table(table.style.format(precision=4))
    if run.primary.learner is not None:
        return  # (the equilibrium family is self-play's answer: against a fixed player the learner heads for a best response)
    spec, alpha = figures.equilibrium_check(average)
    live_chart(spec, key="kuhn_equilibrium", caption=explain.KUHN_CHECK, **look)
    st.markdown(alpha_sentence(float(average["J"][1]), alpha) + f" Game value **{game_value:.5f}** against the equilibrium's **{-1 / 18:.5f}** (−1/18).")


@st.cache_resource(max_entries=64, show_spinner=False)
def exact_answer(game_key: tuple) -> rmcore.TreeSolution:
    """The sequence-form LP's value and equilibrium, once per game on this server (Leduc: about 0.2 s)."""
    name, cards, bet = game_key
    return rmcore.solve_tree_game(RunSettings((), game=name, cards=cards, bet=bet).tree_game)


def _game_key(run: LiveRun) -> tuple:
    return run.key.game_key


def _bigger_game(run: LiveRun, average: rmcore.Policy, current: rmcore.Policy, regrets: np.ndarray, game_value: float, look: dict) -> None:
    """Kuhn on sliders and Leduc: the exact answer beside the learner, a heat map of P(bet or raise), and an explorer."""
    game = run.race.game
    answer = exact_answer(_game_key(run))
    st.markdown(f"**The exact answer** (sequence-form linear program, HiGHS): game value for player 1 **{answer.value:.6f}**; "
                f"the learner's average policy gets **{game_value:.6f}** (gap {game_value - answer.value:+.2e}).")  # fmt: skip
    leduc = isinstance(game.rules, rmcore.LeducRules)
    c1, c2, c3 = st.columns(3)
    player = c1.radio("Player", [1, 2], horizontal=True, key="kuhn_explore_player")
    round_ = c2.radio("Round", [1, 2], horizontal=True, key="kuhn_explore_round") if leduc else 1
    kind = c3.radio("Strategy", ["average", "current", "exact (LP)"], horizontal=True, key="kuhn_explore_kind")
    names = [name for k, name in enumerate(game.infosets)
             if game.tree.infoset_player[k] == player - 1 and ("/" in name) == (round_ == 2)]  # fmt: skip
    shown = {"average": average, "current": current, "exact (LP)": answer.policy}[kind].probabilities
    live_chart(figures.aggression_heatmap(game, shown, names, f"P(bet or raise), player {player}, {kind}"), key="kuhn_heatmap",
               caption="Each cell is one information set: the cards its player sees (rows) and the betting so far (columns, only "
                       "where a bet or raise is allowed). Light: it rarely bets; dark blue: it always does.", **look)  # fmt: skip
    _explorer(run, game, names, average, current, regrets, answer)


def _explorer(run: LiveRun, game, names: list[str], average, current, regrets, answer) -> None:
    """One information set: its current and average strategy, cumulative regrets, the LP's, and how often it is reached."""
    rules = game.rules
    seen = list(dict.fromkeys(rules.split(name)[0] for name in names))
    c1, c2 = st.columns(2)
    cards = c1.selectbox("Cards seen", seen, key="kuhn_explore_cards")
    histories = [rules.split(name)[1] for name in names if rules.split(name)[0] == cards]
    bets = c2.selectbox("Betting so far", histories, format_func=lambda h: h or "(first to act)", key="kuhn_explore_history")
    if bets is None or cards is None:
        return
    name = next(n for n in names if rules.split(n) == (cards, bets))
    k = game.infosets.index(name)
    reach = run.primary.reach_probabilities(current)[k]
    actions = game.actions[k]
    table = pd.DataFrame({"current": current.probabilities[k, : len(actions)], "average": average.probabilities[k, : len(actions)],
                          "cumulative regret": regrets[k, : len(actions)], "exact (LP)": answer.policy.probabilities[k, : len(actions)]},
                         index=pd.Index(actions, name=name))  # fmt: skip
    st.table(table.style.format(precision=4))
    st.caption(f"**{name}**: reached with probability {reach:.4f} under the current policy (chance and both players).")


def _numbers(run: LiveRun, metrics: rmcore.CFRMetrics, shown_at: int | None) -> None:
    """Iteration, exploitability and game value: three metrics, or one compact line in presentation mode."""
    iteration = f"{run.iteration:,}" if shown_at is None else f"{shown_at:,} (replay; live end {run.iteration:,})"
    name = run.race.variants[0].name
    gap_name = "exploitability" if metrics.learner is None else "learner's best-response gain"
    if state.presenting():
        st.markdown(f"##### iteration {iteration} · {gap_name} ({name}) {metrics.gap:.3e} · game value {metrics.game_value:.5f}")
        return
    with st.container(horizontal=True):  # one block, not four (columns): each block is one more message per update
        st.metric("iteration", iteration)
        st.metric(f"{gap_name} ({name})", f"{metrics.gap:.3e}")
        classic = rmcore.is_classic_kuhn(run.race.game)
        exact = "The equilibrium value is -1/18 = -0.05556." if classic else "The exact value is under the charts."
        st.metric("game value for player 1", f"{metrics.game_value:.5f}", help=exact)
