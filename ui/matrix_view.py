"""What the matrix page shows about a run: numbers, the four live charts and the exact answer."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import rmcore

from . import figures
from .live_chart import live_chart
from .live_run import UPDATE_INTERVAL, LiveRun


@st.cache_data(show_spinner=False, max_entries=32)
def _exact_answer(payoffs: bytes, shape: tuple[int, int]) -> rmcore.ZeroSumSolution:
    matrix = np.frombuffer(payoffs, dtype=np.float64).reshape(shape)
    return rmcore.solve_zero_sum(rmcore.MatrixGame(matrix))


def exact_answer(game: rmcore.MatrixGame) -> rmcore.ZeroSumSolution | None:
    """The LP value and an equilibrium of a zero-sum game (cached per matrix), else None."""
    if not game.is_zero_sum:
        return None
    return _exact_answer(game.row_payoffs.tobytes(), game.shape)


def _fixed(value: float, digits: int) -> str:
    """``value`` to ``digits`` decimals, without the "-0.000" that rounding a tiny negative gives."""
    return f"{round(value, digits) + 0.0:.{digits}f}"


def live_panel(run: LiveRun, speed: int | None, log_x: bool, show_current: bool) -> None:
    """Advance and redraw in a fragment that reruns every UPDATE_INTERVAL seconds while running."""

    @st.fragment(run_every=UPDATE_INTERVAL if run.running else None)
    def panel():
        if run.running:
            run.tick(speed)
        _draw(run, log_x, show_current)

    panel()


def _draw(run: LiveRun, log_x: bool, show_current: bool) -> None:
    solver, game = run.solver, run.game
    # While running, draw static charts: no hover or zoom layers to rebuild on every update, which
    # is most of the browser's work per update. Paused charts are fully interactive.
    config = {"staticPlot": True} if run.running else {"displaylogo": False}
    metrics = solver.metrics()
    exact = exact_answer(game)  # once per update: the cache hashes the whole payoff matrix on every call
    rate = run.iterations_per_second()
    gap_name = "nash_conv" if metrics.nash_conv is not None else "learner's best-response gain"
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("iteration", f"{solver.iteration:,}")
    c2.metric("iterations / second", "-" if rate is None or not run.running else f"{rate:,.0f}")
    c3.metric(gap_name, f"{metrics.gap:.3e}" if solver.iteration else "-")
    c4.metric("value x̄ᵀAȳ", _fixed(metrics.value, 5))
    if solver.iteration == 0:
        st.info("Press **Run** or a **Step** button to start learning.")
        _answer(run, metrics, exact)
        return
    history = solver.history()
    fixed = not solver.is_self_play
    players = ("row",) if fixed else ("row", "col")
    live_chart(figures.strategy_trajectories(history, game, log_x=log_x, players=players), key="chart_strategies", config=config)
    left, right = st.columns(2)
    with left:
        equilibrium = game.equilibria[0] if game.equilibria else None
        if equilibrium is None and exact is not None:
            equilibrium = rmcore.Equilibrium(exact.row_strategy, exact.col_strategy)
        path = figures.simplex_path(history, game, equilibrium, show_current)
        if path is None:
            st.caption("The simplex picture is drawn for players with 3 actions, and the unit square for 2x2 games.")
        else:
            live_chart(path, key="chart_simplex", config=config)
    with right:
        live_chart(figures.convergence(history, fixed_opponent=fixed), key="chart_convergence", config=config)
    regrets = solver.cumulative_regrets()
    live_chart(figures.regret_bars(game, regrets.row, regrets.col), key="chart_regrets", config=config)
    _answer(run, metrics, exact)


def _answer(run: LiveRun, metrics: rmcore.MatrixMetrics, exact: rmcore.ZeroSumSolution | None) -> None:
    game, solver = run.game, run.solver
    average = solver.average_strategies()
    st.subheader("The answer")
    if exact is not None:
        st.markdown(f"Exact value by linear programming: **{_fixed(exact.value, 6)}**; running value x̄ᵀAȳ = {_fixed(metrics.value, 6)}.")
        rows = [("row", label, average.row[k], exact.row_strategy[k]) for k, label in enumerate(game.row_actions)]
        rows += [("column", label, average.col[k], exact.col_strategy[k]) for k, label in enumerate(game.col_actions)]
        table = pd.DataFrame(rows, columns=["player", "action", "running average", "an exact equilibrium (LP)"])
        st.table(table.set_index(["player", "action"]).style.format("{:.4f}"))
        if not solver.is_self_play:
            st.caption("Against a fixed opponent the learner converges to a best response, not to the equilibrium.")
    elif game.equilibria:
        st.markdown("General-sum game: regret matching's joint play approaches a coarse correlated equilibrium "
                    f"(CCE gap now {metrics.cce_gap:.3e}); the averages need not approach a Nash equilibrium. Known equilibria:"
                    if metrics.cce_gap is not None else "Known equilibria:")  # fmt: skip
        st.dataframe(pd.DataFrame([{"row": eq.row, "column": eq.col} for eq in game.equilibria]), hide_index=True)
    else:
        st.markdown("General-sum game: no exact answer is computed; watch the CCE gap and nash_conv instead.")
