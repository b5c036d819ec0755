"""Any game tree of n >= 2 players, zero-sum or not, walked once into a :class:`~rmcore.TreeGame`: the one builder
every game goes through (the poker games, Liar's dice, Goofspiel, Gambit ``.efg`` files, OpenSpiel games).

A game is given as a root state and an ``expand(state)`` function that says what a state is: a
:class:`Decision` (whose turn, the information set's name, the actions and the states after them),
a :class:`Chance` node (outcomes with their probabilities) or a :class:`Terminal` (every player's payoff, or in a
two-player zero-sum game player 1's alone).
:func:`build_tree_game` walks it depth first:

- the chance nodes above every decision are *deals* (``TreeArrays.deal_root``): each path through them is one
  deal whose probability is the product of its steps, multiplied from the root down (``1.0 * p1 * p2 ...``, the
  order in which OpenSpiel multiplies reach probabilities, so that CFR's arithmetic is OpenSpiel's to the last bit);
- chance nodes below a decision stay chance nodes (``CHANCE_NODE``) with their probabilities;
- information sets are rows of a policy, player 1's first, then player 2's, ..., each player's in the order first met
  (or as
  ``infoset_order`` says);

then :func:`lay_out` arranges the nodes in blocks of histories of one shape, the layout every kernel pass walks
(``rmcore/kernels/tree.py``).

Perfect recall is checked (every history of an information set follows the same own moves of its player: the
property CFR's convergence and the sequence form need), as is a consistent set of actions per information set;
each failure names the information set.

>>> from fractions import Fraction
>>> def expand(history):  # matching pennies as a tree: player 2 does not see player 1's coin
...     if len(history) < 2:
...         infoset = "player 1" if not history else "player 2"
...         return Decision(len(history) + 1, infoset, ("heads", "tails"), (history + "H", history + "T"))
...     return Terminal(1.0 if history[0] == history[1] else -1.0)
>>> game = build_tree_game("Matching pennies", "", expand)
>>> game.infosets, game.tree.player.tolist()
(('player 1', 'player 2'), [0, 1, 1, -1, -1, -1, -1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .. import config, validation
from .game import CHANCE_NODE, TreeArrays, TreeGame, check_tree_game, parents

__all__ = ["Decision", "Chance", "Terminal", "build_tree_game", "lay_out", "MAX_TREE_NODES", "MAX_POLICY_CELLS"]

#: Most nodes a tree built here may have: Liar's dice with six sides has 294,883; ten million would take the
#: builder minutes and the arrays gigabytes.
MAX_TREE_NODES = 3_000_000

#: Most cells of a policy array (information sets times the most actions at one of them): a solver keeps a dozen
#: arrays of that shape. Liar's dice with six sides has 24,576 x 13; a decision of 10,000 actions above 10,000
#: information sets would make each of them a hundred million doubles.
MAX_POLICY_CELLS = 4_000_000


class Decision(NamedTuple):
    """A player's turn: ``player`` is 1 to n; every history of information set ``infoset`` offers ``actions``."""

    player: int
    infoset: str
    actions: tuple[str, ...]
    children: Sequence  # the state after each action, in the actions' order


class Chance(NamedTuple):
    """Chance moves: ``probabilities`` (exact :class:`~fractions.Fraction` or float) of ``outcomes``, summing to 1."""

    outcomes: tuple[str, ...]
    probabilities: tuple
    children: Sequence


class Terminal(NamedTuple):
    """The game is over: every player's payoff, a sequence of n numbers, or in a two-player zero-sum game player 1's
    alone, a number (player 2 gets minus that)."""

    payoff: float | Sequence[float]


def _exact(probability) -> Fraction:
    if isinstance(probability, Fraction):
        return probability
    return Fraction(probability).limit_denominator(1 << 40) if isinstance(probability, float) else Fraction(probability)


def _check_chance(where: str, node: Chance) -> None:
    if len(node.outcomes) != len(node.probabilities) or len(node.children) != len(node.outcomes) or not node.outcomes:
        raise ValueError(f"the chance node at {where} needs one probability and one child per outcome")
    probabilities = [float(p) for p in node.probabilities]
    if not all(0.0 <= p <= 1.0 for p in probabilities):
        raise ValueError(f"the chance node at {where} has a probability outside 0 to 1")
    if abs(sum(probabilities) - 1.0) > 1e-9:
        raise ValueError(f"the chance probabilities at {where} sum to {sum(probabilities):.12g}, not 1")


def _check_policy_size(name: str, infoset_actions: list[tuple[str, ...]]) -> None:
    """Refuse, before any array is made, a game whose policy arrays (``[information set, most actions]``, a dozen of
    them per solver) would hold more than ``MAX_POLICY_CELLS`` cells."""
    cells = len(infoset_actions) * max(len(actions) for actions in infoset_actions)
    if cells > MAX_POLICY_CELLS:
        raise ValueError(
            f"{name} has {len(infoset_actions):,} information sets and up to "
            f"{max(len(a) for a in infoset_actions):,} actions at one: a policy of {cells:,} cells, more than the "
            f"{MAX_POLICY_CELLS:,} rmcore allocates (MAX_POLICY_CELLS)"
        )


def _where(path: tuple[str, ...]) -> str:
    return " ".join(path) if path else "the root"


def build_tree_game(
    name: str,
    root,
    expand: Callable[[object], Decision | Chance | Terminal],
    *,
    infoset_order: Callable[[str], object] | None = None,
    rules=None,
    max_nodes: int = MAX_TREE_NODES,
    label: Callable[[object, tuple[str, ...]], object] | None = None,
    players: int = 2,
) -> TreeGame:
    """The game reached from ``root`` by ``expand``, as a checked :class:`~rmcore.TreeGame`.

    Parameters
    ----------
    name
        The game's name, as pages and tables show it.
    root, expand
        The initial state, and a function telling what a state is (:class:`Decision`, :class:`Chance` or
        :class:`Terminal`) and which states follow it.
    infoset_order
        A sort key for each player's information sets (by name); by default, the order in which the kernels' passes
        meet them (:func:`_rows_in_pass_order`).
    rules
        What the game was built from (kept as ``TreeGame.rules``).
    max_nodes
        Refuse (ValueError) a tree with more nodes than this. A game whose policy arrays would have more than
        :data:`MAX_POLICY_CELLS` cells (information sets times the most actions at one) is refused too, from the
        counts, before any array is made.
    label
        ``label(state, history)``: what ``node_labels`` holds for a node; by default its history (the action and
        outcome names from the root, joined by spaces).
    players
        How many players (2 or more; ``config.MAX_TREE_PLAYERS`` at most). With more than two, or a general-sum game
        of two, each :class:`Terminal` gives every player's payoff.

    Returns
    -------
    TreeGame
        Laid out by :func:`lay_out`. Its ``node_labels`` hold each node's label and its ``deal_paths`` each deal's
        chance steps ``((outcome, probability), ...)``.
    """
    players = validation.whole_number(players, "players", 2)
    if players > config.MAX_TREE_PLAYERS:
        raise ValueError(f"a game tree has at most {config.MAX_TREE_PLAYERS} players; got {players}")
    deals: list[tuple[tuple[tuple[str, object], ...], object, tuple[str, ...]]] = []
    pending = [((), root, ())]
    while pending:  # the chance nodes above every decision, depth first: each path to a non-chance node is a deal
        steps, state, path = pending.pop()
        node = expand(state)
        if isinstance(node, Chance):
            _check_chance(_where(path), node)
            for outcome, probability, child in reversed(list(zip(node.outcomes, node.probabilities, node.children))):
                pending.append((steps + ((outcome, probability),), child, path + (outcome,)))
        else:
            deals.append((steps, state, path))
        if len(deals) + len(pending) > max_nodes:
            raise ValueError(f"{name} has more than {max_nodes:,} nodes, more than rmcore builds")

    player, infoset_of, payoff, labels = [], [], [], []
    children: list[list[int]] = []
    probabilities: list[list[float]] = []
    deal_start, deal_end, deal_probability = [], [], []
    infoset_index: dict[str, int] = {}
    infoset_owner: list[int] = []
    infoset_actions: list[tuple[str, ...]] = []
    infoset_recall: list[tuple] = []  # the owner's own (information set, action) sequence that leads to it
    ends: list[int] = []  # the terminals, with every player's payoff at each
    end_payoffs: list[tuple[float, ...]] = []
    for steps, state, path in deals:
        deal_start.append(len(player))
        probability = 1.0
        for _, p in steps:
            probability *= float(p)
        deal_probability.append(probability)
        # Depth first, prefix order: each entry is (state, where its index goes in its parent, history, recall).
        stack = [(state, None, path, ((),) * players)]
        while stack:
            state, slot, history, recall = stack.pop()
            index = len(player)
            if index >= max_nodes:
                raise ValueError(f"{name} has more than {max_nodes:,} nodes, more than rmcore builds")
            if slot is not None:
                children[slot[0]][slot[1]] = index
            node = expand(state)
            labels.append(" ".join(history) if label is None else label(state, history))
            if isinstance(node, Terminal):
                values = _payoffs(node.payoff, players, history)
                ends.append(index), end_payoffs.append(values)
                player.append(-1), infoset_of.append(-1), payoff.append(values[0])
                children.append([]), probabilities.append([])
                continue
            if isinstance(node, Chance):
                _check_chance(_where(history), node)
                player.append(CHANCE_NODE), infoset_of.append(-1), payoff.append(0.0)
                children.append([-1] * len(node.outcomes))
                probabilities.append([float(p) for p in node.probabilities])
                for k in range(len(node.outcomes) - 1, -1, -1):
                    stack.append((node.children[k], (index, k), history + (node.outcomes[k],), recall))
                continue
            if not isinstance(node, Decision):
                raise ValueError(f"expand() must return a Decision, Chance or Terminal; got {type(node).__name__}")
            if isinstance(node.player, bool) or node.player not in range(1, players + 1):
                choices = "1 or 2" if players == 2 else f"1 to {players}"
                raise ValueError(f"the player at {_where(history)} must be {choices}; got {node.player!r}")
            actions = tuple(str(a) for a in node.actions)
            if not actions or len(node.children) != len(actions):
                raise ValueError(f"the decision at {_where(history)} needs at least one action and a child for each")
            actor = node.player - 1
            info = infoset_index.get(node.infoset)
            if info is None:
                info = infoset_index[node.infoset] = len(infoset_owner)
                infoset_owner.append(actor), infoset_actions.append(actions), infoset_recall.append(recall[actor])
            else:
                if infoset_owner[info] != actor:
                    raise ValueError(
                        f"information set {node.infoset!r} belongs to player {infoset_owner[info] + 1} at one "
                        f"history and to player {actor + 1} at {_where(history)}"
                    )
                if infoset_actions[info] != actions:
                    raise ValueError(
                        f"information set {node.infoset!r} offers {', '.join(infoset_actions[info])} at one history "
                        f"and {', '.join(actions)} at {_where(history)}"
                    )
                if infoset_recall[info] != recall[actor]:
                    raise ValueError(
                        f"information set {node.infoset!r} breaks perfect recall: player {actor + 1} reaches it "
                        f"after different moves of their own (at {_where(history)}, and elsewhere)"
                    )
            player.append(actor), infoset_of.append(info), payoff.append(0.0)
            children.append([-1] * len(actions)), probabilities.append([])
            for a in range(len(actions) - 1, -1, -1):
                own = recall[actor] + ((info, a),)
                following = recall[:actor] + (own,) + recall[actor + 1 :]
                stack.append((node.children[a], (index, a), history + (actions[a],), following))
        deal_end.append(len(player))

    if not infoset_owner:
        raise ValueError(f"{name} has no decision for any player")
    # Rows: player 1's information sets, then player 2's, ..., each in the order first met or as asked.
    names = _names(infoset_index)
    order = sorted(
        range(len(infoset_owner)), key=lambda k: (infoset_owner[k], infoset_order(names[k]) if infoset_order else k)
    )
    row = np.empty(len(order), dtype=np.int64)
    row[order] = np.arange(len(order))

    _check_policy_size(name, infoset_actions)
    # Every node's children in one list, node by node (sized by the real children, never [node, most children]).
    child_start = np.zeros(len(player) + 1, dtype=np.int64)
    np.cumsum([len(kids) for kids in children], out=child_start[1:])
    children_array = np.fromiter((c for kids in children for c in kids), dtype=np.int64, count=int(child_start[-1]))
    chance_array = np.zeros(children_array.shape[0])
    for k, probs in enumerate(probabilities):
        if probs:
            chance_array[child_start[k] : child_start[k + 1]] = probs
    infoset_array = np.array(infoset_of, dtype=np.int64)
    decisions = infoset_array >= 0
    infoset_array[decisions] = row[infoset_array[decisions]]
    payoffs = np.zeros((players, len(player)))
    if ends:
        payoffs[:, ends] = np.array(end_payoffs).T
    tree, order_of_nodes = lay_out(
        np.array(player, dtype=np.int64),
        infoset_array,
        child_start,
        children_array,
        chance_array,
        np.array(payoff),
        np.array(deal_start, dtype=np.int64),
        np.array(deal_probability),
        np.array([infoset_owner[k] for k in order], dtype=np.int64),
        np.array([len(infoset_actions[k]) for k in order], dtype=np.int64),
        payoffs,
    )
    if infoset_order is None:
        tree, order = _rows_in_pass_order(tree, order)
    game = TreeGame(
        name,
        tree,
        tuple(names[k] for k in order),
        tuple(infoset_actions[k] for k in order),
        tuple(labels[k] for k in order_of_nodes),
        rules,
        tuple(tuple((outcome, _exact(p)) for outcome, p in steps) for steps, _, _ in deals),
    )
    check_tree_game(game)
    return game


def _payoffs(payoff, players: int, history: tuple[str, ...]) -> tuple[float, ...]:
    """A terminal's payoff as one number per player: a number is player 1's in a two-player zero-sum game."""
    where = f"the payoff at {_where(history)}"
    if isinstance(payoff, (tuple, list, np.ndarray)):
        if len(payoff) != players:
            raise ValueError(f"{where} needs one number per player ({players}); got {len(payoff)}")
        return tuple(validation.payoff(value, f"{where} to player {p + 1}") for p, value in enumerate(payoff))
    value = validation.payoff(payoff, where)  # (the matrix games' limits)
    if players != 2:
        raise ValueError(f"{where} is one number; a game of {players} players needs one per player")
    return (value, -value)


def _rows_in_pass_order(tree: TreeArrays, order: list[int]) -> tuple[TreeArrays, list[int]]:
    """Each player's information sets numbered in the order the laid-out nodes first meet them (player 1's first).

    A block's histories then read neighbouring rows of the policy, regret and average arrays: the information sets of
    Liar's dice's 36 deals at one bid sequence are six rows in a row, not six rows 2,048 apart, so a pass over a tree
    larger than the cache reads each row's cache line once. ``order[k]`` is the information set (as first met while
    building) that row ``k`` holds; returns the tree renumbered and the new ``order``."""
    rows = tree.infoset_player.shape[0]
    decisions = tree.infoset >= 0
    met = tree.infoset[decisions]
    first = np.full(rows, met.shape[0], dtype=np.int64)
    np.minimum.at(first, met, np.arange(met.shape[0]))
    renumbered = np.lexsort((first, tree.infoset_player))  # new row k holds old row renumbered[k]
    new_row = np.empty(rows, dtype=np.int64)
    new_row[renumbered] = np.arange(rows)
    infoset = tree.infoset.copy()
    infoset[decisions] = new_row[met]
    tree = tree._replace(
        infoset=infoset,
        infoset_player=tree.infoset_player[renumbered].copy(),
        num_actions=tree.num_actions[renumbered].copy(),
    )
    return tree, [order[k] for k in renumbered]


def lay_out(
    player: np.ndarray,
    infoset: np.ndarray,
    child_start: np.ndarray,
    children: np.ndarray,
    chance: np.ndarray,
    payoff: np.ndarray,
    deal_root: np.ndarray,
    deal_probability: np.ndarray,
    infoset_player: np.ndarray,
    num_actions: np.ndarray,
    payoffs: np.ndarray | None = None,
) -> tuple[TreeArrays, np.ndarray]:
    """A game tree's nodes (any order, parents before children) laid out in blocks for the kernels
    (``rmcore/kernels/tree.py``): ``(TreeArrays, order)``, ``order[k]`` the given node that became node ``k``.

    Node ``k``'s children are ``children[child_start[k] : child_start[k + 1]]``, the probabilities of a chance node's
    outcomes at the same places of ``chance``. ``payoffs[p, k]`` is player p's payoff at node k (by default a
    two-player zero-sum game's: ``payoff`` and its negative).

    Every node gets a *shape*, bottom up: its kind (player 1's or 2's decision, chance, terminal), its number of
    children and their shapes. A block is a set of histories of one shape reached the same way from the deals' roots:
    the deals' roots of one shape, then, for each block and each child shape, the children of its histories of that
    shape, history by history and, within a history, slot by slot. Siblings of one shape (the outcomes of a chance
    node between two rounds, a Goofspiel player's cards) so share a block, whose histories are then the parents'
    times the siblings: the history ``j`` of the parent block's child by slot ``a`` is history ``j * stride +
    offset`` of the child block, where ``stride`` counts those siblings and ``offset`` is slot ``a``'s place among
    them. This keeps a block's histories in the order a depth-first walk meets them.

    Blocks are numbered in pre-order (a block before the blocks below it, which follow as a range), and the nodes
    block by block. Each player's best-response order: the blocks by level (the player's own decisions above them,
    deepest level first), at each level the player's decision blocks first, then the rest, children before parents.
    """
    n = player.shape[0]
    if payoffs is None:
        payoffs = np.vstack((payoff, -payoff))
    players = payoffs.shape[0]
    # Shapes, children before parents (the nodes are given parents first).
    shape = np.empty(n, dtype=np.int64)
    shapes: dict[tuple, int] = {}
    slots = np.diff(child_start)
    starts = child_start.tolist()
    for node in range(n - 1, -1, -1):
        kids = children[starts[node] : starts[node + 1]]
        key = (int(player[node]), kids.shape[0], *shape[kids].tolist())
        shape[node] = shapes.setdefault(key, len(shapes))
    # Blocks, pre-order: a stack of (member nodes, the parent block, its slots that lead here).
    pending: list[tuple[list[int], int, tuple[int, ...]]] = []
    roots_by_shape: dict[int, list[int]] = {}
    for root in deal_root.tolist():
        roots_by_shape.setdefault(int(shape[root]), []).append(root)
    for members in reversed(list(roots_by_shape.values())):
        pending.append((members, -1, ()))
    block_members: list[list[int]] = []
    block_parent: list[int] = []
    child_of: list[list[int]] = []  # each block's child block by slot, as many slots as its histories' children
    offset_of: list[list[int]] = []
    stride_of: list[list[int]] = []
    while pending:
        members, parent_block, parent_slots = pending.pop()
        block = len(block_members)
        block_members.append(members)
        block_parent.append(parent_block)
        count = int(slots[members[0]])
        child_of.append([-1] * count), offset_of.append([0] * count), stride_of.append([0] * count)
        for place, slot in enumerate(parent_slots):
            child_of[parent_block][slot] = block
            offset_of[parent_block][slot] = place
            stride_of[parent_block][slot] = len(parent_slots)
        first = starts[members[0]]
        groups: dict[int, list[int]] = {}
        for slot in range(count):
            groups.setdefault(int(shape[children[first + slot]]), []).append(slot)
        for group in reversed(list(groups.values())):
            below = [int(children[starts[m] + s]) for m in members for s in group]
            pending.append((below, block, tuple(group)))
    blocks = len(block_members)
    order = np.array([node for members in block_members for node in members], dtype=np.int64)
    new_index = np.empty(n, dtype=np.int64)
    new_index[order] = np.arange(n)
    block_start = np.zeros(blocks + 1, dtype=np.int64)
    block_start[1:] = np.cumsum([len(members) for members in block_members])
    block_kind = np.array([int(player[members[0]]) for members in block_members], dtype=np.int64)
    block_width = np.array([int(slots[members[0]]) for members in block_members], dtype=np.int64)
    parent_block = np.array(block_parent, dtype=np.int64)
    # A block's subtree of blocks ends where the next block that is not below it begins (pre-order).
    block_end = np.arange(1, blocks + 1, dtype=np.int64)
    for block in range(blocks - 1, 0, -1):
        above = parent_block[block]
        if above >= 0:
            block_end[above] = max(block_end[above], block_end[block])
    # The children in the new order of the nodes, each renumbered.
    new_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(slots[order], out=new_start[1:])
    edge_order = _edges_in_order(child_start, order, new_start)
    new_children = new_index[children[edge_order]]
    parent, parent_slot = parents(new_start, new_children)
    # Each block's slots in one list: node base + node * stride is a history's child by a slot (history j * stride +
    # offset of the child block for history j of the block: base = start(child) + offset - start(block) * stride).
    block_slot_start = np.zeros(blocks + 1, dtype=np.int64)
    np.cumsum(block_width, out=block_slot_start[1:])
    child = np.fromiter((c for row in child_of for c in row), dtype=np.int64, count=int(block_slot_start[-1]))
    offset = np.fromiter((c for row in offset_of for c in row), dtype=np.int64, count=child.shape[0])
    stride = np.fromiter((c for row in stride_of for c in row), dtype=np.int64, count=child.shape[0])
    start = np.repeat(block_start[:-1], block_width)
    depth = np.zeros(n, dtype=np.int64)
    for node in range(n):  # (parents first)
        if parent[node] >= 0:
            depth[node] = depth[parent[node]] + 1
    orders, level_starts, owns = [], [], []
    for p in range(players):
        level = np.zeros(blocks, dtype=np.int64)
        for block in range(blocks):  # (parents first)
            above = parent_block[block]
            if above >= 0:
                level[block] = level[above] + (1 if block_kind[above] == p else 0)
        sequence, starts, own = [], [], []
        for at in range(int(level.max()), -1, -1):
            mine = [b for b in range(blocks) if level[b] == at and block_kind[b] == p]
            rest = [b for b in range(blocks - 1, -1, -1) if level[b] == at and block_kind[b] != p]
            starts.append(len(sequence))
            own.append(len(mine))
            sequence += mine + rest
        starts.append(len(sequence))
        orders.append(sequence), level_starts.append(starts), owns.append(own)
    levels = max(len(own) for own in owns)
    response_levels = np.full((players, levels + 1), -1, dtype=np.int64)
    response_own = np.zeros((players, levels), dtype=np.int64)
    for p in range(players):
        response_levels[p, : len(level_starts[p])] = level_starts[p]
        response_own[p, : len(owns[p])] = owns[p]
    tree = TreeArrays(
        player=player[order].copy(),
        infoset=infoset[order].copy(),
        children=new_children,
        child_start=new_start,
        chance=chance[edge_order],
        payoff=payoff[order].copy(),
        parent=parent,
        parent_slot=parent_slot,
        depth=depth,
        deal_root=new_index[deal_root],
        deal_probability=np.asarray(deal_probability, dtype=np.float64).copy(),
        infoset_player=np.asarray(infoset_player, dtype=np.int64).copy(),
        num_actions=np.asarray(num_actions, dtype=np.int64).copy(),
        infoset_start=np.searchsorted(infoset_player, np.arange(players + 1)).astype(np.int64),
        block_start=block_start,
        block_kind=block_kind,
        block_width=block_width,
        block_slot_start=block_slot_start,
        block_child=child,
        block_child_base=np.where(child >= 0, block_start[np.maximum(child, 0)] + offset - start * stride, 0),
        block_child_stride=stride,
        block_end=block_end,
        root_blocks=np.flatnonzero(parent_block < 0).astype(np.int64),
        response_order=np.array(orders, dtype=np.int64),
        response_levels=response_levels,
        response_own=response_own,
        payoffs=payoffs[:, order].copy(),
    )
    return tree, order


def _edges_in_order(child_start: np.ndarray, order: np.ndarray, new_start: np.ndarray) -> np.ndarray:
    """The edges (places in ``children``) of the nodes ``order[0], order[1], ...``, each node's in slot order."""
    edges = np.arange(int(new_start[-1]), dtype=np.int64)
    # Edge e of the new list is slot e - new_start[k] of node order[k], k the node whose range holds it.
    owner = np.repeat(np.arange(order.shape[0], dtype=np.int64), np.diff(new_start))
    return child_start[order[owner]] + edges - new_start[owner]


def _names(index: dict[str, int]) -> list[str]:
    names = [""] * len(index)
    for name, k in index.items():
        names[k] = name
    return names
