"""Plotly figures for the Kuhn poker page: pure data -> ``go.Figure``, no Streamlit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rmcore.kuhn import INFOSETS, equilibrium_policy

from .figures import COLOURS

# Where each information set sits: x by card within its public history, y by depth.
_GROUPS = {"": (0.0, 3.0), "p": (-2.2, 2.0), "b": (2.2, 2.0), "pb": (-2.2, 1.0)}
_LAYOUT = dict(margin=dict(l=10, r=10, t=50, b=10), uirevision="keep")


def _position(name: str) -> tuple[float, float]:
    card, history = name[0], name[1:]
    centre, level = _GROUPS[history]
    return centre + 0.6 * ("JQK".index(card) - 1), level


def game_tree(policy: dict[str, list[float]], reach: dict[str, float]) -> go.Figure:
    """The 12 information sets grouped by public history, coloured by the probability of betting.

    Hover shows each set's reach probability and current strategy. Arrows are the public actions.
    """
    figure = go.Figure()
    edges = [("", "p", "pass"), ("", "b", "bet"), ("p", "pb", "bet")]
    for start, end, label in edges:
        (x0, y0), (x1, y1) = _GROUPS[start], _GROUPS[end]
        figure.add_annotation(x=x1, y=y1 + 0.35, ax=x0, ay=y0 - 0.35, xref="x", yref="y", axref="x", ayref="y",
                              showarrow=True, arrowhead=2, arrowcolor="#888", text="")  # fmt: skip
        figure.add_annotation(x=(x0 + x1) / 2 + (0.3 if x0 == x1 else 0), y=(y0 + y1) / 2 + 0.08, text=label, showarrow=False,
                              font=dict(color="#666"))  # fmt: skip
    for history, (x, y) in _GROUPS.items():
        who = "player 1" if len(history) % 2 == 0 else "player 2"
        shown = history or "start"
        figure.add_shape(type="rect", x0=x - 1.0, x1=x + 1.0, y0=y - 0.3, y1=y + 0.3, line=dict(color="#bbb", dash="dot"))
        figure.add_annotation(x=x, y=y + 0.42, text=f"{who} after '{shown}'", showarrow=False, font=dict(size=11))
    names = list(INFOSETS)
    xs, ys = zip(*(_position(n) for n in names))
    bets = [policy[n][1] for n in names]
    hover = [f"<b>{n}</b><br>reach probability {reach[n]:.4f}<br>pass {policy[n][0]:.3f} · bet {policy[n][1]:.3f}" for n in names]
    figure.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text", text=names, textposition="middle center",
                                marker=dict(size=38, color=bets, cmin=0, cmax=1, colorscale="RdBu_r", line=dict(color="black", width=1),
                                            colorbar=dict(title="P(bet)", thickness=12)),
                                hovertext=hover, hoverinfo="text", textfont=dict(color="black"), showlegend=False))  # fmt: skip
    figure.add_annotation(x=2.2, y=1.0, text="terminal histories:<br>pp showdown ±1<br>bp, pbp fold ±1<br>bb, pbb showdown ±2",
                          showarrow=False, align="left", font=dict(size=11, color="#666"))  # fmt: skip
    figure.update_xaxes(visible=False, range=[-3.6, 3.6])
    figure.update_yaxes(visible=False, range=[0.4, 3.6])
    figure.update_layout(title="The 12 information sets (colour: probability of betting now)", height=380, **_LAYOUT)
    return figure


def exploitability(histories: dict[str, pd.DataFrame], show_current: bool = True) -> go.Figure:
    """Exploitability of the average (solid) and current (dotted) policy per variant, log-log."""
    figure = go.Figure()
    for k, (variant, history) in enumerate(histories.items()):
        colour = COLOURS[k % len(COLOURS)]
        figure.add_trace(go.Scatter(x=history["iteration"], y=history["exploitability"], name=f"{variant}: average policy",
                                    line=dict(color=colour, width=3)))  # fmt: skip
        if show_current:
            figure.add_trace(go.Scatter(x=history["iteration"], y=history["exploitability_current"], name=f"{variant}: current policy",
                                        line=dict(color=colour, width=1, dash="dot")))  # fmt: skip
    if histories:
        t = max(h["iteration"].iloc[-1] for h in histories.values() if len(h))
        grid = np.geomspace(1, max(t, 2), 50)
        figure.add_trace(go.Scatter(x=grid, y=0.458 / np.sqrt(grid), name="guide: 1/√T", line=dict(color="gray", dash="dash")))
    figure.update_xaxes(type="log", title_text="iteration")
    figure.update_yaxes(type="log", exponentformat="power", title_text="exploitability (NashConv / 2)")
    figure.update_layout(title="Exploitability", height=420, legend=dict(orientation="h", y=-0.25), **_LAYOUT)
    return figure


def infoset_trajectories(history: pd.DataFrame) -> go.Figure:
    """Each information set's average probability of betting over iterations."""
    figure = go.Figure()
    for k, name in enumerate(INFOSETS):
        figure.add_trace(go.Scatter(x=history["iteration"], y=history[f"average_bet[{name}]"], name=name,
                                    line=dict(color=COLOURS[k % len(COLOURS)], dash="solid" if k < 6 else "dot")))  # fmt: skip
    figure.update_xaxes(type="log", title_text="iteration")
    figure.update_yaxes(range=[-0.02, 1.02], title_text="average P(bet)")
    figure.update_layout(title="Average strategies (solid: player 1, dotted: player 2)", height=420, **_LAYOUT)
    return figure


def equilibrium_check(average: dict[str, list[float]]) -> tuple[go.Figure, float]:
    """Bars of the average P(bet) with dashed targets from the equilibrium family at alpha = P(bet | J)."""
    alpha = float(np.clip(average["J"][1], 0.0, 1.0 / 3.0))
    target = equilibrium_policy(alpha)
    names = list(INFOSETS)
    figure = go.Figure()
    figure.add_trace(go.Bar(x=names, y=[average[n][1] for n in names], name="average P(bet)", marker_color=COLOURS[0]))
    for k, name in enumerate(names):
        figure.add_shape(type="line", x0=k - 0.45, x1=k + 0.45, y0=target[name][1], y1=target[name][1], line=dict(color="black", dash="dash", width=2))
    figure.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=dict(color="black", dash="dash"), name=f"equilibrium target at α = {alpha:.3f}"))
    figure.update_yaxes(range=[0, 1.05], title_text="P(bet)")
    figure.update_layout(title="Equilibrium check: bet J with α, K with 3α, call Qpb with α + 1/3; player 2 fixed", height=380,
                         legend=dict(orientation="h", y=-0.2), **_LAYOUT)  # fmt: skip
    return figure, alpha
