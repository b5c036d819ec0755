"""Exact answers, the independent check on every learner: a two-player zero-sum game's value and an equilibrium by
linear programming (scipy's HiGHS).

- :mod:`rmcore.exact.matrix`: a matrix game's maximin strategies (von Neumann's minimax theorem);
- :mod:`rmcore.exact.sequence_form`: a game tree's realization plans (Koller, Megiddo & von Stengel 1996), a
  program of the size of the tree;
- :mod:`rmcore.exact.equilibria`: every Nash equilibrium of a general-sum matrix game (support enumeration; one by
  Lemke-Howson beyond).

:func:`solve_exactly` takes either family and answers with one record, :class:`~rmcore.ExactSolution`:

>>> import rmcore
>>> round(rmcore.solve_exactly(rmcore.KUHN).game_value * 18, 9)
-1.0
>>> rmcore.solve_exactly(rmcore.preset("matching-pennies")).policy["col"].tolist()
[0.5, 0.5]
"""

from __future__ import annotations

from .._deprecated import getattr_for
from ..matrix.games import MatrixGame
from ..records import ExactSolution
from ..trees.game import TreeGame
from . import matrix, sequence_form

__all__ = ["solve_exactly", "ExactSolution"]


def solve_exactly(game) -> ExactSolution:
    """The value (to player 1) and an equilibrium of a two-player zero-sum game, exactly: a
    :class:`~rmcore.MatrixGame` by its linear program, a :class:`~rmcore.TreeGame` (with perfect recall) by its
    sequence form. The record also carries the equilibrium's NashConv as the library's best responses measure it.

    Raises
    ------
    ValueError
        For a general-sum matrix game, a tree without perfect recall, or anything that is not a game.
    """
    if isinstance(game, MatrixGame):
        return matrix.solve(game)
    if isinstance(game, TreeGame):
        return sequence_form.solve(game)
    raise ValueError(f"expected a MatrixGame or a TreeGame (for example rmcore.KUHN), got {type(game).__name__}")


# (``rmcore.exact`` was the matrix module: its names keep working for one release)
__getattr__ = getattr_for("rmcore.exact", forward="rmcore.exact.matrix")
