"""The functions and records of one release ago that took or returned something the new names do not: each reached
only through :data:`rmcore._deprecated.RENAMED` (which warns once per use of the name), each a thin layer over the
new API, so that they compute exactly what they did.
"""

from __future__ import annotations

from . import config
from ._deprecated import BestResponseGains, TreeSolution, ZeroSumSolution
from .matrix import metrics as _matrix_metrics
from .matrix.games import MatrixGame
from .records import History, Metrics
from .solver import metrics_of
from .trees.cfr import CFRSolver
from .trees.cfr import nash_conv as _tree_nash_conv
from .trees.game import TreeGame
from .trees.kuhn import KUHN


def best_response_gains(game: MatrixGame, x, y) -> BestResponseGains:
    """Each player's best-response gain against ``(x, y)``: ``rmcore.best_response(game, (x, y), player).gain``."""
    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__}")
    gains = _matrix_metrics.gains(game, *_matrix_metrics.strategies(game, (x, y)))
    return BestResponseGains(*gains)


def tree_nash_conv(game: TreeGame, policy) -> float:
    """``rmcore.nash_conv(game, policy)``."""
    return _tree_nash_conv(game, policy)


def kuhn_nash_conv(policy) -> float:
    """``rmcore.nash_conv(rmcore.KUHN, policy)``."""
    return _tree_nash_conv(KUHN, policy)


def solve_zero_sum(game: MatrixGame) -> ZeroSumSolution:
    """``rmcore.solve_exactly(game)`` as the record of one release ago."""
    from .exact import matrix

    if not isinstance(game, MatrixGame):
        raise ValueError(f"expected a MatrixGame, got {type(game).__name__}")
    if not game.is_zero_sum:
        raise ValueError("solve_zero_sum needs a zero-sum game (column payoffs = -row payoffs)")
    value, x, y = matrix.equilibrium(game)
    return ZeroSumSolution(value, tuple(float(p) for p in x), tuple(float(p) for p in y))


def solve_tree_game(game: TreeGame) -> TreeSolution:
    """``rmcore.solve_exactly(game)`` as the record of one release ago."""
    from .exact import sequence_form

    if not isinstance(game, TreeGame):
        raise ValueError(f"expected a TreeGame (for example rmcore.KUHN), got {type(game).__name__}")
    solution = sequence_form.solve(game)
    return TreeSolution(solution.game_value, solution.policy, solution.nash_conv)


class KuhnCFR(CFRSolver):
    """``CFRSolver(rmcore.KUHN, algorithm, updates, seed, max_points, history_share=...)``."""

    def __init__(
        self,
        variant: str = "cfr",
        updates: str | None = None,
        seed: int | None = None,
        max_points: int = config.DEFAULT_MAX_POINTS,
        history_share: float | None = config.HISTORY_SHARE,
    ):
        super().__init__(KUHN, variant, updates, seed, max_points, history_share=history_share)


def matrix_metrics_at(history: History, row: int, zero_sum: bool) -> Metrics:
    """The metrics of checkpoint ``row`` of a matrix-game history: ``solver.metrics_at(history, row)``."""
    return metrics_of(int(history.iterations[row]), history.metrics, row, _learner(history), zero_sum)


def tree_metrics_at(history: History, row: int) -> Metrics:
    """The metrics of checkpoint ``row`` of a CFR history: ``solver.metrics_at(history, row)``."""
    return metrics_of(int(history.iterations[row]), history.metrics, row, _learner(history), True)


def _learner(history: History) -> int | None:
    return None if history.gap_name == "nash_conv" else int(history.gap_name[-1])
