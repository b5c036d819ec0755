"""The exact answer is exact whatever the payoffs' offset and scale (HiGHS's tolerances are absolute)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rmcore


def _relative_nash_conv(game: rmcore.MatrixGame) -> float:
    """The answer's nash_conv over the payoffs' range, measured on the game moved to a zero midpoint: nash_conv does
    not change under a shift, and measured at an offset of 1e9 its own rounding (1e-7) would hide what is measured."""
    solution = rmcore.solve_exactly(game)
    payoffs = game.row_payoffs
    centred = rmcore.MatrixGame(payoffs - 0.5 * (payoffs.max() + payoffs.min()))
    spread = float(np.ptp(payoffs)) or 1.0
    return rmcore.nash_conv(centred, solution.policy) / spread


def test_a_tiny_game_on_a_large_offset_gets_its_equilibrium():
    game = rmcore.MatrixGame([[1e6 + 0.001, 1e6], [1e6, 1e6 + 0.001]])
    solution = rmcore.solve_exactly(game)
    assert np.allclose(solution.policy["row"], [0.5, 0.5], atol=1e-9)
    assert np.allclose(solution.policy["col"], [0.5, 0.5], atol=1e-9)
    assert solution.game_value == pytest.approx(1e6 + 0.0005, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    offset=st.sampled_from([0.0, 1e3, -1e6, 1e9, 1e11]),
    spread=st.sampled_from([1e-3, 1.0, 1e3]),
)
def test_the_answer_is_an_equilibrium_at_any_offset_and_scale(seed, shape, offset, spread):
    payoffs = offset + spread * np.random.default_rng(seed).uniform(-1, 1, shape)
    game = rmcore.MatrixGame(payoffs)
    if np.ptp(game.row_payoffs) < 1e-12 * max(1.0, abs(offset)):
        return  # the offset swallowed the differences: a constant game in float64
    assert _relative_nash_conv(game) < 1e-6


def test_a_constant_game_is_solved_by_any_strategy():
    solution = rmcore.solve_exactly(rmcore.MatrixGame(np.full((2, 3), 7.0)))
    assert solution.game_value == 7.0 and solution.policy["row"].tolist() == [0.5, 0.5]


def test_the_value_comes_from_the_strategies_returned():
    game = rmcore.preset("rps-crash")
    solution = rmcore.solve_exactly(game)
    assert solution.game_value == float(
        np.array(solution.policy["row"]) @ game.row_payoffs @ np.array(solution.policy["col"])
    )
