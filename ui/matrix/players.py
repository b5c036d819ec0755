"""The matrix page for a game of three players or more: its payoffs edited slice by slice, where learning starts, and
the live panel (each player's strategies, the profile in the cube of their simplices, NashConv beside the CE and CCE
gaps of the joint play, a race's chart and table).

A game of n players has no exact answer on the page (the LP is two-player zero-sum), no field under the rule and no
fixed opponent here (``rmcore.MatrixSolver(game, opponent={3: weights})`` fixes players from Python).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import streamlit as st

import rmcore
from rmcore.plotting import matrix as figures
from rmcore.plotting.charts import race_figure

from .. import explain_matrix, explain_players, export, race_view, state
from ..escape import markdown as escape
from ..live import LiveRun, moment_of
from ..live_chart import live_chart
from . import state as matrix_state

#: The editor's tables: at most this many actions for players 1 and 2 (a table's rows and columns) and this many
#: slices (the joint actions of players 3 to n); a larger game is played as it was loaded.
EDITOR_ACTIONS = 10
EDITOR_SLICES = 16


def _number(value: float) -> str:
    return f"{value:g}"


def _slice_title(game: rmcore.NormalFormGame, profile: tuple[int, ...]) -> str:
    """The slice of the joint action ``profile`` of players 3 to n, in words (``player 3 plays Heads``)."""
    return ", ".join(f"player {p} plays {game.actions[p - 1][a]}" for p, a in enumerate(profile, 3))


def _slice_table(game: rmcore.NormalFormGame, profile: tuple[int, ...]) -> pd.DataFrame:
    """One slice as the editor shows it: rows player 1's actions, columns player 2's, each cell every player's payoff
    (``u1, u2, ..., un``)."""
    rows, cols = game.shape[:2]
    cells = [
        [", ".join(_number(float(payoffs[(r, c, *profile)])) for payoffs in game.payoffs) for c in range(cols)]
        for r in range(rows)
    ]
    return pd.DataFrame(cells, index=list(game.actions[0]), columns=list(game.actions[1]))


def _read_cell(text, players: int, where: str) -> list[float]:
    """A cell's ``players`` payoffs, or ``ValueError`` naming the cell and what it holds."""
    parts = [part.strip() for part in str(text if text is not None else "").split(",")]
    try:
        values = [float(part) for part in parts]
    except ValueError:
        values = []
    if len(values) != players or not all(math.isfinite(v) for v in values):
        raise ValueError(
            f"the cell {where} holds {escape(str(text))!r}; each cell is {players} numbers, every player's payoff in "
            "order, separated by commas"
        )
    return values


def game_from_slices(game: rmcore.NormalFormGame, tables: dict[tuple[int, ...], pd.DataFrame]) -> rmcore.NormalFormGame:
    """The game the edited slices describe (``tables`` by joint action of players 3 to n), with ``game``'s actions
    and players; ``ValueError`` names the first cell it cannot read."""
    payoffs = np.zeros((game.num_players, *game.shape))
    for profile, table in tables.items():
        for r, row_name in enumerate(game.actions[0]):
            for c, col_name in enumerate(game.actions[1]):
                where = f"({row_name}, {col_name}) where {_slice_title(game, profile)}"
                payoffs[(slice(None), r, c, *profile)] = _read_cell(table.iat[r, c], game.num_players, where)
    name = game.name if game.name.endswith("(edited)") else f"{game.name} (edited)"
    return rmcore.NormalFormGame(list(payoffs), game.actions, name, players=game.players)


def editor(game: rmcore.NormalFormGame) -> None:
    """The payoffs slice by slice: one table per joint action of players 3 to n, rows player 1's actions and columns
    player 2's, each cell every player's payoff; Apply loads the game, and a cell it cannot read is named under the
    tables (what was typed stays)."""
    slices = list(itertools.product(*(range(a) for a in game.shape[2:])))
    if max(game.shape[:2]) > EDITOR_ACTIONS or len(slices) > EDITOR_SLICES:
        st.caption(explain_players.too_large_to_edit(game.shape, EDITOR_ACTIONS, EDITOR_SLICES))
        return
    version = matrix_state.player_editor_version()
    with st.expander(explain_players.EDITOR_TITLE, expanded=False):
        st.caption(explain_players.editor_help(game.num_players))
        tables = {}
        for profile in slices:
            st.markdown(f"**{escape(_slice_title(game, profile))}**")
            tables[profile] = st.data_editor(
                _slice_table(game, profile),
                key=f"slice_{version}_{'_'.join(map(str, profile))}",
                width="stretch",
            )
        if st.button("Apply edits", key="apply_players", type="primary"):
            try:
                edited = game_from_slices(game, tables)
            except ValueError as error:
                state.say("editor", explain_matrix.not_applied(error))
            else:
                if all(np.array_equal(a, b) for a, b in zip(edited.payoffs, game.payoffs)):
                    state.say("editor", explain_matrix.NOTHING_CHANGED, "info", once=True)
                else:
                    matrix_state.load_game(edited, from_preset=False)
                    st.rerun()
        state.show("editor")


def fixed_section(game: rmcore.NormalFormGame) -> tuple[tuple[int, tuple[float, ...]], ...] | None:
    """Self-play (None), or some players fixed at mixed strategies from their sliders while the others learn, as
    ``((player, weights), ...)`` (the solver's ``opponent={player: weights, ...}``). At least one player learns; two
    or more learners keep a NashConv of their own (the sum of their gains)."""
    st.subheader("Opponents")
    names = [f"player {p}" for p in range(1, game.num_players + 1)]
    chosen = st.multiselect(
        "Fix players",
        names,
        key="fixed_player",
        bind="query-params",
        max_selections=game.num_players - 1,
        placeholder="nobody: every player learns",
        help=explain_players.FIXED_HELP,
    )
    fixed = []
    for player in sorted(int(name.split()[-1]) for name in chosen):
        actions = game.actions[player - 1]
        weights = _weight_sliders(player, actions, "fixed")
        if sum(weights) == 0:
            st.error(explain_players.fixed_weights_zero(player))
            return None
        st.caption(explain_players.fixed_words(player, actions, weights))
        fixed.append((player, tuple(float(w) for w in weights)))
    return tuple(fixed) or None


def _weight_sliders(player: int, actions, purpose: str) -> list[int]:
    """One slider per action of ``player`` (weights 0 to 100, 50 each at first), side by side and kept in the link as
    ``{purpose}_p{player}_{number of actions}_{action}``: a fixed player's strategy or a player's start."""
    columns = st.columns(len(actions))
    return [
        column.slider(
            f"Player {player}: {escape(action)}",
            0,
            100,
            50,
            key=f"{purpose}_p{player}_{len(actions)}_{k}",
            bind="query-params",
        )
        for k, (column, action) in enumerate(zip(columns, actions))
    ]


def start_section(game: rmcore.NormalFormGame) -> tuple[tuple[float, ...], ...] | None:
    """Where learning starts: the preset's suggestion (``game.start``), uniform play, or each player's first strategy
    from sliders (kept in the link)."""
    suggested = game.start
    with st.expander("Where learning starts", expanded=suggested is not None):
        choices = {"suggested": "the preset's suggestion"} if suggested else {}
        choices.update(uniform="uniform", custom="my own, with sliders")
        choice = st.radio(
            "Start",
            list(choices),
            format_func=choices.get,
            key="player_start_mode",
            horizontal=True,
            bind="query-params",
            help=explain_players.START_HELP,
        )
        if choice == "suggested":
            st.caption(explain_players.start_words(game, suggested))
            return suggested
        if choice == "uniform":
            return None
        start = []
        for player, actions in enumerate(game.actions, 1):
            weights = _weight_sliders(player, actions, "start")
            if sum(weights) == 0:
                st.error(explain_players.start_weights_zero(player))
                return None
            start.append(tuple(float(w) for w in weights))
        return tuple(start)


#: The lesson of three-player matching pennies: regret matching from the suggested start, alone (its convergence chart
#: holds NashConv and the CCE gap together).
LESSON_PRESET = "matching-pennies-3p"


def _start_lesson() -> None:
    """The lesson button's callback: its values into the widgets before they are drawn, and its game loaded."""
    state.set_widgets(
        {
            "preset": LESSON_PRESET,
            "algorithm": "rm",
            "sampling": "expected",
            "averaging": "uniform",
            "race_variants": [],
            "player_start_mode": "suggested",
            "fixed_player": [],
            "log_x": True,
        }
    )
    matrix_state.load_game(rmcore.preset(LESSON_PRESET), from_preset=True)


def lesson_button() -> None:
    """The lesson of Jordan's three-player matching pennies: Nash equilibrium out of reach, the coarse correlated
    equilibria not (the words under its convergence chart, :func:`ui.explain_players.convergence`)."""
    st.button(
        explain_players.LESSON_TITLE,
        key="players_lesson",
        on_click=_start_lesson,
        help=explain_players.LESSON_HELP,
        icon=":material/school:",
    )


def refusal(primary: rmcore.MatrixVariant) -> str | None:
    """Why ``primary`` cannot run on a game of three players or more (extragradient RM+ evaluates two players at one
    profile), or None."""
    return explain_players.TWO_PLAYER_RULE if primary.algorithm == "exrm+" else None


def draw(run: LiveRun, display, timeline) -> None:
    """The live panel of a game of three players or more, read from one frame of the run."""
    solver, game = run.primary, run.primary.game
    running = state.running("matrix")
    look = dict(running=running, projector=state.presenting())
    if run.iteration == 0:
        _numbers(run, None, running, None)
        st.info(explain_players.BEFORE_THE_START)
        return
    frame, history, _, shown_at, metrics, mark, shown = moment_of(run, timeline, display.log_x)
    _numbers(run, metrics, running, shown_at)
    with st.container():
        live_chart(
            mark(figures.strategy_trajectories(shown, game, log_x=display.log_x, players=history.infosets)),
            key="chart_strategies",
            **look,
        )
        timeline.slider(history)
        st.caption(explain_players.STRATEGIES)
    if run.is_race:
        race = race_figure(frame.race, height=520)
        live_chart(mark(race), key="chart_race", caption=explain_players.RACE, **look)
    left, right = st.columns(2)
    with left:
        cube = figures.player_cube(shown, game, display.show_current)
        triangles = None if cube is not None else figures.player_triangles(shown, game, display.show_current)
        if cube is not None:
            live_chart(cube, key="chart_cube", caption=explain_players.CUBE, **look)
        elif triangles is not None:
            live_chart(triangles, key="chart_triangles", caption=explain_players.TRIANGLES, **look)
        else:
            st.caption(explain_players.NO_SIMPLEX)
    with right:
        figure = figures.convergence(shown, variant=solver.variant, bound=None)
        live_chart(mark(figure), key="chart_convergence", caption=explain_players.convergence(game, shown), **look)
    if run.is_race:
        race_view.table(frame.race, display.rank_by)


def _numbers(run: LiveRun, metrics, running: bool, shown_at: int | None) -> None:
    """The iteration, the speed, NashConv (or, where one player alone learns, its best-response gain) and the CCE gap
    of the joint play."""
    rate = run.iterations_per_second()
    iteration = f"{run.iteration:,}" if shown_at is None else f"{shown_at:,} (replay; live end {run.iteration:,})"
    speed = "-" if rate is None or not running else f"{rate:,.0f}"
    measure, measured, measure_help = "nash_conv", None, explain_players.NASH_CONV_HELP
    if metrics is not None:  # (the run's own measure: NashConv, or where one player alone learns its gain)
        measured = metrics.gap
        if metrics.learner is not None:
            measure, measure_help = f"player {metrics.learner}'s gain", explain_players.LEARNER_GAIN_HELP
    cce = "-" if metrics is None or metrics.cce_gap is None else f"{metrics.cce_gap:.3e}"
    with st.container(horizontal=True):
        st.metric("iteration", iteration)
        st.metric("iterations / second", speed)
        st.metric(measure, "-" if measured is None else f"{measured:.3e}", help=measure_help)
        fixed = run.primary.opponent is not None
        st.metric("CCE gap", cce, help=explain_players.CCE_FIXED_HELP if fixed else explain_players.CCE_HELP)


def export_section(run: LiveRun) -> None:
    """The page's Export (every run's history as CSV, the setup, the reproducibility bundle, whose command reruns the
    race on the bundle's ``game.nfg``)."""
    export.section("matrix", run)
