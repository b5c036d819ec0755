"""The Kuhn poker page's figures: policies and histories -> Plotly figure dicts. No Streamlit here."""

from __future__ import annotations

import numpy as np

import rmcore
from rmcore.kuhn import INFOSETS, equilibrium_policy

from ..charts import COLOURS, figure, log_ticks, positive, title

# Where each information set sits: x by card within its public history, y by depth.
_GROUPS = {"": (0.0, 3.0), "p": (-2.2, 2.0), "b": (2.2, 2.0), "pb": (-2.2, 1.0)}
_PLAIN = dict(margin=dict(l=10, r=10, t=50, b=10))


def _position(name: str) -> tuple[float, float]:
    card, history = name[0], name[1:]
    centre, level = _GROUPS[history]
    return centre + 0.6 * ("JQK".index(card) - 1), level


def game_tree(policy: rmcore.Policy, reach: np.ndarray) -> dict:
    """The 12 information sets grouped by public history, coloured by the probability of betting.

    Hover shows each set's reach probability and current strategy. Arrows are the public actions.
    """
    annotations, shapes = [], []
    for start, end, label in [("", "p", "pass"), ("", "b", "bet"), ("p", "pb", "bet")]:
        (x0, y0), (x1, y1) = _GROUPS[start], _GROUPS[end]
        annotations.append(dict(x=x1, y=y1 + 0.35, ax=x0, ay=y0 - 0.35, xref="x", yref="y", axref="x", ayref="y",
                                showarrow=True, arrowhead=2, arrowcolor="#888", text=""))  # fmt: skip
        annotations.append(dict(x=(x0 + x1) / 2 + (0.3 if x0 == x1 else 0), y=(y0 + y1) / 2 + 0.08, text=label, showarrow=False,
                                font=dict(color="#666")))  # fmt: skip
    for history, (x, y) in _GROUPS.items():
        who = "player 1" if len(history) % 2 == 0 else "player 2"
        shapes.append(dict(type="rect", x0=x - 1.0, x1=x + 1.0, y0=y - 0.3, y1=y + 0.3, line=dict(color="#bbb", dash="dot")))
        annotations.append(dict(x=x, y=y + 0.42, text=f"{who} after '{history or 'start'}'", showarrow=False, font=dict(size=11)))
    annotations.append(dict(x=2.2, y=1.0, text="terminal histories:<br>pp showdown ±1<br>bp, pbp fold ±1<br>bb, pbb showdown ±2",
                            showarrow=False, align="left", font=dict(size=11, color="#666")))  # fmt: skip
    xs, ys = zip(*(_position(n) for n in INFOSETS))
    bets = [float(policy[n][1]) for n in INFOSETS]
    hover = [f"<b>{n}</b><br>reach probability {reach[k]:.4f}<br>pass {1 - bets[k]:.3f} · bet {bets[k]:.3f}" for k, n in enumerate(INFOSETS)]
    trace = dict(type="scatter", x=xs, y=ys, mode="markers+text", text=list(INFOSETS), textposition="middle center",
                 marker=dict(size=38, color=bets, cmin=0, cmax=1, colorscale="RdBu", line=dict(color="black", width=1),
                             colorbar=dict(title=dict(text="P(bet)"), thickness=12)),
                 hovertext=hover, hoverinfo="text", textfont=dict(color="#000000"), showlegend=False)  # fmt: skip  (black on every marker colour, in both themes)
    return figure(
        [trace], "The 12 information sets (colour: probability of betting now)", 380,
        xaxis=dict(visible=False, range=[-3.6, 3.6]), yaxis=dict(visible=False, range=[0.4, 3.6]),
        annotations=annotations, shapes=shapes, **_PLAIN,
    )  # fmt: skip


def current_exploitability_traces(histories: list[rmcore.History], labels: list[str]) -> list[dict]:
    """Thin dotted lines: the exploitability of each variant's current policy (its first run), in its colour."""
    traces = []
    for k, (history, label) in enumerate(zip(histories, labels)):
        traces.append(dict(type="scatter", x=history.iterations.astype(float), y=positive(history.metrics["exploitability_current"]),
                           mode="lines", name=f"current policy, {label}", line=dict(color=COLOURS[k % len(COLOURS)], width=1, dash="dot")))  # fmt: skip
    return traces


def infoset_trajectories(history: rmcore.History) -> dict:
    """Each information set's average probability of betting over iterations."""
    t = history.iterations.astype(float)
    traces = [
        dict(type="scatter", x=t, y=history.average[:, k, 1], name=name, mode="lines",
             line=dict(color=COLOURS[k % len(COLOURS)], dash="solid" if k < 6 else "dot"))
        for k, name in enumerate(INFOSETS)
    ]  # fmt: skip
    return figure(
        traces, "Average strategies (solid: player 1, dotted: player 2)", 420,
        xaxis=dict(type="log", title=title("iteration"), **log_ticks(t)), yaxis=dict(range=[-0.02, 1.02], title=title("average P(bet)")),
        legend=dict(orientation="v"),
    )  # fmt: skip


def equilibrium_check(average: rmcore.Policy) -> tuple[dict, float]:
    """Bars of the average P(bet) with dashed targets from the equilibrium family at alpha = P(bet | J).

    Returns the figure and the alpha of the targets: P(bet | J) itself, or the nearest end of the family's range
    [0, 1/3] when it lies outside (the page says so).
    """
    alpha = float(np.clip(average["J"][1], 0.0, 1.0 / 3.0))
    target = equilibrium_policy(alpha)
    names = list(INFOSETS)
    shapes = [dict(type="line", x0=k - 0.45, x1=k + 0.45, y0=float(target[name][1]), y1=float(target[name][1]),
                   line=dict(color="black", dash="dash", width=2)) for k, name in enumerate(names)]  # fmt: skip
    traces = [
        dict(type="bar", x=names, y=[float(average[n][1]) for n in names], name="average P(bet)", marker=dict(color=COLOURS[0])),
        dict(type="scatter", x=[None], y=[None], mode="lines", line=dict(color="black", dash="dash"), name=f"equilibrium target at α = {alpha:.3f}"),
    ]
    spec = figure(
        traces, "Equilibrium check: bet J with α, K with 3α, call Qpb with α + 1/3; player 2 fixed", 380,
        yaxis=dict(range=[0, 1.05], title=title("P(bet)")), shapes=shapes, legend=dict(orientation="h", y=-0.2),
    )  # fmt: skip
    return spec, alpha
