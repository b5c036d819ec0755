"""Any two-player zero-sum game tree, walked once into a :class:`~rmcore.TreeGame`.

A game is given as a root state and an ``expand(state)`` function that says what a state is: a
:class:`Decision` (whose turn, the information set's name, the actions and the states after them),
a :class:`Chance` node (outcomes with their probabilities) or a :class:`Terminal` (player 1's payoff).
The Gambit ``.efg`` reader, the OpenSpiel converter and the teaching games (Liar's dice, Goofspiel) all
describe their games so; :func:`build_tree_game` lays the tree out for the kernels:

- the chance nodes above every decision are *deals* (``TreeArrays.deal_start``): each path through them is one
  deal whose probability is the product of its steps, multiplied from the root down (``1.0 * p1 * p2 ...``, the
  order in which OpenSpiel multiplies reach probabilities, so that CFR's arithmetic is OpenSpiel's to the last bit);
- each deal's subtree is laid out depth first, in prefix order (parents before children, and a history's actions
  in order), the order in which OpenSpiel's CFR visits histories and a Gambit file lists them;
- chance nodes below a decision stay chance nodes (``CHANCE_NODE``) with their probabilities;
- information sets are rows of a policy, player 1's first, each player's in the order first met (or as
  ``infoset_order`` says).

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
(('player 1', 'player 2'), [0, 1, -1, -1, 1, -1, -1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from . import validation
from .tree import CHANCE_NODE, TreeArrays, TreeGame, check_tree_game, parents, subtree_ends

__all__ = ["Decision", "Chance", "Terminal", "build_tree_game", "MAX_TREE_NODES", "tree_depths"]

#: Most nodes a tree built here may have: Liar's dice with six sides has 294,883; ten million would take the
#: builder minutes and the arrays gigabytes.
MAX_TREE_NODES = 3_000_000


class Decision(NamedTuple):
    """A player's turn: ``player`` is 1 or 2; every history of information set ``infoset`` offers ``actions``."""

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
    """The game is over: player 1's payoff (player 2 gets minus that)."""

    payoff: float


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
        A sort key for each player's information sets (by name); by default, the order first met.
    rules
        What the game was built from (kept as ``TreeGame.rules``).
    max_nodes
        Refuse (ValueError) a tree with more nodes than this.

    Returns
    -------
    TreeGame
        Its ``node_labels`` hold each node's history (the action and outcome names from the root, joined by
        spaces) and its ``deal_paths`` each deal's chance steps ``((outcome, probability), ...)``.
    """
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
    for steps, state, path in deals:
        deal_start.append(len(player))
        probability = 1.0
        for _, p in steps:
            probability *= float(p)
        deal_probability.append(probability)
        # Depth first, prefix order: each entry is (state, where its index goes in its parent, history, recall).
        stack = [(state, None, path, ((), ()))]
        while stack:
            state, slot, history, recall = stack.pop()
            index = len(player)
            if index >= max_nodes:
                raise ValueError(f"{name} has more than {max_nodes:,} nodes, more than rmcore builds")
            if slot is not None:
                children[slot[0]][slot[1]] = index
            node = expand(state)
            labels.append(" ".join(history))
            if isinstance(node, Terminal):
                value = validation.payoff(node.payoff, f"the payoff at {_where(history)}")  # (the matrix games' limits)
                player.append(-1), infoset_of.append(-1), payoff.append(value)
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
            if node.player not in (1, 2) or isinstance(node.player, bool):
                raise ValueError(f"the player at {_where(history)} must be 1 or 2; got {node.player!r}")
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
                following = (own, recall[1]) if actor == 0 else (recall[0], own)
                stack.append((node.children[a], (index, a), history + (actions[a],), following))
        deal_end.append(len(player))

    if not infoset_owner:
        raise ValueError(f"{name} has no decision for either player")
    # Rows: player 1's information sets, then player 2's, each in the order first met or as asked.
    names = _names(infoset_index)
    order = sorted(
        range(len(infoset_owner)), key=lambda k: (infoset_owner[k], infoset_order(names[k]) if infoset_order else k)
    )
    row = np.empty(len(order), dtype=np.int64)
    row[order] = np.arange(len(order))

    n = len(player)
    width = max(max((len(c) for c in children), default=1), 1)
    children_array = np.full((n, width), -1, dtype=np.int64)
    chance_array = np.zeros((n, width))
    for k, (kids, probs) in enumerate(zip(children, probabilities)):
        children_array[k, : len(kids)] = kids
        chance_array[k, : len(probs)] = probs
    player_array = np.array(player, dtype=np.int64)
    infoset_array = np.array(infoset_of, dtype=np.int64)
    decisions = infoset_array >= 0
    infoset_array[decisions] = row[infoset_array[decisions]]
    depth = tree_depths(
        player_array,
        infoset_array,
        children_array,
        np.array(deal_start, dtype=np.int64),
        name,
        [names[k] for k in order],
    )
    parent, parent_slot = parents(children_array)
    tree = TreeArrays(
        player=player_array,
        infoset=infoset_array,
        children=children_array,
        payoff=np.array(payoff),
        deal_start=np.array(deal_start, dtype=np.int64),
        deal_end=np.array(deal_end, dtype=np.int64),
        deal_probability=np.array(deal_probability),
        by_depth=np.argsort(-depth, kind="stable").astype(np.int64),
        depth=depth,
        infoset_player=np.array([infoset_owner[k] for k in order], dtype=np.int64),
        num_actions=np.array([len(infoset_actions[k]) for k in order], dtype=np.int64),
        chance=chance_array,
        chance_nodes=np.flatnonzero(player_array == CHANCE_NODE).astype(np.int64),
        subtree_end=np.full(n, -1, dtype=np.int64),
        parent=parent,
        parent_slot=parent_slot,
    )
    tree = tree._replace(subtree_end=subtree_ends(tree))  # prefix order: every subtree is a range of nodes
    game = TreeGame(
        name,
        tree,
        tuple(names[k] for k in order),
        tuple(infoset_actions[k] for k in order),
        tuple(labels),
        rules,
        tuple(tuple((outcome, _exact(p)) for outcome, p in steps) for steps, _, _ in deals),
    )
    check_tree_game(game)
    return game


def _names(index: dict[str, int]) -> list[str]:
    names = [""] * len(index)
    for name, k in index.items():
        names[k] = name
    return names


def tree_depths(player, infoset, children, deal_start, name: str = "the game", infoset_names=None) -> np.ndarray:
    """A level per node such that every child lies deeper than its parent and the histories of an information set
    share one level: the order in which a best response resolves information sets, deepest first.

    The number of moves from the deal's root is such a level when every information set's histories are equally
    deep (poker, Liar's dice, Goofspiel); otherwise levels are raised until both rules hold. A tree where no level
    can satisfy them (each player's information sets straddle the other's) is refused.
    """
    n = player.shape[0]

    def _label(k: int) -> str:
        return repr(infoset_names[k]) if infoset_names is not None else str(k)

    depth = np.zeros(n, dtype=np.int64)
    parent_of, _ = parents(children)
    for node in range(n):  # prefix order: parents first
        if parent_of[node] >= 0:
            depth[node] = depth[parent_of[node]] + 1
    decisions = np.flatnonzero(infoset >= 0)
    infosets = int(infoset.max()) + 1 if decisions.size else 0
    edges_child = np.flatnonzero(parent_of >= 0)
    edges_parent = parent_of[edges_child]
    for _ in range(infosets + 2):
        highest = np.zeros(infosets, dtype=np.int64)
        np.maximum.at(highest, infoset[decisions], depth[decisions])
        raised = depth.copy()
        raised[decisions] = highest[infoset[decisions]]
        # Children below their parents again: one relaxation sweep per level of the deepest chain.
        while True:
            need = raised[edges_parent] + 1
            short = need > raised[edges_child]
            if not short.any():
                break
            np.maximum.at(raised, edges_child[short], need[short])
        if np.array_equal(raised, depth):
            return depth
        moved = raised[decisions] != depth[decisions]
        depth = raised
    tangled = int(infoset[decisions][np.argmax(moved)])
    raise ValueError(
        f"{name}: information set {_label(tangled)} has histories both before and after histories of another "
        "information set (the players' information sets interleave), so no order resolves them deepest first, "
        "as rmcore's best response does"
    )
