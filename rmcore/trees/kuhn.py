"""Kuhn poker (Kuhn 1950) as a :class:`~rmcore.TreeGame`: :data:`KUHN`, its information sets and its equilibria.

Three cards J < Q < K, each player antes 1 and is dealt one card. Player 1 passes (checks) or
bets 1; after a pass player 2 passes (showdown for 2) or bets, and player 1 then folds (pass) or
calls (bet); after a bet the other player folds or calls. The game value for player 1 is -1/18,
and the equilibria form a family with one parameter alpha in [0, 1/3] (:func:`equilibrium_policy`).

The tree is built once into flat arrays (``poker.py``, which also builds Kuhn poker with more cards and other bet
sizes), laid out in blocks of histories of one shape, so CFR (see ``cfr.py``) is one forward and one backward pass
over arrays.

>>> from rmcore import KUHN, CFRSolver, nash_conv
>>> solver = CFRSolver(KUHN, "cfr+")
>>> solver.run(1000)
>>> m = solver.metrics()
>>> round(m.game_value, 3), m.exploitability < 1e-3
(-0.056, True)
>>> round(nash_conv(KUHN, {name: [0.5, 0.5] for name in INFOSETS}), 12)      # the uniform policy: 11/12
0.916666666667
"""

from __future__ import annotations

import math

import numpy as np

from .._deprecated import getattr_for
from ..records import Policy
from . import poker
from .game import TreeGame

__all__ = ["KUHN", "INFOSETS", "ACTIONS", "kuhn_tree", "is_classic_kuhn", "equilibrium_policy"]

CARDS = "JQK"
ACTIONS = ("pass", "bet")
#: Player 1's information sets, then player 2's: card, then the public history.
INFOSETS = ("J", "Q", "K", "Jpb", "Qpb", "Kpb", "Jp", "Jb", "Qp", "Qb", "Kp", "Kb")


def kuhn_tree() -> TreeGame:
    """Kuhn poker as flat arrays (``poker.kuhn_poker(3, 1.0)``); each node is labelled (card 1, card 2, public
    history)."""
    return poker.kuhn_poker(3, 1.0)


#: Kuhn poker as a tree game: 12 information sets, 2 actions each, 6 deals.
KUHN = kuhn_tree()


def is_classic_kuhn(game: TreeGame) -> bool:
    """Whether ``game`` is classic Kuhn poker: built from Kuhn's rules with 3 cards and a bet of 1 ante.

    Decided by the rules the game was built from, not by which object it is, so a game built again (after
    ``kuhn_poker.cache_clear()``, or in another process) is still recognised.

    >>> import rmcore
    >>> [is_classic_kuhn(game) for game in (rmcore.kuhn_poker(), rmcore.kuhn_poker(4), rmcore.leduc_poker())]
    [True, False, False]
    """
    return isinstance(game, TreeGame) and game.rules == poker.KuhnRules()


def equilibrium_policy(alpha: float) -> Policy:
    """The Kuhn equilibrium family (Kuhn 1950) for ``0 <= alpha <= 1/3``, as [pass, bet] per information set."""
    if not (0.0 <= alpha <= 1.0 / 3.0 + 1e-12) or math.isnan(alpha):
        raise ValueError(f"alpha must lie in [0, 1/3]; got {alpha}")
    bet = {
        "J": alpha,
        "Q": 0.0,
        "K": 3 * alpha,
        "Jpb": 0.0,
        "Qpb": alpha + 1 / 3,
        "Kpb": 1.0,
        "Jp": 1 / 3,
        "Jb": 0.0,
        "Qp": 0.0,
        "Qb": 1 / 3,
        "Kp": 1.0,
        "Kb": 1.0,
    }
    return Policy(np.array([[1.0 - bet[name], bet[name]] for name in INFOSETS]), INFOSETS, (ACTIONS,) * len(INFOSETS))


__getattr__ = getattr_for("rmcore.trees.kuhn")
