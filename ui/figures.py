"""Plotly figure builders: pure data -> ``go.Figure``. No Streamlit here, so notebooks can use them too.

Every builder takes a solver history (``MatrixSolver.history()``, already bounded to a few hundred
rows) and the game, and returns a figure with a stable layout (fixed ranges and ``uirevision``), so
that a chart redrawn several times a second does not jump.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rmcore import MatrixGame

PLAYER_NAMES = {"row": "Row player", "col": "Column player"}
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
_LAYOUT = dict(margin=dict(l=10, r=10, t=70, b=10), uirevision="keep", legend=dict(orientation="h", y=-0.28))


def _labels(game: MatrixGame, player: str) -> tuple[str, ...]:
    return game.row_actions if player == "row" else game.col_actions


def _panels(count: int, titles) -> dict:
    """Side-by-side panels as axis domains (much cheaper than make_subplots on every redraw)."""
    layout, gap = {}, 0.06
    width = (1 - gap * (count - 1)) / count
    annotations = []
    for k in range(count):
        suffix = "" if k == 0 else str(k + 1)
        left = k * (width + gap)
        layout[f"xaxis{suffix}"] = dict(domain=[left, left + width], anchor=f"y{suffix}")
        layout[f"yaxis{suffix}"] = dict(anchor=f"x{suffix}", **({} if k == 0 else {"matches": "y", "showticklabels": False}))
        annotations.append(dict(text=titles[k], x=left + width / 2, y=1.02, xref="paper", yref="paper", showarrow=False, yanchor="bottom"))
    layout["annotations"] = annotations
    return layout


def strategy_trajectories(history: pd.DataFrame, game: MatrixGame, log_x: bool = True, players=("row", "col")) -> go.Figure:
    """Each action's current (dotted) and average (solid) probability over iterations, one panel per player."""
    players = tuple(players)
    iterations = history["iteration"].to_numpy()
    traces = []
    for panel, player in enumerate(players):
        axes = dict(xaxis="x" if panel == 0 else f"x{panel + 1}", yaxis="y" if panel == 0 else f"y{panel + 1}")
        for k, label in enumerate(_labels(game, player)):
            colour = COLOURS[k % len(COLOURS)]
            group = dict(legendgroup=f"{player}{k}", showlegend=panel == 0, **axes)
            traces.append(go.Scatter(x=iterations, y=history[f"{player}_average[{label}]"].to_numpy(), name=f"{label} (average)",
                                     line=dict(color=colour, width=3), **group))  # fmt: skip
            traces.append(go.Scatter(x=iterations, y=history[f"{player}_current[{label}]"].to_numpy(), name=f"{label} (current)",
                                     line=dict(color=colour, width=1, dash="dot"), opacity=0.6, **group))  # fmt: skip
    layout = _panels(len(players), [PLAYER_NAMES[p] for p in players])
    axis_type = "log" if log_x else "linear"
    for key in [k for k in layout if k.startswith("xaxis")]:
        layout[key].update(type=axis_type, title_text="iteration")
    layout["yaxis"].update(range=[-0.02, 1.02], title_text="probability")
    return go.Figure(traces, layout=dict(title="Strategies: current (dotted) and average (solid)", height=380, **layout, **_LAYOUT))


def simplex_path(history: pd.DataFrame, game: MatrixGame, equilibrium=None, show_current: bool = False) -> go.Figure | None:
    """Where the strategies travel: a ternary simplex for 3-action players, the (x1, y1) square for 2x2.

    Returns ``None`` when neither picture applies.
    """
    m, n = game.shape
    if (m, n) == (2, 2):
        return _unit_square(history, game, equilibrium, show_current)
    three = [p for p, size in (("row", m), ("col", n)) if size == 3]
    if not three:
        return None
    figure = go.Figure()
    for k, player in enumerate(three):
        labels = _labels(game, player)
        kinds = ("average", "current") if show_current else ("average",)
        for kind in kinds:
            columns = [history[f"{player}_{kind}[{label}]"] for label in labels]
            figure.add_trace(
                go.Scatterternary(a=columns[0], b=columns[1], c=columns[2], mode="lines",
                                  name=f"{PLAYER_NAMES[player]}, {kind}",
                                  line=dict(color=COLOURS[k], width=3 if kind == "average" else 1, dash=None if kind == "average" else "dot"))
            )  # fmt: skip
        end = [float(c.iloc[-1]) for c in (history[f"{player}_average[{label}]"] for label in labels)]
        figure.add_trace(go.Scatterternary(a=[end[0]], b=[end[1]], c=[end[2]], mode="markers", marker=dict(size=11, color=COLOURS[k]),
                                           name=f"{PLAYER_NAMES[player]} now", showlegend=False))  # fmt: skip
        if equilibrium is not None:
            point = equilibrium.row if player == "row" else equilibrium.col
            figure.add_trace(go.Scatterternary(a=[point[0]], b=[point[1]], c=[point[2]], mode="markers",
                                               marker=dict(symbol="star", size=16, color="gold", line=dict(color="black", width=1)),
                                               name="equilibrium", showlegend=k == 0))  # fmt: skip
    labels = _labels(game, three[0])
    figure.update_layout(
        title="Average strategy path on the simplex",
        ternary=dict(aaxis_title=labels[0], baxis_title=labels[1], caxis_title=labels[2]),
        height=420, **_LAYOUT,
    )  # fmt: skip
    return figure


def _unit_square(history, game, equilibrium, show_current) -> go.Figure:
    figure = go.Figure()
    x_label, y_label = game.row_actions[0], game.col_actions[0]
    kinds = ("average", "current") if show_current else ("average",)
    for kind in kinds:
        figure.add_trace(go.Scatter(x=history[f"row_{kind}[{x_label}]"], y=history[f"col_{kind}[{y_label}]"], mode="lines",
                                    name=kind, line=dict(width=3 if kind == "average" else 1, dash=None if kind == "average" else "dot")))  # fmt: skip
    figure.add_trace(go.Scatter(x=[history[f"row_average[{x_label}]"].iloc[-1]], y=[history[f"col_average[{y_label}]"].iloc[-1]],
                                mode="markers", marker=dict(size=11), name="now"))  # fmt: skip
    for k, eq in enumerate(game.equilibria if equilibrium is None else [equilibrium]):
        figure.add_trace(go.Scatter(x=[eq.row[0]], y=[eq.col[0]], mode="markers", name="equilibrium", showlegend=k == 0,
                                    marker=dict(symbol="star", size=16, color="gold", line=dict(color="black", width=1))))  # fmt: skip
    figure.update_xaxes(range=[-0.02, 1.02], title_text=f"row plays {x_label}")
    figure.update_yaxes(range=[-0.02, 1.02], title_text=f"column plays {y_label}", scaleanchor="x")
    figure.update_layout(title="Average strategies in the unit square", height=420, **_LAYOUT)
    return figure


def _positive(values: pd.Series) -> np.ndarray:
    """Log axes cannot show zeros: hide them instead of drawing a cliff."""
    array = values.to_numpy(dtype=float, copy=True)
    array[~(array > 0)] = np.nan
    return array


def convergence(history: pd.DataFrame, fixed_opponent: bool = False) -> go.Figure:
    """nash_conv (or the learner's best-response gain), average positive regrets, the RM bound and 1/sqrt(T), log-log."""
    figure = go.Figure()
    t = history["iteration"]
    if fixed_opponent:
        figure.add_trace(go.Scatter(x=t, y=_positive(history["br_gain_row"]), name="best-response gain of the average (learner)", line=dict(width=3, color="black")))
    else:
        figure.add_trace(go.Scatter(x=t, y=_positive(history["nash_conv"]), name="nash_conv of the average profile", line=dict(width=3, color="black")))
    players = ("row",) if fixed_opponent else ("row", "col")
    for k, player in enumerate(players):
        name = PLAYER_NAMES[player].lower()
        figure.add_trace(go.Scatter(x=t, y=_positive(history[f"average_regret_{player}"]), name=f"average positive regret, {name}",
                                    line=dict(color=COLOURS[k])))  # fmt: skip
        figure.add_trace(go.Scatter(x=t, y=history[f"regret_bound_{player}"], name=f"bound: Δ·√(|A|/T), {name}",
                                    line=dict(color=COLOURS[k], dash="dash")))  # fmt: skip
    if len(t):
        guide = 1.0 / np.sqrt(t.to_numpy(dtype=float))
        figure.add_trace(go.Scatter(x=t, y=guide, name="guide: 1/√T", line=dict(color="gray", dash="dot")))
    figure.update_xaxes(type="log", title_text="iteration T")
    figure.update_yaxes(type="log", exponentformat="power", title_text="gap")
    figure.update_layout(title="Convergence of the average (log-log)", height=420, **_LAYOUT)
    return figure


def regret_bars(game: MatrixGame, regrets_row: np.ndarray, regrets_col: np.ndarray | None) -> go.Figure:
    """The cumulative regret of every action now: regret matching plays the positive ones in proportion."""
    panels = [("row", regrets_row)] + ([("col", regrets_col)] if regrets_col is not None else [])
    traces = []
    for panel, (player, regrets) in enumerate(panels):
        suffix = "" if panel == 0 else str(panel + 1)
        colours = [COLOURS[0] if r > 0 else "#bbbbbb" for r in regrets]
        traces.append(go.Bar(x=list(_labels(game, player)), y=regrets, marker_color=colours, showlegend=False, xaxis=f"x{suffix}",
                             yaxis=f"y{suffix}", hovertemplate="%{x}: %{y:.4g}<extra></extra>"))  # fmt: skip
    layout = _panels(len(panels), [PLAYER_NAMES[p] for p, _ in panels])
    if len(panels) == 2:  # regrets of the two players need not share a scale
        layout["yaxis2"] = dict(anchor="x2")
    title = "Cumulative regrets now (only the positive, blue ones are played)"
    return go.Figure(traces, layout=dict(title=title, height=320, **layout, **_LAYOUT))
