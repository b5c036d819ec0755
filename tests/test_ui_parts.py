"""The Streamlit-free parts of ui/: figure builders, the live-run controller, editor drafts."""

import numpy as np
import plotly.graph_objects as go
import pytest

import rmcore
from ui import figures
from ui.live_run import LiveRun, RunSettings
from ui.matrix_editor import UPLOAD_LIMIT, Draft, game_from_csv


def _checked(spec):
    """The builders return plain dicts; go.Figure validates one against Plotly's schema and reads it back."""
    return None if spec is None else go.Figure(spec)


def _history(game, iterations=500, **settings):
    solver = rmcore.MatrixSolver(game, max_points=100, **settings)
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
    np.testing.assert_array_equal(average_rock.y, history["row_average[Rock]"])
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
    _, history = _history(game, opponent=[0.4, 0.3, 0.3])
    fixed = _checked(figures.convergence(history, fixed_opponent=True))
    assert fixed.data[0].name.startswith("best-response gain") and not any("column" in t.name for t in fixed.data)


def test_regret_bars_colour_the_played_actions():
    game = rmcore.preset("rps")
    figure = _checked(figures.regret_bars(game, np.array([1.0, -2.0, 0.0]), np.array([0.5, 0.5, -1.0])))
    assert len(figure.data) == 2
    assert list(figure.data[0].marker.color) == [figures.COLOURS[0], "#bbbbbb", "#bbbbbb"]
    assert len(_checked(figures.regret_bars(game, np.zeros(3), None)).data) == 1


def test_live_run_steps_exactly_and_sizes_chunks_to_its_budget():
    run = LiveRun(rmcore.preset("rps-crash"), RunSettings())
    run.step(7)
    assert run.iteration == 7 and run.iterations_per_second() is None
    assert run.chunk_size(10) == 10
    for _ in range(3):
        run.tick(None)
    assert run.iteration > 7 and run.iterations_per_second() > 0
    assert run.chunk_size(None) > 1_000  # learned that the solver is fast
    assert run.solver.max_points == 250


def test_live_run_passes_every_setting_to_the_solver():
    settings = RunSettings("prm+", "sampled", "alternating", "linear", (0.2, 0.3, 0.5), 9)
    solver = LiveRun(rmcore.preset("rps"), settings).solver
    assert (solver.algorithm, solver.sampling, solver.updates, solver.averaging, solver.seed) == ("prm+", "sampled", "alternating", "linear", 9)
    np.testing.assert_allclose(solver.opponent, (0.2, 0.3, 0.5))


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
    assert game_from_csv(b"1,2\n3,4\n", None, "x.csv").shape == (2, 2)
    assert not game_from_csv(b"1,2\n3,4\n", b"1,0\n0,1\n", "x.csv").is_zero_sum
    too_big = ("\n".join([",".join(["0"] * (UPLOAD_LIMIT + 1))])).encode()
    with pytest.raises(ValueError, match="at most 200"):
        game_from_csv(too_big, None, "big.csv")
    with pytest.raises(ValueError, match="not a UTF-8 text file"):
        game_from_csv(b"\xff\xfe1,2", None, "bad.csv")
