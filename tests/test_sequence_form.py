"""The sequence-form LP: Kuhn's known value, brute-force best responses on small games, OpenSpiel's best response on
Leduc."""

import os

import numpy as np
import pytest

import rmcore
from rmcore.trees import poker

from . import known_values, naive_rules_cfr


def test_kuhn_value_is_minus_one_eighteenth_and_the_answer_is_an_equilibrium():
    solution = rmcore.solve_exactly(rmcore.KUHN)
    assert solution.game_value == pytest.approx(float(known_values.KUHN_GAME_VALUE), abs=1e-9)
    assert solution.nash_conv < 1e-9
    alpha = solution.policy["J"][1]  # one of Kuhn's family (Kuhn 1950)
    np.testing.assert_allclose(solution.policy.probabilities, rmcore.equilibrium_policy(alpha).probabilities, atol=1e-9)


@pytest.mark.parametrize("cards,bet", [(3, 2.0), (3, 0.5), (4, 1.0)])
def test_kuhn_on_sliders_value_against_brute_force_best_responses(cards, bet):
    """Neither player can gain against the LP's answer, by any pure strategy (enumerated): both best responses give
    exactly the value."""
    rules, game = poker.KuhnRules(cards, bet), poker.kuhn_poker(cards, bet)
    solution = rmcore.solve_exactly(game)
    policy = solution.policy.to_dict()
    assert naive_rules_cfr.best_response_value(rules, policy, 0) == pytest.approx(solution.game_value, abs=1e-9)
    assert naive_rules_cfr.best_response_value(rules, policy, 1) == pytest.approx(-solution.game_value, abs=1e-9)
    assert naive_rules_cfr.expected(rules, policy) == pytest.approx(solution.game_value, abs=1e-9)


def test_cfr_approaches_the_lp_value_on_kuhn_on_sliders():
    game = poker.kuhn_poker(6, 2.5)
    solver = rmcore.CFRSolver(game, "cfr+", max_points=0)
    solver.run(3_000)
    assert solver.metrics().game_value == pytest.approx(rmcore.solve_exactly(game).game_value, abs=2e-3)


def test_leduc_lp_value_is_openspiels_best_response_check():
    """The LP's policy, handed to OpenSpiel: its C++ exploitability is under 1e-8, and OpenSpiel's value of the policy
    is the LP's value."""
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401  (CI installs open_spiel: a missing one is a failure)
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as openspiel_policy
    from open_spiel.python.algorithms import expected_game_score

    from .test_openspiel import openspiel_names

    game, ours = pyspiel.load_game("leduc_poker"), rmcore.leduc_poker()
    solution = rmcore.solve_exactly(ours)
    assert solution.game_value == pytest.approx(-0.0856, abs=1e-4)  # Leduc's value, as published
    table = openspiel_policy.TabularPolicy(game)
    names = openspiel_names(game, ours.rules)
    for state_string, row in table.state_lookup.items():
        legal = np.flatnonzero(table.legal_actions_mask[row])
        table.action_probability_array[row, legal] = solution.policy[names[state_string]]
    assert pyspiel.exploitability(game, table.to_dict()) < 1e-8
    value = expected_game_score.policy_value(game.new_initial_state(), [table, table])[0]
    assert value == pytest.approx(solution.game_value, abs=1e-9)


def test_a_game_is_required_and_the_sequence_form_takes_trees_only():
    with pytest.raises(ValueError, match="MatrixGame or a TreeGame"):
        rmcore.solve_exactly([[1, -1], [-1, 1]])
    with pytest.raises(ValueError, match="TreeGame"):
        rmcore.exact.sequence_form.solve(rmcore.preset("rps"))
    with pytest.raises(ValueError, match="zero-sum"):
        rmcore.solve_exactly(rmcore.preset("prisoners-dilemma"))


def _scaled(game: rmcore.TreeGame, scale: float) -> rmcore.TreeGame:
    return game._replace(tree=game.tree._replace(payoff=game.tree.payoff * scale, payoffs=game.tree.payoffs * scale))


@pytest.mark.parametrize("scale", [1e-9, 1e-8, 1e-7, 1e9])
def test_the_exact_answer_does_not_depend_on_the_payoffs_unit(scale):
    """HiGHS's tolerances are absolute: unscaled, Leduc at 1e-7 got a value 18% off, at 1e-8 a value of 0 and a policy
    with NashConv 4, at 1e9 a failed LP."""
    leduc = rmcore.leduc_poker()
    plain = rmcore.exact.sequence_form.solve(leduc)
    scaled = rmcore.exact.sequence_form.solve(_scaled(leduc, scale))
    assert scaled.game_value / scale == pytest.approx(plain.game_value, rel=1e-9)
    assert scaled.nash_conv / scale < 1e-9
    np.testing.assert_allclose(scaled.policy.probabilities, plain.policy.probabilities, atol=1e-9)


def test_a_two_by_two_game_read_at_a_tiny_scale_gets_its_mixed_equilibrium():
    """Row player: (0.4, 0.6) makes the column player indifferent; at 1e-9 the LP used to answer (1, 0)."""
    for scale in (1.0, 1e-9):
        a, b, c, d = (scale * x for x in (1.0, -1.0, -1.0, 1.0 / 3.0))
        text = (
            'EFG 2 R "2x2" { "A" "B" }\n'
            'p "" 1 1 "row" { "U" "D" } 0\n'
            f'p "" 2 1 "col" {{ "L" "R" }} 0\nt "" 1 "" {{ {a!r}, {-a!r} }}\nt "" 2 "" {{ {b!r}, {-b!r} }}\n'
            f'p "" 2 1 0\nt "" 3 "" {{ {c!r}, {-c!r} }}\nt "" 4 "" {{ {d!r}, {-d!r} }}\n'
        )
        solution = rmcore.exact.sequence_form.solve(rmcore.read_efg(text))
        np.testing.assert_allclose(solution.policy["row"], [0.4, 0.6], atol=1e-9)
        np.testing.assert_allclose(solution.policy["col"], [0.4, 0.6], atol=1e-9)
        assert solution.game_value / scale == pytest.approx(-0.2, abs=1e-9)
