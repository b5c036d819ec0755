"""The strategy chart for slides and papers: an animated GIF or MP4 of a range of iterations, and SVG or PDF stills.

Plotly's own static export draws every frame: kaleido renders the figure dicts in a headless Chrome or Chromium (one
browser session for the whole animation, two tabs drawing frames side by side, each tab drawing frame after frame on
the same page), and imageio writes each frame as it is drawn: the GIF through Pillow, the MP4 through imageio-ffmpeg's
bundled ffmpeg (H.264). No encoder is written here.

The figures are :mod:`rmcore.plotting`'s and kaleido's browser session is :mod:`rmcore.plotting.images`'s (which
browser it starts: ``BROWSER_PATH`` or :data:`~rmcore.plotting.images.BROWSERS`); the frames, their timing and the
encoders live here in ``ui``.

From Python, with any solver and its history (a frame draws the checkpoint nearest its iteration: a history that keeps
every iteration, ``history_share=None``, gives each frame a state of its own)::

    import rmcore
    from ui.matrix import animation
    game = rmcore.preset("matching-pennies")
    solver = rmcore.MatrixSolver(game, "hedge", start=game.start, history_share=None)
    solver.run(600)
    gif = animation.animate(solver, "gif", frames=300)            # bytes: 300 frames, 30 a second, 1280x720
    svg = animation.still(solver, "svg")                            # the last iteration as SVG (or "pdf")
    race = rmcore.Race(game, ["hedge", "optimistic-hedge"], start=game.start, history_share=None)
    race.run(600)
    gif = animation.animate(race, "gif")                            # both rules on one field, each by its name
    three = rmcore.preset("matching-pennies-3p")
    pennies = rmcore.MatrixSolver(three, "rm", start=three.start)   # (from uniform play nothing would move)
    pennies.run(3000)
    gif = animation.animate(pennies, "gif")                         # three players: the profile in the cube

A game of three players or more draws what its page draws: the first run's average profile in the cube of a 2x2x2
game, else the triangle of each player of three actions, else each player's strategies over the iterations.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import io
import shutil
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

import rmcore
from rmcore.plotting import fields
from rmcore.plotting import images as rendering
from rmcore.plotting import matrix as figures
from rmcore.plotting import space as space_figure
from rmcore.plotting.charts import chart_rows, for_projector

FORMATS = ("gif", "mp4")
STILL_FORMATS = ("svg", "pdf", "png")
#: Frames a second, and the size of every frame: a 1280x720 slide.
FPS = 30
SIZE = rendering.SIZE
#: Most frames an animation may have (a minute at 30 frames a second).
MAX_FRAMES = 1800


class Options(NamedTuple):
    """What an export draws: the layers of the field chart, and the name of a history's run in the legend (its rule's
    name by default)."""

    layers: space_figure.Layers = space_figure.Layers()
    title: str | None = None


class _Source(NamedTuple):
    """What an export draws from: each run's name and history (the first is the page's own variant), and the set-up
    of the first run, which picks the chart and its field."""

    runs: list[tuple[str, rmcore.History]]
    game: rmcore.MatrixGame
    algorithms: tuple[str, ...]
    opponent: object
    start: object
    sampling: str
    updates: str


def _opponent(opponent):
    """A two-player run's fixed column strategy; a game of more players keeps its fixed players by number."""
    return opponent["col"] if isinstance(opponent, dict) and "col" in opponent else opponent


def _source(
    source,
    options: Options,
    game=None,
    algorithm=None,
    opponent=None,
    start=None,
    sampling="expected",
    updates="simultaneous",
    variants=None,
) -> _Source:
    """The runs and set-up of ``source``: a :class:`rmcore.MatrixSolver`; an :class:`rmcore.Race` (every variant's
    first seed); an :class:`rmcore.History` with its game and rule given (a history records neither); or a list of
    histories with their game and ``variants=`` (the page's race, as its panel drew it)."""
    if isinstance(source, rmcore.MatrixSolver):
        variant = source.variant
        runs = [(space_figure.run_names([variant])[0], source.history())]
        start = None if source.start is None else tuple(source.start)
        return _Source(
            runs,
            source.game,
            (variant.algorithm,),
            _opponent(source.opponent),
            start,
            variant.sampling,
            variant.updates,
        )
    if isinstance(source, rmcore.Race):
        if not isinstance(source.game, rmcore.NormalFormGame):
            raise ValueError("animate a race on a matrix game (the strategy chart is a matrix game's)")
        return _source(
            [histories[0] for histories in source.histories()],
            options,
            game=source.game,
            opponent=source.opponent,
            start=source.start,
            variants=source.variants,
        )
    if isinstance(source, rmcore.History):
        if not isinstance(game, rmcore.NormalFormGame):
            raise ValueError("a history needs its game: animate(history, ..., game=the MatrixGame it was run on)")
        if algorithm is None:
            raise ValueError("a history needs its rule: animate(history, ..., algorithm='hedge', say)")
        if start is None and len(source) and game.num_players == 2:  # where it started: its first strategies
            start = (source.strategy("current", "row")[0], source.strategy("current", "col")[0])
        name = options.title or space_figure.run_names([rmcore.MatrixVariant(algorithm)])[0]
        return _Source([(name, source)], game, (algorithm,), _opponent(opponent), start, sampling, updates)
    if isinstance(source, (list, tuple)) and source and all(isinstance(h, rmcore.History) for h in source):
        if not isinstance(game, rmcore.NormalFormGame):
            raise ValueError("histories need their game: animate(histories, ..., game=the MatrixGame, variants=...)")
        variants = tuple(variants or ())
        if len(variants) != len(source) or not all(isinstance(v, rmcore.MatrixVariant) for v in variants):
            raise ValueError("histories need their variants: animate(histories, ..., variants=one MatrixVariant each)")
        first = variants[0]
        runs = list(zip(space_figure.run_names(variants), source))
        algorithms = tuple(v.algorithm for v in variants)
        return _Source(runs, game, algorithms, _opponent(opponent), start, first.sampling, first.updates)
    raise ValueError(f"animate a MatrixSolver, an rmcore.Race or an rmcore.History, not {type(source).__name__}")


def _rows_upto(history: rmcore.History, iteration: int) -> np.ndarray:
    """The checkpoints of ``history`` up to ``iteration`` (a race's runs keep checkpoints of their own)."""
    return np.arange(int(np.searchsorted(history.iterations, iteration, side="right")))


def chart_at(source: _Source, setup, iteration: int, options: Options) -> dict:
    """The strategy chart as it stood at ``iteration``: the field chart where a field applies, with every run whose
    rule follows its dynamic (as the page draws them), else the first run's simplex (or square) path, else each
    action's probability over the iterations. A game of three players or more draws what its page draws: the first
    run's profile in the cube of a 2x2x2 game, each three-action player's triangle, else each player's strategies."""
    name, first = source.runs[0]
    upto = first.rows(_rows_upto(first, iteration))
    averages = upto.rows(chart_rows(upto.iterations, True))
    if source.game.num_players > 2:
        drawn = figures.player_cube(averages, source.game) or figures.player_triangles(averages, source.game)
        if drawn is None:
            return figures.strategy_trajectories(averages, source.game, players=averages.infosets)
        title = drawn["layout"]["title"]  # (a frame says which iteration it shows, as the field chart's does)
        title = {**title, "text": f"{title['text']}, t = {int(upto.iterations[-1]):,}"}
        return {**drawn, "layout": {**drawn["layout"], "title": title}}
    if isinstance(setup, fields.Setup):
        trails = []
        for (name, history), algorithm in zip(source.runs, source.algorithms):
            if trails and fields.DYNAMIC_OF.get(algorithm) != setup.dynamic:
                continue
            rows = _rows_upto(history, iteration)
            if not rows.size:
                continue
            seen = history.rows(rows)
            recent = seen.rows(np.arange(max(len(rows) - space_figure.TRAIL_ROWS, 0), len(rows)))
            trails.append(space_figure.Trail(name, seen.rows(chart_rows(seen.iterations, True)), recent))
        game = source.game
        equilibria = list(game.equilibria)
        if game.is_zero_sum and not equilibria:
            exact = rmcore.solve_exactly(game)
            equilibria = [rmcore.Equilibrium(tuple(exact.policy["row"]), tuple(exact.policy["col"]))]
        dynamic, equation = fields.DYNAMIC_TITLES[setup.dynamic]
        heading = f"{dynamic} and the iterates, t = {int(upto.iterations[-1]):,}<br><sup>{equation}</sup>"
        return space_figure.strategy_space(game, setup, trails, equilibria, options.layers, title=heading)
    game = source.game
    path = figures.simplex_path(averages, game, game.equilibria[0] if game.equilibria else None, True)
    if path is not None:
        return path
    players = ("row",) if source.opponent is not None else ("row", "col")
    return figures.strategy_trajectories(averages, game, players=players)


def _slide(figure: dict) -> dict:
    """A figure laid out for a 16:9 slide: the projector's text and lines, the legend and the colour bar beside the
    plot, in margins of a fixed size (so that every frame, and its layers drawn apart, place the plot alike)."""
    figure = for_projector(figure)
    layout = dict(figure["layout"])
    layout.pop("height", None)
    legend = layout.get("legend", {})
    layout["legend"] = {**legend, "orientation": "v", "x": 1.05, "xanchor": "left", "yref": "paper", "y": 1.0}
    layout["legend"]["yanchor"] = "top"
    for trace in figure["data"]:  # the colour bar beside the plot, under the legend
        bar = trace.get("marker", {}).get("colorbar")
        if bar is not None:
            bar = {**bar, "xref": "paper", "x": 1.05, "xanchor": "left", "y": 0.0, "yanchor": "bottom", "len": 0.4}
            trace["marker"] = {**trace["marker"], "colorbar": bar}
    layout["margin"] = dict(l=90, r=430, t=100, b=80, autoexpand=False)
    layout["paper_bgcolor"] = "white"
    return {"data": figure["data"], "layout": layout}


def _layers(figure: dict) -> tuple[dict, dict] | None:
    """A field chart's frame as what stays (the field, the rest points, the axes, the legend) and what moves (the
    iterates and the title that names the iteration, on a transparent page); None for a chart without that split."""
    moving = [trace for trace in figure["data"] if trace.get("meta") == space_figure.ITERATE]
    if not moving:
        return None
    layout = figure["layout"]
    still = dict(layout, title={**layout.get("title", {}), "text": ""})
    # The iterates stay in the legend, drawn with one missing point (Plotly leaves a trace of no points out of it).
    gap = [None]
    empty = {"x": gap, "y": gap} if moving[0].get("type") == "scatter" else {"a": gap, "b": gap, "c": gap}
    static = [trace if trace.get("meta") != space_figure.ITERATE else {**trace, **empty} for trace in figure["data"]]
    bare = dict(showgrid=False, showticklabels=False, showline=False, zeroline=False, ticks="", title={"text": ""})
    over = dict(layout, paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor="rgba(0,0,0,0)", showlegend=False)
    for key in ("xaxis", "yaxis"):
        if key in over:
            over[key] = {**over[key], **bare}
    if "ternary" in over:
        over["ternary"] = {
            **over["ternary"],
            "bgcolor": "rgba(0,0,0,0)",
            **{axis: {**over["ternary"].get(axis, {}), **bare} for axis in ("aaxis", "baxis", "caxis")},
        }
    return {"data": static, "layout": still}, {"data": [dict(t, showlegend=False) for t in moving], "layout": over}


def frames_of(
    source, count: int = 300, first: int = 1, last: int | None = None, options: Options | None = None, **given
) -> list[dict]:
    """``count`` figures of the strategy chart at iterations spread evenly from ``first`` to ``last`` (the history's
    checkpoints nearest them; the last iteration recorded by default). A history with fewer checkpoints in the range
    than ``count`` draws some of them more than once (a GIF then holds each once, shown as long).

    ``source`` is a :class:`rmcore.MatrixSolver`, an :class:`rmcore.Race` (every variant drawn with its name, as the
    page draws a race), an :class:`rmcore.History` with ``game=`` and ``algorithm=`` (and ``opponent=`` for a fixed
    opponent), or a list of histories with ``game=`` and ``variants=`` (one :class:`rmcore.MatrixVariant` each).
    """
    options = options or Options()
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or not 1 <= count <= MAX_FRAMES:
        raise ValueError(f"frames must be a whole number from 1 to {MAX_FRAMES}, got {count!r}")
    drawn = _source(source, options, **given)
    history = drawn.runs[0][1]
    if not len(history):
        raise ValueError("the run has no history yet: run it first (solver.run(n))")
    iterations = history.iterations
    last = int(iterations[-1]) if last is None else last
    if not (isinstance(first, (int, np.integer)) and isinstance(last, (int, np.integer)) and 1 <= first <= last):
        if isinstance(first, (int, np.integer)) and first > iterations[-1]:
            raise ValueError(f"the run reached iteration {int(iterations[-1]):,} only; first={first:,} is past it")
        raise ValueError(f"the iterations must satisfy 1 <= first <= last, got first={first!r}, last={last!r}")
    if first > iterations[-1]:
        raise ValueError(f"the run reached iteration {int(iterations[-1]):,} only; first={first:,} is past it")
    setup = None
    if drawn.game.num_players == 2:  # (the fields picture two players' states)
        setup = fields.field_setup(
            drawn.game,
            drawn.algorithms[0],
            opponent=drawn.opponent,
            start=drawn.start,
            sampling=drawn.sampling,
            updates=drawn.updates,
        )
    targets = np.linspace(first, min(last, int(iterations[-1])), count)
    rows = np.minimum(np.searchsorted(iterations, targets), len(iterations) - 1)
    return [_slide(chart_at(drawn, setup, int(iterations[row]), options)) for row in rows]


# -- kaleido -------------------------------------------------------------------------------------------


@functools.cache
def _frame_session() -> type:
    """Kaleido, but a tab that has drawn a frame draws the next on the same page.

    Kaleido reloads a tab's page (plotly.js and all) after every figure, so that no figure leaves anything behind for
    the next. A frame is a plain Plotly figure exported to PNG, which ``Plotly.toImage`` draws in a fresh element of
    its own and purges, and the reload took most of its time: on this project's 2-core machine a frame of the iterates
    took several times as long with the reload as without (two tabs). Kaleido has no option for it, so its hook that
    hands a tab back to the queue is replaced by one that does not reload (``tabs_ready`` is its queue of free tabs,
    kaleido 1.5), and each tab is reloaded once, before its first frame (the comment in the class says why).
    ``tests/test_animation.py`` checks that a frame drawn after others on the same page is the frame drawn alone.
    """
    import kaleido  # (imported on first use: the page loads without it)

    class FrameKaleido(kaleido.Kaleido):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.reloaded = []  # (this session's tabs reloaded once)

        async def _get_kaleido_tab(self):
            # A tab is reloaded once, before its first frame. Kaleido takes a new tab's script context from the first
            # context the browser reports after navigating it, which can be the blank page's (CI once drew a frame in
            # a context without kaleido's script: "kaleido_scopes is not defined"); kaleido's own reload after every
            # figure would put that right from the second figure on, and this session does without it.
            tab = await super()._get_kaleido_tab()
            if not any(tab is seen for seen in self.reloaded):
                await tab.reload()
                self.reloaded.append(tab)
            return tab

        async def _return_kaleido_tab(self, tab) -> None:
            await self.tabs_ready.put(tab)

    return FrameKaleido


def _image(png: bytes):
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    image.load()
    return image


class _Frames:
    """An animation's frames drawn in one kaleido session, as RGB images (Pillow's), in order.

    A field chart's frames share all but their iterates: what stays is drawn once, and per frame only the iterates on
    a transparent page, laid over it (Pillow's alpha compositing). A kaleido call costs about as much for a bare figure
    as for a full one (measured on 2 busy cores: one line cost more than half of what the full field chart did, each
    with kaleido's reload), so the frames are made as light as they can be. :meth:`each` keeps a few frames drawing
    in the browser while a thread of its own decodes, lays over and hands on the ones drawn, in order.
    """

    def __init__(self, figures_: list[dict], size: tuple[int, int]):
        width, height = rendering.checked_size(size)
        self._options = dict(format="png", width=width, height=height)
        split = [_layers(figure) for figure in figures_]
        self._layered = all(layers is not None for layers in split)
        self._static = split[0][0] if self._layered else None
        self._drawn = [over for _, over in split] if self._layered else list(figures_)
        self._background = None
        self._session = _frame_session()(**rendering.session_options(len(figures_)))

    async def __aenter__(self) -> _Frames:
        await self._session.__aenter__()
        if self._layered:
            self._background = _image(await self._png(self._static)).convert("RGBA")
        return self

    async def __aexit__(self, *exc) -> None:
        await self._session.__aexit__(*exc)

    def __len__(self) -> int:
        return len(self._drawn)

    async def _png(self, figure: dict) -> bytes:
        return await self._session.calc_fig(figure, opts=self._options)

    def _composed(self, png: bytes):
        from PIL import Image

        image = _image(png)
        if self._background is None:
            return image.convert("RGB")
        return Image.alpha_composite(self._background, image.convert("RGBA")).convert("RGB")

    async def frame(self, k: int):
        """Frame ``k`` alone."""
        return self._composed(await self._png(self._drawn[k]))

    async def each(self, consume) -> None:
        """``consume(image)`` for every frame, in order, on a thread of its own while the browser draws the frames
        after it: a few frames ahead for each tab and a few waiting to be written keep the tabs and the writer busy at
        once, and never hold an animation's frames all in memory."""
        ahead = 4 * rendering.TABS
        loop = asyncio.get_running_loop()
        drawing, handing = collections.deque(), collections.deque()

        async def hand_on() -> None:
            png = await drawing.popleft()
            handing.append(loop.run_in_executor(worker, lambda: consume(self._composed(png))))
            if len(handing) > ahead:
                await handing.popleft()

        with concurrent.futures.ThreadPoolExecutor(1) as worker:  # one thread: the frames reach consume in order
            try:
                for figure in self._drawn:
                    drawing.append(asyncio.ensure_future(self._png(figure)))
                    if len(drawing) > ahead:
                        await hand_on()
                while drawing:
                    await hand_on()
                await asyncio.gather(*handing)
            finally:
                for task in drawing:
                    task.cancel()


def render_frames(figures_: list[dict], size: tuple[int, int] = SIZE) -> np.ndarray:
    """The frames of an animation as RGB images, ``(frames, height, width, 3)`` (:class:`_Frames` draws them)."""
    images = []

    async def draw() -> None:
        async with _Frames(figures_, size) as frames:
            await frames.each(lambda image: images.append(np.asarray(image)))

    rendering.run_to_end(draw())
    return np.stack(images)


# -- animations and stills ---------------------------------------------------------------------------


#: Colours of an animated GIF's one palette (a GIF holds 256 at most; the charts use few, and fewer compress better).
GIF_COLOURS = 128


def _palette(samples):
    """One palette for every frame of a GIF, made from a few of its frames (Pillow's fast octree): each frame is then
    mapped to it without dithering (Pillow's default picks a palette per frame by median cut: more than ten times as
    long for 300 frames of 1280x720)."""
    from PIL import Image

    width, height = samples[0].size
    sheet = Image.new("RGB", (width, height * len(samples)))
    for k, sample in enumerate(samples):
        sheet.paste(sample, (0, k * height))
    return sheet.quantize(colors=GIF_COLOURS, method=Image.Quantize.FASTOCTREE)


class _Writer:
    """An animation written frame by frame to ``path`` by imageio: an H.264 MP4 through imageio-ffmpeg's ffmpeg
    (each frame piped to it as it comes), or a looping GIF of one palette through Pillow (each frame kept as palette
    indices, a byte a pixel, until the file is closed)."""

    def __init__(self, path: Path, format_: str, fps: int, samples=()):
        self._format = format_
        if format_ == "gif":
            import imageio.v3 as iio

            self._palette = _palette(samples)
            self._file = iio.imopen(path, "w", extension=".gif")
            self._gif = dict(
                mode="P",
                palette=bytes(self._palette.getpalette()[: 3 * GIF_COLOURS]),
                duration=1000 / fps,
                loop=0,
                optimize=True,
            )
        else:
            import imageio.v2 as iio2

            self._file = iio2.get_writer(
                path, format="FFMPEG", mode="I", fps=fps, codec="libx264", pixelformat="yuv420p", macro_block_size=8
            )

    def add(self, image) -> None:
        """Write the next frame (a Pillow RGB image)."""
        from PIL import Image

        if self._format == "gif":
            indices = np.asarray(image.quantize(palette=self._palette, dither=Image.Dither.NONE))
            self._file.write(indices, is_batch=False, **self._gif)
        else:
            self._file.append_data(np.asarray(image))

    def close(self) -> None:
        self._file.close()


def _checked_fps(fps) -> int:
    if isinstance(fps, bool) or not isinstance(fps, (int, np.integer)) or not 1 <= fps <= 60:
        raise ValueError(f"fps must be a whole number from 1 to 60, got {fps!r}")
    return int(fps)


def _samples(count: int) -> list[int]:
    """The frames a GIF's palette is made from: the first, the middle and the last."""
    return sorted({0, count // 2, count - 1})


def encode(images: np.ndarray, format_: str, fps: int = FPS) -> bytes:
    """RGB frames (``(frames, height, width, 3)``, uint8) as an animated GIF (looping, one palette) or an H.264 MP4,
    written by imageio (Pillow's GIF writer, imageio-ffmpeg's ffmpeg)."""
    from PIL import Image

    if format_ not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {format_!r}")
    fps = _checked_fps(fps)
    images = np.asarray(images)
    if images.ndim != 4 or images.shape[-1] != 3 or not len(images) or images.dtype != np.uint8:
        raise ValueError(f"frames must be RGB images of one size, (frames, height, width, 3) uint8, got {images.shape}")
    with tempfile.TemporaryDirectory() as folder:  # ffmpeg writes a file (an MP4's index goes at its end)
        path = Path(folder) / f"animation.{format_}"
        samples = [Image.fromarray(images[k]) for k in _samples(len(images))] if format_ == "gif" else ()
        writer = _Writer(path, format_, fps, samples)
        try:
            for image in images:
                writer.add(Image.fromarray(image))
        finally:
            writer.close()
        return path.read_bytes()


async def _draw_and_write(figures_: list[dict], format_: str, fps: int, size: tuple[int, int], path: Path) -> None:
    """Draw the frames and write each as it is drawn: one kaleido session, the GIF's palette from three frames drawn
    first."""
    async with _Frames(figures_, size) as frames:
        samples = [await frames.frame(k) for k in _samples(len(frames))] if format_ == "gif" else ()
        writer = _Writer(path, format_, fps, samples)
        try:
            await frames.each(writer.add)
        finally:
            writer.close()


def animate(
    source,
    format_: str = "gif",
    frames: int = 300,
    first: int = 1,
    last: int | None = None,
    fps: int = FPS,
    size: tuple[int, int] = SIZE,
    options: Options | None = None,
    **given,
) -> bytes:
    """The strategy chart from iteration ``first`` to ``last`` as an animated ``"gif"`` or ``"mp4"``: ``frames``
    frames, ``fps`` a second, ``size`` pixels (1280x720, 30 a second by default).

    ``source`` is what :func:`frames_of` takes: a solver, a race, or histories with their game and rules. The frames
    go to the encoder as they are drawn, so an animation's frames are never all in memory.
    Raises ``ValueError`` for a bad argument, and kaleido's error when no browser can be started.
    """
    if format_ not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {format_!r}")
    rendering.checked_size(size)
    fps = _checked_fps(fps)
    figures_ = frames_of(source, frames, first, last, options, **given)
    with tempfile.TemporaryDirectory() as folder:  # ffmpeg writes a file (an MP4's index goes at its end)
        path = Path(folder) / f"animation.{format_}"
        rendering.run_to_end(_draw_and_write(figures_, format_, fps, size, path))
        return path.read_bytes()


def still(source, format_: str = "svg", iteration: int | None = None, size: tuple[int, int] = SIZE, **given) -> bytes:
    """The strategy chart at ``iteration`` (the last recorded by default) as SVG, PDF or PNG, for a paper."""
    if format_ not in STILL_FORMATS:
        raise ValueError(f"format must be one of {STILL_FORMATS}, got {format_!r}")
    history = _source(source, Options(), **given).runs[0][1]
    at = int(history.iterations[-1]) if iteration is None and len(history) else iteration
    (figure,) = frames_of(source, 1, at or 1, at, **given)
    return rendering.render([figure], format_, size)[0]


def available() -> str | None:
    """Why animations cannot be made here (kaleido, imageio or a browser missing), or None when they can."""
    for module in ("kaleido", "imageio", "imageio_ffmpeg"):
        try:
            __import__(module)
        except ImportError:
            return f"the export needs the {module.replace('_', '-')} package (pip install -r requirements.txt)"
    if rendering.browser_path() is None and not any(
        shutil.which(name) for name in ("chromium", "chrome", "google-chrome")
    ):
        return "the export draws frames in Chrome or Chromium, and none is installed (or set BROWSER_PATH)"
    return None
