"""What a replay reads from the library: the regrets at every checkpoint, the actions a sampled
iteration drew, and any CFR iteration's trace re-derived from the seed."""

import numpy as np
import pytest

import rmcore


@pytest.mark.parametrize(
    "make",
    [
        lambda: rmcore.MatrixSolver(rmcore.preset("rps-crash"), "rm+", "sampled", seed=4),
        lambda: rmcore.MatrixSolver(rmcore.preset("rps-crash"), "prm+", updates="alternating"),
        lambda: rmcore.CFRSolver(rmcore.KUHN, "linear"),
        lambda: rmcore.CFRSolver(rmcore.KUHN, "chance-sampling", seed=2),
    ],
    ids=["matrix-sampled", "matrix-alternating", "cfr-linear", "cfr-sampled"],
)
def test_history_regrets_are_the_regrets_a_fresh_run_has_at_that_checkpoint(make):
    solver = make()
    solver.run(4000)  # (a default history: a checkpoint every few dozen to few hundred iterations, by their cost)
    history = solver.history()
    for row in (1, len(history) // 2, len(history) - 1):
        again = make()
        again.run(int(history.iterations[row]))
        regrets = again.cumulative_regrets()
        expected = np.stack([regrets.player_1, regrets.player_2]) if isinstance(again, rmcore.MatrixSolver) else regrets
        np.testing.assert_array_equal(history.regrets[row], expected)
    assert history.row_at(int(history.iterations[5]) + 0) == 5
    assert history.row_at(0) == 0 and history.row_at(10**9) == len(history) - 1


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_the_drawn_actions_are_the_ones_the_sampled_regret_update_used(updates):
    game = rmcore.preset("rps-crash")
    A = game.row_payoffs
    solver = rmcore.MatrixSolver(game, "rm", "sampled", updates=updates, seed=11)
    assert solver.last_sampled_actions() is None
    for _ in range(20):
        before = solver.cumulative_regrets()
        solver.run(1)
        after = solver.cumulative_regrets()
        a, b, fresh = solver.last_sampled_actions()
        np.testing.assert_allclose(after.player_1 - before.player_1, A[:, b] - A[a, b], atol=1e-12)
        np.testing.assert_allclose(after.player_2 - before.player_2, -A[fresh, :] + A[fresh, b], atol=1e-12)
        if updates == "simultaneous":
            assert fresh == a
    assert rmcore.MatrixSolver(game).last_sampled_actions() is None


def test_retrace_rederives_any_iteration_and_leaves_the_solver_alone():
    solver = rmcore.CFRSolver(rmcore.KUHN, "chance-sampling", seed=5)
    solver.run(40)
    before = solver.history()
    traced = solver.retrace(25)
    assert solver.iteration == 40 and np.array_equal(solver.history().average, before.average)
    again = rmcore.CFRSolver(rmcore.KUHN, "chance-sampling", seed=5)
    again.run(24)
    assert again.trace_iteration() == traced
    with pytest.raises(ValueError, match="iteration"):
        solver.retrace(0)
