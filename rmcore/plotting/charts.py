"""Figure pieces both pages share, and the race chart: pure data -> a Plotly figure as a plain dict.

The figures are plain dicts in Plotly's JSON schema rather than ``go.Figure`` objects: pages redraw
several of them several times a second, and building validated figure objects takes most of the
server's time per update (measured: more than half of it). ``go.Figure(spec)`` turns one into a figure object,
validating it on the way, for a notebook (the tests do exactly that). No Streamlit here.
"""

from __future__ import annotations

import functools

import numpy as np

import rmcore

from . import words

#: Grey comes last: the race chart's guides are grey, and a race of the eight matrix rules needs eight other colours.
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")
#: Ten lighter partners of the colours above (d3's category20): lines 11 to 20 of one chart get a colour of their own.
LIGHT_COLOURS = (
    "#aec7e8",
    "#ff9896",
    "#98df8a",
    "#c5b0d5",
    "#ffbb78",
    "#c49c94",
    "#f7b6d2",
    "#9edae5",
    "#dbdb8d",
    "#c7c7c7",
)


def colour(k: int) -> str:
    """Line ``k``'s colour: twenty distinct ones (Kuhn on sliders draws up to 13 openings, a race up to 10 variants)."""
    palette = COLOURS + LIGHT_COLOURS
    return palette[k % len(palette)]


# Fixed margins wide enough for tick labels and axis titles: automatic margins cost the browser a
# second layout pass on every redraw. The legend below the plot still makes its own room.
LAYOUT = dict(margin=dict(l=75, r=20, t=70, b=50), uirevision="keep", legend=dict(orientation="h", y=-0.3))
#: How a current (instantaneous) strategy is drawn beside its average: thin and faint. Dashed or
#: dotted lines that flip every iteration cost the browser several milliseconds per redraw.
CURRENT_LINE = dict(width=1)
CURRENT_OPACITY = 0.55
#: The measures' names on screen: nash_conv (NashConv, the sum of the players' best-response gains) in both families.
GAP_TITLES = {
    "nash_conv": "nash_conv of the average",
    "br_gain_1": "learner's best-response gain",
    "br_gain_2": "learner's best-response gain",
}


#: Axis titles of the gaps, without their unit (:func:`gap_axis` adds it).
GAP_AXIS = {
    "nash_conv": "nash_conv",
    "br_gain_1": "best-response gain",
    "br_gain_2": "best-response gain",
}


def gap_axis(gap_name: str, unit: str = "payoff units") -> str:
    """A gap's axis title with its unit: payoffs are in the game's own unit; poker pays in antes per hand."""
    return f"{GAP_AXIS.get(gap_name, gap_name)} ({unit})"


def figure(traces: list, text: str, height: int, **layout) -> dict:
    """A figure dict with the shared layout (``layout`` entries take precedence)."""
    return {"data": traces, "layout": {**LAYOUT, "title": dict(text=text), "height": height, **layout}}


def waiting(text: str, height: int) -> dict:
    """A live chart's place before the first iteration: its title and height, and what to press.

    Drawn so that the page mounts its charts (and the browser loads plotly.js, seconds on a slow machine) before Run
    is pressed: the first update then only redraws them.
    """
    hidden = dict(visible=False)
    note = dict(
        text=words.PRESS_RUN,
        showarrow=False,
        xref="paper",
        yref="paper",
        x=0.5,
        y=0.5,
        font=dict(size=15, color="gray"),
    )
    return figure([], text, height, xaxis=hidden, yaxis=hidden, annotations=[note])


def title(text: str) -> dict:
    return dict(text=text)


#: Points per trace sent to the browser: a few hundred look smooth, and every point costs drawing
#: time on each update.
CHART_POINTS = 250


def chart_rows(iterations: np.ndarray, log_x: bool = True, points: int = CHART_POINTS) -> np.ndarray:
    """Indices of about ``points`` rows spread evenly along a log (or linear) iteration axis, the last included.

    ``iterations`` is increasing, so the rows found are too: duplicates are dropped without a sort (every update asks).
    """
    count = len(iterations)
    if count <= points:
        return np.arange(count)
    last = float(iterations[-1])
    steps = _unit_steps(points)
    targets = np.power(last, steps) if log_x else 1.0 + (last - 1.0) * steps
    rows = np.minimum(np.searchsorted(iterations, targets), count - 1)
    rows[-1] = count - 1
    fresh = np.empty(rows.shape, dtype=bool)
    fresh[0] = True
    np.not_equal(rows[1:], rows[:-1], out=fresh[1:])
    return rows[fresh]


def charted(history: rmcore.History) -> rmcore.History:
    """The checkpoints of ``history`` a chart draws (:func:`chart_rows`): ``history`` itself when that is all of them,
    since a large game keeps few (copying Liar's dice's checkpoints, megabytes each, took a large part of an update)."""
    rows = chart_rows(history.iterations)
    return history if len(rows) == len(history) else history.rows(rows)


@functools.lru_cache(maxsize=8)
def _unit_steps(points: int) -> np.ndarray:
    steps = np.linspace(0.0, 1.0, points)
    steps.flags.writeable = False
    return steps


#: Most labels on a log axis: more than this overlap on a chart a third of a screen wide.
MAX_LOG_LABELS = 8


def log_ticks(*series) -> dict:
    """Ticks at powers of ten on a log axis that spans two decades or more, every k-th decade on a very wide one.

    Plotly's default also labels 2 and 5 within every decade: about three times the labels to
    place and measure on every redraw, and a busier axis. Over many decades (a nash_conv that is
    rounding noise spans 18) even one label per decade overlaps, so the step grows to keep at most
    ``MAX_LOG_LABELS``.
    """
    values = np.concatenate([np.ravel(np.asarray(v, dtype=float)) for v in series]) if series else np.empty(0)
    values = values[np.isfinite(values) & (values > 0)]
    if not values.size or values.max() < 100 * values.min():
        return {}
    decades = np.log10(values.max()) - np.log10(values.min())
    return dict(dtick=max(1, int(np.ceil(decades / MAX_LOG_LABELS))))


def positive(values) -> np.ndarray:
    """Log axes cannot show zeros: hide them instead of drawing a cliff."""
    array = np.array(values, dtype=float)
    array[~(array > 0)] = np.nan
    return array


#: Pixels per row of a horizontal legend at the normal text size.
LEGEND_ROW = 24
#: Longest legend entry, in characters, that shares its row with another in a chart half a page wide.
LEGEND_HALF_ROW = 28


def current_traces(histories: list[rmcore.History], names: list[str], measure: str, work: bool = False) -> list[dict]:
    """Dashed lines: each race member's current (last-iterate) measure, ``history.metrics[measure]`` of its first run
    (``"nash_conv_current"`` in either family), in the member's colour, each
    named by its legend entry in ``names``; against the nodes touched with ``work``, else the iterations."""
    return [
        dict(
            type="scatter",
            x=history.metrics["nodes_touched"] if work else history.iterations.astype(float),
            y=positive(history.metrics[measure]),
            mode="lines",
            name=name,
            line=dict(color=colour(k), width=2, dash="dash"),
        )
        for k, (history, name) in enumerate(zip(histories, names))
    ]


def race_figure(
    result: rmcore.RaceResult,
    extra_traces=(),
    height: int = 440,
    names: dict | None = None,
    unit: str = "payoff units",
    work: bool = False,
) -> dict:
    """Each variant's convergence measure on log-log axes: the median line, and the min-max band over seeds.

    Guides ``c/√T`` and ``c/T`` start where the first curve starts, so they show the two rates a
    no-regret learner's measure typically follows. ``extra_traces`` are added as they are (for
    example the current policies' NashConv). ``names`` gives a curve's legend entry by its label (the tree page
    says which iterate and which averaging); by default the label. With ``work`` the x-axis is the nodes each variant
    has touched (``Curve.work``) rather than its iterations, and the guides, which are rates in iterations, are left
    out.
    """
    names = names or {}
    traces = []
    for k, curve in enumerate(result.curves):
        ink = colour(k)
        t = curve.work if work else curve.iterations.astype(float)
        if curve.runs > 1:
            traces.append(
                dict(
                    type="scatter",
                    x=t,
                    y=positive(curve.high),
                    mode="lines",
                    line=dict(width=0, color=ink),
                    showlegend=False,
                    hoverinfo="skip",
                    legendgroup=curve.label,
                )
            )
            traces.append(
                dict(
                    type="scatter",
                    x=t,
                    y=positive(curve.low),
                    mode="lines",
                    line=dict(width=0, color=ink),
                    fill="tonexty",
                    fillcolor=_translucent(ink),
                    showlegend=False,
                    hoverinfo="skip",
                    legendgroup=curve.label,
                )
            )
        name = names.get(curve.label, curve.label)
        name = name if curve.runs == 1 else f"{name} (median of {curve.runs})"
        traces.append(
            dict(
                type="scatter",
                x=t,
                y=positive(curve.median),
                mode="lines",
                name=name,
                line=dict(color=ink, width=3),
                legendgroup=curve.label,
            )
        )
    traces.extend(extra_traces)
    axis = [c.work if work else c.iterations for c in result.curves]
    t_all = np.concatenate(axis).astype(float) if result.curves else np.empty(0)
    if t_all.size and t_all.max() > 1 and not work:
        start = next((c for c in result.curves if len(c.median)), None)
        scale = float(start.median[0]) if start is not None and start.median[0] > 0 else 1.0
        grid = np.geomspace(1.0, t_all.max(), 40)
        traces.append(
            dict(
                type="scatter",
                x=grid,
                y=scale / np.sqrt(grid),
                mode="lines",
                name="guide: 1/√T",
                line=dict(color="gray", dash="dot", width=1.5),
            )
        )
        traces.append(
            dict(
                type="scatter",
                x=grid,
                y=scale / grid,
                mode="lines",
                name="guide: 1/T",
                line=dict(color="gray", dash="dash", width=1.5),
            )
        )
    gaps = [trace["y"] for trace in traces]
    # The legend sits under the plot, two short entries a row and a long one alone: the figure grows by the rows past
    # two, so that many variants lengthen the chart instead of squashing its plot (the tree page's ten entries of
    # 40-odd characters, counted two a row, left the plot 150 px high under a scrolling legend).
    entries = [trace.get("name", "") for trace in traces if trace.get("showlegend", True)]
    long = sum(len(name) > LEGEND_HALF_ROW for name in entries)
    rows = long + -(-(len(entries) - long) // 2)
    height += LEGEND_ROW * max(0, rows - 2)
    # With the current profiles drawn too the title names the measure alone ("of the average" would be half the story).
    measure = GAP_AXIS if extra_traces else GAP_TITLES
    measure = measure.get(result.gap_name, result.gap_name)
    return figure(
        traces,
        f"{'Race: ' if len(result.curves) > 1 else ''}{measure} (log-log)",
        height,
        xaxis=dict(type="log", title=title("nodes touched" if work else "iteration T"), **log_ticks(t_all)),
        yaxis=dict(
            type="log",
            exponentformat="power",
            title=title(gap_axis(result.gap_name, unit)),
            **log_ticks(*gaps),
        ),
        legend=dict(orientation="h", y=-0.25),
    )


def _translucent(colour: str, alpha: float = 0.18) -> str:
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def race_table(result: rmcore.RaceResult) -> list[dict]:
    """Rows for the race table: iterations and solver seconds to each threshold, the value now, the speed."""
    rows = []
    for standing in result.standings:
        row = {"variant": standing.label, GAP_AXIS.get(result.gap_name, result.gap_name): f"{standing.gap:.3e}"}
        for threshold, reached in standing.reached.items():
            row[f"to {threshold:.0e}"] = (
                "not yet" if reached is None else f"{reached.iterations:,} its, {reached.seconds:.2g} s"
            )
        rate = standing.iterations_per_second
        row["iterations / s (solver)"] = "-" if rate is None else f"{rate:,.0f}"
        rows.append(row)
    return rows


# -- presentation mode and replay ----------------------------------------------------------------

#: Smallest text on a projected chart, in pixels: tick labels, legends and annotations alike.
PROJECTOR_TEXT = 18
#: Current (instantaneous) strategies on a projector: wide and nearly opaque, so they stay visible
#: on the simplex's dark edges and on a washed-out screen.
PROJECTOR_CURRENT = dict(width=2.5)
PROJECTOR_CURRENT_OPACITY = 0.9
#: Height added to a chart whose legend moves from beside the plot to below it on a projector, in pixels (two or three
#: rows of 18 px entries), and the right margin left for a colour bar.
PROJECTOR_LEGEND_ROOM = 160
#: A character's width at the projector's text size, as a share of the size (an average over a sans-serif's letters).
PROJECTOR_CHARACTER_WIDTH = 0.55
#: Longest line of a projected chart's title, in characters: a chart half a 1280-pixel screen wide shows about 60 at
#: the projector's title size and cuts the rest; a longer title is wrapped at a space, each line PROJECTOR_TITLE_LINE
#: pixels of the top margin.
PROJECTOR_TITLE_CHARS = 56
PROJECTOR_TITLE_LINE = 28
PROJECTOR_RIGHT_MARGIN = 110


def for_projector(spec: dict) -> dict:
    """The same figure for a projector: text at least ``PROJECTOR_TEXT`` px, lines at least 3 px (current ones 2.5 px
    and nearly opaque), markers a third larger, and margins that make room for the larger labels. ``spec`` is not
    changed."""
    layout = dict(spec["layout"])
    layout["font"] = {**layout.get("font", {}), "size": PROJECTOR_TEXT}
    title = layout.get("title", {})
    title = {"text": title} if isinstance(title, str) else dict(title)
    title["text"], added_lines = _wrapped(title.get("text", ""), PROJECTOR_TITLE_CHARS)
    layout["title"] = {**title, "font": {"size": PROJECTOR_TEXT + 4}}
    legend = layout.get("legend", {})
    layout["legend"] = {**legend, "font": {"size": PROJECTOR_TEXT}}
    if "height" in layout:  # (a short chart's vertical axis title, at the projector's size, would run past its plot)
        plot = (
            layout["height"]
            - (layout.get("margin") or {}).get("t", 0) * 1.2
            - (layout.get("margin") or {}).get("b", 0) * 1.3
        )
        layout["height"] += max(0, round(vertical_title_length(layout) - plot))
    if legend.get("orientation") == "h" and legend.get("y", 0) < 0:  # below the plot: clear of the larger axis titles
        layout["legend"].update(y=legend["y"] - 0.12, yanchor="top")  # (its top there, however many rows it takes)
        layout["height"] = layout.get("height", 450) + 50
    elif legend.get("orientation") == "v" and legend.get("x", 0) > 1 and _keeps_its_shape(layout):
        # Beside the plot, the projector's larger legend takes half a column's width from a square or a triangle (which
        # then shrinks in both directions to stay in shape): below it, in rows, the plot keeps the column's width.
        layout["legend"].update(orientation="h", x=0.0, xanchor="left", y=-0.3, yanchor="top")
        layout["height"] = layout.get("height", 450) + PROJECTOR_LEGEND_ROOM
        if "margin" in layout:
            layout["margin"] = {**layout["margin"], "r": min(layout["margin"].get("r", 0), PROJECTOR_RIGHT_MARGIN)}
    if "margin" in layout:
        margin = layout["margin"]
        layout["margin"] = {
            **margin,
            "l": margin.get("l", 0) * 1.3,
            "b": margin.get("b", 0) * 1.3,
            # (a triangle's top corner label sits above its plot, under the title's second line)
            "t": margin.get("t", 0) * 1.2 + PROJECTOR_TITLE_LINE * (added_lines + ("ternary" in layout)),
        }
        if legend.get("orientation") == "h" and legend.get("yref") == "container":
            # A legend in the bottom margin (the field chart's): at the projector's size its rows, one an entry where
            # they do not fit side by side, ran up over the axis title; the margin grows to hold them, and the chart
            # with its margins, so that the square or the triangle keeps its size.
            entries = sum(1 for trace in spec["data"] if trace.get("showlegend", True) and trace.get("name"))
            layout["margin"]["b"] = max(layout["margin"]["b"], 80 + entries * round(PROJECTOR_TEXT * 1.5))
            added = layout["margin"]["t"] + layout["margin"]["b"] - margin.get("t", 0) - margin.get("b", 0)
            layout["height"] = layout.get("height", 450) + round(added)
    if "annotations" in layout:
        layout["annotations"] = [
            {**a, "font": {**a.get("font", {}), "size": max(a.get("font", {}).get("size", 0), PROJECTOR_TEXT)}}
            for a in layout["annotations"]
        ]
    data = []
    for trace in spec["data"]:
        trace = dict(trace)
        line = dict(trace.get("line", {}))
        if trace.get("type", "scatter") in ("scatter", "scatterternary") and line.get("width", 2) > 0:
            if line.get("width", 2) < 2:
                line.update(PROJECTOR_CURRENT)
                trace["opacity"] = max(trace.get("opacity", 1.0), PROJECTOR_CURRENT_OPACITY)
            else:
                line["width"] = max(line.get("width", 2), 3)
            trace["line"] = line
        if isinstance(trace.get("marker", {}).get("size"), (int, float)):
            trace["marker"] = {**trace["marker"], "size": trace["marker"]["size"] * 4 / 3}
        if "textfont" in trace:
            trace["textfont"] = {**trace["textfont"], "size": PROJECTOR_TEXT}
        data.append(trace)
    return {"data": data, "layout": layout}


def _wrapped(text: str, width: int) -> tuple[str, int]:
    """``text`` in lines of at most ``width`` characters, broken at spaces (``<br>``), and how many lines it gained; a
    title already laid out in lines is left as it is."""
    if "<br>" in text or len(text) <= width:
        return text, 0
    lines = [""]
    for word in text.split(" "):
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    return "<br>".join(lines), len(lines) - 1


def vertical_title_length(layout: dict) -> float:
    """The longest vertical axis title of a layout, in pixels at the projector's text size (estimated)."""
    titles = [axis.get("title") for key, axis in layout.items() if key.startswith("yaxis") and isinstance(axis, dict)]
    texts = [t.get("text", "") if isinstance(t, dict) else str(t or "") for t in titles]
    return max((len(text) for text in texts), default=0) * PROJECTOR_TEXT * PROJECTOR_CHARACTER_WIDTH


def _keeps_its_shape(layout: dict) -> bool:
    """Whether a figure's plot keeps its shape as it narrows (a triangle, or axes locked to one scale)."""
    return "ternary" in layout or "scaleanchor" in layout.get("yaxis", {})


def legend_right(spec: dict) -> dict:
    """``spec`` with its legend in a column right of the plot (for a chart as wide as the page)."""
    return {
        "data": spec["data"],
        "layout": {**spec["layout"], "legend": dict(orientation="v", x=1.02, y=1, yanchor="top")},
    }


def mark_iteration(spec: dict, iteration: int, at: float | None = None) -> dict:
    """``spec`` with a vertical line at ``iteration`` on every x axis (every panel) and a label on the first: a replay's
    "now". ``at`` places it elsewhere on an x-axis that is not the iterations (the nodes touched by ``iteration``)."""
    layout = dict(spec["layout"])
    x_value = iteration if at is None else at
    axes = sorted(key for key in layout if key.startswith("xaxis")) or ["xaxis"]
    shapes = list(layout.get("shapes", []))
    for axis in axes:
        x = "x" + axis[len("xaxis") :]
        y = "y" + axis[len("xaxis") :]
        shapes.append(
            dict(
                type="line",
                xref=x,
                yref=f"{y} domain",
                x0=x_value,
                x1=x_value,
                y0=0,
                y1=1,
                line=dict(color="black", width=2, dash="dot"),
            )
        )
    label = dict(
        text=f"t = {iteration:,}",
        xref="x",
        yref="y domain",
        x=_axis_position(layout.get("xaxis", {}), x_value),
        y=1.0,
        showarrow=False,
        xanchor="left",
        yanchor="bottom",
        font=dict(color="black"),
    )
    layout["shapes"] = shapes
    layout["annotations"] = [*layout.get("annotations", []), label]
    return {"data": spec["data"], "layout": layout}


def _axis_position(axis: dict, value: float) -> float:
    """Where ``value`` sits on a Plotly axis: annotations on a log axis take log10 of the value."""
    return float(np.log10(max(value, 1))) if axis.get("type") == "log" else value
