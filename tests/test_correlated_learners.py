"""The joint distribution of play, and the learners whose joint play approaches the correlated equilibria: swap
regret matching (Blum & Mansour 2007) and Hart & Mas-Colell's (2000) procedure, held against the slow references of
``tests/naive_correlated.py`` iterate by iterate, and the figures the lesson stands on."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rmcore
from rmcore import MatrixGame, MatrixSolver, preset

from . import naive_correlated

# A general-sum 3x3 game with mixed payoffs, and Shapley's game.
GENERAL = MatrixGame(
    [[3.0, 0.0, 5.0], [1.0, 2.0, -1.0], [0.0, 4.0, 1.0]], [[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [4.0, -2.0, 2.0]]
)
START = ([0.6, 0.3, 0.1], [0.2, 0.3, 0.5])


def _step_by_step(solver, reference, pairs=True):
    """Run ``solver`` one iteration at a time against the reference's rows: every strategy played, every regret,
    the joint distribution."""
    x, y = (np.array(p) for p in (solver.current_policy()["row"], solver.current_policy()["col"]))
    for t, row in enumerate(reference, start=1):
        assert np.allclose(x, row["x"], rtol=0, atol=1e-12) and np.allclose(y, row["y"], rtol=0, atol=1e-12), t
        solver.run(1)
        regrets = solver.cumulative_regrets()
        assert np.allclose(regrets.player_1, row["R1"], rtol=0, atol=1e-12), t
        assert np.allclose(regrets.player_2, row["R2"], rtol=0, atol=1e-12), t
        if pairs:
            conditional = solver.conditional_regrets()
            assert np.allclose(conditional.player_1, row["D1"], rtol=0, atol=1e-12), t
            assert np.allclose(conditional.player_2, row["D2"], rtol=0, atol=1e-12), t
        assert np.allclose(solver.joint_distribution(), row["joint"], rtol=0, atol=1e-12), t
        policy = solver.current_policy()
        x, y = np.array(policy["row"]), np.array(policy["col"])


@pytest.mark.parametrize("start", [None, START], ids=["uniform", "start"])
@pytest.mark.parametrize("sampling", ["expected", "sampled"])
@pytest.mark.parametrize("game", [GENERAL, preset("shapley")], ids=["general", "shapley"])
def test_swap_rm_equals_the_plain_loop_iterate_by_iterate(game, sampling, start):
    solver = MatrixSolver(game, "swap-rm", sampling, seed=7, start=start)
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    words = solver._state.rng.copy()
    reference = naive_correlated.reference_correlated_run(A, B, 150, "swap-rm", sampling, words, start)
    _step_by_step(solver, reference)


@pytest.mark.parametrize("start", [None, START], ids=["uniform", "start"])
@pytest.mark.parametrize("game", [GENERAL, preset("shapley")], ids=["general", "shapley"])
def test_internal_rm_equals_the_plain_loop_iterate_by_iterate(game, start):
    solver = MatrixSolver(game, "internal-rm", "sampled", seed=5, start=start)
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    words = solver._state.rng.copy()
    reference = naive_correlated.reference_correlated_run(A, B, 300, "internal-rm", "sampled", words, start, solver.mu)
    _step_by_step(solver, reference)
    # (with mu at its smallest, play switches often enough that both players left their first action)
    assert {len(set(np.flatnonzero(np.array(reference[-1]["joint"]).sum(axis=k)))) for k in (0, 1)} != {1}


def test_internal_rm_with_a_larger_inertia_equals_the_plain_loop():
    game = preset("shapley")
    assert rmcore.internal_rm_inertia(game) == math.nextafter(4.0, math.inf)  # 2 M (m - 1), M = 1, m = 3
    solver = MatrixSolver(game, "internal-rm", "sampled", seed=5, mu=40.0, start=START)
    reference = naive_correlated.reference_correlated_run(
        game.row_payoffs.tolist(), game.col_payoffs.tolist(), 100, "internal-rm", "sampled", solver._state.rng.copy(),
        START, 40.0,
    )  # fmt: skip
    assert solver.mu == 40.0
    _step_by_step(solver, reference)


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(algorithm="internal-rm", mu=4.0), r"mu must exceed 2 M \(m - 1\) = 4 on this game"),
        (dict(algorithm="internal-rm", mu="big"), r"mu must be a finite number, got 'big'"),
        (dict(algorithm="internal-rm", mu=math.inf), r"mu must be a finite number"),
        (dict(algorithm="rm", mu=10.0), r"mu is the inertia of internal-rm .* 'rm' takes none"),
        (dict(algorithm="internal-rm", sampling="expected"), r"internal-rm switches from the action it played last"),
        (dict(joint="yes"), r"joint must be True, False or None"),
        (dict(joint=True, opponent={"col": [1, 0, 0]}), r"against a fixed opponent only the row player learns"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(options, message):
    options = {"sampling": "sampled", **options} if options.get("algorithm") == "internal-rm" else options
    with pytest.raises(ValueError, match=message):
        MatrixSolver(preset("shapley"), **options)


def test_a_joint_distribution_with_fixed_players_of_three_is_refused_in_their_words():
    with pytest.raises(ValueError, match=r"with some players fixed the others learn a game of their own"):
        MatrixSolver(preset("matching-pennies-3p"), joint=True, opponent={3: [0.2, 0.8]})


# -- the joint distribution ---------------------------------------------------------------------------


def test_expected_play_keeps_the_average_of_the_product_profiles():
    game = preset("random-general-sum", rows=3, cols=4, seed=3)
    solver = MatrixSolver(game, "rm+", averaging="linear", history_share=None, max_points=100)
    solver.run(40)
    history = solver.history()
    # The current policy after iteration t is what iteration t + 1 played; iteration 1 played the uniform profile.
    xs = np.vstack([np.full(3, 1 / 3), history.current[:-1, 0, :3]])
    ys = np.vstack([np.full(4, 1 / 4), history.current[:-1, 1, :4]])
    expected = np.einsum("ti,tj->ij", xs, ys) / 40  # (every iteration weighs 1, whatever the averaging)
    assert np.allclose(solver.joint_distribution(), expected, rtol=0, atol=1e-14)


def test_sampled_play_counts_the_joint_actions_played():
    solver = MatrixSolver(preset("chicken"), sampling="sampled", seed=4)
    counts = np.zeros((2, 2))
    for _ in range(60):
        solver.run(1)
        a, b, _ = solver.last_sampled_actions()
        counts[a, b] += 1
    assert np.array_equal(solver.joint_distribution(), counts / 60)


@pytest.mark.parametrize("algorithm, sampling", [("rm", "expected"), ("swap-rm", "sampled"), ("exrm+", "expected")])
def test_any_split_of_a_run_keeps_the_same_joint_distribution_to_the_last_bit(algorithm, sampling):
    game = preset("random-general-sum", rows=4, cols=3, seed=1)
    whole = MatrixSolver(game, algorithm, sampling, seed=2)
    whole.run(700)
    pieces = MatrixSolver(game, algorithm, sampling, seed=2)
    for chunk in (1, 99, 250, 350):
        pieces.run(chunk)
    assert np.array_equal(whole.joint_distribution(), pieces.joint_distribution())
    fields = ("cce_gap", "ce_gap", "internal_regret", "nash_conv")
    assert [getattr(whole.metrics(), f) for f in fields] == [getattr(pieces.metrics(), f) for f in fields]
    assert np.array_equal(whole.history().metrics["ce_gap"], pieces.history().metrics["ce_gap"], equal_nan=True)


def test_the_joint_distribution_is_kept_where_it_is_measured():
    assert MatrixSolver(preset("chicken")).keeps_joint  # general-sum self-play
    assert not MatrixSolver(preset("rps")).keeps_joint  # zero-sum: no m x n add an iteration
    assert MatrixSolver(preset("rps"), "swap-rm").keeps_joint  # the learners of correlated equilibria
    assert MatrixSolver(preset("rps"), joint=True).keeps_joint
    assert not MatrixSolver(preset("chicken"), joint=False).keeps_joint
    assert not MatrixSolver(preset("chicken"), opponent={"col": [1, 1]}).keeps_joint
    rps = MatrixSolver(preset("rps"))
    rps.run(10)
    metrics = rps.metrics()
    assert metrics.cce_gap is None and metrics.ce_gap is None and metrics.internal_regret is None
    with pytest.raises(ValueError, match="does not keep the joint distribution of play: create the solver with joint"):
        rps.joint_distribution()
    with pytest.raises(ValueError, match="defined after the first iteration"):
        MatrixSolver(preset("chicken")).joint_distribution()
    zero_sum = MatrixSolver(preset("rps"), joint=True, start=START)
    zero_sum.run(10)
    assert zero_sum.metrics().ce_gap == rmcore.ce_gap(zero_sum.game, zero_sum.joint_distribution())


# -- what the lesson shows -------------------------------------------------------------------------------


def test_on_shapleys_game_rm_reaches_the_coarse_set_and_swap_rm_the_correlated_one():
    """Shapley's game from a non-uniform start, 10,000 iterations of expected play: regret matching's joint play is
    almost a coarse correlated equilibrium and far from every correlated one; swap RM's is almost correlated."""
    game = preset("shapley")
    rm = MatrixSolver(game, "rm", start=START)
    swap = MatrixSolver(game, "swap-rm", start=START)
    for solver in (rm, swap):
        solver.run(10_000)
    assert rm.metrics().cce_gap < 0.01 and rm.metrics().ce_gap > 0.1
    assert swap.metrics().ce_gap < 0.02
    # The marginals cycle: the Nash gap of their average does not fall like the joint play's gaps.
    assert rm.metrics().nash_conv > 0.1


def test_swap_rms_internal_regret_stays_under_its_bound():
    game = GENERAL
    solver = MatrixSolver(game, "swap-rm", start=START)
    solver.run(3_000)
    history = solver.history()
    regret, bound = history.metrics["internal_regret"], history.metrics["internal_regret_bound"]
    assert np.all(regret <= bound) and np.all(np.isfinite(bound))
    delta = max(game.payoff_range)
    assert bound[-1] == pytest.approx(delta * 3 / math.sqrt(3_000))
    assert np.all(np.isnan(MatrixSolver(game, "rm").history().metrics["internal_regret_bound"]))


def test_the_command_line_prints_the_joint_plays_gaps_and_refuses_an_expected_internal_rm(capsys):
    from rmcore.__main__ import main

    assert (
        main(["solve", "--game", "shapley", "--algorithm", "swap-rm", "--iterations", "500", "--start", "6,3,1;2,3,5"])
        == 0
    )
    out = capsys.readouterr().out
    solver = MatrixSolver(preset("shapley"), "swap-rm", start=([6, 3, 1], [2, 3, 5]))
    solver.run(500)
    assert f"joint play's CCE gap: {solver.metrics().cce_gap:.6g}; its CE gap: {solver.metrics().ce_gap:.6g}" in out
    assert main(["solve", "--game", "shapley", "--algorithm", "internal-rm", "--iterations", "5"]) == 2
    assert "internal-rm switches from the action it played last" in capsys.readouterr().err


def test_the_history_keeps_the_joint_distribution_at_every_row():
    """``joint_history()`` has a joint distribution per history row (what a replay or a moving point draws): each the
    solver's ``joint_distribution()`` at that iteration, whatever the split of the run."""
    game = preset("chicken")
    solver = MatrixSolver(game, "swap-rm", history_share=None, max_points=50, start=([0.7, 0.3], [0.4, 0.6]))
    step_by_step = []
    for _ in range(30):
        solver.run(1)
        step_by_step.append(solver.joint_distribution())
    rows = solver.joint_history()
    assert rows.iterations.tolist() == solver.history().iterations.tolist() == list(range(1, 31))
    assert np.array_equal(rows.joint, np.array(step_by_step))
    whole = MatrixSolver(game, "swap-rm", history_share=None, max_points=50, start=([0.7, 0.3], [0.4, 0.6]))
    whole.run(30)
    assert np.array_equal(whole.joint_history().joint, rows.joint)
    with pytest.raises(ValueError, match="does not keep the joint distribution"):
        MatrixSolver(preset("rps")).joint_history()


def test_the_internal_regret_bound_and_the_inertia_validate_their_input():
    assert rmcore.internal_regret_bound(2.0, 3, np.array([1, 4])).tolist() == [6.0, 3.0]
    with pytest.raises(ValueError, match="payoff_range must be a finite number >= 0"):
        rmcore.internal_regret_bound(-1.0, 3, 10)
    with pytest.raises(ValueError, match="actions must be a whole number >= 1"):
        rmcore.internal_regret_bound(1.0, 0, 10)
    with pytest.raises(ValueError, match="iteration must be whole numbers >= 1"):
        rmcore.internal_regret_bound(1.0, 3, 0.5)
    with pytest.raises(ValueError, match="expected a MatrixGame \\(or a NormalFormGame of n players\\), got str"):
        rmcore.internal_rm_inertia("shapley")
    assert rmcore.internal_rm_inertia(MatrixGame(np.zeros((2, 2)), np.zeros((2, 2)))) == 1.0
    chicken = preset("chicken")  # M = 10, two actions: mu > 20
    assert rmcore.internal_rm_inertia(chicken) == math.nextafter(20.0, math.inf)
    with pytest.raises(ValueError, match=r"mu must exceed 2 M \(m - 1\) = 20 on this game"):
        MatrixSolver(chicken, "internal-rm", "sampled", mu=20)


def test_a_sweep_runs_every_rule_with_its_defaults_and_keeps_the_joint_plays_gaps(tmp_path):
    """``matrix = "all"`` runs internal-rm sampled (its only form), and a general-sum cell's file holds its CE gap."""
    from rmcore.sweep import parse_grid, read_cell, result_files, run_sweep

    grid = {
        "iterations": 200,
        "checkpoints": [10, 200],
        "games": [{"game": "shapley"}],
        "algorithms": [{"matrix": "all"}],
    }
    specs = {cell.spec["algorithm"]["matrix"]: cell.spec["algorithm"] for cell in parse_grid(grid).cells}
    assert specs["internal-rm"]["sampling"] == "sampled" and specs["swap-rm"]["sampling"] == "expected"
    grid["algorithms"] = [{"matrix": "internal-rm"}, {"matrix": "swap-rm"}]
    run_sweep(grid, tmp_path, workers=0)
    for path in result_files(tmp_path):
        cell = read_cell(path)
        assert cell.meta.get("status", "done") == "done", cell.meta.get("error")
        assert np.all(np.isfinite(cell.frame["ce_gap"])) and np.all(cell.frame["ce_gap"] >= cell.frame["cce_gap"])


def test_the_command_line_takes_mu_and_refuses_one_the_paper_does_not_allow(capsys):
    from rmcore.__main__ import main

    command = [
        "solve",
        "--game",
        "shapley",
        "--algorithm",
        "internal-rm",
        "--sampling",
        "sampled",
        "--iterations",
        "50",
    ]
    assert main([*command, "--mu", "40", "--seed", "1", "--json"]) == 0
    solver = MatrixSolver(preset("shapley"), "internal-rm", "sampled", seed=1, mu=40.0)
    solver.run(50)
    assert f'"ce_gap": {solver.metrics().ce_gap!r}' in capsys.readouterr().out
    assert main([*command, "--mu", "3"]) == 2
    assert "mu must exceed 2 M (m - 1) = 4 on this game" in capsys.readouterr().err
    assert main(["solve", "--game", "shapley", "--iterations", "5", "--mu", "40"]) == 2
    assert "mu is the inertia of internal-rm" in capsys.readouterr().err
