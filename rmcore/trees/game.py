"""Game trees as the solvers see them: :class:`TreeGame`, its policies and the scratch arrays its kernels fill.

Every source of a sequential game (the builder in ``builder.py``, which the poker games, Liar's dice, Goofspiel, the
Gambit reader and OpenSpiel's conversion all use) produces one :class:`TreeGame`: the tree walked once into flat arrays
(:class:`TreeArrays`, which the kernels in ``rmcore/kernels/tree.py`` walk), with the labels pages and tables need. A
policy is a dense ``[infoset, action]`` array whose row ``k`` holds the probabilities of information set ``k``'s legal
actions in its first ``num_actions[k]`` columns (the rest are 0).

Players are numbered 1 to n in everything public, as the pages and the papers number them; the arrays number them
0 to n - 1 (``TreeArrays.player``, ``infoset_player``). A game has n >= 2 players (``TreeGame.players``, the rows of
``TreeArrays.payoffs``), zero-sum or general-sum.

>>> import rmcore
>>> policy = uniform_policy(rmcore.KUHN)
>>> policy.shape, float(policy[0, 1])
((12, 2), 0.5)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import config
from ..kernels.tree import CHANCE_NODE, TERMINAL, TreeArrays
from ..records import Policy
from ..validation import normalised

__all__ = [
    "TreeGame",
    "TreeArrays",
    "CHANCE_NODE",
    "policy_width",
    "uniform_policy",
    "as_policy_array",
    "player_index",
    "check_tree_game",
    "parents",
    "children_of",
    "chance_of",
    "action_weights",
    "opponent_rows",
]


class _TreeGameFields(NamedTuple):
    """A :class:`TreeGame`'s fields."""

    name: str
    tree: TreeArrays
    infosets: tuple[str, ...]  # information-set names, in the policy's row order
    actions: tuple[tuple[str, ...], ...]  # each information set's action names
    node_labels: tuple  # what each node of the tree is (game-specific)
    rules: object = None  # the rules it was built from (``poker.py``), if any
    #: Each deal's chance steps from the root, ``((outcome, exact probability), ...)``: the deal's probability is
    #: their product, multiplied from the root down. A file writer prints them as chance nodes, so that a game read
    #: back multiplies the same numbers in the same order (empty: the deals are listed, not factored).
    deal_paths: tuple = ()


class TreeGame(_TreeGameFields):
    """A game of n >= 2 players as flat arrays, with the labels pages and tables need.

    Its fields are :class:`_TreeGameFields`'s. A game remembers that :func:`check_tree_game` passed it (in its own
    ``__dict__``, which a named tuple's subclass has), so that the solvers of a race (up to 200 of them: 10 variants
    of 20 seeds) and every metric call check it once, not once each. Its arrays are therefore not to be changed in
    place once it is checked; ``_replace`` makes a new game, checked anew.
    """

    @property
    def players(self) -> int:
        """How many players: the rows of ``tree.payoffs``."""
        return int(self.tree.payoffs.shape[0])

    @property
    def is_zero_sum(self) -> bool:
        """Whether the payoffs at every terminal sum to 0 (as a :class:`~rmcore.MatrixGame` says of itself)."""
        known = self.__dict__.get("_zero_sum")
        if known is None:
            payoffs = self.tree.payoffs
            known = bool((payoffs[0] == -payoffs[1]).all()) if payoffs.shape[0] == 2 else not payoffs.sum(axis=0).any()
            self.__dict__["_zero_sum"] = known
        return known

    @property
    def is_two_player_zero_sum(self) -> bool:
        """Two players, zero-sum: the game whose value is one number per history (player 1's), whose exploitability is
        ``nash_conv / 2`` and whose sequence-form LP gives the exact equilibrium."""
        return self.players == 2 and self.is_zero_sum


def check_tree_game(game) -> None:
    """Raise a ValueError unless ``game`` is a :class:`TreeGame` whose arrays the kernels can walk safely.

    The kernels index without bounds checks (a child index past the end crashed the process), so every index and the
    layout's every promise (``rmcore/kernels/tree.py``: blocks of one kind, children found by arithmetic) are checked
    here, in vectorised numpy (a few milliseconds for Leduc's 9,457 nodes), once per game: a game that passed is not
    checked again (:class:`TreeGame`).
    """
    if not isinstance(game, TreeGame):
        raise ValueError(f"game must be a TreeGame (for example rmcore.KUHN), got {type(game).__name__}")
    if game.__dict__.get("_checked", False):
        return
    tree = game.tree
    if not isinstance(tree, TreeArrays) or not all(isinstance(a, np.ndarray) for a in tree):
        raise ValueError("game.tree must be a TreeArrays of numpy arrays (as rmcore.build_tree_game builds it)")
    nodes, infosets = tree.player.shape[0], len(game.infosets)

    def refuse(what: str) -> None:
        raise ValueError(f"the game tree is inconsistent: {what}")

    for name in TreeArrays._fields:
        kind = np.float64 if name in ("chance", "payoff", "payoffs", "deal_probability") else np.int64
        if getattr(tree, name).dtype != kind:
            refuse(f"{name} must be an array of {np.dtype(kind).name}")
    if tree.player.ndim != 1 or nodes == 0:
        refuse("player must be a non-empty 1-D array, one entry per node")
    for name in ("infoset", "payoff", "parent", "parent_slot", "depth"):
        if getattr(tree, name).shape != (nodes,):
            refuse(f"{name} must have one entry per node ({nodes})")
    children, child_start = tree.children, tree.child_start
    if child_start.shape != (nodes + 1,) or child_start[0] != 0 or (np.diff(child_start) < 0).any():
        refuse(f"child_start must rise from 0, one entry per node and one more ({nodes + 1})")
    if children.ndim != 1 or children.shape[0] != child_start[-1] or tree.chance.shape != children.shape:
        refuse("children and chance must be lists of every node's children, as long as child_start says")
    players = tree.payoffs.shape[0] if tree.payoffs.ndim == 2 else 0
    if not 2 <= players <= config.MAX_TREE_PLAYERS or tree.payoffs.shape != (players, nodes):
        refuse(f"payoffs must hold a row for each of 2 to {config.MAX_TREE_PLAYERS} players, one entry per node")
    if not np.array_equal(tree.payoffs[0], tree.payoff, equal_nan=True):  # (a NaN is refused below, by name)
        refuse("payoffs' first row must be payoff (player 1's)")
    if not (
        (tree.player >= 0) & (tree.player < players) | (tree.player == TERMINAL) | (tree.player == CHANCE_NODE)
    ).all():
        refuse(f"player must be 0 to {players - 1} at decisions, -1 at terminals, CHANCE_NODE at chance nodes")
    outside = (children < 0) | (children >= nodes)
    if outside.any():
        bad = int(np.searchsorted(child_start, int(np.argmax(outside)), side="right") - 1)
        refuse(f"node {bad} has a child index outside the nodes (0 to {nodes - 1})")
    if (
        tree.infoset_player.shape != (infosets,)
        or tree.num_actions.shape != (infosets,)
        or len(game.actions) != infosets
    ):
        refuse(f"infoset_player, num_actions and the action names must have one entry per information set ({infosets})")
    owners = tree.infoset_player
    if (np.diff(owners) < 0).any() or not np.array_equal(
        tree.infoset_start, np.searchsorted(owners, np.arange(players + 1))
    ):
        refuse("the information sets must be player 1's, then player 2's, ..., with infoset_start where each begins")
    decisions = tree.player >= 0
    at = tree.infoset[decisions]
    if ((at < 0) | (at >= infosets)).any():
        refuse(f"a decision node's information set is outside 0 to {infosets - 1}")
    if (tree.infoset_player[at] != tree.player[decisions]).any():
        refuse("a decision node's player differs from its information set's")
    if (tree.num_actions < 1).any():
        refuse("every information set needs at least 1 action")
    slots = np.diff(child_start)
    if (slots[decisions] != tree.num_actions[at]).any():
        refuse("a decision node needs exactly one child for each of its information set's actions")
    if (slots[tree.player == TERMINAL] != 0).any() or (slots[tree.player == CHANCE_NODE] < 1).any():
        refuse("terminals have no children, chance nodes at least one")
    if not np.isfinite(tree.payoffs).all():
        refuse("a payoff is not a finite number")
    roots, probabilities = tree.deal_root, tree.deal_probability
    if roots.ndim != 1 or roots.shape != probabilities.shape or ((roots < 0) | (roots >= nodes)).any():
        refuse("every deal needs a root node inside the tree")
    if (probabilities < 0).any() or abs(float(probabilities.sum()) - 1.0) > 1e-9:
        refuse(f"the deals' probabilities must be >= 0 and sum to 1 (they sum to {float(probabilities.sum()):.12g})")
    parent, slot = parents(child_start, children)
    if not (np.array_equal(tree.parent, parent) and np.array_equal(tree.parent_slot, slot)):
        refuse("parent and parent_slot must name each node's parent and the action or outcome leading to it")
    if not np.array_equal(np.sort(roots), np.flatnonzero(parent < 0)):
        refuse("the deals' roots must be exactly the nodes without a parent")
    inner = parent >= 0
    if (tree.depth[roots] != 0).any() or (tree.depth[inner] != tree.depth[parent[inner]] + 1).any():
        refuse("depth must count the moves from each deal's root")
    chance_nodes = np.flatnonzero(tree.player == CHANCE_NODE)
    sums = np.add.reduceat(tree.chance, child_start[chance_nodes]) if chance_nodes.size else np.zeros(0)
    if (tree.chance < 0).any() or (np.abs(sums - 1.0) > 1e-9).any():
        refuse("the probabilities at every chance node must be >= 0 and sum to 1")
    _check_blocks(tree, refuse, players)
    game.__dict__["_checked"] = True


def _check_blocks(tree: TreeArrays, refuse, players: int) -> None:
    """The block layout's promises (``rmcore.trees.builder.lay_out``), which the kernels rely on without checking."""
    nodes = tree.player.shape[0]
    start = tree.block_start
    blocks = start.shape[0] - 1
    if start.ndim != 1 or blocks < 1 or start[0] != 0 or start[-1] != nodes or (np.diff(start) < 1).any():
        refuse("block_start must cut the nodes into non-empty consecutive blocks")
    for name in ("block_kind", "block_width", "block_end"):
        if getattr(tree, name).shape != (blocks,):
            refuse(f"{name} must have one entry per block ({blocks})")
    slot_start = tree.block_slot_start
    if slot_start.shape != (blocks + 1,) or not np.array_equal(np.diff(slot_start), tree.block_width):
        refuse(f"block_slot_start must count each block's slots from 0 ({blocks + 1} entries)")
    if slot_start[0] != 0:
        refuse("block_slot_start must start at 0")
    for name in ("block_child", "block_child_base", "block_child_stride"):
        if getattr(tree, name).shape != (slot_start[-1],):
            refuse(f"{name} must have one entry per block slot ({slot_start[-1]})")
    block_of = np.repeat(np.arange(blocks), np.diff(start))
    slots = np.diff(tree.child_start)
    if (tree.player != tree.block_kind[block_of]).any() or (slots != tree.block_width[block_of]).any():
        refuse("every node of a block must be of the block's kind, with the block's number of children")
    child, base, stride = tree.block_child, tree.block_child_base, tree.block_child_stride
    above = np.repeat(np.arange(blocks), tree.block_width)  # the block of each slot
    if ((child <= above) | (child >= blocks)).any():
        refuse("a block's children must be later blocks, one per slot")
    offset = base + start[above] * stride - start[child]  # (where a history's child lies in its block)
    if ((stride < 1) | (offset < 0) | (offset >= stride)).any():
        refuse("a block's child offsets must lie within their strides")
    sizes = np.diff(start)
    if (sizes[child] != sizes[above] * stride).any():
        refuse("a child block must hold its parent block's histories times the siblings it merges")
    # A history's child by a slot is node base + node * stride (every node checked): edge e is slot
    # e - child_start[node] of its node, and that slot is entry slot_start[block] + slot of the block's.
    node_of_edge = np.repeat(np.arange(nodes), slots)
    entry = slot_start[block_of[node_of_edge]] + np.arange(tree.children.shape[0]) - tree.child_start[node_of_edge]
    if not np.array_equal(tree.children, base[entry] + node_of_edge * stride[entry]):
        refuse("a block's histories' children must lie where its child blocks, bases and strides say")
    end = tree.block_end
    if ((end <= np.arange(blocks)) | (end > blocks)).any() or (end[child] > end[above]).any():
        refuse("block_end must close each block's subtree of blocks, within the blocks")
    parentless = np.ones(blocks, dtype=bool)
    parentless[child] = False
    if not np.array_equal(tree.root_blocks, np.flatnonzero(parentless)):
        refuse("root_blocks must list the blocks no other block leads to")
    if not parentless[block_of[tree.deal_root]].all():
        refuse("every deal's root must lie in a root block")
    order, levels, own = tree.response_order, tree.response_levels, tree.response_own
    if (
        order.shape != (players, blocks)
        or levels.ndim != 2
        or levels.shape[0] != players
        or own.shape != (players, levels.shape[1] - 1)
    ):
        refuse("the best-response orders must list every block for each player")
    for p in range(players):
        if not np.array_equal(np.sort(order[p]), np.arange(blocks)):
            refuse("each best-response order must list every block once")
        bounds = levels[p][levels[p] >= 0]
        if bounds.size < 2 or bounds[0] != 0 or bounds[-1] != blocks or (np.diff(bounds) < 0).any():
            refuse("the best-response levels must cut each order into consecutive ranges")
        if (levels[p][bounds.size :] != -1).any():
            refuse("the best-response levels must end in -1 past the last")
        count = bounds.size - 1
        if (own[p, :count] > np.diff(bounds)).any() or (own[p, :count] < 0).any():
            refuse("a level's own decision blocks must lie within it")


def parents(child_start: np.ndarray, children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(parent, slot)``: each node's parent and which of its actions or outcomes leads there (-1 at roots), from
    every node's children ``children[child_start[k] : child_start[k + 1]]``."""
    nodes = child_start.shape[0] - 1
    parent = np.full(nodes, -1, dtype=np.int64)
    slot = np.full(nodes, -1, dtype=np.int64)
    rows = np.repeat(np.arange(nodes, dtype=np.int64), np.diff(child_start))
    parent[children] = rows
    slot[children] = np.arange(children.shape[0], dtype=np.int64) - child_start[rows]
    return parent, slot


def children_of(tree: TreeArrays, node: int) -> np.ndarray:
    """Node ``node``'s children (a view), in the order of its actions or outcomes."""
    return tree.children[tree.child_start[node] : tree.child_start[node + 1]]


def chance_of(tree: TreeArrays, node: int) -> np.ndarray:
    """The probabilities of a chance node's outcomes (a view; zeros at a decision or a terminal)."""
    return tree.chance[tree.child_start[node] : tree.child_start[node + 1]]


def player_index(value, what: str = "player", players: int = 2) -> int:
    """A player given as 1 to ``players`` (as the pages and the papers number them), returned as the arrays' 0 to
    ``players - 1``."""
    if isinstance(value, bool) or value not in range(1, players + 1):
        choices = "1 or 2" if players == 2 else f"1 to {players}"
        raise ValueError(f"{what} must be {choices}, got {value!r}")
    return int(value) - 1


def policy_width(game: TreeGame) -> int:
    """The columns of a policy array: the most legal actions at any information set."""
    return int(game.tree.num_actions.max())


def uniform_policy(game: TreeGame) -> np.ndarray:
    """Every information set's legal actions equally likely (zero beyond them)."""
    widths = game.tree.num_actions
    columns = np.arange(policy_width(game))
    return np.where(columns[None, :] < widths[:, None], 1.0 / widths[:, None], 0.0)


def as_policy_array(game: TreeGame, policy) -> np.ndarray:
    """A validated ``[infoset, action]`` array from a :class:`Policy`, a dict ``{infoset: probs}`` or an array."""
    if isinstance(policy, Policy):
        policy = policy.probabilities
    shape = (len(game.infosets), policy_width(game))
    if isinstance(policy, dict):
        missing = [name for name in game.infosets if name not in policy]
        if missing:
            raise ValueError(f"the policy has no entry for information set {missing[0]!r}")
        rows = []
        for name, actions in zip(game.infosets, game.actions):
            row = policy[name]
            try:
                row = [float(p) for p in row]
            except (TypeError, ValueError):
                raise ValueError(f"the probabilities at {name!r} must be numbers") from None
            if len(row) != len(actions):
                raise ValueError(
                    f"information set {name!r} has {len(actions)} actions ({', '.join(actions)}); "
                    f"got {len(row)} probabilities"
                )
            rows.append(row + [0.0] * (shape[1] - len(row)))
        policy = rows
    try:
        array = np.asarray(policy, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("a policy must be numbers: one row of action probabilities per information set") from None
    if array.shape != shape:
        raise ValueError(
            f"a {game.name} policy has {shape[0]} information sets with {shape[1]} probabilities each; "
            f"got shape {array.shape}"
        )
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError("policy probabilities must be finite and >= 0")
    illegal = (array > 0) & (np.arange(shape[1])[None, :] >= game.tree.num_actions[:, None])
    if illegal.any():
        k = int(np.argmax(illegal.any(axis=1)))
        raise ValueError(
            f"information set {game.infosets[k]!r} has only {game.tree.num_actions[k]} actions; the rest must be 0"
        )
    bad = np.abs(array.sum(axis=1) - 1.0) > config.SIMPLEX_TOLERANCE
    if bad.any():
        raise ValueError(f"the probabilities at {game.infosets[int(np.argmax(bad))]!r} do not sum to 1")
    return np.array(array, dtype=np.float64, order="C")  # (a writable copy: a read-only array is another type to numba)


def action_weights(game: TreeGame, name: str, weights, k: int | None = None) -> np.ndarray:
    """One information set's weights over its legal actions, normalised (like the matrix page's opponent sliders);
    ``k``: its row, if the caller knows it (looking a name up walks every name)."""
    k = game.infosets.index(name) if k is None else k
    actions = game.actions[k]
    try:
        row = np.asarray([float(w) for w in weights])
    except (TypeError, ValueError):
        raise ValueError(f"the weights at {name!r} must be numbers, one per action ({', '.join(actions)})") from None
    if row.shape[0] != len(actions):
        raise ValueError(
            f"information set {name!r} has {len(actions)} actions ({', '.join(actions)}); got {row.shape[0]} weights"
        )
    if not np.isfinite(row).all() or (row < 0).any() or not row.any():
        raise ValueError(f"the weights at {name!r} must be finite, >= 0 and not all 0")
    return normalised(row)


def opponent_rows(game: TreeGame, opponent) -> tuple[int, np.ndarray]:
    """``(its array index 0 or 1, a policy array with its rows filled and the learner's uniform)`` from a fixed
    opponent's strategy: a dict naming every information set of exactly one player (see
    :func:`rmcore.fixed_strategy`)."""
    check_tree_game(game)
    if not isinstance(opponent, dict) or not opponent:
        raise ValueError(
            "a fixed opponent is a dict from each of its information sets to action probabilities "
            "(rmcore.fixed_strategy builds one)"
        )
    # Rows by name, looked up once: a name looked up per entry walked all 24,576 of Liar's dice (6 sides) 36,864
    # times, seconds for a fixed player's 12,288 sets.
    row_of = {name: k for k, name in enumerate(game.infosets)}
    unknown = [name for name in opponent if name not in row_of]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not an information set of {game.name}")
    players = {int(game.tree.infoset_player[row_of[name]]) for name in opponent}
    if len(players) != 1:
        raise ValueError("a fixed opponent's information sets must all belong to one player")
    (index,) = players
    owner = game.tree.infoset_player
    missing = [name for k, name in enumerate(game.infosets) if owner[k] == index and name not in opponent]
    if missing:
        raise ValueError(
            f"the fixed opponent (player {index + 1}) needs a strategy at every one of its "
            f"information sets; missing {missing[0]!r} and {len(missing) - 1} more"
        )
    policy = uniform_policy(game)
    for name, row in opponent.items():
        k = row_of[name]
        probabilities = action_weights(game, name, row, k)
        if abs(float(np.sum([float(p) for p in row])) - 1.0) > 1e-9:
            raise ValueError(f"the probabilities at {name!r} must sum to 1 (rmcore.fixed_strategy normalises weights)")
        policy[k, : probabilities.shape[0]] = probabilities
    return index, policy
