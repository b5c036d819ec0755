"""How far a joint distribution of play is from the correlated and the coarse correlated equilibria of a matrix game.

A joint distribution ``sigma`` over the m x n joint actions is a *correlated equilibrium* (Aumann 1974) when no player,
told its part j of a joint action drawn from ``sigma``, gains by playing another action k instead; a *coarse* one when
no player gains by ignoring the draw altogether and playing a fixed k. The distances, as OpenSpiel defines them
(``open_spiel/algorithms/corr_dist.h``, ``pyspiel.ce_dist`` and ``pyspiel.cce_dist``), summed over the players:

* ``cce_gap(sigma) = sum_i max(0, max_k u_i(k, sigma_-i) - u_i(sigma))``;
* ``ce_gap(sigma) = sum_i sum_j max(0, max_k sum_{a_-i} sigma(j, a_-i) (u_i(k, a_-i) - u_i(j, a_-i)))``.

For a game of n >= 3 players (a :class:`~rmcore.NormalFormGame`) ``sigma`` is an ``a_1 x ... x a_n`` array and the
same sums run over the n players, computed in numpy: player ``i``'s payoffs and ``sigma`` laid out as ``a_i`` rows
(its actions) by the other players' joint actions, ``u_i(k, sigma_-i)`` is the rows times ``sigma``'s marginal over
the others, and the conditional gains of the CE gap the product of the two tables. For two players the matrix kernel
computes them, as below.

Both are 0 exactly on their sets; ``ce_gap >= cce_gap`` (a fixed deviation is one swap of every j for k). A matrix
solver's history records both for its empirical joint distribution of play (:meth:`MatrixSolver.joint_distribution`),
and these functions are computed by the same compiled code as those columns
(:func:`rmcore.kernels.matrix.correlated_gaps`): a solver's state made to hold ``sigma`` as its joint play, measured
as a checkpoint, as :func:`rmcore.matrix.solver.profile_of` measures a profile.

Hart & Mas-Colell (2000, Econometrica 68(5)) show that their procedure (``internal-rm``) drives the joint play to the
correlated equilibria; unconditional regret matching (Hart & Mas-Colell 2001) reaches only the coarse ones.

>>> from rmcore import preset
>>> chicken = preset("chicken")                  # actions Swerve, Straight
>>> traffic_light = [[0.0, 0.5], [0.5, 0.0]]     # a fair coin says who goes straight
>>> ce_gap(chicken, traffic_light)
0.0
"""

from __future__ import annotations

import numpy as np

from .games import MatrixGame, NormalFormGame, _profile_name
from .solver import MatrixSolver, player_gaps

__all__ = ["cce_gap", "ce_gap", "correlated_gaps"]

#: How far from 1 a joint distribution's sum may be (rounding of a distribution computed elsewhere).
SUM_TOLERANCE = 1e-9


def joint_of(game: MatrixGame, joint) -> np.ndarray:
    """A validated joint distribution of ``game``: an m x n array (``a_1 x ... x a_n`` for n players) of finite,
    non-negative numbers summing to 1 (within :data:`SUM_TOLERANCE`), as a float array."""
    if isinstance(game, NormalFormGame) and not isinstance(game, MatrixGame):
        return _joint_of_players(game, joint)
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__} (or a NormalFormGame of n players)")
    m, n = game.shape
    try:
        sigma = np.array(joint, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"a joint distribution is an {m} x {n} table of probabilities (rows: the row player's actions), "
            f"got {type(joint).__name__}"
        ) from None
    if sigma.shape != (m, n):
        raise ValueError(
            f"a joint distribution of this {m} x {n} game is an {m} x {n} table of probabilities (rows: the row "
            f"player's actions); got shape {sigma.shape}"
        )
    if not np.all(np.isfinite(sigma)):
        i, j = np.argwhere(~np.isfinite(sigma))[0]
        raise ValueError(f"the joint distribution's cell ({i + 1}, {j + 1}) is {sigma[i, j]}, not a probability")
    if np.any(sigma < 0):
        i, j = np.argwhere(sigma < 0)[0]
        raise ValueError(f"the joint distribution's cell ({i + 1}, {j + 1}) is negative ({sigma[i, j]:g})")
    total = float(sigma.sum())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"a joint distribution sums to 1; this one sums to {total:.12g}")
    return sigma


def _joint_of_players(game: NormalFormGame, joint) -> np.ndarray:
    shape = game.shape
    size = " x ".join(map(str, shape))
    try:
        sigma = np.array(joint, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"a joint distribution of this {size} game is an {size} array of probabilities (one axis per player), "
            f"got {type(joint).__name__}"
        ) from None
    if sigma.shape != shape:
        raise ValueError(
            f"a joint distribution of this {size} game is an {size} array of probabilities (one axis per player); "
            f"got shape {sigma.shape}"
        )
    if not np.all(np.isfinite(sigma)):
        index = tuple(np.argwhere(~np.isfinite(sigma))[0])
        raise ValueError(f"the joint distribution's {_profile_name(index)} is {sigma[index]}, not a probability")
    if np.any(sigma < 0):
        index = tuple(np.argwhere(sigma < 0)[0])
        raise ValueError(f"the joint distribution's {_profile_name(index)} is negative ({sigma[index]:g})")
    total = float(sigma.sum())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"a joint distribution sums to 1; this one sums to {total:.12g}")
    return sigma


def correlated_gaps(game: NormalFormGame, joint) -> tuple[float, float]:
    """``(cce_gap, ce_gap)`` of ``joint`` on ``game`` (see the module docstring): by the matrix kernel for two
    players, in numpy for more."""
    if isinstance(game, NormalFormGame) and not isinstance(game, MatrixGame):
        if game.num_players > 2:
            return player_gaps(game, joint_of(game, joint))
        game = game.as_matrix_game()
    sigma = joint_of(game, joint)
    solver = MatrixSolver(game, joint=True, max_points=0, history_share=None)
    state = solver._state
    state.joint[:] = sigma
    state.joint_total[0] = 1.0
    row = solver._snapshot()
    return float(row.cce_gap[0]), float(row.ce_gap[0])


def cce_gap(game: MatrixGame, joint) -> float:
    """The distance of the joint distribution ``joint`` (m x n, rows the row player's actions; ``a_1 x ... x a_n``
    for a game of n players) from the coarse correlated equilibria of ``game``:
    ``sum_i max(0, max_k u_i(k, sigma_-i) - u_i(sigma))``, as ``pyspiel.cce_dist`` computes it.

    >>> from rmcore import preset
    >>> cce_gap(preset("rps"), [[1, 0, 0], [0, 0, 0], [0, 0, 0]])   # both play Rock: each gains 1 with Paper
    2.0
    """
    return correlated_gaps(game, joint)[0]


def ce_gap(game: MatrixGame, joint) -> float:
    """The distance of the joint distribution ``joint`` (m x n, rows the row player's actions; ``a_1 x ... x a_n``
    for a game of n players) from the correlated equilibria of ``game``:
    ``sum_i sum_j max(0, max_k sum_{a_-i} sigma(j, a_-i) (u_i(k, a_-i) - u_i(j, a_-i)))``,
    as ``pyspiel.ce_dist`` computes it.

    >>> from rmcore import preset
    >>> ce_gap(preset("rps"), [[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    2.0
    """
    return correlated_gaps(game, joint)[1]
