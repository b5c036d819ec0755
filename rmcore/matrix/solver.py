"""Regret matching on matrix games, of two players or more: :class:`MatrixSolver`.

Regret matching (Hart & Mas-Colell 2000, *Econometrica* 68(5)) plays each action with
probability proportional to its positive cumulative regret,

    x_{t}(a) = max(R_{t-1}(a), 0) / sum_b max(R_{t-1}(b), 0)     (uniform if no regret is positive),

where ``R_t(a) = sum_{s<=t} u(a, y_s) - u(x_s, y_s)``. In two-player zero-sum self-play the
*average* strategies converge to a Nash equilibrium, and ``nash_conv`` of the averages is bounded
by the players' average positive regrets, each at most ``Delta * sqrt(|A| / T)``.

Variants (constructor arguments):

* ``algorithm``: ``"rm"``; ``"rm+"`` (Tammelin 2014: clip R at 0 after each update);
  ``"prm+"`` (predictive RM+, Farina, Kroer & Sandholm 2021: play ``RM+(R + r_{t-1})``). For contrast, with
  ``U_t = u_1 + ... + u_t`` the cumulative payoff vectors: ``"hedge"`` (Freund & Schapire 1997:
  ``x_{t+1} ∝ exp(eta U_t)``), ``"optimistic-hedge"`` (Rakhlin & Sridharan 2013: ``exp(eta (U_t + u_t))``),
  ``"fictitious-play"`` (Brown 1951: a best response to ``U_t``, ties to the lowest index), ``"gda"`` (Zinkevich
  2003: ``x_{t+1} = Proj(x_t + eta u_t)``, Euclidean projection onto the simplex) and ``"optimistic-gda"``
  (Daskalakis et al. 2018: ``Proj(x_t + eta (2 u_t - u_{t-1}))``). The smoothed regret matchers keep a regret state
  ``R`` in ``Z = {R >= 0, sum R >= 1}``, started at ``x_1`` (uniform: ``1/n``), with ``Proj_Z`` clipping at 0 or, if
  the clipped sum is at most 1, projecting onto the simplex: ``"sprm+"`` (smooth predictive RM+, Farina, Grand-Clément,
  Kroer, Lee & Luo 2023; Cai, Farina, Grand-Clément, Kroer, Lee, Luo & Zheng 2023: ``R_t = Proj_Z(R_{t-1} + eta r_t)``,
  ``x_{t+1} = Proj_Z(R_t + eta r_t) / sum``, ``r_t = u_t - x_t . u_t``) and ``"exrm+"`` (extragradient RM+, Cai et al.
  2023: ``H = Proj_Z(R + eta r(R))``, ``R <- Proj_Z(R + eta r(H))``, ``r(P)`` the regrets at the strategies
  ``P / sum P``; an iteration plays ``H / sum H``, and its last iterate is ``R / sum R``). The learners of correlated
  equilibria keep a regret per pair of actions: ``"swap-rm"`` (Blum & Mansour 2007, "From external to internal
  regret", JMLR 8, over regret matching: ``Q``'s row j is ``RM(R_j)``, the strategy played its stationary distribution
  ``x = x Q``, and ``R_j(k) += x(j) (u(k) - q_j . u)``) and ``"internal-rm"`` (Hart & Mas-Colell 2000, eq. (2.2),
  sampled and simultaneous only: from the last action j switch to ``k`` with probability ``D(j, k)^+ / (mu (t - 1))``,
  ``D(j, k)`` the sum of ``u(k) - u(j)`` over the iterations that played j, and stay otherwise). Every rule also keeps
  the cumulative regrets.
* ``joint``: keep the empirical joint distribution of play (``joint_distribution()``, ``joint_history()``) and measure
  its CE and CCE gaps (OpenSpiel's ``ce_dist`` and ``cce_dist``, :mod:`rmcore.matrix.correlated_gaps`); by default
  in general-sum self-play and for ``swap-rm`` and ``internal-rm``.
* ``mu``: ``internal-rm``'s inertia, above ``2 M (m_i - 1)`` (by default the least such number,
  :func:`rmcore.internal_rm_inertia`).
* ``eta``: the step of Hedge, optimistic Hedge, GDA, optimistic GDA, SPRM+ and ExRM+ (default 0.1; Hedge also takes
  ``"anytime"``, ``eta_t = sqrt(8 ln(m) / t) / Delta``); the other rules refuse it.
* ``sampling``: ``"expected"`` (full mixed strategies) or ``"sampled"`` (each player samples one
  action per iteration and regrets are measured against the sampled actions, as in tutorials).
* ``updates``: ``"simultaneous"`` or ``"alternating"`` (the column player updates against the row
  player's new strategy).
* ``averaging``: weights ``w_t`` of 1 (``"uniform"``), t (``"linear"``) or t^2 (``"quadratic"``).
* ``opponent``: a fixed column strategy, ``{"col": weights}`` (as a fixed opponent is given on a game tree:
  its information sets' strategies); then only the row player learns, and its average approaches a best response.

A game of n >= 3 players (a :class:`~rmcore.NormalFormGame`) runs every rule a player applies on its own (all but
``exrm+``), simultaneously (``updates="alternating"`` orders two players and is refused), expected or sampled; player
i's payoff vector is ``u_i(k) = sum_{a_-i} u_i(k, a_-i) prod_{j != i} x_j(a_j)`` (sampled: the others' draws). Fixed
players are ``opponent={player: weights}`` (players numbered 1 to n); ``start`` is n strategies; policies are over
the information sets ``"player 1"`` to ``"player n"``. NashConv sums the learning players' gains (where two or more
learn), and the history carries ``br_gain_3``, ``average_regret_3``, ... for players 3 on.

>>> from rmcore import MatrixSolver, preset
>>> pennies = MatrixSolver(preset("matching-pennies-3p"), "rm", start=([0.9, 0.1], [0.6, 0.4], [0.2, 0.8]))
>>> pennies.run(2_000)
>>> len(pennies.metrics().br_gains), pennies.average_policy().infosets
(3, ('player 1', 'player 2', 'player 3'))

>>> from rmcore import MatrixSolver, preset
>>> solver = MatrixSolver(preset("rps-crash"), algorithm="prm+", updates="alternating", averaging="linear")
>>> solver.run(1_000)
>>> [round(float(p), 4) for p in solver.average_policy()["row"]]
[0.25, 0.5, 0.25]
>>> solver.metrics().nash_conv < 1e-4
True
>>> hedge = MatrixSolver(preset("rps-crash"), algorithm="optimistic-hedge", eta=0.1, start=([6, 2, 2], [2, 2, 6]))
>>> hedge.run(5_000)
>>> hedge.metrics().nash_conv_current < 1e-3       # its current strategies converge, not only their average
True
>>> smooth = MatrixSolver(preset("cai-3x3"), algorithm="sprm+", eta=0.1)
>>> smooth.run(1_000)
>>> smooth.metrics().nash_conv_current < 1e-12     # Cai et al.'s game: the last iterate reaches the equilibrium
True
>>> swap = MatrixSolver(preset("chicken"), algorithm="swap-rm", start=([0.7, 0.3], [0.4, 0.6]))
>>> swap.run(2_000)
>>> swap.joint_distribution().shape, swap.metrics().ce_gap < 0.05
((2, 2), True)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import _runtime, config
from .._deprecated import StrategyProfile, getattr_for, warn
from .._guard import exclusive
from ..kernels import aligned
from ..kernels import matrix as kernels
from ..records import History, Metrics, PlayerValues, Policy, concat_records
from ..solver import Solver
from ..validation import as_strategy, choice, named_parts, seed_words
from .bounds import hedge_regret_bound, inertia_bound, internal_regret_bound, internal_rm_inertia
from .games import MatrixGame, NormalFormGame

__all__ = [
    "MatrixSolver",
    "Profile",
    "profile_of",
    "MatrixVariant",
    "ALGORITHMS",
    "STEP_ALGORITHMS",
    "SAMPLINGS",
    "UPDATES",
    "AVERAGINGS",
]

#: The catalogues: each choice's name and what it does (the UI and the CLI read their options here).
ALGORITHMS = {
    "rm": "Regret matching (Hart & Mas-Colell 2000): play each action in proportion to its positive cumulative regret.",
    "rm+": (
        "RM+ (Tammelin 2014): like RM, but cumulative regrets are clipped at zero after every update, so a good action "
        "recovers fast."
    ),
    "prm+": (
        "Predictive RM+ (Farina, Kroer & Sandholm 2021): RM+ that also counts the last regret once more as a "
        "prediction; converges much faster in practice."
    ),
    "hedge": (
        "Hedge / multiplicative weights (Freund & Schapire 1997): play in proportion to exp(eta x cumulative payoff)."
    ),
    "optimistic-hedge": (
        "Optimistic Hedge (Rakhlin & Sridharan 2013; Syrgkanis et al. 2015): Hedge that counts the last payoff twice; "
        "its current strategies converge too (Daskalakis & Panageas 2019)."
    ),
    "fictitious-play": (
        "Fictitious play (Brown 1951): best-respond to the opponent's empirical average so far; converges in the "
        "average in zero-sum games (Robinson 1951), slowly, and has no regret bound."
    ),
    "gda": (
        "Projected gradient ascent (Zinkevich 2003): step eta along the payoff vector, then project onto the simplex; "
        "its current strategies spiral outwards."
    ),
    "optimistic-gda": (
        "Optimistic gradient ascent (Daskalakis, Ilyas, Syrgkanis & Zeng 2018): the step along 2 u_t - u_(t-1); its "
        "current strategies converge."
    ),
    "sprm+": (
        "Smooth predictive RM+ (Farina et al. 2023; Cai et al. 2023): PRM+ whose regrets, stepped by eta, stay in "
        "{R >= 0, sum R >= 1}; its current strategies converge."
    ),
    "exrm+": (
        "Extragradient RM+ (Cai et al. 2023): two regret evaluations an iteration, a look-ahead step then the step, "
        "regrets kept in {R >= 0, sum R >= 1}; its current strategies converge."
    ),
    "swap-rm": (
        "Swap regret matching (Blum & Mansour 2007): one regret matcher per action, over the regrets of what was "
        "played when that action was; play the stationary distribution of their Markov matrix. The joint play "
        "approaches the correlated equilibria."
    ),
    "internal-rm": (
        "Hart & Mas-Colell's procedure (2000), sampled: switch from the last action j to k with probability "
        "R(j->k)+ / (mu t), stay otherwise. The joint play approaches the correlated equilibria."
    ),
}
#: The rules that take a step size ``eta``, and the rules that also take the anytime schedule ``eta="anytime"``.
STEP_ALGORITHMS = ("hedge", "optimistic-hedge", "gda", "optimistic-gda", "sprm+", "exrm+")
#: The forms a rule is limited to, where it is (``MatrixVariant`` refuses the others): extragradient RM+ evaluates both
#: players' regrets at one profile, twice an iteration, from the expected payoffs.
ONLY_FORMS = {
    "exrm+": {"sampling": "expected", "updates": "simultaneous"},
    "internal-rm": {"sampling": "sampled", "updates": "simultaneous"},
}
#: Why a rule has only the forms ``ONLY_FORMS`` gives it.
_ONLY_BECAUSE = {
    "exrm+": "evaluates both players' regrets at the same profile, twice an iteration, from the expected payoffs",
    "internal-rm": "switches from the action it played last, both players at once (Hart & Mas-Colell 2000)",
}
#: The rules that keep a regret per pair of actions, and whose joint play approaches the correlated equilibria: the
#: joint distribution of play is kept for them on every game.
CORRELATED_ALGORITHMS = ("swap-rm", "internal-rm")
ANYTIME_ALGORITHMS = ("hedge", "optimistic-hedge")
SAMPLINGS = {
    "expected": "Regrets against the opponent's full mixed strategy.",
    "sampled": (
        "Each player samples one action per iteration and regrets are measured against the sampled actions, as in the "
        "classic tutorials (noisier)."
    ),
}
UPDATES = {
    "simultaneous": "Both players update against this iteration's strategies.",
    "alternating": "The column player updates against the row player's new strategy (as CFR+ does).",
}
AVERAGINGS = {
    "uniform": "Every iteration weighs 1 in the average strategy.",
    "linear": "Iteration t weighs t: later, better iterations count more.",
    "quadratic": "Iteration t weighs t²: later iterations count even more.",
}
# Each rule as its strategy map and whether it is optimistic (counts a prediction of the next round once more).
_ALGORITHM_CODES = {
    "rm": (kernels.RM, False),
    "rm+": (kernels.RM_PLUS, False),
    "prm+": (kernels.RM_PLUS, True),
    "hedge": (kernels.HEDGE, False),
    "optimistic-hedge": (kernels.HEDGE, True),
    "fictitious-play": (kernels.FICTITIOUS_PLAY, False),
    "gda": (kernels.GDA, False),
    "optimistic-gda": (kernels.GDA, True),
    "sprm+": (kernels.SMOOTH_RM_PLUS, True),
    "exrm+": (kernels.EXTRAGRADIENT_RM_PLUS, False),
    "swap-rm": (kernels.SWAP_RM, False),
    "internal-rm": (kernels.INTERNAL_RM, False),
}
_AVERAGING_POWERS = {"uniform": 0, "linear": 1, "quadratic": 2}
# The rules whose state starts at the first strategy x_1 itself: GDA's iterate, and the regret state R_0 = x_1 of
# smooth predictive RM+ and extragradient RM+ (on the simplex, inside Z: the first strategy is x_1).
_ITERATE_CODES = (kernels.GDA, kernels.SMOOTH_RM_PLUS, kernels.EXTRAGRADIENT_RM_PLUS)


def step_size(eta, algorithm: str) -> float | str | None:
    """A validated step size for ``algorithm``: ``None`` for a rule without one (where anything but ``None`` is an
    error), else a finite number in ``(0, config.MAX_ETA]`` (``None`` gives ``config.DEFAULT_ETA``), or
    ``"anytime"`` for Hedge and optimistic Hedge."""
    if algorithm not in STEP_ALGORITHMS:
        if eta is not None:
            raise ValueError(f"eta is a step size of {', '.join(STEP_ALGORITHMS)}; {algorithm!r} takes none")
        return None
    if eta is None:
        return config.DEFAULT_ETA
    if isinstance(eta, str):
        if eta.strip() == "anytime":
            if algorithm not in ANYTIME_ALGORITHMS:
                raise ValueError(f"eta='anytime' is Hedge's schedule; {algorithm!r} takes a number")
            return "anytime"
        try:
            eta = float(eta)
        except ValueError:
            raise ValueError(f"eta must be a number or 'anytime', got {eta!r}") from None
    if isinstance(eta, bool) or not isinstance(eta, (int, float, np.integer, np.floating)):
        raise ValueError(f"eta must be a number, got {eta!r}")
    eta = float(eta)
    if not (math.isfinite(eta) and 0.0 < eta <= config.MAX_ETA):
        raise ValueError(f"eta must be a finite number > 0 and <= {config.MAX_ETA:g}, got {eta!r}")
    return eta


@dataclass(frozen=True)
class MatrixVariant:
    """A learning rule's variant by name: algorithm (with its step size ``eta``), sampling, updates and averaging.

    Parsed from names joined by ``/`` in any order, the step as ``eta=0.05`` (or ``eta=anytime``); the label, which
    races and links tell runs apart by, shows the step:

    >>> MatrixVariant.parse("rm+/sampled").label
    'rm+ · sampled · simultaneous · uniform'
    >>> MatrixVariant.parse("hedge/eta=0.05/linear").label
    'hedge(η=0.05) · expected · simultaneous · linear'
    >>> MatrixVariant("optimistic-gda").eta
    0.1
    """

    algorithm: str = "rm"
    sampling: str = "expected"
    updates: str = "simultaneous"
    averaging: str = "uniform"
    eta: float | str | None = None

    def __post_init__(self):
        choice(self.algorithm, ALGORITHMS, "algorithm")
        choice(self.sampling, SAMPLINGS, "sampling")
        choice(self.updates, UPDATES, "updates")
        choice(self.averaging, AVERAGINGS, "averaging")
        for field, only in ONLY_FORMS.get(self.algorithm, {}).items():
            if getattr(self, field) != only:
                raise ValueError(
                    f"{self.algorithm} {_ONLY_BECAUSE[self.algorithm]}: it has no {getattr(self, field)!r} form "
                    f"({field} must be {only!r})"
                )
        object.__setattr__(self, "eta", step_size(self.eta, self.algorithm))

    @classmethod
    def parse(cls, text: str) -> MatrixVariant:
        """From names joined by ``/`` in any order, e.g. ``"prm+/alternating/linear"`` or ``"hedge/eta=0.05"``; the
        rest default."""
        parts = text.split("/") if isinstance(text, str) else []
        steps = [part.strip()[len("eta=") :] for part in parts if part.strip().startswith("eta=")]
        if len(steps) > 1:
            raise ValueError(f"{text!r} names the step eta twice")
        names = "/".join(part for part in parts if not part.strip().startswith("eta=")) if parts else text
        fields = named_parts(names, _VARIANT_FIELDS, "a matrix variant", "rm+/sampled/alternating/linear")
        return cls(**fields, eta=steps[0] if steps else None)

    @property
    def label(self) -> str:
        if self.eta is None:
            algorithm = self.algorithm
        else:
            algorithm = f"{self.algorithm}(η={self.eta if isinstance(self.eta, str) else format(self.eta, 'g')})"
        return " · ".join((algorithm, self.sampling, self.updates, self.averaging))

    @property
    def text(self) -> str:
        """The variant as :meth:`parse` reads it (``"hedge/eta=0.05/expected/simultaneous/uniform"``)."""
        step = [] if self.eta is None else [f"eta={self.eta if isinstance(self.eta, str) else format(self.eta, 'g')}"]
        return "/".join([self.algorithm, *step, self.sampling, self.updates, self.averaging])

    @property
    def is_sampled(self) -> bool:
        return self.sampling == "sampled"

    def solver(self, game: MatrixGame, **options) -> MatrixSolver:
        """A :class:`MatrixSolver` of this variant on ``game``; ``options`` as the solver takes them (``opponent``,
        ``seed``, ``start``, ``max_points``, ``history_share``)."""
        return MatrixSolver(game, self.algorithm, self.sampling, self.updates, self.averaging, eta=self.eta, **options)


_VARIANT_FIELDS = {"algorithm": ALGORITHMS, "sampling": SAMPLINGS, "updates": UPDATES, "averaging": AVERAGINGS}


class MatrixSolver(Solver):
    """Regret matching (and RM+, predictive RM+, Hedge, fictitious play, GDA, smooth predictive RM+, extragradient RM+,
    swap RM, Hart & Mas-Colell's procedure) in a matrix game of two players or more, run incrementally.

    Parameters
    ----------
    game : MatrixGame or NormalFormGame
        Two players, or n >= 3 (the module docstring says what changes with more).
    algorithm : {"rm", "rm+", "prm+", "hedge", "optimistic-hedge", "fictitious-play", "gda", "optimistic-gda", \
"sprm+", "exrm+", "swap-rm", "internal-rm"}
    sampling : {"expected", "sampled"}
    updates : {"simultaneous", "alternating"}
        Ignored against a fixed opponent (only one player learns). ExRM+ is simultaneous only, and expected only
        (``ONLY_FORMS``): it evaluates both players' regrets at one profile, twice an iteration.
    averaging : {"uniform", "linear", "quadratic"}
    opponent : dict, optional
        A fixed column player: ``{"col": weights}``, any non-negative weights with a positive sum (normalised), as a
        game tree's fixed opponent is a strategy for each of its information sets. ``None`` (default) is self-play.
        (The weights alone, an array, are the deprecated form.)
    start : (array_like, array_like), optional
        Where learning starts: a mixed strategy per player (non-negative weights, normalised), which
        the first iteration plays. Realised as initial regrets ``R_0 = Delta * x_0`` (``Delta`` the
        player's payoff range: one iteration's worth of regret), so regret matching's first strategy
        ``RM(R_0)`` is exactly ``x_0``. ``None`` (default) starts from zero regrets, i.e. uniform play;
        in a symmetric game such as Rock-Paper-Scissors that is the equilibrium, and nothing moves.
        Against a fixed opponent only the row player's start is used. The other rules play the start first without
        regrets: Hedge takes it as its prior (``x_t ∝ x_0 exp(eta U_{t-1})``), fictitious play plays it at ``t = 1``,
        GDA starts its iterate there, SPRM+ and ExRM+ start their regret state there (``R_0 = x_0``, in Z).
    seed : int, optional
        Seed of the sampled variant's random numbers; ``None`` draws fresh entropy (see ``seed``
        afterwards to reproduce the run).
    max_points : int, optional
        Most rows ``history()`` keeps (0 keeps none); by default ``config.DEFAULT_MAX_POINTS``, or fewer where that many
        rows would take more than ``config.DEFAULT_HISTORY_BYTES``.
    history_share : float or None
        The share of a run's time its history's rows may take, by default ``config.HISTORY_SHARE`` (a tenth): the
        checkpoints are spaced so (:attr:`checkpoint_stride`). ``None`` keeps every checkpoint of the grid however
        much it costs (a page that shows every step of a small game asks for that).
    eta : float or "anytime", optional
        The step of ``hedge``, ``optimistic-hedge``, ``gda``, ``optimistic-gda``, ``sprm+``, ``exrm+``: a finite
        number in ``(0, config.MAX_ETA]``, by default ``config.DEFAULT_ETA`` (0.1); ``"anytime"`` (Hedge only) is
        ``eta_t = sqrt(8 ln(m) / t) / Delta`` (Cesa-Bianchi & Lugosi 2006, Theorem 2.3). Other rules take none.
    joint : bool or None
        Keep the joint distribution of play ``sigma_T`` (the average of ``x_t (x) y_t``, or sampled the frequencies
        of the joint actions), at the cost of an m x n add an iteration, and record its ``cce_gap``, ``ce_gap`` and
        ``internal_regret`` in every history row. ``None`` (default): in self-play on a general-sum game, and for
        ``swap-rm`` and ``internal-rm`` on every game. ``True`` is refused against a fixed opponent.
    mu : float, optional
        The inertia of ``internal-rm`` (Hart & Mas-Colell 2000): a finite number above ``2 M (m_i - 1)`` for both
        players, ``M`` a player's largest ``|payoff|``; by default the least such number
        (:func:`rmcore.internal_rm_inertia`). Other rules take none.

    Notes
    -----
    SPRM+ follows the SOGRM authors' ``SPRMSolver`` (menglinjian/NeurIPS-2025-SOGRM, ``main.py``) in its order: both
    players' regrets at the profile played, then each regret state, then each next strategy; ``tests/
    test_frontier_matrix.py`` holds its last iterate to a slow reference in that order at every iteration, and
    ExRM+'s to one written from Cai et al. (2023). The regret state is scaled by ``eta`` (``R += eta r``), as in the
    paper and the code; the cumulative regrets ``cumulative_regrets()`` are the plain sums ``sum_t r_t`` of the
    profiles played (for ExRM+ the look-ahead profiles ``H / sum H``), so that ``average_regret`` keeps its meaning.
    The state's sum bound of 1 (the code's ``lower_z = 1``) makes the step size matter: with a larger ``eta`` the
    regrets move further on the same payoffs.

    ``run(n)`` may be called any number of times: splitting the same total into any chunks gives
    bit-identical strategies, regrets, metrics and history. "Current" strategies are the ones the
    next iteration will play, ``RM(R)``; averages are ``sum_t w_t x_t / sum_t w_t``
    (uniform before the first iteration).
    """

    family = "matrix"

    def __init__(
        self,
        game: MatrixGame,
        algorithm: str = "rm",
        sampling: str = "expected",
        updates: str = "simultaneous",
        averaging: str = "uniform",
        opponent=None,
        seed: int | None = None,
        max_points: int | None = None,
        start=None,
        eta=None,
        history_share: float | None = config.HISTORY_SHARE,
        joint: bool | None = None,
        mu: float | None = None,
    ):
        if isinstance(game, NormalFormGame) and game.num_players > 2:
            self._start_players(
                game, algorithm, sampling, updates, averaging, opponent, seed, max_points, start, eta,
                history_share, joint, mu,
            )  # fmt: skip
            return
        if isinstance(game, NormalFormGame):
            game = game.as_matrix_game()
        if not isinstance(game, MatrixGame):
            raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}")
        self.game = game
        self.variant = MatrixVariant(algorithm, sampling, updates, averaging, eta)
        m, n = game.shape
        fixed_column = fixed_opponent(game, opponent)
        #: Whether the joint distribution of play is kept (and the CE and CCE gaps measured).
        self.keeps_joint = keeps_joint(joint, game, algorithm, fixed_column is not None)
        #: Hart & Mas-Colell's inertia ``mu`` (``internal-rm``), ``None`` for the other rules.
        self.mu = inertia(mu, game, algorithm)
        #: The fixed opponent, ``{"col": (probability, ...)}`` normalised, or ``None`` in self-play.
        self.opponent = None if fixed_column is None else {"col": tuple(float(p) for p in fixed_column)}
        #: The learning player against a fixed opponent (1, the row player), ``None`` in self-play (as on a game tree).
        self.learner = None if fixed_column is None else 1
        fixed = fixed_column is not None
        code, optimistic = _ALGORITHM_CODES[algorithm]
        self._flags = kernels.MatrixFlags(
            algorithm=code,
            optimistic=int(optimistic),
            sampled=int(sampling == "sampled"),
            alternating=int(updates == "alternating" and not fixed),
            averaging_power=_AVERAGING_POWERS[averaging],
            fixed_opponent=int(fixed),
            zero_sum=int(game.is_zero_sum),
            track_joint=int(self.keeps_joint),
        )
        rng, self.seed = seed_words(seed)
        zeros = np.zeros
        pairs = algorithm in CORRELATED_ALGORITHMS  # (a regret per pair of actions; the other rules get a 1 x 1 array)
        # The kernel's own writable copies (a read-only array is another type to numba: another compile), each on a
        # cache line's boundary (rmcore.kernels.ALIGNMENT says why).
        self._payoffs = (aligned(game.row_payoffs), aligned(game.col_payoffs))
        fields = kernels.MatrixState(
            regrets_row=zeros(m),
            regrets_col=zeros(n),
            predictions_row=zeros(m),
            predictions_col=zeros(n),
            scores_row=zeros(m),
            scores_col=zeros(n),
            strategy_sums_row=zeros(m),
            strategy_sums_col=zeros(n),
            joint=zeros((m, n) if self.keeps_joint else (1, 1)),
            joint_total=zeros(1),
            conditional_row=zeros((m, m) if pairs else (1, 1)),
            conditional_col=zeros((n, n) if pairs else (1, 1)),
            weight_sum=zeros(1),
            rng=rng,
            steps=self._steps(),
            inertia=np.array([self.mu or 0.0]),
            log_start_row=zeros(m),
            log_start_col=zeros(n),
            start_row=np.full(m, 1.0 / m),
            start_col=np.full(n, 1.0 / n),
            x=np.full(m, 1.0 / m),
            y=fixed_column if fixed else np.full(n, 1.0 / n),
            next_x=zeros(m),
            row_utilities=zeros(m),
            col_utilities=zeros(n),
            avg_x=zeros(m),
            avg_y=zeros(n),
            fixed_row_utilities=zeros(m),
            scratch_row=zeros(m),
            scratch_col=zeros(n),
            markov_row=zeros((m, m) if pairs else (1, 1)),
            markov_col=zeros((n, n) if pairs else (1, 1)),
            drawn=np.full(3, -1, dtype=np.int64),
            actions=np.array([m, n], dtype=np.int64),
            learning=np.array([1, 0 if fixed else 1], dtype=np.int64),
            digits=np.zeros(2, dtype=np.int64),
            partial=zeros(3),
        )
        self._state = kernels.MatrixState(*(aligned(field) for field in fields))
        self.start = None if start is None else initial_strategies(game, start)
        state = self._state
        if code in _ITERATE_CODES:  # GDA's iterate, the smoothed rules' regret state R_0 in Z: the start (uniform)
            state.scores_row[:] = state.start_row
            state.scores_col[:] = state.start_col
        if self.start is not None:
            players = [(self.start[0], state.regrets_row, state.log_start_row, state.start_row, state.scores_row)]
            if not fixed:
                column = (state.regrets_col, state.log_start_col, state.start_col, state.scores_col)
                players.append((self.start[1], *column))
            conditionals = (state.conditional_row, state.conditional_col)
            for (x0, regrets, log_start, first, scores), delta, conditional in zip(
                players, game.payoff_range, conditionals
            ):
                if code == kernels.SWAP_RM:
                    conditional[:] = delta * x0  # every action's matcher starts at R_0 = Delta x_0: Q's rows and pi x_0
                elif code in (kernels.RM, kernels.RM_PLUS):
                    regrets[:] = delta * x0  # one iteration's worth of regret: RM(R_0) = x_0
                elif code == kernels.HEDGE:
                    with np.errstate(divide="ignore"):
                        log_start[:] = np.log(x0)  # the start as Hedge's prior: x_1 = x_0 (-inf where it is 0)
                elif code in (kernels.FICTITIOUS_PLAY, kernels.INTERNAL_RM):
                    first[:] = x0
                else:
                    scores[:] = x0
        # The kernel's inputs as the plain tuples it takes, made once: the arrays are changed in place, never replaced.
        self._inputs = (*self._payoffs, tuple(self._flags), tuple(state))
        self._start(max_points, history_share)

    def _start_players(
        self, game, algorithm, sampling, updates, averaging, opponent, seed, max_points, start, eta, history_share,
        joint, mu,
    ) -> None:  # fmt: skip
        """The solver of a game of n >= 3 players (:class:`~rmcore.NormalFormGame`): every rule whose update is each
        player's own, simultaneous, expected or sampled, with any players fixed (``opponent``: ``{player: weights}``,
        players numbered from 1). The kernel's state holds each per-player array's entries player after player
        (``MatrixState``'s note)."""
        self.game = game
        if algorithm == "exrm+":
            raise ValueError(
                "exrm+ (extragradient RM+) evaluates both players' regrets at one profile twice an iteration: it runs "
                f"on two-player games; this game has {game.num_players} players"
            )
        if updates == "alternating":
            raise ValueError(
                "alternating updates let the column player answer the row player's new strategy: they order two "
                f"players; a game of {game.num_players} players updates simultaneously"
            )
        self.variant = MatrixVariant(algorithm, sampling, updates, averaging, eta)
        shape = game.shape
        players = len(shape)
        fixed = fixed_players(game, opponent)
        learning = [p not in fixed for p in range(1, players + 1)]
        self.keeps_joint = keeps_joint(joint, game, algorithm, bool(fixed))
        self.mu = inertia(mu, game, algorithm)
        #: The fixed players, ``{player: (probability, ...)}`` normalised, or ``None`` in self-play.
        self.opponent = None if not fixed else {p: tuple(float(q) for q in s) for p, s in sorted(fixed.items())}
        #: The one learning player where all the others are fixed (its ``br_gain`` is the measure), else ``None``.
        self.learner = learning.index(True) + 1 if sum(learning) == 1 else None
        code, optimistic = _ALGORITHM_CODES[algorithm]
        self._flags = kernels.MatrixFlags(
            algorithm=code,
            optimistic=int(optimistic),
            sampled=int(sampling == "sampled"),
            alternating=0,
            averaging_power=_AVERAGING_POWERS[averaging],
            fixed_opponent=int(bool(fixed)),
            zero_sum=int(game.is_zero_sum),
            track_joint=int(self.keeps_joint),
        )
        rng, self.seed = seed_words(seed)
        total = sum(shape)
        uniform = np.concatenate([np.full(a, 1.0 / a) for a in shape])
        pairs = sum(a * a for a in shape)  # (every rule's state has the blocks: the kernel takes a view of each)
        one = np.zeros(1)
        # Every player's payoffs, a row each (the joint actions in C order); B is unused. Aligned, writable copies.
        self._payoffs = (aligned(np.stack([p.reshape(-1) for p in game.payoffs])), aligned(np.zeros((1, 1))))
        steps = self._steps()
        fields = kernels.MatrixState(
            regrets_row=np.zeros(total),
            regrets_col=one,
            predictions_row=np.zeros(total),
            predictions_col=one,
            scores_row=np.zeros(total),
            scores_col=one,
            strategy_sums_row=np.zeros(total),
            strategy_sums_col=one,
            joint=np.zeros((1, math.prod(shape)) if self.keeps_joint else (1, 1)),
            joint_total=np.zeros(1),
            conditional_row=np.zeros((1, pairs)),
            conditional_col=np.zeros((1, 1)),
            weight_sum=np.zeros(1),
            rng=rng,
            steps=steps,
            inertia=np.array([self.mu or 0.0]),
            log_start_row=np.zeros(total),
            log_start_col=one,
            start_row=uniform.copy(),
            start_col=one,
            x=uniform.copy(),
            y=one,
            next_x=np.zeros(total),
            row_utilities=np.zeros(total),
            col_utilities=one,
            avg_x=np.zeros(total),
            avg_y=one,
            fixed_row_utilities=one,
            scratch_row=np.zeros(total),
            scratch_col=one,
            markov_row=np.zeros((1, pairs)),
            markov_col=np.zeros((1, 1)),
            drawn=np.full(players, -1, dtype=np.int64),
            actions=np.array(shape, dtype=np.int64),
            learning=np.array(learning, dtype=np.int64),
            digits=np.zeros(players, dtype=np.int64),
            partial=np.zeros(players + 1),
        )
        self._state = state = kernels.MatrixState(*(aligned(field) for field in fields))
        self.start = None if start is None else player_starts(game, start)
        offsets = np.concatenate([[0], np.cumsum(shape)])
        blocks = np.concatenate([[0], np.cumsum([a * a for a in shape])])
        for p in range(players):
            part = slice(offsets[p], offsets[p + 1])
            if code in _ITERATE_CODES:
                state.scores_row[part] = state.start_row[part]
            if p + 1 in fixed:
                state.x[part] = fixed[p + 1]
                continue
            if self.start is None:
                continue
            x0, delta = self.start[p], game.payoff_range[p]
            if code == kernels.SWAP_RM:
                # every action's matcher starts at R_0 = Delta x_0 (its a_i x a_i block, row by row)
                state.conditional_row[0, blocks[p] : blocks[p + 1]] = np.tile(delta * x0, shape[p])
            elif code in (kernels.RM, kernels.RM_PLUS):
                state.regrets_row[part] = delta * x0
            elif code == kernels.HEDGE:
                with np.errstate(divide="ignore"):
                    state.log_start_row[part] = np.log(x0)
            elif code in (kernels.FICTITIOUS_PLAY, kernels.INTERNAL_RM):
                state.start_row[part] = x0
            else:
                state.scores_row[part] = x0
        self._inputs = (*self._payoffs, tuple(self._flags), tuple(state))
        self._start(max_points, history_share)

    @property
    def is_self_play(self) -> bool:
        return self.opponent is None

    algorithm = property(lambda self: self.variant.algorithm)
    eta = property(lambda self: self.variant.eta)
    sampling = property(lambda self: self.variant.sampling)
    updates = property(lambda self: self.variant.updates)
    averaging = property(lambda self: self.variant.averaging)

    def _steps(self) -> np.ndarray:
        """The kernels' ``[eta_row, eta_col, anytime]``: the step twice, or with ``eta="anytime"`` each player's
        ``sqrt(8 ln(actions)) / Delta`` (Hedge's anytime step ``eta_t = sqrt(8 ln(m) / t) / Delta``, Cesa-Bianchi &
        Lugosi 2006, Theorem 2.3; ``Delta = 1`` in a game whose payoffs are all equal)."""
        eta = self.variant.eta
        players = len(self.game.shape)  # ([eta_1, ..., eta_n, anytime] for a game of n players)
        if eta is None:
            return np.zeros(players + 1)
        if eta != "anytime":
            return np.array([eta] * players + [0.0])
        constants = [
            math.sqrt(8.0 * math.log(actions)) / (delta if delta > 0 else 1.0)
            for actions, delta in zip(self.game.shape, self.game.payoff_range)
        ]
        return np.array([*constants, 1.0])

    # -- the solver core's parts (rmcore/solver.py) ---------------------------------------------------

    def _iteration_work(self) -> int:
        """An iteration's work: the payoff matrix's cells and both strategies' entries (n players: every player's
        payoff of each joint action, and every strategy's entries)."""
        if len(self.game.shape) > 2:
            return len(self.game.shape) * math.prod(self.game.shape) + sum(self.game.shape)
        m, n = self.game.shape
        return m * n + m + n

    def _row_operations(self) -> int:
        """A history row's operation count, in the unit of :meth:`_iteration_work` (entries read or written): four
        passes over the cells (both players' payoff vectors, for the current and for the average profile), both
        players' strategies played and averaged, ``2 (m + n)``, and the row's three arrays per player, each padded to
        the wider player, ``6 max(m, n)``. A count, not a time: it sizes what runs as plain Python while the kernels
        compile; the stride is priced by measuring (:func:`rmcore.solver.measured_row_cost`)."""
        if len(self.game.shape) > 2:  # (n players: two passes over every payoff, the strategies, the row's arrays)
            shape = self.game.shape
            return 2 * len(shape) * math.prod(shape) + 2 * sum(shape) + 3 * len(shape) * max(shape)
        m, n = self.game.shape
        # (with the joint distribution: its CE and CCE gaps, a pass of m + n multiply-adds over each of its cells)
        correlated = m * n * (m + n + 1) if self.keeps_joint else 0
        return 4 * m * n + 2 * (m + n) + 6 * max(m, n) + correlated

    def _cost_key(self) -> tuple:
        return ("matrix", tuple(self._flags), self.keeps_joint, self.game.shape, self.row_bytes())

    def _empty_record(self, rows: int) -> kernels.MatrixRecord:
        return kernels.empty_matrix_record(rows, *self.game.shape, joint=self.keeps_joint)

    def _twin_exact(self) -> bool:
        # (the plain-Python twin sums a row in order, as the kernel does for fewer than WIDE_ROWS columns; the passes
        # of n players sum in order)
        return len(self.game.shape) > 2 or self.game.shape[1] < kernels.WIDE_ROWS

    def _advance(self, first: int, last: int, points: np.ndarray, record) -> int:
        work = max(last - first + 1, 0) * self._iteration_work() + points.shape[0] * self._row_operations()
        return _runtime.call(
            "matrix",
            kernels.run_matrix,
            *self._inputs,
            first,
            last,
            points,
            tuple(record),
            work=work,
            twin=self._twin_exact(),
        )

    # -- reading -------------------------------------------------------------------------

    def _policy(self, strategies: np.ndarray) -> Policy:
        return Policy(strategies, *self._labels())

    @exclusive
    def average_policy(self) -> Policy:
        """The average strategies as a :class:`~rmcore.Policy` over the information sets ``row`` and ``col``."""
        return self._policy(self._snapshot().average[0])

    @exclusive
    def current_policy(self) -> Policy:
        """The strategies the next iteration plays, as a :class:`~rmcore.Policy`."""
        return self._policy(self._snapshot().current[0])

    def average_strategies(self):
        """Deprecated: :meth:`average_policy` (``policy["row"]``, ``policy["col"]``)."""
        warn("MatrixSolver.average_strategies() is deprecated: use average_policy() (as on a game tree)")
        policy = self.average_policy()
        return StrategyProfile(policy["row"], policy["col"])

    def current_strategies(self):
        """Deprecated: :meth:`current_policy`."""
        warn("MatrixSolver.current_strategies() is deprecated: use current_policy() (as on a game tree)")
        policy = self.current_policy()
        return StrategyProfile(policy["row"], policy["col"])

    @exclusive
    def cumulative_regrets(self) -> PlayerValues:
        """Copies of ``R1`` and ``R2`` (player 2's ``None`` against a fixed opponent; n players: ``R1`` to ``Rn``,
        a fixed player's ``None``)."""
        state = self._state
        if len(self.game.shape) > 2:
            return PlayerValues(*(state.regrets_row[part].copy() if learns else None for part, learns in self._parts()))
        return PlayerValues(state.regrets_row.copy(), None if self.opponent is not None else state.regrets_col.copy())

    @exclusive
    def joint_history(self) -> JointHistory:
        """The joint distribution of play at every row of :meth:`history` (its checkpoints and the iteration now):
        ``joint[k]`` is :meth:`joint_distribution` after ``iterations[k]`` iterations (copies)."""
        self._check_joint()
        record = self._record
        if self._iteration > 0 and (record.iteration.shape[0] == 0 or record.iteration[-1] != self._iteration):
            record = concat_records(record, self._snapshot())
        return JointHistory(record.iteration.copy(), record.joint.reshape(-1, *self.game.shape).copy())

    def _check_joint(self) -> None:
        if not self.keeps_joint:
            raise ValueError(
                "this run does not keep the joint distribution of play: create the solver with joint=True (it is kept "
                "by default in general-sum self-play and for swap-rm and internal-rm)"
            )

    @exclusive
    def conditional_regrets(self) -> PlayerValues:
        """Copies of each player's regrets per pair of actions (``swap-rm`` and ``internal-rm``; ``None`` for the
        other rules): swap RM's ``R_j(k)``, row j the regrets of action j's regret matcher, and Hart & Mas-Colell's
        ``D(j, k)``, the sum over the iterations that played j of ``u(k) - u(j)``."""
        players = len(self.game.shape)
        if self.variant.algorithm not in CORRELATED_ALGORITHMS:
            return PlayerValues(*([None] * players))
        state = self._state
        if players > 2:
            blocks = np.concatenate([[0], np.cumsum([a * a for a in self.game.shape])])
            return PlayerValues(
                *(
                    state.conditional_row[0, blocks[p] : blocks[p + 1]].reshape(a, a).copy()
                    for p, a in enumerate(self.game.shape)
                )
            )
        return PlayerValues(state.conditional_row.copy(), state.conditional_col.copy())

    def last_sampled_actions(self) -> tuple[int, int, int] | None:
        """The actions the last sampled iteration drew, as indices: ``(a, b, a')``, or None in expected mode.

        ``a ~ x_t`` and ``b ~ y_t`` are the row and the column player's draws; the row player's regrets
        were updated against ``b``. With alternating updates the column player's regrets were updated
        against ``a' ~ x_{t+1}``, a fresh draw from the row player's new strategy (otherwise ``a' = a``).
        Against a fixed opponent ``b`` is the opponent's draw.
        """
        drawn = self._state.drawn  # (n players: each player's draw, player 1's first)
        return None if drawn[0] < 0 else tuple(int(a) for a in drawn)

    def metrics(self) -> Metrics:
        """Metrics of the average profile now (see :class:`~rmcore.Metrics`): the last row of :meth:`history`."""
        return super().metrics()

    def history(self) -> History:
        """Checkpoints so far, plus the current iteration (at most ``max_points + 1`` rows).

        Metrics: :data:`rmcore.solver.METRIC_COLUMNS`, as on a game tree (NaN where one does not apply:
        ``nodes_touched``, and player 2's against a fixed opponent). Policies are over the information sets ``row``
        and ``col``. ``history().to_frame()`` gives a DataFrame with columns such as
        ``row_average[Rock]``.
        """
        return super().history()

    def _labels(self):
        if len(self.game.shape) > 2:  # (n players: an information set per player, "player 1" to "player n")
            return tuple(f"player {p}" for p in range(1, len(self.game.shape) + 1)), self.game.actions
        return ("row", "col"), (self.game.row_actions, self.game.col_actions)

    def _parts(self):
        """Each player's slice of the kernel's per-player arrays (a game of n >= 3 players) and whether it learns."""
        offsets = np.concatenate([[0], np.cumsum(self.game.shape)])
        learning = self._state.learning
        return [(slice(offsets[p], offsets[p + 1]), bool(learning[p])) for p in range(len(self.game.shape))]

    def _family_columns(self, record: kernels.MatrixRecord) -> dict:
        """The matrix game's own metrics: the average regrets, the bounds drawn beside them, the CCE gap."""
        if len(self.game.shape) > 2:
            return self._player_columns(record)
        game = self.game
        m, n = game.shape
        delta_row, delta_col = game.payoff_range
        fixed = np.nan if self.opponent is not None else 1.0
        elapsed = np.maximum(record.iteration, 1).astype(float)
        return {
            "average_regret_1": record.average_regret_1,
            "average_regret_2": record.average_regret_2,
            "regret_bound_1": self._regret_bound(delta_row, m, elapsed),
            "regret_bound_2": fixed * self._regret_bound(delta_col, n, elapsed),
            "cce_gap": record.cce_gap,
            "ce_gap": record.ce_gap,
            "internal_regret": record.internal_regret,
            "internal_regret_bound": self._internal_bound(elapsed),
        }

    def _player_columns(self, record: kernels.MatrixRecord) -> dict:
        """:meth:`_family_columns` of a game of n >= 3 players: every player's average regret and bound (players 3 to
        n numbered on), and the CE and CCE gaps of the joint distribution at each row, measured from it
        (:func:`player_gaps`)."""
        elapsed = np.maximum(record.iteration, 1).astype(float)
        regrets = [record.average_regret_1, record.average_regret_2, *record.more_average_regrets.T]
        columns = {}
        for p, ((_, learns), actions, delta, regret) in enumerate(
            zip(self._parts(), self.game.shape, self.game.payoff_range, regrets), 1
        ):
            columns[f"average_regret_{p}"] = regret
            columns[f"regret_bound_{p}"] = (1.0 if learns else np.nan) * self._regret_bound(delta, actions, elapsed)
        gaps = np.full((2, record.iteration.shape[0]), np.nan)
        if self.keeps_joint:
            for row, sigma in enumerate(record.joint):
                if not np.isnan(sigma[0, 0]):
                    gaps[:, row] = player_gaps(self.game, sigma.reshape(self.game.shape))
        columns.update(cce_gap=gaps[0], ce_gap=gaps[1], internal_regret=np.full_like(elapsed, np.nan))
        columns["internal_regret_bound"] = np.full_like(elapsed, np.nan)
        return columns

    def _internal_bound(self, elapsed: np.ndarray) -> np.ndarray:
        """The bound drawn beside ``internal_regret`` (the larger player's): swap RM's ``Delta m / sqrt(T)``
        (:func:`rmcore.internal_regret_bound`) where the joint play is kept; NaN for the other rules (Hart &
        Mas-Colell's procedure converges without a rate of this form)."""
        if self.variant.algorithm != "swap-rm" or not self.keeps_joint:
            return np.full_like(elapsed, np.nan)
        return functools.reduce(
            np.maximum,
            (
                internal_regret_bound(delta, actions, elapsed)
                for delta, actions in zip(self.game.payoff_range, self.game.shape)
            ),
        )

    @exclusive
    def joint_distribution(self) -> np.ndarray:
        """The empirical joint distribution of play ``sigma_T``, an m x n array summing to 1 (a copy).

        Expected play: the average of the product profiles, ``sigma_T = (1/T) sum_t x_t (x) y_t`` (OpenSpiel's uniform
        correlation device over the iterates); sampled play: the frequency of each joint action ``(a_t, b_t)``.
        Whatever the averaging, every iteration weighs 1: it is the play, not the average strategy. Kept where
        ``keeps_joint`` (the ``joint`` argument: by default in general-sum self-play and for ``swap-rm`` and
        ``internal-rm``), at the cost of an m x n add an iteration.
        """
        self._check_joint()
        state = self._state
        if state.joint_total[0] <= 0.0:
            raise ValueError(
                "the joint distribution of play is defined after the first iteration: run the solver first"
            )
        return (state.joint / state.joint_total[0]).reshape(self.game.shape)

    def _regret_bound(self, delta: float, actions: int, elapsed: np.ndarray) -> np.ndarray:
        """The bound on average regret drawn beside the regrets: regret matching's ``Delta sqrt(|A| / T)`` (RM, RM+,
        PRM+), Hedge's (:func:`rmcore.hedge_regret_bound`), none (NaN) for the other rules. (From a start, RM's regrets
        begin at ``Delta x_0`` and Hedge's prior is ``x_0``: the lines are those of the uniform start.)"""
        algorithm = self.variant.algorithm
        if algorithm in ("rm", "rm+", "prm+"):
            return delta * np.sqrt(actions / elapsed)
        if algorithm == "hedge":
            return np.asarray(hedge_regret_bound(delta, actions, elapsed, self.variant.eta), dtype=float)
        return np.full_like(elapsed, np.nan)

    def __repr__(self) -> str:
        opponent = "self-play" if self.opponent is None else "fixed opponent"
        return f"<MatrixSolver {self.game!r} {self.variant.label} {opponent} at iteration {self._iteration}>"


def keeps_joint(joint, game: MatrixGame, algorithm: str, fixed: bool) -> bool:
    """Whether a run keeps the joint distribution of play: ``joint`` (True, False, or None for the default: in
    self-play on a general-sum game, and for the learners of correlated equilibria on every game), validated."""
    if joint is not None and not isinstance(joint, (bool, np.bool_)):
        raise ValueError(f"joint must be True, False or None (kept where it is measured), got {joint!r}")
    if joint is None:
        return not fixed and (not game.is_zero_sum or algorithm in CORRELATED_ALGORITHMS)
    if joint and fixed:
        why = (
            "both players' learning; against a fixed opponent only the row player learns"
            if game.num_players == 2
            else "every player's learning; with some players fixed the others learn a game of their own, whose CE and "
            "CCE gaps are not measured"
        )
        raise ValueError(f"joint=True asks for the joint distribution of {why} (leave joint unset)")
    return bool(joint)


def inertia(mu, game: MatrixGame, algorithm: str) -> float | None:
    """A validated inertia ``mu`` of Hart & Mas-Colell's procedure: above ``2 M (m_i - 1)``
    (:func:`rmcore.internal_rm_inertia`, its default); ``None`` for the other rules, which refuse one."""
    if algorithm != "internal-rm":
        if mu is not None:
            raise ValueError(
                f"mu is the inertia of internal-rm (Hart & Mas-Colell's procedure); {algorithm!r} takes none"
            )
        return None
    if mu is None:
        return internal_rm_inertia(game)
    if isinstance(mu, bool) or not isinstance(mu, (int, float, np.integer, np.floating)) or not math.isfinite(mu):
        raise ValueError(f"mu must be a finite number, got {mu!r}")
    bound = inertia_bound(game)
    if not float(mu) > bound:
        raise ValueError(
            f"mu must exceed 2 M (m - 1) = {bound:g} on this game, M its largest |payoff| and m a player's actions "
            f"(Hart & Mas-Colell 2000: then staying keeps a positive probability); got {mu!r}"
        )
    return float(mu)


def fixed_opponent(game: MatrixGame, opponent) -> np.ndarray | None:
    """A validated fixed column strategy (normalised) from ``{"col": weights}``, or ``None`` for ``None``; the weights
    alone (an array) are the deprecated form, and still read."""
    if opponent is None:
        return None
    n = game.shape[1]
    if isinstance(opponent, dict):
        if set(opponent) != {"col"}:
            named = ", ".join(repr(k) for k in opponent) or "nothing"
            raise ValueError(
                "a matrix game's fixed opponent is the column player: {'col': weights} "
                f"(the row player learns); got {named}"
            )
        return as_strategy(opponent["col"], n, "opponent strategy", normalise=True)
    if isinstance(opponent, str):
        raise ValueError("a matrix game's fixed opponent is {'col': weights}, e.g. {'col': [0.4, 0.3, 0.3]}")
    warn("MatrixSolver(opponent=weights) is deprecated: give {'col': weights} (as a game tree's fixed opponent)", 4)
    return as_strategy(opponent, n, "opponent strategy", normalise=True)


def fixed_players(game: NormalFormGame, opponent) -> dict[int, np.ndarray]:
    """The fixed players of a game of n >= 3 players, ``{player: strategy}`` (normalised), from ``{player: weights}``
    with players numbered 1 to n (at least one player learns); ``{}`` for ``None`` (self-play)."""
    if opponent is None:
        return {}
    players = game.num_players
    if not isinstance(opponent, dict):
        raise ValueError(
            f"the fixed players of a game of {players} players are {{player: weights}}, players numbered 1 to "
            f"{players}, e.g. {{3: [0.5, 0.5]}}; got {type(opponent).__name__}"
        )
    fixed = {}
    for player, weights in opponent.items():
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 1 <= player <= players:
            raise ValueError(f"a fixed player is numbered 1 to {players}; got {player!r}")
        fixed[int(player)] = as_strategy(weights, game.shape[player - 1], f"player {player}'s strategy", normalise=True)
    if len(fixed) == players:
        raise ValueError(f"every one of the {players} players is fixed: at least one must learn")
    return fixed


def player_starts(game: NormalFormGame, start) -> PlayerValues:
    """A validated start of a game of n >= 3 players: a sequence of n weight vectors, each normalised."""
    players = game.num_players
    if isinstance(start, str) or not hasattr(start, "__len__") or len(start) != players:
        raise ValueError(f"start must be {players} initial strategies, one per player, player 1's first")
    return PlayerValues(
        *(
            as_strategy(weights, actions, f"player {p}'s start", normalise=True)
            for p, (weights, actions) in enumerate(zip(start, game.shape), 1)
        )
    )


def initial_strategies(game: MatrixGame, start) -> PlayerValues:
    """A validated start ``(row weights, column weights)``, each normalised to a mixed strategy."""
    if isinstance(start, str) or not hasattr(start, "__len__") or len(start) != 2:
        raise ValueError("start must be a pair: the row player's and the column player's initial strategies")
    m, n = game.shape
    return PlayerValues(
        as_strategy(start[0], m, "the row player's start", normalise=True),
        as_strategy(start[1], n, "the column player's start", normalise=True),
    )


class JointHistory(NamedTuple):
    """The joint distribution of play at a run's history rows (:meth:`MatrixSolver.joint_history`)."""

    iterations: np.ndarray  # [k] int64, as History.iterations
    joint: np.ndarray  # [k, m, n]: sigma after each of those iterations, rows the row player's actions


class Profile(NamedTuple):
    """A strategy profile ``(x, y)`` as the matrix kernel measures it (:func:`profile_of`)."""

    gains: PlayerValues  # each player's best-response gain, clipped at 0
    game_value: float  # x^T A y
    row_utilities: np.ndarray  # A y
    col_utilities: np.ndarray  # x^T B


def profile_of(game: MatrixGame, x: np.ndarray, y: np.ndarray) -> Profile:
    """The best-response gains, value and payoff vectors of the profile ``(x, y)`` (validated strategies), computed by
    the kernel that writes a solver's history rows: a solver's state made to hold ``(x, y)`` as its average (strategy
    sums ``x`` and ``y`` over a weight of 1, which the kernel divides exactly) is measured as a checkpoint. So
    :func:`rmcore.nash_conv` of a solver's ``average_policy()`` is its ``metrics().nash_conv`` to the last bit: the same
    sums in the same order (a second route, numpy's matrix product, rounds differently from 3 x 3 up)."""
    solver = MatrixSolver(game, max_points=0, history_share=None, joint=False)
    state = solver._state
    state.strategy_sums_row[:] = x
    state.strategy_sums_col[:] = y
    state.weight_sum[0] = 1.0
    row = solver._snapshot()
    gains = PlayerValues(float(row.br_gain_1[0]), float(row.br_gain_2[0]))
    # (the kernel measures the average profile last: its payoff vectors are those of (x, y))
    return Profile(gains, float(row.game_value[0]), state.row_utilities.copy(), state.col_utilities.copy())


def profile_of_players(game: NormalFormGame, profile) -> PlayerValues:
    """Each player's best-response gain against ``profile`` (n validated mixed strategies) in a game of n >= 3
    players, computed by the kernel that writes a solver's history rows, as :func:`profile_of` for two: a solver's
    state made to hold the profile as its average is measured as a checkpoint."""
    solver = MatrixSolver(game, max_points=0, history_share=None, joint=False)
    solver._state.strategy_sums_row[:] = np.concatenate(profile)
    solver._state.weight_sum[0] = 1.0
    row = solver._snapshot()
    return PlayerValues(float(row.br_gain_1[0]), float(row.br_gain_2[0]), *(float(g) for g in row.more_br_gains[0]))


def player_gaps(game: NormalFormGame, sigma: np.ndarray) -> tuple[float, float]:
    """``(cce_gap, ce_gap)`` of the joint distribution ``sigma`` (an ``a_1 x ... x a_n`` array) of a game of n >= 3
    players, summed over the players, as :mod:`rmcore.matrix.correlated_gaps` defines them (OpenSpiel's ``cce_dist``
    and ``ce_dist``): player i's payoffs and ``sigma`` laid out as its actions by the others' joint actions, ``u_i(k,
    sigma_-i)`` is the rows times ``sigma``'s marginal over the others, and the conditional gains of the CE gap the
    product of the two tables. (Two players' gaps are the kernel's, :func:`rmcore.kernels.matrix.correlated_gaps`.)"""
    cce, ce = 0.0, 0.0
    for player, payoffs in enumerate(game.payoffs):
        count = game.shape[player]
        utilities = np.moveaxis(payoffs, player, 0).reshape(count, -1)  # [own action, others' joint action]
        device = np.moveaxis(sigma, player, 0).reshape(count, -1)
        value = float(np.sum(utilities * device))
        cce += max(float(np.max(utilities @ device.sum(axis=0))) - value, 0.0)
        # conditional[j, k]: what playing k whenever told j earns, over the profiles where j is told
        conditional = device @ utilities.T
        ce += float(np.sum(np.maximum(conditional.max(axis=1) - np.diag(conditional), 0.0)))
    return cce, ce


def _warm_up_solver() -> MatrixSolver:
    """A small solver whose kernel calls have the argument types of every solver's (the family's one signature)."""
    from .games import preset

    return MatrixSolver(preset("rps"), max_points=4, history_share=None)


def _warm_up() -> None:
    """Run the matrix kernel once (its iterations, a checkpoint and a snapshot): loads it from numba's disk cache, or
    compiles it. ``python -m rmcore._compile matrix`` runs this in a process of its own."""
    solver = _warm_up_solver()
    solver._advance(1, 2, np.array([2], dtype=np.int64), solver._empty_record(1))


def _on_disk() -> bool:
    """Whether numba's disk cache holds the matrix kernel for the solvers' argument types."""
    solver = _warm_up_solver()
    record = solver._empty_record(1)
    arguments = (
        *solver._payoffs,
        tuple(solver._flags),
        tuple(solver._state),
        1,
        2,
        np.array([2], np.int64),
        tuple(record),
    )
    return _runtime.on_disk(kernels.run_matrix, arguments)


_runtime.register_warm_up("matrix", _warm_up, _on_disk)


__getattr__ = getattr_for("rmcore.matrix.solver")
