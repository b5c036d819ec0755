"""The tree page's exact answer: its game's sequence-form LP (``rmcore.solve_exactly``), from the server's cache of
exact answers (``ui/exact.py``), and what the page says while it comes. Every game the page runs
(``games.MAX_PAGE_NODES``) is solved in seconds; a page draws without the answer, saying so, until it is there.
"""

from __future__ import annotations

import rmcore

from .. import exact as cache
from .. import explain_trees

#: Seconds, from when a game's LP was first asked for, that a page waits for its answer before drawing without it:
#: Leduc's is there at once; the largest games' follow on a later update, and the live panel never waits for
#: them again (half a second on every update held Liar's dice with 6 sides under one chart update a second).
WAIT_SECONDS = 1.0


def answer(game_key: tuple, game: rmcore.TreeGame, wait: float | None = WAIT_SECONDS) -> rmcore.ExactSolution | None:
    """The LP's value and equilibrium, if it is there within ``wait`` seconds of when it was first asked for (None:
    wait until it is); else None.

    A failed LP is None too, and so is a game that is not two-player zero-sum (the LP is defined for those alone);
    :func:`note` says why.
    """
    if not game.is_two_player_zero_sum:
        return None
    return cache.answer(rmcore.solve_exactly, ("tree", *game_key), game, wait)


def note(game_key: tuple, game: rmcore.TreeGame) -> str | None:
    """What to say instead of the answer while it is not there (None once it is), or for a game that has none."""
    if not game.is_two_player_zero_sum:
        return explain_trees.EXACT_TWO_PLAYERS
    where = cache.progress(rmcore.solve_exactly, ("tree", *game_key), game)
    if not where.done:
        return explain_trees.computing_exact(where.seconds, game.tree.player.shape[0])
    if where.error is not None:
        return explain_trees.exact_failed(where.error)
    return None
