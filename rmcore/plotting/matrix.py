"""The matrix page's figures: a solver's :class:`rmcore.History` and the game -> a Plotly figure dict.

Every builder takes a history already thinned for the chart (a few hundred rows) and returns a
figure with a stable layout (fixed ranges and ``uirevision``), so that a chart redrawn several
times a second does not jump. No Streamlit here.
"""

from __future__ import annotations

import numpy as np

from rmcore import History, MatrixGame, MatrixVariant, NormalFormGame

from . import words
from .charts import COLOURS, CURRENT_LINE, CURRENT_OPACITY, LAYOUT, colour, gap_axis
from .charts import figure as _figure
from .charts import log_ticks as _log_ticks
from .charts import positive as _positive
from .charts import title as _title
from .escape import plotly
from .words import LAST_STEP_HOVER, REGRET_TITLES, STRATEGIES_TITLE, strategies_title_large

PLAYER_NAMES = {"row": "Row player", "col": "Column player"}


def _player_name(player: str) -> str:
    """A player as the figures name it: ``Row player``, ``Column player``, or (n >= 3 players, whose information
    sets are ``player 1`` to ``player n``) ``Player 3``."""
    return PLAYER_NAMES.get(player, player.capitalize())


def _labels(game: MatrixGame, player: str) -> tuple[str, ...]:
    """A player's action names as the figures show them: as typed, never as Plotly's HTML
    (:mod:`rmcore.plotting.escape`). ``player`` is ``row`` or ``col``, or ``player k`` in a game of n >= 3."""
    if player in PLAYER_NAMES:
        actions = game.row_actions if player == "row" else game.col_actions
    else:
        actions = game.actions[int(player.split()[-1]) - 1]
    return tuple(plotly(a) for a in actions)


def _panels(count: int, titles) -> dict:
    """Side-by-side panels as axis domains (much cheaper than make_subplots on every redraw)."""
    layout, gap = {}, 0.06
    width = (1 - gap * (count - 1)) / count
    annotations = []
    for k in range(count):
        suffix = "" if k == 0 else str(k + 1)
        left = k * (width + gap)
        layout[f"xaxis{suffix}"] = dict(domain=[left, left + width], anchor=f"y{suffix}")
        layout[f"yaxis{suffix}"] = dict(
            anchor=f"x{suffix}", **({} if k == 0 else {"matches": "y", "showticklabels": False})
        )
        annotations.append(
            dict(
                text=titles[k],
                x=left + width / 2,
                y=1.02,
                xref="paper",
                yref="paper",
                showarrow=False,
                xanchor="center",  # (Plotly's "auto" anchors a title left of a third of the width at its left end)
                yanchor="bottom",
            )
        )
    layout["annotations"] = annotations
    return layout


def shows_joint_play(solver) -> bool:
    """Whether a run's joint play is drawn against the correlated equilibria (:mod:`rmcore.plotting.correlated`): a
    :class:`~rmcore.MatrixSolver` on a general-sum game in self-play that keeps its joint distribution of play."""
    return solver.is_self_play and not solver.game.is_zero_sum and solver.keeps_joint


def joint_trail(solver, iteration: int) -> np.ndarray:
    """``sigma_t`` at every history row of ``solver`` up to ``iteration`` (the replay's, or the live end), in order:
    ``[k, m, n]``, the last the joint play at the last kept row at or before ``iteration``."""
    kept = solver.joint_history()
    upto = kept.iterations <= iteration
    return kept.joint[upto] if upto.any() else kept.joint[:1]


#: Most actions per player drawn on the strategy chart: a larger game shows its most played ones.
MAX_SHOWN_ACTIONS = 8


def shown_actions(history: History, player: str, limit: int = MAX_SHOWN_ACTIONS) -> list[int]:
    """The actions to draw: all of them, or the ``limit`` with the largest average probability now (in action order)."""
    final = history.strategy("average", player)[-1]
    if len(final) <= limit:
        return list(range(len(final)))
    return sorted(np.argsort(-final, kind="stable")[:limit].tolist())


def strategy_trajectories(history: History, game: MatrixGame, log_x: bool = True, players=("row", "col")) -> dict:
    """Each action's current (thin) and average (thick) probability over iterations, one panel per player.

    A player with more than ``MAX_SHOWN_ACTIONS`` actions shows only its most played averages, so the legend stays
    readable.
    """
    players = tuple(players)
    iterations = history.iterations
    large = any(len(_labels(game, p)) > MAX_SHOWN_ACTIONS for p in players)
    traces = []
    for panel, player in enumerate(players):
        axes = dict(xaxis="x" if panel == 0 else f"x{panel + 1}", yaxis="y" if panel == 0 else f"y{panel + 1}")
        labels = _labels(game, player)
        average, current = (
            history.strategy("average", player),
            history.strategy("current", player),
        )  # one copy each, not one per action
        for n, k in enumerate(shown_actions(history, player)):
            ink = colour(n + MAX_SHOWN_ACTIONS * panel if large else n)  # a large game's one legend: no colour twice
            if large:  # one legend entry per drawn action and player, averages only
                traces.append(
                    dict(
                        type="scatter",
                        x=iterations,
                        y=average[:, k],
                        line=dict(color=ink, width=2),
                        name=f"{labels[k]} ({_player_name(player).removesuffix(' player').lower()})",
                        legendgroup=player,
                        **axes,
                    )
                )
                continue
            group = dict(type="scatter", legendgroup=f"{player}{k}", showlegend=panel == 0, **axes)
            traces.append(
                dict(
                    x=iterations, y=average[:, k], name=f"{labels[k]} (average)", line=dict(color=ink, width=3), **group
                )
            )
            traces.append(
                dict(
                    x=iterations,
                    y=current[:, k],
                    name=f"{labels[k]} (current)",
                    line=dict(color=ink, **CURRENT_LINE),
                    opacity=CURRENT_OPACITY,
                    **group,
                )
            )
    layout = _panels(len(players), [_player_name(p) for p in players])
    x_axis = dict(type="log", **_log_ticks(iterations)) if log_x else dict(type="linear")
    for key in [k for k in layout if k.startswith("xaxis")]:
        layout[key].update(title=_title("iteration"), **x_axis)
    layout["yaxis"].update(range=[-0.02, 1.02], title=_title("probability"))
    title = strategies_title_large(MAX_SHOWN_ACTIONS) if large else STRATEGIES_TITLE
    if large:  # sixteen legend entries: beside the plot, where they cover no axis title
        layout.update(legend=dict(orientation="v", x=1.02, y=1, yanchor="top"), margin=dict(l=75, r=170, t=70, b=50))
    return _figure(traces, title, 380, **layout)


#: The row player's average path is drawn wider, under the column player's: in a symmetric game the two coincide,
#: and the row player's would otherwise be hidden.
_PATH_WIDTHS = (6, 3)


def has_simplex(game: MatrixGame) -> bool:
    """Whether :func:`simplex_path` has a picture for ``game``: a player with 3 actions, or a 2x2 game."""
    return game.shape == (2, 2) or 3 in game.shape


def simplex_path(
    history: History, game: MatrixGame, equilibrium=None, show_current: bool = False, moment=None
) -> dict | None:
    """Where the strategies travel: a ternary simplex for 3-action players, the (x1, y1) square for 2x2.

    ``moment`` is ``(iteration, row average, column average)`` of a replay: drawn as a ringed point.
    Returns ``None`` when neither picture applies.
    """
    if not has_simplex(game):
        return None
    m, n = game.shape
    if (m, n) == (2, 2):
        return _unit_square(history, game, equilibrium, show_current, moment)
    three = [p for p, size in (("row", m), ("col", n)) if size == 3]
    traces = []
    for k, player in enumerate(three):
        labels = _labels(game, player)
        kinds = ("average", "current") if show_current else ("average",)
        for kind in kinds:
            a, b, c = history.strategy(kind, player).T
            traces.append(
                dict(
                    type="scatterternary",
                    a=a,
                    b=b,
                    c=c,
                    mode="lines",
                    name=f"{PLAYER_NAMES[player]}, {kind}",
                    line=dict(color=COLOURS[k], width=_PATH_WIDTHS[k])
                    if kind == "average"
                    else dict(color=COLOURS[k], **CURRENT_LINE),
                    opacity=1 if kind == "average" else CURRENT_OPACITY,
                )
            )
        traces.append(_average_now(history, player, COLOURS[k]))
        if moment is not None:
            then = [float(p) for p in moment[1 if player == "row" else 2]]
            traces.append(
                dict(
                    type="scatterternary",
                    a=[then[0]],
                    b=[then[1]],
                    c=[then[2]],
                    mode="markers",
                    name=f"at t = {moment[0]:,}",
                    marker=dict(size=15, color="rgba(0,0,0,0)", line=dict(color=COLOURS[k], width=3)),
                    showlegend=k == 0,
                )
            )
        if equilibrium is not None:
            point = [float(p) for p in (equilibrium.row if player == "row" else equilibrium.col)]
            traces.append(
                dict(
                    type="scatterternary",
                    a=[point[0]],
                    b=[point[1]],
                    c=[point[2]],
                    mode="markers",
                    marker=dict(symbol="star", size=16, color="gold", line=dict(color="black", width=1)),
                    name="equilibrium",
                    showlegend=k == 0,
                )
            )
    labels = _labels(game, three[0])
    ternary = dict(
        aaxis=dict(title=_title(labels[0])), baxis=dict(title=_title(labels[1])), caxis=dict(title=_title(labels[2]))
    )
    return _figure(traces, "Average strategy path on the simplex", 420, ternary=ternary)


def _average_now(history: History, player: str, ink: str) -> dict:
    """A player of three actions' average strategy now, a dot on its triangle."""
    end = [float(p) for p in history.strategy("average", player)[-1]]
    return dict(
        type="scatterternary",
        a=[end[0]],
        b=[end[1]],
        c=[end[2]],
        mode="markers",
        marker=dict(size=11, color=ink),
        name=f"{_player_name(player)} now",
        showlegend=False,
    )


def player_cube(history: History, game: NormalFormGame, show_current: bool = False) -> dict | None:
    """Where the strategies of a game of three players with two actions each travel: the product of their simplices
    (each a segment, its point the probability of the first action) is the unit cube, and the profile a point in it.
    The average's path (thick), the current strategies' (thin) with ``show_current``, and the average now. ``None``
    for any other game."""
    if game.shape != (2, 2, 2):
        return None
    names = [f"player {p}" for p in (1, 2, 3)]
    traces = []
    for kind in ("average", "current") if show_current else ("average",):
        x, y, z = (history.strategy(kind, name)[:, 0] for name in names)
        line = dict(color=COLOURS[0], width=6) if kind == "average" else dict(color=COLOURS[1], width=2)
        traces.append(dict(type="scatter3d", x=x, y=y, z=z, mode="lines", name=f"{kind} profile", line=line))
    now = [float(history.strategy("average", name)[-1, 0]) for name in names]
    traces.append(
        dict(
            type="scatter3d",
            x=[now[0]],
            y=[now[1]],
            z=[now[2]],
            mode="markers",
            marker=dict(size=6, color=COLOURS[0]),
            name="average now",
        )
    )
    axes = {
        f"{axis}axis": dict(range=[0, 1], title=dict(text=f"P{p}({_labels(game, f'player {p}')[0]})"))
        for axis, p in zip("xyz", (1, 2, 3))
    }
    scene = dict(**axes, aspectmode="cube", camera=dict(eye=dict(x=1.75, y=1.75, z=1.15)))
    # (a 3-D scene has no axes in the page's margins: small margins give it the room, its axis titles inside)
    return _figure(
        traces,
        words.CUBE_TITLE,
        520,
        scene=scene,
        margin=dict(l=10, r=10, t=60, b=10),
    )


def player_triangles(history: History, game: NormalFormGame, show_current: bool = False) -> dict | None:
    """Each player of three actions in a game of three players or more on its own simplex, a triangle side by side:
    the average strategy's path (thick), the current one's (thin) with ``show_current``, and the average now.
    ``None`` when no player has three actions."""
    three = [p for p, actions in enumerate(game.shape, 1) if actions == 3]
    if not three:
        return None
    traces, layout, gap = [], {}, 0.16  # (room between the triangles for their axes' titles)
    width = (1 - gap * (len(three) - 1)) / len(three)
    for k, p in enumerate(three):
        name, subplot = f"player {p}", "ternary" if k == 0 else f"ternary{k + 1}"
        for kind in ("average", "current") if show_current else ("average",):
            a, b, c = history.strategy(kind, name).T
            line = dict(color=colour(k), width=4) if kind == "average" else dict(color=colour(k), **CURRENT_LINE)
            label = f"{_player_name(name)}, {kind}"
            path = dict(type="scatterternary", a=a, b=b, c=c, mode="lines", subplot=subplot)
            traces.append(dict(path, name=label, line=line))
        traces.append(dict(_average_now(history, name, colour(k)), subplot=subplot))
        labels = _labels(game, name)
        left = k * (width + gap)
        layout[subplot] = dict(
            domain=dict(x=[left, left + width], y=[0, 1]),
            aaxis=dict(title=_title(labels[0])),
            baxis=dict(title=_title(labels[1])),
            caxis=dict(title=_title(labels[2])),
        )
    return _figure(traces, words.TRIANGLES_TITLE, 440, margin=dict(l=40, r=40, t=70, b=40), **layout)


def _unit_square(history, game, equilibrium, show_current, moment) -> dict:
    x_label, y_label = plotly(game.row_actions[0]), plotly(game.col_actions[0])
    kinds = ("average", "current") if show_current else ("average",)
    traces = []
    for kind in kinds:
        traces.append(
            dict(
                type="scatter",
                x=history.strategy(kind, "row")[:, 0],
                y=history.strategy(kind, "col")[:, 0],
                mode="lines",
                name=kind,
                line=dict(width=3) if kind == "average" else dict(CURRENT_LINE),
                opacity=1 if kind == "average" else CURRENT_OPACITY,
            )
        )
    traces.append(
        dict(
            type="scatter",
            x=[float(history.strategy("average", "row")[-1, 0])],
            y=[float(history.strategy("average", "col")[-1, 0])],
            mode="markers",
            marker=dict(size=11),
            name="now",
        )
    )
    if moment is not None:
        traces.append(
            dict(
                type="scatter",
                x=[float(moment[1][0])],
                y=[float(moment[2][0])],
                mode="markers",
                name=f"at t = {moment[0]:,}",
                marker=dict(size=15, color="rgba(0,0,0,0)", line=dict(color="black", width=3)),
            )
        )
    for k, eq in enumerate(game.equilibria if equilibrium is None else [equilibrium]):
        traces.append(
            dict(
                type="scatter",
                x=[float(eq.row[0])],
                y=[float(eq.col[0])],
                mode="markers",
                name="equilibrium",
                showlegend=k == 0,
                marker=dict(symbol="star", size=16, color="gold", line=dict(color="black", width=1)),
            )
        )
    return _figure(
        traces,
        "Average strategies in the unit square",
        420,
        # constrain="domain": the square shrinks its plot area to stay square; without it Plotly widened the x-range
        # to keep the ratio, and on a wide chart the unit square spanned -0.5 to 1.5.
        xaxis=dict(range=[-0.02, 1.02], title=_title(f"row plays {x_label}"), constrain="domain"),
        yaxis=dict(range=[-0.02, 1.02], title=_title(f"column plays {y_label}"), scaleanchor="x", constrain="domain"),
    )


def convergence(
    history: History,
    fixed_opponent: bool = False,
    bound: str | None = "Δ·√(|A|/T)",
    variant: MatrixVariant | None = None,
) -> dict:
    """nash_conv (or the learner's best-response gain), average positive regrets, the rule's regret bound (named
    ``bound``; none when ``None`` or NaN) and 1/sqrt(T), log-log; in self-play also nash_conv of the current
    profile, thin (the optimistic rules' current strategies converge, RM's and Hedge's cycle). The title names the
    ``variant`` (algorithm, sampling, updates, averaging) and each line which iterate it measures."""
    t = history.iterations.astype(float)
    averaging = "the" if variant is None else f"the {variant.averaging}"
    # One learner (a two-player game against a fixed opponent, or all players of more but one fixed): its own
    # best-response gain is the history's measure, NashConv being the learners' game's.
    alone = fixed_opponent or history.gap_name.startswith("br_gain_")
    if alone:
        measure = "br_gain_1" if fixed_opponent else history.gap_name
        who = "learner" if fixed_opponent else f"player {measure.removeprefix('br_gain_')}, the learner"
        traces = [
            dict(
                type="scatter",
                x=t,
                y=_positive(history.metrics[measure]),
                name=f"best-response gain of {averaging} average ({who})",
                line=dict(width=3, color="black"),
            )
        ]
    else:
        traces = [
            dict(
                type="scatter",
                x=t,
                y=_positive(history.metrics["nash_conv"]),
                name=f"nash_conv of {averaging} average",
                line=dict(width=3, color="black"),
            )
        ]
        if "nash_conv_current" in history.metrics:
            traces.append(
                dict(
                    type="scatter",
                    x=t,
                    y=_positive(history.metrics["nash_conv_current"]),
                    name="nash_conv of the current strategies (last iterate)",
                    line=dict(width=1, color="black", dash="dot"),
                )
            )
    players = ("row",) if fixed_opponent else history.infosets  # (n >= 3 players: "player 1" to "player n")
    for k, player in enumerate(players):
        name = _player_name(player).lower()
        if np.isnan(history.metrics[f"average_regret_{k + 1}"]).all():
            continue  # (a fixed player of a game of three players or more: it has no regret)
        traces.append(
            dict(
                type="scatter",
                x=t,
                y=_positive(history.metrics[f"average_regret_{k + 1}"]),
                name=f"average positive regret, {name}",
                line=dict(color=_player_colour(k)),
            )
        )
    bounds = {player: history.metrics[f"regret_bound_{k + 1}"] for k, player in enumerate(players)}
    if bound is None or all(np.isnan(values).all() for values in bounds.values()):
        pass  # no bound to draw (fictitious play, GDA, optimistic Hedge)
    elif len(players) > 1 and all(
        np.array_equal(bounds[players[0]], values, equal_nan=True) for values in bounds.values()
    ):  # same Δ and |A|: one line, not one on top of another
        traces.append(
            dict(
                type="scatter",
                x=t,
                y=bounds[players[0]],
                name=f"bound: {bound}, {'both players' if len(players) == 2 else 'every player'}",
                line=dict(color="#555555", dash="dash"),
            )
        )
    else:
        for k, player in enumerate(players):
            traces.append(
                dict(
                    type="scatter",
                    x=t,
                    y=bounds[player],
                    name=f"bound: {bound}, {_player_name(player).lower()}",
                    line=dict(color=_player_colour(k), dash="dash"),
                )
            )
    correlated = _correlated_traces(history, t)
    traces += correlated
    if len(t):
        traces.append(
            dict(type="scatter", x=t, y=1.0 / np.sqrt(t), name="guide: 1/√T", line=dict(color="gray", dash="dot"))
        )
    heading = "Convergence (log-log)" if variant is None else f"Convergence (log-log)<br><sup>{variant.label}</sup>"
    return _figure(
        traces,
        heading,
        420 + CORRELATED_LEGEND_ROOM * len(correlated),  # (their legend rows: below the plot on a projector)
        xaxis=dict(type="log", title=_title("iteration T"), **_log_ticks(t)),
        yaxis=dict(
            type="log",
            exponentformat="power",
            title=_title(gap_axis("br_gain_1" if fixed_opponent else "nash_conv")),
            **_log_ticks(*(trace["y"] for trace in traces)),
        ),
    )


def _player_colour(k: int) -> str:
    """Player ``k``'s (from 0) colour on the convergence chart: players 1 and 2 the first two colours, players 3 on
    colours after those of the correlated curves (:func:`_correlated_traces` uses the third to the fifth)."""
    return colour(k if k < 2 else k + 3)


#: Pixels the convergence chart grows by for each correlated curve it draws: a legend row's height at a projector's
#: text size.
CORRELATED_LEGEND_ROOM = 30


def _correlated_traces(history: History, t: np.ndarray) -> list[dict]:
    """The joint play's CE and CCE gaps, and (swap RM) its largest internal regret beside that regret's bound, where
    the run measures them (NaN columns elsewhere: zero-sum games, a fixed opponent)."""
    columns = (
        ("cce_gap", words.CCE_GAP, dict(color=COLOURS[4], width=2)),
        ("ce_gap", words.CE_GAP, dict(color=COLOURS[2], width=2)),
        ("internal_regret", words.INTERNAL_REGRET, dict(color=COLOURS[3])),
        ("internal_regret_bound", words.INTERNAL_BOUND, dict(color=COLOURS[3], dash="dash")),
    )
    traces = []
    for column, name, line in columns:
        values = history.metrics[column] if column in history.metrics else None
        if values is None or not len(values) or np.isnan(values).all():
            continue
        traces.append(dict(type="scatter", x=t, y=_positive(values), name=name, line=line))
    return traces


def regret_bars(
    game: MatrixGame,
    regrets_row: np.ndarray,
    regrets_col: np.ndarray | None,
    change=None,
    drawn=None,
    title: str = REGRET_TITLES["rm"],
) -> dict:
    """The cumulative regret of every action now: regret matching plays the positive ones in proportion.

    ``change`` (per player, as the regrets) is what the last step added; it is drawn as a thin orange bar from the old
    value to the new, so a lecturer can point at each iteration's regret increment. ``drawn`` is a sampled iteration's
    ``(row action, column action, ...)``: those bars are outlined.
    """
    panels = [("row", regrets_row)] + ([("col", regrets_col)] if regrets_col is not None else [])
    traces = []
    for panel, (player, regrets) in enumerate(panels):
        suffix = "" if panel == 0 else str(panel + 1)
        regrets = np.asarray(regrets, dtype=float)
        colours = [COLOURS[0] if r > 0 else "#bbbbbb" for r in regrets]
        labels = list(_labels(game, player))
        outline = [0] * len(labels)
        if drawn is not None:
            outline[drawn[panel]] = 3
        traces.append(
            dict(
                type="bar",
                x=labels,
                y=regrets,
                marker=dict(color=colours, line=dict(color="black", width=outline)),
                showlegend=False,
                name="cumulative regret",
                xaxis=f"x{suffix}",
                yaxis=f"y{suffix}",
                hovertemplate="%{x}: %{y:.4g}<extra></extra>",
            )
        )
        if change is not None and change[panel] is not None:
            step = np.asarray(change[panel], dtype=float)
            traces.append(
                dict(
                    type="bar",
                    x=labels,
                    y=step,
                    base=regrets - step,
                    width=0.25,
                    marker=dict(color=COLOURS[4]),
                    name="change in the last step",
                    showlegend=panel == 0,
                    xaxis=f"x{suffix}",
                    yaxis=f"y{suffix}",
                    hovertemplate=LAST_STEP_HOVER,
                )
            )
    layout = _panels(len(panels), [PLAYER_NAMES[p] for p, _ in panels])
    layout["yaxis"]["title"] = _title("cumulative regret (payoff units)")
    for k in range(len(panels)):
        layout["xaxis" if k == 0 else f"xaxis{k + 1}"]["title"] = _title("action")
    margin = dict(LAYOUT["margin"])
    if "<br>" in title:  # (the title's second line, how to read the bars, above the panels' own titles)
        margin["t"] += 22
    if len(panels) == 2:  # regrets of the two players need not share a scale
        # The column player's axis on the right of its panel: on the left its title sat on the row player's last bar.
        layout["yaxis2"] = dict(anchor="x2", side="right", title=_title("cumulative regret (payoff units)"))
        margin["r"] = LAYOUT["margin"]["l"]
    return _figure(traces, title, 320 + margin["t"] - LAYOUT["margin"]["t"], barmode="overlay", **layout, margin=margin)
