"""rmcore.build_tree_game: any two-player zero-sum tree, laid out for the kernels and checked."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

import rmcore
from rmcore import Chance, Decision, Terminal, build_tree_game


def _table_game(states: dict):
    """A game written as a table: state name -> node (children given by state name)."""
    return lambda state: states[state]


# Player 1 moves; on "in", chance decides whether player 2 is asked at once or after a chance step, so that player
# 2's information set holds histories of different depths (the levels must be raised for the best response).
UNEVEN = {
    "root": Decision(1, "P1", ("out", "in"), ("out", "in")),
    "out": Terminal(0.5),
    "in": Chance(("now", "later"), (Fraction(1, 3), Fraction(2, 3)), ("ask", "wait")),
    "wait": Chance(("go",), (Fraction(1),), ("ask2",)),
    "ask": Decision(2, "P2", ("left", "right"), ("ask-l", "ask-r")),
    "ask2": Decision(2, "P2", ("left", "right"), ("ask2-l", "ask2-r")),
    "ask-l": Terminal(2.0),
    "ask-r": Terminal(-1.0),
    "ask2-l": Terminal(-3.0),
    "ask2-r": Terminal(1.0),
}


def _value(states, state, strategy):
    """Player 1's expected payoff, by plain recursion over the table (an independent route)."""
    node = states[state]
    if isinstance(node, Terminal):
        return node.payoff
    if isinstance(node, Chance):
        return sum(float(p) * _value(states, c, strategy) for p, c in zip(node.probabilities, node.children))
    return sum(p * _value(states, c, strategy) for p, c in zip(strategy[node.infoset], node.children))


def _brute_force_nash_conv(states, game, policy):
    """Each player's best pure response by enumeration, against the other's part of ``policy``."""
    rows = {name: list(policy[k, : len(game.actions[k])]) for k, name in enumerate(game.infosets)}
    total = 0.0
    for player in (0, 1):
        mine = [k for k in range(len(game.infosets)) if game.tree.infoset_player[k] == player]
        sign = 1.0 if player == 0 else -1.0
        best = -np.inf
        for choice in itertools.product(*(range(len(game.actions[k])) for k in mine)):
            strategy = dict(rows)
            for k, a in zip(mine, choice):
                strategy[game.infosets[k]] = [1.0 if b == a else 0.0 for b in range(len(game.actions[k]))]
            best = max(best, sign * _value(states, "root", strategy))
        total += best
    return total


def test_an_information_set_at_uneven_depths_gets_the_exact_best_response():
    """Player 2's information set holds histories at different depths: a best response resolves it by its level
    (player 2's own moves before it), not by depth."""
    game = build_tree_game("uneven", "root", _table_game(UNEVEN))
    tree = game.tree
    ask = [n for n in range(tree.player.shape[0]) if tree.player[n] == 1]
    assert len(ask) == 2 and tree.depth[ask[0]] != tree.depth[ask[1]]
    rng = np.random.default_rng(3)
    for _ in range(5):
        policy = rng.dirichlet(np.ones(2), size=2)
        assert rmcore.nash_conv(game, policy) == pytest.approx(_brute_force_nash_conv(UNEVEN, game, policy))
    solution = rmcore.solve_exactly(game)
    assert rmcore.nash_conv(game, solution.policy) == pytest.approx(0.0, abs=1e-9)


def test_leading_chance_nodes_become_deals_multiplied_from_the_root_down():
    states = {
        "root": Chance(("a", "b"), (Fraction(1, 3), Fraction(2, 3)), ("A", "B")),
        "A": Chance(("x", "y"), (Fraction(1, 7), Fraction(6, 7)), ("d", "d")),
        "B": Decision(1, "I", ("stop",), ("end",)),
        "d": Decision(1, "I", ("stop",), ("end",)),
        "end": Terminal(1.0),
    }
    game = build_tree_game("deals", "root", _table_game(states))
    roots = game.tree.deal_root.tolist()
    assert [game.node_labels[r] for r in roots] == ["a x", "a y", "b"]  # (the deals in the order the root lists them)
    assert game.tree.deal_probability.tolist() == [1.0 * (1 / 3) * (1 / 7), 1.0 * (1 / 3) * (6 / 7), 2 / 3]
    assert game.deal_paths[1] == (("a", Fraction(1, 3)), ("y", Fraction(6, 7)))
    assert game.node_labels[game.tree.children[game.tree.child_start[roots[0]]]] == "a x stop"


def test_every_inconsistency_is_named():
    def game(**changes):
        states = dict(UNEVEN, **changes)
        return build_tree_game("bad", "root", _table_game(states))

    with pytest.raises(ValueError, match="'P2' offers left, right at one history and left, centre"):
        game(ask2=Decision(2, "P2", ("left", "centre"), ("ask2-l", "ask2-r")))
    with pytest.raises(ValueError, match="'P2' belongs to player 2 at one history and to player 1"):
        game(ask2=Decision(1, "P2", ("left", "right"), ("ask2-l", "ask2-r")))
    with pytest.raises(ValueError, match="sum to 0.9"):
        game(**{"in": Chance(("now", "later"), (0.3, 0.6), ("ask", "wait"))})
    with pytest.raises(ValueError, match="not a finite number"):
        game(**{"ask-l": Terminal(float("nan"))})
    with pytest.raises(ValueError, match="player at out must be 1 or 2"):
        game(out=Decision(3, "X", ("a",), ("ask-l",)))


def test_imperfect_recall_is_named():
    """Player 1 forgets its own first move: both second-move histories in one information set."""
    states = {
        "root": Decision(1, "first", ("l", "r"), ("L", "R")),
        "L": Decision(1, "second", ("a", "b"), ("t1", "t2")),
        "R": Decision(1, "second", ("a", "b"), ("t2", "t1")),
        "t1": Terminal(1.0),
        "t2": Terminal(-1.0),
    }
    with pytest.raises(ValueError, match="'second' breaks perfect recall: player 1"):
        build_tree_game("forgetful", "root", _table_game(states))


def test_information_sets_that_straddle_each_other_get_exact_best_responses():
    """Chance picks who moves first and neither sees the other's move nor the order: no single depth fits both
    players' information sets, and each player's best response is resolved by its own levels."""
    states = {
        "root": Chance(("1 first", "2 first"), (0.5, 0.5), ("a", "b")),
        "a": Decision(1, "P1", ("x", "y"), ("a2", "a2")),
        "a2": Decision(2, "P2", ("x", "y"), ("end", "end")),
        "b": Decision(2, "P2", ("x", "y"), ("b2", "b2")),
        "b2": Decision(1, "P1", ("x", "y"), ("end", "end")),
        "end": Terminal(0.0),
    }
    game = build_tree_game("orders", "root", _table_game(states))
    rng = np.random.default_rng(5)
    for _ in range(5):
        policy = rng.dirichlet(np.ones(2), size=2)
        assert rmcore.nash_conv(game, policy) == pytest.approx(_brute_force_nash_conv(states, game, policy))


def test_size_cap():
    with pytest.raises(ValueError, match="more than 3 nodes"):
        build_tree_game("uneven", "root", _table_game(UNEVEN), max_nodes=3)
