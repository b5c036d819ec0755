"""Correlated equilibria of a two-player matrix game, exactly: the CE and CCE polytopes by linear programming.

A mediator draws a joint action ``(a, b)`` from a distribution ``sigma`` over the ``m x n`` cells and tells each
player their own part only. ``sigma`` is a **correlated equilibrium** (CE; Aumann 1974, "Subjectivity and correlation
in randomized strategies", Journal of Mathematical Economics 1) when no player gains by disobeying a recommendation:
for the row player (payoffs ``A``), every recommended row ``j`` and every alternative ``k``,

    sum_b sigma(j, b) (A[j, b] - A[k, b]) >= 0,

and for the column player (payoffs ``B``), every recommended column ``j`` and alternative ``k``,

    sum_a sigma(a, j) (B[a, j] - B[a, k]) >= 0.

It is a **coarse correlated equilibrium** (CCE; Moulin & Vial 1978) when no player gains by ignoring the mediator
altogether, committing to one action ``k`` before hearing the recommendation:

    sum_{a, b} sigma(a, b) (A[a, b] - A[k, b]) >= 0   for every row k,
    sum_{a, b} sigma(a, b) (B[a, b] - B[a, k]) >= 0   for every column k.

Summing a player's CE constraints over ``j`` for one ``k`` gives their CCE constraint for ``k``, so every CE is a
CCE; and a Nash equilibrium ``(x, y)`` gives the CE ``x y^T``. Each set is a polytope of the simplex of joint
distributions (``m (m - 1) + n (n - 1)`` constraints for the CE, ``m + n`` for the CCE), so a linear objective over
it is a linear program, solved here by HiGHS through ``scipy.optimize.linprog``. These are the sets regret matching's
theorem is about: when every player follows Hart & Mas-Colell's procedure (2000, "A simple adaptive procedure leading
to correlated equilibrium", Econometrica 68(5)) the empirical joint distribution of play converges to the CE set; the
unconditional regret matching of Hart & Mas-Colell (2001) reaches the CCE set.

- :func:`correlated_equilibrium`: the CE (or CCE) best for an objective (:data:`OBJECTIVES`);
- :func:`welfare_range`: the lowest and highest total payoff over the set;
- :func:`closest_correlated_equilibrium`: the CE (or CCE) nearest a given joint distribution (L1 distance);
- :func:`correlated_vertices`: every vertex of the set, for drawing it (a 2x2 game's is a solid in the tetrahedron).

Aumann's Chicken: the best CE for the players together pays each 5.25, more than the 14/3 of the mixed Nash
equilibrium; the worst pays them 7.2 together, less than any Nash equilibrium (9 at the pure ones). Its CE set is a
solid of 5 vertices in the tetrahedron of joint distributions:

>>> import rmcore
>>> chicken = rmcore.MatrixGame([[6, 2], [7, 0]], [[6, 7], [2, 0]])
>>> best = rmcore.correlated_equilibrium(chicken, "max-welfare")
>>> best.joint.round(9).tolist(), round(best.row_payoff, 9), round(best.welfare, 9)
([[0.5, 0.25], [0.25, 0.0]], 5.25, 10.5)
>>> [round(w, 9) for w in rmcore.welfare_range(chicken)]
[7.2, 10.5]
>>> len(rmcore.correlated_vertices(chicken))
5

When each player has two actions the two sets are one: a player's only CCE constraint for each alternative is their
only CE constraint for it. With three actions each they part; in Shapley's game the CCE set has many more vertices:

>>> shapley = rmcore.preset("shapley")
>>> len(rmcore.correlated_vertices(shapley)), len(rmcore.correlated_vertices(shapley, coarse=True))
(8, 48)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from . import config
from .matrix.games import MatrixGame
from .validation import choice

__all__ = [
    "CorrelatedEquilibrium",
    "OBJECTIVES",
    "correlated_equilibrium",
    "welfare_range",
    "closest_correlated_equilibrium",
    "correlated_vertices",
    "MAX_CELLS",
    "MAX_VERTEX_CHOICES",
    "TIME_LIMIT",
]

#: What :func:`correlated_equilibrium` optimises over the set, each name with what it means. "egalitarian" is Greenwald
#: & Hall's (2003, "Correlated-Q learning", ICML) egalitarian CE: the smaller of the two payoffs as large as it can be.
OBJECTIVES = {
    "max-welfare": "the largest total payoff (player 1's plus player 2's)",
    "min-welfare": "the smallest total payoff",
    "max-player-1": "player 1's (the row player's) largest payoff",
    "max-player-2": "player 2's (the column player's) largest payoff",
    "min-player-1": "player 1's smallest payoff",
    "min-player-2": "player 2's smallest payoff",
    "egalitarian": "the smaller of the two payoffs as large as it can be",
}
#: Most cells (rows times columns) a game may have for the linear programs: a 64x64 game's CE program has 4,096
#: variables and 8,064 constraints of 64 coefficients each; the program grows as the cube of the actions.
MAX_CELLS = 64 * 64
#: Most choices of active constraints :func:`correlated_vertices` solves: a 3x3 game's CE polytope has C(21, 8) =
#: 203,490 (its 9 cells and 12 incentive constraints, 8 of them active at a vertex); a 3x4 game's are past this.
MAX_VERTEX_CHOICES = 250_000
#: Seconds HiGHS may take on one program by default before the function stops and says so.
TIME_LIMIT = 20.0
#: HiGHS's feasibility tolerances, on constraints scaled to coefficients of at most 1: the answers satisfy every
#: constraint to this, in units of the player's payoff range (HiGHS's own default is 1e-7).
LP_TOLERANCE = 1e-10
#: How far outside a constraint, in units of the payoff range, a vertex may lie (rounding in the solve), and how close
#: two vertices are to be the same one.
VERTEX_TOLERANCE = 1e-9
#: Choices of active constraints solved at once in :func:`correlated_vertices` (a batch of systems of m n equations).
_BATCH = 8192
#: Smallest determinant of a choice of active constraints taken as independent (see :func:`correlated_vertices`).
SINGULAR = 1e-12


@dataclass(frozen=True, eq=False)
class CorrelatedEquilibrium:
    """A correlated (or coarse correlated) equilibrium found by linear programming.

    Attributes
    ----------
    joint : np.ndarray, shape (m, n)
        The joint distribution ``sigma(a, b)`` over row ``a`` and column ``b`` (read-only; sums to 1).
    row_payoff, col_payoff : float
        Each player's expected payoff under ``joint``: ``sum sigma A`` and ``sum sigma B``.
    welfare : float
        Their sum.
    objective : str
        What was optimised: a name of :data:`OBJECTIVES`, or ``"closest"`` for
        :func:`closest_correlated_equilibrium`.
    coarse : bool
        True for a coarse correlated equilibrium (CCE), False for a correlated equilibrium (CE).
    distance : float or None
        The L1 distance ``sum |joint - given|`` from the joint distribution given to
        :func:`closest_correlated_equilibrium`; None otherwise.
    """

    joint: np.ndarray
    row_payoff: float
    col_payoff: float
    welfare: float
    objective: str
    coarse: bool
    distance: float | None = None

    def __repr__(self) -> str:
        kind = "CCE" if self.coarse else "CE"
        return (
            f"<{kind} {self.objective}: payoffs ({self.row_payoff:.6g}, {self.col_payoff:.6g}), "
            f"welfare {self.welfare:.6g}>"
        )


# -- checking what is given --------------------------------------------------------------------------------------


def _checked_game(game) -> MatrixGame:
    if not isinstance(game, MatrixGame):
        raise ValueError(
            f"correlated equilibria need a two-player matrix game (rmcore.MatrixGame), got {type(game).__name__}"
        )
    m, n = game.shape
    if m * n > MAX_CELLS:
        raise ValueError(
            f"the game is {m}x{n} ({m * n:,} joint actions); the correlated-equilibrium programs take at most "
            f"{MAX_CELLS:,} joint actions (64x64)"
        )
    return game


def _checked_coarse(coarse) -> bool:
    if not isinstance(coarse, (bool, np.bool_)):
        raise ValueError(f"coarse must be True (the coarse set, CCE) or False (the CE set), got {coarse!r}")
    return bool(coarse)


def _checked_time_limit(time_limit) -> float:
    if isinstance(time_limit, (bool, np.bool_)) or not isinstance(time_limit, (int, float, np.integer, np.floating)):
        raise ValueError(f"time_limit must be a number of seconds, got {time_limit!r}")
    if not (math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive, finite number of seconds, got {time_limit!r}")
    return float(time_limit)


def _checked_joint(joint, shape: tuple[int, int]) -> np.ndarray:
    """A joint distribution of the game's shape: finite, none negative, summing to 1."""
    try:
        array = np.array(joint, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"the joint distribution must be a {shape[0]}x{shape[1]} table of probabilities, one per joint action"
        ) from None
    if array.shape != shape:
        got = "x".join(map(str, array.shape)) or "a single number"
        raise ValueError(
            f"the joint distribution must be {shape[0]}x{shape[1]} (a probability per row and column of the game), "
            f"got {got}"
        )
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        a, b = bad[0]
        raise ValueError(f"the joint distribution's entry at row {a + 1}, column {b + 1} is not a finite number")
    negative = np.argwhere(array < 0)
    if negative.size:
        a, b = negative[0]
        raise ValueError(
            f"the joint distribution's entry at row {a + 1}, column {b + 1} is {array[a, b]:.3g}; "
            "probabilities cannot be negative"
        )
    total = float(array.sum())
    if abs(total - 1.0) > config.SIMPLEX_TOLERANCE:
        raise ValueError(f"the joint distribution's entries sum to {total:.12g}; a distribution sums to 1")
    return array / total


# -- the constraints -------------------------------------------------------------------------------------------------


def _unit(payoffs: np.ndarray) -> np.ndarray:
    """``payoffs`` divided by their range (a constant game is left as it is): a player's incentive constraints then
    have coefficients of at most 1 whatever the game's unit, which HiGHS's absolute tolerances need. Dividing a
    constraint by a positive number changes no distribution's standing."""
    spread = float(payoffs.max() - payoffs.min())
    return payoffs / spread if spread > 0 else payoffs


def _constraints(game: MatrixGame, coarse: bool, unit: bool = True):
    """The incentive constraints ``G sigma >= 0`` as a sparse matrix ``G`` (scipy's CSR) over the flattened ``sigma``
    (row-major: cell ``(a, b)`` at ``a n + b``); each player's in units of their payoff range when ``unit``.

    The CE's rows: the row player's, one per recommended row ``j`` and alternative ``k != j`` (``j`` major), each with
    ``n`` coefficients ``A[j, b] - A[k, b]`` on row ``j``'s cells; then the column player's, ``m`` coefficients
    ``B[a, j] - B[a, k]`` on column ``j``'s cells. The CCE's: the row player's ``m`` alternatives, then the column
    player's ``n``, each over every cell. Built sparse: a 64x64 game's CE matrix has 8,064 rows of 4,096 columns, of
    which 64 are not zero.
    """
    from scipy import sparse

    a_pay, b_pay = game.row_payoffs, game.col_payoffs
    if unit:
        a_pay, b_pay = _unit(a_pay), _unit(b_pay)
    m, n = game.shape
    if coarse:
        rows = a_pay[None, :, :] - a_pay[:, None, :]  # [k, a, b] = A[a, b] - A[k, b]
        cols = b_pay[None, :, :] - b_pay.T[:, :, None]  # [k, a, b] = B[a, b] - B[a, k]
        return sparse.csr_array(np.concatenate([rows.reshape(m, m * n), cols.reshape(n, m * n)]) + 0.0)
    j1, k1 = np.nonzero(~np.eye(m, dtype=bool))  # (recommended, alternative) pairs, recommended major
    j2, k2 = np.nonzero(~np.eye(n, dtype=bool))
    first, second = len(j1), len(j2)
    row_index = np.concatenate([np.repeat(np.arange(first), n), first + np.repeat(np.arange(second), m)])
    column_index = np.concatenate(
        [(j1[:, None] * n + np.arange(n)).ravel(), (np.arange(m)[None, :] * n + j2[:, None]).ravel()]
    )
    values = np.concatenate([(a_pay[j1] - a_pay[k1]).ravel(), (b_pay[:, j2] - b_pay[:, k2]).T.ravel()]) + 0.0
    return sparse.csr_array((values, (row_index, column_index)), shape=(first + second, m * n))


# -- the linear programs ---------------------------------------------------------------------------------------------


def _objective_vector(game: MatrixGame, objective: str) -> np.ndarray:
    """The cost over the flattened ``sigma`` that linprog minimises for ``objective`` (not the egalitarian one).

    Shifted to start at 0 and scaled to end at 1: adding a constant to every cell's coefficient adds that constant to
    the objective of every distribution (they sum to 1), and scaling by a positive number changes no standing, while
    HiGHS's absolute tolerances need coefficients of order 1: scaled by the largest payoff alone, payoffs of 1e8 that
    differ by 1e-5 look alike to it, and it returns one vertex for every objective. Each player's payoffs are shifted
    by their own least before the welfare adds them, so that no digit of their differences is lost to the sum.
    """
    a_pay = game.row_payoffs.ravel() - game.row_payoffs.min()
    b_pay = game.col_payoffs.ravel() - game.col_payoffs.min()
    value = {"welfare": a_pay + b_pay, "player-1": a_pay, "player-2": b_pay}[objective.split("-", 1)[1]]
    top = float(value.max())
    value = value / top if top > 0 else value
    return -value if objective.startswith("max") else value


def _egalitarian_payoffs(game: MatrixGame) -> np.ndarray:
    """Both players' payoffs, ``(2, m n)``, shifted by one common constant and scaled by one common factor to [0, 1]:
    the egalitarian objective compares the two, so they keep one unit."""
    payoffs = np.stack([game.row_payoffs.ravel(), game.col_payoffs.ravel()])
    payoffs = payoffs - payoffs.min()
    top = float(payoffs.max())
    return payoffs / top if top > 0 else payoffs


def _solve(cost, upper, upper_bound, equality, equality_bound, bounds, time_limit: float) -> np.ndarray:
    from scipy.optimize import linprog  # imported here: scipy.optimize is slow to import, and many runs solve no LP

    options = dict(
        primal_feasibility_tolerance=LP_TOLERANCE, dual_feasibility_tolerance=LP_TOLERANCE, time_limit=time_limit
    )
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=upper_bound,
        A_eq=equality,
        b_eq=equality_bound,
        bounds=bounds,
        method="highs",
        options=options,
    )
    if result.status == 1:
        raise ValueError(
            f"the linear program did not finish within its time limit of {time_limit:g} seconds "
            "(time_limit= gives it longer)"
        )
    if result.status != 0:  # pragma: no cover - the sets are never empty (every game has a Nash equilibrium)
        raise RuntimeError(f"the linear program failed: {result.message}")
    return result.x


def _as_distribution(x: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    sigma = np.clip(x[: shape[0] * shape[1]], 0.0, None)
    sigma = (sigma / sigma.sum()).reshape(shape)
    sigma.flags.writeable = False
    return sigma


def _record(game: MatrixGame, sigma: np.ndarray, objective: str, coarse: bool, distance=None):
    row = float(np.sum(sigma * game.row_payoffs))
    col = float(np.sum(sigma * game.col_payoffs))
    return CorrelatedEquilibrium(sigma, row, col, row + col, objective, coarse, distance)


def _optimum(game: MatrixGame, objective: str, coarse: bool, time_limit: float) -> np.ndarray:
    """The distribution that optimises ``objective`` over the set."""
    from scipy import sparse

    m, n = game.shape
    cells = m * n
    incentives = -_constraints(game, coarse)  # linprog's A_ub x <= b_ub: -G sigma <= 0
    if objective == "egalitarian":  # maximise t subject to t <= u_1(sigma), t <= u_2(sigma): one more variable
        payoffs = _egalitarian_payoffs(game)
        upper = sparse.vstack(
            [
                sparse.hstack([incentives, sparse.csr_matrix((incentives.shape[0], 1))]),
                sparse.csr_matrix(np.hstack([-payoffs, np.ones((2, 1))])),
            ]
        ).tocsr()
        cost = np.zeros(cells + 1)
        cost[-1] = -1.0
        equality = np.hstack([np.ones((1, cells)), np.zeros((1, 1))])
        bounds = [(0.0, None)] * cells + [(None, None)]
    else:
        cost = _objective_vector(game, objective)
        upper, equality, bounds = incentives, np.ones((1, cells)), [(0.0, None)] * cells
    x = _solve(cost, upper, np.zeros(upper.shape[0]), equality, [1.0], bounds, time_limit)
    return _as_distribution(x, (m, n))


def correlated_equilibrium(
    game: MatrixGame, objective: str = "max-welfare", coarse: bool = False, *, time_limit: float = TIME_LIMIT
) -> CorrelatedEquilibrium:
    """The correlated equilibrium (or with ``coarse`` the coarse correlated equilibrium) of a two-player matrix game
    that is best for ``objective``, by linear programming.

    The program: optimise a linear function of ``sigma`` (``objective``: for ``"max-welfare"`` the total payoff
    ``sum_{a,b} sigma(a, b) (A[a, b] + B[a, b])``) over the joint distributions ``sigma >= 0``, ``sum sigma = 1``
    that satisfy the incentive constraints of the set (see the module's text). The
    egalitarian objective maximises an extra variable ``t <= u_1(sigma), t <= u_2(sigma)``. Solved by HiGHS; where
    several distributions are optimal, HiGHS's is returned (a vertex of the set).

    Parameters
    ----------
    game : MatrixGame
        A two-player game, general-sum or zero-sum, of at most :data:`MAX_CELLS` joint actions.
    objective : str
        A name of :data:`OBJECTIVES`: ``"max-welfare"``, ``"min-welfare"``, ``"max-player-1"``,
        ``"max-player-2"``, ``"min-player-1"``, ``"min-player-2"``, ``"egalitarian"``.
    coarse : bool
        False for the CE set, True for the larger CCE set.
    time_limit : float
        Seconds HiGHS may take (keyword only).

    Returns
    -------
    CorrelatedEquilibrium
        The joint distribution, each player's payoff, the welfare, the objective and which set.

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`~rmcore.MatrixGame` or is too large, ``objective`` is not one of
        :data:`OBJECTIVES`, ``coarse`` is not a bool, or the program does not finish within ``time_limit``.

    Examples
    --------
    Battle of the sexes: the best CE for player 2 is their favourite outcome, and so is the best CCE.

    >>> import rmcore
    >>> found = correlated_equilibrium(rmcore.preset("battle-of-sexes"), "max-player-2")
    >>> found.joint.tolist(), found.row_payoff, found.col_payoff
    ([[0.0, 0.0], [0.0, 1.0]], 1.0, 2.0)
    """
    game = _checked_game(game)
    objective = choice(objective, OBJECTIVES, "objective")
    coarse = _checked_coarse(coarse)
    sigma = _optimum(game, objective, coarse, _checked_time_limit(time_limit))
    return _record(game, sigma, objective, coarse)


def welfare_range(game: MatrixGame, coarse: bool = False, *, time_limit: float = TIME_LIMIT) -> tuple[float, float]:
    """``(low, high)``: the smallest and the largest total payoff ``u_1(sigma) + u_2(sigma)`` over the CE set (or with
    ``coarse`` the CCE set), by the two linear programs of :func:`correlated_equilibrium`.

    A learner's joint distribution that has reached the set has its welfare in this range; the CCE range contains
    the CE range.

    >>> import rmcore
    >>> low, high = welfare_range(rmcore.preset("battle-of-sexes"))  # the mixed Nash equilibrium's 4/3, and 3
    >>> round(low * 3, 9), high
    (4.0, 3.0)

    Raises
    ------
    ValueError
        As :func:`correlated_equilibrium` does.
    """
    game = _checked_game(game)
    coarse = _checked_coarse(coarse)
    time_limit = _checked_time_limit(time_limit)
    low = _record(game, _optimum(game, "min-welfare", coarse, time_limit), "min-welfare", coarse).welfare
    high = _record(game, _optimum(game, "max-welfare", coarse, time_limit), "max-welfare", coarse).welfare
    return low, max(low, high)


def closest_correlated_equilibrium(
    game: MatrixGame, joint, coarse: bool = False, *, time_limit: float = TIME_LIMIT
) -> CorrelatedEquilibrium:
    """The correlated equilibrium (or with ``coarse`` the coarse one) closest to the joint distribution ``joint`` in
    L1 distance ``sum_{a,b} |sigma(a, b) - joint(a, b)|``, by linear programming.

    The program: minimise ``sum d`` over ``sigma`` in the set and ``d >= sigma - joint``, ``d >= joint - sigma``.
    The distance is at most 2 (two distributions' L1 distance); it is 0 when ``joint`` is in the set. Where several
    equilibria are equally close, HiGHS's is returned.

    Parameters
    ----------
    game : MatrixGame
        A two-player game of at most :data:`MAX_CELLS` joint actions.
    joint : array_like, shape (m, n)
        A joint distribution over the game's cells (for example a learner's empirical joint distribution of play):
        finite, none negative, summing to 1.
    coarse : bool
        False for the CE set, True for the CCE set.
    time_limit : float
        Seconds HiGHS may take (keyword only).

    Returns
    -------
    CorrelatedEquilibrium
        With ``objective == "closest"`` and ``distance`` the L1 distance.

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`~rmcore.MatrixGame` or is too large, ``joint`` is not a joint distribution of
        its shape, ``coarse`` is not a bool, or the program does not finish within ``time_limit``.

    Examples
    --------
    In Chicken, always swerving together is no CE (either driver would go straight when told to swerve); the CE
    nearest it swerves together half the time:

    >>> import rmcore
    >>> chicken = rmcore.MatrixGame([[6, 2], [7, 0]], [[6, 7], [2, 0]])
    >>> closest = closest_correlated_equilibrium(chicken, [[1, 0], [0, 0]])
    >>> closest.joint.round(9).tolist(), round(closest.distance, 9)
    ([[0.5, 0.25], [0.25, 0.0]], 1.0)
    """
    from scipy import sparse

    game = _checked_game(game)
    target = _checked_joint(joint, game.shape).ravel()
    coarse = _checked_coarse(coarse)
    time_limit = _checked_time_limit(time_limit)
    # sigma = joint + p - q with p, q >= 0 and sum(p + q) the distance to minimise: in sigma's own terms the program
    # needs a third block of rows (d >= sigma - joint and d >= joint - sigma); written in p and q it needs none, and
    # HiGHS solved it several times faster (a 32x32 random game's, on the machine it was written on).
    cells = target.size
    identity = sparse.identity(cells, format="csr")
    incentives = _constraints(game, coarse)
    upper = sparse.vstack(
        [
            sparse.hstack([-incentives, incentives]),  # G (joint + p - q) >= 0
            sparse.hstack([-identity, identity]),  # joint + p - q >= 0
        ]
    ).tocsr()
    upper_bound = np.concatenate([incentives @ target, target])
    equality = np.concatenate([np.ones(cells), -np.ones(cells)])[None, :]  # sum(p - q) = 0
    x = _solve(np.ones(2 * cells), upper, upper_bound, equality, [0.0], [(0.0, None)] * (2 * cells), time_limit)
    x = target + x[:cells] - x[cells:]
    sigma = _as_distribution(x, game.shape)
    distance = float(np.abs(sigma.ravel() - target).sum())
    return _record(game, sigma, "closest", coarse, distance)


# -- the vertices ----------------------------------------------------------------------------------------------------


def correlated_vertices(game: MatrixGame, coarse: bool = False) -> np.ndarray:
    """Every vertex of the CE polytope (or with ``coarse`` the CCE polytope) as joint distributions, ``(k, m, n)``.

    The set is ``{sigma >= 0, sum sigma = 1, G sigma >= 0}`` (``G``: the incentive constraints), a polytope of
    dimension at most ``m n - 1``. A vertex is where ``m n - 1`` linearly independent inequalities hold as equalities
    besides the sum: every such choice is solved (in batches) and the solutions that satisfy every inequality are
    kept, once each (a vertex where more inequalities meet is found from several choices). Degenerate sets come out
    as they are: a single point gives one vertex, a segment two, and a game where no player ever gains by deviating
    (constant payoffs) the whole simplex's ``m n`` vertices.

    The choices number ``C(m n + r, m n - 1)`` for ``r`` incentive constraints that are not identically zero: 56 for a
    2x2 game, 203,490 for a 3x3 game's CE set; beyond :data:`MAX_VERTEX_CHOICES` the function says so. Vertices are
    sorted (lexicographically by their entries), and exact to rounding (about 1e-15).

    >>> import rmcore
    >>> correlated_vertices(rmcore.preset("prisoners-dilemma")).tolist()  # its only CE: both defect
    [[[0.0, 0.0], [0.0, 1.0]]]

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`~rmcore.MatrixGame`, ``coarse`` is not a bool, or the choices to solve exceed
        :data:`MAX_VERTEX_CHOICES`.
    """
    game = _checked_game(game)
    coarse = _checked_coarse(coarse)
    m, n = game.shape
    cells = m * n
    incentives = _constraints(game, coarse).toarray()
    largest = np.abs(incentives).max(axis=1)
    incentives = incentives[largest > 0] / largest[largest > 0, None]  # (a zero row holds everywhere: no facet)
    inequalities = np.vstack([np.eye(cells), incentives])
    count = inequalities.shape[0]
    choices = math.comb(count, cells - 1)
    if choices > MAX_VERTEX_CHOICES:
        raise ValueError(
            f"the {'CCE' if coarse else 'CE'} polytope of this {m}x{n} game has {choices:,} choices of active "
            f"constraints to solve; at most {MAX_VERTEX_CHOICES:,} are solved (a 3x3 game's CE set needs 203,490)"
        )
    found = []
    combos = itertools.combinations(range(count), cells - 1)
    while True:
        flat = itertools.chain.from_iterable(itertools.islice(combos, _BATCH))
        batch = np.fromiter(flat, dtype=np.intp).reshape(-1, cells - 1)
        if not len(batch):
            break
        systems = np.concatenate(
            [inequalities[batch], np.broadcast_to(np.ones(cells), (len(batch), 1, cells))], axis=1
        )  # (choices, cells, cells): the active inequalities and the sum
        # Independent rows: a determinant clear of zero (the rows' entries are at most 1 in size, so a choice's
        # determinant is at most cells ** (cells / 2) in size, and a singular one's is rounding, far below this).
        # A determinant costs a fraction of the smallest singular value; a near-singular choice that slipped through
        # would give a point far outside the simplex, which the feasibility check drops.
        regular = np.abs(np.linalg.det(systems)) > SINGULAR
        if not regular.any():
            continue
        rhs = np.zeros((int(regular.sum()), cells))
        rhs[:, -1] = 1.0
        points = np.linalg.solve(systems[regular], rhs[..., None])[..., 0]
        feasible = (inequalities @ points.T >= -VERTEX_TOLERANCE).all(axis=0)
        found.extend(points[feasible])
    vertices: list[np.ndarray] = []
    for point in found:
        point = np.clip(point, 0.0, None)
        point = point / point.sum()
        if not any(np.abs(point - kept).max() <= VERTEX_TOLERANCE for kept in vertices):
            vertices.append(point)
    vertices.sort(key=lambda v: tuple(np.round(v, 12)))
    return np.array(vertices).reshape(len(vertices), m, n)
