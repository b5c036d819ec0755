"""Slow, obvious best responses and expected values on any TreeGame: recursive plain Python over the nodes' own arrays
(children, chance, payoffs), written from the definitions, sharing no code with the kernels' block passes.

A best response of player i to a policy: at every information set of i, the action whose counterfactual value (the
opponent's and chance's reach times the value of the history after it, summed over the set's histories, with the best
response played below) is largest, the first of the largest on ties. Information sets are decided in order of the
length of i's own sequence before them, longest first: everything below a history lies at a longer one.
"""

from __future__ import annotations

import numpy as np

CHANCE, TERMINAL = -2, -1


def _children(tree, node):
    """Node ``node``'s children, and their probabilities at a chance node (its slice of the tree's edge lists)."""
    first, end = int(tree.child_start[node]), int(tree.child_start[node + 1])
    return tree.children[first:end], tree.chance[first:end]


def _reach(game, policy):
    """{node: (pi_1, pi_2, pi_c)} by recursion from the deals' roots."""
    tree = game.tree
    reach = {}

    def walk(node, r0, r1, rc):
        reach[node] = (r0, r1, rc)
        actor = int(tree.player[node])
        kids, chance = _children(tree, node)
        for slot, child in enumerate(kids):
            if actor == CHANCE:
                walk(int(child), r0, r1, rc * chance[slot])
            elif actor == 0:
                walk(int(child), r0 * policy[tree.infoset[node], slot], r1, rc)
            else:
                walk(int(child), r0, r1 * policy[tree.infoset[node], slot], rc)

    for root, probability in zip(tree.deal_root, tree.deal_probability):
        walk(int(root), 1.0, 1.0, float(probability))
    return reach


def expected_value(game, policy) -> float:
    """Player 1's expected payoff when both play ``policy``."""
    tree = game.tree

    def value(node):
        actor = int(tree.player[node])
        if actor == TERMINAL:
            return float(tree.payoff[node])
        total = 0.0
        kids, chance = _children(tree, node)
        for slot, child in enumerate(kids):
            p = chance[slot] if actor == CHANCE else policy[tree.infoset[node], slot]
            total += p * value(int(child))
        return total

    return sum(float(p) * value(int(root)) for root, p in zip(tree.deal_root, tree.deal_probability))


def best_response_value(game, policy, player: int) -> float:
    """What ``player`` (0 or 1) gets, in its own payoff, by best-responding to ``policy``."""
    tree = game.tree
    sign = 1.0 if player == 0 else -1.0
    reach = _reach(game, policy)
    # Each information set's own-sequence length (the player's decisions above any of its histories).
    own_length = {}

    def lengths(node, count):
        actor = int(tree.player[node])
        if actor == player:
            own_length[int(tree.infoset[node])] = count
            count += 1
        for child in _children(tree, node)[0]:
            lengths(int(child), count)

    for root in tree.deal_root:
        lengths(int(root), 0)
    chosen: dict[int, int] = {}

    def value(node):
        actor = int(tree.player[node])
        if actor == TERMINAL:
            return sign * float(tree.payoff[node])
        kids, chance = _children(tree, node)
        kids = [int(c) for c in kids]
        if actor == player:
            return value(kids[chosen[int(tree.infoset[node])]])
        total = 0.0
        for slot, child in enumerate(kids):
            p = chance[slot] if actor == CHANCE else policy[tree.infoset[node], slot]
            total += p * value(child)
        return total

    nodes_of: dict[int, list[int]] = {}
    for node in range(tree.player.shape[0]):
        if tree.player[node] == player:
            nodes_of.setdefault(int(tree.infoset[node]), []).append(node)
    for info in sorted(nodes_of, key=lambda k: -own_length[k]):
        n = int(tree.num_actions[info])
        scores = np.zeros(n)
        for node in nodes_of[info]:
            weight = reach[node][1 - player] * reach[node][2]
            for a in range(n):
                scores[a] += weight * value(int(_children(tree, node)[0][a]))
        chosen[info] = int(np.argmax(scores))
    return sum(float(p) * value(int(root)) for root, p in zip(tree.deal_root, tree.deal_probability))
