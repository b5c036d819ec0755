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
    alpha = parameters.get("alpha", rmcore.trees.cfr.MMD_DEFAULT_ALPHA)
    theirs = mmd_dilated.MMDDilatedEnt(game, alpha, parameters.get("eta"))
    assert ours.eta == pytest.approx(theirs.stepsize, rel=1e-14)
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
            worst["nash_conv"], abs(rmcore.nash_conv(tree_game, ours.current_policy()) - their_nash_conv[-1])
        )
    # The history's curve of the current policy (the checkpoints it keeps) is the same.
    history = ours.history()
    theirs_then = np.array(their_nash_conv)[history.iterations - 1]
    worst["history"] = np.abs(history.metrics["nash_conv_current"] - theirs_then).max()
    return worst


@pytest.mark.parametrize("parameters", [{"alpha": 0.05}, {"alpha": 0.5, "eta": 0.3}])
def test_mmd_is_openspiels_mmd_dilated_ent_on_kuhn_after_every_iteration(parameters):
    worst = _compare("kuhn_poker", 50, **parameters)
    assert max(worst.values()) < 1e-10, worst


@pytest.mark.slow
def test_mmd_is_openspiels_mmd_dilated_ent_on_leduc():
    worst = _compare("leduc_poker", 20, alpha=0.1)
    assert max(worst.values()) < 1e-10, worst


def test_the_last_iterate_converges_on_kuhn():
    """The current policy's exploitability falls from the uniform start's, and the iterate settles (to the QRE):
    what CFR's last iterate does not do."""
    solver = rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.05, history_share=None)  # (a row at 1, 10 and 100)
    solver.run(1_000)
    settled = solver.current_policy().probabilities.copy()
    solver.run(1_000)
    history = solver.history()
    current = dict(zip(history.iterations.tolist(), history.metrics["nash_conv_current"] / 2))  # (exploitability)
    assert current[1] > 0.4 and current[10] < 0.25 and current[100] < 0.05 and current[2_000] < 0.05
    assert np.abs(solver.current_policy().probabilities - settled).max() < 1e-9
    # A smaller temperature: a QRE nearer to Nash, reached more slowly; the curve still goes down all along.
    solver = rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.01, history_share=None)
    solver.run(3_000)
    history = solver.history()
    current = dict(zip(history.iterations.tolist(), history.metrics["nash_conv_current"] / 2))  # (exploitability)
    assert current[1] > current[100] > current[1_000] > current[3_000] and current[3_000] < 0.015


def test_any_split_of_a_run_gives_the_same_numbers_and_a_fixed_opponent_stays_fixed():
    whole, split = (rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.1) for _ in range(2))
    whole.run(20)
    split.run(7)
    split.run(13)
    assert np.array_equal(whole.current_policy().probabilities, split.current_policy().probabilities)
    assert np.array_equal(whole.average_policy().probabilities, split.average_policy().probabilities)
    # Against a fixed opponent only the learner moves; its gain from a best response falls.
    opponent = rmcore.fixed_strategy(rmcore.KUHN, 2, rmcore.equilibrium_policy(0.0), {"Jp": (3, 1)})
    solver = rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.01, opponent=opponent, history_share=None)
    solver.run(300)
    fixed = rmcore.KUHN.tree.infoset_player == 1
    assert np.array_equal(solver.current_policy().probabilities[fixed], np.array(list(opponent.values())))
    history = solver.history()
    assert history.metrics["br_gain_1"][0] > 2 * history.metrics["br_gain_1"][-1]  # (the average's: it moves slowly)


def test_the_parameters_and_the_update_order():
    solver = rmcore.CFRSolver(rmcore.KUHN, "mmd")
    assert solver.variant.updates == "simultaneous" and solver.variant.parameters == {"alpha": 0.05, "eta": None}
    assert solver.eta == pytest.approx(0.05 * 9)  # alpha / max|A|^2, A's largest entry 2 / 6
    assert rmcore.CFRSolver(rmcore.KUHN, "mmd", eta=0.2).eta == 0.2
    assert (
        rmcore.CFRVariant("mmd")
        == rmcore.CFRVariant.parse("mmd/simultaneous")
        == rmcore.CFRVariant("mmd", mmd=(0.05, None))
    )
    assert rmcore.CFRVariant("mmd").label == "mmd · simultaneous"
    assert rmcore.CFRVariant("mmd", mmd=(0.1, 0.5)).label == "mmd(α=0.1, η=0.5) · simultaneous"
    assert rmcore.CFRVariant("cfr").updates == "alternating"
    with pytest.raises(ValueError, match="no 'alternating' form"):
        rmcore.CFRSolver(rmcore.KUHN, "mmd", "alternating")
    for bad in (0, -1, float("inf"), float("nan"), 2e6, True, "1"):
        with pytest.raises(ValueError, match="alpha"):
            rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=bad)
        with pytest.raises(ValueError, match="eta"):
            rmcore.CFRSolver(rmcore.KUHN, "mmd", eta=bad)
    with pytest.raises(ValueError, match="eta applies only to the 'mmd' variant"):
        rmcore.CFRSolver(rmcore.KUHN, "cfr", eta=0.1)
    with pytest.raises(ValueError, match="beta applies only to the 'discounted' variant"):
        rmcore.CFRSolver(rmcore.KUHN, "mmd", beta=0.1)
    with pytest.raises(ValueError, match=r"alpha applies only to the 'discounted', 'pdcfr\+', 'dcfr\+' variants"):
        rmcore.CFRSolver(rmcore.KUHN, "cfr+", alpha=0.1)
    replica = rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.2, eta=0.7)
    assert replica.retrace(3) == rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.2, eta=0.7).retrace(3)
