"""The poker page's live panel, in the order it is drawn: the numbers (iteration, exploitability, game value), the
exploitability and trajectory charts with the replay slider, the race table, then the sections for the setup at hand:
against a locked player (``fixed.py``), and the policies, which classic Kuhn shows as its tree, table and equilibrium
check (``walkthrough.py``) and the bigger games as their exact answer, heat map and explorer (``explorer.py``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import streamlit as st

import rmcore
from rmcore.plotting import trees as figures
from rmcore.plotting import words as figure_words
from rmcore.plotting.charts import charted, current_traces, legend_right, mark_iteration, race_figure, waiting
from rmcore.trees.cfr import player_values

from .. import explain, explain_trees, race_view, state
from ..live import LiveRun
from ..live_chart import live_chart
from ..tables import markdown_table
from . import explorer, walkthrough
from . import fixed as locked  # (``fixed`` names whether the run has a fixed player)


class Display(NamedTuple):
    """How the live panel draws the run: with each variant's current policy beside its average, which policy ranks a
    race's table (``"average"`` or ``"current"``), and a lesson's words under the exploitability chart (or none)."""

    show_current: bool = True
    rank_by: str = "average"
    lesson: str | None = None
    work: bool = False  # the exploitability chart against the nodes touched rather than the iterations


def draw(run: LiveRun, display: Display, timeline) -> None:
    """The live panel: read every run once, then draw from that one frame (at the replay's iteration, when paused on
    one)."""
    look = dict(running=state.running("kuhn"), projector=state.presenting())
    if run.iteration == 0:
        _before_the_start(run, look)
        return
    frame = run.frame()
    history = frame.history
    row, shown_at = timeline.row(history)
    metrics = run.primary.metrics_at(history, row)
    _numbers(run, metrics, shown_at)
    if not run.key.two_player:
        _players(run.race.game, history.policy("average", row), metrics)
    mark = (lambda spec: spec) if shown_at is None else (lambda spec: mark_iteration(spec, shown_at))  # noqa: E731
    firsts = [runs[0] for runs in frame.histories]
    variants = run.race.variants
    fixed = run.primary.learner is not None
    show_current = display.show_current and not fixed  # (against a fixed player the chart is the learner's gain)
    names = {v.label: figure_words.cfr_curve_name(v, "average") for v in variants} if not fixed else None
    extra = (
        current_traces(
            [charted(h) for h in firsts],
            [figure_words.cfr_curve_name(v, "current") for v in variants],
            "nash_conv_current",
            display.work,
        )
        if show_current
        else []
    )
    with (
        st.container()
    ):  # on a projector each chart takes the full width, the exploitability first; the replay under both
        left, right = (st.container(), st.container()) if look["projector"] else st.columns(2)
        with left:
            unit = figure_words.tree_unit(figures.is_poker(run.race.game))
            height = 420 if look["projector"] else 440
            exploitability = race_figure(frame.race, extra, height=height, names=names, unit=unit, work=display.work)
            if shown_at is not None:  # the replay's line (on the work axis, at the nodes touched by then)
                at = history.metrics["nodes_touched"][row] if display.work else None
                exploitability = mark_iteration(exploitability, shown_at, at)
            live_chart(
                legend_right(exploitability) if look["projector"] else exploitability,
                key="kuhn_exploitability",
                caption=_convergence_caption(run, show_current, display.lesson),
                **look,
            )
        with right:
            shown = charted(history)
            game = run.race.game
            classic = rmcore.is_classic_kuhn(game)
            poker = figures.is_poker(game)
            trajectories = figures.trajectories(shown, game)
            words = _trajectories_caption(run, classic, fixed, poker)
            live_chart(mark(trajectories), key="kuhn_trajectories", caption=words, **look)
        timeline.slider(history)
    with st.container():  # (there with or without a table: the charts after it keep their place, see state.notice)
        if run.is_race:
            race_view.table(frame.race, display.rank_by)
    if fixed:
        locked.section(run, history, row, look)
    _policies(
        run,
        history.policy("average", row),
        history.policy("current", row),
        history.regrets[row],
        int(history.iterations[row]),
        metrics.game_value,
        look,
    )


def _convergence_caption(run: LiveRun, show_current: bool = False, lesson: str | None = None) -> str:
    learner = run.primary.learner
    if run.is_race:
        words = explain.RACE + (" " + explain.RACE_CURRENT if show_current else "")
    elif not run.key.two_player:
        words = explain_trees.NASH_CONV_PLAYERS
    else:
        words = explain.KUHN_EXPLOITABILITY if learner is None else explain.cfr_fixed(learner)
    return words if lesson is None else f"{words} {lesson}"


def _trajectories_caption(run: LiveRun, classic: bool, fixed: bool, poker: bool) -> str:
    if not run.key.two_player:
        return explain_trees.trajectories_players(poker)
    return explain.KUHN_TRAJECTORIES if classic and not fixed else explain.trajectories(classic, fixed, poker)


def _before_the_start(run: LiveRun, look: dict) -> None:
    """Iteration 0: the live panel's places in the order :func:`draw` draws them, the charts over time waiting for the
    first update, so that Run only redraws the charts the page has already mounted (see the matrix page's)."""
    solver = run.primary
    try:
        metrics = solver.metrics()
    except (rmcore.KernelsCompiling, rmcore.KernelsUnavailable):  # (a game too large for plain Python, uncompiled)
        metrics = None
    with st.container():
        _numbers(run, metrics, None)
        waiting_for_compile = state.running("kuhn") and run.waits_for_compile()
        st.info(
            explain.waiting_for_kernels(run.kernels_problem()) if waiting_for_compile else explain_trees.PRESS_TO_START
        )
    with st.container():
        left, right = (st.container(), st.container()) if look["projector"] else st.columns(2)
        with left:
            heading = figure_words.WAITING_EXPLOITABILITY if run.key.two_player else figure_words.WAITING_NASH_CONV
            live_chart(
                waiting(heading, 420 if look["projector"] else 440),
                key="kuhn_exploitability",
                caption=_convergence_caption(run),
                **look,
            )
        with right:
            fixed, classic = run.primary.learner is not None, rmcore.is_classic_kuhn(run.race.game)
            poker = figures.is_poker(run.race.game)
            words = _trajectories_caption(run, classic, fixed, poker)
            heading = figure_words.TRAJECTORIES_POKER if poker else figure_words.TRAJECTORIES_OTHER
            live_chart(waiting(heading, 440), key="kuhn_trajectories", caption=words, **look)
    st.container()  # (the race table's place)
    if metrics is None:
        return  # (the policies' place: drawn with the first iterations)
    _policies(
        run, solver.average_policy(), solver.current_policy(), solver.cumulative_regrets(), 0, metrics.game_value, look
    )


def _policies(
    run: LiveRun,
    average: rmcore.Policy,
    current: rmcore.Policy,
    regrets: np.ndarray,
    iteration: int,
    game_value: float,
    look: dict,
) -> None:
    """The game tree coloured by the current policy, the table of the 12 sets, and the equilibrium check (classic Kuhn);
    for the other games the exact answer, the heat map and the strategy explorer."""
    if not rmcore.is_classic_kuhn(run.race.game):
        explorer.section(run, average, current, regrets, game_value, look)
        return
    walkthrough.policies(run, average, current, regrets, iteration, game_value, look)


def _numbers(run: LiveRun, metrics: rmcore.Metrics | None, shown_at: int | None) -> None:
    """Iteration, NashConv (its half, the exploitability, in the tile's help), what the average policies earn and the
    game's value: four metrics, or one compact line in presentation mode (``metrics`` None: not known yet, while the
    solver compiles)."""
    iteration = f"{run.iteration:,}" if shown_at is None else f"{shown_at:,} (replay; live end {run.iteration:,})"
    name = run.race.variants[0].algorithm
    gap_name = "nash_conv" if run.primary.learner is None else "learner's best-response gain"
    shown = run.iteration if shown_at is None else shown_at
    average = f"{metrics.game_value:.5f}" if shown and metrics is not None else "-"  # (none before iteration 1)
    gap = "-" if metrics is None else f"{metrics.gap:.3e}"
    known = _game_value(run)
    game_value = "-" if known is None else f"{known:.5f}"
    if state.presenting():
        st.markdown(
            explain_trees.compact_numbers(
                iteration,
                f"{gap_name} ({name})",
                gap,
                explain.AVERAGE_VALUE_SHORT,
                average,
                game_value if run.key.two_player else None,
            )
        )
        return
    with st.container(horizontal=True):  # one block, not four (columns): each block is one more message per update
        note = explain.kernel_note(run.compile_seconds(), run.kernels_problem(), "tree")
        st.metric("iteration", iteration, delta=note, delta_color="off", delta_arrow="off")
        half = None if metrics is None or metrics.exploitability is None else explain.exploitability(metrics)
        st.metric(f"{gap_name} ({name})", gap, help=half if run.key.two_player else explain_trees.NASH_CONV_HELP)
        average_help = (
            explain.average_value_help(run.primary.learner)
            if run.key.two_player
            else explain_trees.AVERAGE_VALUE_PLAYERS_HELP
        )
        st.metric(explain.AVERAGE_VALUE, average, help=average_help)
        classic = rmcore.is_classic_kuhn(run.race.game)
        value_help = (
            explain.game_value_help(classic, known is not None)
            if run.key.two_player
            else explain_trees.EXACT_TWO_PLAYERS
        )
        st.metric(explain.GAME_VALUE, game_value, help=value_help)


def _players(game: rmcore.TreeGame, average: rmcore.Policy, metrics: rmcore.Metrics) -> None:
    """A game of three players or more: each player's expected payoff under the average policy, what a best response
    to the others' average policies earns, and the gain (NashConv is their sum)."""
    best, expected = player_values(game, average.probabilities)
    rows = [
        (f"player {p}", f"{e:.5f}", f"{b:.5f}", f"{gain:.3e}")
        for p, (b, e, gain) in enumerate(zip(best, expected, metrics.br_gains), 1)
    ]
    st.markdown(markdown_table(explain_trees.PLAYER_COLUMNS, rows, numeric=[False, True, True, True]))
    st.caption(explain_trees.PLAYERS_TABLE)


def _game_value(run: LiveRun) -> float | None:
    """The game's value for player 1: Kuhn's −1/18, another game's from its exact answer once it is there."""
    if rmcore.is_classic_kuhn(run.race.game):
        return -1 / 18
    answer = run.key.exact_answer()
    return None if answer is None else answer.game_value
