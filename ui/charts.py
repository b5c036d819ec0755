"""Figure pieces both pages share, and the race chart: pure data -> a Plotly figure as a plain dict.

The figures are plain dicts in Plotly's JSON schema rather than ``go.Figure`` objects: pages redraw
several of them several times a second, and building validated figure objects took most of the
server's time per update (about 60 ms of 110). ``go.Figure(spec)`` turns one into a figure object,
validating it on the way, for a notebook (the tests do exactly that). No Streamlit here.
"""

from __future__ import annotations

import numpy as np

import rmcore

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
# Fixed margins wide enough for tick labels and axis titles: automatic margins cost the browser a
# second layout pass on every redraw. The legend below the plot still makes its own room.
LAYOUT = dict(margin=dict(l=75, r=20, t=70, b=50), uirevision="keep", legend=dict(orientation="h", y=-0.3))
#: How a current (instantaneous) strategy is drawn beside its average: thin and faint. Dashed or
#: dotted lines that flip every iteration cost the browser several milliseconds per redraw.
CURRENT_LINE = dict(width=1)
CURRENT_OPACITY = 0.55
GAP_TITLES = {
    "nash_conv": "nash_conv of the average",
    "br_gain_row": "learner's best-response gain",
    "exploitability": "exploitability of the average",
}


def figure(traces: list, text: str, height: int, **layout) -> dict:
    """A figure dict with the shared layout (``layout`` entries take precedence)."""
    return {"data": traces, "layout": {**LAYOUT, "title": dict(text=text), "height": height, **layout}}


def title(text: str) -> dict:
    return dict(text=text)


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


def race_figure(result: rmcore.RaceResult, extra_traces=(), height: int = 440) -> dict:
    """Each variant's convergence measure on log-log axes: the median line, and the min-max band over seeds.

    Guides ``c/√T`` and ``c/T`` start where the first curve starts, so they show the two rates a
    no-regret learner's measure typically follows. ``extra_traces`` are added as they are (for
    example the current policies' exploitability).
    """
    traces = []
    for k, curve in enumerate(result.curves):
        colour = COLOURS[k % len(COLOURS)]
        t = curve.iterations.astype(float)
        if curve.runs > 1:
            traces.append(dict(type="scatter", x=t, y=positive(curve.high), mode="lines", line=dict(width=0, color=colour),
                               showlegend=False, hoverinfo="skip", legendgroup=curve.label))  # fmt: skip
            traces.append(dict(type="scatter", x=t, y=positive(curve.low), mode="lines", line=dict(width=0, color=colour), fill="tonexty",
                               fillcolor=_translucent(colour), showlegend=False, hoverinfo="skip", legendgroup=curve.label))  # fmt: skip
        name = curve.label if curve.runs == 1 else f"{curve.label} (median of {curve.runs})"
        traces.append(dict(type="scatter", x=t, y=positive(curve.median), mode="lines", name=name, line=dict(color=colour, width=3),
                           legendgroup=curve.label))  # fmt: skip
    traces.extend(extra_traces)
    t_all = np.concatenate([c.iterations for c in result.curves]).astype(float) if result.curves else np.empty(0)
    if t_all.size and t_all.max() > 1:
        start = next((c for c in result.curves if len(c.median)), None)
        scale = float(start.median[0]) if start is not None and start.median[0] > 0 else 1.0
        grid = np.geomspace(1.0, t_all.max(), 40)
        traces.append(dict(type="scatter", x=grid, y=scale / np.sqrt(grid), mode="lines", name="guide: 1/√T", line=dict(color="gray", dash="dot", width=1.5)))
        traces.append(dict(type="scatter", x=grid, y=scale / grid, mode="lines", name="guide: 1/T", line=dict(color="gray", dash="dash", width=1.5)))
    gaps = [trace["y"] for trace in traces]
    return figure(
        traces, f"Race: {GAP_TITLES.get(result.gap_name, result.gap_name)} (log-log)", height,
        xaxis=dict(type="log", title=title("iteration T"), **log_ticks(t_all)),
        yaxis=dict(type="log", exponentformat="power", title=title(result.gap_name), **log_ticks(*gaps)),
        legend=dict(orientation="h", y=-0.25),
    )  # fmt: skip


def _translucent(colour: str, alpha: float = 0.18) -> str:
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def race_table(result: rmcore.RaceResult) -> list[dict]:
    """Rows for the race table: iterations and solver seconds to each threshold, the value now, the speed."""
    rows = []
    for standing in result.standings:
        row = {"variant": standing.label, result.gap_name: f"{standing.gap:.3e}"}
        for threshold, reached in standing.reached.items():
            row[f"to {threshold:.0e}"] = "not yet" if reached is None else f"{reached.iterations:,} its, {reached.seconds:.2g} s"
        rate = standing.iterations_per_second
        row["iterations / s (solver)"] = "-" if rate is None else f"{rate:,.0f}"
        rows.append(row)
    return rows
