"""KuhnCFR against OpenSpiel's own CFRSolver and CFRPlusSolver, iteration by iteration."""

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
    theirs, ours = solver_class(game), rmcore.KuhnCFR(variant, max_points=0)
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
