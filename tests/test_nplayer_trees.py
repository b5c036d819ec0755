"""Game trees of more than two players: Kuhn poker for 3 and 4 players against OpenSpiel's, NashConv, and CFR against
OpenSpiel's C++ CFRSolver iteration by iteration."""

import itertools
import os

import numpy as np
import pytest

import rmcore
from rmcore.trees.builder import Chance, Decision, Terminal
from rmcore.trees.game import uniform_policy

from .naive_mccfr import NaiveMCCFR
from .naive_nplayer_cfr import NaiveNPlayerCFR

#: pyspiel.nash_conv of the uniform policy (OpenSpiel's own values).
UNIFORM_NASH_CONV = {3: 2.0625, 4: 3.4760416666666663}


@pytest.mark.parametrize("players", [3, 4])
def test_uniform_nash_conv_is_openspiels(players):
    game = rmcore.kuhn_poker(players=players)
    assert game.players == players and game.is_zero_sum and not game.is_two_player_zero_sum
    assert rmcore.nash_conv(game, uniform_policy(game)) == pytest.approx(UNIFORM_NASH_CONV[players], abs=1e-12)


def test_two_player_kuhn_is_unchanged_by_the_players_argument():
    assert rmcore.kuhn_poker(players=2) is rmcore.kuhn_poker() is rmcore.kuhn_poker(3, 1.0)
    assert rmcore.KUHN.players == 2 and rmcore.KUHN.is_two_player_zero_sum


def three_player_coordination():
    """Each of three players picks a side without seeing the others: all alike pays each 1, else 0 (general-sum)."""

    def expand(history):
        if len(history) < 3:
            return Decision(
                len(history) + 1, f"player {len(history) + 1}", ("left", "right"), (history + "L", history + "R")
            )
        return Terminal((1.0, 1.0, 1.0) if len(set(history)) == 1 else (0.0, 0.0, 0.0))

    return rmcore.build_tree_game("Three-player coordination", "", expand, players=3)


def test_general_sum_nash_conv_counts_each_players_gain():
    game = three_player_coordination()
    assert game.players == 3 and not game.is_zero_sum
    # All on the left is an equilibrium; two left and one right: the odd one out gains 1 by switching, the others 0.
    left = np.array([[1.0, 0.0]] * 3)
    assert rmcore.nash_conv(game, left) == 0.0
    mixed = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert rmcore.nash_conv(game, mixed) == 1.0
    # Uniform is an equilibrium too (each matches with probability 1/4 whatever it plays); against two players on the
    # left, a third playing uniformly earns 1/2 and gains 1/2 by joining them (the two gain nothing).
    assert rmcore.nash_conv(game, uniform_policy(game)) == 0.0
    assert rmcore.nash_conv(game, np.array([[1.0, 0.0], [1.0, 0.0], [0.5, 0.5]])) == 0.5


def test_cfr_on_a_general_sum_game_reaches_an_equilibrium():
    """Player 1 earns 1 on the left; players 2 and 3 earn 1 by matching the player before them, unseen: uniform is no
    equilibrium (player 1 gains 1/2), all on the left is the one CFR's average approaches."""

    def expand(history):
        if len(history) < 3:
            return Decision(
                len(history) + 1, f"player {len(history) + 1}", ("left", "right"), (history + "L", history + "R")
            )
        return Terminal(tuple(float(history[p] == (history[p - 1] if p else "L")) for p in range(3)))

    game = rmcore.build_tree_game("Follow the leader", "", expand, players=3)
    assert rmcore.nash_conv(game, uniform_policy(game)) == 0.5
    solver = rmcore.CFRSolver(game, "cfr", max_points=10)
    solver.run(2000)
    assert solver.metrics().nash_conv < 0.01
    assert solver.average_policy()["player 3"][0] > 0.99


def test_builder_refuses_what_does_not_fit_its_players():
    def one_number(history):
        if not history:
            return Decision(3, "I", ("a",), ("a",))
        return Terminal(1.0)

    with pytest.raises(ValueError, match="one number; a game of 3 players needs one per player"):
        rmcore.build_tree_game("g", "", one_number, players=3)
    with pytest.raises(ValueError, match="must be 1 or 2; got 3"):
        rmcore.build_tree_game("g", "", one_number)

    def short(history):
        return Decision(1, "I", ("a",), ("a",)) if not history else Terminal((1.0, 2.0))

    with pytest.raises(ValueError, match=r"needs one number per player \(3\); got 2"):
        rmcore.build_tree_game("g", "", short, players=3)
    with pytest.raises(ValueError, match="players must be a whole number >= 2"):
        rmcore.build_tree_game("g", "", short, players=1)
    with pytest.raises(ValueError, match="at most 10 players"):
        rmcore.build_tree_game("g", "", short, players=11)


def naive_player_values(game, policy) -> tuple[list[float], list[float]]:
    """Each player's best-response value (the best of its pure strategies, every one tried) and expected value, by
    walking the tree recursively: the slow, obvious oracle."""
    tree = game.tree

    def value(node, p, plan):
        actor = int(tree.player[node])
        kids = tree.children[tree.child_start[node] : tree.child_start[node + 1]]
        if actor == -1:
            return float(tree.payoffs[p, node])
        if actor == rmcore.trees.game.CHANCE_NODE:
            weights = tree.chance[tree.child_start[node] : tree.child_start[node + 1]]
        elif actor == p and plan is not None:
            weights = np.eye(len(kids))[plan[int(tree.infoset[node])]]
        else:
            weights = policy[int(tree.infoset[node]), : len(kids)]
        return sum(w * value(int(k), p, plan) for w, k in zip(weights, kids))

    def total(p, plan):
        return sum(q * value(int(r), p, plan) for q, r in zip(tree.deal_probability, tree.deal_root))

    best, expected = [], []
    for p in range(game.players):
        rows = np.flatnonzero(tree.infoset_player == p)
        plans = itertools.product(*(range(int(tree.num_actions[k])) for k in rows))
        best.append(max(total(p, dict(zip(rows.tolist(), plan))) for plan in plans))
        expected.append(total(p, None))
    return best, expected


def test_best_responses_of_three_players_with_chance_inside_equal_the_oracles():
    """A chance node above and one inside the tree, three players of whom the third never moves, a random policy."""

    def expand(history):
        if history == "":
            return Chance(("x", "y"), (0.25, 0.75), ("x", "y"))
        if len(history) < 3:
            p = len(history)
            return Decision(p, f"{p}{history[0] if p == 1 else ''}", ("a", "b"), (history + "a", history + "b"))
        if len(history) == 3:
            return Chance(("u", "v"), (0.5, 0.5), (history + "u", history + "v"))
        win = {"u": 0, "v": 1}[history[3]] if history[1] == history[2] else 2
        return Terminal(tuple(2.0 if p == win else -1.0 for p in range(3)))

    game = rmcore.build_tree_game("Chance", "", expand, players=3)
    rng = np.random.default_rng(5)
    policy = rng.dirichlet([1.0, 1.0], size=len(game.infosets))
    best, expected = rmcore.trees.cfr.player_values(game, policy)
    oracle_best, oracle_expected = naive_player_values(game, policy)
    np.testing.assert_allclose(best, oracle_best, atol=1e-14)
    np.testing.assert_allclose(expected, oracle_expected, atol=1e-14)
    assert rmcore.nash_conv(game, policy) == pytest.approx(sum(oracle_best) - sum(oracle_expected), abs=1e-14)


if os.environ.get("CI"):
    import pyspiel  # noqa: F401  (CI installs open_spiel: a missing one is a failure)


def openspiel_kuhn():
    return pytest.importorskip("pyspiel")


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [("cfr", 3), ("cfr", 4), ("cfr+", 3)])
def test_cfr_equals_openspiels_cpp_solver_after_every_iteration_and_bit_for_bit(variant, players):
    """OpenSpiel's C++ CFRSolver and CFRPlusSolver on kuhn_poker(players=n): NashConv of the average policy
    (pyspiel.nash_conv) after every iteration of the first 100 (four players: 20; a NashConv of OpenSpiel's takes 0.2 s
    there) and every 50th after, and the average policy at 500 bit for bit."""
    pyspiel = openspiel_kuhn()
    game = pyspiel.load_game("kuhn_poker", {"players": players})
    ours_game = rmcore.kuhn_poker(players=players)
    solver_class = pyspiel.CFRSolver if variant == "cfr" else pyspiel.CFRPlusSolver
    theirs, ours = solver_class(game), rmcore.CFRSolver(ours_game, variant, max_points=0)
    every = 100 if players == 3 else 20
    for t in range(1, 501):
        theirs.evaluate_and_update_policy()
        ours.run(1)
        if t <= every or t % 50 == 0:
            expected = pyspiel.nash_conv(game, theirs.average_policy())
            assert ours.metrics().nash_conv == pytest.approx(expected, abs=1e-12), f"iteration {t}"
    names = ours_game.rules.card_names
    table, average = theirs.average_policy(), ours.average_policy()
    seen = 0
    for state_string in table.state_lookup if hasattr(table, "state_lookup") else _state_strings(game):
        name = names[int(state_string[0])] + state_string[1:]  # OpenSpiel: the card's number, then the history
        assert average[name].tolist() == [p for _, p in table.get_state_policy(state_string)], name
        seen += 1
    assert seen == len(ours_game.infosets)


def _state_strings(game) -> list[str]:
    """Every information-state string of an OpenSpiel game, by walking it."""
    found = {}

    def walk(state):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                walk(state.child(outcome))
            return
        found[state.information_state_string()] = True
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    return list(found)


def test_exploitability_is_for_two_player_zero_sum_games_alone():
    game = rmcore.kuhn_poker(players=3)
    with pytest.raises(
        ValueError, match="two-player zero-sum games; Kuhn poker, 3 players has 3 players: use nash_conv"
    ):
        rmcore.exploitability(game, uniform_policy(game))
    solver = rmcore.CFRSolver(game, "cfr+", max_points=0)
    solver.run(3)
    metrics = solver.metrics()
    assert metrics.exploitability is None and metrics.nash_conv > 0.0


def test_rules_defined_for_two_players_say_so():
    game = rmcore.kuhn_poker(players=3)
    with pytest.raises(ValueError, match="magnetic mirror descent runs on two-player zero-sum games"):
        rmcore.CFRSolver(game, "mmd")
    fixed = {name: (1.0, 0.0) for name, owner in zip(game.infosets, game.tree.infoset_player) if owner == 1}
    with pytest.raises(ValueError, match="a fixed opponent leaves one learner in a two-player game"):
        rmcore.CFRSolver(game, "cfr", opponent=fixed)


@pytest.mark.parametrize("player", [1, 2, 3])
def test_best_response_of_any_player(player):
    game = rmcore.kuhn_poker(players=3)
    policy = np.random.default_rng(player).dirichlet([1.0, 1.0], size=len(game.infosets))
    response = rmcore.best_response(game, policy, player)
    best, expected = rmcore.trees.cfr.player_values(game, policy)
    assert response.value == best[player - 1] and response.gain == pytest.approx(
        best[player - 1] - expected[player - 1]
    )
    # Playing the best response earns its value.
    mine = game.tree.infoset_player == player - 1
    switched = np.where(mine[:, None], response.policy.probabilities, policy)
    assert rmcore.trees.cfr.player_values(game, switched)[1][player - 1] == pytest.approx(response.value, abs=1e-12)
    with pytest.raises(ValueError, match="player must be 1 to 3, got 4"):
        rmcore.best_response(game, policy, 4)


@pytest.mark.parametrize("players", [3, 4])
def test_from_openspiel_converts_n_player_kuhn_into_our_own_game(players):
    """OpenSpiel's kuhn_poker(players=n) converted: the same tree as our builder's (CFR's numbers equal)."""
    pyspiel = openspiel_kuhn()
    converted = rmcore.from_openspiel(pyspiel.load_game("kuhn_poker", {"players": players}))
    ours = rmcore.kuhn_poker(players=players)
    assert converted.players == players and len(converted.infosets) == len(ours.infosets)
    assert converted.tree.player.shape == ours.tree.player.shape
    a, b = rmcore.CFRSolver(converted, "cfr", max_points=0), rmcore.CFRSolver(ours, "cfr", max_points=0)
    a.run(20), b.run(20)
    assert a.metrics().nash_conv == b.metrics().nash_conv


def test_from_openspiel_converts_a_general_sum_game():
    pyspiel = openspiel_kuhn()
    game = pyspiel.load_game("first_sealed_auction")
    converted = rmcore.from_openspiel(game)
    assert converted.players == 2 and not converted.is_zero_sum
    from open_spiel.python import policy as openspiel_policy
    from open_spiel.python.algorithms import exploitability

    expected = exploitability.nash_conv(game, openspiel_policy.UniformRandomPolicy(game))
    assert rmcore.nash_conv(converted, uniform_policy(converted)) == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="exploitability"):
        rmcore.exploitability(converted, uniform_policy(converted))


def test_the_exact_answer_is_for_two_player_zero_sum_games():
    with pytest.raises(ValueError, match="sequence-form LP, a saddle point.*Kuhn poker, 3 players has 3 players"):
        rmcore.solve_exactly(rmcore.kuhn_poker(players=3))


@pytest.mark.parametrize("variant", ["cfr", "cfr+", "linear", "discounted", "pcfr+", "pdcfr+", "dcfr+"])
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_variants_on_three_player_kuhn_equal_the_slow_reference(variant, updates):
    """Every full-pass variant, both update orders, against a plain recursive CFR of n players written from the
    definitions (``tests/naive_nplayer_cfr.py``): average and current policy to 1e-12 after 12 iterations."""
    game = rmcore.kuhn_poker(players=3)
    solver = rmcore.CFRSolver(game, variant, updates, max_points=0)
    reference = NaiveNPlayerCFR(game.rules, variant, alternating=updates == "alternating")
    for _ in range(12):
        solver.run(1)
        reference.iterate()
    average, current = solver.average_policy(), solver.current_policy()
    mine = reference.average()
    widths = dict(zip(game.infosets, (len(a) for a in game.actions)))
    for name in game.infosets:
        np.testing.assert_allclose(average[name], mine[name], atol=1e-12, err_msg=name)
        np.testing.assert_allclose(current[name], reference.policy(name, widths[name]), atol=1e-12, err_msg=name)


@pytest.mark.parametrize("variant", ["external-sampling", "outcome-sampling"])
def test_monte_carlo_cfr_on_three_player_kuhn_equals_the_recursive_reference(variant):
    """One walk per player per iteration, drawing the same random numbers as the recursive reference
    (``tests/naive_mccfr.py``): regrets and strategy sums to 1e-12 after 100 iterations."""
    game = rmcore.kuhn_poker(players=3)
    solver = rmcore.CFRSolver(game, variant, seed=5, max_points=0)
    naive = NaiveMCCFR(game, variant, solver._state.rng.copy())
    for _ in range(100):
        solver.run(1)
        naive.iteration()
    regrets, sums = naive.arrays(*solver._state.regrets.shape)
    np.testing.assert_allclose(solver._state.regrets, regrets, rtol=0, atol=1e-12)
    np.testing.assert_allclose(solver._state.strategy_sums, sums, rtol=0, atol=1e-12)
    assert solver.nodes_touched == naive.touched and np.abs(regrets).max() > 0


@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_chance_sampling_on_three_player_kuhn_equals_the_recursive_reference(updates):
    """One deal drawn per iteration, then a CFR pass on it per player in turn (or one for all), drawing the same random
    numbers as the recursive reference (``tests/naive_mccfr.py``): regrets and strategy sums to 1e-12 after 100
    iterations."""
    game = rmcore.kuhn_poker(players=3)
    solver = rmcore.CFRSolver(game, "chance-sampling", updates, seed=5, max_points=0)
    naive = NaiveMCCFR(game, "chance-sampling", solver._state.rng.copy(), alternating=updates == "alternating")
    for _ in range(100):
        solver.run(1)
        naive.iteration()
    regrets, sums = naive.arrays(*solver._state.regrets.shape)
    np.testing.assert_allclose(solver._state.regrets, regrets, rtol=0, atol=1e-12)
    np.testing.assert_allclose(solver._state.strategy_sums, sums, rtol=0, atol=1e-12)
    assert np.abs(regrets).max() > 0 and solver.metrics().nash_conv < UNIFORM_NASH_CONV[3]


def test_three_player_leduc_rules_are_openspiels_on_random_hands():
    """2,000 random hands of OpenSpiel's leduc_poker(players=3) replayed through our rules: the same player to act, the
    same legal actions, the same public cards on offer with the same probabilities, the same returns."""
    pyspiel = openspiel_kuhn()
    import random

    rules, game = rmcore.LeducRules("Leduc", players=3), pyspiel.load_game("leduc_poker", {"players": 3})
    rng = random.Random(3)
    for _ in range(2000):
        state, deal, history = game.new_initial_state(), (), ""
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                card = rng.choice(outcomes)[0]
                if len(deal) < 3:
                    deal += (card,)
                else:
                    assert rules.player(history) == rmcore.trees.game.CHANCE_NODE
                    assert rules.chance(history, deal) == [(str(c), p) for c, p in outcomes]
                    history = rules.after(history, str(card))
                state = state.child(card)
                continue
            assert rules.player(history) == state.current_player(), history
            legal = state.legal_actions()
            assert rules.actions(history) == tuple("fcr"[a] for a in legal), history
            action = rng.choice(legal)
            history, state = rules.after(history, "fcr"[action]), state.child(action)
        assert rules.player(history) == -1 and rules.payoff(history, deal) == tuple(state.returns()), history


def test_the_poker_builders_refuse_players_they_do_not_build():
    with pytest.raises(ValueError, match="Kuhn poker takes 2 to 4 players; got 5"):
        rmcore.kuhn_poker(players=5)
    with pytest.raises(ValueError, match="Kuhn poker for 3 players needs at least 4 cards; got 3"):
        rmcore.kuhn_poker(cards=3, players=3)
    with pytest.raises(ValueError, match="Leduc hold'em takes 2 to 3 players; got 4"):
        rmcore.leduc_poker(players=4)


def test_the_history_has_every_players_best_response_gain_and_they_sum_to_nash_conv():
    solver = rmcore.CFRSolver(rmcore.kuhn_poker(players=4))
    solver.run(30)
    metrics, history = solver.metrics(), solver.history()
    assert [f"br_gain_{p}" in history.metrics for p in (1, 2, 3, 4)] == [True] * 4
    best, expected = rmcore.trees.cfr.player_values(solver.game, solver.average_policy().probabilities)
    assert list(metrics.br_gains) == [float(b - e) for b, e in zip(best, expected)]
    assert sum(metrics.br_gains) == pytest.approx(metrics.nash_conv, abs=1e-15)
