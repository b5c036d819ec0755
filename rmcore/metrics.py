"""How far a policy is from equilibrium, for a matrix game and a game tree alike (OpenSpiel's ``nash_conv`` and
``exploitability`` of a game and a policy, and one best response).

A policy is an :class:`~rmcore.Policy` (what a solver's ``average_policy()`` returns), a dict from every information
set to action probabilities, or an ``[infoset, action]`` array; a matrix game's two information sets are ``row``
(player 1) and ``col`` (player 2), and its policy may also be the pair ``(x, y)`` (:meth:`rmcore.MatrixGame.policy`
builds the record).

- :func:`best_response`: what player ``p`` (1 or 2) earns by switching to a best response, exactly (one backward
  pass over a tree; ``max_i (A y)_i`` on a matrix), and what that gains it over its own part of the policy;
- :func:`nash_conv`: the players' gains together, zero exactly at a Nash equilibrium; for a
  :class:`~rmcore.NormalFormGame` of n players the policy is a sequence of n mixed strategies;
- :func:`exploitability`: ``nash_conv / 2`` for a two-player zero-sum game (OpenSpiel's convention).

>>> import rmcore
>>> rps = rmcore.preset("rps")
>>> rmcore.nash_conv(rps, rps.policy([1, 0, 0], [1, 0, 0]))    # both play Rock: each gains 1 by switching to Paper
2.0
>>> uniform = {name: [0.5, 0.5] for name in rmcore.KUHN.infosets}
>>> round(rmcore.exploitability(rmcore.KUHN, uniform), 4), rmcore.best_response(rmcore.KUHN, uniform, 2).policy["Jb"]
(0.4583, array([1., 0.]))
"""

from __future__ import annotations

from ._deprecated import getattr_for, warn
from .matrix import metrics as matrix_metrics
from .matrix.games import NormalFormGame
from .matrix.metrics import hedge_regret_bound, regret_bound
from .records import BestResponse
from .trees import cfr, exploit
from .trees.game import TreeGame

__all__ = ["nash_conv", "exploitability", "best_response", "regret_bound", "hedge_regret_bound"]


def _policy(function: str, policy, old: tuple):
    """The policy, from the signature of one release ago ``(game, x, y)`` with a warning."""
    if not old:
        return policy
    if len(old) != 1:
        raise TypeError(f"{function}(game, policy) takes a game and a policy")
    warn(f"{function}(game, x, y) is deprecated: use {function}(game, policy), policy = game.policy(x, y) or (x, y)", 4)
    return (policy, old[0])


def nash_conv(game, policy, *deprecated) -> float:
    """What the players together gain by best-responding to ``policy``: 0 exactly at a Nash equilibrium.

    ``game`` is a :class:`~rmcore.NormalFormGame` (a :class:`~rmcore.MatrixGame` for two players) or a
    :class:`~rmcore.TreeGame`; ``policy`` as the module docstring says: for a game of n >= 3 players, a sequence of n
    mixed strategies, player 1's first. (``nash_conv(game, x, y)`` is the deprecated form for a matrix game.)

    >>> import rmcore
    >>> rmcore.nash_conv(rmcore.preset("matching-pennies-3p"), ([0.5, 0.5], [0.5, 0.5], [0.5, 0.5]))
    0.0
    """
    policy = _policy("nash_conv", policy, deprecated)
    if isinstance(game, NormalFormGame):
        return matrix_metrics.nash_conv(game, policy)
    if isinstance(game, TreeGame):
        return cfr.nash_conv(game, policy)
    raise ValueError(
        f"expected a NormalFormGame, MatrixGame or a TreeGame (for example rmcore.KUHN), got {type(game).__name__}"
    )


def exploitability(game, policy, *deprecated) -> float:
    """``nash_conv / 2`` for a two-player zero-sum game (OpenSpiel's convention): on average, what a best response
    gains against ``policy`` per player.

    Raises
    ------
    ValueError
        For a general-sum matrix game or a game of more than two players, where the notion does not apply
        (``nash_conv`` does).
    """
    policy = _policy("exploitability", policy, deprecated)
    if isinstance(game, NormalFormGame) and game.num_players != 2:
        raise ValueError(
            f"exploitability is defined for two-player zero-sum games; this game has {game.num_players} players: "
            "use nash_conv"
        )
    if isinstance(game, NormalFormGame) and not game.is_zero_sum:
        raise ValueError("exploitability is defined for zero-sum games; use nash_conv for general-sum games")
    if isinstance(game, TreeGame) and not game.is_two_player_zero_sum:
        raise ValueError(
            f"exploitability (nash_conv / 2) is defined for two-player zero-sum games; {game.name} has "
            f"{game.players} players{'' if game.is_zero_sum else ' and is general-sum'}: use nash_conv"
        )
    return nash_conv(game, policy) / 2.0


def best_response(game, policy, player: int | None = None, *, learner: int | None = None) -> BestResponse:
    """Player ``player``'s (1 or 2) exact best response to the other player's part of ``policy``: its value, the pure
    strategy, each action's value at the player's information sets, their reach, and the gain over the player's own
    part of ``policy`` (:class:`~rmcore.BestResponse`).

    On a game tree ``policy`` may also be a fixed opponent's strategy alone (:func:`rmcore.fixed_strategy`).
    (``learner=`` is the deprecated name of ``player``.)
    """
    if learner is not None:
        warn("best_response(..., learner=...) is deprecated: use player=... (players are 1 and 2 everywhere)")
        player = learner if player is None else player
    if player is None:
        raise ValueError("best_response needs the player (1 or 2) who responds")
    if isinstance(game, NormalFormGame):
        return matrix_metrics.best_response(game, policy, player)
    if isinstance(game, TreeGame):
        return exploit.best_response(game, policy, player)
    raise ValueError(
        f"expected a NormalFormGame, MatrixGame or a TreeGame (for example rmcore.KUHN), got {type(game).__name__}"
    )


__getattr__ = getattr_for("rmcore.metrics", forward="rmcore.matrix.metrics")
