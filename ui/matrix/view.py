"""What the matrix page shows about a run: numbers, the live charts, the race and the exact answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import streamlit as st

import rmcore
from rmcore.plotting import matrix as figures
from rmcore.plotting import words as figure_words
from rmcore.plotting.charts import charted, current_traces, race_figure, waiting

from .. import explain, explain_correlated, explain_matrix, export, race_view, state
from ..live import LiveRun, moment_of
from ..live_chart import live_chart
from ..tables import markdown_table
from . import correlated, space
from . import state as matrix_state
from .settings import Display

#: The tutorial notebook the page offers (read when the button is pressed): the regret-matching exercise, checked,
#: and the page's charts live in Jupyter (docs/tutorials/, executed by every build of the documentation).
NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "tutorials" / "regret-matching-exercise.ipynb"
#: Up to this many iterations per update, the regret bars also show what the last update added.
SLOW_STEP = 10
ANSWER_COLUMNS = ("player", "action", "running average", "an exact equilibrium (LP)")
#: Most actions per player in the answer table: a 200x200 game would otherwise make it 15,000 pixels tall.
ANSWER_ROWS = 10


def _answer_rows(running: np.ndarray, exact: np.ndarray) -> list[int]:
    """Every action, or the ``ANSWER_ROWS`` with the most weight in the running average or the LP's answer (in action
    order)."""
    if len(running) <= ANSWER_ROWS:
        return list(range(len(running)))
    return sorted(np.argsort(-np.maximum(running, exact), kind="stable")[:ANSWER_ROWS].tolist())


def _fixed(value: float, digits: int) -> str:
    """``value`` to ``digits`` decimals, without the "-0.000" that rounding a tiny negative gives."""
    return f"{round(value, digits) + 0.0:.{digits}f}"


def draw(run: LiveRun, display: Display, timeline) -> None:
    """The live panel: read every run once, then draw from that one frame (at the replay's iteration, when paused on
    one).

    Every element here is sent again on each screen update of a running page, and with a class on one server each one
    costs the server time on every update (``benchmarks/load.py``): the panel draws no container it does not need.
    """
    solver, game = run.primary, run.primary.game
    running = state.running("matrix")
    look = dict(running=running, projector=state.presenting())
    exact = matrix_state.exact_answer(game)
    if run.iteration == 0:
        _before_the_start(run, exact, look, display)
        return
    frame, history, row, shown_at, metrics, mark, shown = moment_of(run, timeline, display.log_x)
    _numbers(run, metrics, running, shown_at)
    fixed = not solver.is_self_play
    players = ("row",) if fixed else ("row", "col")
    with st.container():  # the main chart, the replay slider under its time axis when paused, and its caption
        live_chart(
            mark(figures.strategy_trajectories(shown, game, log_x=display.log_x, players=players)),
            key="chart_strategies",
            **look,
        )
        timeline.slider(history)
        st.caption(explain.strategies(fixed, solver.variant.algorithm, _drawn_actions(game)))
    average_then = history.policy("average", row)
    equilibrium = game.equilibria[0] if game.equilibria and game.is_zero_sum else None
    if equilibrium is None and exact is not None:
        equilibrium = rmcore.Equilibrium(exact.policy["row"], exact.policy["col"])
    nash = None if equilibrium is not None else matrix_state.nash_equilibria(game)
    if nash is not None and nash.equilibria:  # the star at the equilibrium nearest the averages now
        k, _ = rmcore.nearest_equilibrium(nash.equilibria, average_then["row"], average_then["col"])
        equilibrium = rmcore.Equilibrium(nash.equilibria[k].row, nash.equilibria[k].col)
    moment = None if shown_at is None else (shown_at, average_then["row"], average_then["col"])
    m, n = game.shape
    regrets_row, regrets_col = history.regrets[row, 0, :m], None if fixed else history.regrets[row, 1, :n]
    slow = shown_at is None and run.last_step is not None and run.last_step[0] <= SLOW_STEP
    drawn = solver.last_sampled_actions() if slow and run.last_step[0] == 1 else None

    def simplex() -> None:
        no_field = space.draw(run, frame, display, moment, look)  # the field under the rule, where one applies
        if no_field is None:
            return
        path = figures.simplex_path(shown, game, equilibrium, display.show_current, moment)
        if path is None:
            st.caption(explain.NO_SIMPLEX)
        else:
            live_chart(path, key="chart_simplex", caption=f"{_simplex_words(game, solver)} {no_field}", **look)

    def regrets() -> None:
        bars = figures.regret_bars(
            game,
            regrets_row,
            regrets_col,
            run.last_step[1] if slow else None,
            drawn,
            figure_words.regret_title(solver.variant.algorithm),
        )
        live_chart(bars, key="chart_regrets", caption=explain.regrets(solver.variant.algorithm), **look)

    def convergence() -> None:  # in a race, the race chart: it holds the first variant's curve too
        if run.is_race:
            race = _race_figure(frame, run.race.variants, fixed, display.show_current)
            live_chart(mark(race), key="chart_race", caption=_race_caption(fixed, display), **look)
            return
        bound = figure_words.BOUND_NAMES.get(solver.variant.algorithm)
        figure = figures.convergence(shown, fixed_opponent=fixed, bound=bound, variant=solver.variant)
        words = _convergence_words(solver)
        if figures.shows_joint_play(solver):
            words = f"{words} {explain_correlated.CONVERGENCE_WORDS}"
        live_chart(mark(figure), key="chart_convergence", caption=words, **look)

    _lay_out(run.is_race, simplex, convergence, regrets)
    firsts = ([charted(runs[0]) for runs in frame.histories], run.race.variants) if run.is_race else None
    correlated.draw(solver, int(history.iterations[row]), running and shown_at is None, look, firsts, display.picture)
    # Below the last chart, what comes and goes moves no chart (a chart that moves is mounted afresh, see state.notice).
    if drawn is not None:
        st.caption(_drawn_sentence(game, drawn, solver))
    if run.is_race:
        race_view.table(frame.race, display.rank_by)
    _answer(average_then, solver, metrics, exact)


def _lay_out(race: bool, simplex, convergence, regrets) -> None:
    """The three charts under the strategies, drawn by the callables given, in one order for the live panel and its
    waiting state (a chart that moves is mounted afresh): a race's chart across the page, then the simplex and the
    regret bars side by side; one run's convergence chart beside the simplex, the regret bars under both."""
    if race:
        convergence()
    left, right = st.columns(2)
    with left:
        simplex()
    with right:
        (regrets if race else convergence)()
    if not race:
        regrets()


def _drawn_actions(game: rmcore.MatrixGame) -> int | None:
    """How many actions a player the strategy chart draws when it draws only the averages (a large game), else
    None."""
    return figures.MAX_SHOWN_ACTIONS if max(game.shape) > figures.MAX_SHOWN_ACTIONS else None


def _simplex_words(game: rmcore.MatrixGame, solver: rmcore.MatrixSolver) -> str:
    """The simplex's (or the unit square's) caption: against a fixed opponent, or in self-play by the rule and the
    game."""
    if not solver.is_self_play:
        return explain.SIMPLEX_FIXED
    return explain.simplex(game.is_zero_sum, solver.variant.algorithm, square=game.shape == (2, 2))


def _convergence_words(solver: rmcore.MatrixSolver) -> str:
    """The convergence chart's caption (:func:`ui.explain.convergence`)."""
    return explain.convergence(solver.variant.algorithm, fixed=not solver.is_self_play)


def _race_figure(frame, variants, fixed: bool, show_current: bool) -> dict:
    """The race chart: each variant's average (solid, named with its averaging), and in self-play with
    ``show_current`` its current profile too (dashed, its first seed's when sampled)."""
    if fixed:
        return race_figure(frame.race)
    names = {v.label: figure_words.matrix_curve_name(v, "average") for v in variants}
    extra = []
    if show_current:
        firsts = [charted(runs[0]) for runs in frame.histories]
        extra = current_traces(
            firsts, [figure_words.matrix_curve_name(v, "current") for v in variants], "nash_conv_current"
        )
    return race_figure(frame.race, extra, height=520, names=names)  # (full width: room for a taller plot)


def _race_caption(fixed: bool, display: Display) -> str:
    words = explain.RACE + (" " + explain.MATRIX_RACE_CURRENT if display.show_current and not fixed else "")
    return words if display.lesson is None else f"{words} {display.lesson}"


def _before_the_start(run: LiveRun, exact, look: dict, display: Display) -> None:
    """Iteration 0: the live panel's places, each chart waiting for the first update (its starting regrets drawn), in
    the order :func:`draw` draws them, so that Run only redraws the charts the page has already mounted."""
    solver, game = run.primary, run.primary.game
    try:
        metrics = solver.metrics()
    except (rmcore.KernelsCompiling, rmcore.KernelsUnavailable):  # (a game too large for plain Python, uncompiled)
        metrics = None
    with st.container():
        _numbers(run, metrics, state.running("matrix"), None)
        waiting_for_compile = state.running("matrix") and run.waits_for_compile()
        st.info(
            explain.waiting_for_kernels(run.kernels_problem()) if waiting_for_compile else explain_matrix.PRESS_TO_START
        )
    with st.container():
        live_chart(waiting(figure_words.WAITING_STRATEGIES, 380), key="chart_strategies", **look)
        st.caption(explain.strategies(not solver.is_self_play, solver.variant.algorithm, _drawn_actions(game)))

    def simplex() -> None:
        if space.draw(run, None, display, None, look) is None:
            return  # the field, where the run will start, and where a click would start it
        if not figures.has_simplex(game):
            st.caption(explain.NO_SIMPLEX)
        else:
            caption = _simplex_words(game, solver)
            live_chart(waiting(figure_words.WAITING_SIMPLEX, 420), key="chart_simplex", caption=caption, **look)

    def regrets() -> None:
        start = solver.cumulative_regrets()
        bars = figures.regret_bars(game, *start, title=figure_words.regret_title(solver.variant.algorithm))
        live_chart(bars, key="chart_regrets", caption=explain.regrets(solver.variant.algorithm), **look)

    def convergence() -> None:
        if run.is_race:
            live_chart(waiting(figure_words.WAITING_RACE, 440), key="chart_race", caption=explain.RACE, **look)
        else:
            words = _convergence_words(solver)
            live_chart(waiting(figure_words.WAITING_CONVERGENCE, 420), key="chart_convergence", caption=words, **look)

    _lay_out(run.is_race, simplex, convergence, regrets)
    _answer(None, solver, metrics, exact)  # no average before the first iteration


def export_section(run: LiveRun) -> None:
    """Export (outside the live panel), and the tutorial notebook."""
    export.section("matrix", run)
    if NOTEBOOK.exists():  # (a checkout holds it; a server given the app alone offers none)
        st.download_button(
            explain_matrix.NOTEBOOK_LABEL,
            NOTEBOOK.read_bytes,
            NOTEBOOK.name,
            "application/x-ipynb+json",
            key="matrix_notebook",
            on_click="ignore",
            icon=":material/download:",
            help=explain_matrix.NOTEBOOK_HELP,
        )


def _drawn_sentence(game: rmcore.MatrixGame, drawn: tuple[int, int, int], solver: rmcore.MatrixSolver) -> str:
    """What a sampled iteration drew, and which draw each player's regret update used."""
    a, b, fresh = drawn
    opponent = "the fixed opponent" if not solver.is_self_play else "the column player"
    alternating = solver.is_self_play and solver.variant.updates == "alternating"
    return explain_matrix.drawn(
        game.row_actions[a], opponent, game.col_actions[b], game.row_actions[fresh] if alternating else None
    )


def _numbers(run: LiveRun, metrics: rmcore.Metrics | None, running: bool, shown_at: int | None) -> None:
    """The iteration, the speed, the gap and the value: four metrics, or one compact line in presentation mode
    (``metrics`` None at iteration 0 of a game too large for plain Python while its solver is not compiled)."""
    rate = run.iterations_per_second()
    gap_name = "nash_conv" if run.primary.is_self_play else "learner's best-response gain"
    iteration = f"{run.iteration:,}" if shown_at is None else f"{shown_at:,} (replay; live end {run.iteration:,})"
    speed = "-" if rate is None or not running else f"{rate:,.0f}"
    gap = f"{metrics.gap:.3e}" if run.iteration else "-"
    value = _fixed(metrics.game_value, 5) if run.iteration else "-"  # no average before the first iteration
    if state.presenting():
        st.markdown(explain_matrix.compact_numbers(iteration, gap_name, gap, value, speed))
        return
    with st.container(horizontal=True):  # one block, not five (columns): every block is one more message per update
        note = explain.kernel_note(run.compile_seconds(), run.kernels_problem(), "matrix")
        st.metric("iteration", iteration, delta=note, delta_color="off", delta_arrow="off")
        st.metric("iterations / second", speed)
        st.metric(gap_name, gap)
        st.metric(_value_label(run.primary.game), value, help=explain_matrix.VALUE_HELP)


def _mixed(actions: tuple[str, ...], probabilities) -> str:
    """A mixed strategy in words: the actions played, each with its probability (``Stag 1``, ``Opera 0.6667, Football
    0.3333``); unescaped (a Markdown table escapes its cells)."""
    return ", ".join(f"{action} {p:.4g}" for action, p in zip(actions, probabilities) if p > 1e-12)


def _value_label(game: rmcore.MatrixGame) -> str:
    """In a zero-sum game x̄ᵀAȳ is the game's value to the row player; in a general-sum game only the row player's
    payoff."""
    return "value x̄ᵀAȳ" if game.is_zero_sum else "row player's payoff x̄ᵀAȳ"


def _answer(
    average: rmcore.Policy | None,
    solver: rmcore.MatrixSolver,
    metrics: rmcore.Metrics | None,
    exact: rmcore.ExactSolution | None,
) -> None:
    """The exact answer beside the running averages (``None`` at iteration 0, where there is no average yet, and
    ``metrics`` may be None)."""
    game = solver.game
    heading = "### The answer\n\n"  # in the markdown under it: one element, not two, on every screen update
    if exact is not None:
        rows = []
        for k_player, (who, labels, lp) in enumerate(
            (("row", game.row_actions, exact.policy["row"]), ("column", game.col_actions, exact.policy["col"]))
        ):
            lp = np.asarray(lp)
            running = None if average is None else average["row" if k_player == 0 else "col"]
            shown = _answer_rows(lp if running is None else running, lp)
            rows += [(who, labels[k], "-" if running is None else f"{running[k]:.4f}", f"{lp[k]:.4f}") for k in shown]
        running_value = explain_matrix.NO_AVERAGE_YET if average is None else _fixed(metrics.game_value, 6)
        st.markdown(
            heading
            + explain_matrix.exact_value(_fixed(exact.game_value, 6), running_value)
            + "\n\n"
            + markdown_table(ANSWER_COLUMNS, rows, numeric=[False, False, True, True])
        )
        if max(game.shape) > ANSWER_ROWS:
            st.caption(explain_matrix.answer_rows_shown(ANSWER_ROWS))
        if not solver.is_self_play:
            st.caption(explain_matrix.FIXED_ANSWER)
    elif game.is_zero_sum:
        st.markdown(heading)
        state.show("exact")
    else:
        _nash_answer(heading, average, solver, metrics)


#: Most equilibria tabled (a nondegenerate 8x8 game has at most a few dozen).
EQUILIBRIA_SHOWN = 10
NASH_COLUMNS = ("", "row player", "column player", "payoffs (row, column)", "component", "distance of the averages")


def _nash_answer(heading: str, average, solver: rmcore.MatrixSolver, metrics: rmcore.Metrics) -> None:
    """A general-sum game's Nash equilibria beside the learner: each extreme one, what it pays, the component it
    belongs to, and how far the running averages are from it and from the whole set (a continuum included), with
    the CCE gap regret matching's joint play is bound by."""
    game = solver.game
    found = matrix_state.nash_equilibria(game)
    if found is None or not found.equilibria:
        said = state.message("equilibria")
        reason = "none was found" if said is None else said.text
        st.markdown(heading + explain_matrix.nash_unknown(metrics.cce_gap, reason))
        return
    measured = average is not None and solver.is_self_play
    nearest = closing = None
    if measured:
        nearest, _ = rmcore.nearest_equilibrium(found.equilibria, average["row"], average["col"])
        component, distance = rmcore.equilibrium_distance(found, average["row"], average["col"])
        continuum = len(found.components[component]) > 1
        closing = explain.nash_distance(distance, component + 1, continuum, nearest + 1)
    component_of = {k: c for c, members in enumerate(found.components) for k in members}
    rows = []
    for k, eq in enumerate(found.equilibria[:EQUILIBRIA_SHOWN]):
        far = _distance_to(eq, average) if measured else "-"
        mark = f"{k + 1} (nearest)" if k == nearest else str(k + 1)
        members = found.components[component_of[k]]
        rows.append(
            (
                mark,
                _mixed(game.row_actions, eq.row),
                _mixed(game.col_actions, eq.col),
                f"{eq.row_payoff:.4g}, {eq.col_payoff:.4g}",
                f"{component_of[k] + 1}" + (" (a continuum)" if len(members) > 1 else ""),
                far,
            )
        )
    where = explain.nash_found(found, len(found.equilibria), EQUILIBRIA_SHOWN)
    st.markdown(
        heading
        + explain_matrix.nash_beside(metrics.cce_gap, where)
        + "\n\n"
        + markdown_table(NASH_COLUMNS, rows, numeric=[False, False, False, True, False, True])
        + ("" if closing is None else "\n\n" + closing)
    )


def _distance_to(eq: rmcore.NashEquilibrium, average) -> str:
    row, col = np.asarray(average["row"]), np.asarray(average["col"])
    return f"{max(np.abs(row - eq.row).sum(), np.abs(col - eq.col).sum()) / 2:.4f}"
