"""The correlated-equilibrium figures: a game and joint distributions -> a Plotly figure dict (no Streamlit).

A 2x2 game's joint distributions ``sigma = (s_11, s_12, s_21, s_22)`` fill a tetrahedron, each joint action a corner
(:func:`tetrahedron_figure`). The corners sit at those of a regular tetrahedron chosen so that every coordinate
means something: the first is ``2 P(row plays its first action) - 1``, the second the same of the column player, the
third ``P(the players' indices agree) - P(they differ)``, ``s_11 + s_22 - s_12 - s_21``. The independent
distributions ``x ⊗ y`` then lie on the saddle ``z = x y`` (a hyperbolic paraboloid through four of the edges), the
Nash equilibria on it, and the CE polytope and the CCE polytope (:mod:`rmcore.correlated`, their vertices by
enumeration) are solids around them, drawn from their convex hulls. A learner's empirical joint distribution
``sigma_t`` moves through the tetrahedron as a trail.

With two actions each the two sets are one (each player's CCE constraint for an alternative is their one CE
constraint for it): the CCE solid waits in the legend, a click away, the same shape. The sets part from three actions
on, where the joint distribution is a table: :func:`joint_heatmaps_figure` draws it beside the CE (or CCE) closest to
it (:func:`rmcore.closest_correlated_equilibrium`).
"""

from __future__ import annotations

import functools

import numpy as np

import rmcore
from rmcore import MatrixGame

from . import words
from .charts import COLOURS, positive
from .charts import figure as _figure
from .escape import plotly
from .matrix import _panels

#: The corners of the joint actions (1, 1), (1, 2), (2, 1), (2, 2), in that order: a regular tetrahedron (every
#: edge 2 sqrt(2) long), on which a joint distribution's point is the mix of the corners it weights.
CORNERS = np.array([[1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]])
#: The tetrahedron's six edges, as pairs of corners.
EDGES = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
HEIGHT = 620
#: The layers' colours: the CE set darker and more opaque than the paler CCE set (the same set in a 2x2 game).
CE_COLOUR, CCE_COLOUR = COLOURS[2], COLOURS[4]
CE_OPACITY, CCE_OPACITY = 0.5, 0.18
PRODUCTS_COLOUR = "#9ecae1"
PRODUCTS_OPACITY = 0.35
TRAIL_COLOUR = COLOURS[0]
BEST_COLOUR = COLOURS[3]
TRAFFIC_LIGHT_COLOUR = COLOURS[1]
#: How far out the corners' labels sit, as a multiple of the corners' distance from the centre (clear of a Nash
#: equilibrium's marker on a corner).
LABEL_OUT = 1.13
#: Grid lines per side of the saddle of independent play.
SADDLE_GRID = 21
#: Most points of a learner's trail sent to the browser (evenly spaced rows and the last one).
MAX_TRAIL_POINTS = 2000
#: Games up to this many actions a side print each cell's probability on the heatmaps.
MAX_LABELLED_SIDE = 6
#: Joint distributions of a trail must sum to 1 to within this.
TRAIL_TOLERANCE = 1e-6
#: Which solid a mesh or its outline draws (the ``meta`` of the traces).
CE_META, CCE_META = "ce-set", "cce-set"
#: The ``meta`` of the traffic light's point.
TRAFFIC_LIGHT_META = "traffic-light"


def tetrahedron_point(joint) -> np.ndarray:
    """The tetrahedron's point of each joint distribution of a 2x2 game: ``(..., 2, 2)`` (or ``(..., 4)``, the cells
    in row-major order) -> ``(..., 3)``.

    >>> tetrahedron_point([[0.25, 0.25], [0.25, 0.25]]).tolist()
    [0.0, 0.0, 0.0]
    >>> tetrahedron_point(np.outer([0.75, 0.25], [0.5, 0.5]).ravel()).tolist()  # (x', y', x' y') on the saddle
    [0.5, 0.0, 0.0]
    """
    array = np.asarray(joint, dtype=float)
    return array.reshape(*array.shape[: -2 if array.shape[-2:] == (2, 2) else -1], 4) @ CORNERS


def _checked_trail(trail) -> np.ndarray:
    """A learner's joint distributions over time, ``(T, 2, 2)`` or ``(T, 4)``, as ``(T, 4)``."""
    try:
        array = np.array(trail, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("the trail must be a list of 2x2 joint distributions, one per point in time") from None
    if array.ndim == 3 and array.shape[1:] == (2, 2):
        array = array.reshape(len(array), 4)
    if array.ndim != 2 or array.shape[1] != 4 or not len(array):
        raise ValueError(f"the trail must be 2x2 joint distributions, shape (T, 2, 2) or (T, 4); got {array.shape}")
    if not np.isfinite(array).all() or array.min() < -TRAIL_TOLERANCE:
        raise ValueError("the trail's probabilities must be finite and none negative")
    worst = int(np.argmax(np.abs(array.sum(axis=1) - 1)))
    if abs(array[worst].sum() - 1) > TRAIL_TOLERANCE:
        raise ValueError(f"the trail's distribution {worst + 1} sums to {array[worst].sum():.6g}, not 1")
    if len(array) > MAX_TRAIL_POINTS:
        keep = np.unique(np.linspace(0, len(array) - 1, MAX_TRAIL_POINTS).round().astype(int))
        array = array[keep]
    return array


def _joint_labels(game: MatrixGame) -> list[str]:
    return [f"({plotly(r)}, {plotly(c)})" for r in game.row_actions for c in game.col_actions]


def _solid(vertices: np.ndarray, name: str, colour: str, opacity: float, meta: str, visible) -> list[dict]:
    """A polytope given by its vertices (points of the tetrahedron) as a shaded solid and its outline: a mesh of its
    convex hull's triangles and a line along its edges; a flat polygon as a fan of triangles; a segment or a point as
    a line or a marker alone."""
    from scipy.spatial import ConvexHull

    centre = vertices.mean(axis=0)
    spread = np.linalg.svd(vertices - centre, compute_uv=False) if len(vertices) > 1 else np.zeros(3)
    dimension = int((spread > 1e-9).sum())
    common = dict(name=name, legendgroup=meta, meta=meta, visible=visible)
    if dimension == 0:
        point = vertices[:1]
        marker = dict(size=7, color=colour, symbol="circle")
        return [dict(type="scatter3d", mode="markers", marker=marker, hoverinfo="name", **_xyz(point), **common)]
    if dimension == 1:
        direction = vertices[np.argmax(np.linalg.norm(vertices - centre, axis=1))] - centre
        ends = vertices[[np.argmin(vertices @ direction), np.argmax(vertices @ direction)]]
        line = dict(color=colour, width=8)
        return [dict(type="scatter3d", mode="lines", line=line, hoverinfo="name", **_xyz(ends), **common)]
    if dimension == 2:
        _, _, axes = np.linalg.svd(vertices - centre)
        plane = (vertices - centre) @ axes[:2].T
        order = np.argsort(np.arctan2(plane[:, 1], plane[:, 0]))
        ring = vertices[order]
        triangles = np.array([(0, k, k + 1) for k in range(1, len(ring) - 1)])
        outline = np.vstack([ring, ring[:1]])
    else:
        hull = ConvexHull(vertices)
        ring, triangles = vertices, hull.simplices
        # The hull's facets come as triangles; an edge of the solid is one between two facets of different planes.
        planes: dict[tuple[int, int], list[np.ndarray]] = {}
        for simplex, equation in zip(hull.simplices, hull.equations):
            for a, b in ((0, 1), (1, 2), (0, 2)):
                planes.setdefault(tuple(sorted((simplex[a], simplex[b]))), []).append(equation)
        edges = [pair for pair, seen in planes.items() if np.abs(seen[0] - seen[-1]).max() > 1e-9]
        outline = np.full((3 * len(edges), 3), np.nan)
        for k, (a, b) in enumerate(edges):
            outline[3 * k : 3 * k + 2] = vertices[[a, b]]
    mesh = dict(
        type="mesh3d",
        i=triangles[:, 0],
        j=triangles[:, 1],
        k=triangles[:, 2],
        color=colour,
        opacity=opacity,
        flatshading=True,
        hoverinfo="name",
        showlegend=True,
        **_xyz(ring),
        **common,
    )
    edge = dict(
        type="scatter3d",
        mode="lines",
        line=dict(color=colour, width=3),
        hoverinfo="skip",
        showlegend=False,
        **_xyz(outline),
        **common,
    )
    return [mesh, edge]


def pure_equilibria(game: MatrixGame) -> list[tuple[int, int]]:
    """The cells ``(row, column)`` of ``game`` where neither player gains by switching alone: its pure Nash
    equilibria, in the order of the cells."""
    if not isinstance(game, MatrixGame):
        raise ValueError(f"pure equilibria are a matrix game's (rmcore.MatrixGame), got {type(game).__name__}")
    rows, cols = game.row_payoffs, game.col_payoffs
    return [
        (i, j)
        for i in range(rows.shape[0])
        for j in range(rows.shape[1])
        if rows[i, j] >= rows[:, j].max() and cols[i, j] >= cols[i, :].max()
    ]


def traffic_light(game: MatrixGame) -> np.ndarray | None:
    """The correlated equilibrium a traffic light implements in a 2x2 game of Chicken's kind: a fair coin says which
    player goes and which yields, each of the two asymmetric pure equilibria (the cells off the diagonal) with
    probability 1/2. It is a CE (an average of Nash equilibria is one): told to yield, a player knows the other goes.

    Returns
    -------
    numpy.ndarray or None
        The 2x2 joint distribution, for a 2x2 game whose pure equilibria are exactly its two cells off the diagonal;
        None for any other game (one without such a pair has no traffic light to mark).

    >>> import rmcore
    >>> traffic_light(rmcore.preset("aumann-chicken")).tolist()
    [[0.0, 0.5], [0.5, 0.0]]
    >>> traffic_light(rmcore.preset("battle-of-sexes")) is None  # (its pure equilibria are on the diagonal)
    True
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"a traffic light is a matrix game's (rmcore.MatrixGame), got {type(game).__name__}")
    if game.shape != (2, 2) or pure_equilibria(game) != [(0, 1), (1, 0)]:
        return None
    return np.array([[0.0, 0.5], [0.5, 0.0]])


def _xyz(points: np.ndarray) -> dict:
    return dict(x=points[:, 0], y=points[:, 1], z=points[:, 2])


def _key(game: MatrixGame) -> tuple:
    """What the drawing of a game depends on (games are compared by identity; a page may rebuild an equal one)."""
    return (game.row_payoffs.tobytes(), game.col_payoffs.tobytes(), game.row_actions, game.col_actions)


@functools.lru_cache(maxsize=16)
def _static_traces(key: tuple) -> tuple[dict, ...]:
    """Everything but the trail, per game: the tetrahedron, the saddle, the sets and the equilibria (a live page
    redraws the figure as the trail grows; the vertices, the equilibria and the program are solved once)."""
    row_bytes, col_bytes, row_actions, col_actions = key
    game = MatrixGame(
        np.frombuffer(row_bytes).reshape(2, 2),
        np.frombuffer(col_bytes).reshape(2, 2),
        row_actions=row_actions,
        col_actions=col_actions,
    )
    labels = _joint_labels(game)
    traces = []
    edges = np.full((3 * len(EDGES), 3), np.nan)
    for k, (a, b) in enumerate(EDGES):
        edges[3 * k : 3 * k + 2] = CORNERS[[a, b]]
    traces.append(
        dict(
            type="scatter3d",
            mode="lines",
            line=dict(color="gray", width=3),
            hoverinfo="skip",
            showlegend=False,
            name="edges",
            **_xyz(edges),
        )
    )
    traces.append(
        dict(
            type="scatter3d",
            mode="text",
            text=labels,
            textfont=dict(color="black", size=13),
            hovertemplate=words.CORNER_HOVER,
            showlegend=False,
            name="joint actions",
            **_xyz(CORNERS * LABEL_OUT),
        )
    )
    side = np.linspace(-1.0, 1.0, SADDLE_GRID)
    x, y = np.meshgrid(side, side)
    traces.append(
        dict(
            type="surface",
            x=x,
            y=y,
            z=x * y,
            surfacecolor=np.zeros_like(x),
            colorscale=[[0, PRODUCTS_COLOUR], [1, PRODUCTS_COLOUR]],
            showscale=False,
            opacity=PRODUCTS_OPACITY,
            hoverinfo="skip",
            showlegend=True,
            name=words.PRODUCTS,
        )
    )
    ce = tetrahedron_point(rmcore.correlated_vertices(game))
    cce = tetrahedron_point(rmcore.correlated_vertices(game, coarse=True))
    # With two actions each, a player's one CCE constraint per alternative is their one CE constraint for it, so in
    # every 2x2 game the CCE solid is the CE solid. Two equal translucent solids flicker where their faces meet: the
    # CCE's waits in the legend, a click away, named for what it is.
    traces += _solid(cce, words.CCE_SAME, CCE_COLOUR, CCE_OPACITY, CCE_META, "legendonly")
    traces += _solid(ce, words.CE_SET, CE_COLOUR, CE_OPACITY, CE_META, True)
    nash = rmcore.nash_equilibria(game).equilibria
    products = np.array([np.outer(eq.row, eq.col).ravel() for eq in nash])
    strategies = [[", ".join(f"{p:.3g}" for p in eq.row), ", ".join(f"{p:.3g}" for p in eq.col)] for eq in nash]
    traces.append(
        dict(
            type="scatter3d",
            mode="markers",
            marker=dict(size=6, color="black", symbol="diamond"),
            customdata=strategies,
            hovertemplate=words.NASH_HOVER,
            name=words.NASH,
            **_xyz(tetrahedron_point(products)),
        )
    )
    best = rmcore.correlated_equilibrium(game, "max-welfare")
    traces.append(
        dict(
            type="scatter3d",
            mode="markers",
            marker=dict(size=6, color=BEST_COLOUR, symbol="square"),
            customdata=[best.welfare],
            hovertemplate=words.BEST_HOVER,
            name=words.BEST,
            **_xyz(tetrahedron_point(best.joint)[None, :]),
        )
    )
    light = traffic_light(game)
    if light is not None:
        welfare = float(np.sum(light * (game.row_payoffs + game.col_payoffs)))
        traces.append(
            dict(
                type="scatter3d",
                mode="markers+text",
                marker=dict(size=9, color=TRAFFIC_LIGHT_COLOUR, symbol="cross"),  # (a glyph every font has, unlike "x")
                text=[words.TRAFFIC_LIGHT_LABEL],
                textposition="top center",
                textfont=dict(color=TRAFFIC_LIGHT_COLOUR, size=13),
                customdata=[[labels[1], labels[2], welfare]],
                hovertemplate=words.TRAFFIC_LIGHT_HOVER,
                name=words.TRAFFIC_LIGHT,
                meta=TRAFFIC_LIGHT_META,
                **_xyz(tetrahedron_point(light)[None, :]),
            )
        )
    for trace in traces:
        for value in trace.values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
    return tuple(traces)


def tetrahedron_figure(game: MatrixGame, trail=None, *, height: int = HEIGHT, name: str = words.TRAIL) -> dict:
    """A 2x2 game's joint distributions as a rotatable tetrahedron: the CE and CCE sets as translucent solids, the
    independent distributions as a saddle, the Nash equilibria as diamonds on it, the welfare-best CE as a square,
    in a game of Chicken's kind its :func:`traffic_light` as a labelled cross, and a learner's ``trail`` of joint
    distributions as a line with its last point marked.

    Parameters
    ----------
    game : MatrixGame
        A 2x2 game.
    trail : array_like, shape (T, 2, 2) or (T, 4), optional
        Joint distributions over time (the empirical joint distribution ``sigma_t`` at each checkpoint), each summing
        to 1; more than :data:`MAX_TRAIL_POINTS` are thinned evenly, the last kept.
    height : int
        The figure's height in pixels (keyword only).
    name : str
        The trail's legend entry (keyword only).

    Returns
    -------
    dict
        A Plotly figure in its JSON form; ``plotly.graph_objects.Figure(spec)`` validates and shows it. The camera
        keeps the user's rotation across redraws (``uirevision``).

    Raises
    ------
    ValueError
        If ``game`` is not a 2x2 :class:`~rmcore.MatrixGame`, or ``trail`` is not joint distributions of it.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"the tetrahedron draws a 2x2 matrix game (rmcore.MatrixGame), got {type(game).__name__}")
    if game.shape != (2, 2):
        raise ValueError(
            f"the tetrahedron draws the joint distributions of a 2x2 game; this game is {game.shape[0]}x"
            f"{game.shape[1]} (joint_heatmaps_figure draws a larger game's)"
        )
    traces = [dict(trace) for trace in _static_traces(_key(game))]
    if trail is not None:
        path = _checked_trail(trail)
        points = tetrahedron_point(path)
        labels = _joint_labels(game)
        hover = [words.joint_words(labels, joint) for joint in path]
        traces.append(
            dict(
                type="scatter3d",
                mode="lines",
                line=dict(color=TRAIL_COLOUR, width=5),
                text=hover,
                hovertemplate=words.JOINT_HOVER,
                name=plotly(name),
                legendgroup="trail",
                **_xyz(points),
            )
        )
        traces.append(
            dict(
                type="scatter3d",
                mode="markers",
                marker=dict(size=6, color=TRAIL_COLOUR, line=dict(color="black", width=1)),
                text=hover[-1:],
                hovertemplate=words.JOINT_HOVER,
                name=words.NOW,
                legendgroup="trail",
                **_xyz(points[-1:]),
            )
        )
    hidden = dict(visible=False, range=[-1.2, 1.2])
    scene = dict(
        xaxis=hidden,
        yaxis=hidden,
        zaxis=hidden,
        aspectmode="cube",
        camera=dict(eye=dict(x=1.4, y=0.4, z=0.75)),
        uirevision="keep",  # (the user's rotation survives a redraw)
    )
    return _figure(
        traces,
        words.TETRAHEDRON_TITLE,
        height,
        scene=scene,
        margin=dict(l=10, r=10, t=60, b=10),
        legend=dict(orientation="h", y=-0.02, yanchor="top"),
    )


def joint_heatmaps_figure(joint, closest, game: MatrixGame | None = None, *, height: int | None = None) -> dict:
    """A joint distribution ``joint`` (a learner's ``sigma_t``) as a heatmap beside the correlated equilibrium
    ``closest`` to it (:func:`rmcore.closest_correlated_equilibrium`), on one colour scale, with the L1 distance
    between them in the second panel's title.

    Parameters
    ----------
    joint : array_like, shape (m, n)
        The joint distribution of play.
    closest : CorrelatedEquilibrium or array_like, shape (m, n)
        The equilibrium to draw beside it (a :class:`~rmcore.CorrelatedEquilibrium` says whether it is a CE or a
        CCE; a bare table is taken as a CE).
    game : MatrixGame, optional
        Names the rows and columns (by default ``R1, R2, ...`` and ``C1, C2, ...``).
    height : int, optional
        Pixels; by default enough for the rows.

    Raises
    ------
    ValueError
        If the two are not tables of the same shape (the game's, when given) of finite, non-negative numbers.
    """
    coarse = bool(getattr(closest, "coarse", False))
    other = closest.joint if isinstance(closest, rmcore.CorrelatedEquilibrium) else closest
    tables = []
    for what, table in (("the joint distribution", joint), ("the closest equilibrium", other)):
        try:
            array = np.array(table, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{what} must be a table of probabilities (rows x columns)") from None
        if array.ndim != 2 or not array.size or not np.isfinite(array).all() or array.min() < 0:
            raise ValueError(f"{what} must be a table of finite, non-negative probabilities (rows x columns)")
        tables.append(array)
    if tables[0].shape != tables[1].shape:
        raise ValueError(f"the two tables differ in shape: {tables[0].shape} and {tables[1].shape}")
    m, n = tables[0].shape
    if game is not None and game.shape != (m, n):
        raise ValueError(f"the tables are {m}x{n} but the game is {game.shape[0]}x{game.shape[1]}")
    rows = [plotly(a) for a in game.row_actions] if game is not None else [f"R{k + 1}" for k in range(m)]
    cols = [plotly(a) for a in game.col_actions] if game is not None else [f"C{k + 1}" for k in range(n)]
    distance = float(np.abs(tables[0] - tables[1]).sum())
    top = max(float(tables[0].max()), float(tables[1].max()), 1e-12)
    labelled = max(m, n) <= MAX_LABELLED_SIDE
    traces = []
    for panel, table in enumerate(tables):
        suffix = "" if panel == 0 else "2"
        traces.append(
            dict(
                type="heatmap",
                x=cols,
                y=rows,
                z=table,
                zmin=0.0,
                zmax=top,
                colorscale="Blues",
                reversescale=True,  # (light is 0, dark the most likely cell: plotly's "Blues" runs the other way)
                showscale=panel == 1,
                colorbar=dict(title=dict(text=words.PROBABILITY), thickness=12),
                xgap=1,
                ygap=1,
                hovertemplate=words.HEATMAP_HOVER,
                name=words.JOINT_PANEL if panel == 0 else words.closest_panel(coarse, distance),
                xaxis=f"x{suffix}",
                yaxis=f"y{suffix}",
                **(dict(texttemplate="%{z:.2f}") if labelled else {}),
            )
        )
    layout = _panels(2, [words.JOINT_PANEL, words.closest_panel(coarse, distance)])
    for key in ("xaxis", "xaxis2"):
        layout[key].update(type="category", title=dict(text=words.COLUMN_AXIS))
    layout["yaxis"].update(type="category", autorange="reversed", title=dict(text=words.ROW_AXIS))
    layout["yaxis2"].update(type="category")
    height = height if height is not None else max(320, min(720, 22 * m + 180))
    return _figure(traces, words.HEATMAPS_TITLE, height, **layout, margin=dict(l=90, r=20, t=90, b=60))


def gaps_race_figure(histories, names, *, height: int = 420) -> dict:
    """Each run's CE gap (solid) and CCE gap (dotted) of its joint play over the iterations, log-log, one colour a
    run: a race of learners drawn by the measure of correlated equilibrium (the race chart draws the marginals').

    Parameters
    ----------
    histories : sequence of rmcore.History
        One run per learner (for a sampled variant its first seed's), with the ``ce_gap`` and ``cce_gap`` columns;
        runs where both are NaN (no joint distribution kept) are left out.
    names : sequence of str
        The learners' legend entries, one per history.
    height : int
        Pixels (keyword only).
    """
    if len(histories) != len(names):
        raise ValueError(f"one name per history: {len(histories)} histories, {len(names)} names")
    traces = []
    for k, (history, name) in enumerate(zip(histories, names)):
        t = history.iterations.astype(float)
        for column, kind, dash in (("ce_gap", "CE gap", "solid"), ("cce_gap", "CCE gap", "dot")):
            values = history.metrics[column]
            if not len(values) or np.isnan(values).all():
                continue
            traces.append(
                dict(
                    type="scatter",
                    x=t,
                    y=positive(values),
                    name=f"{kind}, {plotly(name)}",
                    legendgroup=str(k),
                    line=dict(color=COLOURS[k % len(COLOURS)], dash=dash, width=2 if kind == "CE gap" else 1.5),
                )
            )
    return _figure(
        traces,
        words.GAPS_RACE_TITLE,
        height,
        xaxis=dict(type="log", title=dict(text="iteration T")),
        yaxis=dict(type="log", exponentformat="power", title=dict(text=words.GAPS_AXIS)),
    )
