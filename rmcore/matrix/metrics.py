"""How far a matrix game's strategy profile is from equilibrium, and the bounds drawn beside a run's regrets.

For a profile ``(x, y)`` of an m x n game with payoffs ``A`` (row) and ``B`` (column):

* each player's best-response gain, the row player's ``max_i (A y)_i - x^T A y`` and the column player's
  ``max_j (x^T B)_j - x^T B y``;
* ``nash_conv``, their sum, zero exactly at a Nash equilibrium (the measure of every chart, race and table);
* ``exploitability = nash_conv / 2`` for two-player zero-sum games only (OpenSpiel's convention);
* the regret-matching bound (Hart & Mas-Colell 2000; Cesa-Bianchi & Lugosi 2006, Thm 2.1)
  ``max_a R_T(a) / T <= Delta * sqrt(|A| / T)`` with ``Delta`` the payoff range (:mod:`rmcore.matrix.bounds`).

The gains are computed by the matrix kernel, as a solver's history rows are (:func:`rmcore.matrix.solver.profile_of`):
one route, so that ``nash_conv(game, solver.average_policy()) == solver.metrics().nash_conv`` to the last bit.

For a profile ``(s_1, ..., s_n)`` of a game of n >= 3 players (a :class:`~rmcore.NormalFormGame`), player ``p``'s
gain is ``max_k u_p(k, s_-p) - u_p(s)`` and ``nash_conv`` the sum of the n gains, as OpenSpiel defines it
(``pyspiel.nash_conv``); the matrix kernel computes them as it computes a solver's history rows
(:func:`rmcore.matrix.solver.profile_of_players`), and :func:`player_gains` lists them (player ``p``'s at index
``p - 1``). Exploitability stays two-player zero-sum only.

Players are numbered 1 (the row player) and 2 (the column player); :func:`rmcore.nash_conv`,
:func:`rmcore.exploitability` and :func:`rmcore.best_response` take a matrix game's policy as they take a tree's.

>>> from rmcore import preset
>>> rps = preset("rps")
>>> nash_conv(rps, ([1, 0, 0], [1, 0, 0]))  # both play Rock: each gains 1 by switching to Paper
2.0
>>> gains(rps, *strategies(rps, rps.policy([1, 1, 1], [1, 1, 1])))
PlayerValues(player_1=0.0, player_2=0.0)
"""

from __future__ import annotations

import numpy as np

from ..records import BestResponse, PlayerValues, Policy
from ..validation import as_strategy
from .bounds import hedge_regret_bound, regret_bound
from .games import INFOSETS, MatrixGame, NormalFormGame
from .solver import profile_of, profile_of_players

__all__ = [
    "strategies",
    "gains",
    "player_gains",
    "best_response",
    "nash_conv",
    "regret_bound",
    "hedge_regret_bound",
]


def _check_game(game) -> MatrixGame:
    """A two-player game as a :class:`MatrixGame` (a two-player :class:`NormalFormGame` converted)."""
    if isinstance(game, NormalFormGame) and game.num_players == 2:
        return game.as_matrix_game()
    if isinstance(game, NormalFormGame):
        raise ValueError(f"this measure is of two-player games; the game has {game.num_players} players")
    raise ValueError(f"expected a MatrixGame or a NormalFormGame, got {type(game).__name__}")


def profile_strategies(game: NormalFormGame, policy) -> tuple[np.ndarray, ...]:
    """The n players' mixed strategies from ``policy``, a sequence of n strategies (player 1's first) or a
    :class:`~rmcore.Policy` over the information sets ``player 1`` to ``player n`` (a solver's), validated."""
    if not isinstance(game, NormalFormGame):
        raise ValueError(f"expected a NormalFormGame, got {type(game).__name__}")
    n = game.num_players
    names = tuple(f"player {p}" for p in range(1, n + 1))
    if isinstance(policy, Policy) and policy.infosets == names:  # (a solver's average_policy() of n players)
        policy = [policy[name] for name in names]
    if isinstance(policy, (str, bytes, dict)) or not hasattr(policy, "__len__") or len(policy) != n:
        raise ValueError(
            f"a policy of a game of {n} players is a sequence of {n} mixed strategies, player 1's first; got "
            f"{type(policy).__name__}{f' of {len(policy)}' if hasattr(policy, '__len__') else ''}"
        )
    return tuple(as_strategy(s, a, f"player {p + 1}'s strategy") for p, (s, a) in enumerate(zip(policy, game.shape)))


def player_gains(game: NormalFormGame, policy) -> tuple[float, ...]:
    """Each player's gain from deviating to a best response against ``policy`` (a sequence of n mixed strategies):
    ``max_k u_p(k, s_-p) - u_p(s)``, >= 0 (clipped against rounding); player ``p``'s at index ``p - 1``.

    >>> from rmcore import preset
    >>> player_gains(preset("matching-pennies-3p"), ([1, 0], [1, 0], [1, 0]))  # player 3 gains 2 by mismatching
    (0.0, 0.0, 2.0)
    """
    if isinstance(game, NormalFormGame) and game.num_players == 2:
        return tuple(gains(game.as_matrix_game(), *strategies(game, policy)))
    return tuple(profile_of_players(game, profile_strategies(game, policy)))


def strategies(game: MatrixGame, policy) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)``, the row and the column player's mixed strategies, from a policy of ``game``: a
    :class:`~rmcore.Policy` over the information sets ``row`` and ``col`` (as a solver's ``average_policy()`` or
    :meth:`MatrixGame.policy` returns it), a dict ``{"row": x, "col": y}``, or a pair ``(x, y)``."""
    game = _check_game(game)
    m, n = game.shape
    if isinstance(policy, Policy):
        if policy.infosets != INFOSETS:
            raise ValueError(
                f"a matrix game's policy is over the information sets 'row' and 'col'; got {policy.infosets}"
            )
        x, y = policy["row"], policy["col"]
    elif isinstance(policy, dict):
        if set(policy) != set(INFOSETS):
            raise ValueError(
                f"a matrix game's policy as a dict maps 'row' and 'col' to strategies; got {sorted(policy)}"
            )
        x, y = policy["row"], policy["col"]
    elif not isinstance(policy, str) and hasattr(policy, "__len__") and len(policy) == 2:
        x, y = policy
    else:
        raise ValueError(
            "a matrix game's policy is an rmcore.Policy over 'row' and 'col' (game.policy(x, y) builds one), a dict "
            f"{{'row': x, 'col': y}} or a pair (x, y); got {type(policy).__name__}"
        )
    return as_strategy(x, m, "row strategy"), as_strategy(y, n, "column strategy")


def gains(game: MatrixGame, x: np.ndarray, y: np.ndarray) -> PlayerValues:
    """Each player's gain from deviating to a best response against the profile ``(x, y)`` (validated strategies):
    ``max_i (A y)_i - x^T A y`` and ``max_j (x^T B)_j - x^T B y``, both >= 0 (clipped against rounding)."""
    return profile_of(game, x, y).gains


def best_response(game: MatrixGame, policy, player: int) -> BestResponse:
    """Player ``player``'s (1, the row player, or 2) best response to the other's part of ``policy``: its value
    ``max_i (A y)_i`` (or ``max_j (x^T B)_j``), the pure strategy of the first best action, each action's payoff
    (``action_values``), and the gain over its own part of ``policy``.

    >>> from rmcore import preset
    >>> response = best_response(preset("rps"), ([1, 0, 0], [1, 0, 0]), 2)
    >>> response.value, response.policy["col"].tolist(), response.gain
    (1.0, [0.0, 1.0, 0.0], 1.0)
    """
    game = _check_game(game)
    x, y = strategies(game, policy)
    if isinstance(player, bool) or player not in (1, 2):
        raise ValueError(f"player must be 1 (the row player) or 2 (the column player), got {player!r}")
    m, n = game.shape
    profile = profile_of(game, x, y)
    utilities = profile.row_utilities if player == 1 else profile.col_utilities
    best = int(np.argmax(utilities))
    pure = np.zeros(utilities.shape[0])
    pure[best] = 1.0
    action_values = np.zeros((2, max(m, n)))
    action_values[player - 1, : utilities.shape[0]] = utilities
    reach = np.zeros(2)
    reach[player - 1] = 1.0
    responses = (pure, y) if player == 1 else (x, pure)
    gain = profile.gains.of(player)
    return BestResponse(float(utilities[best]), game.policy(*responses), action_values, reach, gain)


def nash_conv(game: NormalFormGame, policy) -> float:
    """The sum of the players' best-response gains against ``policy``: 0 exactly at a Nash equilibrium.

    For two players ``policy`` is what :func:`strategies` reads; for n >= 3 a sequence of n mixed strategies
    (:func:`player_gains`)."""
    if isinstance(game, NormalFormGame) and game.num_players > 2:
        return sum(player_gains(game, policy))
    game = _check_game(game)
    return sum(gains(game, *strategies(game, policy)))
