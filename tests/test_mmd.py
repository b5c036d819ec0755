"""Magnetic mirror descent (``CFRSolver(game, "mmd", alpha=...)``) against OpenSpiel's ``MMDDilatedEnt``: the current
policy after every iteration, its exploitability and the average, on Kuhn (and Leduc, slow); the last iterate's
convergence; the parameters and the update order."""

import os

import numpy as np
import pytest

import rmcore

if os.environ.get("CI"):
    import pyspiel  # noqa: F401  (in CI OpenSpiel must be there: a failed import fails instead of skipping)
pyspiel = pytest.importorskip("pyspiel")


def _legal_actions(game) -> dict:
    """Each information-state string's legal actions (OpenSpiel's ids, in the order ``from_openspiel`` keeps)."""
    legal, stack = {}, [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        legal[state.information_state_string()] = state.legal_actions()
        stack.extend(state.child(a) for a in state.legal_actions())
    return legal


def _rows(tree_game, legal, tabular) -> np.ndarray:
    """An OpenSpiel ``TabularPolicy`` as our ``[infoset, action]`` array (infosets named by OpenSpiel's strings)."""
    out = np.zeros((len(tree_game.infosets), max(len(a) for a in tree_game.actions)))
    for k, name in enumerate(tree_game.infosets):
        row = tabular.policy_for_key(name)
        out[k, : len(legal[name])] = [row[a] for a in legal[name]]
    return out


def _compare(name: str, iterations: int, **parameters) -> dict:
    """Largest differences from OpenSpiel's MMDDilatedEnt over ``iterations`` iterations, one at a time."""
    from open_spiel.python.algorithms import exploitability, mmd_dilated

    game = pyspiel.load_game(name)
    tree_game = rmcore.from_openspiel(game)
    legal = _legal_actions(game)
    ours = rmcore.CFRSolver(tree_game, "mmd", **parameters)
    alpha = parameters.get("alpha", rmcore.cfr.MMD_DEFAULT_ALPHA)
    theirs = mmd_dilated.MMDDilatedEnt(game, alpha, parameters.get("stepsize"))
    assert ours.stepsize == pytest.approx(theirs.stepsize, rel=1e-14)
    worst = {"policy": 0.0, "nash_conv": 0.0, "average": 0.0}
    their_nash_conv = []
    for _ in range(iterations):
        # Our average after t iterations averages the policies played, sigma_1 (uniform) .. sigma_t; OpenSpiel's after
        # t - 1 updates averages its initial (uniform) sequences and the t - 1 updated ones: the same iterates.
        average = _rows(tree_game, legal, theirs.get_avg_policies())
        ours.run(1)
        worst["average"] = max(worst["average"], np.abs(ours.average_policy().probabilities - average).max())
        theirs.update_sequences()
        policy = theirs.get_policies()
        worst["policy"] = max(
            worst["policy"], np.abs(ours.current_policy().probabilities - _rows(tree_game, legal, policy)).max()
        )
        their_nash_conv.append(exploitability.nash_conv(game, policy))
        worst["nash_conv"] = max(
            worst["nash_conv"], abs(rmcore.tree_nash_conv(tree_game, ours.current_policy()) - their_nash_conv[-1])
        )
    # The history's curve of the current policy (the checkpoints it keeps) is the same.
    history = ours.history()
    theirs_then = np.array(their_nash_conv)[history.iterations - 1]
    worst["history"] = np.abs(history.metrics["exploitability_current"] * 2.0 - theirs_then).max()
    return worst


@pytest.mark.parametrize("parameters", [{"alpha": 0.05}, {"alpha": 0.5, "stepsize": 0.3}])
def test_mmd_is_openspiels_mmd_dilated_ent_on_kuhn_after_every_iteration(parameters):
    worst = _compare("kuhn_poker", 50, **parameters)
    assert max(worst.values()) < 1e-10, worst


@pytest.mark.slow
def test_mmd_is_openspiels_mmd_dilated_ent_on_leduc():
    worst = _compare("leduc_poker", 20, alpha=0.1)
    assert max(worst.values()) < 1e-10, worst
