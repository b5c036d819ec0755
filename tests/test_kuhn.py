"""CFR on Kuhn poker against the slow reference CFR, brute-force best responses, and the known values."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rmcore
from rmcore.trees.kuhn import INFOSETS, KUHN, equilibrium_policy

from . import known_values, naive_cfr

_TREE, NODE_LABELS = KUHN.tree, KUHN.node_labels
ROOT = Path(__file__).resolve().parent.parent

OPENSPIEL_CFR = {1: 0.458, 2: 0.271, 5: 0.121, 10: 0.0687, 100: 8.23e-3, 1000: 9.38e-4}
OPENSPIEL_CFR_PLUS = {5: 0.0733, 10: 0.0327, 100: 1.19e-3, 1000: 8.74e-5}


def test_tree_facts():
    assert len(INFOSETS) == 12
    assert len(_TREE.deal_root) == 6 and np.allclose(_TREE.deal_probability, 1 / 6)
    decisions = _TREE.player >= 0
    assert decisions.sum() == 6 * 4 and (~decisions).sum() == 6 * 5
    for name in INFOSETS:  # each information set holds the two deals that share the actor's card
        assert (_TREE.infoset == INFOSETS.index(name)).sum() == 2
    payoffs = {(c1, c2, h): _TREE.payoff[k] for k, (c1, c2, h) in enumerate(NODE_LABELS) if _TREE.player[k] < 0}
    assert payoffs[(2, 0, "bb")] == 2 and payoffs[(0, 2, "pbb")] == -2 and payoffs[(0, 2, "bp")] == 1
    assert payoffs[(2, 1, "pbp")] == -1 and payoffs[(0, 1, "pp")] == -1


def test_known_nash_conv_values():
    uniform = {name: [0.5, 0.5] for name in INFOSETS}
    assert rmcore.nash_conv(KUHN, uniform) == pytest.approx(11 / 12, abs=1e-12)
    assert rmcore.nash_conv(KUHN, {name: [1.0, 0.0] for name in INFOSETS}) == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize("alpha", [0.0, 0.1, 0.2, 1 / 3])
def test_the_equilibrium_family_has_nash_conv_zero_and_value_minus_one_eighteenth(alpha):
    policy = equilibrium_policy(alpha)
    assert rmcore.nash_conv(KUHN, policy) == pytest.approx(0.0, abs=1e-12)
    value = sum(naive_cfr.expected(policy, "", cards) for cards in naive_cfr.DEALS) / 6
    assert value == pytest.approx(float(known_values.KUHN_GAME_VALUE), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_best_response_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    policy = {name: list(p) for name, p in zip(INFOSETS, rng.dirichlet([1, 1], size=12))}
    brute = naive_cfr.best_response_value(policy, 0) + naive_cfr.best_response_value(policy, 1)
    assert rmcore.nash_conv(KUHN, policy) == pytest.approx(brute, abs=1e-12)


@pytest.mark.parametrize("variant", ["cfr", "cfr+", "linear", "discounted"])
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_variants_match_the_reference_cfr(variant, updates):
    ours = rmcore.CFRSolver(rmcore.KUHN, variant, updates=updates)
    reference = naive_cfr.NaiveCFR(variant, alternating=updates == "alternating")
    for _ in range(30):
        ours.run(1)
        reference.iterate()
    average, regrets = ours.average_policy(), ours.cumulative_regrets()
    for name in INFOSETS:
        np.testing.assert_allclose(average[name], reference.average()[name], atol=1e-12)
        np.testing.assert_allclose(regrets[INFOSETS.index(name)], reference.regrets[name], atol=1e-12)


@pytest.mark.parametrize("variant,marks", [("cfr", OPENSPIEL_CFR), ("cfr+", OPENSPIEL_CFR_PLUS)])
def test_openspiel_exploitability_values(variant, marks):
    solver = rmcore.CFRSolver(rmcore.KUHN, variant)
    for t, expected in marks.items():
        solver.run(t - solver.iteration)
        assert f"{solver.metrics().exploitability:.3g}" == f"{expected:.3g}"  # REFERENCE.md gives three digits


def test_cfr_exploitability_after_every_iteration_matches_the_reference_to_1e_9():
    ours, reference = rmcore.CFRSolver(rmcore.KUHN, "cfr"), naive_cfr.NaiveCFR("cfr")
    for _ in range(60):
        ours.run(1)
        reference.iterate()
        policy = {**{name: [0.5, 0.5] for name in INFOSETS}, **reference.average()}
        brute = naive_cfr.best_response_value(policy, 0) + naive_cfr.best_response_value(policy, 1)
        assert ours.metrics().exploitability == pytest.approx(brute / 2, abs=1e-9)


@pytest.mark.parametrize("variant", ["cfr", "cfr+", "linear", "discounted", "chance-sampling"])
def test_every_variant_converges_to_the_game_value(variant):
    solver = rmcore.CFRSolver(rmcore.KUHN, variant, seed=3)
    solver.run(20_000 if variant == "chance-sampling" else 2_000)
    assert solver.metrics().exploitability < (0.01 if variant == "chance-sampling" else 2e-3)
    assert solver.metrics().game_value == pytest.approx(-1 / 18, abs=0.01 if variant == "chance-sampling" else 2e-3)


def test_the_average_policy_lies_in_the_equilibrium_family():
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr+")
    solver.run(5_000)
    policy = solver.average_policy()
    alpha = policy["J"][1]
    assert 0 <= alpha <= 1 / 3 + 1e-3
    assert policy["K"][1] == pytest.approx(3 * alpha, abs=5e-3)
    assert policy["Qpb"][1] == pytest.approx(alpha + 1 / 3, abs=5e-3)
    assert policy["Qb"][1] == pytest.approx(1 / 3, abs=5e-3) and policy["Jp"][1] == pytest.approx(1 / 3, abs=5e-3)


@pytest.mark.parametrize("variant", ["cfr", "chance-sampling"])
def test_chunk_invariance_and_history(variant):
    whole = rmcore.CFRSolver(rmcore.KUHN, variant, seed=2, max_points=50)
    whole.run(1000)
    pieces = rmcore.CFRSolver(rmcore.KUHN, variant, seed=2, max_points=50)
    for chunk in (1, 9, 90, 400, 500):
        pieces.run(chunk)
    assert whole.average_policy() == pieces.average_policy()
    assert whole.history().to_frame().equals(pieces.history().to_frame())
    history = whole.history().to_frame()
    assert len(history) <= 51 and history.iteration.iloc[-1] == 1000
    assert whole.checkpoint_stride > 1  # (a row costs more than an iteration)
    assert history.iteration.iloc[0] == 1 and history.iteration.iloc[1] % whole.checkpoint_stride == 0
    first = rmcore.CFRSolver(rmcore.KUHN, variant, seed=2, max_points=50)
    first.run(1)
    assert history.nash_conv.iloc[0] == first.metrics().nash_conv
    assert "Kb_average[bet]" in history and "J_current[bet]" in history


def test_trace_iteration_explains_the_first_iteration():
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr")
    trace = {row.infoset: row for row in solver.trace_iteration()}
    assert solver.iteration == 1
    k = trace["K"]  # player 1 holding the king, uniform play everywhere
    assert k.strategy == (0.5, 0.5) and k.own_reach == 2.0 and k.opponent_reach == pytest.approx(2 / 6)
    assert k.regret_increment == pytest.approx(tuple(v - k.strategy_value for v in k.action_values))
    assert k.cumulative_regrets == pytest.approx(k.regret_increment)
    assert k.new_strategy[1] > 0.5  # betting the king looked better
    for row in trace.values():
        assert sum(row.new_strategy) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(algorithm="mccfr"), "algorithm must be one of"),
        (dict(updates="both"), "updates must be"),
        (dict(seed=-2), "seed must be a whole number"),
    ],
)
def test_bad_arguments_are_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rmcore.CFRSolver(rmcore.KUHN, **kwargs)


def test_bad_policies_are_explained():
    with pytest.raises(ValueError, match="no entry for information set 'J'"):
        rmcore.nash_conv(KUHN, {})
    with pytest.raises(ValueError, match="do not sum to 1"):
        rmcore.nash_conv(KUHN, {name: [0.5, 0.6] for name in INFOSETS})
    with pytest.raises(ValueError, match="alpha must lie"):
        equilibrium_policy(0.5)
    with pytest.raises(ValueError, match="12 information sets with 2 probabilities"):
        rmcore.nash_conv(KUHN, np.full((12, 3), 1 / 3))
    with pytest.raises(ValueError, match="must be numbers"):
        rmcore.nash_conv(KUHN, [["a", "b"]] * 12)


def test_classic_kuhn_is_told_by_its_rules_not_by_which_object_it_is():
    assert rmcore.is_classic_kuhn(rmcore.KUHN) and rmcore.is_classic_kuhn(
        rmcore.trees.poker.poker_tree(rmcore.KuhnRules())
    )
    assert rmcore.is_classic_kuhn(rmcore.tree_game("kuhn", cards=3, bet=1))
    for game in (rmcore.kuhn_poker(4), rmcore.kuhn_poker(3, 2.0), rmcore.leduc_poker()):
        assert not rmcore.is_classic_kuhn(game), game.name
    assert not rmcore.is_classic_kuhn(rmcore.preset("rps"))
    # The builder's cache emptied (here in a process of its own, so that this one keeps rmcore.KUHN's identity):
    script = (
        "import rmcore; rmcore.kuhn_poker.cache_clear(); game = rmcore.kuhn_poker(); "
        "print(game is not rmcore.KUHN, rmcore.is_classic_kuhn(game))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["True", "True"]
