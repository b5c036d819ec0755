"""A solver watched live in a notebook cell: the dashboard page's own figures as Plotly ``FigureWidget``\\ s that
update while the solver runs, with Run, Pause and a speed as ipywidgets.

A cell that loops keeps the kernel from reading the widgets' messages (a click on Pause would wait for the loop's
end), so the solver runs in a thread of its own: its kernels release the GIL (``nogil``), and each update holds the
interpreter only to copy the history's chart rows and hand the new figures to the widgets. The kernel stays free to
answer Pause, the speed and any other cell. An update comes every :data:`INTERVAL` seconds at most, its solver time
within :data:`BUDGET` seconds at full speed.

The figures are the page's (one builder, two hosts): for a :class:`~rmcore.MatrixSolver` the strategies over time,
the simplex or the unit square (or the field under the rule, where one pictures the run), NashConv against the rule's
regret bound, the cumulative regrets, and for a general-sum game in self-play the joint play against the correlated
equilibria; for a :class:`~rmcore.CFRSolver` NashConv of the average and the current policy, and the average policy
over time.

In a notebook (the extra: ``pip install 'rmcore[notebook]'``)::

    import rmcore
    from rmcore.plotting import watch

    solver = rmcore.CFRSolver(rmcore.tree_game("kuhn"), "cfr+")
    watch(solver)            # the cell shows the charts, Run, Pause and the speed

A notebook exported to HTML or PDF, or rendered into a documentation page, has no widgets to run: the cell's output
also carries the figures as they were when it was shown, drawn by kaleido (PNG images), which those renderers show in
the widgets' place.
"""

from __future__ import annotations

import base64
import importlib
import threading
import time

import numpy as np

from . import charts, fields, words
from . import correlated as correlated_figures
from . import matrix as matrix_figures
from . import space as space_figures
from . import trees as tree_figures

#: Most seconds between two updates of a running view (under 7 a second: a chart that moves smoothly to the eye, and the
#: kernel's messages a small share of its time).
INTERVAL = 0.15
#: Seconds of solver time of one update at full speed: the rest of an interval draws and waits.
BUDGET = 0.1
#: A full-speed update runs its budget in pieces of about this many seconds, each sized by the speed measured so far,
#: so that a Pause is answered within one piece.
PIECE = 0.025
#: Seconds between two computations of the correlated equilibrium closest to the joint play (a linear program, of
#: about a second on an 8x8 game): the heatmap of a larger general-sum game redraws its closest point this often.
CLOSEST_INTERVAL = 2.0
#: Most times a figure's widget is made again after its view drew without the figure's data (see
#: :meth:`Watch._figure_widget`).
REMAKES = 3
#: The width of a figure drawn as a static image, in pixels (each keeps its own height).
IMAGE_WIDTH = 900
#: The packages of the notebook extra, by what they bring (Plotly's FigureWidget needs anywidget).
EXTRA = ("plotly", "ipywidgets", "anywidget")
INSTALL = "pip install 'rmcore[notebook]'"


def _extra():
    """plotly.graph_objects and ipywidgets, or an ImportError that says how to install them."""
    missing = []
    for name in EXTRA:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise ImportError(
            f"watching a solver in a notebook needs {', '.join(missing)} (the notebook extra): {INSTALL}"
        ) from None
    return importlib.import_module("plotly.graph_objects"), importlib.import_module("ipywidgets")


def watch(solver, *, speed: str = words.WATCH_FASTEST, stop_at: int | None = None, image: bool = True) -> Watch:
    """The live view of ``solver`` (a :class:`~rmcore.MatrixSolver` or a :class:`~rmcore.CFRSolver`) in a notebook
    cell: its figures as Plotly ``FigureWidget``\\ s, Run and Pause, and the speed (one of
    :data:`~rmcore.plotting.words.WATCH_SPEEDS`). The view starts paused; ``stop_at`` pauses it when the solver
    reaches that iteration. ``image`` adds the figures as PNG images (kaleido) for a notebook exported to HTML or
    PDF. While the view runs, the solver is its own: pause it before calling ``solver.run`` in another cell.

    Raises ``ImportError`` naming what to install when plotly, ipywidgets or anywidget are missing, and ``ValueError``
    for a solver or a setting it cannot take.
    """
    return Watch(solver, speed=speed, stop_at=stop_at, image=image)


class Watch:
    """A solver's live view: the figures (:attr:`figures`, by name), the controls (:attr:`run_button`,
    :attr:`pause_button`, :attr:`speed`), and the widget that holds them (:attr:`widget`).

    :meth:`play` and :meth:`pause` do what the buttons do; :meth:`update` is one update done in the caller's thread
    (what the running thread does every :data:`INTERVAL` seconds). :attr:`updates` counts them, and
    :attr:`longest_update` is the longest time one of them held the interpreter to draw (seconds, the solver's own
    time left out).
    """

    def __init__(self, solver, *, speed: str = words.WATCH_FASTEST, stop_at: int | None = None, image: bool = True):
        family = getattr(solver, "family", None)
        if family not in ("matrix", "tree") or not hasattr(solver, "history"):
            raise ValueError(
                f"watch() draws a MatrixSolver or a CFRSolver, got {type(solver).__name__}: a race draws on the "
                "dashboard's pages"
            )
        if speed not in words.WATCH_SPEEDS:
            raise ValueError(f"speed must be one of {', '.join(map(repr, words.WATCH_SPEEDS))}, got {speed!r}")
        if stop_at is not None and (isinstance(stop_at, bool) or not isinstance(stop_at, (int, np.integer))):
            raise ValueError(f"stop_at must be a whole number of iterations or None, got {stop_at!r}")
        if not isinstance(image, bool):
            raise ValueError(f"image must be True or False, got {image!r}")
        self._go, widgets = _extra()
        self.solver = solver
        self.stop_at = None if stop_at is None else int(stop_at)
        self.image = image
        self.updates = 0
        self.longest_update = 0.0
        self._rate: float | None = None  # iterations a second, measured at full speed
        self._closest = (None, -np.inf)  # (the closest CE found, when it was computed)
        self._equilibria = None
        self._setup = False  # the field under the rule: not looked for yet
        self._lock = threading.Lock()  # one update at a time: the thread's, or one asked for by hand
        self._running = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None
        drawn = self._figures()
        self._remade = dict.fromkeys(drawn, 0)  # times each figure's widget was made again
        self.figures = {name: self._figure_widget(name, spec) for name, spec in drawn.items()}
        self.run_button = widgets.Button(description=words.WATCH_RUN, icon="play")
        self.pause_button = widgets.Button(description=words.WATCH_PAUSE, icon="pause", disabled=True)
        self.speed = widgets.Dropdown(options=list(words.WATCH_SPEEDS), value=speed, description=words.WATCH_SPEED)
        self.status = widgets.HTML(self._status())
        self.run_button.on_click(lambda _: self.play())
        self.pause_button.on_click(lambda _: self.pause())
        controls = widgets.HBox([self.run_button, self.pause_button, self.speed, self.status])
        self.widget = widgets.VBox([controls, *self.figures.values()])

    # -- the widgets that draw the figures ------------------------------------------------------------------------

    def _figure_widget(self, name: str, spec: dict):
        """A FigureWidget drawing ``spec``, made again by :meth:`_remake` should its browser side miss its messages.

        anywidget gives a widget's browser model two seconds to load its module (for Plotly's, five megabytes of
        JavaScript that every FigureWidget's model compiles anew); past them it drops every message from the kernel,
        the figure's data and layout included, and its views draw an empty chart that no update reaches. On a busy
        machine the first figures of a notebook can take longer. Plotly's view reports, once drawn, the last trace
        edit its model received; the edit counted here right after the figure is made tells a model that received
        the figure from one that did not, and a figure whose view says it did not is made again as a new widget.
        """
        figure = self._go.FigureWidget(spec)
        made = figure._last_trace_edit_id = figure._last_trace_edit_id + 1  # (the edit a view must have seen)

        def on_report(change):
            report = change["new"]
            if report and report.get("trace_edit_id", made) < made:
                self._remake(name, figure)

        figure.observe(on_report, names="_js2py_traceDeltas")
        return figure

    def _remake(self, name: str, figure) -> None:
        """``figure`` (the widget of :attr:`figures` ``[name]``, whose view drew without its data) replaced by a
        new widget of the same figure, in :attr:`figures` and in :attr:`widget`; at most :data:`REMAKES` times."""
        with self._lock:
            if self.figures.get(name) is not figure or self._remade[name] >= REMAKES:
                return
            self._remade[name] += 1
            fresh = self._figure_widget(name, figure.to_dict())
            self.figures[name] = fresh
            self.widget.children = tuple(fresh if child is figure else child for child in self.widget.children)
        figure.close()

    # -- the controls ------------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the view's thread runs the solver."""
        return self._running.is_set()

    def play(self) -> None:
        """Run the solver in the view's thread, an update every :data:`INTERVAL` seconds, until :meth:`pause` (or
        ``stop_at``)."""
        if self._running.is_set():
            return
        self.error = None
        self._running.set()
        self.run_button.disabled, self.pause_button.disabled = True, False
        self._thread = threading.Thread(target=self._loop, name="rmcore-watch", daemon=True)
        self._thread.start()

    def pause(self) -> None:
        """Stop running after the update in hand; when this returns, the solver and the figures stand still."""
        self._running.clear()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self.run_button.disabled, self.pause_button.disabled = False, True

    def _loop(self) -> None:
        try:
            while self._running.is_set():
                began = time.monotonic()
                self.update()
                if self.stop_at is not None and self.solver.iteration >= self.stop_at:
                    break
                rest = INTERVAL - (time.monotonic() - began)
                if rest > 0:
                    time.sleep(rest)
        except Exception as error:  # (a solver at its iteration limit, say: said in the status line)
            self.error = error
        finally:
            self._running.clear()
            self.run_button.disabled, self.pause_button.disabled = False, True
            self.status.value = self._status()

    # -- one update --------------------------------------------------------------------------------------------------

    def update(self) -> int:
        """Advance the solver by one update's iterations (the speed's) and redraw every figure; returns the
        iterations run."""
        with self._lock:
            ran = self._advance()
            began = time.perf_counter()
            drawn = self._figures()
            for name, spec in drawn.items():
                _redraw(self.figures[name], spec)
            self.status.value = self._status()
            self.longest_update = max(self.longest_update, time.perf_counter() - began)
            self.updates += 1
            return ran

    def _advance(self) -> int:
        solver, per_update = self.solver, words.WATCH_SPEEDS[self.speed.value]
        room = None if self.stop_at is None else max(0, self.stop_at - solver.iteration)
        if per_update is not None:
            ran = per_update if room is None else min(per_update, room)
            solver.run(ran)
            return ran
        ran, began = 0, time.monotonic()
        while time.monotonic() - began < BUDGET and (room is None or ran < room) and self._running_or_by_hand():
            piece = 1 if self._rate is None else max(1, int(self._rate * PIECE))
            piece = piece if room is None else min(piece, room - ran)
            start = time.perf_counter()
            solver.run(piece)
            took = time.perf_counter() - start
            ran += piece
            if took > 0:
                measured = piece / took
                # A piece too short to time well (a tick or two) grows the next fourfold at most.
                self._rate = measured if self._rate is None else min(measured, 4 * self._rate)
        return ran

    def _running_or_by_hand(self) -> bool:
        return self._running.is_set() or self._thread is None or not self._thread.is_alive()

    def _status(self) -> str:
        solver = self.solver
        if solver.iteration == 0:
            return words.WATCH_WAITING
        metrics = solver.metrics()  # (its gap: nash_conv in self-play, the learner's gain against a fixed player)
        name = words.WATCH_NASH_CONV if metrics.gap_name == "nash_conv" else words.WATCH_GAIN
        value = metrics.gap
        said = words.watch_status(solver.iteration, name, value)
        return said if self.error is None else f"{said} · {words.WATCH_STOPPED}: {_escaped(self.error)}"

    # -- the figures -------------------------------------------------------------------------------------------------

    def _figures(self) -> dict[str, dict]:
        """Every figure of the view now, by name, as the page draws it."""
        return self._matrix_figures() if self.solver.family == "matrix" else self._tree_figures()

    def _matrix_figures(self) -> dict[str, dict]:
        solver, game = self.solver, self.solver.game
        algorithm = solver.variant.algorithm
        fixed = not solver.is_self_play
        simplex = matrix_figures.has_simplex(game)
        joint = self._joint_shown()
        setup = self._field_setup()
        history = solver.history() if solver.iteration else None
        if history is None:
            drawn = {"strategies": charts.waiting(words.WAITING_STRATEGIES, 380)}
            if simplex and setup is None:
                drawn["simplex"] = charts.waiting(words.WAITING_SIMPLEX, 420)
        else:
            shown = history.rows(charts.chart_rows(history.iterations))
            players = ("row",) if fixed else ("row", "col")
            drawn = {"strategies": matrix_figures.strategy_trajectories(shown, game, players=players)}
            if simplex and setup is None:
                equilibrium = self._equilibrium(history.policy("average", len(history) - 1))
                drawn["simplex"] = matrix_figures.simplex_path(shown, game, equilibrium, True)
        if setup is not None:  # the field under the rule takes the simplex's place, as on the page
            drawn["simplex"] = self._field_figure(setup, history)
        if history is None:
            drawn["convergence"] = charts.waiting(words.WAITING_CONVERGENCE, 420)
        else:
            drawn["convergence"] = matrix_figures.convergence(
                shown, fixed_opponent=fixed, bound=words.BOUND_NAMES.get(algorithm), variant=solver.variant
            )
        drawn = {name: drawn[name] for name in ("strategies", "simplex", "convergence") if name in drawn}
        row, col = solver.cumulative_regrets()
        drawn["regrets"] = matrix_figures.regret_bars(
            game, row, None if fixed else col, title=words.regret_title(algorithm)
        )
        if joint:
            drawn["correlated"] = self._joint_figure()
        return drawn

    def _field_setup(self):
        """The field under the rule (:func:`rmcore.plotting.fields.field_setup`) where it pictures the run's whole
        state, else None; found once."""
        if self._setup is False:
            solver = self.solver
            variant = solver.variant
            setup = fields.field_setup(
                solver.game,
                variant.algorithm,
                opponent=None if solver.opponent is None else solver.opponent["col"],
                start=solver.start,
                sampling=variant.sampling,
                updates=variant.updates,
            )
            self._setup = None if isinstance(setup, fields.NoField) else setup
        return self._setup

    def _field_figure(self, setup, history) -> dict:
        """The strategy space with the field, the rest points, the equilibria, the start and the run's trail."""
        solver, game = self.solver, self.solver.game
        trails = ()
        if history is not None:
            name = space_figures.run_names([solver.variant])[0]
            averages = history.rows(charts.chart_rows(history.iterations))
            recent = history.rows(np.arange(max(len(history) - space_figures.TRAIL_ROWS, 0), len(history)))
            trails = (space_figures.Trail(name, averages, recent),)
        if game.is_zero_sum:
            equilibria = [self._equilibrium(None)]
        else:
            equilibria = list(game.equilibria)
        m, n = game.shape
        row, col = (np.full(m, 1.0 / m), np.full(n, 1.0 / n)) if solver.start is None else solver.start
        start = np.concatenate([row, col]) if setup.space == "square" else np.asarray(row, dtype=float)
        return space_figures.strategy_space(game, setup, trails, equilibria, start=start)

    def _joint_shown(self) -> bool:
        """Whether the view draws the joint play against the correlated equilibria (a general-sum game in self-play
        small enough for the correlated-equilibrium programs)."""
        import rmcore

        solver = self.solver
        cells = solver.game.shape[0] * solver.game.shape[1]
        return matrix_figures.shows_joint_play(solver) and cells <= rmcore.correlated.MAX_CELLS

    def _equilibrium(self, average):
        """The star on the simplex: a zero-sum game's equilibrium (its LP's, once), a general-sum game's Nash
        equilibrium nearest the averages now."""
        import rmcore

        game = self.solver.game
        if game.is_zero_sum:
            if self._equilibria is None:
                if game.equilibria:
                    self._equilibria = game.equilibria[0]
                else:
                    policy = rmcore.solve_exactly(game).policy
                    self._equilibria = rmcore.Equilibrium(policy["row"], policy["col"])
            return self._equilibria
        if self._equilibria is None:
            self._equilibria = rmcore.nash_equilibria(game).equilibria
        if not self._equilibria:
            return None
        k, _ = rmcore.nearest_equilibrium(self._equilibria, average["row"], average["col"])
        return rmcore.Equilibrium(self._equilibria[k].row, self._equilibria[k].col)

    def _joint_figure(self) -> dict:
        """The joint play against the correlated equilibria: a 2x2 game's tetrahedron, a larger game's heatmaps
        beside the closest CE (computed every :data:`CLOSEST_INTERVAL` seconds at most)."""
        import rmcore

        solver, game = self.solver, self.solver.game
        if game.shape == (2, 2):
            trail = matrix_figures.joint_trail(solver, solver.iteration) if solver.iteration else None
            return correlated_figures.tetrahedron_figure(game, trail)
        if solver.iteration == 0:
            return charts.waiting(words.HEATMAPS_TITLE, 420)
        now = matrix_figures.joint_trail(solver, solver.iteration)[-1]
        found, when = self._closest
        if found is None or time.monotonic() - when >= CLOSEST_INTERVAL:
            found = rmcore.closest_correlated_equilibrium(game, now)
            self._closest = (found, time.monotonic())
        return correlated_figures.joint_heatmaps_figure(now, found, game)

    def _tree_figures(self) -> dict[str, dict]:
        solver, game = self.solver, self.solver.game
        unit = words.tree_unit(tree_figures.is_poker(game))
        if solver.iteration == 0:
            return {
                "convergence": charts.waiting(words.WAITING_EXPLOITABILITY, 440),
                "trajectories": charts.waiting(
                    words.TRAJECTORIES_POKER if tree_figures.is_poker(game) else words.TRAJECTORIES_OTHER, 440
                ),
            }
        import rmcore

        shown = charts.charted(solver.history())
        variant, learner = solver.variant, solver.learner
        gap_name = "nash_conv" if learner is None else f"br_gain_{learner}"
        gap = shown.metrics[gap_name]
        work = shown.metrics["nodes_touched"] if "nodes_touched" in shown.metrics else None
        # The page's race chart of a race of one: the same builder, this run's curve as its only variant.
        curve = rmcore.race.Curve(variant.label, shown.iterations, gap, gap, gap, 1, work)
        result = rmcore.RaceResult([], [curve], gap_name)
        if learner is None:
            names = {variant.label: words.cfr_curve_name(variant, "average")}
            current = charts.current_traces([shown], [words.cfr_curve_name(variant, "current")], "nash_conv_current")
        else:
            names, current = None, []
        return {
            "convergence": charts.race_figure(result, current, names=names, unit=unit),
            "trajectories": tree_figures.trajectories(shown, game),
        }

    # -- how a notebook shows it -------------------------------------------------------------------------------------

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The widget for a live notebook, and the figures as PNG images (kaleido) beside it for a static renderer:
        HTML with every figure, and the first figure alone as ``image/png`` (a PDF export takes one image)."""
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data)
        if self.image:
            try:
                pngs = self.images()
            except Exception as error:  # (no browser for kaleido, say: the live view still works)
                data["text/plain"] = f"{words.WATCH_NO_IMAGE}: {error}"
            else:
                data["image/png"] = base64.b64encode(pngs[0]).decode("ascii")
                tags = "".join(
                    f'<img src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}" '
                    f'style="max-width: 100%" alt="{name}">'
                    for name, png in zip(self.figures, pngs)
                )
                data["text/html"] = f"<div>{tags}</div>"
        return data, metadata

    def images(self) -> list[bytes]:
        """Every figure as it stands, drawn by kaleido as PNG (:data:`IMAGE_WIDTH` pixels wide, each its own
        height), in the order of :attr:`figures`."""
        from . import images

        with self._lock:
            drawn = [figure.to_dict() for figure in self.figures.values()]
        sizes = [(IMAGE_WIDTH, int(spec["layout"].get("height") or 450)) for spec in drawn]
        return images.render_each(drawn, sizes, "png")

    def close(self) -> None:
        """Pause, and close the widgets (a closed view draws nothing more)."""
        self.pause()
        self.widget.close()
        for figure in self.figures.values():
            figure.close()


def _redraw(figure, spec: dict) -> None:
    """``figure`` (a FigureWidget) redrawn as ``spec``: the traces' data in place where the traces are the same
    ones (the browser then only moves them), replaced where their number or kinds changed; the layout updated,
    its ``uirevision`` keeping the reader's zoom and the 3-D view's angle."""
    traces = spec["data"]
    with figure.batch_update():
        same = len(figure.data) == len(traces) and all(
            old.type == new.get("type", "scatter") for old, new in zip(figure.data, traces)
        )
        if same:
            for old, new in zip(figure.data, traces):
                old.update(new, overwrite=True)
        else:
            figure.data = ()
            figure.add_traces(traces)
        figure.layout.update(spec["layout"], overwrite=True)


def _escaped(error: BaseException) -> str:
    return str(error).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
