"""The strategy-space chart with the field under the rule: pure data -> a Plotly figure dict (no Streamlit).

Drawn on the unit square of a 2x2 game, across it for a 2-action learner against a fixed opponent, or on the triangle
of a 3-action learner or of one population (see :mod:`rmcore.plotting.fields`). Layers, back to front: the field's short
streamlines coloured by speed (a colour bar says how fast), the rest points (filled: stable, open: unstable, grey:
neutral, each labelled), the Nash equilibrium (a star), the average strategies as a line and the last iterates as a
trail of their recent positions. Plotly has no stream plot: the streamlines come from
:func:`rmcore.plotting.fields.streamlines`, and each speed band is one trace of line pieces separated by gaps (a few
traces, however many streamlines).
"""

from __future__ import annotations

import functools
import hashlib
import math
from typing import NamedTuple

import numpy as np

from rmcore import History, MatrixGame

from . import fields, words
from .charts import COLOURS
from .charts import figure as _figure
from .charts import title as _title

#: The field's speed bands, slow to fast: Plotly's Plasma without its darkest and lightest ends, so that every band
#: reads on a light and on a dark page.
SPEED_COLOURS = ("#5c01a6", "#7e03a8", "#9c179e", "#b52f8c", "#cc4778", "#de5f65", "#ed7953", "#f89540", "#fdb42f")
#: Rest points by class: a filled dot is stable, an open one unstable, a grey one neutral (a centre).
REST_MARKERS = {
    "stable": dict(color="black", line=dict(color="black", width=2)),
    "unstable": dict(color="rgba(0,0,0,0)", line=dict(color="black", width=2)),
    "neutral": dict(color="gray", line=dict(color="black", width=1)),
}
#: The last iterate's recent positions drawn as its trail (consecutive checkpoints of the history).
TRAIL_ROWS = 120
TRIANGULAR = ("simplex", "one-population")
AVERAGE_COLOUR = "black"
#: A run's trail takes its colour in the race chart (the first variant's is the first colour).
TRAIL_COLOURS = COLOURS
#: The ``meta`` of the traces that move from one iteration to the next (an animation draws the rest once).
ITERATE = "iterate"
#: The ``meta`` of the field's streamlines, thousands of points that stay put while the iterates move: the live chart
#: draws them once, in a plot of their own under the rest (``ui/live_chart_frontend/live_chart.js`` reads this name).
#: Their ``uid`` carries a digest of their points, so that the browser tells a new field from the one it holds without
#: comparing thousands of numbers on every update.
FIELD = "field"
#: Chart height: the square is drawn square, with its legend under it (a half-width column at 1280 pixels leaves the
#: plot about 280 pixels across; the height lets a wide column's plot grow to about 330).
HEIGHT = 580
#: Margins, in pixels: the axis titles on the left and below, the legend's rows under them, the colour bar on the right.
SQUARE_MARGIN = dict(l=64, r=78, t=80, b=150)
TERNARY_MARGIN = dict(l=46, r=78, t=96, b=150)
SQUARE_TICKS = (0, 0.25, 0.5, 0.75, 1)
TERNARY_TICKS = (0.2, 0.4, 0.6, 0.8)


def run_names(variants) -> list[str]:
    """Each run's name in the chart's legend: its rule's name ("Hedge", "Optimistic Hedge"), or its variant's whole
    label where two runs share a rule.

    >>> from rmcore import MatrixVariant
    >>> run_names([MatrixVariant("hedge"), MatrixVariant("optimistic-hedge")])
    ['Hedge', 'Optimistic Hedge']
    """
    rules = [v.algorithm for v in variants]
    return [
        words.RULE_NAMES.get(v.algorithm, v.algorithm) if rules.count(v.algorithm) == 1 else v.label for v in variants
    ]


class Trail(NamedTuple):
    """One run's iterates on the chart: its name in the legend, the checkpoints its average line is drawn through
    (thinned for the chart), and its recent consecutive checkpoints, whose current strategies make its trail."""

    name: str
    averages: History
    recent: History


class Layers(NamedTuple):
    """Which layers are drawn: the field, the last iterates' trails, the average line."""

    field: bool = True
    current: bool = True
    average: bool = True


def _stacked(setup: fields.Setup, history: History, kind: str) -> np.ndarray:
    """A history's strategies of ``kind`` as stacked strategies of the set-up's populations."""
    if setup.space == "square":
        return np.concatenate([history.strategy(kind, "row"), history.strategy(kind, "col")], axis=1)
    return history.strategy(kind, "row")


def _coordinates(setup: fields.Setup, plane: np.ndarray, digits: int | None = None) -> dict:
    """Points of the plane as a trace's coordinates: ``x, y`` on the square, ``a, b, c`` on the triangle (rounded to
    ``digits`` decimals if given)."""
    if setup.space in TRIANGULAR:
        z = fields.from_plane(setup, plane)
        z = z if digits is None else np.round(z, digits)
        return dict(type="scatterternary", a=z[..., 0], b=z[..., 1], c=z[..., 2])
    plane = plane if digits is None else np.round(plane, digits)
    return dict(type="scatter", x=plane[..., 0], y=plane[..., 1])


def _arrowheads(paths: np.ndarray, size: float, angle: float = math.radians(28)) -> np.ndarray:
    """Two barbs at each path's forward end, as ``(count, 3, 2)`` polylines (barb, tip, barb); NaN where a path did
    not move."""
    tip, back = paths[:, -1], paths[:, -3]
    direction = tip - back
    norm = np.linalg.norm(direction, axis=-1, keepdims=True)
    direction = np.where(norm > 1e-9, direction / np.maximum(norm, 1e-12), np.nan)
    cos, sin = math.cos(angle), math.sin(angle)
    left = np.stack([cos * direction[:, 0] - sin * direction[:, 1], sin * direction[:, 0] + cos * direction[:, 1]], -1)
    right = np.stack(
        [cos * direction[:, 0] + sin * direction[:, 1], -sin * direction[:, 0] + cos * direction[:, 1]], -1
    )
    return np.stack([tip - size * left, tip, tip - size * right], axis=1)


def _with_gaps(pieces: list[np.ndarray]) -> np.ndarray:
    """Polylines joined into one array of points, a NaN row between each (Plotly breaks the line there)."""
    gap = np.full((1, 2), np.nan)
    return np.concatenate([part for piece in pieces for part in (piece, gap)]) if pieces else np.empty((0, 2))


#: Decimals a streamline's point keeps on its way to the browser: a ten-thousandth of the square or the triangle's side
#: is a twentieth of a pixel on a 500-pixel chart, and the field's points, sent again with every update, take a third
#: of the bytes they take at full precision.
FIELD_DIGITS = 4


def field_traces(setup: fields.Setup) -> list[dict]:
    """The streamlines, one trace per speed band, with arrowheads, and a colour bar of the speed |ż|.

    Built once per set-up (:func:`_field_traces`): a live page asks for them on every update. Each call gets its own
    dicts over shared read-only arrays, so that a caller may restyle a trace without touching the cached one.
    """
    return [dict(trace) for trace in _field_traces(setup, FIELD_DIGITS)]


@functools.lru_cache(maxsize=32)
def _field_traces(setup: fields.Setup, digits: int | None) -> tuple[dict, ...]:
    """:func:`field_traces`' cache (``digits`` a key of it: a test draws the field unrounded too)."""
    picture = fields.picture(setup)
    paths, speeds = picture.paths, picture.speeds
    top = float(speeds.max(initial=0.0))
    if top <= 0:
        return ()
    moving = np.linalg.norm(paths[:, -1] - paths[:, 0], axis=-1) > 1e-6
    heads = _arrowheads(paths, 0.3 * float(np.median(np.linalg.norm(paths[:, -1] - paths[:, 0], axis=-1))))
    bands = np.minimum((speeds / top * len(SPEED_COLOURS)).astype(int), len(SPEED_COLOURS) - 1)
    streamlines = []
    for band, colour in enumerate(SPEED_COLOURS):
        chosen = np.flatnonzero((bands == band) & moving)
        if not chosen.size:
            continue
        points = _with_gaps([piece for k in chosen for piece in (paths[k], heads[k])])
        coordinates = _coordinates(setup, points, digits)
        for value in coordinates.values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        streamlines.append(
            dict(
                mode="lines",
                line=dict(color=colour, width=1.4),
                opacity=0.8,
                hoverinfo="skip",
                showlegend=False,
                name=f"field, speed band {band + 1}",
                meta=FIELD,
                **coordinates,
            )
        )
    digest = hashlib.blake2b(digest_size=8)
    for trace in streamlines:
        for value in trace.values():
            if isinstance(value, np.ndarray):
                digest.update(np.ascontiguousarray(value).tobytes())
    traces = [dict(trace, uid=f"{FIELD}-{digest.hexdigest()}-{k}") for k, trace in enumerate(streamlines)]
    # The colour bar: one invisible marker that carries the scale (Plotly draws a colour bar only for a colour scale).
    scale = [[k / (len(SPEED_COLOURS) - 1), colour] for k, colour in enumerate(SPEED_COLOURS)]
    anchor = _coordinates(setup, paths[:1, 0])
    traces.append(
        dict(
            mode="markers",
            marker=dict(
                size=0.1,
                opacity=0,
                color=[0.0],
                cmin=0.0,
                cmax=top,
                colorscale=scale,
                showscale=True,
                colorbar=dict(
                    title=dict(text="speed |ż|", side="right"),
                    thickness=10,
                    len=0.45,
                    xref="container",
                    x=1.0,
                    xanchor="right",
                    xpad=4,
                    y=1.0,
                    yanchor="top",
                ),
            ),
            hoverinfo="skip",
            showlegend=False,
            name="field speed",
            **anchor,
        )
    )
    return tuple(traces)


#: A part of an eigenvalue smaller than this share of the largest eigenvalue's size is rounding (a centre's real part
#: comes out of the finite differences as 1e-43 or 1e-11, never exactly 0): it is printed as 0.
EIGEN_ROUNDING = 1e-7


def _number(value: float) -> str:
    """A real number in three significant digits, without a trailing ``.0`` or an exponent for the sizes a payoff
    matrix gives."""
    return f"{value:.3g}".replace("e+0", "e").replace("e-0", "e-")


def _imaginary(value: float) -> str:
    """``b`` as the imaginary part's size: ``i`` for 1, ``0.577i`` otherwise."""
    return "i" if _number(value) == "1" else f"{_number(value)}i"


def eigen_text(values) -> str:
    """Eigenvalues as a reader writes them: parts tiny against the largest size rounded to 0, a conjugate pair as one
    ``a ± bi``.

    >>> eigen_text([-5.38e-43 + 1j, -5.38e-43 - 1j])
    '±i'
    >>> eigen_text([-1 + 577.35j, -1 - 577.35j, 2.0])
    '-1 ± 577i, 2'
    >>> eigen_text([1e-12 - 0.57735j, 1e-12 + 0.57735j])
    '±0.577i'
    """
    values = [complex(v) for v in values]
    size = max((abs(v) for v in values), default=0.0)
    tiny = EIGEN_ROUNDING * size
    cleaned = [complex(v.real if abs(v.real) > tiny else 0.0, v.imag if abs(v.imag) > tiny else 0.0) for v in values]
    said, paired = [], set()
    for k, v in enumerate(cleaned):
        if k in paired:
            continue
        if v.imag == 0:
            said.append(_number(v.real))
            continue
        partner = next(
            (j for j in range(k + 1, len(cleaned)) if j not in paired and abs(cleaned[j] - v.conjugate()) <= tiny),
            None,
        )
        if partner is None:  # (a real matrix's complex eigenvalues come in pairs; said alone all the same)
            sign = "+" if v.imag > 0 else "-"
            said.append(
                f"{_number(v.real)} {sign} {_imaginary(abs(v.imag))}" if v.real else f"{sign}{_imaginary(abs(v.imag))}"
            )
            continue
        paired.add(partner)
        imaginary = _imaginary(abs(v.imag))
        said.append(f"{_number(v.real)} ± {imaginary}" if v.real else f"±{imaginary}")
    return ", ".join(said)


def _strategies_text(strategies) -> str:
    """A rest point's strategies in three significant digits, one bracket a population."""
    return " against ".join("(" + ", ".join(_number(v) for v in s) + ")" for s in strategies)


def rest_point_traces(setup: fields.Setup, points) -> list[dict]:
    """The rest points by class: a marker each (hover: the strategies and the eigenvalues) and its class in words."""
    traces = []
    for stability in fields.STABILITIES:
        chosen = [p for p in points if p.stability == stability]
        if not chosen:
            continue
        plane = fields.to_plane(setup, np.array([np.concatenate(p.strategies) for p in chosen]))
        traces.append(
            dict(
                # (the legend names each class: a word beside each dot sat on the arrows, the star and the edges)
                mode="markers",
                marker=dict(size=12, symbol="circle", **REST_MARKERS[stability]),
                name=f"rest point: {stability}",
                hovertext=[
                    f"{stability} rest point {_strategies_text(p.strategies)}<br>"
                    + words.eigenvalues_words(setup.dynamic, eigen_text(p.eigenvalues))
                    for p in chosen
                ],
                hoverinfo="text",
                cliponaxis=False,
                **_coordinates(setup, plane),
            )
        )
    return traces


def equilibrium_traces(setup: fields.Setup, equilibria) -> list[dict]:
    """The Nash equilibria (of the exact answer, or the game's known ones) as gold stars."""
    if not equilibria:
        return []
    if setup.space == "square":
        z = np.array([[*eq.row, *eq.col] for eq in equilibria], dtype=float)
    else:
        z = np.array([eq.row for eq in equilibria], dtype=float)
    plane = fields.to_plane(setup, z)
    return [
        dict(
            mode="markers",
            marker=dict(symbol="star", size=17, color="gold", line=dict(color="black", width=1)),
            name="Nash equilibrium",
            cliponaxis=False,
            hovertemplate="Nash equilibrium<extra></extra>",
            **_coordinates(setup, plane),
        )
    ]


def iterate_traces(setup: fields.Setup, trails, layers: Layers, moment=None) -> list[dict]:
    """Each run's average strategies as a line (the first run's thick, in the foreground colour) and its last
    iterates' recent positions as a trail of dots that fade into the past, ending in a ringed dot at the last one."""
    traces = []
    for k, trail in enumerate(trails):
        colour = TRAIL_COLOURS[k % len(TRAIL_COLOURS)]
        if layers.average:
            plane = fields.to_plane(setup, _stacked(setup, trail.averages, "average"))
            traces.append(
                dict(
                    mode="lines",
                    line=dict(color=AVERAGE_COLOUR if k == 0 else colour, width=3.5 if k == 0 else 2, dash="solid"),
                    name=f"{trail.name}: average",
                    meta=ITERATE,
                    hoverinfo="skip",
                    **_coordinates(setup, plane),
                )
            )
        if layers.current:
            recent = _stacked(setup, trail.recent, "current")[-TRAIL_ROWS:]
            plane = fields.to_plane(setup, recent)
            fade = np.linspace(0.15, 1.0, len(plane))
            traces.append(
                dict(
                    mode="lines+markers",
                    line=dict(color=colour, width=1),
                    marker=dict(color=colour, size=np.round(3 + 4 * fade, 2), opacity=np.round(fade, 3)),
                    name=f"{trail.name}: last iterate",
                    meta=ITERATE,
                    hoverinfo="skip",
                    **_coordinates(setup, plane),
                )
            )
            traces.append(
                dict(
                    mode="markers",
                    marker=dict(size=13, color=colour, line=dict(color="black", width=2)),
                    name=f"{trail.name}: last iterate now",
                    meta=ITERATE,
                    showlegend=False,
                    cliponaxis=False,
                    hoverinfo="skip",
                    **_coordinates(setup, plane[-1:]),
                )
            )
    if moment is not None:
        iteration, row, col = moment
        z = np.array([[*row, *col]] if setup.space == "square" else [row], dtype=float)
        traces.append(
            dict(
                mode="markers",
                marker=dict(size=16, color="rgba(0,0,0,0)", line=dict(color="black", width=3)),
                name=f"average at t = {iteration:,}",
                meta=ITERATE,
                cliponaxis=False,
                **_coordinates(setup, fields.to_plane(setup, z)),
            )
        )
    return traces


def strategy_space(
    game: MatrixGame,
    setup: fields.Setup,
    trails=(),
    equilibria=(),
    layers: Layers | None = None,
    moment=None,
    title: str | None = None,
    start=None,
) -> dict:
    """The strategy-space chart of ``game`` with the field of ``setup`` (its picture cached per set-up), the rest
    points, ``equilibria``, the ``trails`` (:class:`Trail`) of the runs drawn, as ``layers`` says, and the ``start``
    (stacked strategies) as a diamond."""
    layers = layers or Layers()
    picture = fields.picture(setup)
    traces = field_traces(setup) if layers.field else []
    traces += rest_point_traces(setup, picture.rest_points)
    traces += equilibrium_traces(setup, equilibria)
    traces += iterate_traces(setup, trails, layers, moment)
    if start is not None:
        traces.append(
            dict(
                mode="markers",
                marker=dict(symbol="diamond-open", size=13, color="black", line=dict(width=2)),
                name="start",
                showlegend=False,  # (the caption says what the diamond is)
                cliponaxis=False,
                hovertemplate="where learning starts<extra></extra>",
                **_coordinates(setup, fields.to_plane(setup, np.asarray(start, dtype=float)[None, :])),
            )
        )
    name, equation = fields.DYNAMIC_TITLES[setup.dynamic]
    heading = title or f"{name} and the iterates<br><sup>{equation}</sup>"
    # The legend under the plot, in rows, and the colour bar in the right margin: beside the plot they took half a
    # column's width from a square or a triangle (which then shrinks in both directions to stay in shape).
    legend = dict(
        orientation="h",
        x=0.0,
        xanchor="left",
        yref="container",
        y=0.0,
        yanchor="bottom",
        font=dict(size=11),
    )
    if setup.space in TRIANGULAR:
        labels = game.row_actions
        # No tick labels at the corners (1 on one side and 0 on the next collided there): the corners carry the
        # actions' names.
        ticks = dict(min=0, tickvals=list(TERNARY_TICKS), ticks="outside", ticklen=4)
        ternary = dict(
            sum=1,
            aaxis=dict(title=_title(labels[0]), **ticks),
            baxis=dict(title=_title(labels[1]), **ticks),
            caxis=dict(title=_title(labels[2]), **ticks),
        )
        return _figure(traces, heading, HEIGHT, ternary=ternary, legend=legend, margin=TERNARY_MARGIN)
    who = "the fixed opponent plays" if setup.space == "segment" else "column plays"
    # Ticks outside, their labels clear of the corners' rest points (both axes' 0 met at the origin's dot).
    axis = dict(
        range=[0, 1], constrain="domain", ticks="outside", ticklen=4, ticklabelstandoff=6, tickvals=SQUARE_TICKS
    )
    return _figure(
        traces,
        heading,
        HEIGHT,
        xaxis=dict(title=_title(f"row plays {game.row_actions[0]}"), **axis),
        yaxis=dict(title=_title(f"{who} {game.col_actions[0]}"), scaleanchor="x", scaleratio=1, **axis),
        legend=legend,
        margin=SQUARE_MARGIN,
    )
