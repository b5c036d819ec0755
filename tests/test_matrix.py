"""MatrixSolver against the slow reference, known games, the LP, and invariants."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rmcore
from rmcore import MatrixGame, MatrixSolver, preset, solve_exactly

from . import known_values, naive

VARIANTS = list(
    itertools.product(
        ("rm", "rm+", "prm+"),
        ("expected", "sampled"),
        ("simultaneous", "alternating"),
        ("uniform", "linear", "quadratic"),
    )
)
GENERAL = preset("random-general-sum", rows=3, cols=4, seed=7)
ZERO_SUM = preset("random-zero-sum", rows=4, cols=3, seed=3)


def _rng_words(seed):
    return np.random.SeedSequence(seed).generate_state(4, np.uint64)


@pytest.mark.parametrize("algorithm,sampling,updates,averaging", VARIANTS)
@pytest.mark.parametrize("game", [GENERAL, ZERO_SUM], ids=["general-sum", "zero-sum"])
def test_every_variant_matches_the_reference(game, algorithm, sampling, updates, averaging):
    solver = MatrixSolver(game, algorithm, sampling, updates, averaging, seed=11)
    solver.run(150)
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    avg_x, avg_y, R1, R2, cur_x, cur_y = naive.reference_run(
        A, B, 150, algorithm, sampling, updates, averaging, rng_words=_rng_words(11)
    )
    average, current = solver.average_policy(), solver.current_policy()
    regrets = solver.cumulative_regrets()
    np.testing.assert_allclose(average["row"], avg_x, atol=1e-10)
    np.testing.assert_allclose(average["col"], avg_y, atol=1e-10)
    np.testing.assert_allclose(current["row"], cur_x, atol=1e-10)
    np.testing.assert_allclose(current["col"], cur_y, atol=1e-10)
    np.testing.assert_allclose(regrets.player_1, R1, atol=1e-9)
    np.testing.assert_allclose(regrets.player_2, R2, atol=1e-9)
    g1, g2 = naive.gains(A, B, avg_x, avg_y)
    metrics = solver.metrics()
    assert metrics.br_gains.player_1 == pytest.approx(g1, abs=1e-10)
    assert metrics.br_gains.player_2 == pytest.approx(g2, abs=1e-10)


@pytest.mark.parametrize("algorithm", ["rm", "rm+", "prm+"])
@pytest.mark.parametrize("sampling", ["expected", "sampled"])
def test_fixed_opponent_matches_the_reference(algorithm, sampling):
    opponent = [0.2, 0.5, 0.1, 0.2]
    solver = MatrixSolver(GENERAL, algorithm, sampling, opponent={"col": opponent}, seed=5)
    solver.run(120)
    A, B = GENERAL.row_payoffs.tolist(), GENERAL.col_payoffs.tolist()
    avg_x, _, R1, _, cur_x, _ = naive.reference_run(
        A, B, 120, algorithm, sampling, opponent=opponent, rng_words=_rng_words(5)
    )
    np.testing.assert_allclose(solver.average_policy()["row"], avg_x, atol=1e-10)
    np.testing.assert_allclose(solver.cumulative_regrets().player_1, R1, atol=1e-9)
    np.testing.assert_allclose(solver.current_policy()["row"], cur_x, atol=1e-10)
    assert solver.cumulative_regrets().player_2 is None


def test_random_numbers_are_xoshiro256_plus():
    # The generator's own code, run as plain Python (the kernels compile the same lines; tests/test_kernel_twin.py
    # checks that the sampled kernels equal their twins to the last bit).
    generator, words = rmcore.kernels.python_twin("rng"), _rng_words(2024)
    with np.errstate(over="ignore"):
        ours = [generator.next_uniform(words) for _ in range(1000)]
    reference = naive.Xoshiro256Plus(_rng_words(2024))
    assert ours == [reference.uniform() for _ in range(1000)]


# -- known games ------------------------------------------------------------------------


def test_rps_crash_converges_to_its_equilibrium():
    solver = MatrixSolver(preset("rps-crash"))
    solver.run(20_000)
    np.testing.assert_allclose(solver.average_policy()["row"], known_values.RPS_CRASH_EQUILIBRIUM, atol=5e-3)
    np.testing.assert_allclose(solver.average_policy()["col"], known_values.RPS_CRASH_EQUILIBRIUM, atol=5e-3)


def test_plain_rps_from_uniform_never_moves_so_learning_tests_start_elsewhere():
    solver = MatrixSolver(preset("rps"))
    solver.run(100)
    np.testing.assert_array_equal(solver.cumulative_regrets().player_1, 0.0)
    assert solver.metrics().nash_conv == 0.0


def test_matching_pennies_sampled_converges():
    solver = MatrixSolver(preset("matching-pennies"), sampling="sampled", seed=3)
    solver.run(200_000)
    np.testing.assert_allclose(solver.average_policy()["row"], [0.5, 0.5], atol=0.01)
    assert solver.metrics().nash_conv < 0.02


def test_learner_finds_paper_against_40_30_30():
    solver = MatrixSolver(preset("rps"), opponent={"col": [0.4, 0.3, 0.3]})
    solver.run(5_000)
    assert int(np.argmax(solver.average_policy()["row"])) == known_values.RPS_BEST_RESPONSE_TO_40_30_30
    assert solver.average_policy()["row"][1] > 0.99
    metrics = solver.metrics()
    assert metrics.nash_conv is None and metrics.exploitability is None
    assert metrics.gap == metrics.br_gains.player_1 < 0.01


def test_opponent_is_normalised():
    solver = MatrixSolver(preset("rps"), opponent={"col": [4, 3, 3]})
    np.testing.assert_allclose(solver.opponent["col"], [0.4, 0.3, 0.3])
    assert solver.learner == 1 and MatrixSolver(preset("rps")).learner is None


def test_prisoners_dilemma_learns_to_defect():
    solver = MatrixSolver(preset("prisoners-dilemma"))
    solver.run(2_000)
    assert solver.average_policy()["row"][1] > 0.99
    assert solver.average_policy()["col"][1] > 0.99
    assert solver.metrics().exploitability is None  # general-sum


def test_general_sum_play_approaches_a_coarse_correlated_equilibrium():
    # (Shapley's game would not do: expected play starts at its uniform equilibrium and never moves.)
    solver = MatrixSolver(preset("random-general-sum", rows=3, cols=3, seed=2))
    solver.run(1_000)
    early = solver.metrics().cce_gap
    solver.run(99_000)
    late = solver.metrics().cce_gap
    assert late < early and late < 0.02


@pytest.mark.slow
def test_sampled_self_play_beats_the_buggy_tutorial():
    solver = MatrixSolver(preset("rps-crash"), sampling="sampled", seed=0)
    solver.run(1_000_000)
    assert solver.metrics().nash_conv < known_values.PUBLISHED_TUTORIAL_STALL_NASH_CONV


# -- bounds and exact answers --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_nash_conv_is_bounded_by_average_positive_regrets(seed):
    game = preset("random-zero-sum", rows=5, cols=4, seed=seed)
    solver = MatrixSolver(game)
    solver.run(3_000)
    history = solver.history().to_frame()
    bound = history.average_regret_1 + history.average_regret_2
    assert (history.nash_conv <= bound + 1e-12).all()
    assert (history.average_regret_1 <= history.regret_bound_1 + 1e-12).all()


@pytest.mark.parametrize("seed", range(6))
def test_random_zero_sum_value_agrees_with_the_lp(seed):
    game = preset("random-zero-sum", rows=3 + seed, cols=6 - seed // 2, seed=seed)
    solver = MatrixSolver(game, algorithm="prm+", averaging="linear")
    solver.run(5_000)
    metrics = solver.metrics()
    exact = solve_exactly(game)
    assert metrics.game_value - metrics.nash_conv <= exact.game_value <= metrics.game_value + metrics.nash_conv
    assert metrics.nash_conv < 1e-2
    assert rmcore.nash_conv(game, exact.policy) < 1e-9 and exact.nash_conv < 1e-9


def test_nash_conv_falls():
    solver = MatrixSolver(preset("rps-crash"))
    solver.run(100)
    early = solver.metrics().nash_conv
    solver.run(9_900)
    assert solver.metrics().nash_conv < early / 5


# -- invariants (hypothesis) -------------------------------------------------------------

payoff_values = st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 3))


@st.composite
def games(draw, zero_sum=None):
    m = draw(st.integers(2, 4))
    n = draw(st.integers(2, 4))
    A = draw(st.lists(st.lists(payoff_values, min_size=n, max_size=n), min_size=m, max_size=m))
    is_zero_sum = draw(st.booleans()) if zero_sum is None else zero_sum
    B = None if is_zero_sum else draw(st.lists(st.lists(payoff_values, min_size=n, max_size=n), min_size=m, max_size=m))
    return MatrixGame(A, B)


variant_choice = st.sampled_from(VARIANTS)
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(games(), variant_choice, st.integers(1, 300))
def test_strategies_stay_on_the_simplex_and_rm_plus_regrets_stay_non_negative(game, variant, iterations):
    solver = MatrixSolver(game, *variant, seed=1)
    solver.run(iterations)
    for policy in (solver.average_policy(), solver.current_policy()):
        for p in (policy["row"], policy["col"]):
            assert (p >= 0).all() and abs(p.sum() - 1) < 1e-12
    if variant[0] != "rm":
        assert all((r >= 0).all() for r in solver.cumulative_regrets())
    metrics = solver.metrics()
    assert metrics.nash_conv >= 0 and metrics.br_gains.player_1 >= 0 and metrics.br_gains.player_2 >= 0


def _strategies(solver) -> tuple:
    """The average then the current strategies, each player's."""
    average, current = solver.average_policy(), solver.current_policy()
    return average["row"], average["col"], current["row"], current["col"]


@FAST
@given(games(), variant_choice, st.lists(st.integers(0, 60), min_size=1, max_size=6))
def test_any_split_of_a_run_gives_bit_identical_results(game, variant, chunks):
    whole = MatrixSolver(game, *variant, seed=9, max_points=16)
    whole.run(sum(chunks))
    pieces = MatrixSolver(game, *variant, seed=9, max_points=16)
    for chunk in chunks:
        pieces.run(chunk)
    for a, b in zip(
        _strategies(whole),
        _strategies(pieces),
    ):
        np.testing.assert_array_equal(a, b)
    assert whole.metrics() == pieces.metrics()
    assert whole.history().to_frame().equals(pieces.history().to_frame())


@FAST
# (shifts below 1e-100 in size make payoffs that MatrixGame refuses: config.MIN_PAYOFF)
@given(
    games(),
    st.sampled_from(["rm", "rm+", "prm+"]),
    st.floats(0.1, 10),
    st.floats(-5, 5).filter(lambda x: x == 0 or abs(x) > 1e-90),
)
def test_positive_affine_payoff_changes_do_not_change_the_play(game, algorithm, scale, shift):
    solver = MatrixSolver(game, algorithm)
    solver.run(60)
    changed = MatrixGame(game.row_payoffs * scale + shift, game.col_payoffs * scale + shift)
    other = MatrixSolver(changed, algorithm)
    other.run(60)
    for a, b in zip(_strategies(solver)[:2], _strategies(other)[:2]):
        np.testing.assert_allclose(a, b, atol=1e-7)


@FAST
@given(games(), st.sampled_from(VARIANTS[:12]), st.randoms(use_true_random=False))
def test_permuting_actions_permutes_the_strategies(game, variant, random):
    m, n = game.shape
    rows, cols = list(range(m)), list(range(n))
    random.shuffle(rows)
    random.shuffle(cols)
    permuted = MatrixGame(game.row_payoffs[np.ix_(rows, cols)], game.col_payoffs[np.ix_(rows, cols)])
    algorithm, sampling, updates, averaging = variant
    solver = MatrixSolver(game, algorithm, "expected", updates, averaging)
    other = MatrixSolver(permuted, algorithm, "expected", updates, averaging)
    solver.run(80)
    other.run(80)
    np.testing.assert_allclose(solver.average_policy()["row"][rows], other.average_policy()["row"], atol=1e-7)
    np.testing.assert_allclose(solver.average_policy()["col"][cols], other.average_policy()["col"], atol=1e-7)


def test_same_seed_same_result_and_different_seed_different_result():
    def run(seed):
        solver = MatrixSolver(preset("rps-crash"), sampling="sampled", seed=seed)
        solver.run(1_000)
        return solver.average_policy()["row"]

    np.testing.assert_array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))


def test_seed_none_is_recorded_so_the_run_can_be_repeated():
    solver = MatrixSolver(preset("rps-crash"), sampling="sampled")
    solver.run(500)
    again = MatrixSolver(preset("rps-crash"), sampling="sampled", seed=solver.seed)
    again.run(500)
    np.testing.assert_array_equal(solver.average_policy()["row"], again.average_policy()["row"])


# -- history ------------------------------------------------------------------------------


def test_history_is_bounded_and_ends_at_the_current_iteration():
    solver = MatrixSolver(preset("rps-crash"), max_points=200)
    for _ in range(7):
        solver.run(123_457)
    history = solver.history().to_frame()
    assert len(history) <= 201
    stride = solver.checkpoint_stride
    assert stride > 1 and history.iteration.iloc[0] == 1 and history.iteration.iloc[-1] == solver.iteration
    assert (history.iteration.iloc[1:-1] % stride == 0).all()  # after the first iterate, one row every `stride` at most
    assert history.iteration.is_monotonic_increasing
    assert history.nash_conv.iloc[-1] == pytest.approx(solver.metrics().nash_conv, abs=0)


def test_history_columns_and_values():
    solver = MatrixSolver(preset("rps-crash"), history_share=None)  # (every point of the grid: the first ten)
    solver.run(10)
    history = solver.history().to_frame()
    assert list(history.columns[:15]) == ["iteration", *rmcore.solver.METRIC_COLUMNS]
    assert list(rmcore.solver.METRIC_COLUMNS) == [
        "nash_conv",
        "nash_conv_current",
        "br_gain_1",
        "br_gain_2",
        "game_value",
        "average_regret_1",
        "average_regret_2",
        "regret_bound_1",
        "regret_bound_2",
        "cce_gap",
        "ce_gap",
        "internal_regret",
        "internal_regret_bound",
        "nodes_touched",
    ]
    assert "row_average[Paper]" in history and "col_current[Rock]" in history
    assert history.iteration.tolist() == list(range(1, 11))
    row = history.iloc[-1]
    assert row.nash_conv == row.br_gain_1 + row.br_gain_2 and np.isnan(row.nodes_touched)
    assert row.regret_bound_1 == pytest.approx(4.0 * np.sqrt(3 / 10))


def test_the_history_costs_a_tenth_of_the_run_by_default():
    """A row costs several iterations (two best responses, the memory it fills): by default the first iterate, then at
    most one row every ``checkpoint_stride`` iterations, spaced by the row's cost as this process measured it, so that
    the rows, the first included, take at most ``config.HISTORY_SHARE`` of a run of a stride or more; and
    ``history_share=None`` keeps every point of the grid."""
    game = preset("rps-crash")
    priced, every = MatrixSolver(game), MatrixSolver(game, history_share=None)
    priced.run(5_000)
    every.run(5_000)
    stride, rows = priced.checkpoint_stride, len(priced._record.iteration)
    cost = rmcore.solver.measured_row_cost(priced)
    assert stride == rmcore.checkpoints.stride_for(cost, 1.0, rmcore.config.HISTORY_SHARE) <= 5_000
    assert every.checkpoint_stride == 1 and len(every._record.iteration) > rows
    assert rows <= 1 + 5_000 // stride  # (iteration 1, then at most one row in `stride` iterations)
    assert priced._record.iteration[0] == 1
    assert rows * cost <= rmcore.config.HISTORY_SHARE * 5_000
    assert MatrixSolver(game, history_share=1.0).checkpoint_stride <= stride
    with pytest.raises(ValueError, match="history_share"):
        MatrixSolver(game, history_share=0.0)


def test_history_memory_is_flat_for_a_long_run():
    solver = MatrixSolver(preset("matching-pennies"), sampling="sampled", seed=1, max_points=500)
    solver.run(10_000_000)
    assert len(solver._record.iteration) <= 500


def test_history_without_points_has_only_the_current_row():
    solver = MatrixSolver(preset("rps"), max_points=0)
    solver.run(50)
    assert solver.history().iterations.tolist() == [50]


# -- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(algorithm="cfr"), "algorithm must be one of"),
        (dict(sampling="monte-carlo"), "sampling must be one of"),
        (dict(updates="sequential"), "updates must be one of"),
        (dict(averaging="cubic"), "averaging must be one of"),
        (dict(opponent={"col": [0, 0, 0]}), "all zeros"),
        (dict(opponent={"col": [1, -1, 1]}), "negative"),
        (dict(opponent={"col": [0.5, 0.5]}), "has 2 entries but the player has 3"),
        (dict(opponent={"col": [1, float("nan"), 1]}), "not a finite number"),
        (dict(opponent={"row": [1, 0, 0]}), "fixed opponent is the column player"),
        (dict(opponent={"col": [1, 0, 0], "row": [1, 0, 0]}), "fixed opponent is the column player"),
        (dict(opponent="0.4,0.3,0.3"), r"fixed opponent is \{'col': weights\}"),
        (dict(seed=-1), "seed must be a whole number"),
        (dict(seed=1.5), "seed must be a whole number"),
        (dict(max_points=-5), "max_points"),
    ],
)
def test_bad_solver_arguments_are_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MatrixSolver(preset("rps"), **kwargs)


@pytest.mark.parametrize("iterations", [-1, 2.5, "10", True])
def test_bad_iteration_counts_are_explained(iterations):
    with pytest.raises(ValueError, match="iterations must be a whole number"):
        MatrixSolver(preset("rps")).run(iterations)


def test_solver_needs_a_game():
    with pytest.raises(ValueError, match="game must be a MatrixGame"):
        MatrixSolver([[1, 0], [0, 1]])


@pytest.mark.parametrize(
    "algorithm,sampling,updates",
    [("rm", "expected", "simultaneous"), ("rm+", "sampled", "alternating"), ("prm+", "expected", "alternating")],
)
@pytest.mark.parametrize("game", [GENERAL, ZERO_SUM], ids=["general-sum", "zero-sum"])
def test_a_start_is_initial_regrets_and_matches_the_reference(game, algorithm, sampling, updates):
    m, n = game.shape
    row, col = np.arange(1, m + 1, dtype=float), np.arange(n, 0, -1, dtype=float)
    solver = MatrixSolver(game, algorithm, sampling, updates, seed=11, start=(row, col))
    np.testing.assert_allclose(solver.current_policy()["row"], row / row.sum())  # the first iteration plays the start
    solver.run(120)
    delta_row, delta_col = game.payoff_range
    initial = ((delta_row * row / row.sum()).tolist(), (delta_col * col / col.sum()).tolist())
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    avg_x, avg_y, R1, R2, _, _ = naive.reference_run(
        A, B, 120, algorithm, sampling, updates, rng_words=_rng_words(11), initial_regrets=initial
    )
    np.testing.assert_allclose(solver.average_policy()["row"], avg_x, atol=1e-10)
    np.testing.assert_allclose(solver.average_policy()["col"], avg_y, atol=1e-10)
    np.testing.assert_allclose(solver.cumulative_regrets().player_1, R1, atol=1e-9)


def test_rps_started_off_its_equilibrium_learns_it():
    solver = MatrixSolver(preset("rps"), start=([6, 3, 1], [2, 2, 6]))
    solver.run(2_000)
    early = solver.metrics().nash_conv
    solver.run(18_000)
    metrics = solver.metrics()
    np.testing.assert_allclose(solver.average_policy()["row"], [1 / 3] * 3, atol=5e-3)
    assert (
        0 < metrics.nash_conv < early
        and metrics.nash_conv <= metrics.regret_bound.player_1 + metrics.regret_bound.player_2
    )


@pytest.mark.parametrize(
    "start,message",
    [
        ((1, 2), "row player.s start has 1 entries"),
        ("ab", "must be a pair"),
        (([1, 0, 0],), "must be a pair"),
        (([1, 0], [1, 0, 0]), "row player's start has 2 entries"),
        (([0, 0, 0], [1, 1, 1]), "all zeros"),
        (([1, -1, 1], [1, 1, 1]), "negative"),
    ],
)
def test_a_bad_start_is_explained(start, message):
    with pytest.raises(ValueError, match=message):
        MatrixSolver(preset("rps"), start=start)


@pytest.mark.parametrize("shape", [(2, 4), (40, 33)])
def test_results_do_not_depend_on_where_the_arrays_lie(shape):
    """The kernel adds in the order its source fixes (a wide row's sum by the vector width, not by its address): the
    same run with every array moved to another offset from a 64-byte boundary gives the same bits."""
    m, n = shape
    rng = np.random.default_rng(3)
    game = MatrixGame(rng.normal(size=shape).round(3), rng.normal(size=shape).round(3))

    def moved(array, offset):
        buffer = np.zeros(array.size + 8, dtype=array.dtype)
        out = buffer[offset : offset + array.size].reshape(array.shape)
        out[...] = array
        return out

    for variant in ("rm+", "hedge", "gda"):
        results = []
        for offset in (0, 1, 3):
            solver = MatrixSolver(game, variant, averaging="linear", seed=9, max_points=16)
            solver._payoffs = tuple(moved(a, offset) for a in solver._payoffs)
            solver._state = type(solver._state)(*(moved(a, offset) for a in solver._state))
            solver.run(57)
            results.append((solver.history().average.tobytes(), solver._state.regrets_row.tobytes()))
        assert results[0] == results[1] == results[2], variant
