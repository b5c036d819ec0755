"""Kuhn poker (Kuhn 1950) as a :class:`~rmcore.cfr.TreeGame`, and :class:`KuhnCFR` on it.

Three cards J < Q < K, each player antes 1 and is dealt one card. Player 1 passes (checks) or
bets 1; after a pass player 2 passes (showdown for 2) or bets, and player 1 then folds (pass) or
calls (bet); after a bet the other player folds or calls. The game value for player 1 is -1/18,
and the equilibria form a family with one parameter alpha in [0, 1/3] (:func:`equilibrium_policy`).

The tree is walked once into flat arrays, deal by deal, each deal's subtree parents first, so CFR
(see ``cfr.py``) is one forward and one backward pass over arrays.

>>> from rmcore import KuhnCFR
>>> solver = KuhnCFR("cfr+")
>>> solver.run(1000)
>>> m = solver.metrics()
>>> round(m.game_value, 3), m.exploitability < 1e-3
(-0.056, True)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from . import _kernels, config
from .cfr import CFRSolver, TreeGame, tree_nash_conv
from .records import Policy

__all__ = ["KuhnCFR", "KUHN", "INFOSETS", "ACTIONS", "kuhn_tree", "kuhn_nash_conv", "equilibrium_policy"]

CARDS = "JQK"
ACTIONS = ("pass", "bet")
#: Player 1's information sets, then player 2's: card, then the public history.
INFOSETS = ("J", "Q", "K", "Jpb", "Qpb", "Kpb", "Jp", "Jb", "Qp", "Qb", "Kp", "Kb")
_TERMINAL = {"pp", "bp", "bb", "pbp", "pbb"}


def _payoff(history: str, card_1: int, card_2: int) -> float:
    """Player 1's payoff at a terminal history."""
    showdown = 1.0 if card_1 > card_2 else -1.0
    return {"pp": showdown, "bp": 1.0, "pbp": -1.0, "bb": 2.0 * showdown, "pbb": 2.0 * showdown}[history]


def kuhn_tree() -> TreeGame:
    """Kuhn poker as flat arrays; each node is labelled (card 1, card 2, public history)."""
    labels: list[tuple[int, int, str]] = []
    deal_start, deal_end = [], []
    for card_1, card_2 in itertools.permutations(range(3), 2):
        deal_start.append(len(labels))
        frontier = [""]
        while frontier:  # breadth first: parents before children
            labels.extend((card_1, card_2, h) for h in frontier)
            frontier = [h + a for h in frontier if h not in _TERMINAL for a in "pb"]
        deal_end.append(len(labels))
    index = {label: k for k, label in enumerate(labels)}
    n = len(labels)
    player = np.full(n, -1, dtype=np.int64)
    infoset = np.full(n, -1, dtype=np.int64)
    children = np.full((n, 2), -1, dtype=np.int64)
    payoff = np.zeros(n)
    depth = np.array([len(h) for _, _, h in labels], dtype=np.int64)
    for k, (c1, c2, h) in enumerate(labels):
        if h in _TERMINAL:
            payoff[k] = _payoff(h, c1, c2)
            continue
        actor = len(h) % 2
        player[k] = actor
        infoset[k] = INFOSETS.index(CARDS[c1 if actor == 0 else c2] + h)
        children[k] = [index[(c1, c2, h + "p")], index[(c1, c2, h + "b")]]
    tree = _kernels.GameTree(
        player=player,
        infoset=infoset,
        children=children,
        payoff=payoff,
        deal_start=np.array(deal_start, dtype=np.int64),
        deal_end=np.array(deal_end, dtype=np.int64),
        deal_probability=np.full(len(deal_start), 1.0 / len(deal_start)),
        by_depth=np.argsort(-depth, kind="stable").astype(np.int64),
        depth=depth,
        infoset_player=np.array([0] * 6 + [1] * 6, dtype=np.int64),
    )
    return TreeGame("Kuhn poker", tree, INFOSETS, (ACTIONS,) * len(INFOSETS), tuple(labels))


#: Kuhn poker as a tree game: 12 information sets, 2 actions each, 6 deals.
KUHN = kuhn_tree()


class KuhnCFR(CFRSolver):
    """:class:`~rmcore.CFRSolver` on Kuhn poker: ``KuhnCFR(variant, updates, seed, max_points)``.

    >>> solver = KuhnCFR("cfr")
    >>> solver.run(100)
    >>> f"{solver.metrics().exploitability:.3g}"     # OpenSpiel's CFRSolver after 100 iterations
    '0.00823'
    """

    def __init__(self, variant: str = "cfr", updates: str = "alternating", seed: int | None = None,
                 max_points: int = config.DEFAULT_MAX_POINTS):  # fmt: skip
        super().__init__(KUHN, variant, updates, seed, max_points)


def kuhn_nash_conv(policy) -> float:
    """NashConv of a Kuhn poker policy: the sum of what each player gains by best-responding.

    ``policy`` is a :class:`~rmcore.Policy`, a dict from every information set to [pass, bet], or a 12x2 array.

    >>> round(kuhn_nash_conv({name: [0.5, 0.5] for name in INFOSETS}), 12)
    0.916666666667
    """
    return tree_nash_conv(KUHN, policy)


def equilibrium_policy(alpha: float) -> Policy:
    """The Kuhn equilibrium family (Kuhn 1950) for ``0 <= alpha <= 1/3``, as [pass, bet] per information set."""
    if not (0.0 <= alpha <= 1.0 / 3.0 + 1e-12) or math.isnan(alpha):
        raise ValueError(f"alpha must lie in [0, 1/3]; got {alpha}")
    bet = {
        "J": alpha, "Q": 0.0, "K": 3 * alpha, "Jpb": 0.0, "Qpb": alpha + 1 / 3, "Kpb": 1.0,
        "Jp": 1 / 3, "Jb": 0.0, "Qp": 0.0, "Qb": 1 / 3, "Kp": 1.0, "Kb": 1.0,
    }  # fmt: skip
    return Policy(np.array([[1.0 - bet[name], bet[name]] for name in INFOSETS]), INFOSETS, (ACTIONS,) * len(INFOSETS))
