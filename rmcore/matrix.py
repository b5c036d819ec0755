"""Regret matching on two-player matrix games: :class:`MatrixSolver`.

Regret matching (Hart & Mas-Colell 2000, *Econometrica* 68(5)) plays each action with
probability proportional to its positive cumulative regret,

    x_{t}(a) = max(R_{t-1}(a), 0) / sum_b max(R_{t-1}(b), 0)     (uniform if no regret is positive),

where ``R_t(a) = sum_{s<=t} u(a, y_s) - u(x_s, y_s)``. In two-player zero-sum self-play the
*average* strategies converge to a Nash equilibrium, and ``nash_conv`` of the averages is bounded
by the players' average positive regrets, each at most ``Delta * sqrt(|A| / T)``.

Variants (constructor arguments):

* ``algorithm``: ``"rm"``; ``"rm+"`` (Tammelin 2014: clip R at 0 after each update);
  ``"prm+"`` (predictive RM+, Farina, Kroer & Sandholm 2021: play ``RM+(R + r_{t-1})``).
* ``sampling``: ``"expected"`` (full mixed strategies) or ``"sampled"`` (each player samples one
  action per iteration and regrets are measured against the sampled actions, as in tutorials).
* ``updates``: ``"simultaneous"`` or ``"alternating"`` (the column player updates against the row
  player's new strategy).
* ``averaging``: weights ``w_t`` of 1 (``"uniform"``), t (``"linear"``) or t^2 (``"quadratic"``).
* ``opponent``: a fixed column strategy; then only the row player learns, and its average
  approaches a best response.

>>> from rmcore import MatrixSolver, preset
>>> solver = MatrixSolver(preset("rps-crash"), algorithm="prm+", updates="alternating", averaging="linear")
>>> solver.run(1_000)
>>> [round(float(p), 4) for p in solver.average_strategies().row]
[0.25, 0.5, 0.25]
>>> solver.metrics().nash_conv < 1e-4
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING
from typing import NamedTuple

import numpy as np

from . import _kernels, checkpoints, config
from .games import MatrixGame
from .metrics import as_strategy

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MatrixSolver", "MatrixMetrics", "StrategyProfile", "PlayerValues", "ALGORITHMS", "SAMPLING", "UPDATES", "AVERAGING"]

ALGORITHMS = {"rm": _kernels.RM, "rm+": _kernels.RM_PLUS, "prm+": _kernels.PREDICTIVE_RM_PLUS}
SAMPLING = ("expected", "sampled")
UPDATES = ("simultaneous", "alternating")
AVERAGING = {"uniform": 0, "linear": 1, "quadratic": 2}


class StrategyProfile(NamedTuple):
    """One mixed strategy per player (numpy arrays; copies the caller may keep)."""

    row: np.ndarray
    col: np.ndarray


class PlayerValues(NamedTuple):
    """A number per player; ``col`` is ``None`` when the column player is a fixed opponent."""

    row: float
    col: float | None


class MatrixMetrics(NamedTuple):
    """How far the average profile is from equilibrium after ``iteration`` iterations.

    ``nash_conv`` and ``exploitability`` are ``None`` against a fixed opponent, where the learner's
    best-response gain ``br_gains.row`` is the measure; ``exploitability`` (``nash_conv / 2``)
    is ``None`` for general-sum games; ``cce_gap`` (how much a player could gain by deviating from
    the empirical joint play, i.e. the largest external regret per iteration) is reported for
    general-sum self-play only.
    """

    iteration: int
    nash_conv: float | None
    exploitability: float | None
    br_gains: PlayerValues
    average_regret: PlayerValues
    regret_bound: PlayerValues
    value: float
    cce_gap: float | None

    @property
    def gap(self) -> float:
        """The convergence measure to plot: nash_conv in self-play, the learner's gain otherwise."""
        return self.br_gains.row if self.nash_conv is None else self.nash_conv


def _choice(value, allowed, what: str):
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value


def _whole_number(value, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{what} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def _initial_rng_state(seed) -> tuple[np.ndarray, int]:
    sequence = np.random.SeedSequence(seed)
    words = sequence.generate_state(4, np.uint64)
    if not words.any():  # xoshiro's one forbidden state
        words[0] = 1
    return words, sequence.entropy


class MatrixSolver:
    """Regret matching (and RM+, predictive RM+) in a two-player matrix game, run incrementally.

    Parameters
    ----------
    game : MatrixGame
    algorithm : {"rm", "rm+", "prm+"}
    sampling : {"expected", "sampled"}
    updates : {"simultaneous", "alternating"}
        Ignored against a fixed opponent (only one player learns).
    averaging : {"uniform", "linear", "quadratic"}
    opponent : array_like, optional
        A fixed column strategy: any non-negative weights with a positive sum (normalised).
        ``None`` (default) is self-play.
    seed : int, optional
        Seed of the sampled variant's random numbers; ``None`` draws fresh entropy (see ``seed``
        afterwards to reproduce the run).
    max_points : int
        Most rows ``history()`` keeps (0 keeps none).

    Notes
    -----
    ``run(n)`` may be called any number of times: splitting the same total into any chunks gives
    bit-identical strategies, regrets, metrics and history. "Current" strategies are the ones the
    next iteration will play, ``RM(R)``; averages are ``sum_t w_t x_t / sum_t w_t``
    (uniform before the first iteration).
    """

    def __init__(
        self,
        game: MatrixGame,
        algorithm: str = "rm",
        sampling: str = "expected",
        updates: str = "simultaneous",
        averaging: str = "uniform",
        opponent=None,
        seed: int | None = None,
        max_points: int = config.DEFAULT_MAX_POINTS,
    ):
        if not isinstance(game, MatrixGame):
            raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}")
        self.game = game
        self.algorithm = _choice(algorithm, tuple(ALGORITHMS), "algorithm")
        self.sampling = _choice(sampling, SAMPLING, "sampling")
        self.updates = _choice(updates, UPDATES, "updates")
        self.averaging = _choice(averaging, tuple(AVERAGING), "averaging")
        if seed is not None:
            seed = _whole_number(seed, "seed", 0)
        self.max_points = _whole_number(max_points, "max_points", 0)
        m, n = game.shape
        self.opponent = None if opponent is None else as_strategy(opponent, n, "opponent strategy", normalise=True)
        fixed = self.opponent is not None
        self._settings = _kernels.MatrixSettings(
            algorithm=ALGORITHMS[self.algorithm],
            sampled=self.sampling == "sampled",
            alternating=self.updates == "alternating",
            averaging_power=AVERAGING[self.averaging],
            fixed_opponent=fixed,
            zero_sum=game.is_zero_sum,
            track_external=not game.is_zero_sum and not fixed,
        )
        rng, self.seed = _initial_rng_state(seed)
        zeros = np.zeros
        self._state = _kernels.MatrixState(
            regrets_row=zeros(m), regrets_col=zeros(n),
            last_regrets_row=zeros(m), last_regrets_col=zeros(n),
            strategy_sums_row=zeros(m), strategy_sums_col=zeros(n),
            external_row=zeros(m), external_col=zeros(n),
            weight_sum=zeros(1), rng=rng,
            x=np.full(m, 1.0 / m), y=self.opponent.copy() if fixed else np.full(n, 1.0 / n),
            next_x=zeros(m), row_utilities=zeros(m), col_utilities=zeros(n),
            avg_x=zeros(m), avg_y=zeros(n), fixed_row_utilities=zeros(m),
        )  # fmt: skip
        self._iteration = 0
        self._width = _kernels.history_width(m, n)
        self._history = np.empty((0, self._width))

    # -- running -------------------------------------------------------------------------

    @property
    def iteration(self) -> int:
        """Iterations run so far."""
        return self._iteration

    @property
    def is_self_play(self) -> bool:
        return self.opponent is None

    def run(self, iterations: int) -> None:
        """Advance ``iterations`` iterations (a whole number >= 0)."""
        iterations = _whole_number(iterations, "iterations", 0)
        if iterations == 0:
            return
        start, stop = self._iteration, self._iteration + iterations
        new_points = checkpoints.checkpoints_between(start, stop, self.max_points)
        rows = np.empty((new_points.shape[0], self._width))
        game = self.game
        written = _kernels.run_matrix(
            game.row_payoffs, game.col_payoffs, self._settings, self._state, start + 1, stop, new_points, rows
        )
        assert written == new_points.shape[0]
        old = self._history
        self._history = np.concatenate([old[checkpoints.kept(old[:, 0], stop, self.max_points)], rows])
        self._iteration = stop

    # -- reading -------------------------------------------------------------------------

    def _snapshot(self) -> np.ndarray:
        """The history row for the current iteration (computed, not stored)."""
        row = np.empty(self._width)
        game = self.game
        _kernels.record_row(game.row_payoffs, game.col_payoffs, self._settings, self._state, self._iteration, row)
        return row

    def _split(self, row: np.ndarray):
        m, n = self.game.shape
        x_now, y_now = row[1 : 1 + m], row[1 + m : 1 + m + n]
        x_avg, y_avg = row[1 + m + n : 1 + 2 * m + n], row[1 + 2 * m + n : 1 + 2 * m + 2 * n]
        return x_now, y_now, x_avg, y_avg, row[1 + 2 * m + 2 * n :]

    def average_strategies(self) -> StrategyProfile:
        """``sum_t w_t x_t / sum_t w_t`` per player (the fixed opponent's strategy as is)."""
        _, _, x_avg, y_avg, _ = self._split(self._snapshot())
        return StrategyProfile(x_avg.copy(), y_avg.copy())

    def current_strategies(self) -> StrategyProfile:
        """The strategies the next iteration will play: ``RM(R)`` (``RM+(R + r_{t-1})`` for prm+)."""
        x_now, y_now, _, _, _ = self._split(self._snapshot())
        return StrategyProfile(x_now.copy(), y_now.copy())

    def cumulative_regrets(self) -> PlayerValues:
        """Copies of ``R1`` and ``R2`` (``col`` is ``None`` against a fixed opponent)."""
        state = self._state
        return PlayerValues(state.regrets_row.copy(), None if self.opponent is not None else state.regrets_col.copy())

    def _metrics_from(self, iteration: int, values: np.ndarray) -> MatrixMetrics:
        gain_row, gain_col, regret_row, regret_col, value, cce_gap = (float(v) for v in values)
        fixed = self.opponent is not None
        delta_row, delta_col = self.game.payoff_range
        m, n = self.game.shape
        bound_row = delta_row * math.sqrt(m / iteration) if iteration else math.inf
        bound_col = delta_col * math.sqrt(n / iteration) if iteration else math.inf
        nash_conv = None if fixed else gain_row + gain_col
        return MatrixMetrics(
            iteration=iteration,
            nash_conv=nash_conv,
            exploitability=nash_conv / 2.0 if nash_conv is not None and self.game.is_zero_sum else None,
            br_gains=PlayerValues(gain_row, None if fixed else gain_col),
            average_regret=PlayerValues(regret_row, None if fixed else regret_col),
            regret_bound=PlayerValues(bound_row, None if fixed else bound_col),
            value=value,
            cce_gap=None if math.isnan(cce_gap) else cce_gap,
        )

    def metrics(self) -> MatrixMetrics:
        """Metrics of the average profile now (see :class:`MatrixMetrics`)."""
        row = self._snapshot()
        return self._metrics_from(self._iteration, self._split(row)[4])

    def history(self) -> "pd.DataFrame":
        """Checkpoints so far, plus the current iteration, as a DataFrame.

        Columns: ``iteration``, the metrics of :class:`MatrixMetrics` (``br_gain_row``,
        ``average_regret_col``, ``regret_bound_row`` ...; NaN where a metric does not apply), then each
        player's current and average probability per action: ``row_current[Rock]``,
        ``col_average[Paper]``, ... At most ``max_points + 1`` rows however long the run.
        """
        import pandas as pd  # imported here: pandas costs 0.3 s at start-up

        rows = self._history
        if self._iteration > 0 and (rows.shape[0] == 0 or rows[-1, 0] != self._iteration):
            rows = np.vstack([rows, self._snapshot()])
        game = self.game
        m, n = game.shape
        iteration = rows[:, 0]
        gain_row, gain_col, regret_row, regret_col, value, cce_gap = self._split(rows.T)[4]
        nash_conv = gain_row + gain_col  # NaN against a fixed opponent, where gain_col is NaN
        delta_row, delta_col = game.payoff_range
        fixed = np.nan if self.opponent is not None else 1.0
        columns = {
            "iteration": iteration.astype(np.int64),
            "nash_conv": nash_conv,
            "exploitability": nash_conv / 2.0 if game.is_zero_sum else np.full_like(nash_conv, np.nan),
            "br_gain_row": gain_row,
            "br_gain_col": gain_col,
            "average_regret_row": regret_row,
            "average_regret_col": regret_col,
            "regret_bound_row": delta_row * np.sqrt(m / iteration),
            "regret_bound_col": fixed * delta_col * np.sqrt(n / iteration),
            "value": value,
            "cce_gap": cce_gap,
        }
        blocks = (
            ("row_current", game.row_actions, 1),
            ("col_current", game.col_actions, 1 + m),
            ("row_average", game.row_actions, 1 + m + n),
            ("col_average", game.col_actions, 1 + 2 * m + n),
        )
        for stem, labels, offset in blocks:
            for k, label in enumerate(labels):
                columns[f"{stem}[{label}]"] = rows[:, offset + k]
        return pd.DataFrame(columns)

    def __repr__(self) -> str:
        opponent = "self-play" if self.opponent is None else "fixed opponent"
        return (
            f"<MatrixSolver {self.game!r} {self.algorithm}/{self.sampling}/{self.updates}/{self.averaging} "
            f"{opponent} at iteration {self._iteration}>"
        )
