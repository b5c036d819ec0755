"""rmcore.exercises: a student's regret matching checked iterate by iterate against the library's solvers.

Every wrong solution below is one a course sees; each test asserts the iteration the checker names and its sentence,
so a checker that always answered "correct" fails them all.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rmcore
from rmcore.exercises import (
    MAX_CFR_ITERATIONS,
    MAX_ITERATIONS,
    check_cfr_iteration,
    check_regret_matching,
    check_regret_matching_plus,
    check_self_play,
)

ROOT = Path(__file__).resolve().parents[1]
# The checker's default start: weights 1, 2, 3 for the row player and 3, 2, 1 for the column player.
START = ([1, 2, 3], [3, 2, 1])


def regret_matching(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0.0)
    total = positive.sum()
    return positive / total if total > 0 else np.full(len(positive), 1.0 / len(positive))


def regret_matching_by_hand(cumulative_regrets):
    """The same step written another way (a loop, a multiplication by the reciprocal): it rounds differently."""
    positive = [r if r > 0 else 0.0 for r in cumulative_regrets]
    total = sum(positive)
    if total <= 0:
        return [1.0 / len(positive)] * len(positive)
    scale = 1.0 / total
    return [p * scale for p in positive]


def unnormalised(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0.0)
    return positive if positive.sum() > 0 else np.full(len(positive), 1.0 / len(positive))


def unclipped(cumulative_regrets):
    total = cumulative_regrets.sum()
    return cumulative_regrets / total if total != 0 else np.full(len(cumulative_regrets), 1 / len(cumulative_regrets))


def reversed_sign(cumulative_regrets):
    return regret_matching(-cumulative_regrets)


def nan_at_zero(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0.0)
    return positive / positive.sum()


def zeros_at_zero(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0.0)
    return positive / positive.sum() if positive.sum() > 0 else np.zeros(len(positive))


# -- the step -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("step", [regret_matching, regret_matching_by_hand])
def test_a_correct_step_agrees_and_reports_the_libraries_nash_conv(step):
    result = check_regret_matching(step, iterations=500)
    assert result.passed and bool(result) and result.iteration is None and result.difference is None
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), "rm", start=START)
    solver.run(500)
    assert result.nash_conv == rmcore.nash_conv(solver.game, solver.average_policy())
    assert 0.0 < result.nash_conv < 0.2  # (from the skewed start the averages still move: not the equilibrium)
    assert "every iterate agrees" in str(result) and f"{result.nash_conv:.6g}" in str(result)


@pytest.mark.parametrize(
    "game", ["matching-pennies", rmcore.preset("shapley"), [[3.0, -1.0], [-2.0, 1.0]], rmcore.preset("rpsls")]
)
def test_a_correct_step_agrees_on_other_games_zero_sum_or_not(game):
    result = check_regret_matching(regret_matching, game=game, iterations=300)
    assert result.passed, str(result)


payoff_matrices = st.integers(2, 4).flatmap(
    lambda m: st.integers(2, 4).flatmap(
        lambda n: st.lists(st.lists(st.integers(-5, 5), min_size=n, max_size=n), min_size=m, max_size=m)
    )
)


@settings(max_examples=12, deadline=None)
@given(payoff_matrices, payoff_matrices)
def test_the_classic_step_runs_to_the_librarys_numbers_on_any_small_game(rows, columns):
    # Two players' payoffs of different shapes make a zero-sum game of the first alone; of one shape, a general-sum one.
    same_shape = np.shape(rows) == np.shape(columns)
    game = rmcore.MatrixGame(rows, columns if same_shape else None)
    result = check_regret_matching(regret_matching, game=game, iterations=150)
    assert result.passed, str(result)
    solver = rmcore.MatrixSolver(game, "rm", start=(np.arange(1.0, game.shape[0] + 1), np.arange(game.shape[1], 0, -1)))
    solver.run(150)
    assert result.nash_conv == rmcore.nash_conv(game, solver.average_policy())


def test_missing_normalisation_is_named_at_the_first_iteration():
    result = check_regret_matching(unnormalised, iterations=50)
    assert not result.passed and result.iteration == 1 and result.agreed == 0
    assert result.diagnosis.startswith("Your strategy is not normalised (it sums to 2)")
    d = result.difference
    assert (d.player, d.quantity, d.action) == ("row", "strategy", "Rock")
    assert d.student == pytest.approx(1 / 3) and d.reference == pytest.approx(1 / 6)
    assert "[0.166667, 0.333333, 0.5]" in result.computed


def test_unclipped_negative_regrets_are_named_where_a_regret_first_turns_negative():
    result = check_regret_matching(unclipped, iterations=50)
    assert result.iteration == 4 and result.agreed == 3
    assert result.diagnosis.startswith("Negative regrets were not clipped")
    assert result.difference.student == pytest.approx(0.354166666667)
    assert result.difference.reference == pytest.approx(1 / 3)


def test_a_reversed_regret_in_the_step_is_named():
    result = check_regret_matching(reversed_sign, iterations=50)
    assert result.iteration == 1
    assert result.diagnosis.startswith("The sign of the regret is reversed")


@pytest.mark.parametrize(
    "step, sentence",
    [
        (nan_at_zero, "Your strategy has NaN or infinite entries ([nan, nan, nan]): no regret is positive"),
        (zeros_at_zero, "The strategy is not uniform when no regret is positive"),
    ],
)
def test_the_rule_at_zero_regrets_is_checked_before_the_first_iteration(step, sentence):
    result = check_regret_matching(step, iterations=50)
    assert result.iteration == 0 and result.diagnosis.startswith(sentence)
    assert "before the first iteration" in str(result)


@pytest.mark.parametrize(
    "step, sentence",
    [
        (lambda r: 1 / 0, "Your function raised ZeroDivisionError: division by zero."),
        (lambda r: regret_matching(r)[:2], "Your function returned the wrong shape: (2,) where a strategy is (3,)"),
        (lambda r: None, "Your function returned None, not a strategy of 3 numbers"),
        (lambda r: {"Rock": 1.0}, "Your function returned dict, not a strategy of 3 numbers."),
    ],
)
def test_what_the_function_raises_or_returns_is_said_in_a_sentence(step, sentence):
    result = check_regret_matching(step, iterations=5)
    assert not result.passed and result.diagnosis.startswith(sentence)
    assert "Traceback" not in str(result)


def test_a_right_step_in_a_run_that_drifts_by_rounding_is_told_so():
    # Off by 1e-13 relative: within the tolerance at every step, yet a run fed by it leaves the library's.
    def slightly_off(cumulative_regrets):
        return regret_matching(cumulative_regrets) * np.array([1 + 5e-13, 1.0, 1 - 5e-13])

    result = check_regret_matching(slightly_off, iterations=1000)
    assert not result.passed and result.iteration > 10
    assert result.diagnosis.startswith("Your step is right (it is regret matching on the regrets it was given")
    assert "drift apart" in result.why


def test_a_long_run_of_the_classic_update_agrees_to_the_last_bits():
    # (the checker adds the payoffs in the kernel's order: numpy's A @ y drifts past 1e-12 at iteration 1602 here)
    update = lambda R, r: np.maximum(R + r, 0.0)  # noqa: E731
    assert check_regret_matching_plus(update, game=[[1.0, 2.0, 3.0], [4.0, 0.0, -1.0]], iterations=2000).passed


def test_the_student_gets_a_copy_of_the_regrets():
    def scribbles(cumulative_regrets):
        strategy = regret_matching(cumulative_regrets)
        cumulative_regrets[:] = 100.0
        return strategy

    assert check_regret_matching(scribbles, iterations=100).passed


# -- the loop ----------------------------------------------------------------------------------------


def training_loop(sign=1.0, average="played", divide_by=0, extra_iterations=0, cumulative=True):
    """A student's self-play loop, right by default; each argument puts one typical mistake in."""

    def train(A, B, R1, R2, iterations):
        S1, S2 = np.zeros(len(R1)), np.zeros(len(R2))
        for t in range(1, iterations + 1 + extra_iterations):
            x, y = regret_matching(R1), regret_matching(R2)
            u1, u2 = A @ y, x @ B
            r1, r2 = sign * (u1 - x @ u1), sign * (u2 - y @ u2)
            R1, R2 = (R1 + r1, R2 + r2) if cumulative else (r1, r2)
            if average == "after the update":
                S1, S2 = S1 + regret_matching(R1), S2 + regret_matching(R2)
            else:
                S1, S2 = S1 + x, S2 + y
            if average == "current":
                yield x, y, x, y
            else:
                yield x, y, S1 / (t + divide_by), S2 / (t + divide_by)

    return train


def test_a_correct_loop_agrees():
    result = check_self_play(training_loop(), iterations=300)
    assert result.passed, str(result)
    assert result.nash_conv == check_regret_matching(regret_matching, iterations=300).nash_conv


@pytest.mark.parametrize(
    "mistake, iteration, sentence",
    [
        ({"sign": -1.0}, 2, "The sign of the regret is reversed"),
        ({"average": "after the update"}, 1, "Your average is of the wrong strategy: the strategies after each update"),
        ({"average": "current"}, 2, "Your average is the current strategy, not the average"),
        ({"divide_by": 1}, 1, "Off-by-one in the iteration count: your average is the sum of the strategies divided "
                              "by t + 1 = 2"),
        ({"divide_by": -1}, 1, "Off-by-one in the iteration count: your average at iteration 1 is [inf, inf, inf]"),
        ({"extra_iterations": -1}, 100, "Off-by-one in the iteration count: your loop yielded 99 iterates"),
        ({"extra_iterations": 1}, 101, "Off-by-one in the iteration count: your loop yields more than"),
        ({"cumulative": False}, 2, "Your regrets are not cumulative"),
    ],
)  # fmt: skip
def test_each_typical_mistake_in_the_loop_is_named_at_its_first_iteration(mistake, iteration, sentence):
    result = check_self_play(training_loop(**mistake), iterations=100)
    assert not result.passed and result.iteration == iteration
    assert result.diagnosis.startswith(sentence), result.diagnosis


def test_a_loop_that_drifts_by_rounding_is_told_so():
    def train(A, B, R1, R2, iterations):
        yield from training_loop()(A, B, R1 + [1e-13, 0.0, -1e-13], R2, iterations)

    result = check_self_play(train, iterations=2000)
    assert not result.passed and result.iteration > 10
    assert result.diagnosis.startswith("Your loop agrees with rmcore's to rounding"), result.diagnosis


def test_a_loop_that_ignores_its_start_is_named():
    def train(A, B, R1, R2, iterations):
        yield from training_loop()(A, B, np.zeros_like(R1), np.zeros_like(R2), iterations)

    result = check_self_play(train, iterations=10)
    assert result.iteration == 1 and result.diagnosis.startswith("Your loop ignores the cumulative regrets")


def test_an_exception_inside_the_loop_is_named_with_its_iteration():
    def train(A, B, R1, R2, iterations):
        for t, iterate in enumerate(training_loop()(A, B, R1, R2, iterations), start=1):
            if t == 3:
                raise KeyError("strategy_sum")
            yield iterate

    result = check_self_play(train, iterations=10)
    assert result.iteration == 3 and result.agreed == 2
    assert result.diagnosis == "Your loop raised KeyError: 'strategy_sum'."


def test_a_loop_that_returns_instead_of_yielding_is_told_to_yield():
    result = check_self_play(lambda A, B, R1, R2, n: None, iterations=5)
    assert "yield rather than return" in result.diagnosis


# -- RM+ ---------------------------------------------------------------------------------------------


def test_a_correct_rm_plus_update_agrees_with_the_library():
    result = check_regret_matching_plus(lambda R, r: np.maximum(R + r, 0.0), iterations=400)
    assert result.passed
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), "rm+", start=START)
    solver.run(400)
    assert result.nash_conv == rmcore.nash_conv(solver.game, solver.average_policy())


@pytest.mark.parametrize(
    "update, iteration, sentence",
    [
        (lambda R, r: R + r, 3, "Negative regrets were not clipped: [0.708333, 1.41667, -0.125] is R + r"),
        (lambda R, r: np.maximum(R - r, 0.0), 1, "The sign of the regret is reversed"),
        (lambda R, r: np.maximum(r, 0.0), 1, "Your update forgets the cumulative regrets"),
        (lambda R, r: R + np.maximum(r, 0.0), 1, "You clipped this iteration's regrets, not the cumulative ones"),
        (lambda R, r: R.tolist()[:1], 1, "Your function returned the wrong shape: (1,)"),
    ],
)
def test_typical_rm_plus_mistakes_are_named(update, iteration, sentence):
    result = check_regret_matching_plus(update, iterations=100)
    assert result.iteration == iteration and result.diagnosis.startswith(sentence), str(result)
    if result.difference is not None:
        assert result.difference.quantity == "cumulative regrets"


# -- CFR on Kuhn -------------------------------------------------------------------------------------


def test_a_correct_step_agrees_with_cfr_on_kuhn_at_every_information_set():
    result = check_cfr_iteration(regret_matching, iterations=60)
    assert result.passed, str(result)
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr")
    solver.run(60)
    assert result.nash_conv == rmcore.nash_conv(rmcore.KUHN, solver.average_policy())


def test_cfr_mistakes_are_named_at_their_information_set():
    result = check_cfr_iteration(unnormalised, iterations=20)
    d = result.difference
    assert result.iteration == 1 and (d.player, d.action, d.quantity) == ("J", "bet", "next strategy")
    assert d.student == pytest.approx(0.125) and d.reference == 1.0
    assert result.diagnosis.startswith("Your strategy is not normalised (it sums to 0.125)")
    assert check_cfr_iteration(reversed_sign, iterations=20).diagnosis.startswith("The sign of the regret is reversed")
    at_zero = check_cfr_iteration(zeros_at_zero, iterations=20)
    assert at_zero.iteration == 0 and at_zero.difference.player == "J"


# -- arguments, and what a notebook shows --------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: check_regret_matching(3), "fn must be a function (callable), got int"),
        (lambda: check_regret_matching(lambda a, b: a), "fn must take 1 argument"),
        (lambda: check_regret_matching_plus(regret_matching), "fn must take 2 arguments"),
        (lambda: check_self_play(regret_matching), "train must take 5 arguments"),
        (lambda: check_regret_matching(regret_matching, iterations=0), "iterations must be from 1 to 100,000, got 0"),
        (lambda: check_regret_matching(regret_matching, iterations=2.5), "iterations must be a whole number"),
        (lambda: check_regret_matching(regret_matching, iterations=True), "iterations must be a whole number"),
        (lambda: check_regret_matching(regret_matching, iterations=MAX_ITERATIONS + 1), "iterations must be from 1"),
        (lambda: check_cfr_iteration(regret_matching, MAX_CFR_ITERATIONS + 1), "iterations must be from 1 to 10,000"),
        (lambda: check_regret_matching(regret_matching, game=3), "game must be a MatrixGame, a preset's name"),
        (lambda: check_regret_matching(regret_matching, game="chess"), "unknown game 'chess'"),
        (lambda: check_regret_matching(regret_matching, game="nau-2x2x2"), "two-player matrix game; this game has 3"),
        (lambda: check_regret_matching(regret_matching, game=rmcore.KUHN), "check_cfr_iteration's"),
        (lambda: check_cfr_iteration(regret_matching, game="rps"), "game must be a game tree"),
        (lambda: check_regret_matching(regret_matching, start="skewed"), "start must be a pair"),
    ],
)
def test_every_argument_is_validated_with_a_specific_message(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value)


def test_a_notebook_shows_the_answer_as_markdown_and_the_run_as_a_figure():
    passed = check_regret_matching(regret_matching, iterations=200)
    failed = check_regret_matching(unnormalised, iterations=200)
    assert passed._repr_markdown_().startswith("**Correct.**")
    assert failed._repr_markdown_().startswith("**Not yet.**") and "not normalised" in failed._repr_markdown_()
    figure = passed.figure()
    (trace,) = figure.data
    assert trace.x[-1] == 200 and trace.y[-1] == pytest.approx(passed.nash_conv)


def test_names_reach_the_notebook_as_typed():
    game = rmcore.MatrixGame([[1.0, -1.0], [-1.0, 1.0]], name="*pennies* $x$ <b>")
    result = check_regret_matching(regret_matching, game=game, iterations=20)
    assert "\\*pennies\\* \\$x\\$ \\<b\\>" in result._repr_markdown_()
    assert "&lt;b&gt;" in result.figure().layout.title.text


def test_import_rmcore_brings_the_exercises_and_no_plotting_or_widgets():
    # (rmcore.plotting, the figures and the notebook's live view, is imported only by whoever draws)
    code = (
        "import sys, rmcore; callable(rmcore.exercises.check_regret_matching) or sys.exit(1); "
        "print(sorted({'plotly', 'ipywidgets', 'anywidget', 'kaleido', 'matplotlib', 'rmcore.plotting'} "
        "& set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr
