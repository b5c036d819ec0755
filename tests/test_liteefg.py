"""rmcore's CFR, CFR+ and predictive CFR+ against LiteEFG's (an optional C++ library, built from its source package by
pip; these tests skip where it is not installed, as in CI).

The bench (``python -m rmcore bench``) times both sides on the same iterations; these tests check that they are the
same algorithm. LiteEFG's last iterate is ours to rounding, so the updates agree (its CFR updates both players at
once, its CFR+ and PCFR+ alternate, PCFR+ predicting the last instantaneous regret). Its averages differ from ours by
design, and the tests pin down how: it averages the policy each iteration computes (sigma_2 .. sigma_{T+1}, with
weights 1 for CFR, t for CFR+ and PCFR+), where we average the policy each iteration plays (sigma_1 .. sigma_T, with
weights 1, t and t^2).
"""

import numpy as np
import pytest

pytest.importorskip("LiteEFG")
pytest.importorskip("pyspiel")

from rmcore import KUHN, CFRSolver  # noqa: E402
from rmcore.bench import _LITEEFG_ALGORITHMS, liteefg_run  # noqa: E402
from rmcore.trees.cfr import (
    nash_conv,  # noqa: E402
    reach_of,  # noqa: E402
)
from rmcore.trees.poker import leduc_poker  # noqa: E402

ITERATIONS = 100
GAMES = {"kuhn_poker": KUHN, "leduc_poker": leduc_poker()}


def own_reach(game, policy: np.ndarray) -> np.ndarray:
    """Each information set's own reach (the acting player's probability of playing to it; perfect recall makes it
    the same at every history of the set)."""
    tree = game.tree
    reach = reach_of(game, policy)
    decisions = np.nonzero(tree.player >= 0)[0]
    out = np.zeros(len(game.infosets))
    out[tree.infoset[decisions]] = reach[tree.player[decisions], decisions]
    return out


def weighted_average(game, policies, weights) -> np.ndarray:
    """The average policy of the sequence form: sum_t w_t pi_i^t(I) sigma_t(I) normalised per information set."""
    sums = sum(w * own_reach(game, p)[:, None] * p for p, w in zip(policies, weights, strict=True))
    totals = sums.sum(axis=1, keepdims=True)
    legal = np.arange(sums.shape[1])[None, :] < game.tree.num_actions[:, None]
    return np.where(totals > 0, sums / np.where(totals > 0, totals, 1.0), legal / game.tree.num_actions[:, None])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("algorithm", _LITEEFG_ALGORITHMS, ids=[a[2] for a in _LITEEFG_ALGORITHMS])
def test_the_same_iterates_and_the_average_liteefg_defines(name, algorithm):
    variant, updates, module, _, averaging = algorithm
    game = GAMES[name]
    env, graph, step = liteefg_run(name, module)
    solver = CFRSolver(game, variant, updates)
    policies = [solver.current_policy().probabilities.copy()]
    for _ in range(ITERATIONS):
        step()
        solver.run(1)
        policies.append(solver.current_policy().probabilities.copy())
    strategy = graph.current_strategy()

    # (Their sums run in another order: CFR+'s clipping at zero grows those last-bit differences, on Leduc to 3e-9.)
    theirs_last = sum(env.exploitability(strategy, "last-iterate"))
    assert theirs_last == pytest.approx(nash_conv(game, policies[-1]), rel=1e-7, abs=1e-12)

    weights = range(1, ITERATIONS + 1) if averaging == "linear-avg-iterate" else [1] * ITERATIONS
    theirs_average = sum(env.exploitability(strategy, averaging))
    expected = nash_conv(game, weighted_average(game, policies[1:], weights))
    assert theirs_average == pytest.approx(expected, rel=1e-7)
    # ... and ours is the same weighting of the policies played (t^2 for predictive CFR+).
    power = {"cfr": 0, "cfr+": 1, "pcfr+": 2}[variant]
    ours = weighted_average(game, policies[:-1], [t**power for t in range(1, ITERATIONS + 1)])
    assert solver.metrics().nash_conv == pytest.approx(nash_conv(game, ours), rel=1e-9)
