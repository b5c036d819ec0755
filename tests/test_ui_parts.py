"""The Streamlit-free parts of ui/: figure builders, the live-run controller, editor drafts."""

import ast
import time
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import plotly.io
import pytest

import rmcore
from rmcore.plotting import charts
from rmcore.plotting import matrix as figures
from rmcore.plotting import trees as tree_figures
from rmcore.plotting.charts import chart_rows
from ui.live import FILLED, LiveRun
from ui.matrix.editor import UPLOAD_LIMIT, Draft, game_from_csv
from ui.trees import walkthrough


def _checked(spec):
    """The builders return plain dicts; go.Figure validates one against Plotly's schema and reads it back."""
    return None if spec is None else go.Figure(spec)


def _history(game, iterations=500, **settings):
    solver = rmcore.MatrixSolver(game, max_points=100, history_share=None, **settings)  # (as a page keeps it)
    solver.run(iterations)
    return solver, solver.history()


def test_strategy_trajectories_show_current_and_average_for_both_players():
    game = rmcore.preset("rps-crash")
    _, history = _history(game)
    figure = _checked(figures.strategy_trajectories(history, game))
    assert len(figure.data) == 2 * 3 * 2
    assert {t.xaxis for t in figure.data} == {"x", "x2"}
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.range == (-0.02, 1.02)
    average_rock = next(t for t in figure.data if t.name == "Rock (average)")
    np.testing.assert_array_equal(average_rock.y, history.strategy("average", "row")[:, 0])
    assert figure.layout.xaxis.dtick == 1 and figure.layout.xaxis2.dtick == 1  # powers of ten only
    linear = _checked(figures.strategy_trajectories(history, game, log_x=False, players=("row",)))
    assert linear.layout.xaxis.type == "linear" and linear.layout.xaxis.dtick is None


def test_simplex_for_three_actions_square_for_2x2_nothing_otherwise():
    rps = rmcore.preset("rps-crash")
    _, history = _history(rps)
    ternary = _checked(figures.simplex_path(history, rps, rps.equilibria[0], show_current=True))
    assert {t.type for t in ternary.data} == {"scatterternary"}
    star = [t for t in ternary.data if t.name == "equilibrium"][0]
    assert (star.a[0], star.b[0], star.c[0]) == (0.25, 0.5, 0.25)
    pennies = rmcore.preset("matching-pennies")
    _, history = _history(pennies)
    square = _checked(figures.simplex_path(history, pennies))
    assert square.layout.xaxis.range == (-0.02, 1.02) and any(t.name == "equilibrium" for t in square.data)
    big = rmcore.preset("random-zero-sum", rows=4, cols=5, seed=1)
    _, history = _history(big)
    assert _checked(figures.simplex_path(history, big)) is None


def test_convergence_is_log_log_with_labelled_bounds_and_hides_zeros():
    game = rmcore.preset("rps-crash")
    _, history = _history(game)
    figure = _checked(figures.convergence(history))
    names = [t.name for t in figure.data]
    assert names[0].startswith("nash_conv") and any("guide" in n for n in names)
    assert [n for n in names if "bound" in n] == ["bound: Δ·√(|A|/T), both players"]  # zero-sum and square: one bound
    assert figure.layout.xaxis.type == "log" and figure.layout.yaxis.type == "log"
    assert figure.layout.xaxis.dtick == 1 and figure.layout.yaxis.dtick == 1  # 500 iterations, gaps over 2+ decades
    uneven = rmcore.preset("random-zero-sum", rows=2, cols=3, seed=4)  # |A| differs: two bounds
    _, history = _history(uneven)
    names = [t.name for t in _checked(figures.convergence(history)).data]
    assert sum("bound" in n for n in names) == 2 and not any("both" in n for n in names)
    _, short = _history(game, iterations=20)
    assert _checked(figures.convergence(short)).layout.xaxis.dtick is None  # under two decades: Plotly's own ticks
    plain = rmcore.preset("rps")  # never moves from uniform: nash_conv is exactly 0
    _, history = _history(plain)
    assert np.isnan(_checked(figures.convergence(history)).data[0].y).all()
    _, history = _history(game, opponent={"col": [0.4, 0.3, 0.3]})
    fixed = _checked(figures.convergence(history, fixed_opponent=True))
    assert fixed.data[0].name.startswith("best-response gain") and not any("column" in t.name for t in fixed.data)


def test_regret_bars_colour_the_played_actions():
    game = rmcore.preset("rps")
    figure = _checked(figures.regret_bars(game, np.array([1.0, -2.0, 0.0]), np.array([0.5, 0.5, -1.0])))
    assert len(figure.data) == 2
    assert list(figure.data[0].marker.color) == [charts.COLOURS[0], "#bbbbbb", "#bbbbbb"]
    assert len(_checked(figures.regret_bars(game, np.zeros(3), None)).data) == 1


def test_live_run_steps_exactly_and_sizes_chunks_to_its_budget():
    run = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"]))
    run.step(7)
    assert run.iteration == 7 and run.iterations_per_second() is None and not run.is_race
    assert run.chunk_size(10) == 10
    for _ in range(3):
        run.tick(None)
    assert run.iteration > 7 and run.iterations_per_second() > 0
    assert run.chunk_size(None) > 1_000  # learned that the solver is fast
    frame = run.frame()
    assert frame.iteration == run.iteration == frame.history.iterations[-1]


def test_full_speed_chunks_grow_to_fill_their_budget_when_each_call_has_a_large_fixed_cost():
    # On a server busy with a class, one call costs about 1.5 ms however few its iterations; the budget per update is
    # 2 ms. Sized by iterations / elapsed alone, a chunk of 1 iteration measured a rate that sized the next at 1 again.
    run = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"]))
    run_race = run.race.run

    def with_fixed_cost(iterations):
        started = time.thread_time()
        while time.thread_time() - started < 0.003:  # CPU time, as LiveRun counts it
            pass
        run_race(iterations)

    run.race.run = with_fixed_cost
    run._rate = 100.0  # an estimate taken from such calls: 1 iteration per 5 ms budget
    budget = 0.005
    sizes = [run.tick(None, budget) for _ in range(40)]
    assert sizes[0] == 1 and min(sizes[-10:]) > 1_000  # rm on 3x3 runs millions a second: 2 ms of it is thousands


@pytest.mark.parametrize(
    "fixed_cost, per_iteration, budget", [(0.0, 10e-6, 0.025), (3e-3, 1e-6, 0.005), (1.5e-3, 0.1e-6, 0.002)]
)
def test_full_speed_chunks_fill_their_budget_and_never_overshoot_it(monkeypatch, fixed_cost, per_iteration, budget):
    """On a clock of our own, each call costs ``fixed_cost`` plus ``per_iteration`` an iteration: the chunks grow to
    fill their budget (80% or more of it at the end), and none takes more than the budget and a quarter."""
    import types

    import ui.live

    clock = [0.0]
    monkeypatch.setattr(
        ui.live, "time", types.SimpleNamespace(thread_time=lambda: clock[0], perf_counter=lambda: clock[0])
    )
    run = LiveRun(rmcore.Race(rmcore.preset("rps-crash"), ["rm"]))
    run_race = run.race.run

    def costed(iterations):
        clock[0] += fixed_cost + per_iteration * iterations
        run_race(iterations)

    run.race.run = costed
    run._rate = 100.0
    times = []
    for _ in range(60):
        before = clock[0]
        run.tick(None, budget)
        times.append(clock[0] - before)
    assert max(times) <= 1.25 * budget, max(times) / budget
    assert min(times[-10:]) >= FILLED * budget, [t / budget for t in times[-10:]]


def test_a_live_race_advances_every_run_together_and_one_cfr_step_is_traced():
    run = LiveRun(rmcore.Race(rmcore.KUHN, ["cfr", "chance-sampling/simultaneous"], seeds=3))
    run.step(1)
    assert run.trace is not None and len(run.trace) == 12 and run.iteration == 1
    run.tick(50)
    assert run.is_race and {s.iteration for s in run.race.solvers} == {51}
    frame = run.frame()
    assert [len(runs) for runs in frame.histories] == [1, 3] and len(frame.race.standings) == 2


def test_chart_rows_spread_along_the_axis_and_keep_the_last():
    iterations = np.arange(1, 100_001)
    for log_x in (True, False):
        rows = chart_rows(iterations, log_x, points=100)
        assert len(rows) <= 101 and rows[-1] == len(iterations) - 1 and np.all(np.diff(rows) > 0)
    assert len(chart_rows(iterations[:50])) == 50
    assert iterations[chart_rows(iterations, True, 100)][1] < 10 < iterations[chart_rows(iterations, False, 100)][1]


def test_race_figure_draws_median_and_band_with_both_guides():
    result = rmcore.run_race(rmcore.preset("rps-crash"), ["rm", "rm/sampled"], 2_000, seeds=3)
    spec = _checked(charts.race_figure(result))
    names = [t.name for t in spec.data if t.showlegend is not False]
    assert names[:2] == [
        "rm · expected · simultaneous · uniform",
        "rm · sampled · simultaneous · uniform (median of 3)",
    ]
    assert {"guide: 1/√T", "guide: 1/T"} <= set(names)
    band = [t for t in spec.data if t.fill == "tonexty"]
    assert len(band) == 1 and spec.layout.xaxis.type == "log" and spec.layout.yaxis.type == "log"
    rows = charts.race_table(result)
    assert rows[0]["variant"].startswith("rm") and set(rows[0]) >= {"to 1e-02", "to 1e-06", "nash_conv"}


def test_poker_figures_are_valid_plotly():
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr")
    solver.run(300)
    history = solver.history()
    assert len(_checked(tree_figures.infoset_trajectories(history)).data) == 12
    tree = _checked(walkthrough.tree_figure(solver.current_policy().probabilities, 300))
    decisions = next(t for t in tree.data if t.marker.colorscale is not None)
    policy, game = solver.current_policy(), rmcore.KUHN
    nodes = np.flatnonzero(game.tree.player >= 0)
    assert len(decisions.x) == 24  # 6 deals x 4 decisions
    assert list(decisions.marker.color) == [policy[game.infosets[game.tree.infoset[n]]][1] for n in nodes]
    leaves = next(t for t in tree.data if t.marker.symbol == "square")
    assert (
        sorted(leaves.text) == sorted(f"{p:+g}" for p in game.tree.payoff[game.tree.player < 0])
        and len(leaves.text) == 30
    )
    names = next(t for t in tree.data if t.mode == "text" and t.text and "Jpb" in t.text)
    assert sorted(names.text) == sorted(rmcore.trees.kuhn.INFOSETS * 2)  # every decision named by its information set
    arcs = next(t for t in tree.data if t.line.dash == "dash")
    ends = [(arcs.x[k], arcs.x[k + 2]) for k in range(0, len(arcs.x), 4)]
    named = {x: name for x, name in zip(decisions.x, names.text)}  # each node's information set, by its x
    assert len(ends) == 12 and all(named[a] == named[b] for a, b in ends)  # each arc joins the two nodes of one set
    deals = next(t for t in tree.data if t.mode == "text" and t.text and "J·Q" in t.text)
    assert list(deals.text) == ["J·Q", "J·K", "Q·J", "Q·K", "K·J", "K·Q"]
    spec, alpha = tree_figures.equilibrium_check(solver.average_policy())
    assert 0 <= alpha <= 1 / 3 and len(_checked(spec).layout.shapes) == 12
    traces = charts.current_traces([history, history], ["a", "b"], "nash_conv_current")
    assert [t["name"] for t in traces] == ["a", "b"] and {t["line"]["dash"] for t in traces} == {"dash"}


def test_draft_round_trip_resize_and_zero_sum_switch():
    game = rmcore.preset("battle-of-sexes")
    draft = Draft.from_game(game)
    assert not draft.zero_sum and draft.shape == (2, 2)
    again = draft.to_game(draft.row_cells, draft.col_cells, "Opera, Football", "Opera, Football")
    np.testing.assert_array_equal(again.col_payoffs, game.col_payoffs)
    grown = draft.with_shape(3, 4)
    assert grown.shape == (3, 4) and grown.version == draft.version + 1
    assert grown.row_cells.iat[2, 3] == "0" and grown.col_names == ("Opera", "Football", "C1", "C2")
    zero_sum = Draft.from_game(rmcore.preset("rps-crash")).with_zero_sum(False)
    assert zero_sum.col_cells.iat[0, 2] == "-2"
    with pytest.raises(ValueError, match="1 to 10 actions"):
        draft.with_shape(11, 2)
    with pytest.raises(ValueError, match="give one name per action"):
        draft.to_game(draft.row_cells, draft.col_cells, " , ", "a, b")


def test_csv_games_are_limited_to_the_upload_size():
    assert game_from_csv(b"1,2\n3,4\n", None, "x.csv")[0].shape == (2, 2)
    assert not game_from_csv(b"1,2\n3,4\n", b"1,0\n0,1\n", "x.csv")[0].is_zero_sum
    too_big = ("\n".join([",".join(["0"] * (UPLOAD_LIMIT + 1))])).encode()
    with pytest.raises(ValueError, match="at most 200"):
        game_from_csv(too_big, None, "big.csv")
    with pytest.raises(ValueError, match="not a UTF-8 text file"):
        game_from_csv(b"\xff\xfe1,2", None, "bad.csv")


def test_slow_steps_show_each_regret_increment_on_the_bars():
    game = rmcore.preset("rps-crash")
    run = LiveRun(rmcore.Race(game, ["rm"]))
    run.step(5)
    before = run.primary.cumulative_regrets()
    run.tick(1)
    iterations, change = run.last_step
    after = run.primary.cumulative_regrets()
    assert iterations == 1
    np.testing.assert_allclose(change[0], after.player_1 - before.player_1)
    np.testing.assert_allclose(change[1], after.player_2 - before.player_2)
    spec = _checked(figures.regret_bars(game, after.player_1, after.player_2, change))
    increments = [t for t in spec.data if t.name == "change in the last step"]
    assert len(increments) == 2 and spec.layout.barmode == "overlay"
    np.testing.assert_allclose(
        np.array(increments[0].base, dtype=float) + np.array(increments[0].y, dtype=float), after.player_1
    )
    fixed = LiveRun(rmcore.Race(rmcore.preset("rps"), ["rm"], opponent={"col": (0.5, 0.25, 0.25)}))
    fixed.tick(1)
    assert fixed.last_step[1][1] is None  # a fixed opponent has no regrets


def test_speeds_go_down_to_one_iteration_a_second():
    from ui.live import SPEEDS

    slowest = next(iter(SPEEDS.values()))
    assert slowest.iterations == 1 and slowest.interval == 1.0 and list(SPEEDS.values())[-1].iterations is None


def test_log_axes_never_carry_more_than_eight_labels():
    assert charts.log_ticks([1, 50]) == {}  # under two decades: Plotly's own ticks
    assert charts.log_ticks([1, 1e4]) == {"dtick": 1}
    for low in (1e-18, 1e-40, 1e-300):
        step = charts.log_ticks([low, 1.0])["dtick"]
        assert -np.log10(low) / step <= charts.MAX_LOG_LABELS


def test_a_large_game_draws_its_most_played_actions_with_a_readable_legend():
    game = rmcore.preset("random-zero-sum", rows=40, cols=30, seed=2)
    _, history = _history(game, iterations=300)
    spec = _checked(figures.strategy_trajectories(history, game))
    assert len(spec.data) == 2 * figures.MAX_SHOWN_ACTIONS and "8 most played" in spec.layout.title.text
    row_final = history.strategy("average", "row")[-1]
    shown = figures.shown_actions(history, "row")
    assert min(row_final[shown]) >= np.sort(row_final)[-figures.MAX_SHOWN_ACTIONS]
    small = rmcore.preset("rps-crash")
    _, history = _history(small)
    assert figures.shown_actions(history, "row") == [0, 1, 2]


def test_projector_style_makes_every_text_18px_and_lines_at_least_3px_without_changing_the_figure():
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    solver.run(200)
    history = solver.history()
    original = figures.strategy_trajectories(history, solver.game)
    before = plotly.io.to_json(original, validate=False)
    spec = _checked(charts.for_projector(original))
    assert plotly.io.to_json(original, validate=False) == before
    assert spec.layout.font.size >= 18 and spec.layout.legend.font.size >= 18 and spec.layout.title.font.size >= 18
    widths = [t.line.width for t in spec.data]
    averages = [t for t in spec.data if "average" in t.name]
    currents = [t for t in spec.data if "current" in t.name]
    assert all(t.line.width >= 3 for t in averages) and all(t.line.width >= 2.5 and t.opacity >= 0.9 for t in currents)
    assert min(widths) >= 2.5
    annotated = _checked(charts.for_projector(figures.regret_bars(solver.game, np.ones(3), np.ones(3))))
    assert all(a.font.size >= 18 for a in annotated.layout.annotations)


def test_on_a_projector_a_long_title_is_wrapped_at_spaces_and_the_top_margin_grows_with_it():
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    solver.run(20)
    long = "Cumulative regrets now, and how each action would have done against what was actually played"
    assert len(long) > charts.PROJECTOR_TITLE_CHARS
    bars = figures.regret_bars(solver.game, np.ones(3), np.ones(3), title=long)
    projected = charts.for_projector(bars)
    lines = projected["layout"]["title"]["text"].split("<br>")
    assert len(lines) == 2 and " ".join(lines) == long and max(map(len, lines)) <= charts.PROJECTOR_TITLE_CHARS
    assert projected["layout"]["margin"]["t"] == bars["layout"]["margin"]["t"] * 1.2 + charts.PROJECTOR_TITLE_LINE
    plot = projected["layout"]["height"] - projected["layout"]["margin"]["t"] - projected["layout"]["margin"]["b"]
    assert plot >= charts.vertical_title_length(bars["layout"]) > 0  # room for the axis title along the plot
    main = charts.for_projector(figures.strategy_trajectories(solver.history(), solver.game))["layout"]
    assert main["height"] <= 430  # (a chart whose axis titles fit keeps its height: the main chart fits 720 pixels)
    short = figures.strategy_trajectories(solver.history(), solver.game)  # a short title stays on one line
    assert charts.for_projector(short)["layout"]["title"]["text"] == short["layout"]["title"]["text"]


def test_on_a_projector_a_square_or_triangle_keeps_its_legend_under_it_and_its_width():
    from rmcore.plotting import fields
    from rmcore.plotting import space as space_figure

    for name in ("matching-pennies", "rps"):  # the square and the triangle
        solver = rmcore.MatrixSolver(rmcore.preset(name), "hedge")
        solver.run(50)
        history = solver.history()
        setup = fields.field_setup(solver.game, "hedge")
        chart = space_figure.strategy_space(solver.game, setup, [space_figure.Trail("run", history, history)])
        under = chart["layout"]["legend"]
        assert under["orientation"] == "h" and under["yref"] == "container"  # on the page: under the plot
        projected = _checked(charts.for_projector(chart))
        assert projected.layout.legend.orientation == "h" and projected.layout.legend.y == 0, name
        assert projected.layout.margin.r <= charts.PROJECTOR_RIGHT_MARGIN
        page, shown = chart["layout"], projected.layout  # the legend's rows get their margin, the plot keeps its size
        plot = page["height"] - page["margin"]["t"] - page["margin"]["b"]
        assert shown.height - shown.margin.t - shown.margin.b == pytest.approx(plot, abs=1)
    wide = figures.strategy_trajectories(solver.history(), solver.game)  # a time chart's legend stays where it is
    orientation = wide["layout"]["legend"].get("orientation")
    assert charts.for_projector(wide)["layout"]["legend"].get("orientation") == orientation


def test_a_replay_marks_its_iteration_on_every_time_panel():
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    solver.run(500)
    spec = _checked(charts.mark_iteration(figures.strategy_trajectories(solver.history(), solver.game), 123))
    lines = [s for s in spec.layout.shapes if s.type == "line"]
    assert [(s.xref, s.x0) for s in lines] == [("x", 123), ("x2", 123)]
    label = spec.layout.annotations[-1]
    assert label.text == "t = 123" and label.x == pytest.approx(np.log10(123))  # annotations on a log axis take log10


def test_the_simplex_and_the_bars_show_a_replayed_moment_and_a_sampled_draw():
    game = rmcore.preset("rps-crash")
    solver = rmcore.MatrixSolver(game, sampling="sampled", seed=1)
    solver.run(50)
    history = solver.history()
    row = history.row_at(20)
    policy = history.policy("average", row)
    spec = _checked(figures.simplex_path(history, game, None, False, (20, policy["row"], policy["col"])))
    ring = [t for t in spec.data if t.name == "at t = 20"]
    assert len(ring) == 2 and list(ring[0].a) == [policy["row"][0]]
    bars = _checked(figures.regret_bars(game, history.regrets[row, 0], history.regrets[row, 1], drawn=(2, 0, 2)))
    assert list(bars.data[0].marker.line.width) == [0, 0, 3] and list(bars.data[1].marker.line.width) == [3, 0, 0]


def test_in_a_symmetric_game_both_players_paths_stay_visible_on_the_simplex():
    solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"))
    solver.run(100)
    spec = _checked(figures.simplex_path(solver.history(), solver.game))
    row, col = (next(t for t in spec.data if t.name == f"{who}, average") for who in ("Row player", "Column player"))
    assert list(row.a) == list(col.a)  # the same path ...
    assert row.line.width > col.line.width and spec.data.index(row) < spec.data.index(
        col
    )  # ... drawn wider, underneath


def test_a_live_chart_is_sent_as_the_json_plotly_itself_would_write():
    import json

    from ui.live_chart import RUNNING_CONFIG, figure_json

    game = rmcore.preset("rps-crash")
    solver, history = _history(game, 3_000)
    shown = history.rows(chart_rows(history.iterations))
    race = rmcore.Race(game, ["rm", "rm+"])
    race.run(200)
    equilibrium = game.equilibria[0] if game.equilibria else None
    specs = [
        figures.strategy_trajectories(shown, game),
        figures.convergence(shown),
        figures.simplex_path(shown, game, equilibrium, True),
        charts.race_figure(race.result(race.histories())),
        figures.regret_bars(game, history.regrets[-1, 0, :3], history.regrets[-1, 1, :3]),
    ]
    strided = {
        "data": [
            {"type": "scatter", "x": np.arange(10)[::2], "y": np.linspace(0, 1, 10)[::3], "text": np.array(["a", "b"])}
        ],
        "layout": {"height": np.int64(300), "title": {"text": "NaN gap"}},
        "extra": [np.nan, np.float32(0.5)],
    }
    for spec in [s for s in specs if s is not None] + [strided]:
        payload = {"figure": spec, "config": RUNNING_CONFIG, "every": 0.0}
        assert json.loads(figure_json(payload)) == json.loads(
            plotly.io.to_json(payload, validate=False, engine="orjson")
        )
    with pytest.raises(TypeError, match="not JSON serializable"):
        figure_json({"figure": object()})


def test_the_chart_files_are_copied_once_into_the_served_folder_and_a_folder_that_cannot_be_written_is_named(
    monkeypatch, tmp_path
):
    from ui import live_chart

    source = tmp_path / "module.js"
    source.write_text("export default 1;")
    monkeypatch.setattr(live_chart, "_STATIC", tmp_path / "static")
    assert live_chart._served(source, "module-1.js") == "app/static/module-1.js"
    assert (tmp_path / "static" / "module-1.js").read_text() == "export default 1;"
    assert [p.name for p in (tmp_path / "static").iterdir()] == ["module-1.js"]  # no staging file left behind
    (tmp_path / "blocker").write_text("a file where the folder should be")
    monkeypatch.setattr(live_chart, "_STATIC", tmp_path / "blocker" / "static")
    with pytest.raises(RuntimeError, match=r"charts need module-1\.js in .*blocker.*make that folder writable"):
        live_chart._served(source, "module-1.js")


def _ui_imports() -> dict[str, set[str]]:
    """Each ui module -> the ui modules it imports anywhere in its body (relative imports resolved)."""
    root = Path(__file__).resolve().parents[1]
    files = {}
    for path in (root / "ui").rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = (path, parts[-1] == "__init__")
    graph = {}
    for name, (path, is_package) in files.items():
        package = name.split(".") if is_package else name.split(".")[:-1]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = ".".join((package[: len(package) - node.level + 1] if node.level else []) + [node.module or ""])
                base = base.rstrip(".")
                edges |= {f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names}
        graph[name] = {target for target in edges if target in files and target != name}
    return graph


def test_ui_has_no_import_circle():
    """No circle among ui's modules, counting imports inside functions too (a late import must not hide one)."""
    graph = _ui_imports()
    assert graph["ui.export"] >= {"ui.link"} and "ui.export" not in graph["ui.link"]

    def circle_from(start, path):
        for target in sorted(graph[start]):
            if target in path:
                return path[path.index(target) :] + [target]
            found = circle_from(target, path + [target])
            if found:
                return found
        return None

    for module in sorted(graph):
        assert circle_from(module, [module]) is None, " -> ".join(circle_from(module, [module]))


def test_a_chart_of_many_lines_gives_each_its_own_colour():
    from rmcore.plotting import charts

    assert len({charts.colour(k) for k in range(20)}) == 20
    history_game = rmcore.MatrixGame(np.random.default_rng(0).uniform(-1, 1, (20, 20)))
    solver = rmcore.MatrixSolver(history_game)
    solver.run(50)
    spec = figures.strategy_trajectories(solver.history(), history_game)
    colours = [trace["line"]["color"] for trace in spec["data"]]
    assert len(colours) == 16 and len(set(colours)) == 16
    assert spec["layout"]["legend"]["orientation"] == "v", (
        "sixteen entries sit beside the plot, not over its axis title"
    )
    game = rmcore.kuhn_poker(13, 1.0)
    cfr = rmcore.CFRSolver(game)
    cfr.run(5)
    from rmcore.plotting import trees as tree_figures

    lines = tree_figures.opening_trajectories(cfr.history(), game.rules)["data"]
    assert len(lines) == 13 and len({line["line"]["color"] for line in lines}) == 13


def test_a_gap_axis_speaks_the_games_unit():
    """Poker pays in antes per hand; every other game in its own payoff units."""
    goofspiel = rmcore.run_race(rmcore.trees.goofspiel_game(3), ["cfr"], 5)
    assert _checked(charts.race_figure(goofspiel)).layout.yaxis.title.text == "nash_conv (payoff units)"
    kuhn = charts.race_figure(rmcore.run_race(rmcore.KUHN, ["cfr"], 5), unit="antes per hand")
    assert _checked(kuhn).layout.yaxis.title.text == "nash_conv (antes per hand)"


def test_the_fields_streamlines_go_to_the_browser_to_a_twentieth_of_a_pixel_and_no_finer(monkeypatch):
    """The field is sent again with every update: its points keep ``FIELD_DIGITS`` decimals, each within half a unit
    of the last of them of the point it rounds (a 500-pixel chart: a fortieth of a pixel)."""
    from rmcore.plotting import fields
    from rmcore.plotting import space as space_figure

    digits = space_figure.FIELD_DIGITS
    for name in ("matching-pennies", "rps"):  # the square and the triangle
        setup = fields.field_setup(rmcore.preset(name), "hedge")
        sent = space_figure.field_traces(setup)
        with monkeypatch.context() as unrounded:
            unrounded.setattr(space_figure, "FIELD_DIGITS", None)
            exact = space_figure.field_traces(setup)
        assert len(sent) == len(exact) > 1, name
        for trace, truth in zip(sent[:-1], exact[:-1]):  # (the last trace carries the colour bar)
            for axis in ("x", "y") if setup.space == "square" else ("a", "b", "c"):
                values, points = np.asarray(trace[axis], dtype=float), np.asarray(truth[axis], dtype=float)
                assert np.array_equal(np.isnan(values), np.isnan(points)), (name, axis)
                drawn, points = values[np.isfinite(values)], points[np.isfinite(points)]
                assert np.array_equal(drawn, np.round(drawn, digits)), (name, axis)
                assert np.abs(drawn - points).max() <= 0.5 * 10.0**-digits + 1e-12, (name, axis)


def test_the_fields_streamlines_are_marked_and_named_by_a_digest_of_their_points():
    """The live chart draws the traces marked ``FIELD`` once, under the rest, and draws them again when their ``uid``
    (a digest of their points) changes: one field keeps its uids from call to call, another field has others."""
    from rmcore.plotting import fields
    from rmcore.plotting import space as space_figure

    def streamlines(name, **given):
        traces = space_figure.field_traces(fields.field_setup(rmcore.preset(name), "hedge", **given))
        return [trace for trace in traces if trace.get("meta") == space_figure.FIELD]

    pennies = streamlines("matching-pennies")
    assert len(pennies) > 1 and all(trace["name"].startswith("field, speed band") for trace in pennies)
    uids = [trace["uid"] for trace in pennies]
    assert len(set(uids)) == len(uids) and uids == [trace["uid"] for trace in streamlines("matching-pennies")]
    others = {trace["uid"] for trace in streamlines("rps")} | {
        trace["uid"] for trace in streamlines("rps", opponent=(0.5, 0.3, 0.2))
    }
    assert len(others) == len(streamlines("rps")) + len(streamlines("rps", opponent=(0.5, 0.3, 0.2)))
    assert not others & set(uids)
    colour_bar = space_figure.field_traces(fields.field_setup(rmcore.preset("rps"), "hedge"))[-1]
    assert colour_bar.get("meta") != space_figure.FIELD  # (it stays with the legend, above)

    colour = pennies[0]["line"]["color"]
    pennies[0]["line"] = {"color": "red"}  # a caller restyling its copy leaves the cached trace as it was
    assert streamlines("matching-pennies")[0]["line"]["color"] == colour
    with pytest.raises(ValueError):
        pennies[0]["x"][0] = 0.5  # (the points are shared between calls: read-only)
