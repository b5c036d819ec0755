"""The game-tree kernels: one tree layout, one reach pass, one CFR pass, one best-response pass; Monte Carlo CFR's
sampled walks and magnetic mirror descent.

The layout (:class:`TreeArrays`, built by ``rmcore/trees/builder.py`` for every game). Histories whose subtrees have
the same shape (the same kinds of node, the same players, the same numbers of actions, all the way down) are
*blocks*: every deal of a poker game is one such subtree, and so is every outcome of a chance node between two
rounds, every card a Goofspiel player may play. A block's histories are consecutive nodes, in the order a depth-first
walk meets them, and the blocks are laid out parents first (pre-order of the tree of blocks), so that

- a pass is a loop over blocks with a loop over the block's histories inside: every history of a block is the same
  kind of node with the same number of children, so the inner loop runs without a branch on the node's kind, reads
  its arrays in order, and finds a history's children by arithmetic (child ``a`` of history ``j`` of block ``b`` is
  history ``j * stride + offset`` of block ``block_child[b, a]``: ``stride`` siblings of one shape were merged);
- a block's subtree of blocks is a range (``block_end``), skipped at once when no history in the block is reached by
  either player (then every term below it is zero: regrets are weighted by the opponent's reach, strategy sums by
  the player's own);
- the histories of an information set lie in one block in every game the catalogue builds, in depth-first order, so
  the CFR pass adds each information set's regret increments in the order OpenSpiel's CFR does, and its results are
  OpenSpiel's to the last bit (``tests/test_openspiel.py``).

Any number of players n, read at run time from the arrays (``TreeArrays.payoffs`` has a row per player): reach has a
row per player and one for chance (the last). In a two-player zero-sum game a value is player 1's payoff (player
2's is its negative), in one row of ``CFRState.value``; in any other game each player's value has a row of
``CFRState.values`` (empty in the two-player zero-sum case, whose passes keep their own loops: the common case pays
nothing for n players). No ``fastmath``, so the plain-Python twin
(``rmcore.kernels.python_twin("tree")``) computes the same numbers to the last bit.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import jit_for, part_for, sibling

njit = jit_for(__name__)
part = part_for(__name__)
rng = sibling(__name__, "rng")

# Entry points release the GIL (a class's sessions run on every core at once) and run without numba's reference
# counting: they allocate nothing, and every array they are handed outlives them (with it, each pass took and released
# a reference to every array it touched, atomically: half of a Kuhn iteration).
_ENTRY = dict(cache=True, error_model="numpy", nogil=True, _nrt=False)
# Their parts are compiled into each entry that calls them, where LLVM inlines them (a call would copy dozens of
# arrays' descriptions, and a Kuhn pass is a few hundred operations).
_PART = dict(error_model="numpy", _nrt=False, forceinline=True)
# The passes of games of more than two players are parts left to LLVM's own choice: forced inline, each would be copied
# into every place its two-player pass is inlined, for a case whose pass is long beside a call.
_PART_OF_N = dict(error_model="numpy", _nrt=False)

#: ``TreeArrays.player`` at a chance node inside a deal (Leduc's public card); a deal's own cards are dealt at its root.
CHANCE_NODE = -2
TERMINAL = -1
#: ``CFRFlags.learner`` when both players learn (self-play).
BOTH_LEARN = -1
#: ``updating`` of a pass in which every player updates (simultaneous self-play): no player's index, of any n.
BOTH = -2

# The variants' codes (CFRFlags.code).
VANILLA_CFR, CFR_PLUS, LINEAR_CFR, DISCOUNTED_CFR, CHANCE_SAMPLING, PREDICTIVE_CFR_PLUS = 0, 1, 2, 3, 4, 5
EXTERNAL_SAMPLING, OUTCOME_SAMPLING, MAGNETIC_MIRROR_DESCENT = 6, 7, 8
PREDICTIVE_DISCOUNTED_CFR_PLUS, DISCOUNTED_CFR_PLUS = 9, 10
#: DCFR+'s regret discount ``(t-1)^alpha / ((t-1)^alpha + DCFR_PLUS_OFFSET)``: 1.5 in the published code
#: (rpSebastian/PDCFRPlus, ``pdcfrplus/cfr/dcfr_plus.py``), where PDCFR+'s has 1.
DCFR_PLUS_OFFSET = 1.5
#: Outcome sampling's exploration: the traverser samples from ``epsilon * uniform + (1 - epsilon) * sigma``
#: (OpenSpiel's ``OutcomeSamplingSolver._expl``).
OUTCOME_EXPLORATION = 0.6


class TreeArrays(NamedTuple):
    """A game tree of n >= 2 players as the flat arrays the kernels walk (see the module docstring).

    Its labelled companion, with information-set and action names, is :class:`rmcore.TreeGame` (``tree.py``).
    """

    # Nodes (histories), block by block.
    player: np.ndarray  # [node] 0 .. n-1 at decisions, TERMINAL, or CHANCE_NODE where chance moves inside a deal
    infoset: np.ndarray  # [node] information-set index at decisions, -1 elsewhere
    #: [edge] every node's children in order, node by node: node ``k``'s child by action or outcome ``a`` is
    #: ``children[child_start[k] + a]`` (a list sized by the real children: a layout ``[node, most children]`` would
    #: give a tree with one chance node of 10,000 outcomes 10,000 x 10,000 entries)
    children: np.ndarray
    child_start: np.ndarray  # [node + 1] where each node's children begin in ``children`` (and ``chance``)
    chance: np.ndarray  # [edge] at a chance node's children, each outcome's probability (0 elsewhere)
    payoff: np.ndarray  # [node] player 1's payoff at terminals (0 elsewhere)
    parent: np.ndarray  # [node] its parent node (-1 at a deal's root)
    parent_slot: np.ndarray  # [node] which of the parent's actions or outcomes leads to it (-1 at a deal's root)
    depth: np.ndarray  # [node] moves from its deal's root
    deal_root: np.ndarray  # [deal] the root node of each deal (the chance moves above every decision, folded)
    deal_probability: np.ndarray  # [deal] its probability
    infoset_player: np.ndarray  # [infoset] who acts there: player 1's information sets first, then player 2's, ...
    num_actions: np.ndarray  # [infoset] its legal actions: columns 0..k-1 of a policy (the rest stay 0)
    #: [n + 1] player p's information sets are rows infoset_start[p] .. infoset_start[p + 1] - 1
    infoset_start: np.ndarray
    # Blocks, in pre-order of the tree of blocks.
    block_start: np.ndarray  # [block + 1] block b's histories are nodes block_start[b] .. block_start[b + 1] - 1
    block_kind: np.ndarray  # [block] its histories' TreeArrays.player
    block_width: np.ndarray  # [block] its histories' actions or outcomes (0 for terminals)
    #: [block slot] block ``b``'s slots are entries ``block_slot_start[b] .. block_slot_start[b + 1] - 1`` of
    #: ``block_child``, ``block_child_base`` and ``block_child_stride`` (one per action or outcome, as ``children``)
    block_slot_start: np.ndarray  # [block + 1]
    block_child: np.ndarray  # [block slot] the block of its histories' children by slot
    #: [block slot] a history's child by a slot is node ``base + node * stride``: history ``j * stride + offset`` of
    #: the child block for history ``j`` of this one (siblings of one shape merged ``stride`` to a block)
    block_child_base: np.ndarray
    block_child_stride: np.ndarray  # [block slot]
    block_end: np.ndarray  # [block] one past the last block of its subtree
    root_blocks: np.ndarray  # the blocks whose histories are deals' roots
    # Each player's best-response order (see best_responses): per player, the blocks level by level (deepest level
    # first; at a level the player's own decision blocks, then the others children first), and where levels begin.
    response_order: np.ndarray  # [n, block]
    response_levels: np.ndarray  # [n, levels + 1] offsets into response_order (-1 past the last level)
    response_own: np.ndarray  # [n, levels] how many of a level's blocks are the player's own decisions
    #: [n, node] each player's payoff at terminals (0 elsewhere); row 0 is ``payoff``. Its rows are the players: the
    #: kernels read n here.
    payoffs: np.ndarray


class CFRFlags(NamedTuple):
    """One CFR variant as plain values: the code (VANILLA_CFR ...), the update order, who learns, and the variant's
    parameters (runtime floats, so that no value needs a compile of its own; other variants ignore them)."""

    code: int
    alternating: bool
    learner: int = BOTH_LEARN  # 0 or 1: the other player is a fixed opponent (its policy rows never change)
    alpha: float = 1.5  # discounted CFR: positive regrets are scaled by t^alpha / (t^alpha + 1) after iteration t,
    beta: float = 0.0  # negative ones by t^beta / (t^beta + 1),
    gamma: float = 2.0  # and iteration t's strategy is weighted by t^gamma in the average
    eta: float = 0.0  # magnetic mirror descent: the step size (its temperature is ``alpha``)


class CFRState(NamedTuple):
    """Everything a CFR run carries between iterations, its scratch, and the last iteration's trace."""

    regrets: np.ndarray  # [infoset, action] cumulative (clipped / discounted per variant)
    strategy_sums: np.ndarray  # [infoset, action] sum_t w_t * own reach * sigma_t
    policy: np.ndarray  # [infoset, action] current strategy sigma
    last_regrets: np.ndarray  # [infoset, action] predictive CFR+: the last instantaneous regret r_t (the prediction)
    rng: np.ndarray  # xoshiro256+ state for the sampling variants
    touched: np.ndarray  # [1] int64: histories visited so far (passes' reached blocks; Monte Carlo CFR: nodes entered)
    #: [1] int64: 1 to trace the next call's last iteration for the walkthrough (the trace costs a third of a small
    #: game's pass, and only the walkthrough reads it)
    trace: np.ndarray
    # scratch
    reach: np.ndarray  # [n + 1, node] reach of player 1, ..., player n and chance
    #: [node] two-player zero-sum: player 1's expected payoff under sigma (terminals: their payoffs, written once)
    value: np.ndarray
    #: [n + V, node] each player's best response's value (its own payoff), then the expected values: V = 1 row
    #: (player 1's) in a two-player zero-sum game, else one per player; at terminals their payoffs, written with the
    #: state
    responses: np.ndarray
    scores: np.ndarray  # [infoset, action] a best response's counterfactual action values
    average: np.ndarray  # [infoset, action] the average policy at a checkpoint
    first: np.ndarray  # [block] int64: the first history of each block a pass visits ...
    last: np.ndarray  # [block] int64: ... and one past its last
    reached: np.ndarray  # [block] int64: the pass that last reached the block (a block not reached keeps old values)
    passes: np.ndarray  # [1] int64: passes so far
    # the last iteration's trace, per information set (for the step-by-step walkthrough)
    regret_increment: np.ndarray  # [infoset, action] sum_h pi_-i(h) (v(ha) - v(h))
    action_values: np.ndarray  # [infoset, action] sum_h pi_-i(h) v(ha)
    strategy_value: np.ndarray  # [infoset] sum_h pi_-i(h) v(h)
    own_reach: np.ndarray  # [infoset] sum_h pi_i(h)
    opponent_reach: np.ndarray  # [infoset] sum_h pi_-i(h) (chance included)
    # Monte Carlo CFR's explicit stack, one frame per node on the current path (length: the longest path):
    stack_node: np.ndarray  # [frame] int64 the node
    stack_next: np.ndarray  # [frame] int64 the child being walked (external) or the sampled action (outcome)
    stack_policy: np.ndarray  # [frame, action] the strategy played there
    stack_values: np.ndarray  # [frame, action] the children's values (external) or the sampling policy (outcome)
    stack_reach: np.ndarray  # [frame, 3] outcome sampling: own, opponent's and chance's, and the sample's reach
    # Magnetic mirror descent (empty for the other variants; ``cfr._mmd_arrays``). A sequence (I, a) is the cell
    # ``I * width + a`` of a policy array, the empty sequence -1.
    mmd_logits: np.ndarray  # [infoset, action] scratch: the logits h(I, a) of the closed-form step
    mmd_sequence: np.ndarray  # [node, player] int64 the player's last own action on the way to the node
    mmd_parent: np.ndarray  # [infoset] int64 the sequence leading to the information set (its player's)
    mmd_order: np.ndarray  # [infoset] int64 information sets, children before their parent sequences
    #: [n, node] any game but two-player zero-sum: each player's expected payoff under sigma (terminals: their payoffs,
    #: written once); [0, 0] in a two-player zero-sum game, whose values are ``value``
    values: np.ndarray
    #: [2, n] the last best responses' values (row 0) and each player's expected value under the policy (row 1)
    player_values: np.ndarray


class CFRRecord(NamedTuple):
    """History rows of a CFR run, one array per quantity (``k`` rows)."""

    iteration: np.ndarray  # [k] int64
    current: np.ndarray  # [k, infoset, action] sigma, the policy the next iteration plays
    average: np.ndarray  # [k, infoset, action] S / sum S
    regrets: np.ndarray  # [k, infoset, action] cumulative regrets R
    # The fields both families' records share, by the same names (rmcore/solver.py reads them):
    br_gain_1: np.ndarray  # [k] what player 1 gains by best-responding to the average policy
    br_gain_2: np.ndarray  # [k] likewise player 2 (in player 2's own payoff, -game_value on the policy)
    game_value: np.ndarray  # [k] player 1's expected payoff when both play the average policy
    nash_conv: np.ndarray  # [k] NashConv of the average policy: the two best responses' values summed
    nash_conv_current: np.ndarray  # [k] NashConv of the current policy
    # The tree family's own:
    nodes_touched: np.ndarray  # [k] int64 histories visited so far (CFRState.touched)
    # Shared with the matrix family's record: players 3 to n's best-response gains ([k, 0] for two players: no bytes).
    more_br_gains: np.ndarray  # [k, n - 2]


def empty_cfr_record(rows: int, infosets: int, actions: int, players: int = 2) -> CFRRecord:
    """Room for ``rows`` history rows of a game of ``players`` with the given policy shape."""
    return CFRRecord(
        np.zeros(rows, dtype=np.int64),
        *(np.zeros((rows, infosets, actions)) for _ in range(3)),
        *(np.zeros(rows) for _ in range(5)),
        np.zeros(rows, dtype=np.int64),
        np.zeros((rows, players - 2)),
    )


# -- the reach pass --------------------------------------------------------------------------------


@part(**_PART)
def reach_pass(tree, policy, state, deal, chance_weight, terminals):
    """Reach probabilities ``state.reach[p, node]`` (player 1, ..., player n, chance) under ``policy``, parents first,
    in the blocks some player reaches; returns the histories it visited.

    Each block's histories take their parents' reach and multiply in the probability of the move between them. A
    block none of whose histories any player reaches is skipped with its subtree of blocks (every counterfactual reach
    below is then 0: it multiplies at least one of those zeros). ``deal`` < 0 walks
    every deal, else only that one (chance sampling), its root's chance reach ``chance_weight`` times the deal's
    probability. ``terminals``: fill in the terminals' reach too (magnetic mirror descent weights its leaves by it).
    Marks the blocks it visits in ``state.reached`` with the pass's number, with their histories' range in
    ``state.first`` and ``state.last``.
    """
    if tree.payoffs.shape[0] != 2:
        return _reach_pass_players(tree, policy, state, deal, chance_weight, terminals)
    reach, first, last = state.reach, state.first, state.last
    stamp = state.passes[0] + 1
    state.passes[0] = stamp
    for block in tree.root_blocks:
        first[block] = 0
        last[block] = tree.block_start[block + 1] - tree.block_start[block]
    for d in range(tree.deal_root.shape[0]):
        root = tree.deal_root[d]
        reach[0, root] = 1.0
        reach[1, root] = 1.0
        reach[2, root] = tree.deal_probability[d] * chance_weight
    if deal >= 0:  # one deal: its root's block keeps that history, every other root block none
        root = tree.deal_root[deal]
        for block in tree.root_blocks:
            start = tree.block_start[block]
            inside = start <= root < tree.block_start[block + 1]
            first[block] = root - start if inside else 0
            last[block] = root - start + 1 if inside else 0
    visited = 0
    blocks = tree.block_kind.shape[0]
    block = 0
    while block < blocks:
        lo, hi = first[block], last[block]
        if hi <= lo:  # no history of the block is walked: nor is its subtree
            block = tree.block_end[block]
            continue
        kind = tree.block_kind[block]
        start = tree.block_start[block]
        if kind != TERMINAL:
            alive = False
            for j in range(lo, hi):
                node = start + j
                if reach[0, node] != 0.0 or reach[1, node] != 0.0:
                    alive = True
                    break
            if not alive:
                block = tree.block_end[block]
                continue
        state.reached[block] = stamp
        visited += hi - lo
        if kind == TERMINAL:
            block += 1
            continue
        slots = tree.block_slot_start[block]
        for slot in range(tree.block_width[block]):
            child = tree.block_child[slots + slot]
            stride = tree.block_child_stride[slots + slot]
            first[child] = lo * stride
            last[child] = hi * stride
            if tree.block_kind[child] == TERMINAL and not terminals:
                continue
            base = tree.block_child_base[slots + slot]
            for j in range(lo, hi):
                node = start + j
                into = base + node * stride
                own_0 = reach[0, node]
                own_1 = reach[1, node]
                by_chance = reach[2, node]
                if kind == CHANCE_NODE:
                    by_chance *= tree.chance[tree.child_start[node] + slot]
                elif kind == 0:
                    own_0 *= policy[tree.infoset[node], slot]
                else:
                    own_1 *= policy[tree.infoset[node], slot]
                reach[0, into] = own_0
                reach[1, into] = own_1
                reach[2, into] = by_chance
        block += 1
    return visited


@part(**_PART_OF_N)
def _reach_pass_players(tree, policy, state, deal, chance_weight, terminals):
    """:func:`reach_pass` of a game of more than two players: a reach row per player, chance's last. Its loops are
    the two-player pass's with the players' rows in a loop; apart, so that the two-player pass, the common case, keeps
    its loops as tight as they are alone (with the player count tested inside them, a Leduc iteration took about a
    tenth longer)."""
    reach, first, last = state.reach, state.first, state.last
    players = tree.payoffs.shape[0]
    stamp = state.passes[0] + 1
    state.passes[0] = stamp
    for block in tree.root_blocks:
        first[block] = 0
        last[block] = tree.block_start[block + 1] - tree.block_start[block]
    for d in range(tree.deal_root.shape[0]):
        root = tree.deal_root[d]
        for p in range(players):
            reach[p, root] = 1.0
        reach[players, root] = tree.deal_probability[d] * chance_weight
    if deal >= 0:  # one deal: its root's block keeps that history, every other root block none
        root = tree.deal_root[deal]
        for block in tree.root_blocks:
            start = tree.block_start[block]
            inside = start <= root < tree.block_start[block + 1]
            first[block] = root - start if inside else 0
            last[block] = root - start + 1 if inside else 0
    visited = 0
    blocks = tree.block_kind.shape[0]
    block = 0
    while block < blocks:
        lo, hi = first[block], last[block]
        if hi <= lo:  # no history of the block is walked: nor is its subtree
            block = tree.block_end[block]
            continue
        kind = tree.block_kind[block]
        start = tree.block_start[block]
        if kind != TERMINAL:
            alive = False
            for j in range(lo, hi):
                node = start + j
                for p in range(players):
                    if reach[p, node] != 0.0:
                        alive = True
                if alive:
                    break
            if not alive:
                block = tree.block_end[block]
                continue
        state.reached[block] = stamp
        visited += hi - lo
        if kind == TERMINAL:
            block += 1
            continue
        slots = tree.block_slot_start[block]
        for slot in range(tree.block_width[block]):
            child = tree.block_child[slots + slot]
            stride = tree.block_child_stride[slots + slot]
            first[child] = lo * stride
            last[child] = hi * stride
            if tree.block_kind[child] == TERMINAL and not terminals:
                continue
            base = tree.block_child_base[slots + slot]
            for j in range(lo, hi):  # (n rows copied, the mover's multiplied)
                node = start + j
                into = base + node * stride
                for p in range(players + 1):
                    reach[p, into] = reach[p, node]
                if kind == CHANCE_NODE:
                    reach[players, into] *= tree.chance[tree.child_start[node] + slot]
                else:
                    reach[kind, into] *= policy[tree.infoset[node], slot]
        block += 1
    return visited


# -- the CFR pass ----------------------------------------------------------------------------------


@part(**_PART)
def _slots_of(tree, block):
    """``(width, bases, strides)`` of a block's slots: its number of children, and views of its bases and strides."""
    first, end = tree.block_slot_start[block], tree.block_slot_start[block + 1]
    return tree.block_width[block], tree.block_child_base[first:end], tree.block_child_stride[first:end]


@part(**_PART)
def _rows_of(tree, updating):
    """The rows of ``updating``'s information sets (every row for BOTH): ``(first, end)``."""
    if updating == BOTH:
        return 0, tree.infoset_start[tree.infoset_start.shape[0] - 1]
    return tree.infoset_start[updating], tree.infoset_start[updating + 1]


@part(**_PART)
def _clear_trace(tree, state, updating):
    first, end = _rows_of(tree, updating)
    for info in range(first, end):
        state.own_reach[info] = 0.0
        state.opponent_reach[info] = 0.0
        state.strategy_value[info] = 0.0
        for a in range(state.policy.shape[1]):
            state.regret_increment[info, a] = 0.0
            state.action_values[info, a] = 0.0


@part(**_PART)
def regret_pass(tree, state, regrets, updating, strategy_weight, trace):
    """Values bottom-up over the blocks the reach pass reached, with each updating history's regret increments and
    strategy sums (Zinkevich, Johanson, Bowling & Piccione 2007): at a history h of an information set I of player i,

        R(I, a) += pi_-i(h) (v_i(h a) - v_i(h)),     S(I, a) += w_t pi_i(h) sigma(I, a),

    with pi_-i the other players' and chance's reach. ``updating`` is a player (0 .. n-1), or BOTH. The increments go
    into ``regrets``: ``state.regrets``, or for predictive CFR+ ``state.last_regrets`` (cleared by the caller), which
    keeps the instantaneous regret r_t apart from R. With ``trace`` the iteration's sums per information set are kept
    for the step-by-step walkthrough.
    """
    if trace:
        _clear_trace(tree, state, updating)
    if state.values.shape[0] > 0:
        _regret_pass_players(tree, state, regrets, updating, strategy_weight, trace)
        return
    reach, value, policy, infoset, chance = state.reach, state.value, state.policy, tree.infoset, tree.chance
    stamp = state.passes[0]
    for block in range(tree.block_kind.shape[0] - 1, -1, -1):  # children's blocks before their parents'
        kind = tree.block_kind[block]
        if kind == TERMINAL or state.reached[block] != stamp:
            continue
        lo, hi = state.first[block] + tree.block_start[block], state.last[block] + tree.block_start[block]
        n, base, stride = _slots_of(tree, block)
        if kind == CHANCE_NODE:
            for node in range(lo, hi):
                total = 0.0
                edges = tree.child_start[node]
                for a in range(n):
                    total += chance[edges + a] * value[base[a] + node * stride[a]]
                value[node] = total
            continue
        learns = updating == BOTH or kind == updating
        sign = 1.0 if kind == 0 else -1.0
        for node in range(lo, hi):
            info = infoset[node]
            total = 0.0
            for a in range(n):
                total += policy[info, a] * value[base[a] + node * stride[a]]
            value[node] = total
            if not learns:
                continue
            counterfactual_reach = reach[1 - kind, node] * reach[2, node]
            own_weight = strategy_weight * reach[kind, node]
            node_value = sign * total
            for a in range(n):
                child_value = sign * value[base[a] + node * stride[a]]
                regrets[info, a] += counterfactual_reach * (child_value - node_value)
                state.strategy_sums[info, a] += own_weight * policy[info, a]
            if trace:
                state.own_reach[info] += reach[kind, node]
                state.opponent_reach[info] += counterfactual_reach
                state.strategy_value[info] += counterfactual_reach * node_value
                for a in range(n):
                    child_value = sign * value[base[a] + node * stride[a]]
                    state.action_values[info, a] += counterfactual_reach * child_value
                    state.regret_increment[info, a] += counterfactual_reach * (child_value - node_value)


@part(**_PART_OF_N)
def _regret_pass_players(tree, state, regrets, updating, strategy_weight, trace):
    """:func:`regret_pass` with a value per player (``state.values``), for any game but a two-player zero-sum one.

    pi_-i(h) is the product of the other players' reaches in their order, then chance's, as OpenSpiel's
    ``CFRSolver`` multiplies it (``1.0 * pi_0 * ... * pi_c``, the updating player skipped)."""
    reach, values, policy, infoset, chance = state.reach, state.values, state.policy, tree.infoset, tree.chance
    players = values.shape[0]
    stamp = state.passes[0]
    for block in range(tree.block_kind.shape[0] - 1, -1, -1):  # children's blocks before their parents'
        kind = tree.block_kind[block]
        if kind == TERMINAL or state.reached[block] != stamp:
            continue
        lo, hi = state.first[block] + tree.block_start[block], state.last[block] + tree.block_start[block]
        n, base, stride = _slots_of(tree, block)
        if kind == CHANCE_NODE:
            for node in range(lo, hi):
                edges = tree.child_start[node]
                for p in range(players):
                    total = 0.0
                    for a in range(n):
                        total += chance[edges + a] * values[p, base[a] + node * stride[a]]
                    values[p, node] = total
            continue
        learns = updating == BOTH or kind == updating
        for node in range(lo, hi):
            info = infoset[node]
            for p in range(players):
                total = 0.0
                for a in range(n):
                    total += policy[info, a] * values[p, base[a] + node * stride[a]]
                values[p, node] = total
            if not learns:
                continue
            counterfactual_reach = 1.0
            for p in range(players):
                if p != kind:
                    counterfactual_reach *= reach[p, node]
            counterfactual_reach *= reach[players, node]
            own_weight = strategy_weight * reach[kind, node]
            node_value = values[kind, node]
            for a in range(n):
                child_value = values[kind, base[a] + node * stride[a]]
                regrets[info, a] += counterfactual_reach * (child_value - node_value)
                state.strategy_sums[info, a] += own_weight * policy[info, a]
            if trace:
                state.own_reach[info] += reach[kind, node]
                state.opponent_reach[info] += counterfactual_reach
                state.strategy_value[info] += counterfactual_reach * node_value
                for a in range(n):
                    child_value = values[kind, base[a] + node * stride[a]]
                    state.action_values[info, a] += counterfactual_reach * child_value
                    state.regret_increment[info, a] += counterfactual_reach * (child_value - node_value)


@part(**_PART)
def _clear_regrets(tree, regrets, updating):
    """Zero the rows of ``updating``'s information sets: predictive CFR+ sums r_t afresh."""
    first, end = _rows_of(tree, updating)
    for info in range(first, end):
        for a in range(regrets.shape[1]):
            regrets[info, a] = 0.0


@part(**_PART)
def _apply_regrets(tree, state, updating, code, t, positive_factor, negative_factor):
    """Clip (CFR+) or discount (linear / discounted CFR) the regrets just accumulated, and run regret matching.

    Discounted CFR (Brown & Sandholm 2019) multiplies R >= 0 by ``positive_factor = t^alpha / (t^alpha + 1)`` and
    R < 0 by ``negative_factor = t^beta / (t^beta + 1)`` (each computed once per iteration, then multiplied in, as
    OpenSpiel's ``DCFRSolver`` does).
    """
    first, end = _rows_of(tree, updating)
    for info in range(first, end):
        n = tree.num_actions[info]
        total = 0.0
        for a in range(n):
            r = state.regrets[info, a]  # (the increments are in: regret_pass)
            if code == CFR_PLUS:
                r = r if r > 0.0 else 0.0
            elif code == LINEAR_CFR:
                r *= t / (t + 1.0)
            elif code == DISCOUNTED_CFR:
                r *= positive_factor if r >= 0.0 else negative_factor
            state.regrets[info, a] = r
            total += r if r > 0.0 else 0.0
        for a in range(n):
            r = state.regrets[info, a]
            state.policy[info, a] = (r if r > 0.0 else 0.0) / total if total > 0.0 else 1.0 / n


@part(**_PART)
def _apply_predictive_regrets(tree, state, updating):
    """Predictive CFR+ (Farina, Kroer & Sandholm 2021): predictive RM+ at every information set of ``updating``.

    With the instantaneous regret r_t in ``state.last_regrets``: ``R_t = [R_{t-1} + r_t]^+``, and the next strategy is
    ``RM([R_t + m_{t+1}]^+)`` with the prediction ``m_{t+1} = r_t``, which stays in ``state.last_regrets`` until the
    next pass replaces it.
    """
    first, end = _rows_of(tree, updating)
    for info in range(first, end):
        n = tree.num_actions[info]
        total = 0.0
        for a in range(n):
            m = state.last_regrets[info, a]
            r = state.regrets[info, a] + m
            r = r if r > 0.0 else 0.0
            state.regrets[info, a] = r
            r += m  # the optimistic regret R_t + m_{t+1}
            total += r if r > 0.0 else 0.0
        for a in range(n):
            r = state.regrets[info, a] + state.last_regrets[info, a]
            state.policy[info, a] = (r if r > 0.0 else 0.0) / total if total > 0.0 else 1.0 / n


@part(**_PART)
def _apply_discounted_plus_regrets(tree, state, updating, variant, t):
    """PDCFR+ and DCFR+ (Xu, Li, Liu, Fu, Fu, Xing & Cheng, IJCAI 2024) at every information set of ``updating``, in
    the order of the authors' code (rpSebastian/PDCFRPlus, ``pdcfrplus/cfr/``).

    With the instantaneous regret r_t in ``state.last_regrets``: ``R_t = [R_{t-1} d(t) + r_t]^+``. PDCFR+ takes
    ``d(t) = (t-1)^alpha / ((t-1)^alpha + 1)`` and plays next ``RM([R_t d(t+1) + r_t]^+)``, the last instantaneous
    regret as the prediction; DCFR+ takes ``d(t) = (t-1)^alpha / ((t-1)^alpha + 1.5)`` (:data:`DCFR_PLUS_OFFSET`) and
    plays ``RM(R_t)``. ``d(1) = 0`` whatever alpha (``R_0 = 0``).
    """
    predictive = variant.code == PREDICTIVE_DISCOUNTED_CFR_PLUS
    discount = 0.0
    if t > 1.0:
        scale = (t - 1.0) ** variant.alpha
        discount = scale / (scale + (1.0 if predictive else DCFR_PLUS_OFFSET))
    scale = t**variant.alpha
    next_discount = scale / (scale + 1.0)
    first, end = _rows_of(tree, updating)
    for info in range(first, end):
        n = tree.num_actions[info]
        total = 0.0
        for a in range(n):
            r = state.regrets[info, a] * discount + state.last_regrets[info, a]
            r = r if r > 0.0 else 0.0
            state.regrets[info, a] = r
            if predictive:
                r = r * next_discount + state.last_regrets[info, a]
                r = r if r > 0.0 else 0.0
            state.policy[info, a] = r  # (the numerator; normalised below)
            total += r
        for a in range(n):
            state.policy[info, a] = state.policy[info, a] / total if total > 0.0 else 1.0 / n


@part(**_PART)
def _strategy_weight(variant, t):
    """Iteration t's weight in the average strategy: 1, t (CFR+, linear), t^gamma (discounted, PDCFR+, DCFR+), t^2
    (PCFR+)."""
    code = variant.code
    if code == CFR_PLUS or code == LINEAR_CFR:
        return float(t)
    if code == DISCOUNTED_CFR or code == PREDICTIVE_DISCOUNTED_CFR_PLUS or code == DISCOUNTED_CFR_PLUS:
        return float(t) ** variant.gamma  # (pow is exact for t^2, t < 2^26)
    if code == PREDICTIVE_CFR_PLUS:
        return float(t) * float(t)
    return 1.0


@part(**_PART)
def _cfr_iteration(tree, state, variant, t, trace):
    """Iteration t of CFR and its variants, as OpenSpiel orders them: for each player in turn (alternating) or all at
    once (simultaneous), a reach pass, a regret pass, then the variant's clip or discount and regret matching.
    Against a fixed opponent (``variant.learner``) only the learner's information sets are updated. Chance sampling
    draws one deal by its own probability and weights it by 1 (its probability over the sampling probability), so that
    the sampled regrets are unbiased whatever the deals' probabilities (Lanctot et al. 2009, section 2.2)."""
    deal, chance_weight = -1, 1.0
    if variant.code == CHANCE_SAMPLING:
        deal = rng.sample_index(tree.deal_probability, rng.next_uniform(state.rng))
        chance_weight = 1.0 / tree.deal_probability[deal]
    weight = _strategy_weight(variant, t)
    predictive = variant.code == PREDICTIVE_CFR_PLUS
    discounted_plus = variant.code == PREDICTIVE_DISCOUNTED_CFR_PLUS or variant.code == DISCOUNTED_CFR_PLUS
    regrets = state.last_regrets if predictive or discounted_plus else state.regrets
    positive_factor, negative_factor = 1.0, 1.0
    if variant.code == DISCOUNTED_CFR:
        scale = float(t) ** variant.alpha
        positive_factor = scale / (scale + 1.0)
        scale = float(t) ** variant.beta
        negative_factor = scale / (scale + 1.0)
    alternating = variant.alternating and variant.learner == BOTH_LEARN
    single = BOTH if variant.learner == BOTH_LEARN else variant.learner
    for turn in range(tree.payoffs.shape[0] if alternating else 1):
        updating = turn if alternating else single
        if predictive or discounted_plus:
            _clear_regrets(tree, regrets, updating)
        state.touched[0] += reach_pass(tree, state.policy, state, deal, chance_weight, False)
        regret_pass(tree, state, regrets, updating, weight, trace)
        if predictive:
            _apply_predictive_regrets(tree, state, updating)
        elif discounted_plus:
            _apply_discounted_plus_regrets(tree, state, updating, variant, float(t))
        else:
            _apply_regrets(tree, state, updating, variant.code, float(t), positive_factor, negative_factor)


# -- the best-response pass ------------------------------------------------------------------------


@part(**_PART)
def _expectations(tree, policy, state, block, lo, hi, row):
    """``state.responses[row]`` of a block's histories (nodes ``lo .. hi - 1``) as expectations of their children's:
    over the policy at a decision, over chance's probabilities at a chance node."""
    responses, infoset, chance = state.responses, tree.infoset, tree.chance
    n, base, stride = _slots_of(tree, block)
    if tree.block_kind[block] == CHANCE_NODE:
        for node in range(lo, hi):
            total = 0.0
            edges = tree.child_start[node]
            for a in range(n):
                total += chance[edges + a] * responses[row, base[a] + node * stride[a]]
            responses[row, node] = total
        return
    for node in range(lo, hi):
        info = infoset[node]
        total = 0.0
        for a in range(n):
            total += policy[info, a] * responses[row, base[a] + node * stride[a]]
        responses[row, node] = total


@part(**_PART)
def _responses_of(tree, policy, state, player):
    """Player ``player``'s best response to ``policy`` (its own payoff), in ``state.responses[player]``, and with
    player 1's the expected values in the rows after the players' (``CFRState.responses``); the counterfactual action
    values of the player's information sets (the best response played below) in ``state.scores``. ``state.reach``
    holds the policy's reach. Returns the best response's value.

    The player's information sets are resolved deepest first, by level (how many of the player's own decisions lie
    above): an information set's histories share a level (perfect recall), and everything below them lies at deeper
    levels, so at each level the action values of its information sets are complete once its blocks are summed; then
    each history takes its set's best action (the first of the best), and the other blocks of the level, children
    first, take expectations (chance and the opponent play the policy).
    """
    responses, reach, scores, infoset = state.responses, state.reach, state.scores, tree.infoset
    players = tree.payoffs.shape[0]
    stamp = state.passes[0]
    order, levels, own = tree.response_order[player], tree.response_levels[player], tree.response_own[player]
    for level in range(own.shape[0]):
        begin, end = levels[level], levels[level + 1]
        if begin < 0 or end < 0:
            break
        decisions = begin + own[level]
        for k in range(begin, decisions):  # the player's blocks at this level: their action values, from 0
            block = order[k]
            if state.reached[block] == stamp:
                lo, hi = state.first[block] + tree.block_start[block], state.last[block] + tree.block_start[block]
                for node in range(lo, hi):
                    for a in range(tree.block_width[block]):
                        scores[infoset[node], a] = 0.0
        for k in range(begin, decisions):
            block = order[k]
            if state.reached[block] != stamp:
                continue
            lo, hi = state.first[block] + tree.block_start[block], state.last[block] + tree.block_start[block]
            n, base, stride = _slots_of(tree, block)
            if players == 2:
                for node in range(lo, hi):
                    info = infoset[node]
                    weight = reach[1 - player, node] * reach[2, node]
                    for a in range(n):
                        scores[info, a] += weight * responses[player, base[a] + node * stride[a]]
                continue
            for node in range(lo, hi):
                info = infoset[node]
                weight = 1.0
                for p in range(players):
                    if p != player:
                        weight *= reach[p, node]
                weight *= reach[players, node]
                for a in range(n):
                    scores[info, a] += weight * responses[player, base[a] + node * stride[a]]
        for k in range(begin, decisions):  # each history takes its information set's best action
            block = order[k]
            if state.reached[block] != stamp:
                continue
            lo, hi = state.first[block] + tree.block_start[block], state.last[block] + tree.block_start[block]
            n, base, stride = _slots_of(tree, block)
            for node in range(lo, hi):
                info = infoset[node]
                best = 0
                for a in range(1, n):
                    if scores[info, a] > scores[info, best]:
                        best = a
                # (the child from the block's bases: the children matrix is the largest array of a large tree)
                responses[player, node] = responses[player, base[best] + node * stride[best]]
            if player == 0:
                for row in range(players, responses.shape[0]):
                    _expectations(tree, policy, state, block, lo, hi, row)
        for k in range(decisions, end):  # the rest of the level, children first: expectations
            block = order[k]
            if tree.block_kind[block] == TERMINAL or state.reached[block] != stamp:
                continue  # (a terminal's values are its payoffs, written with the state)
            lo, hi = state.first[block] + tree.block_start[block], state.last[block] + tree.block_start[block]
            _expectations(tree, policy, state, block, lo, hi, player)
            if player == 0:
                for row in range(players, responses.shape[0]):
                    _expectations(tree, policy, state, block, lo, hi, row)
    value = 0.0
    for d in range(tree.deal_root.shape[0]):
        value += tree.deal_probability[d] * responses[player, tree.deal_root[d]]
    return value


@part(**_PART)
def _best_responses(tree, policy, state):
    """``(br_value_1, br_value_2, game_value)`` of ``policy``: a reach pass, then each player's best response; with
    every player's best response's value and expected value in ``state.player_values`` (rows 0 and 1)."""
    reach_pass(tree, policy, state, -1, 1.0, False)  # (a metric's passes are no work of the run's: not counted)
    players = tree.payoffs.shape[0]
    responses, out = state.responses, state.player_values
    first = _responses_of(tree, policy, state, 0)
    out[0, 0] = first
    for row in range(players, responses.shape[0]):
        expected = 0.0
        for d in range(tree.deal_root.shape[0]):
            expected += tree.deal_probability[d] * responses[row, tree.deal_root[d]]
        out[1, row - players] = expected
    if responses.shape[0] == players + 1:  # two-player zero-sum: player 2's expected value is the negative
        out[1, 1] = -out[1, 0]
    for p in range(1, players):
        out[0, p] = _responses_of(tree, policy, state, p)
    return first, out[0, 1], out[1, 0]


@part(**_PART)
def _average_rows(strategy_sums, num_actions, out):
    """``out = S(I) / sum S(I)`` per information set, uniform over its legal actions where nothing was accumulated."""
    for info in range(strategy_sums.shape[0]):
        n = num_actions[info]
        total = 0.0
        for a in range(n):
            total += strategy_sums[info, a]
        for a in range(n):
            out[info, a] = strategy_sums[info, a] / total if total > 0.0 else 1.0 / n
        for a in range(n, strategy_sums.shape[1]):
            out[info, a] = 0.0


@njit(**_ENTRY)
def record_row(tree, state, iteration, record, k):
    """Row ``k`` of ``record``: both policies, the regrets, both best-response gains and the game value of the average
    policy and its NashConv, and the NashConv of the current one (each the best responses' values summed, as
    :func:`rmcore.nash_conv` sums them)."""
    _average_rows(state.strategy_sums, tree.num_actions, state.average)
    record.iteration[k] = iteration
    for info in range(state.policy.shape[0]):
        for a in range(state.policy.shape[1]):
            record.current[k, info, a] = state.policy[info, a]
            record.average[k, info, a] = state.average[info, a]
            record.regrets[k, info, a] = state.regrets[info, a]
    for which in range(2):  # the average policy, then the current one
        first, second, expected = _best_responses(tree, state.average if which == 0 else state.policy, state)
        gains = first + second
        if state.values.shape[0] > 0:  # NashConv: every player's best response's gain over its expected value
            gains = 0.0
            for p in range(state.player_values.shape[1]):
                gains += state.player_values[0, p] - state.player_values[1, p]
        if which == 0:
            record.br_gain_1[k] = first - expected
            record.br_gain_2[k] = second - state.player_values[1, 1]  # (zero-sum: -expected, player 2's value)
            for p in range(2, state.player_values.shape[1]):  # (players 3 to n, where there are more than two)
                record.more_br_gains[k, p - 2] = state.player_values[0, p] - state.player_values[1, p]
            record.game_value[k] = expected
            record.nash_conv[k] = gains
        else:
            record.nash_conv_current[k] = gains
    record.nodes_touched[k] = state.touched[0]


@njit(**_ENTRY)
def best_responses(tree_fields, policy, state_fields):
    """``(br_value_1, br_value_2, game_value)`` of any ``policy``, leaving each player's counterfactual action values
    (the best response played below) in ``state.scores`` and the policy's reach in ``state.reach`` (of the blocks
    either player reaches). The records come as plain tuples of their arrays (see :func:`run_cfr`)."""
    return _best_responses(TreeArrays(*tree_fields), policy, CFRState(*state_fields))


@njit(**_ENTRY)
def reach_of(tree_fields, policy, state_fields):
    """Every node's reach under ``policy`` (``state.reach``), terminals included; returns the histories visited.
    The records come as plain tuples of their arrays (see :func:`run_cfr`)."""
    tree, state = TreeArrays(*tree_fields), CFRState(*state_fields)
    blocks = tree.block_kind.shape[0]
    for block in range(blocks):  # (reach everywhere: a block no player reaches gets 0, not an old value)
        state.reached[block] = -1
    for row in range(state.reach.shape[0]):
        for node in range(tree.player.shape[0]):
            state.reach[row, node] = 0.0
    return reach_pass(tree, policy, state, -1, 1.0, True)


# -- the entry point -------------------------------------------------------------------------------


@njit(**_ENTRY)
def run_cfr(tree_fields, state_fields, variant_fields, first_iteration, last_iteration, checkpoints, record_fields):
    """Iterations first..last of CFR or a variant of its full passes (:func:`_cfr_iteration`: CFR, CFR+, linear and
    discounted CFR, predictive CFR+, chance sampling), writing row ``k`` of ``record`` after each iteration
    ``checkpoints[k]`` (increasing, within the range); returns how many rows it wrote. With ``first_iteration >
    last_iteration`` it runs nothing and, given one checkpoint, records the state as it stands (a snapshot). The last
    iteration of a call is traced for the walkthrough when ``state.trace[0]`` is 1.

    One kernel per job: Monte Carlo CFR's sampled walks (:func:`run_mccfr`) and magnetic mirror descent
    (:func:`run_mmd`) have entries of their own, so that a first CFR run compiles the full passes only.

    The records (:class:`TreeArrays`, :class:`CFRState`, :class:`CFRFlags`, :class:`CFRRecord`) come as plain tuples
    of their fields: numba types a plain tuple of arrays in C, a NamedTuple in Python, array by array, which made a
    call on Kuhn poker nearly twice as long (``metrics()`` is such a call).
    """
    tree, state, variant = TreeArrays(*tree_fields), CFRState(*state_fields), CFRFlags(*variant_fields)
    record = CFRRecord(*record_fields)
    written = np.int64(0)  # (not the literal 0: numba would compile record_row twice)
    if first_iteration > last_iteration:  # a snapshot of the state as it stands
        if checkpoints.shape[0] > 0:
            record_row(tree, state, checkpoints[0], record, written)
            written += 1
        return written
    for t in range(first_iteration, last_iteration + 1):
        _cfr_iteration(tree, state, variant, t, t == last_iteration and state.trace[0] == 1)
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            record_row(tree, state, t, record, written)
            written += 1
    return written


@njit(**_ENTRY)
def run_mccfr(tree_fields, state_fields, variant_fields, first_iteration, last_iteration, checkpoints, record_fields):
    """:func:`run_cfr` for Monte Carlo CFR's external and outcome sampling (:func:`_mccfr_iteration`): after the
    iterations, and before each checkpoint, the current policy is regret matching of the regrets as they stand.

    (The few lines of the snapshot and the checkpoint loop stand in each entry point: a part shared by the three would
    be compiled again for each of them, its call to :func:`record_row` with it, two seconds of a first run's compile.)
    """
    tree, state, variant = TreeArrays(*tree_fields), CFRState(*state_fields), CFRFlags(*variant_fields)
    record = CFRRecord(*record_fields)
    written = np.int64(0)
    if first_iteration > last_iteration:  # a snapshot of the state as it stands
        if checkpoints.shape[0] > 0:
            record_row(tree, state, checkpoints[0], record, written)
            written += 1
        return written
    for t in range(first_iteration, last_iteration + 1):
        _mccfr_iteration(tree, state, variant)
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            _regret_matched_policy(tree, state, variant.learner)
            record_row(tree, state, t, record, written)
            written += 1
    _regret_matched_policy(tree, state, variant.learner)
    return written


@njit(**_ENTRY)
def run_mmd(tree_fields, state_fields, variant_fields, first_iteration, last_iteration, checkpoints, record_fields):
    """:func:`run_cfr` for magnetic mirror descent (:func:`_mmd_step`)."""
    tree, state, variant = TreeArrays(*tree_fields), CFRState(*state_fields), CFRFlags(*variant_fields)
    record = CFRRecord(*record_fields)
    written = np.int64(0)
    if first_iteration > last_iteration:  # a snapshot of the state as it stands
        if checkpoints.shape[0] > 0:
            record_row(tree, state, checkpoints[0], record, written)
            written += 1
        return written
    updating = BOTH if variant.learner == BOTH_LEARN else variant.learner
    for t in range(first_iteration, last_iteration + 1):
        _mmd_step(tree, state, variant, updating)
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            record_row(tree, state, t, record, written)
            written += 1
    return written


def entry_for(code: int):
    """:func:`run_mccfr` for Monte Carlo CFR's codes, :func:`run_mmd` for MMD's, else :func:`run_cfr`."""
    if code == EXTERNAL_SAMPLING or code == OUTCOME_SAMPLING:
        return run_mccfr
    if code == MAGNETIC_MIRROR_DESCENT:
        return run_mmd
    return run_cfr


# -- Monte Carlo CFR -------------------------------------------------------------------------------
# External and outcome sampling (Lanctot, Waugh, Zinkevich & Bowling 2009), as OpenSpiel's
# ``external_sampling_mccfr.py`` and ``outcome_sampling_mccfr.py`` define them: one sampled part of the tree per
# traverser, walked with an explicit stack (numba compiles no recursion worth having), on the nodes' own arrays.


@part(**_PART)
def _regret_matched(regrets, info, n, out):
    """``out[:n] = RM(R(I))``: the positive regrets normalised, uniform when none is positive (OpenSpiel's
    ``MCCFRSolverBase._regret_matching``)."""
    total = 0.0
    for a in range(n):
        r = regrets[info, a]
        total += r if r > 0.0 else 0.0
    for a in range(n):
        r = regrets[info, a]
        out[a] = (r if r > 0.0 else 0.0) / total if total > 0.0 else 1.0 / n


@part(**_PART)
def _learns(tree, learner, info):
    return learner == BOTH_LEARN or tree.infoset_player[info] == learner


@part(**_PART)
def _node_policy(tree, state, learner, info, n, out):
    """The strategy played at ``info`` now: RM of its regrets as they stand (OpenSpiel computes it at each visit), or a
    fixed opponent's own row."""
    if _learns(tree, learner, info):
        _regret_matched(state.regrets, info, n, out)
    else:
        for a in range(n):
            out[a] = state.policy[info, a]


@part(**_PART)
def _external_sampling_walk(tree, state, player, learner):
    """One traversal of external sampling for ``player``; returns its sampled value of the root.

    The recursion it replaces (OpenSpiel's ``ExternalSamplingSolver._update_regrets``), with v in ``player``'s payoff:
    at a terminal v = u_i(z); at chance, and at the opponent's node with sigma(I) = RM(R(I)), one sampled child's v,
    after which the opponent's ``S(I, a) += sigma(I, a)`` (OpenSpiel's default "simple" averaging); at ``player``'s
    own node every child, v = sum_a sigma(I, a) v(a) and ``R(I, a) += v(a) - v``. Children are walked in action order,
    so the uniforms are drawn in the recursion's order. Frame ``top`` of the ``stack_*`` arrays holds a node on the
    current path: its strategy, its children's values so far and the next child to walk.
    """
    node = tree.deal_root[rng.sample_index(tree.deal_probability, rng.next_uniform(state.rng))]
    top = -1
    touched = 0
    value = 0.0
    while True:
        # Down: to a terminal, pushing a frame at every chance and decision node on the way.
        while True:
            touched += 1
            actor = tree.player[node]
            if actor == TERMINAL:
                value = tree.payoffs[player, node]
                break
            top += 1
            state.stack_node[top] = node
            if actor == CHANCE_NODE:
                edges, end = tree.child_start[node], tree.child_start[node + 1]
                node = tree.children[edges + rng.sample_index(tree.chance[edges:end], rng.next_uniform(state.rng))]
                continue
            info = tree.infoset[node]
            n = tree.num_actions[info]
            policy = state.stack_policy[top]
            _node_policy(tree, state, learner, info, n, policy)
            if actor == player:
                state.stack_next[top] = 0
                node = tree.children[tree.child_start[node]]
            else:
                node = tree.children[tree.child_start[node] + rng.sample_index(policy[:n], rng.next_uniform(state.rng))]
        # Up: hand the value to the frames above, until one of ``player``'s frames has a child left to walk.
        descend = False
        while top >= 0:
            node = state.stack_node[top]
            actor = tree.player[node]
            if actor == player:
                info = tree.infoset[node]
                n = tree.num_actions[info]
                k = state.stack_next[top]
                state.stack_values[top, k] = value
                if k + 1 < n:
                    state.stack_next[top] = k + 1
                    node = tree.children[tree.child_start[node] + k + 1]
                    descend = True
                    break
                value = 0.0
                for a in range(n):
                    value += state.stack_policy[top, a] * state.stack_values[top, a]
                if _learns(tree, learner, info):
                    for a in range(n):
                        state.regrets[info, a] += state.stack_values[top, a] - value
            elif actor >= 0:
                info = tree.infoset[node]
                if _learns(tree, learner, info):
                    for a in range(tree.num_actions[info]):
                        state.strategy_sums[info, a] += state.stack_policy[top, a]
            top -= 1
        if not descend:
            state.touched[0] += touched
            return value


@part(**_PART)
def _outcome_sampling_walk(tree, state, player, learner):
    """One episode of outcome sampling for ``player``; returns its sampled value estimate of the root.

    As OpenSpiel's ``OutcomeSamplingSolver._episode`` (no baseline): one history is sampled, chance by its
    probabilities, the opponent by sigma = RM(R), ``player`` by ``q = epsilon / n + (1 - epsilon) sigma`` with
    epsilon = 0.6. Going down, pi_i (own reach), pi_-i (opponent's and chance's) and q(h) (the sample's) are kept per
    node; coming back up with u, the estimate of the child's value, at a node with sampled action b:
    ``u_a = u / q(b)`` for a = b and 0 else, ``u_h = sum_a sigma(a) u_a``, and at ``player``'s nodes
    ``R(I, a) += u_a pi_-i / q(h) - u_h pi_-i / q(h)`` and ``S(I, a) += pi_i sigma(a) / q(h)`` (the stochastically
    weighted average, at the traverser's own nodes, as OpenSpiel does).
    """
    deal = rng.sample_index(tree.deal_probability, rng.next_uniform(state.rng))
    node = tree.deal_root[deal]
    own, opponent, sample = 1.0, tree.deal_probability[deal], tree.deal_probability[deal]
    top = -1
    touched = 1
    actor = tree.player[node]
    while actor != TERMINAL:
        if actor == CHANCE_NODE:
            edges, end = tree.child_start[node], tree.child_start[node + 1]
            k = edges + rng.sample_index(tree.chance[edges:end], rng.next_uniform(state.rng))
            opponent *= tree.chance[k]
            sample *= tree.chance[k]
            node = tree.children[k]
        else:
            top += 1
            state.stack_node[top] = node
            state.stack_reach[top, 0] = own
            state.stack_reach[top, 1] = opponent
            state.stack_reach[top, 2] = sample
            info = tree.infoset[node]
            n = tree.num_actions[info]
            policy = state.stack_policy[top]
            behaviour = state.stack_values[top]  # (this walk needs no child values: the frame's row holds q)
            _node_policy(tree, state, learner, info, n, policy)
            for a in range(n):
                behaviour[a] = (
                    OUTCOME_EXPLORATION * (1.0 / n) + (1.0 - OUTCOME_EXPLORATION) * policy[a]
                    if actor == player
                    else policy[a]
                )
            b = rng.sample_index(behaviour[:n], rng.next_uniform(state.rng))
            state.stack_next[top] = b
            if actor == player:
                own *= policy[b]
            else:
                opponent *= policy[b]
            sample *= behaviour[b]
            node = tree.children[tree.child_start[node] + b]
        touched += 1
        actor = tree.player[node]
    value = tree.payoffs[player, node]
    while top >= 0:
        node = state.stack_node[top]
        info = tree.infoset[node]
        n = tree.num_actions[info]
        b = state.stack_next[top]
        sampled_value = value / state.stack_values[top, b]
        estimate = 0.0
        for a in range(n):
            estimate += state.stack_policy[top, a] * (sampled_value if a == b else 0.0)
        if tree.player[node] == player and _learns(tree, learner, info):
            own, opponent, sample = state.stack_reach[top, 0], state.stack_reach[top, 1], state.stack_reach[top, 2]
            policy_value = estimate * opponent / sample
            for a in range(n):
                state.regrets[info, a] += (sampled_value if a == b else 0.0) * opponent / sample - policy_value
            for a in range(n):
                state.strategy_sums[info, a] += own * state.stack_policy[top, a] / sample
        value = estimate
        top -= 1
    state.touched[0] += touched
    return value


@part(**_PART)
def _regret_matched_policy(tree, state, learner):
    """``sigma = RM(R)`` at every learning information set: the current policy, refreshed for reading."""
    for info in range(tree.infoset_player.shape[0]):
        if _learns(tree, learner, info):
            _regret_matched(state.regrets, info, tree.num_actions[info], state.policy[info])


@part(**_PART)
def _mccfr_iteration(tree, state, variant):
    """One Monte Carlo CFR iteration: a traversal (external) or an episode (outcome) for player 1, then one for player
    2, and so on for each player, as in OpenSpiel (outcome sampling against a fixed opponent: the learner's alone),
    drawing from the xoshiro256+ state ``state.rng`` so that any split of a run draws the same numbers. Against a fixed
    opponent, external sampling still walks for it: the learner's average is summed at the opponent's nodes, in the
    fixed player's traversal."""
    for player in range(tree.payoffs.shape[0]):
        if variant.code == OUTCOME_SAMPLING:
            if variant.learner == BOTH_LEARN or player == variant.learner:
                _outcome_sampling_walk(tree, state, player, variant.learner)
        else:
            _external_sampling_walk(tree, state, player, variant.learner)


# -- magnetic mirror descent -----------------------------------------------------------------------
# With the dilated entropy (Sokota, D'Orazio, Kolter, Loizou, Lanctot, Mitliagkas, Brown & Kroer 2023), as OpenSpiel's
# ``mmd_dilated.py`` (``MMDDilatedEnt``) defines it, in behavioural form on the flat tree.


@part(**_PART)
def _mmd_step(tree, state, variant, updating):
    r"""One MMD step for ``updating`` (BOTH: both players at once, from the same profile; 0 or 1 against a fixed
    opponent), replacing ``state.policy`` and adding the policy it played to the strategy sums.

    In sequence form a player i maximises ``x^T u`` with ``u = A y`` (player 2: ``-A^T x``) over its treeplex, with the
    dilated entropy ``psi(x) = sum_I x_p(I) sum_a sigma(I, a) log sigma(I, a)``, whose minimiser, the uniform policy,
    is the magnet. MMD's step ``x_{t+1} = argmax_x eta <u_t, x> - eta alpha psi(x) - B_psi(x; x_t)`` has the closed
    form: with the logits ``h(I, a) = (eta u_t(I a) + log sigma_t(I, a)) / (1 + eta alpha)``, ``u_t(I a) = sum_z
    pi_c(z) pi_-i(z) u_i(z)`` over the leaves z whose last own action of i is (I, a), at each information set I,
    children first, ``sigma_{t+1}(I) = softmax(h(I))`` and ``h(p(I)) += log sum_a exp h(I, a)`` (OpenSpiel's
    ``_update_state_sequences``). Before the step the strategy sums get ``S(I, a) += pi_i(h) sigma_t(I, a)`` for every
    history h of I (weight 1: a uniform average of the iterates' sequence forms, normalised per information set).

    Exponentials and logarithms are ``math.exp`` and ``math.log``, the C library's, which numba calls too: the
    plain-Python twin gets the compiled kernel's numbers.
    """
    nodes = tree.player.shape[0]
    width = state.policy.shape[1]
    logits = state.mmd_logits
    for block in range(tree.block_kind.shape[0]):  # (every node's reach: a block no player reaches counts 0)
        state.reached[block] = -1
    for node in range(nodes):
        state.reach[0, node] = 0.0
        state.reach[1, node] = 0.0
        state.reach[2, node] = 0.0
    state.touched[0] += reach_pass(tree, state.policy, state, -1, 1.0, True)
    for node in range(nodes):
        actor = tree.player[node]
        if actor < 0 or (updating != BOTH and actor != updating):
            continue
        info = tree.infoset[node]
        own = state.reach[actor, node]
        for a in range(tree.num_actions[info]):
            state.strategy_sums[info, a] += own * state.policy[info, a]
    for info in range(tree.infoset_player.shape[0]):
        for a in range(width):
            logits[info, a] = 0.0
    # u_t(I a): each leaf's payoff, weighted by chance and the opponent, goes to each player's last own sequence.
    for node in range(nodes):
        if tree.player[node] != TERMINAL:
            continue
        for p in range(2):
            sequence = state.mmd_sequence[node, p]
            if sequence < 0 or (updating != BOTH and p != updating):
                continue
            payoff = tree.payoff[node] if p == 0 else -tree.payoff[node]
            logits[sequence // width, sequence % width] += payoff * state.reach[1 - p, node] * state.reach[2, node]
    eta = variant.eta
    shrink = 1.0 + eta * variant.alpha
    for info in range(tree.infoset_player.shape[0]):
        if updating != BOTH and tree.infoset_player[info] != updating:
            continue  # (a fixed opponent's rows may hold zeros, whose log is no number to compute)
        for a in range(tree.num_actions[info]):
            played = state.policy[info, a]
            logits[info, a] = (eta * logits[info, a] + (math.log(played) if played > 0.0 else -math.inf)) / shrink
    for k in range(state.mmd_order.shape[0]):
        info = state.mmd_order[k]
        if updating != BOTH and tree.infoset_player[info] != updating:
            continue
        n = tree.num_actions[info]
        top = logits[info, 0]
        for a in range(1, n):
            top = max(top, logits[info, a])
        total = 0.0
        for a in range(n):
            total += math.exp(logits[info, a] - top)
        for a in range(n):
            state.policy[info, a] = math.exp(logits[info, a] - top) / total
        parent = state.mmd_parent[info]
        if parent >= 0:
            logits[parent // width, parent % width] += top + math.log(total)
