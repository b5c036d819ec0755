"""Liar's dice and Goofspiel, built by rmcore, against OpenSpiel's games: trees, information sets, payoffs, CFR.

Both trees are walked together by action sequence: every OpenSpiel history must be a node of ours (or one of the
chance nodes above our deals) of the same kind, with the same actions and payoff, and the information sets must
correspond one to one.
"""

import os
from fractions import Fraction

import pytest

import rmcore

if os.environ.get("CI"):
    import pyspiel  # noqa: F401  (CI installs open_spiel from requirements-dev.txt: a missing one is a failure)
pyspiel = pytest.importorskip("pyspiel")


def openspiel_game(game: rmcore.TreeGame):
    """OpenSpiel's game that ``game`` reproduces, and how OpenSpiel's action names read in ours."""
    if isinstance(game.rules, rmcore.LiarsDiceRules):
        loaded = pyspiel.load_game(f"liars_dice(dice_sides={game.rules.sides})")
        return loaded, lambda name: name.replace("Roll", "roll").replace("Liar", "liar")
    loaded = pyspiel.load_game(f"goofspiel(num_cards={game.rules.cards},imp_info=True,points_order=descending)")
    return pyspiel.convert_to_turn_based(loaded), lambda name: "bid " + name.split(": ")[1]


def walk_together(game: rmcore.TreeGame) -> dict:
    """Walk OpenSpiel's tree and ours together; return OpenSpiel's number of histories and the information sets'
    correspondence (ours -> OpenSpiel's), checking each history on the way."""
    theirs, translate = openspiel_game(game)
    tree = game.tree
    node = {label: k for k, label in enumerate(game.node_labels)}
    deal_prefixes = {" ".join(outcome for outcome, _ in path[:k]) for path in game.deal_paths for k in range(len(path))}
    ours_to_theirs, theirs_to_ours = {}, {}
    histories = 0
    stack = [(theirs.new_initial_state(), ())]
    while stack:
        state, path = stack.pop()
        histories += 1
        label = " ".join(path)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            names = [translate(state.action_to_string(a)) for a, _ in outcomes]
            if label in deal_prefixes and label not in node:  # a chance node above the deals: rolled into them
                pass
            else:
                k = node[label]
                assert tree.player[k] == rmcore.trees.game.CHANCE_NODE, label
                probabilities = tree.chance[tree.child_start[k] : tree.child_start[k + 1]]
                assert probabilities.tolist() == [p for _, p in outcomes], label
            stack.extend((state.child(a), path + (name,)) for (a, _), name in zip(outcomes, names))
            continue
        k = node[label]
        if state.is_terminal():
            assert tree.player[k] == -1 and tree.payoff[k] == state.returns()[0], label
            continue
        player = state.current_player()
        assert tree.player[k] == player, label
        ours, info = game.infosets[tree.infoset[k]], state.information_state_string()
        assert ours_to_theirs.setdefault(ours, info) == info, f"{ours!r} meets two of OpenSpiel's information sets"
        assert theirs_to_ours.setdefault(info, ours) == ours, f"{info!r} meets two of ours"
        legal = state.legal_actions()
        names = [translate(state.action_to_string(player, a)) for a in legal]
        assert list(game.actions[tree.infoset[k]]) == names, label
        stack.extend((state.child(a), path + (name,)) for a, name in zip(legal, names))
    assert len(ours_to_theirs) == len(game.infosets), "an information set of ours that OpenSpiel never reaches"
    return {"histories": histories, "infosets": ours_to_theirs}


def histories(game: rmcore.TreeGame) -> int:
    """Our histories, counting the chance nodes above the deals as OpenSpiel does."""
    prefixes = {path[:k] for path in game.deal_paths for k in range(len(path))}
    return game.tree.player.shape[0] + len(prefixes)


@pytest.mark.parametrize(
    "game",
    [
        rmcore.trees.liars_dice_game(2),
        rmcore.trees.liars_dice_game(3),
        rmcore.trees.liars_dice_game(4),
        rmcore.trees.goofspiel_game(3),
        rmcore.trees.goofspiel_game(4),
    ],
)
def test_same_tree_information_sets_and_payoffs_as_openspiel(game):
    walked = walk_together(game)
    assert histories(game) == walked["histories"]


@pytest.mark.parametrize(
    "build,size,histories_,infosets",
    [
        (lambda: rmcore.trees.liars_dice_game(3), 3, 1_147, 192),
        (lambda: rmcore.trees.liars_dice_game(4), 4, 8_181, 1_024),
        (lambda: rmcore.trees.liars_dice_game(5), 5, 51_181, 5_120),
        (lambda: rmcore.trees.goofspiel_game(3), 3, 67, 16),
        (lambda: rmcore.trees.goofspiel_game(4), 4, 1_077, 162),
        (lambda: rmcore.trees.goofspiel_game(5), 5, 26_931, 2_124),
    ],
)
def test_sizes_of_the_reference(build, size, histories_, infosets):
    game = build()
    assert (histories(game), len(game.infosets)) == (histories_, infosets)


@pytest.mark.slow
def test_six_sided_liars_dice_has_openspiels_size():
    rmcore.trees.liars_dice_game.cache_clear()
    game = rmcore.trees.liars_dice_game(6)
    assert (histories(game), len(game.infosets)) == (294_883, 24_576)
    assert game.name == "Liar's dice, 6 sides" and game.rules == rmcore.LiarsDiceRules(6)
    assert int((game.tree.player == -1).sum()) == 147_420


def test_the_highest_face_is_wild_and_the_bidder_wins_ties_of_the_count():
    rules = rmcore.LiarsDiceRules(6)
    two_threes = 1 * 6 + 2  # "2-3": the bid ids are quantity-major (OpenSpiel's 8)
    assert rules.bid_name(two_threes) == "2-3" and rules.bid_name(rules.liar) == "liar"
    assert rules.bidder_wins(two_threes, (3, 6)) and rules.bidder_wins(two_threes, (6, 6))
    assert not rules.bidder_wins(two_threes, (3, 5))
    assert rules.payoff((3, 6), two_threes, 2) == -1.0 and rules.payoff((3, 5), two_threes, 2) == 1.0


@pytest.mark.parametrize(
    "build,value",
    [
        (lambda: rmcore.trees.liars_dice_game(3), Fraction(1, 9)),
        (lambda: rmcore.trees.liars_dice_game(4), Fraction(1, 16)),
    ]
    + [(lambda c=c: rmcore.trees.goofspiel_game(c), Fraction(0)) for c in (3, 4)],
)
def test_exact_values_by_the_sequence_form(build, value):
    assert rmcore.solve_exactly(build()).game_value == pytest.approx(float(value), abs=1e-9)


@pytest.mark.parametrize("build", [lambda: rmcore.trees.liars_dice_game(3), lambda: rmcore.trees.goofspiel_game(4)])
def test_cfr_curve_equals_openspiels_cpp_solver(build):
    game = build()
    theirs_game, _ = openspiel_game(game)
    theirs, ours = pyspiel.CFRSolver(theirs_game), rmcore.CFRSolver(game, "cfr", max_points=0)
    for t in range(1, 31):
        theirs.evaluate_and_update_policy()
        ours.run(1)
        expected = pyspiel.exploitability(theirs_game, theirs.average_policy())
        assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-12), f"iteration {t}"


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: rmcore.LiarsDiceRules(1), "Liar's dice takes dice of 2 to 6 sides; got 1"),
        (lambda: rmcore.LiarsDiceRules(7), "2 to 6 sides; got 7"),
        (lambda: rmcore.LiarsDiceRules(3.0), "2 to 6 sides; got 3.0"),
        (lambda: rmcore.LiarsDiceRules(True), "2 to 6 sides; got True"),
        (lambda: rmcore.trees.liars_dice_game(9), "2 to 6 sides; got 9"),
        (lambda: rmcore.GoofspielRules(2), "Goofspiel takes 3 to 5 cards; got 2"),
        (lambda: rmcore.GoofspielRules(6), "3 to 5 cards; got 6"),
        (lambda: rmcore.trees.goofspiel_game("4"), "3 to 5 cards; got '4'"),
    ],
)
def test_rules_refuse_what_they_cannot_build(make, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make()


@pytest.mark.parametrize("name,parameters", [("liars_dice", {"sides": 4}), ("goofspiel", {"cards": 3})])
def test_the_catalogue_builds_them_and_reads_their_setting_back(name, parameters):
    game = rmcore.tree_game(name, **parameters)
    assert rmcore.tree_game_setting(game) == (name, parameters)
    assert rmcore.tree_game(name, **parameters) is game  # built once per setting
    default = rmcore.tree_game(name)
    assert rmcore.tree_game(name, **rmcore.tree_game_setting(default)[1]) is default


def test_the_rules_name_every_information_set_the_builder_names():
    """The rules' own ``infoset`` (what a player knows, from the whole history) agrees with the names the builder
    carries along, at every decision."""
    game = rmcore.trees.liars_dice_game(3)
    rules, tree = game.rules, game.tree
    bid_of = {rules.bid_name(b): b for b in range(rules.liar)}
    for k in range(tree.player.shape[0]):
        if tree.player[k] >= 0:
            words = game.node_labels[k].split(" ")
            dice = (int(words[1]), int(words[3]))  # "roll 3 roll 1 1-2 2-1"
            assert rules.infoset(dice, tuple(bid_of[w] for w in words[4:])) == game.infosets[tree.infoset[k]]
    game = rmcore.trees.goofspiel_game(4)
    rules, tree = game.rules, game.tree
    for k in range(tree.player.shape[0]):
        if tree.player[k] >= 0:
            cards = [int(w) for w in game.node_labels[k].split(" ")[1::2]]  # "bid 4 bid 2 ..."
            bids = (tuple(cards[0::2]), tuple(cards[1::2]))
            assert rules.infoset(int(tree.player[k]) + 1, bids) == game.infosets[tree.infoset[k]]
