"""The poker page's figures: policies and histories -> Plotly figure dicts (classic Kuhn's tree, trajectories and
equilibrium check; the bigger games' heat map; the value against a fixed player). No Streamlit here."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import rmcore
from rmcore.trees.game import children_of
from rmcore.trees.kuhn import INFOSETS, equilibrium_policy

from .charts import COLOURS, colour, figure, log_ticks, title
from .escape import plotly
from .words import (
    EQUILIBRIUM_CHECK_TITLE,
    KUHN_TRAJECTORIES_TITLE,
    OPENING_TITLE,
    POLICY_HEATMAP_HOVER,
    winnings_title,
)

_PLAIN = dict(margin=dict(l=10, r=10, t=60, b=10))


class TreeLayout(NamedTuple):
    """Where every node of a game tree is drawn: x by its leaves (deal after deal), y by depth; the chance root on
    top."""

    x: np.ndarray
    y: np.ndarray
    root: tuple[float, float]


def tree_layout(game: rmcore.TreeGame) -> TreeLayout:
    """Leaves one unit apart in depth-first order (a unit's gap between deals); a decision sits above the middle of its
    children."""
    tree = game.tree
    n = tree.player.shape[0]
    x, y = np.zeros(n), -(tree.depth.astype(float) + 1)
    next_leaf = 0.0

    def place(node: int) -> float:
        nonlocal next_leaf
        if tree.player[node] < 0:
            x[node] = next_leaf
            next_leaf += 1
        else:
            x[node] = np.mean([place(int(child)) for child in children_of(tree, node)])
        return x[node]

    for root in tree.deal_root:
        place(int(root))
        next_leaf += 1
    roots = x[tree.deal_root]
    return TreeLayout(x, y, (float(roots.mean()), 0.0))


def game_tree(game: rmcore.TreeGame, policy: np.ndarray, deal_names: list[str], title_text: str) -> dict:
    """The whole game tree: chance deals, every decision coloured by its information set's probability of the last
    action (bet / call), edges for each action, player 1's payoff at every leaf, and the two nodes of each
    information set joined by a dashed arc labelled with its name.

    ``policy`` is ``[infoset, action]`` (the current strategy, or the one a replay shows). Built from scatter traces
    only (no annotations), so it is cheap enough to redraw on every live update.
    """
    tree, layout = game.tree, tree_layout(game)
    x, y = layout.x, layout.y
    decisions = np.flatnonzero(tree.player >= 0)
    leaves = np.flatnonzero(tree.player < 0)
    traces = []
    for action, (name, line_colour, width) in enumerate(
        [("pass / check / fold", "#9aa0a6", 1.5), ("bet / call", "#555555", 2.5)]
    ):
        xs, ys = [], []
        for node in decisions:
            kids = children_of(tree, node)
            if action < kids.shape[0]:
                child = kids[action]
                xs += [x[node], x[child], None]
                ys += [y[node], y[child], None]
        traces.append(
            dict(
                type="scatter",
                x=xs,
                y=ys,
                mode="lines",
                line=dict(color=line_colour, width=width),
                name=name,
                hoverinfo="skip",
            )
        )
    chance_x, chance_y = [], []
    for root in tree.deal_root:
        chance_x += [layout.root[0], x[root], None]
        chance_y += [layout.root[1], y[root], None]
    traces.append(
        dict(
            type="scatter",
            x=chance_x,
            y=chance_y,
            mode="lines",
            line=dict(color="#bbbbbb", width=1, dash="dot"),
            name="chance deals a card to each",
            hoverinfo="skip",
        )
    )
    traces.append(
        dict(
            type="scatter",
            x=[layout.root[0]],
            y=[layout.root[1]],
            mode="markers+text",
            text=["chance"],
            textposition="top center",
            marker=dict(size=14, color="#bbbbbb", symbol="diamond"),
            showlegend=False,
            hoverinfo="skip",
        )
    )
    traces.append(
        dict(
            type="scatter",
            x=x[tree.deal_root],
            y=y[tree.deal_root] + 0.42,
            mode="text",
            text=deal_names,
            showlegend=False,
            hoverinfo="skip",
            textfont=dict(size=12),
        )
    )
    # The nodes of one information set, joined by a dashed arc below them (deeper for wider spans, so nested arcs
    # stay apart); every decision is named by its information set just under it.
    arc_x, arc_y = [], []
    for k in range(len(game.infosets)):
        order = sorted(decisions[tree.infoset[decisions] == k], key=lambda node: x[node])
        for a, b in zip(order[:-1], order[1:]):
            low = y[a] - 0.16 - 0.025 * abs(x[b] - x[a])
            arc_x += [x[a], (x[a] + x[b]) / 2, x[b], None]
            arc_y += [y[a], low, y[b], None]
    traces.append(
        dict(
            type="scatter",
            x=arc_x,
            y=arc_y,
            mode="lines",
            line=dict(color="#1f77b4", width=1.2, dash="dash", shape="spline"),
            name="one information set: nodes its player cannot tell apart",
            hoverinfo="skip",
        )
    )
    traces.append(
        dict(
            type="scatter",
            x=x[decisions] + 0.32,
            y=y[decisions] + 0.16,
            mode="text",
            text=[plotly(game.infosets[tree.infoset[n]]) for n in decisions],
            textposition="middle right",
            showlegend=False,
            hoverinfo="skip",
            textfont=dict(size=11, color="#1f77b4"),
        )
    )
    last = [float(policy[tree.infoset[node], len(game.actions[tree.infoset[node]]) - 1]) for node in decisions]
    hover = [
        f"<b>{plotly(game.infosets[tree.infoset[node]])}</b> (player {tree.player[node] + 1})<br>P(bet or call) {p:.3f}"
        for node, p in zip(decisions, last)
    ]
    digits = ["#ffffff" if abs(p - 0.5) > 0.3 else "#000000" for p in last]  # readable on every colour of the scale
    traces.append(
        dict(
            type="scatter",
            x=x[decisions],
            y=y[decisions],
            mode="markers+text",
            text=[str(p + 1) for p in tree.player[decisions]],
            textposition="middle center",
            textfont=dict(color=digits, size=11),
            showlegend=False,
            hovertext=hover,
            hoverinfo="text",
            marker=dict(
                size=20,
                color=last,
                cmin=0,
                cmax=1,
                colorscale="RdBu",
                line=dict(color="black", width=1),
                colorbar=dict(title=dict(text="P(bet / call)"), thickness=12, len=0.8),
            ),
        )
    )
    payoffs = [f"{tree.payoff[node]:+g}" for node in leaves]
    traces.append(
        dict(
            type="scatter",
            x=x[leaves],
            y=y[leaves],
            mode="markers+text",
            text=payoffs,
            textposition="bottom center",
            marker=dict(size=6, color="black", symbol="square"),
            showlegend=False,
            hoverinfo="skip",
            textfont=dict(size=11),
        )
    )
    return figure(
        traces,
        title_text,
        460,
        xaxis=dict(visible=False, range=[x.min() - 0.8, x.max() + 0.8]),
        yaxis=dict(visible=False, range=[y.min() - 0.75, 0.45]),
        legend=dict(orientation="h", y=-0.02, yanchor="top"),
        **_PLAIN,
    )


def infoset_trajectories(history: rmcore.History) -> dict:
    """Each information set's average probability of betting over iterations."""
    t = history.iterations.astype(float)
    traces = [
        dict(
            type="scatter",
            x=t,
            y=history.average[:, k, 1],
            name=name,
            mode="lines",
            line=dict(color=colour(k), dash="solid" if k < 6 else "dot"),
        )
        for k, name in enumerate(INFOSETS)
    ]
    return figure(
        traces,
        KUHN_TRAJECTORIES_TITLE,
        420,
        xaxis=dict(type="log", title=title("iteration"), **log_ticks(t)),
        yaxis=dict(range=[-0.02, 1.02], title=title("average P(bet)")),
        legend=dict(orientation="v"),
    )


def equilibrium_check(average: rmcore.Policy) -> tuple[dict, float]:
    """Bars of the average P(bet) with dashed targets from the equilibrium family at alpha = P(bet | J).

    Returns the figure and the alpha of the targets: P(bet | J) itself, or the nearest end of the family's range
    [0, 1/3] when it lies outside (the page says so).
    """
    alpha = float(np.clip(average["J"][1], 0.0, 1.0 / 3.0))
    target = equilibrium_policy(alpha)
    names = list(INFOSETS)
    shapes = [
        dict(
            type="line",
            x0=k - 0.45,
            x1=k + 0.45,
            y0=float(target[name][1]),
            y1=float(target[name][1]),
            line=dict(color="black", dash="dash", width=2),
        )
        for k, name in enumerate(names)
    ]
    traces = [
        dict(
            type="bar",
            x=names,
            y=[float(average[n][1]) for n in names],
            name="average P(bet)",
            marker=dict(color=COLOURS[0]),
        ),
        dict(
            type="scatter",
            x=[None],
            y=[None],
            mode="lines",
            line=dict(color="black", dash="dash"),
            name=f"equilibrium target at α = {alpha:.3f}",
        ),
    ]
    spec = figure(
        traces,
        EQUILIBRIUM_CHECK_TITLE,
        380,
        yaxis=dict(range=[0, 1.05], title=title("P(bet)")),
        shapes=shapes,
        legend=dict(orientation="h", y=-0.2),
    )
    return spec, alpha


def opening_trajectories(history: rmcore.History, rules) -> dict:
    """A bigger game's average P(bet) over iterations at player 1's first decision, one line per card."""
    t = history.iterations.astype(float)
    opening = [k for k, name in enumerate(history.infosets) if rules.split(name)[1] == ""]
    traces = [
        dict(
            type="scatter",
            x=t,
            y=history.average[:, k, len(history.actions[k]) - 1],
            name=plotly(history.infosets[k]),
            mode="lines",
            line=dict(color=colour(n)),
        )
        for n, k in enumerate(opening)
    ]
    return figure(
        traces,
        OPENING_TITLE,
        420,
        xaxis=dict(type="log", title=title("iteration"), **log_ticks(t)),
        yaxis=dict(range=[-0.02, 1.02], title=title("average P(bet)")),
        legend=dict(orientation="v"),
    )


def is_poker(game: rmcore.TreeGame) -> bool:
    """Whether ``game`` is one of the small poker games, whose sets are named by cards and betting."""
    return isinstance(game.rules, (rmcore.KuhnRules, rmcore.LeducRules))


def trajectories(history: rmcore.History, game: rmcore.TreeGame) -> dict:
    """The average policy over time as the game-tree page draws it beside its exploitability chart: classic Kuhn's
    every information set (:func:`infoset_trajectories`), a small poker game's opening bets by card
    (:func:`opening_trajectories`), any other game's first information set (:func:`first_infoset_trajectories`)."""
    if rmcore.is_classic_kuhn(game):
        return infoset_trajectories(history)
    if is_poker(game):
        return opening_trajectories(history, game.rules)
    return first_infoset_trajectories(history)


#: Most actions drawn by :func:`first_infoset_trajectories` (Liar's dice with 6 sides opens with 12 bids).
TRAJECTORY_ACTIONS = 10


def short_name(name: str, length: int = 48) -> str:
    """An information set's name on one line, cut to ``length`` characters (OpenSpiel's names run over lines)."""
    line = " ".join(name.split())
    return line if len(line) <= length else line[: length - 1] + "…"


def first_infoset_trajectories(history: rmcore.History) -> dict:
    """Any game: the average probability of each action (the most likely ones) at player 1's first information set,
    over iterations."""
    t = history.iterations.astype(float)
    k = 0  # player 1's information sets come first, in the order first met: row 0 is where player 1 first decides
    actions = history.actions[k]
    latest = history.average[-1, k, : len(actions)]
    drawn = sorted(np.argsort(-latest, kind="stable")[:TRAJECTORY_ACTIONS])
    traces = [
        dict(
            type="scatter",
            x=t,
            y=history.average[:, k, a],
            name=plotly(short_name(actions[a], 24)),
            mode="lines",
            line=dict(color=colour(n)),
        )
        for n, a in enumerate(drawn)
    ]
    return figure(
        traces,
        f"Average strategy at {plotly(short_name(history.infosets[k], 40))}",
        420,
        xaxis=dict(type="log", title=title("iteration"), **log_ticks(t)),
        yaxis=dict(range=[-0.02, 1.02], title=title("average probability")),
        legend=dict(orientation="v"),
    )


def aggression_heatmap(game: rmcore.TreeGame, probabilities: np.ndarray, names: list[str], title_text: str) -> dict:
    """P(bet or raise) at the information sets ``names``: a row per cards seen, a column per betting history where
    betting is allowed (blank where that set does not exist); light is 0, dark blue 1 (plotly's "Blues" runs the other
    way)."""
    rules = game.rules
    rows, cols, cells = [], [], {}
    for name in names:
        k = game.infosets.index(name)
        seen, bets = rules.split(name)
        bets = bets or "(first)"
        if game.actions[k][-1] not in ("bet", "raise"):
            continue  # (no column where betting is not allowed: player 1 facing a re-raise, say)
        rows += [seen] * (seen not in rows)
        cols += [bets] * (bets not in cols)
        cells[seen, bets] = float(probabilities[k, len(game.actions[k]) - 1])
    z = [[cells.get((r, c)) for c in cols] for r in rows]
    trace = dict(
        type="heatmap",
        x=[plotly(c) for c in cols],
        y=[plotly(r) for r in rows],
        z=z,
        zmin=0.0,
        zmax=1.0,
        colorscale="Blues",
        reversescale=True,
        xgap=1,
        ygap=1,
        colorbar=dict(title=dict(text="P(bet)")),
        hovertemplate=POLICY_HEATMAP_HOVER,
    )
    return figure(
        [trace],
        title_text,
        max(260, 28 * len(rows) + 140),
        xaxis=dict(title=title("betting so far"), type="category"),
        yaxis=dict(title=title("cards seen"), type="category", autorange="reversed"),
    )


def value_against_fixed(
    iterations: np.ndarray,
    values: np.ndarray,
    best_response: float,
    equilibrium: float,
    learner: int,
    unit: str = "antes per hand",
) -> dict:
    """The learner's average winnings per hand against a fixed player over iterations (log x), beside the exact
    best-response value and the equilibrium value."""
    t = np.asarray(iterations, dtype=float)
    span = [float(t.min()), float(t.max())] if t.size else [1.0, 1.0]
    traces = [
        dict(
            type="scatter",
            x=t,
            y=values,
            mode="lines",
            name=f"player {learner}'s average (learner)",
            line=dict(width=3, color=COLOURS[0]),
        ),
        dict(
            type="scatter",
            x=span,
            y=[best_response] * 2,
            mode="lines",
            name="best response (exact)",
            line=dict(color="black", dash="dash"),
        ),
        dict(
            type="scatter",
            x=span,
            y=[equilibrium] * 2,
            mode="lines",
            name="equilibrium value",
            line=dict(color="gray", dash="dot"),
        ),
    ]
    return figure(
        traces,
        winnings_title(learner),
        380,
        xaxis=dict(type="log", title=title("iteration T"), **log_ticks(t)),
        yaxis=dict(title=title(f"winnings ({unit})")),
    )


def winnings(
    hands: np.ndarray,
    mean: np.ndarray,
    half_width: np.ndarray,
    best_response: np.ndarray,
    game_value: float,
    unit: str = "antes per hand",
) -> dict:
    """Hands against the bot: the running mean of the student's winnings with its 95% band, what a best response would
    have averaged against the same bots (exact expectations), and the game value for the student's seat."""
    band = dict(mode="lines", line=dict(width=0, color=COLOURS[0]), showlegend=False, hoverinfo="skip")
    traces = [
        dict(type="scatter", x=hands, y=mean + half_width, **band),
        dict(type="scatter", x=hands, y=mean - half_width, fill="tonexty", fillcolor="rgba(31,119,180,0.18)", **band),
        dict(
            type="scatter",
            x=hands,
            y=mean,
            mode="lines+markers",
            name="your mean per hand (95% band)",
            line=dict(width=3, color=COLOURS[0]),
        ),
        dict(
            type="scatter",
            x=hands,
            y=best_response,
            mode="lines",
            name="a best response (expected)",
            line=dict(color="black", dash="dash"),
        ),
        dict(
            type="scatter",
            x=[hands[0], hands[-1]] if len(hands) else [],
            y=[game_value] * 2 if len(hands) else [],
            mode="lines",
            name="game value for your seat",
            line=dict(color="gray", dash="dot"),
        ),
    ]
    step = max(1, int(np.ceil(len(hands) / 10)))  # whole hands on the axis, never 1.2
    return figure(
        traces,
        "Your winnings against the bot",
        360,
        xaxis=dict(title=title("hands played"), dtick=step, tick0=1),
        yaxis=dict(title=title(f"winnings ({unit})")),
    )
