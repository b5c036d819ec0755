"""MatrixGame validation, presets and CSV parsing."""

import numpy as np
import pytest

import rmcore
from rmcore import PRESETS, MatrixGame, nash_conv, parse_matrix_csv, preset


def test_zero_sum_by_default_and_read_only():
    game = MatrixGame([[1, -2], [0, 3]])
    assert game.is_zero_sum and game.shape == (2, 2)
    np.testing.assert_array_equal(game.col_payoffs, -game.row_payoffs)
    with pytest.raises(ValueError):
        game.row_payoffs[0, 0] = 5
    assert game.payoff_range == (5.0, 5.0)
    assert game.row_actions == ("R1", "R2") and game.col_actions == ("C1", "C2")


def test_explicit_negated_matrix_counts_as_zero_sum():
    assert MatrixGame([[1, 2]], [[-1, -2]]).is_zero_sum
    assert not MatrixGame([[1, 2]], [[1, -2]]).is_zero_sum


@pytest.mark.parametrize(
    "payoffs,message",
    [
        ([[1, 2, 3], [4, 5, float("nan")]], "row 2, column 3 is NaN"),
        ([[1, float("inf")]], "row 1, column 2 is infinite"),
        ([[1, 2], [3]], "row 2 has 1 entries but row 1 has 2"),
        ([], "empty"),
        ([[]], "empty"),
        ([[1, "abc"]], "row 1, column 2 is 'abc', not a number"),
        ([[1, ""]], "row 1, column 2 is '', not a number"),
        ([[1, None]], "row 1, column 2 is None, not a number"),
        (np.zeros((2, 2, 2)), "must be 2-D"),
        (np.zeros((1, 5001)), "at most 5000 actions"),
        (5, "2-D table of numbers"),
    ],
)
def test_bad_payoffs_are_explained(payoffs, message):
    with pytest.raises(ValueError, match=message):
        MatrixGame(payoffs)


def test_mismatched_matrices_and_labels_are_explained():
    with pytest.raises(ValueError, match="both must have the same shape"):
        MatrixGame([[1, 2]], [[1], [2]])
    with pytest.raises(ValueError, match="unique"):
        MatrixGame([[1, 2], [3, 4]], row_actions=["a", "a"])
    with pytest.raises(ValueError, match="got 1 names for 2 actions"):
        MatrixGame([[1, 2], [3, 4]], col_actions=["a"])
    with pytest.raises(ValueError, match="name 2 is empty"):
        MatrixGame([[1, 2], [3, 4]], col_actions=["a", " "])


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_builds_describes_itself_and_its_equilibria_are_equilibria(name):
    game = preset(name)
    assert PRESETS[name].description and game.description
    for equilibrium in game.equilibria:
        assert nash_conv(game, (equilibrium.row, equilibrium.col)) < 1e-12


def test_required_presets_exist():
    required = {
        "rps",
        "rps-crash",
        "matching-pennies",
        "rpsls",
        "weighted-rps",
        "prisoners-dilemma",
        "battle-of-sexes",
        "stag-hunt",
        "chicken",
        "shapley",
        "random-zero-sum",
        "random-general-sum",
    }
    assert required <= set(PRESETS)


def test_known_payoffs_from_the_reference():
    np.testing.assert_array_equal(preset("rps-crash").row_payoffs, [[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    np.testing.assert_array_equal(preset("prisoners-dilemma").col_payoffs, [[3, 5], [0, 1]])
    np.testing.assert_array_equal(preset("battle-of-sexes").col_payoffs, [[1, 0], [0, 2]])
    np.testing.assert_array_equal(preset("shapley").col_payoffs, [[0, 1, 0], [0, 0, 1], [1, 0, 0]])


@pytest.mark.parametrize("weights", [(1, 1, 1), (2, 1, 1), (0.5, 3, 1.5)])
def test_weighted_rps_equilibrium_is_exact(weights):
    game = preset("weighted-rps", paper_rock=weights[0], scissors_paper=weights[1], rock_scissors=weights[2])
    eq = game.equilibria[0]
    assert nash_conv(game, (eq.row, eq.col)) < 1e-12


def test_random_presets_are_reproducible_and_sized():
    a = preset("random-general-sum", rows=4, cols=7, seed=3)
    b = preset("random-general-sum", rows=4, cols=7, seed=3)
    assert a.shape == (4, 7) and not a.is_zero_sum
    np.testing.assert_array_equal(a.row_payoffs, b.row_payoffs)
    assert preset("random-zero-sum", rows=2, cols=5, seed=1).is_zero_sum


@pytest.mark.parametrize(
    "name,params,message",
    [
        ("nope", {}, "unknown game 'nope'"),
        ("rps", {"size": 3}, "has no parameter 'size'"),
        ("random-zero-sum", {"rows": 0}, "rows must be a whole number from 1"),
        ("random-zero-sum", {"cols": 2.5}, "cols must be a whole number"),
        ("random-zero-sum", {"seed": -1}, "seed must be a whole number"),
        ("weighted-rps", {"paper_rock": 0}, "must be a positive number"),
    ],
)
def test_bad_preset_requests_are_explained(name, params, message):
    with pytest.raises(ValueError, match=message):
        preset(name, **params)


def test_csv_plain_and_labelled():
    matrix, rows, cols, _ = parse_matrix_csv("1, 2\n3,4\n\n")
    assert matrix.tolist() == [[1, 2], [3, 4]] and rows is None and cols is None
    matrix, rows, cols, _ = parse_matrix_csv("game,Rock,Paper\nRock,0,-1\nPaper,1,0\n")
    assert rows == ("Rock", "Paper") and cols == ("Rock", "Paper") and matrix.tolist() == [[0, -1], [1, 0]]


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "the CSV is empty"),
        ("1,2\n3\n", "row 2 has 1 numbers but 2 were expected"),
        ("1,2\n3,x\n", "row 2, column 2 is 'x', not a number"),
        ("1,nan\n", "row 1, column 2 is NaN"),
        (",a\n", "needs a header line"),
    ],
)
def test_bad_csv_is_explained(text, message):
    with pytest.raises(ValueError, match=message):
        parse_matrix_csv(text)


@pytest.mark.parametrize("name", list(rmcore.PRESETS))
def test_no_preset_starts_dead(name):
    """A preset whose uniform start is already an equilibrium suggests a start elsewhere, and its run from there
    moves."""
    game = rmcore.preset(name)
    m, n = game.shape
    uniform_is_equilibrium = rmcore.nash_conv(game, ([1 / m] * m, [1 / n] * n)) < 1e-12
    assert (game.start is not None) == uniform_is_equilibrium, name
    solver = rmcore.MatrixSolver(game, start=game.start, history_share=None)  # (a row at each of the first ten)
    solver.run(10)
    assert np.ptp(solver.history().average, axis=0).max() > 0.01, "the average strategies move in the first iterations"


def test_shapleys_game_does_what_its_description_says():
    game = rmcore.preset("shapley")
    assert "nash_conv stays near 0.28" in game.description and "CCE gap falls to 0" in game.description
    solver = rmcore.MatrixSolver(game, start=game.start)
    solver.run(100_000)
    metrics = solver.metrics()
    assert 0.25 < metrics.nash_conv < 0.31 and metrics.cce_gap < 1e-3


# -- the CSV reader: header lines, separators, size (issue 11) ---------------------------------------


def test_a_header_line_without_row_names_loads_every_payoff_column_and_says_what_was_assumed():
    parsed = rmcore.parse_matrix_csv("Rock,Paper\n0,-1\n1,0\n-1,1\n")
    assert (
        parsed.matrix.tolist() == [[0, -1], [1, 0], [-1, 1]]
        and parsed.col_labels == ("Rock", "Paper")
        and parsed.row_labels is None
    )
    assert "read as column names" in parsed.notes[0]
    labelled = rmcore.parse_matrix_csv(",Rock,Paper\nRock,0,-1\nPaper,1,0\n")
    assert labelled.row_labels == ("Rock", "Paper") and labelled.notes == ()


@pytest.mark.parametrize(
    "text, notes",
    [
        ("1;2\n3;4\n", ["semicolons"]),
        ("1\t2\n3\t4\n", ["tabs"]),
        ("1,5;2\n3;4\n", ["semicolons", "decimal commas"]),
    ],
)
def test_semicolon_and_tab_separated_files_load_and_say_so(text, notes):
    parsed = rmcore.parse_matrix_csv(text)
    assert parsed.matrix.shape == (2, 2) and parsed.matrix[1].tolist() == [3, 4]
    assert all(any(word in note for note in parsed.notes) for word in notes)


def test_an_oversized_csv_is_refused_before_it_is_read():
    text = "1," * (rmcore.config.MAX_CSV_CHARS // 2 + 1)
    with pytest.raises(ValueError, match="characters long; at most"):
        rmcore.parse_matrix_csv(text)


def test_payoffs_beyond_the_bound_are_refused_by_name_and_the_lp_is_scale_safe():
    with pytest.raises(ValueError, match=r"\(U, R\) is -2e\+12"):
        rmcore.MatrixGame([[1, -2e12], [0, 1]], row_actions=["U", "D"], col_actions=["L", "R"])
    base = rmcore.MatrixGame([[3, -1], [-2, 1]])
    for scale in (1e-9, 1e6, 1e12 / 3):
        scaled = rmcore.solve_exactly(rmcore.MatrixGame(base.row_payoffs * scale))
        assert scaled.game_value / scale == pytest.approx(rmcore.solve_exactly(base).game_value, rel=1e-9)
        assert scaled.policy["row"] == pytest.approx(rmcore.solve_exactly(base).policy["row"], abs=1e-9)
