"""rmcore.plotting.watch: a solver watched in a notebook cell, driven here without a browser or a kernel (the widgets
and their figures are Python objects; what they would send is what they hold)."""

from __future__ import annotations

import base64
import sys
import time

import numpy as np
import pytest

import rmcore
from rmcore.plotting import charts, live, watch, words
from rmcore.plotting import matrix as matrix_figures

#: Seconds a test waits for the view's thread to reach a state (a bound on waiting, not a timing).
PATIENCE = 60.0


def _until(condition) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "the view's thread never got there"
        time.sleep(0.01)


def _points(figure) -> list[int]:
    return [0 if trace.x is None else len(trace.x) for trace in figure.data]


def _reach(figure) -> float:
    """The last iteration the figure's first curve draws."""
    return float(figure.data[0].x[-1])


def _names(figure) -> list[str]:
    return [trace.name for trace in figure.data if trace.name]


def test_a_kuhn_view_draws_the_tree_pages_charts_and_they_grow_with_each_update():
    solver = rmcore.CFRSolver(rmcore.tree_game("kuhn"), "cfr+")
    view = watch(solver, speed="1,000 per update", image=False)
    assert list(view.figures) == ["convergence", "trajectories"]
    assert not view.figures["convergence"].data  # waiting for Run, titled as the page's
    assert view.figures["convergence"].layout.title.text == words.WAITING_EXPLOITABILITY
    assert view.update() == 1_000 and solver.iteration == 1_000
    names = _names(view.figures["convergence"])
    assert words.cfr_curve_name(solver.variant, "average") in names
    assert words.cfr_curve_name(solver.variant, "current") in names
    first = _points(view.figures["convergence"])
    view.update()
    view.update()
    assert solver.iteration == 3_000 and _reach(view.figures["convergence"]) == 3_000
    grown = _points(view.figures["convergence"])
    assert len(grown) == len(first) and grown[0] > first[0]
    # The same figure the page's builder draws from the same history: one builder, two hosts.
    from rmcore.plotting import trees

    trajectories = view.figures["trajectories"]
    page = trees.trajectories(charts.charted(solver.history()), solver.game)
    assert [t.name for t in trajectories.data] == [t.get("name") for t in page["data"]]
    np.testing.assert_allclose(np.asarray(trajectories.data[0].y, dtype=float), page["data"][0]["y"])
    assert "iteration <b>3,000</b>" in view.status.value and "NashConv" in view.status.value


def test_run_goes_on_in_a_thread_and_pause_stops_the_solver_and_the_traces():
    solver = rmcore.CFRSolver(rmcore.tree_game("kuhn"))
    view = watch(solver, speed="100 per update", image=False)
    view.run_button.click()  # (as the browser's click arrives: the widget's own handler)
    assert view.running and view.run_button.disabled and not view.pause_button.disabled
    _until(lambda: view.updates >= 3)
    view.pause_button.click()
    assert not view.running and not view._thread.is_alive()
    iteration, reach = solver.iteration, _reach(view.figures["convergence"])
    assert iteration >= 300 and iteration % 100 == 0 and reach == iteration
    time.sleep(3 * live.INTERVAL)  # (three updates' time: a view still running would have moved)
    assert solver.iteration == iteration and _reach(view.figures["convergence"]) == reach
    assert view.error is None and not view.run_button.disabled


def test_a_view_stops_at_the_iteration_asked_for_and_at_full_speed_runs_pieces_of_its_budget():
    solver = rmcore.CFRSolver(rmcore.tree_game("kuhn"))
    view = watch(solver, stop_at=2_000, image=False)
    view.play()
    _until(lambda: not view.running)
    assert solver.iteration == 2_000 and view.error is None
    assert f"iteration <b>{2_000:,}</b>" in view.status.value


def test_a_matrix_view_draws_the_matrix_pages_charts():
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), "rm", start=([6, 2, 2], [2, 2, 6]))
    view = watch(solver, speed="100 per update", image=False)
    assert list(view.figures) == ["strategies", "simplex", "convergence", "regrets"]
    view.update()
    history = solver.history()
    shown = history.rows(charts.chart_rows(history.iterations))
    page = matrix_figures.strategy_trajectories(shown, solver.game)
    assert _names(view.figures["strategies"]) == [t["name"] for t in page["data"] if t.get("name")]
    convergence = _names(view.figures["convergence"])
    assert any(words.BOUND_NAMES["rm"] in name for name in convergence)
    regrets = view.figures["regrets"]
    assert regrets.layout.title.text == words.regret_title("rm")
    np.testing.assert_allclose(regrets.data[0].y, solver.cumulative_regrets().player_1)


def test_where_a_field_pictures_the_run_it_takes_the_simplexs_place_as_on_the_page():
    from rmcore.plotting import fields, space

    solver = rmcore.MatrixSolver(rmcore.preset("matching-pennies"), "hedge", start=([3, 1], [1, 3]))
    view = watch(solver, speed="100 per update", image=False)
    before = {trace.meta for trace in view.figures["simplex"].data}
    assert space.FIELD in before and space.ITERATE not in before  # the field and its rest points, before Run
    view.update()
    assert space.ITERATE in {trace.meta for trace in view.figures["simplex"].data}  # and the run's trail on it
    setup = fields.field_setup(solver.game, "hedge", start=solver.start)
    page = space.strategy_space(solver.game, setup, (), [solver.game.equilibria[0]], start=[0.75, 0.25, 0.25, 0.75])
    assert view.figures["simplex"].layout.title.text == page["layout"]["title"]["text"]


def test_against_a_fixed_opponent_the_status_follows_the_learners_gain():
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), "fictitious-play", opponent={"col": [1, 2, 3]})
    view = watch(solver, speed="10 per update", image=False)
    view.update()
    assert words.WATCH_GAIN in view.status.value and f"{solver.metrics().br_gains.player_1:.4g}" in view.status.value


def test_a_general_sum_view_draws_the_joint_play_in_the_tetrahedron():
    solver = rmcore.MatrixSolver(rmcore.preset("chicken"), "rm")
    view = watch(solver, speed="100 per update", image=False)
    assert "correlated" in view.figures
    view.update()
    view.update()
    trail = next(t for t in view.figures["correlated"].data if t.name == words.TRAIL)
    assert len(trail.x) >= 2
    assert view.figures["correlated"].layout.title.text == words.TETRAHEDRON_TITLE


def test_a_static_copy_of_the_notebook_gets_the_figures_as_images_beside_the_widget():
    solver = rmcore.CFRSolver(rmcore.tree_game("kuhn"))
    solver.run(50)
    data, _ = watch(solver)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert base64.b64decode(data["image/png"]).startswith(b"\x89PNG")
    assert data["text/html"].count("<img") == 2


def test_without_the_notebook_extra_the_message_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # (an import of it fails at once)
    with pytest.raises(ImportError, match=r"needs ipywidgets \(the notebook extra\): pip install 'rmcore\[notebook\]'"):
        watch(rmcore.CFRSolver(rmcore.tree_game("kuhn")))


@pytest.mark.parametrize(
    "given, said",
    [
        (dict(solver="kuhn"), "watch() draws a MatrixSolver or a CFRSolver, got str"),
        (dict(speed="fast"), "speed must be one of '1 per update', "),
        (dict(stop_at="10"), "stop_at must be a whole number of iterations or None, got '10'"),
        (dict(image="no"), "image must be True or False, got 'no'"),
    ],
)
def test_bad_arguments_are_named(given, said):
    solver = given.pop("solver", None) or rmcore.MatrixSolver(rmcore.preset("rps"))
    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        watch(solver, **given)


def test_a_figure_whose_view_drew_without_its_data_is_made_again_and_then_updates():
    # A view reports, once drawn, the last trace edit its browser model received (what Plotly's view sends back);
    # a model that missed the figure (anywidget drops a slow-loading model's messages) reports none of them.
    solver = rmcore.CFRSolver(rmcore.tree_game("kuhn"), "cfr+")
    solver.run(100)
    view = watch(solver, speed="100 per update", image=False)
    first = view.figures["convergence"]
    made = first._last_trace_edit_id
    deltas = [{"uid": trace.uid} for trace in first.data]
    first._js2py_traceDeltas = {"trace_deltas": deltas, "trace_edit_id": made}  # a view that drew it
    assert view.figures["convergence"] is first
    first._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": 0}  # a view that drew an empty chart
    fresh = view.figures["convergence"]
    assert fresh is not first and first.comm is None  # (closed)
    assert fresh in view.widget.children and first not in view.widget.children
    drawn = lambda figure: [{k: v for k, v in trace.items() if k != "uid"} for trace in figure.to_dict()["data"]]  # noqa: E731
    assert drawn(fresh) == drawn(first) and fresh.layout.title.text == first.layout.title.text
    view.update()
    assert _reach(view.figures["convergence"]) == 200
    for _ in range(2 * live.REMAKES):  # a browser that never takes the figure: made again a bounded number of times
        figure = view.figures["convergence"]
        figure._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": 0}
    assert view._remade["convergence"] == live.REMAKES
