"""The atlas's figure: every run of one game, its measure against iterations (or seconds): NashConv of the average and
of the last iterate, or a gap of the joint distribution of play (a general-sum game's CE or CCE gap).

Pure data -> a Plotly figure as a plain dict (as ``rmcore/plotting/charts.py``): the page draws it, and
``python -m ui.atlas.report`` writes the same figure as the docs' SVG. No Streamlit here.
"""

from __future__ import annotations

import math

import pandas as pd

from rmcore.atlas import GAPS
from rmcore.plotting.charts import LAYOUT, colour, log_ticks

#: What the x-axis can be, and its title.
X_AXES = {"iteration": "iterations", "seconds": "seconds (the solver's time, metrics left out)"}
#: How each iterate is drawn: the average solid, the current policy (the last iterate) dashed and thinner.
ITERATES = {"average": ("", dict(width=2)), "last": ("_current", dict(width=1.3, dash="dash"))}
#: The measures of the joint distribution of play, by their names: one line a run (the distribution has no last
#: iterate).
JOINT = GAPS


def _points(values) -> list:
    """Numbers for a log axis: zeros and NaN become gaps (None), never a cliff to 1e-300."""
    return [float(v) if isinstance(v, (int, float)) and math.isfinite(v) and v > 0 else None for v in values]


def curves(frame: pd.DataFrame, measure: str = "nash_conv", x: str = "iteration", title: str = "") -> dict:
    """One game's runs (``rmcore.read_results``' rows for that game): for each run two lines, the ``measure`` of the
    average policy (solid) and of the last iterate (dashed), coloured by algorithm; a sampled variant's seeds share
    their colour. A measure of :data:`JOINT` draws one line a run, that of the joint distribution of play (its
    ``iterate`` is ``"joint"``). Each trace's ``meta`` names its run (``cell``) and ``iterate``, so the page's figure
    can be read back run by run."""
    joint = measure in JOINT
    iterates = {"joint": ("", ITERATES["average"][1])} if joint else ITERATES
    what = {"average": "average", "last": "last iterate", "joint": "joint distribution of play"}
    done = frame[frame.status == "done"]
    labels = list(dict.fromkeys(done.label))
    traces, shown = [], set()
    for cell, runs in done.groupby("cell", sort=False):
        label = runs.label.iloc[0]
        seed = runs.seed.iloc[0]
        name = label if pd.isna(seed) else f"{label} · seed {seed}"
        for iterate, (suffix, line) in iterates.items():
            key = (label, iterate)
            traces.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": label if iterate != "last" else f"{label} · last iterate",
                    "legendgroup": label,
                    "showlegend": key not in shown,
                    "x": [float(v) for v in runs[x]],
                    "y": _points(runs[measure + suffix]),
                    "line": dict(color=colour(labels.index(label)), **line),
                    "meta": {"cell": cell, "iterate": iterate, "run": name},
                    "hovertemplate": f"{name} ({what[iterate]})<br>{X_AXES[x].split(' (')[0]} %{{x:,.6g}}<br>"
                    f"{JOINT.get(measure, measure)} %{{y:.3e}}<extra></extra>",
                }
            )
            shown.add(key)
    values = [v for trace in traces for v in trace["y"] if v is not None]
    xs = [v for trace in traces for v in trace["x"] if v > 0]
    layout = {
        **LAYOUT,
        "title": dict(text=title),
        "height": 560,
        "margin": dict(l=75, r=20, t=60, b=50),
        "legend": dict(orientation="v", x=1.02, y=1, font=dict(size=11)),
        "xaxis": dict(type="log", title=dict(text=X_AXES[x]), exponentformat="power", **log_ticks(xs)),
        "yaxis": dict(
            type="log",
            title=dict(
                text=f"{JOINT[measure]} of the joint distribution of play"
                if joint
                else f"{measure} (solid: average; dashed: last iterate)"
            ),
            exponentformat="power",
            **log_ticks(values),
        ),
    }
    return {"data": traces, "layout": layout}
