"""rmcore.from_openspiel: OpenSpiel's games as TreeGames, whose CFR equals OpenSpiel's own CFRSolver."""

import os

import pytest

import rmcore

if os.environ.get("CI"):
    import pyspiel  # noqa: F401  (CI installs open_spiel from requirements-dev.txt: a missing one is a failure)
pyspiel = pytest.importorskip("pyspiel")

GOOFSPIEL_4 = "goofspiel(num_cards=4,imp_info=True,points_order=descending)"


@pytest.mark.parametrize(
    "name,histories,infosets",
    [
        ("kuhn_poker", 58, 12),
        ("leduc_poker", 9457, 936),
        ("liars_dice(dice_sides=3)", 1147, 192),
        (GOOFSPIEL_4, 1077, 162),
    ],
)
def test_sizes_are_openspiels(name, histories, infosets):
    """OpenSpiel counts the chance nodes above the first decision as histories; the tree keeps them as deals."""
    game = rmcore.from_openspiel(pyspiel.load_game(name))
    tree = game.tree
    chance_above = len({step for path in game.deal_paths for step in _prefixes(path)})
    assert tree.player.shape[0] + chance_above == histories
    assert len(game.infosets) == infosets


def _prefixes(path):
    return [tuple(path[:k]) for k in range(len(path))]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "liars_dice(dice_sides=3)", GOOFSPIEL_4])
@pytest.mark.parametrize("variant,solver_class", [("cfr", "CFRSolver"), ("cfr+", "CFRPlusSolver")])
def test_cfr_curve_equals_openspiels_cpp_solver(name, variant, solver_class):
    """The exploitability of the average policy after each of the first 40 iterations, to 1e-12."""
    game = pyspiel.load_game(name)
    ours = rmcore.CFRSolver(rmcore.from_openspiel(game), variant, max_points=0)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    theirs = getattr(pyspiel, solver_class)(game)
    for t in range(1, 41):
        theirs.evaluate_and_update_policy()
        ours.run(1)
        expected = pyspiel.exploitability(game, theirs.average_policy())
        assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-12), f"iteration {t}"


def test_the_policy_rows_are_openspiels_information_states():
    game = pyspiel.load_game("kuhn_poker")
    ours = rmcore.from_openspiel(game)
    state = game.new_initial_state().child(0).child(1)  # player 1 holds J, player 2 Q
    assert state.information_state_string() in ours.infosets
    assert ours.actions[ours.infosets.index(state.information_state_string())] == ("Pass", "Bet")


def test_refuses_what_it_cannot_hold():
    dilemma = rmcore.from_openspiel(pyspiel.load_game("matrix_pd"))  # general-sum: every player's payoff kept
    assert dilemma.players == 2 and not dilemma.is_zero_sum
    with pytest.raises(ValueError, match="OpenSpiel game"):
        rmcore.from_openspiel("kuhn_poker")
    with pytest.raises(ValueError, match="more than 100 nodes"):
        rmcore.from_openspiel(pyspiel.load_game("leduc_poker"), max_nodes=100)


def test_the_library_never_imports_openspiel():
    """OpenSpiel stays optional: importing rmcore (and converting nothing) loads no pyspiel."""
    import subprocess
    import sys

    code = "import sys, rmcore; rmcore.tree_game('kuhn'); print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize(
    "name,words",
    [
        ("backgammon", "does not give its players' information states"),
        ("chess", "plays are too long: the histories of its first"),
        ("go(board_size=5)", "plays are too long"),
    ],
)
def test_games_that_cannot_be_trees_here_are_refused_in_a_sentence_before_memory_grows(name, words):
    """Backgammon raised SpielError; chess and go grew memory with the square of the nodes built (3.2 GB at 4,000 of
    chess): the walk counts what its states hold and stops at the cap."""
    with pytest.raises(ValueError, match=words):
        rmcore.from_openspiel(pyspiel.load_game(name))


def test_the_node_cap_counts_the_states_as_they_are_created():
    with pytest.raises(ValueError, match="Tic Tac Toe has more than 10,000 nodes"):
        rmcore.from_openspiel(pyspiel.load_game("tic_tac_toe"), max_nodes=10_000)
    leduc = pyspiel.load_game("leduc_poker")  # 9,457 histories: 9,450 tree nodes and the deal's 7 chance nodes
    assert rmcore.from_openspiel(leduc, max_nodes=9_457).tree.player.shape[0] == 9_450
    with pytest.raises(ValueError, match="Leduc Poker has more than 9,456 nodes"):
        rmcore.from_openspiel(leduc, max_nodes=9_456)
