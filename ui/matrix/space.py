"""The matrix page's strategy-space chart with the field under the rule, and the start a click on it sets.

Which field applies, if any, is :func:`rmcore.plotting.fields.field_setup`'s answer for the run's game and settings;
the chart itself is :func:`rmcore.plotting.space.strategy_space`. A click on the square or the triangle writes the start
widgets' values (``start_mode`` and the ``start_{row|col}_{actions}_{k}`` weights, bound to the link), so the run
restarts from the point clicked and the share link carries it.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import rmcore
from rmcore.plotting import fields
from rmcore.plotting import space as space_figure
from rmcore.plotting.charts import chart_rows

from .. import explain_fields, explain_matrix, link, state
from ..live_chart import live_chart
from . import field_lessons
from . import state as matrix_state
from .settings import Display, RunSettings

CHART_KEY = "chart_simplex"
LAYERS = {"field": "field", "last iterate": "current", "average": "average"}


def setup_of(game: rmcore.MatrixGame, settings: RunSettings) -> fields.Setup | fields.NoField:
    """The field for the run's first variant in these settings, or why none is drawn."""
    variant = settings.variants[0]
    return fields.field_setup(
        game,
        variant.algorithm,
        opponent=settings.opponent,
        start=settings.start,
        sampling=variant.sampling,
        updates=variant.updates,
    )


def layers_of(display: Display) -> space_figure.Layers:
    chosen = set(display.space_layers)
    return space_figure.Layers(*(name in chosen for name in LAYERS))


def _equilibria(game: rmcore.MatrixGame) -> list:
    """The exact answer of a zero-sum game (the LP's), otherwise the game's known equilibria."""
    exact = matrix_state.exact_answer(game)
    if exact is not None:
        return [rmcore.Equilibrium(tuple(exact.policy["row"]), tuple(exact.policy["col"]))]
    return list(game.equilibria)


def trails(frame, variants, setup: fields.Setup, log_x: bool) -> list[space_figure.Trail]:
    """The first variant's iterates, and every raced variant's whose rule follows the same dynamic (their first
    seed): on the field each is a discretisation of the same equation."""
    chosen = []
    for variant, name, histories in zip(variants, space_figure.run_names(variants), frame.histories):
        if chosen and fields.DYNAMIC_OF.get(variant.algorithm) != setup.dynamic:
            continue
        history = histories[0]
        count = len(history)
        averages = history.rows(chart_rows(history.iterations, log_x))
        recent = history.rows(np.arange(max(count - space_figure.TRAIL_ROWS, 0), count))
        chosen.append(space_figure.Trail(name, averages, recent))
    return chosen


def clicks_of(setup: fields.Setup) -> str:
    return "ternary" if setup.space in space_figure.TRIANGULAR else "square"


def start_of(game: rmcore.MatrixGame, settings: RunSettings, setup: fields.Setup) -> np.ndarray:
    """Where the run starts, as the set-up's stacked strategies (uniform without a start)."""
    m, n = game.shape
    row, col = settings.start if settings.start is not None else ((1.0,) * m, (1.0,) * n)
    row, col = np.asarray(row, dtype=float) / sum(row), np.asarray(col, dtype=float) / sum(col)
    return np.concatenate([row, col]) if setup.space == "square" else row


def draw(run, frame, display: Display, moment, look: dict) -> str | None:
    """Draw the strategy-space chart with its field when the run's set-up has one (``frame`` None: before the first
    iteration, the field and the start alone); otherwise draw nothing and return why no field applies.

    A click there (reported by the chart) sets the start; the panel then reruns the whole page, so the settings and
    the run take it.
    """
    if matrix_state.take_start_click():
        st.rerun(scope="app")
    game, settings = run.key
    setup = setup_of(game, settings)
    lesson = field_lessons.words()
    if isinstance(setup, fields.NoField):
        return " ".join(words for words in (setup.reason, _joint(game, settings), lesson) if words)
    figure = space_figure.strategy_space(
        game,
        setup,
        trails(frame, run.race.variants, setup, display.log_x) if frame is not None else (),
        _equilibria(game),
        layers_of(display),
        moment,
        start=start_of(game, settings, setup),
    )
    algorithm = settings.variants[0].algorithm
    live_chart(
        figure,
        key=CHART_KEY,
        caption=" ".join(
            words
            for words in (explain_fields.field_caption(setup, algorithm, fields.picture(setup).note), lesson)
            if words
        ),
        clicks=clicks_of(setup),
        on_click=lambda: start_from_click(game, setup),
        **look,
    )
    return None


def _joint(game: rmcore.MatrixGame, settings: RunSettings) -> str:
    """In self-play without a picture of the joint state (a 3x3 game's four numbers): its equilibria's stability."""
    if settings.opponent is not None:
        return ""
    setup = fields.joint_setup(game, settings.variants[0].algorithm)
    return "" if isinstance(setup, fields.NoField) else explain_fields.joint_words(setup)


def weights_of_click(setup: fields.Setup, clicked) -> tuple[tuple[int, ...], tuple[int, ...] | None] | None:
    """The start weights (0-100, as the start sliders take them) a click at ``clicked`` asks for: ``(row, column)``,
    the column's ``None`` when only the learner's start changes; ``None`` for a click outside the space.

    >>> square = fields.Setup("replicator", "square", (((1, -1), (-1, 1)), ((-1, 1), (1, -1))))
    >>> weights_of_click(square, {"x": 0.37, "y": 0.9})
    ((37, 63), (90, 10))
    >>> weights_of_click(square, {"x": 1.4, "y": 0.5}) is None
    True
    """
    if not isinstance(clicked, dict):
        return None
    try:
        if setup.space in space_figure.TRIANGULAR:
            point = np.array([float(clicked[k]) for k in "abc"])
        else:
            point = np.array([float(clicked["x"]), float(clicked.get("y", setup.anchor))])
    except (KeyError, TypeError, ValueError):
        return None
    if not np.all(np.isfinite(point)) or point.min() < -0.02 or point.max() > 1.02:
        return None
    point = np.clip(point, 0.0, 1.0)
    if setup.space in space_figure.TRIANGULAR:
        weights = _percent(point / point.sum() if point.sum() > 0 else np.full(3, 1 / 3))
        return weights, (weights if setup.space == "one-population" else None)
    row = _percent(np.array([point[0], 1 - point[0]]))
    return row, (_percent(np.array([point[1], 1 - point[1]])) if setup.space == "square" else None)


def _percent(shares: np.ndarray) -> tuple[int, ...]:
    """Shares as whole percentages that add up to 100 (the largest remainders round up)."""
    scaled = shares * 100
    whole = np.floor(scaled).astype(int)
    for k in np.argsort(-(scaled - whole), kind="stable")[: 100 - whole.sum()]:
        whole[k] += 1
    return tuple(int(w) for w in whole)


def start_from_click(game: rmcore.MatrixGame, setup: fields.Setup) -> None:
    """The chart's click callback: the start widgets take the point clicked (a custom start), before the page runs."""
    result = st.session_state.get(CHART_KEY)
    clicked = None if result is None else result.get("clicked")
    weights = weights_of_click(setup, clicked)
    if weights is None:
        return
    row, col = weights
    m, n = game.shape
    values = {"start_mode": "custom"}
    values |= {f"start_row_{m}_{k}": w for k, w in enumerate(row)}
    if col is not None:
        values |= {f"start_col_{n}_{k}": w for k, w in enumerate(col)}
    state.set_widgets(values)
    # (the start mode's radio, drawn before, writes itself into the address; the sliders, drawn after, may not)
    link.write_drawn_later({key: value for key, value in values.items() if key != "start_mode"})
    matrix_state.start_clicked()


# -- animations and figures for slides -------------------------------------------------------------------------------


def export_source(run):
    """What the panel drew last, as :func:`ui.matrix.animation.animate` takes it: every variant's first seed, with the
    game, the variants and the run's start and opponent (the export draws what the page shows)."""
    frame = run.last_frame if run.last_frame is not None else run.frame()
    game, settings = run.key
    given = dict(game=game, variants=run.race.variants, opponent=settings.opponent, start=settings.start)
    return [histories[0] for histories in frame.histories], given


def export_section(run) -> None:
    """Animations (GIF, MP4) of a chosen range of iterations and stills (SVG, PDF) of the strategy chart, for slides
    and papers; drawn after the page's Export, outside the live panel. An animation takes tens of seconds to draw, so
    it is made on a button press and then offered for download."""
    from . import animation  # (kaleido and imageio load only when the section is drawn)

    with st.expander(explain_matrix.ANIMATION_EXPANDER):
        missing = animation.available()
        if missing is not None:
            st.warning(explain_matrix.animation_unavailable(missing))
            return
        if run.iteration < 2:
            st.caption(explain_matrix.ANIMATION_NEEDS_HISTORY)
            return
        last = run.iteration
        c1, c2, c3 = st.columns([3, 1, 1])
        first, upto = c1.slider("Iterations", 1, last, (1, last), key="animation_range")
        frames = int(c2.number_input("Frames", 2, animation.MAX_FRAMES, 300, key="animation_frames"))
        kind = c3.radio("Format", animation.FORMATS, key="animation_format", horizontal=True)
        st.caption(explain_matrix.animation_frames(frames, animation.FPS, animation.SIZE))
        wanted = ((first, upto), frames, kind)
        if st.button("Make the animation", key="animation_make", icon=":material/movie:"):
            histories, given = export_source(run)
            with st.spinner(f"Drawing {frames} frames..."):
                try:
                    made = animation.animate(histories, kind, frames, first, upto, **given)
                except Exception as error:  # noqa: BLE001 - a browser that fails to start: say so, keep the page
                    st.error(explain_matrix.animation_failed(error))
                    return
            matrix_state.remember_animation((*wanted, made))
        made = matrix_state.animation()
        if made is not None and tuple(made[:3]) == wanted:
            st.download_button(
                f"Download the {kind.upper()} ({len(made[3]) / 1e6:.1f} MB)",
                made[3],
                f"strategy-space-{first}-{upto}.{kind}",
                "image/gif" if kind == "gif" else "video/mp4",
                key="animation_download",
                on_click="ignore",
                icon=":material/download:",
            )
        s1, s2 = st.columns(2)
        for column, still in ((s1, "svg"), (s2, "pdf")):
            column.download_button(
                f"The chart now ({still.upper()})",
                lambda still=still: _still(run, still),
                f"strategy-space.{still}",
                "image/svg+xml" if still == "svg" else "application/pdf",
                key=f"animation_{still}",
                on_click="ignore",
                icon=":material/image:",
            )


def _still(run, kind: str) -> bytes:
    from . import animation

    histories, given = export_source(run)
    return animation.still(histories, kind, **given)
