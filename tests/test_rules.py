"""The rules beside regret matching (Hedge, optimistic Hedge, fictitious play, GDA, optimistic GDA) against the plain
references in naive_rules.py, and what each is known to do (REFERENCE.md, "Contrast dynamics on a matrix game")."""

import math

import numpy as np
import pytest

import rmcore
from rmcore import MatrixSolver, MatrixVariant, preset

from . import naive_rules

RULES = ("hedge", "optimistic-hedge", "fictitious-play", "gda", "optimistic-gda")
STEPPED = ("hedge", "optimistic-hedge", "gda", "optimistic-gda")
GENERAL = preset("random-general-sum", rows=3, cols=4, seed=7)
GENERAL_3X3 = preset("random-general-sum", rows=3, cols=3, seed=7)  # (3x3 self-play Hedge has a loop of its own)
ZERO_SUM = preset("random-zero-sum", rows=4, cols=3, seed=3)
CRASH = preset("rps-crash")
OFF = ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6])  # a start off RPS-with-a-crash's equilibrium


def _rng_words(seed):
    return np.random.SeedSequence(seed).generate_state(4, np.uint64)


def _eta(rule, eta=0.1):
    return eta if rule in STEPPED else None


def _compare(solver, reference, exact=False):
    avg_x, avg_y, R1, R2, cur_x, cur_y = reference
    average, current, regrets = solver.average_policy(), solver.current_policy(), solver.cumulative_regrets()
    pairs = [(average["row"], avg_x), (average["col"], avg_y), (current["row"], cur_x), (current["col"], cur_y)]
    pairs.append((regrets.player_1, R1))
    if regrets.player_2 is not None:
        pairs.append((regrets.player_2, R2))
    for ours, theirs in pairs:
        if exact:
            assert ours.tolist() == list(theirs)
        else:
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12 * max(1.0, float(np.max(np.abs(theirs)))))


def _reference(game, iterations, rule, **options):
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    return naive_rules.reference_rule_run(A, B, iterations, rule, **options)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(
    "game", [GENERAL, GENERAL_3X3, ZERO_SUM, CRASH], ids=["general-sum", "general-sum-3x3", "zero-sum", "rps-crash"]
)
def test_defaults_equal_the_plain_loop(game, rule):
    solver = MatrixSolver(game, rule)
    solver.run(300)
    _compare(solver, _reference(game, 300, rule, eta=0.1))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(
    "sampling, updates, averaging",
    [
        ("expected", "alternating", "linear"),
        ("sampled", "simultaneous", "quadratic"),
        ("sampled", "alternating", "uniform"),
    ],
)
def test_every_option_equals_the_plain_loop(rule, sampling, updates, averaging):
    solver = MatrixSolver(GENERAL, rule, sampling, updates, averaging, seed=11, eta=_eta(rule, 0.3))
    solver.run(200)
    reference = _reference(
        GENERAL, 200, rule, eta=0.3, sampling=sampling, updates=updates, averaging=averaging, rng_words=_rng_words(11)
    )
    _compare(solver, reference)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("sampling", ["expected", "sampled"])
def test_a_fixed_opponent_equals_the_plain_loop(rule, sampling):
    opponent = [0.2, 0.5, 0.1, 0.2]
    solver = MatrixSolver(GENERAL, rule, sampling, opponent={"col": opponent}, seed=5, eta=_eta(rule))
    solver.run(150)
    reference = _reference(GENERAL, 150, rule, sampling=sampling, opponent=opponent, rng_words=_rng_words(5))
    _compare(solver, reference)
    assert solver.cumulative_regrets().player_2 is None


@pytest.mark.parametrize("rule", RULES)
def test_a_start_equals_the_plain_loop(rule):
    start = ([0.5, 0.0, 0.5], [0.2, 0.2, 0.6])  # a zero weight too: Hedge's prior then excludes that action
    solver = MatrixSolver(CRASH, rule, start=start, eta=_eta(rule))
    assert solver.current_policy()["row"].tolist() == pytest.approx(start[0], abs=1e-15)
    solver.run(250)
    _compare(solver, _reference(CRASH, 250, rule, start=start))


@pytest.mark.parametrize("rule", ["hedge", "optimistic-hedge"])
@pytest.mark.parametrize("game, updates", [(GENERAL, "alternating"), (GENERAL_3X3, "simultaneous")], ids=["3x4", "3x3"])
def test_the_anytime_step_equals_the_plain_loop(rule, game, updates):
    solver = MatrixSolver(game, rule, updates=updates, eta="anytime")
    solver.run(300)
    _compare(solver, _reference(game, 300, rule, eta="anytime", updates=updates))
    assert solver.variant.label.startswith(f"{rule}(η=anytime)")


def test_fictitious_play_on_integer_payoffs_is_the_plain_loop_to_the_bit():
    # Pure strategies and integer payoffs: every sum is exact, so even the ties fall the same way.
    solver = MatrixSolver(preset("shapley"), "fictitious-play")
    solver.run(500)
    _compare(solver, _reference(preset("shapley"), 500, "fictitious-play"), exact=True)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("sampling", ["expected", "sampled"])
def test_any_split_of_a_run_gives_bit_identical_results(rule, sampling):
    whole = MatrixSolver(CRASH, rule, sampling, start=OFF, seed=3, eta=_eta(rule))
    whole.run(400)
    split = MatrixSolver(CRASH, rule, sampling, start=OFF, seed=3, eta=_eta(rule))
    for chunk in (1, 6, 93, 300):
        split.run(chunk)
    for name in ("average_policy", "current_policy"):
        assert getattr(split, name)() == getattr(whole, name)()
    for ours, theirs in zip(split.cumulative_regrets(), whole.cumulative_regrets()):
        assert ours.tolist() == theirs.tolist()
    a, b = split.history().to_frame(), whole.history().to_frame()
    assert a.equals(b)


@pytest.mark.parametrize("rule", RULES)
def test_strategies_stay_on_the_simplex(rule):
    solver = MatrixSolver(ZERO_SUM, rule, "sampled", "alternating", seed=2, eta=_eta(rule, 5.0))
    solver.run(500)
    history = solver.history()
    for strategies in (history.current, history.average):
        assert np.all(strategies >= 0)
        np.testing.assert_allclose(strategies.sum(axis=-1)[:, 0], 1.0, atol=1e-12)


# -- what each rule is known to do ------------------------------------------------------------------


def test_the_average_converges_and_the_optimistic_current_strategies_converge_too():
    gaps = {}
    for rule in RULES:
        solver = MatrixSolver(CRASH, rule, start=OFF, eta=_eta(rule))
        solver.run(5000)
        metrics = solver.metrics()
        gaps[rule] = (metrics.nash_conv, metrics.nash_conv_current)
    for rule in RULES:
        assert gaps[rule][0] < 0.08, rule  # every average approaches (1/4, 1/2, 1/4)
    assert gaps["optimistic-hedge"][1] < 1e-3 and gaps["optimistic-gda"][1] < 1e-3  # last-iterate convergence
    assert gaps["hedge"][1] > 0.1 and gaps["gda"][1] > 0.1  # the current strategies of the plain rules do not
    assert gaps["fictitious-play"][1] > 0.5  # a pure best response is far from a mixed equilibrium


def test_gda_current_strategies_go_to_the_boundary():
    solver = MatrixSolver(CRASH, "gda", start=OFF, eta=0.1, max_points=500)
    solver.run(3000)
    current = solver.history().current[-200:, :, :3]
    # Late in the run the current profile keeps hitting a face of the simplex (some action exactly 0, by the
    # projection) and stays far from the equilibrium; optimistic GDA's settles in its middle.
    assert (current.min(axis=(1, 2)) == 0.0).mean() > 0.3
    assert solver.metrics().nash_conv_current > 0.5


def test_hedge_regret_stays_under_its_bound():
    solver = MatrixSolver(ZERO_SUM, "hedge", eta=0.05)
    solver.run(2000)
    history = solver.history()
    for player in (1, 2):
        assert np.all(history.metrics[f"average_regret_{player}"] <= history.metrics[f"regret_bound_{player}"] + 1e-12)
    delta, m = ZERO_SUM.payoff_range[0], ZERO_SUM.shape[0]
    assert history.metrics["regret_bound_1"][-1] == pytest.approx(
        (math.log(m) / 0.05 + 0.05 * 2000 * delta**2 / 8) / 2000
    )
    assert np.isnan(MatrixSolver(ZERO_SUM, "gda").history().metrics["regret_bound_1"]).all()


def test_fictitious_play_starts_at_the_start_then_best_responds():
    solver = MatrixSolver(CRASH, "fictitious-play", start=OFF)
    solver.run(1)
    # after y_1 = (0.2, 0.2, 0.6): A y_1 for rows Rock, Paper, Scissors; the best is the first maximum
    expected = np.zeros(3)
    expected[int(np.argmax(CRASH.row_payoffs @ np.array(OFF[1])))] = 1.0
    assert solver.current_policy()["row"].tolist() == expected.tolist()
    assert solver.average_policy()["row"].tolist() == pytest.approx(OFF[0])


def test_fictitious_play_cycles_on_shapleys_game():
    solver = MatrixSolver(preset("shapley"), "fictitious-play", start=([1, 0, 0], [0, 1, 0]))
    solver.run(3000)
    assert solver.metrics().nash_conv > 0.1  # the averages never settle (Shapley 1964)


# -- names, labels, validation ------------------------------------------------------------------------


def test_variant_labels_and_text_carry_the_step():
    variant = MatrixVariant.parse("optimistic-hedge/eta=0.05/sampled/linear")
    assert variant.eta == 0.05
    assert variant.label == "optimistic-hedge(η=0.05) · sampled · simultaneous · linear"
    assert MatrixVariant.parse(variant.text) == variant
    assert MatrixVariant.parse("gda").eta == 0.1
    label = MatrixVariant.parse("fictitious-play/alternating").label
    assert label == "fictitious-play · expected · alternating · uniform"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(algorithm="rm", eta=0.1), "eta is a step size"),
        (dict(algorithm="fictitious-play", eta=0.1), "eta is a step size"),
        (dict(algorithm="hedge", eta=0.0), "eta must be a finite number > 0"),
        (dict(algorithm="hedge", eta=-1), "eta must be"),
        (dict(algorithm="hedge", eta=float("nan")), "eta must be"),
        (dict(algorithm="hedge", eta=float("inf")), "eta must be"),
        (dict(algorithm="gda", eta=1e6), "<= 100"),
        (dict(algorithm="gda", eta="anytime"), "Hedge's schedule"),
        (dict(algorithm="hedge", eta="fast"), "eta must be a number"),
        (dict(algorithm="hedge", eta=True), "eta must be a number"),
    ],
)
def test_bad_steps_are_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MatrixSolver(CRASH, **kwargs)


def test_a_race_tells_steps_apart():
    result = rmcore.run_race(CRASH, ["hedge/eta=0.1", "hedge/eta=0.5", "optimistic-gda", "rm"], 2000, start=OFF)
    labels = [standing.label for standing in result.standings]
    assert "hedge(η=0.1) · expected · simultaneous · uniform" in labels
    assert "hedge(η=0.5) · expected · simultaneous · uniform" in labels
    assert len(set(labels)) == 4
    optimistic = next(s for s in result.standings if s.label.startswith("optimistic-gda"))
    assert optimistic.reached[1e-2] is not None  # its average reached 1e-2 within 2000 iterations, RM's did not
    assert next(s for s in result.standings if s.label.startswith("rm ")).reached[1e-2] is None


def test_the_compile_process_names_the_families_it_compiles():
    import subprocess
    import sys

    unknown = subprocess.run([sys.executable, "-m", "rmcore._compile", "hedge"], capture_output=True, text=True)
    assert unknown.returncode == 2 and "matrix|tree|all" in unknown.stderr


@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 20])
def test_the_projection_onto_the_simplex_is_the_nearest_point(size):
    from rmcore.kernels import python_twin

    from .compiled_parts import project_onto_simplex

    twin = python_twin("matrix")
    random = np.random.default_rng(size)
    for scale in (0.01, 1.0, 30.0):
        values = random.normal(0, scale, size)
        values[: size // 2] = values[0]  # ties too
        projected, plain = values.copy(), values.copy()
        project_onto_simplex(projected, np.zeros(size))
        twin.project_onto_simplex(plain, np.zeros(size))
        np.testing.assert_allclose(projected, naive_rules.projection(values.tolist()), rtol=0, atol=1e-14)
        assert projected.min() >= 0 and projected.sum() == pytest.approx(1.0, abs=1e-14)
        assert projected.tolist() == plain.tolist()  # the compiled projection is its plain-Python twin's
