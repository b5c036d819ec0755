"""The exact answer for a game tree: its value and an equilibrium by the sequence-form linear program.

In sequence form (Koller, Megiddo & von Stengel 1996; von Stengel 1996) a player's strategy is a
realization plan: for each sequence of their own actions, the probability that they play it. Plans
``x`` (player 1) and ``y`` (player 2) are the non-negative solutions of ``E x = e`` and ``F y = f``:
the empty sequence has probability 1 and at each information set I, ``sum_a x(I a) = x(parent(I))``.
Player 1's expected payoff is ``x^T A y``, where ``A[s, t]`` sums chance's probability times the payoff
over the leaves reached by the sequences ``s`` and ``t``. The game value is

    max_x min_y x^T A y  =  max_{x, q} q_0  s.t.  F^T q <= A^T x,  E x = e,  x >= 0

(the inner minimum replaced by its LP dual), a linear program of the size of the tree, not of the
exponentially many pure strategies. Player 2's plan solves the same program with ``-A^T``. Solved
with HiGHS (``scipy.optimize.linprog``); a plan gives behaviour ``sigma(I, a) = x(I a) / x(parent(I))``.

For either family: :func:`rmcore.solve_exactly`.

>>> from rmcore import KUHN
>>> solution = solve(KUHN)
>>> round(solution.game_value, 9), round(solution.game_value * 18, 9)
(-0.055555556, -1.0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._deprecated import getattr_for
from ..records import ExactSolution, Policy
from ..trees.cfr import nash_conv
from ..trees.game import CHANCE_NODE, TreeGame, chance_of, children_of, policy_width

__all__ = ["solve"]


class _SequenceForm(NamedTuple):
    payoffs: object  # sparse A [player 1's sequences, player 2's sequences]
    constraints: tuple  # (E, F): sparse, one row for the empty sequence and one per information set
    first_sequence: tuple  # per player, [infoset] the index of (I, first action)
    parent: tuple  # per player, [infoset] the sequence leading to I


def _sequence_form(game: TreeGame) -> _SequenceForm:
    """Walk the tree once: each node's sequence for both players, each leaf's term of A (chance x payoff)."""
    from scipy import sparse  # imported here: scipy is slow to import, and many runs solve no LP

    tree = game.tree
    infosets = len(game.infosets)
    first = [np.full(infosets, -1, dtype=np.int64) for _ in range(2)]
    counts = [1, 1]  # sequence 0 is the empty one
    for info in range(infosets):
        owner = int(tree.infoset_player[info])
        first[owner][info] = counts[owner]
        counts[owner] += int(tree.num_actions[info])
    parent = [np.full(infosets, -1, dtype=np.int64) for _ in range(2)]
    sequence = np.zeros((tree.player.shape[0], 2), dtype=np.int64)
    chance = np.zeros(tree.player.shape[0])
    rows, cols, terms = [], [], []
    chance[tree.deal_root] = tree.deal_probability
    for node in range(tree.player.shape[0]):  # (the nodes are laid out parents first)
        actor = tree.player[node]
        if actor == -1:
            rows.append(sequence[node, 0])
            cols.append(sequence[node, 1])
            terms.append(chance[node] * tree.payoff[node])
            continue
        if actor == CHANCE_NODE:
            for child, probability in zip(children_of(tree, node), chance_of(tree, node)):
                sequence[child] = sequence[node]
                chance[child] = chance[node] * probability
            continue
        info = tree.infoset[node]
        if parent[actor][info] not in (-1, sequence[node, actor]):
            raise ValueError(f"{game.name} lacks perfect recall at {game.infosets[info]!r}: the sequence form needs it")
        parent[actor][info] = sequence[node, actor]
        for a in range(tree.num_actions[info]):
            child = tree.children[tree.child_start[node] + a]
            sequence[child] = sequence[node]
            sequence[child, actor] = first[actor][info] + a
            chance[child] = chance[node]
    payoffs = sparse.csr_matrix((terms, (rows, cols)), shape=tuple(counts))
    constraints = []
    for owner in range(2):
        mine = np.flatnonzero(tree.infoset_player == owner)
        r, c, v = [0], [0], [1.0]
        for row, info in enumerate(mine, start=1):
            r.append(row), c.append(parent[owner][info]), v.append(-1.0)
            for a in range(tree.num_actions[info]):
                r.append(row), c.append(first[owner][info] + a), v.append(1.0)
        constraints.append(sparse.csr_matrix((v, (r, c)), shape=(len(mine) + 1, counts[owner])))
    return _SequenceForm(payoffs, tuple(constraints), tuple(first), tuple(parent))


def _best_guarantee(payoffs, own, other) -> tuple[float, np.ndarray]:
    """``max_x min_y x^T payoffs y`` over realization plans (``own x = e``, ``other y = f``): (value, x)."""
    from scipy import sparse
    from scipy.optimize import linprog

    n, m = own.shape[1], other.shape[0]
    cost = np.zeros(n + m)
    cost[n] = -1.0  # maximise q_0: the empty sequence's row of the opponent's constraints
    upper = sparse.hstack([-payoffs.T, other.T]).tocsr()  # F^T q - A^T x <= 0
    equality = sparse.hstack([own, sparse.csr_matrix((own.shape[0], m))]).tocsr()
    e = np.zeros(own.shape[0])
    e[0] = 1.0
    bounds = [(0.0, None)] * n + [(None, None)] * m
    tight = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(upper.shape[0]),
        A_eq=equality,
        b_eq=e,
        bounds=bounds,
        method="highs-ds",
        options=tight,
    )
    if result.status != 0:  # pragma: no cover - a game tree's sequence-form LP is always feasible and bounded
        raise RuntimeError(f"the sequence-form linear program failed: {result.message}")
    return -float(result.fun), np.clip(result.x[:n], 0.0, None)


def solve(game: TreeGame) -> ExactSolution:
    """The value (to player 1) and an equilibrium of a two-player zero-sum game tree with perfect recall.

    Kuhn poker's value is -1/18; Leduc hold'em's about -0.0856 (both LPs take about a second on Leduc). The LP is
    solved on the payoffs divided by their largest sequence-form entry ``max |A[s, t]|`` (HiGHS's tolerances are
    absolute), so the answer does not depend on the payoffs' unit: the value is scaled back, the policy is the same.

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`~rmcore.TreeGame`, is not two-player zero-sum, or lacks perfect recall.
    """
    if not isinstance(game, TreeGame):
        raise ValueError(f"expected a TreeGame (for example rmcore.KUHN), got {type(game).__name__}")
    if not game.is_two_player_zero_sum:
        raise ValueError(
            f"the exact answer (the sequence-form LP, a saddle point) is defined for two-player zero-sum games; "
            f"{game.name} has {game.players} players{'' if game.is_zero_sum else ' and is general-sum'}: CFR's "
            "NashConv measures how far a policy is from an equilibrium there"
        )
    form = _sequence_form(game)
    constraints_1, constraints_2 = form.constraints
    # HiGHS's tolerances are absolute (1e-10 here, 1e-7 by default): at payoffs of 1e-8 every payoff was within them
    # (value 0, a policy with NashConv 4), at 1e9 the LP failed. It solves the game scaled to a largest |A[s, t]| of 1,
    # which has the same equilibria; the value is scaled back.
    scale = float(np.abs(form.payoffs.data).max()) if form.payoffs.nnz else 0.0
    scale = scale if scale > 0 else 1.0
    payoffs = form.payoffs / scale
    value, plan_1 = _best_guarantee(payoffs, constraints_1, constraints_2)
    _, plan_2 = _best_guarantee(-payoffs.T.tocsr(), constraints_2, constraints_1)
    value *= scale
    tree = game.tree
    probabilities = np.zeros((len(game.infosets), policy_width(game)))
    for info in range(len(game.infosets)):
        owner = int(tree.infoset_player[info])
        plan = (plan_1, plan_2)[owner]
        n = int(tree.num_actions[info])
        weights = plan[form.first_sequence[owner][info] : form.first_sequence[owner][info] + n]
        total = weights.sum()
        # Where the player's own plan never reaches I, any behaviour is an equilibrium's: uniform.
        probabilities[info, :n] = weights / total if total > 1e-12 else 1.0 / n
    policy = Policy(probabilities, game.infosets, game.actions)
    return ExactSolution(value, policy, nash_conv(game, policy))


__getattr__ = getattr_for("rmcore.exact.sequence_form")
