"""CFRSolver on Kuhn poker against OpenSpiel's own CFRSolver and CFRPlusSolver, iteration by iteration."""

import os

import pytest

import rmcore

if os.environ.get("CI"):
    import pyspiel  # noqa: F401  (CI installs open_spiel from requirements-dev.txt: a missing one is a failure)
pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("variant,solver_class", [("cfr", cfr.CFRSolver), ("cfr+", cfr.CFRPlusSolver)])
def test_exploitability_equals_openspiel_after_every_iteration(variant, solver_class):
    game = pyspiel.load_game("kuhn_poker")
    theirs, ours = solver_class(game), rmcore.CFRSolver(rmcore.KUHN, variant, max_points=0)
    for t in range(1, 501):
        theirs.evaluate_and_update_policy()
        ours.run(1)
        if t <= 150 or t % 50 == 0:
            expected = exploitability.exploitability(game, theirs.average_policy())
            assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-9), f"iteration {t}"
    # The average policies agree too, information set by information set.
    table = theirs.average_policy()
    for state_string, probabilities in zip(table.state_lookup, table.action_probability_array):
        infoset = "JQK"[int(state_string[0])] + state_string[1:]  # OpenSpiel writes the card as 0, 1, 2
        assert ours.average_policy()[infoset] == pytest.approx(list(probabilities), abs=1e-9)


def openspiel_names(game, rules) -> dict:
    """OpenSpiel's information-state string -> our information set's name, by walking both games together."""
    letters = "fcr" if isinstance(rules, rmcore.LeducRules) else "pb"
    names = {}

    def walk(state, history, deal):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for card, _ in state.chance_outcomes():
                dealing = len(deal) < 2  # the private cards, then (Leduc) the public one
                walk(
                    state.child(card), history if dealing else rules.after(history, str(card)), deal + (card,) * dealing
                )
            return
        names[state.information_state_string()] = rules.infoset(history, deal)
        for action in state.legal_actions():
            walk(state.child(action), rules.after(history, letters[action]), deal)

    walk(game.new_initial_state(), "", ())
    return names


@pytest.mark.slow
@pytest.mark.parametrize("game_name", ["leduc_poker", "kuhn_poker"])
@pytest.mark.parametrize("variant,solver_class", [("cfr", pyspiel.CFRSolver), ("cfr+", pyspiel.CFRPlusSolver)])
def test_equals_openspiels_cpp_solver_after_every_iteration_and_bit_for_bit(game_name, variant, solver_class):
    """OpenSpiel's C++ CFRSolver / CFRPlusSolver: the exploitability of the average policy (by OpenSpiel's C++
    exploitability) after every iteration up to 100 and at 500, and the average policy itself, bit for bit at 500:
    the kernels add the regrets history by history in OpenSpiel's order, with its chance probabilities."""
    game = pyspiel.load_game(game_name)
    ours_game = rmcore.leduc_poker() if game_name == "leduc_poker" else rmcore.KUHN
    theirs, ours = solver_class(game), rmcore.CFRSolver(ours_game, variant, max_points=0)
    for t in range(1, 501):
        theirs.evaluate_and_update_policy()
        ours.run(1)
        if t <= 100 or t == 500:
            expected = pyspiel.exploitability(game, theirs.average_policy())
            assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-9), f"iteration {t}"
    names, table, average = openspiel_names(game, ours_game.rules), theirs.average_policy(), ours.average_policy()
    assert len(names) == len(ours_game.infosets)
    for state_string, name in names.items():
        assert average[name].tolist() == [p for _, p in table.get_state_policy(state_string)], name
