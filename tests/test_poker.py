"""The small-poker tree builder: tree facts for every game, classic Kuhn equal to a hand-built reference bit for bit,
the variants against the slow reference CFR on the rules, and Leduc's rules against OpenSpiel's ``leduc_poker`` history
by history."""

import itertools
import os

import numpy as np
import pytest

import rmcore
from rmcore.trees import poker
from rmcore.trees.kuhn import INFOSETS

from . import naive_rules_cfr


def hand_built_kuhn():
    """Kuhn poker written out by hand from Kuhn's rules alone, without the builder, node by node by label
    ``(card 1, card 2, history)``: ``{label: (player, information set, payoff, children's labels)}``."""
    terminal = {"pp", "bp", "bb", "pbp", "pbb"}
    nodes = {}
    for card_1, card_2 in itertools.permutations(range(3), 2):
        frontier = [""]
        while frontier:
            for h in frontier:
                if h in terminal:
                    showdown = 1.0 if card_1 > card_2 else -1.0
                    payoff = {"pp": showdown, "bp": 1.0, "pbp": -1.0, "bb": 2.0 * showdown, "pbb": 2.0 * showdown}[h]
                    nodes[(card_1, card_2, h)] = (-1, None, payoff, ())
                else:
                    seen = "JQK"[(card_1, card_2)[len(h) % 2]]
                    kids = ((card_1, card_2, h + "p"), (card_1, card_2, h + "b"))
                    nodes[(card_1, card_2, h)] = (len(h) % 2, seen + h, 0.0, kids)
            frontier = [h + a for h in frontier if h not in terminal for a in "pb"]
    return nodes


def test_the_builders_kuhn_is_the_hand_built_kuhn_node_for_node():
    game, by_hand = poker.kuhn_poker(3, 1.0), hand_built_kuhn()
    tree = game.tree
    assert game is rmcore.KUHN and game.infosets == INFOSETS and set(game.node_labels) == set(by_hand)
    for k, label in enumerate(game.node_labels):
        player, infoset, payoff, kids = by_hand[label]
        assert tree.player[k] == player and tree.payoff[k] == payoff, label
        assert (game.infosets[tree.infoset[k]] if infoset else None) == infoset, label
        below = tree.children[tree.child_start[k] : tree.child_start[k + 1]]
        assert tuple(game.node_labels[c] for c in below) == kids, label
    assert [game.node_labels[r] for r in tree.deal_root] == [(a, b, "") for a, b in itertools.permutations(range(3), 2)]
    assert tree.deal_probability.tolist() == [1 / 6] * 6 and tree.num_actions.tolist() == [2] * 12
    assert [len(game.node_labels[k][2]) for k in range(len(game.node_labels))] == tree.depth.tolist()


def test_the_layout_puts_each_information_sets_histories_in_one_block_in_deal_order():
    """What makes CFR's arithmetic OpenSpiel's to the last bit: an information set's regret increments are added in
    the order OpenSpiel walks its histories (deal by deal), which the block layout keeps."""
    for game in (rmcore.KUHN, poker.leduc_poker(), poker.kuhn_poker(5, 2.0)):
        tree = game.tree
        block_of = np.repeat(np.arange(tree.block_kind.shape[0]), np.diff(tree.block_start))
        decisions = np.flatnonzero(tree.player >= 0)
        for info in range(len(game.infosets)):
            nodes = decisions[tree.infoset[decisions] == info]
            assert len(set(block_of[nodes])) == 1
            deals = [game.node_labels[n][:2] for n in nodes]  # (the deal's cards; Leduc's public card follows)
            assert deals == sorted(deals)


@pytest.mark.parametrize("cards,bet", [(3, 1.0), (4, 2.0), (7, 0.5), (13, 4.0)])
def test_kuhn_on_sliders_tree_facts(cards, bet):
    game = poker.kuhn_poker(cards, bet)
    tree = game.tree
    assert len(game.infosets) == 4 * cards and tree.deal_root.shape[0] == cards * (cards - 1)
    assert (tree.player >= 0).sum() == 4 * cards * (cards - 1) and (tree.player < 0).sum() == 5 * cards * (cards - 1)
    for k in range(len(game.infosets)):  # each information set holds the deals that share the actor's card
        assert (tree.infoset == k).sum() == cards - 1
    labels = {label: k for k, label in enumerate(game.node_labels)}
    top, bottom = cards - 1, 0
    assert tree.payoff[labels[(top, bottom, "bb")]] == 1 + bet and tree.payoff[labels[(bottom, top, "pbb")]] == -(
        1 + bet
    )
    assert tree.payoff[labels[(bottom, top, "bp")]] == 1 and tree.payoff[labels[(top, bottom, "pbp")]] == -1
    assert tree.payoff[labels[(bottom, top, "pp")]] == -1


def test_leduc_tree_facts():
    game = poker.leduc_poker()
    tree = game.tree
    assert len(game.infosets) == 936 and tree.deal_root.shape[0] == 30
    assert tree.deal_probability.tolist() == [(1 / 6) * (1 / 5)] * 30  # as a dealer multiplies (and OpenSpiel)
    assert tree.player.shape[0] == 30 * 315
    # A betting round: 6 decision histories, 4 folds, 5 ways on; after each of the 5, chance deals one of 4 public
    # cards.
    decisions, chance = (tree.player >= 0).sum(), (tree.player == rmcore.trees.game.CHANCE_NODE).sum()
    assert (decisions, chance, (tree.player == -1).sum()) == (30 * (6 + 5 * 4 * 6), 30 * 5, 30 * (4 + 5 * 4 * (4 + 5)))
    chance_nodes = np.flatnonzero(tree.player == rmcore.trees.game.CHANCE_NODE)
    assert (np.diff(tree.child_start)[chance_nodes] == 4).all()
    outcomes = tree.chance[tree.child_start[chance_nodes][:, None] + np.arange(4)]
    assert np.array_equal(outcomes, np.full((chance_nodes.size, 4), 0.25))
    first_round = [k for k, name in enumerate(game.infosets) if "/" not in name]
    assert len(first_round) == 36 and sorted(set(tree.num_actions.tolist())) == [2, 3]
    assert game.actions[game.infosets.index("J♠")] == ("check", "bet")
    assert game.actions[game.infosets.index("K♥ rr")] == ("fold", "call")
    assert game.actions[game.infosets.index("Q♠ K♥ crc/r")] == ("fold", "call", "raise")
    # A first-round information set holds the 5 cards the opponent may have; a second-round one the 4 left.
    sizes = np.bincount(tree.infoset[tree.player >= 0])
    assert set(sizes[first_round].tolist()) == {5} and set(np.delete(sizes, first_round).tolist()) == {4}


def test_leduc_payoffs_by_hand():
    rules = poker.LeducRules()
    assert rules.payoff("rf", (0, 2)) == 1.0  # player 2 folds to a bet of 2: player 1 wins the ante
    assert rules.payoff("rrf", (0, 2)) == -3.0  # player 1 folds to a re-raise, having put in 1 + 2
    assert rules.payoff("rc/0rc", (4, 2)) == 7.0  # K beats Q: 1 + 2 + 4
    assert rules.payoff("rc/3rc", (4, 2)) == -7.0  # Q pairs the public Q
    assert rules.payoff("cc/0cc", (4, 5)) == 0.0  # K and K split
    assert rules.payoff("crrc/0crrc", (1, 3)) == 1 + 4 + 8  # J pairs: 1 + (2 + 2) + (4 + 4)
    assert rules.player("rc/") == rmcore.trees.game.CHANCE_NODE and rules.after("rr", "c") == "rrc/"


def test_leduc_is_openspiels_leduc_poker_history_by_history():
    """Every deal, every history: the player to act, the legal actions (fold, call, raise = OpenSpiel's 0, 1, 2), the
    public card's outcomes and their probabilities, the payoffs, and one information set of ours for exactly one of
    OpenSpiel's information-state strings."""
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401  (CI installs open_spiel: a missing one is a failure)
    pyspiel = pytest.importorskip("pyspiel")
    game, rules = pyspiel.load_game("leduc_poker"), poker.LeducRules()
    ours_to_theirs, theirs_to_ours, terminals = {}, {}, 0
    for deal in rules.deals():
        stack = [("", _dealt(game, deal))]
        while stack:
            history, state = stack.pop()
            if state.is_chance_node():
                assert rules.player(history) == rmcore.trees.game.CHANCE_NODE
                outcomes = [(int(card), p) for card, p in rules.chance(history, deal)]
                assert outcomes == state.chance_outcomes(), (deal, history)
                stack += [(rules.after(history, str(card)), state.child(card)) for card, _ in outcomes]
                continue
            if state.is_terminal():
                assert rules.player(history) == -1 and rules.payoff(history, deal) == state.returns()[0], (
                    deal,
                    history,
                )
                terminals += 1
                continue
            player = state.current_player()
            assert rules.player(history) == player, (deal, history)
            assert ["fcr".index(a) for a in rules.actions(history)] == state.legal_actions(), (deal, history)
            ours, theirs = rules.infoset(history, deal), state.information_state_string(player)
            assert ours_to_theirs.setdefault(ours, theirs) == theirs and theirs_to_ours.setdefault(theirs, ours) == ours
            stack += [(rules.after(history, "fcr"[action]), state.child(action)) for action in state.legal_actions()]
    assert len(ours_to_theirs) == 936 and terminals == 30 * (4 + 5 * 4 * 9)


def _dealt(game, cards):
    state = game.new_initial_state()
    for card in cards:
        state.apply_action(card)
    return state


GAMES = {"kuhn 4 cards bet 2": poker.KuhnRules(4, 2.0), "kuhn 3 cards bet 0.5": poker.KuhnRules(3, 0.5)}


@pytest.mark.parametrize("rules", GAMES.values(), ids=GAMES.keys())
@pytest.mark.parametrize("variant", ["cfr", "cfr+", "linear", "discounted"])
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_variants_match_the_reference_cfr_on_the_rules(rules, variant, updates):
    game = poker.poker_tree(rules)
    ours = rmcore.CFRSolver(game, variant, updates, max_points=0)
    reference = naive_rules_cfr.RulesCFR(rules, variant, alternating=updates == "alternating")
    for _ in range(20):
        ours.run(1)
        reference.iterate()
    average, expected = ours.average_policy(), reference.average()
    for k, name in enumerate(game.infosets):
        np.testing.assert_allclose(average[name], expected[name], atol=1e-12, err_msg=name)
        np.testing.assert_allclose(
            ours.cumulative_regrets()[k, : len(game.actions[k])], reference.regrets[name], atol=1e-12
        )


@pytest.mark.parametrize("variant", ["cfr", "cfr+"])
def test_leduc_variants_match_the_reference_cfr_for_a_few_iterations(variant):
    rules = poker.LeducRules()
    ours = rmcore.CFRSolver(poker.leduc_poker(), variant, max_points=0)
    reference = naive_rules_cfr.RulesCFR(rules, variant)
    for _ in range(3):
        ours.run(1)
        reference.iterate()
    average, expected = ours.average_policy(), reference.average()
    for name in poker.leduc_poker().infosets:
        np.testing.assert_allclose(average[name], expected.get(name, average[name]), atol=1e-12, err_msg=name)
    assert len(expected) == 936


@pytest.mark.parametrize("cards,bet", [(3, 1.0), (4, 1.0), (3, 2.5)])
def test_nash_conv_matches_a_brute_force_best_response(cards, bet):
    rules, game = poker.KuhnRules(cards, bet), poker.kuhn_poker(cards, bet)
    rng = np.random.default_rng(cards)
    policy = {name: list(rng.dirichlet([1, 1])) for name in game.infosets}
    brute = sum(naive_rules_cfr.best_response_value(rules, policy, player) for player in (0, 1))
    assert rmcore.nash_conv(game, policy) == pytest.approx(brute, abs=1e-12)


def test_every_variant_runs_on_leduc_and_learns():
    for variant in ("cfr", "cfr+", "linear", "discounted", "chance-sampling"):
        solver = rmcore.CFRSolver(poker.leduc_poker(), variant, seed=1, max_points=8)
        solver.run(20 if variant != "chance-sampling" else 2_000)
        early = solver.metrics().exploitability
        solver.run(180 if variant != "chance-sampling" else 18_000)
        assert solver.metrics().exploitability < min(early / 3, 0.1), variant
        assert len(solver.history()) >= 2


def test_bad_rules_are_refused():
    for cards in (2, 14, 3.5, True):
        with pytest.raises(ValueError, match="cards"):
            poker.KuhnRules(cards, 1.0)
    for bet in (0.4, 4.5, float("nan"), "1"):
        with pytest.raises(ValueError, match="bet"):
            poker.KuhnRules(3, bet)


def test_a_policy_with_weight_on_an_illegal_action_is_refused():
    game = poker.leduc_poker()
    policy = rmcore.CFRSolver(game).current_policy().to_dict()
    policy["J♠"] = [0.5, 0.5, 0.0]
    with pytest.raises(ValueError, match="2 actions"):
        rmcore.nash_conv(game, policy)
    array = np.array(rmcore.CFRSolver(game).current_policy().probabilities)
    array[0] = [0.5, 0.25, 0.25]
    with pytest.raises(ValueError, match="only 2 actions"):
        rmcore.nash_conv(game, array)
