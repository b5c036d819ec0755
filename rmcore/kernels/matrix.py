"""One kernel for every learning rule on a two-player matrix game: :func:`run_matrix`.

A rule's variant (its strategy map, optimism, sampling, update order, averaging, a fixed opponent) is a
:class:`MatrixFlags` of plain integers read at run time, so one compiled kernel serves them all; step sizes are numbers
in the state. One iteration t (see ``rmcore/matrix/solver.py`` for the rules' mathematics and papers):

1. ``x_t`` and ``y_t`` from each player's state (:func:`play`);
2. payoff vectors ``u1 = A y_t`` and ``u2 = B^T x_t`` (sampled: ``A[:, b]`` and ``B[a, :]`` for ``a ~ x_t``,
   ``b ~ y_t``); with alternating updates the column player's against ``x_{t+1}``;
3. each player's update from its payoff vector and value (:func:`learn`);
4. the weighted strategy sums ``S += w_t x_t`` with ``w_t = t ** averaging_power``;
5. where the joint distribution of play is kept (``MatrixFlags.track_joint``): ``J += x_t (x) y_t``, or sampled
   ``J[a, b] += 1`` (an m x n add an iteration), from which a checkpoint measures the CE and CCE gaps
   (:func:`correlated_gaps`).

No ``fastmath`` but in the three functions of wide rows (:func:`_long_row_dot`, :func:`_long_add_row_times`,
:func:`_fused_row`): every other sum adds in the order written here, so results never depend on where an array lies in
memory, and the same file run as plain Python (the twin, ``rmcore.kernels.python_twin("matrix")``) gives the same bits
for every game with fewer than :data:`WIDE_ROWS` columns. A wider game's row sums are added in vector registers,
reassociated, with fused multiply-adds, and the twin never stands in for it.
"""

from __future__ import annotations

import decimal
import math
from typing import NamedTuple

import numba
import numpy as np
from llvmlite import ir as llvmlite_ir
from numba.extending import intrinsic

from . import is_twin, jit_for, part_for, sibling

njit = jit_for(__name__)
part = part_for(__name__)
rng = sibling(__name__, "rng")

# Functions called from Python release the GIL (nogil): a class's sessions then run their chunks on every core at once.
# The kernel allocates nothing and is handed arrays that outlive it, so it runs without numba's reference counting
# (``_nrt=False``): with it, atomic increments and decrements of the state's arrays stayed in the hot loop wherever an
# array was last used in a branch.
_ENTRY = dict(cache=True, error_model="numpy", nogil=True, _nrt=False)
_PART = dict(error_model="numpy", _nrt=False, forceinline=True)
# A checkpoint is written once per row, not per iteration: a function of its own, called by the kernel, so that its
# code is compiled once rather than once more inside the kernel (a call costs far less than a row).
_CHECKPOINT = dict(cache=True, error_model="numpy", nogil=True, _nrt=False, no_cpython_wrapper=True)

# The strategy maps (MatrixFlags.algorithm). Optimism (a prediction of the next round counted once more) is a flag of
# its own: predictive RM+ is RM_PLUS with it, optimistic Hedge and optimistic GDA are HEDGE and GDA with it.
RM, RM_PLUS, HEDGE, GDA, FICTITIOUS_PLAY = 0, 1, 2, 3, 4
# The smoothed regret matchers of Cai et al. (2023): their regret state lives in Z = {R >= 0, sum R >= 1}. Smooth
# predictive RM+ is SMOOTH_RM_PLUS with optimism; extragradient RM+ runs an iteration of its own (two evaluations).
SMOOTH_RM_PLUS, EXTRAGRADIENT_RM_PLUS = 5, 6
# The learners of correlated equilibria: swap regret matching (Blum & Mansour 2007 over regret matching) and Hart &
# Mas-Colell's (2000) procedure, each keeping a regret per pair of actions (MatrixState.conditional_row / _col).
SWAP_RM, INTERNAL_RM = 7, 8

if is_twin(__name__):

    def fused_multiply_add(a, b, c):
        """``a * b + c`` rounded once, as the compiled ``llvm.fma``: exact integers, then Python's correctly rounded
        integer division (``math.fma`` exists from Python 3.13 on)."""
        if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
            return a * b + c
        (a_top, a_bottom), (b_top, b_bottom), (c_top, c_bottom) = (
            float(a).as_integer_ratio(),
            float(b).as_integer_ratio(),
            float(c).as_integer_ratio(),
        )
        top = a_top * b_top * c_bottom + c_top * a_bottom * b_bottom
        return top / (a_bottom * b_bottom * c_bottom) if top != 0 else a * b + c  # (a zero keeps IEEE's sign)

else:

    @intrinsic
    def fused_multiply_add(typing_context, a, b, c):
        """``a * b + c`` rounded once (``llvm.fma``: the processor's FMA instruction, or the C library's ``fma``).
        numba offers no fma of its own."""
        double = llvmlite_ir.DoubleType()

        def codegen(context, builder, signature, arguments):
            fma = builder.module.declare_intrinsic("llvm.fma", [double], llvmlite_ir.FunctionType(double, [double] * 3))
            return builder.call(fma, arguments)

        return numba.types.float64(numba.types.float64, numba.types.float64, numba.types.float64), codegen


class MatrixFlags(NamedTuple):
    """One variant of a learning rule, as plain integers read by the kernel at run time."""

    algorithm: int  # the strategy map: RM, RM_PLUS, HEDGE, GDA or FICTITIOUS_PLAY
    optimistic: int  # 1: count a prediction of the next round once more (PRM+, optimistic Hedge, optimistic GDA)
    sampled: int  # 1: each player samples one action and learns from the sampled payoffs
    alternating: int  # 1: the column player learns against the row player's new strategy
    averaging_power: int  # w_t = t ** averaging_power: 0 uniform, 1 linear, 2 quadratic
    fixed_opponent: int  # 1: only the row player learns; y is fixed
    zero_sum: int  # 1: B = -A, so that one pass over A gives both players' payoff vectors
    track_joint: int  # 1: keep the joint distribution of play (the CE and CCE gaps, the internal regret)


class MatrixState(NamedTuple):
    """Everything a run carries from one iteration to the next, its constants and its scratch."""

    # Cumulative regrets R (clipped at 0 for RM+ / PRM+), kept for every rule: external regret max_a R_T(a) is defined
    # whatever the rule, and the regret chart draws it.
    regrets_row: np.ndarray
    regrets_col: np.ndarray
    # The optimistic rules' prediction of the next round: r_{t-1} for PRM+, the payoff vector u_{t-1} for optimistic
    # Hedge and optimistic GDA (0 before the first iteration).
    predictions_row: np.ndarray
    predictions_col: np.ndarray
    # Hedge and fictitious play: cumulative payoffs U_t = u_1 + ... + u_t; GDA: its iterate x_{t+1} itself.
    scores_row: np.ndarray
    scores_col: np.ndarray
    strategy_sums_row: np.ndarray  # sum_t w_t x_t
    strategy_sums_col: np.ndarray
    # The joint distribution of play times its weight: sum_t x_t (x) y_t, or sampled the count of each joint action
    # (m x n; 1 x 1, unused, where it is not kept), and that weight (shape (1,): the iterations).
    joint: np.ndarray
    joint_total: np.ndarray
    # Regrets per pair of actions (m x m; 1 x 1, unused, for the other rules). Swap RM: row j is the regret vector of
    # action j's own regret matcher, R_j(k) = sum_t x_t(j) (u_t(k) - q_j,t . u_t). Hart & Mas-Colell: D(j, k) = sum
    # over the iterations that played j of u_t(k) - u_t(j).
    conditional_row: np.ndarray
    conditional_col: np.ndarray
    weight_sum: np.ndarray  # shape (1,): sum_t w_t
    rng: np.ndarray  # xoshiro256+ state, 4 x uint64
    # constants of a run
    steps: np.ndarray  # [eta_row, eta_col, anytime]: the step eta, or with anytime = 1 Hedge's eta_t = eta / sqrt(t)
    inertia: np.ndarray  # shape (1,): Hart & Mas-Colell's mu (0 for the other rules)
    log_start_row: np.ndarray  # Hedge: ln x_1, the start as a prior (0 without a start)
    log_start_col: np.ndarray
    start_row: np.ndarray  # fictitious play: x_1
    start_col: np.ndarray
    # work arrays, overwritten every iteration
    x: np.ndarray
    y: np.ndarray
    next_x: np.ndarray
    row_utilities: np.ndarray
    col_utilities: np.ndarray
    avg_x: np.ndarray
    avg_y: np.ndarray
    fixed_row_utilities: np.ndarray  # A y for a fixed opponent y, computed once per call
    scratch_row: np.ndarray  # GDA's projection sorts here
    scratch_col: np.ndarray
    markov_row: np.ndarray  # swap RM: the Markov matrix Q, eliminated in place for its stationary distribution
    markov_col: np.ndarray
    # What the last sampled iteration drew: the row player's action, the column player's, and the row player's fresh
    # draw from x_{t+1} that the column player's alternating update met; -1 unsampled. (n >= 3 players: each player's.)
    drawn: np.ndarray
    # Each player's number of actions ([m, n] for two players). With three players or more (run_players) every
    # per-player array above named for the row player (regrets_row, predictions_row, scores_row, strategy_sums_row,
    # log_start_row, start_row, x, next_x, row_utilities, avg_x, scratch_row) holds every player's entries one after
    # the other, player i's at offsets sum(actions[:i]); conditional_row and markov_row hold each player's a_i x a_i
    # block flattened, one after the other, in their one row (whatever the rule: a few numbers a player); joint is
    # 1 x (a_1 ... a_n), the joint actions in C order; A is n x (a_1 ... a_n), player i's payoff of each joint action
    # in row i; the column player's arrays and B are unused.
    actions: np.ndarray
    learning: np.ndarray  # n >= 3 players: 1 for a player who learns, 0 for one whose strategy (in x) is fixed
    digits: np.ndarray  # n >= 3 players' scratch: a joint action, an action per player
    partial: np.ndarray  # n >= 3 players' scratch (n + 1 entries): products of the players' probabilities


class MatrixRecord(NamedTuple):
    """History rows of a matrix-game run, one array per quantity (``k`` rows)."""

    iteration: np.ndarray  # [k] int64
    current: np.ndarray  # [k, 2, w] the strategies the next iteration plays, zero-padded to w = max(m, n)
    average: np.ndarray  # [k, 2, w]
    regrets: np.ndarray  # [k, 2, w] cumulative regrets R per player (zero for a fixed opponent)
    # The fields both families' records share, by the same names (rmcore/solver.py reads them):
    br_gain_1: np.ndarray  # [k] the row player's best-response gain against the average profile
    br_gain_2: np.ndarray  # [k] the column player's; NaN against a fixed opponent
    game_value: np.ndarray  # [k] x^T A y of the averages
    nash_conv: np.ndarray  # [k] g1 + g2 of the averages (NaN against a fixed opponent)
    nash_conv_current: np.ndarray  # [k] g1 + g2 of the current profile (self-play), else NaN
    # The matrix family's own:
    average_regret_1: np.ndarray  # [k] max_a R(a)^+ / t
    average_regret_2: np.ndarray
    # Of the joint distribution of play sigma (where it is kept, else NaN), as OpenSpiel's corr_dist defines them:
    cce_gap: np.ndarray  # [k] sum over players of max(0, max_k u_i(k, sigma_-i) - u_i(sigma))
    # [k] sum over players and recommendations j of max(0, max_k sum_b sigma(j, b) (u_i(k, b) - u_i(j, b)))
    ce_gap: np.ndarray
    internal_regret: np.ndarray  # [k] the largest internal regret per iteration, max over players, j and k
    joint: np.ndarray  # [k, m, n] the joint distribution of play where it is kept ([k, 0, 0] otherwise: no bytes)
    # Players 3 to n of a game of n >= 3 players ([k, 0] for two players: no bytes); there ``joint`` is [k, 1, a_1 ...
    # a_n] and the CE and CCE gaps are measured from it outside the kernel (NaN here).
    more_br_gains: np.ndarray  # [k, n - 2] players 3..n's best-response gains (as br_gain_1)
    more_average_regrets: np.ndarray  # [k, n - 2] players 3..n's average regrets (as average_regret_1)


def empty_matrix_record(rows: int, *shape: int, joint: bool = False) -> MatrixRecord:
    """Room for ``rows`` history rows of a game of ``shape`` (m x n, or a_1 x ... x a_n), with its joint distribution
    of play if ``joint``."""
    players, w, joint_actions = len(shape), max(shape), math.prod(shape)
    joint_shape = (shape if players == 2 else (1, joint_actions)) if joint else (0, 0)
    return MatrixRecord(
        np.zeros(rows, dtype=np.int64),
        np.zeros((rows, players, w)),
        np.zeros((rows, players, w)),
        np.zeros((rows, players, w)),
        *(np.zeros(rows) for _ in range(10)),
        np.zeros((rows, *joint_shape)),
        np.zeros((rows, players - 2)),
        np.zeros((rows, players - 2)),
    )


# -- regret matching -------------------------------------------------------------------------------


@part(**_PART)
def _normalise_positive_part(values, out):
    """``out = max(values, 0) / sum max(values, 0)``, uniform when nothing is positive (``out`` may be ``values``)."""
    n = values.shape[0]
    total = 0.0
    for i in range(n):
        positive = values[i] if values[i] > 0.0 else 0.0
        out[i] = positive
        total += positive
    if total > 0.0:
        for i in range(n):
            out[i] = out[i] / total
    else:
        for i in range(n):
            out[i] = 1.0 / n


@part(**_PART)
def regret_matching(regrets, prediction, optimistic, out):
    """``out = RM(R)`` (Hart & Mas-Colell 2000); optimistic (predictive RM+) plays ``RM(R + m)`` with the prediction
    ``m = r_{t-1}`` (``out`` doubles as the scratch space for ``R + m``)."""
    if optimistic:
        for i in range(regrets.shape[0]):
            out[i] = regrets[i] + prediction[i]
        _normalise_positive_part(out, out)
    else:
        _normalise_positive_part(regrets, out)


# -- Hedge's exponential ---------------------------------------------------------------------------


def _powers_of_two_table(bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``2^(j / N)`` for ``j = 0 .. N-1`` (``N = 2^bits``), each as the nearest double ``h`` and the relative
    correction ``c`` with ``2^(j / N) = h (1 + c)`` to about 106 bits (computed in 40-digit decimal arithmetic)."""
    with decimal.localcontext() as context:
        context.prec = 40
        exact = [decimal.Decimal(2) ** (decimal.Decimal(j) / (1 << bits)) for j in range(1 << bits)]
        rounded = [float(value) for value in exact]
        correction = [float(value / decimal.Decimal(near) - 1) for value, near in zip(exact, rounded)]
    return np.array(rounded), np.array(correction)


def _ln2_over(n: int) -> tuple[float, float]:
    """``ln(2) / n`` in two parts (Cody & Waite 1980): the high one with its last 20 bits zero, so that ``k * high`` is
    exact for ``|k| < 2^20``, and the double nearest the rest."""
    exact = decimal.Decimal(2).ln(decimal.Context(prec=40)) / n
    mantissa, exponent = math.frexp(float(exact))
    high = math.ldexp(math.floor(math.ldexp(mantissa, 33)), exponent - 33)
    return high, float(exact - decimal.Decimal(high))


_EXP_TABLE_BITS = 7
_EXP_TABLE, _EXP_TABLE_CORRECTION = _powers_of_two_table(_EXP_TABLE_BITS)
_EXP_N_OVER_LN2 = (1 << _EXP_TABLE_BITS) / math.log(2.0)
_EXP_LN2_OVER_N_HIGH, _EXP_LN2_OVER_N_LOW = _ln2_over(1 << _EXP_TABLE_BITS)
_EXP_ROUNDING_SHIFT = 1.5 * 2.0**52  # adding it rounds a double of magnitude below 2^51 to an integer k ...
_EXP_ROUNDING_SHIFT_BITS = int(np.float64(_EXP_ROUNDING_SHIFT).view(np.int64))  # ... whose bits are these plus k
_LOG_SMALLEST_NORMAL = -1022.0 * math.log(2.0)  # ln 2^-1022


@part(**_PART)
def _exp_parts(x):
    """``(q, bits of 2^(j/N), rest)`` with ``e^x = 2^q 2^(j/N) (1 + rest)``, for ``|x| < 2^51 ln(2) / N`` (Tang 1989,
    "Table-driven implementation of the exponential function in IEEE floating-point arithmetic", ACM TOMS 15(2)).

    With ``k = round(x N / ln 2)``, ``N = 128``, ``k = 128 q + j`` (``0 <= j < 128``) and ``r = x - k ln(2) / N``
    (``|r| <= ln(2) / 256``): ``e^x = 2^q 2^(j/N) e^r``, ``2^(j/N)`` from a table held in two parts and
    ``e^r - 1 = r + r^2/2 + r^3/6 + r^4/24 + r^5/120`` (its truncation error below ``2^-60``), in two halves that
    are evaluated side by side; the table's relative correction joins ``e^r - 1`` in ``rest``, so that only one
    rounding happens at the scale of the result. No branch, no conversion: ``k`` is read off the bits of the rounded
    double. Each ``a * b + c`` is one fused multiply-add (one rounding, and the shortest path through the processor).
    """
    rounded = fused_multiply_add(x, _EXP_N_OVER_LN2, _EXP_ROUNDING_SHIFT)
    k = rounded - _EXP_ROUNDING_SHIFT
    # k * high is exact (high ends in 20 zero bits, |k| < 2^20), and so is x less it, which lies near x.
    r = fused_multiply_add(-k, _EXP_LN2_OVER_N_LOW, fused_multiply_add(-k, _EXP_LN2_OVER_N_HIGH, x))
    whole = np.float64(rounded).view(np.int64) - _EXP_ROUNDING_SHIFT_BITS  # k as an integer
    j = whole & ((1 << _EXP_TABLE_BITS) - 1)
    r2 = r * r
    low_half = fused_multiply_add(r2, fused_multiply_add(r, 1.0 / 6.0, 0.5), _EXP_TABLE_CORRECTION[j] + r)
    rest = fused_multiply_add(r2 * r2, fused_multiply_add(r, 1.0 / 120.0, 1.0 / 24.0), low_half)
    return whole >> _EXP_TABLE_BITS, np.float64(_EXP_TABLE[j]).view(np.int64), rest


@part(**_PART)
def softmax_weight(shifted):
    """``e^s`` for a logit less the largest (``s <= 0``), within 0.501 of a unit in the last place down to ``2^-1022``,
    and 0 where ``e^s < 2^-1022`` (:func:`_exp_parts` computes it; ``tests/test_softmax_weight.py`` measures it).

    Why not the C library's ``exp``: the call cannot be inlined, a call in a loop makes the loop keep its running
    values in memory, and a Hedge run that drifts to the boundary sends many exps through the library's underflow
    path, which sets ``errno``; three-action Hedge then takes about twice regret matching's time an iteration rather
    than ``python -m rmcore bench``'s figure. A weight under ``2^-1022`` would be a subnormal number, which costs a
    microcode assist in every operation that touches it: a probability that small is 0 here. ``-inf`` (the logit of an
    action the start excludes) gives 0; a NaN stays a NaN.
    """
    # (Clamped so that every number on the way is finite, as the plain-Python twin wants it.)
    q, table_bits, rest = _exp_parts(-745.0 if shifted < -745.0 else shifted)
    scale = np.int64(table_bits + (q << 52)).view(np.float64)
    weight = fused_multiply_add(scale, rest, scale)
    return 0.0 if shifted < _LOG_SMALLEST_NORMAL else weight


@part(**_PART)
def _hedge_step(steps, player, t):
    """Hedge's step ``eta_t``: the constant ``eta``, or with the anytime schedule ``eta / sqrt(t)``."""
    eta = steps[player]
    if steps[steps.shape[0] - 1] != 0.0:  # (the last entry: 1 for the anytime schedule)
        eta = eta / np.sqrt(float(t))
    return eta


@part(**_PART)
def _softmax(scores, prediction, optimistic, log_start, eta, out):
    """Hedge's ``out ∝ x_1 * exp(eta * (U + m))`` (Freund & Schapire 1997), ``m`` the optimistic prediction.

    The logits less their maximum, so that no exp overflows (the largest one's weight is ``e^0 = 1`` exactly). Without
    a start ``log_start`` is 0; an action the start excludes has ``-inf``.
    """
    n = out.shape[0]
    best = -np.inf
    for i in range(n):
        logit = eta * (scores[i] + prediction[i]) if optimistic else eta * scores[i]
        logit += log_start[i]
        out[i] = logit
        best = logit if logit > best else best
    total = 0.0
    for i in range(n):
        weight = softmax_weight(out[i] - best)
        out[i] = weight
        total += weight
    scale = 1.0 / total
    for i in range(n):
        out[i] = out[i] * scale


# -- fictitious play and gradient ascent -----------------------------------------------------------


@part(**_PART)
def _fictitious_play(scores, start, t, out):
    """``out = e_i`` with ``i = argmax U_i`` (Brown 1951; ties to the lowest index), or the start at ``t = 1``."""
    if t == 1:
        for i in range(scores.shape[0]):
            out[i] = start[i]
        return
    best = 0
    for i in range(1, scores.shape[0]):
        if scores[i] > scores[best]:
            best = i
    for i in range(scores.shape[0]):
        out[i] = 1.0 if i == best else 0.0


@part(**_PART)
def project_onto_simplex(values, active):
    """``values <- argmin_{x in simplex} |x - values|`` in place (Michelot 1986, "A finite algorithm for finding the
    projection of a point onto the canonical simplex of R^n", JOTA 50(1)).

    The projection is ``x_i = max(v_i - theta, 0)`` for the threshold ``theta`` with ``sum_i x_i = 1``. Starting with
    every action active, ``theta = (sum of the active v_i - 1) / (active count)``; every action with ``v_i <= theta``
    leaves the active set, and theta, which can only grow, is computed again, until none leaves (at most n rounds,
    one or two for a point near the simplex, as GDA's iterates are). No sort: two passes over the actions a round.
    ``active`` (as long as ``values``) holds 1.0 for the active actions.
    """
    n = values.shape[0]
    for i in range(n):
        active[i] = 1.0
    theta = 0.0
    while True:
        total = 0.0
        count = 0.0
        for i in range(n):
            total += active[i] * values[i]
            count += active[i]
        theta = (total - 1.0) / count
        left = False
        for i in range(n):
            if active[i] > 0.0 and values[i] <= theta:
                active[i] = 0.0
                left = True
        if not left:
            break
    for i in range(n):
        shifted = values[i] - theta
        values[i] = shifted if shifted > 0.0 else 0.0


@part(**_PART)
def project_onto_z(values, active):
    """``values <- Proj_Z(values)`` in place, Z = {R >= 0, sum R >= 1} (Cai, Farina, Grand-Clément, Kroer, Lee, Luo &
    Zheng 2023): clipped at 0, or, if the clipped sum is at most 1, projected onto the simplex
    (:func:`project_onto_simplex`, ``active`` its scratch), as the SOGRM authors' ``SPRMSolver`` does."""
    n = values.shape[0]
    total = 0.0
    for i in range(n):
        total += values[i] if values[i] > 0.0 else 0.0
    if total <= 1.0:
        project_onto_simplex(values, active)
        return
    for i in range(n):
        values[i] = values[i] if values[i] > 0.0 else 0.0


@part(**_PART)
def _smooth_strategy(scores, predictions, eta, active, out):
    """Smooth predictive RM+'s strategy: ``out = Proj_Z(R + eta m) / sum`` with the prediction ``m = r_{t-1}``.

    One pass forms ``R + eta m`` and its clipped sum; above 1 the clipped values are divided by it (the SOGRM code's
    numbers to the last bit). At most 1, the point is projected onto the simplex, whose sum is 1 up to rounding: it is
    played as it is, without a second division on the iteration's critical path (the strategies then differ from the
    code's normalised ones by a few units in the last place)."""
    n = out.shape[0]
    total = 0.0
    for i in range(n):
        value = scores[i] + eta * predictions[i]
        out[i] = value
        total += value if value > 0.0 else 0.0
    if total <= 1.0:
        project_onto_simplex(out, active)
        return
    for i in range(n):
        value = out[i]
        out[i] = (value if value > 0.0 else 0.0) / total


@part(**_PART)
def _smooth_learn(regrets, scores, predictions, eta, active, utilities, value):
    """Smooth predictive RM+'s update from ``r_t = u - v``: ``R <- Proj_Z(R + eta r_t)`` (in ``scores``), the
    prediction ``m = r_t``, and the cumulative regrets ``+= r_t``.

    One pass: ``R + eta r_t`` is written clipped at 0 (the usual case: its clipped sum above 1) and, in ``active``,
    as it is, for the simplex projection when that sum is at most 1. The sum only chooses between the two, so it is
    added in two running sums, even and odd entries, which halves the chain of additions the iteration waits on (its
    rounding moves no value; the plain-Python twin adds it the same way). With this update and
    :func:`_smooth_strategy`, SPRM+ costs what PRM+ costs an iteration, within the bench's 1.2 (``python -m rmcore
    bench --only frontier``); with a pass to add, one to clip and one to divide, it did not."""
    n = regrets.shape[0]
    even, odd = 0.0, 0.0
    for k in range(n):
        r = utilities[k] - value
        regrets[k] += r
        updated = scores[k] + eta * r
        clipped = updated if updated > 0.0 else 0.0
        active[k] = updated
        scores[k] = clipped
        predictions[k] = r
        if k & 1:
            odd += clipped
        else:
            even += clipped
    if even + odd <= 1.0:
        for k in range(n):
            scores[k] = active[k]
        project_onto_simplex(scores, active)


@part(**_PART)
def _extragradient_step(scores, regrets, predictions, utilities, value, eta, half):
    """One player's step of a half of :func:`_extragradient_iteration`, before its projection: ``H = R + eta r`` (in
    ``predictions``) in the first half, ``R += eta r`` and the regrets ``+= r`` in the second."""
    if half == 0:
        for k in range(scores.shape[0]):
            predictions[k] = scores[k] + eta * (utilities[k] - value)
        return
    for k in range(scores.shape[0]):
        r = utilities[k] - value
        regrets[k] += r
        scores[k] += eta * r


@part(**_PART)
def _extragradient_iteration(A, B, flags, s, t):
    """Iteration t of extragradient RM+ (Cai et al. 2023), both players at once from the same profile (or the row
    player alone against a fixed ``y``), its regret states ``R`` in ``scores``:

    1. at the leaders ``x = R_x / sum R_x``, ``y = R_y / sum R_y``: ``H = Proj_Z(R + eta r(x, y))`` (in
       ``predictions``);
    2. at ``x_H = H_x / sum H_x``, ``y_H``: ``R <- Proj_Z(R + eta r(x_H, y_H))``;

    ``r(x, y)`` each player's regret vector ``u - v`` at that profile. ``(x_H, y_H)`` is the profile the iteration
    plays: its regrets are the cumulative regrets', and it enters the averages; the next leaders are the last iterate.
    """
    # (The normalisations and the projections run in loops over the players, so that the kernel holds one copy of
    # each: LLVM optimises every inlined copy again, in a first run's compile. The players' steps are independent, so
    # the numbers are the same. The steps themselves stand side by side, where the processor overlaps the two players'
    # work: in the loop too, ExRM+ took 15% longer an iteration on 3x3.)
    fixed, zero_sum = flags.fixed_opponent, flags.zero_sum
    players = 1 if fixed else 2
    for half in range(2):
        for player in range(players):  # the profile: the leaders R / sum R, then (x_H, y_H)
            row = player == 0
            regret_state, step = (s.scores_row, s.predictions_row) if row else (s.scores_col, s.predictions_col)
            _normalise_positive_part(step if half == 1 else regret_state, s.x if row else s.y)
        v2 = 0.0
        if fixed:
            row_utilities = s.fixed_row_utilities
        else:
            payoff_vectors(A, B, zero_sum, s.x, s.y, s.row_utilities, s.col_utilities)
            row_utilities = s.row_utilities
        v1 = _dot(s.x, row_utilities)
        if not fixed:
            v2 = -v1 if zero_sum else _dot(s.y, s.col_utilities)
        _extragradient_step(s.scores_row, s.regrets_row, s.predictions_row, row_utilities, v1, s.steps[0], half)
        if not fixed:
            _extragradient_step(s.scores_col, s.regrets_col, s.predictions_col, s.col_utilities, v2, s.steps[1], half)
        for player in range(players):
            row = player == 0
            regret_state, step = (s.scores_row, s.predictions_row) if row else (s.scores_col, s.predictions_col)
            project_onto_z(step if half == 0 else regret_state, s.scratch_row if row else s.scratch_col)
        if half == 1 and flags.track_joint:
            _add_joint(s.joint, s.x, s.y)
            s.joint_total[0] += 1.0
    w = _weight(t, flags.averaging_power)
    _add_weighted(s.strategy_sums_row, s.x, w)
    if not fixed:
        _add_weighted(s.strategy_sums_col, s.y, w)
    s.weight_sum[0] += w


# -- the learners of correlated equilibria ------------------------------------------------------------


@part(**_PART)
def stationary_distribution(Q, out):
    """``out = pi`` with ``pi Q = pi``, ``sum pi = 1``, for a row-stochastic ``Q`` (destroyed: eliminated in place).

    The GTH algorithm (Grassmann, Taksar & Heyman 1985, "Regenerative analysis and steady state distributions for
    Markov chains", Operations Research 33(5)): states are censored out from the last down, ``Q[i, j] += Q[i, k]
    Q[k, j] / s_k`` with ``s_k = sum_{j<k} Q[k, j]``, and ``pi`` is found back up, ``pi_k = sum_{i<k} pi_i Q[i, k] /
    s_k``. It only adds and multiplies non-negative numbers (no subtraction, so no cancellation), and needs no row
    sum to be exactly 1. Where ``s_k = 0`` state k cannot leave the states above it: it is absorbing in the chain
    censored to ``0..k``, whose stationary distribution is then ``e_k``, and the states above are found from it (a
    reducible chain gets one of its stationary distributions, that of the highest such state's class).
    """
    n = Q.shape[0]
    bottom = 0
    k = n - 1
    while k > 0:
        total = 0.0
        for j in range(k):
            total += Q[k, j]
        if total <= 0.0:
            bottom = k
            break
        Q[k, k] = total
        for i in range(k):
            share = Q[i, k] / total
            if share != 0.0:
                for j in range(k):
                    Q[i, j] += share * Q[k, j]
        k -= 1
    for i in range(n):
        out[i] = 0.0
    out[bottom] = 1.0
    mass = 1.0
    for k in range(bottom + 1, n):
        value = 0.0
        for i in range(k):
            value += out[i] * Q[i, k]
        value = value / Q[k, k]
        out[k] = value
        mass += value
    for i in range(n):
        out[i] = out[i] / mass


@part(**_PART)
def _swap_strategy(conditional, markov, out):
    """Swap regret matching's strategy (Blum & Mansour 2007, "From external to internal regret", JMLR 8): row j of
    the Markov matrix ``Q`` is regret matching of action j's regrets, ``q_j = RM(R_j)``, and the strategy played is
    its stationary distribution, ``x = x Q`` (:func:`stationary_distribution`)."""
    m = out.shape[0]
    for j in range(m):
        _normalise_positive_part(conditional[j], markov[j])
    stationary_distribution(markov, out)


@part(**_PART)
def _swap_learn(conditional, strategy, utilities, scratch):
    """Swap regret matching's update: action j's regret matcher, which played ``q_j = RM(R_j)``, is charged the
    payoff vector scaled by ``x_t(j)``, ``R_j(k) += x_t(j) (u(k) - q_j . u)`` (Blum & Mansour 2007, Theorem 5)."""
    m = strategy.shape[0]
    for j in range(m):
        row = conditional[j]
        _normalise_positive_part(row, scratch)
        value = _dot(scratch, utilities)
        weight = strategy[j]
        for k in range(m):
            row[k] += weight * (utilities[k] - value)


@part(**_PART)
def _internal_strategy(conditional, start, last, inertia, t, out):
    """Hart & Mas-Colell's (2000) procedure: from the last action ``j``, switch to ``k != j`` with probability
    ``D_{t-1}(j, k)^+ / (mu (t - 1))`` and stay at j otherwise (eq. (2.2)); the first iteration plays the start."""
    m = out.shape[0]
    if t == 1 or last < 0:
        for k in range(m):
            out[k] = start[k]
        return
    scale = 1.0 / (inertia * float(t - 1))
    stay = 1.0
    for k in range(m):
        regret = conditional[last, k]
        switch = regret * scale if (k != last and regret > 0.0) else 0.0
        out[k] = switch
        stay -= switch
    out[last] = stay


@part(**_PART)
def _internal_learn(conditional, played, utilities):
    """Hart & Mas-Colell's regrets: the row of the action played, ``D(j, k) += u(k) - u(j)``."""
    for k in range(utilities.shape[0]):
        conditional[played, k] += utilities[k] - utilities[played]


@part(**_PART)
def _add_joint(joint, x, y):
    """``J += x (x) y``."""
    for i in range(x.shape[0]):
        weight = x[i]
        for j in range(y.shape[0]):
            joint[i, j] += weight * y[j]


@part(**_PART)
def correlated_gaps(A, B, joint, total, scratch_row, scratch_col):
    """``(cce_gap, ce_gap, internal_regret)`` of the joint distribution ``sigma = joint / total`` (OpenSpiel's
    ``corr_dist`` definitions, summed over the players).

    With ``G_1(j, k) = sum_b sigma(j, b) (A[k, b] - A[j, b])``, the row player's gain from playing k whenever it is
    told j (and ``G_2`` alike for the columns of B): the CE gap adds ``max(0, max_k G_i(j, k))`` over players and
    recommendations j; the CCE gap adds ``max(0, max_k sum_j G_i(j, k))`` over players (``sum_j G_1(j, k) = u_1(k,
    sigma_-1) - u_1(sigma)``); the internal regret is the largest ``G_i(j, k)``. An m x m x n pass (and n x n x m).
    Each ``sigma(j, b)`` is ``joint[j, b] / total``, as :meth:`rmcore.MatrixSolver.joint_distribution` divides it, so
    that the gaps of that distribution (total 1) are these to the last bit. The scratch arrays hold one player's sums
    over j and the other's row or column of ``sigma``.
    """
    m, n = A.shape
    ce = 0.0
    cce = 0.0
    internal = 0.0
    for player in range(2):
        actions, others = (m, n) if player == 0 else (n, m)
        sums, recommended = (scratch_row, scratch_col) if player == 0 else (scratch_col, scratch_row)
        for k in range(actions):
            sums[k] = 0.0
        for j in range(actions):
            for b in range(others):  # sigma(j, .): the row j of sigma, or its column j
                recommended[b] = (joint[j, b] if player == 0 else joint[b, j]) / total
            best = 0.0
            for k in range(actions):
                gain = 0.0
                if player == 0:
                    for b in range(others):
                        gain += recommended[b] * (A[k, b] - A[j, b])
                else:
                    for b in range(others):
                        gain += recommended[b] * (B[b, k] - B[b, j])
                sums[k] += gain
                best = gain if gain > best else best
            ce += best
            internal = best if best > internal else internal
        cce += _max_positive(sums)
    return cce, ce, internal


# -- the rules: play and learn ---------------------------------------------------------------------


@part(**_PART)
def play(flags, s, player, t, out):
    """``out = x_t``, the strategy ``player`` (0 row, 1 column) plays at iteration ``t`` (>= 1), from the state ``s``
    after iteration ``t - 1``: :func:`play_from` on that player's arrays."""
    row = player == 0
    play_from(
        flags,
        s.regrets_row if row else s.regrets_col,
        s.predictions_row if row else s.predictions_col,
        s.scores_row if row else s.scores_col,
        s.log_start_row if row else s.log_start_col,
        s.start_row if row else s.start_col,
        s.conditional_row if row else s.conditional_col,
        s.markov_row if row else s.markov_col,
        s.scratch_row if row else s.scratch_col,
        s.steps,
        player,
        s.drawn,
        s.inertia,
        t,
        out,
    )


@part(**_PART)
def play_from(
    flags, regrets, predictions, scores, log_start, start, conditional, markov, scratch, steps, player, drawn, inertia,
    t, out,
):  # fmt: skip
    """``out = x_t``, the strategy ``player`` plays at iteration ``t`` (>= 1), from its own arrays after iteration
    ``t - 1`` (its step ``steps[player]``, the action it drew last ``drawn[player]``, -1 unsampled: read in the
    branches that use them, so that no other rule loads them).

    RM / RM+: ``RM(R)`` (optimistic: ``RM(R + r_{t-1})``); Hedge: ``x_t ∝ x_1 exp(eta_t U_{t-1})`` (optimistic:
    ``U_{t-1} + u_{t-1}``), ``eta_t`` the constant ``eta`` or the anytime ``eta / sqrt(t)``; GDA: its iterate;
    fictitious play: the start at ``t = 1``, then ``e_argmax U_{t-1}``; smooth predictive RM+: ``Proj_Z(R + eta
    r_{t-1}) / sum`` with its regret state R in Z (``scores``); extragradient RM+: its leader ``R / sum R``; swap RM:
    the stationary distribution of ``Q``, ``q_j = RM(R_j)``; Hart & Mas-Colell: from the last action j, ``k`` with
    probability ``D(j, k)^+ / (mu (t - 1))``.
    """
    algorithm, optimistic = flags.algorithm, flags.optimistic
    if algorithm == HEDGE:
        _softmax(scores, predictions, optimistic, log_start, _hedge_step(steps, player, t), out)
    elif algorithm == GDA:
        for i in range(out.shape[0]):
            out[i] = scores[i]
    elif algorithm == FICTITIOUS_PLAY:
        _fictitious_play(scores, start, t, out)
    elif algorithm == SMOOTH_RM_PLUS:
        _smooth_strategy(scores, predictions, steps[player], scratch, out)
    elif algorithm == EXTRAGRADIENT_RM_PLUS:
        _normalise_positive_part(scores, out)  # (the leader R / sum R: R lies in Z, its sum at least 1)
    elif algorithm == SWAP_RM:
        _swap_strategy(conditional, markov, out)
    elif algorithm == INTERNAL_RM:
        _internal_strategy(conditional, start, drawn[player], inertia[0], t, out)
    else:
        regret_matching(regrets, predictions, optimistic, out)


@part(**_PART)
def learn(flags, s, player, utilities, value):
    """``player``'s update from this round's payoff vector ``u`` and value ``v``: :func:`learn_from` on that
    player's arrays."""
    row = player == 0
    learn_from(
        flags,
        s.regrets_row if row else s.regrets_col,
        s.predictions_row if row else s.predictions_col,
        s.scores_row if row else s.scores_col,
        s.conditional_row if row else s.conditional_col,
        s.scratch_row if row else s.scratch_col,
        s.steps,
        player,
        s.x if row else s.y,
        s.drawn,
        utilities,
        value,
    )


@part(**_PART)
def learn_from(
    flags, regrets, predictions, scores, conditional, scratch, steps, player, strategy, drawn, utilities, value
):
    """``player``'s update from this round's payoff vector ``u`` and value ``v``, on its own arrays (``strategy`` the
    one it played; its step ``steps[player]`` and the action it drew ``drawn[player]`` read where they are used).

    Every rule keeps ``R += u - v`` (RM+ and PRM+ clip it at 0, Tammelin 2014). Hedge and fictitious play add
    ``U += u``; GDA steps ``x <- Proj(x + eta u)`` (optimistic: ``Proj(x + eta (2 u - u_{t-1}))``, Daskalakis et al.
    2018); smooth predictive RM+ steps its regret state ``R_Z <- Proj_Z(R_Z + eta (u - v))`` (Cai et al. 2023). The
    optimistic rules keep the prediction of the next round: ``r_t = u - v`` for PRM+ and smooth PRM+, ``u`` for Hedge
    and GDA. Swap RM charges each action's regret matcher ``x_t(j) u`` (:func:`_swap_learn`); Hart & Mas-Colell's
    procedure adds ``u(k) - u(j)`` to the row of the action j it played (sampled only). (Extragradient RM+ has an
    iteration of its own: :func:`_extragradient_iteration`.)
    """
    algorithm, optimistic = flags.algorithm, flags.optimistic
    n = regrets.shape[0]
    if algorithm == RM or algorithm == RM_PLUS:
        if optimistic:
            for k in range(n):
                predictions[k] = utilities[k] - value
        if algorithm == RM:
            for k in range(n):
                regrets[k] += utilities[k] - value
        else:
            for k in range(n):
                updated = regrets[k] + (utilities[k] - value)
                regrets[k] = updated if updated > 0.0 else 0.0
        return
    if algorithm == SWAP_RM or algorithm == INTERNAL_RM:
        for k in range(n):
            regrets[k] += utilities[k] - value
        if algorithm == SWAP_RM:
            _swap_learn(conditional, strategy, utilities, scratch)
        else:
            _internal_learn(conditional, drawn[player], utilities)
        return
    if algorithm == SMOOTH_RM_PLUS:
        _smooth_learn(regrets, scores, predictions, steps[player], scratch, utilities, value)
        return
    if algorithm == GDA:
        eta = steps[player]
        for k in range(n):
            regrets[k] += utilities[k] - value
            if optimistic:
                scores[k] += eta * (2.0 * utilities[k] - predictions[k])
                predictions[k] = utilities[k]
            else:
                scores[k] += eta * utilities[k]
        project_onto_simplex(scores, scratch)
        return
    for k in range(n):
        regrets[k] += utilities[k] - value
        scores[k] += utilities[k]
        if optimistic:
            predictions[k] = utilities[k]


# -- payoff vectors ----------------------------------------------------------------------------------

#: From this many columns on, a row's dot product is summed in vector registers (:func:`_long_row_dot`).
WIDE_ROWS = 16


@part(**_PART)
def _row_dot(matrix, i, weights):
    """``sum_j matrix[i, j] weights[j]``: in order for a row shorter than :data:`WIDE_ROWS`, else by
    :func:`_long_row_dot`."""
    n = weights.shape[0]
    if n >= WIDE_ROWS:
        return _long_row_dot(matrix, i, weights)
    total = 0.0
    for j in range(n):
        total += matrix[i, j] * weights[j]
    return total


@part(**_PART, fastmath={"reassoc", "contract"})
def _long_row_dot(matrix, i, weights):
    """A long row's dot product, which LLVM may reassociate ("reassoc", in this function alone) to add it in vector
    registers, and contract into fused multiply-adds ("contract"): in order, a large game's iteration waits on one
    addition after another (numba cannot vectorise a sum otherwise, not even split by hand into sixteen running sums),
    and a multiplication then an addition take two instructions where one does both. The order then depends on the
    processor's vector width, not on where the row lies, so a run repeats itself to the last bit on one machine; the
    plain-Python twin agrees with it to rounding only, and so never stands in for a game this wide
    (``rmcore/_runtime.py``)."""
    total = 0.0
    for j in range(weights.shape[0]):
        total += matrix[i, j] * weights[j]
    return total


@part(**_PART)
def _add_row_times(out, matrix, i, weight, sign, first):
    """``out += sign * weight * matrix[i]`` (``first``: ``out =`` instead; a loop that writes zeros first would
    become a call to ``memset``, and a call in the hot loop sends every live register to memory and back): in order
    for a row shorter than :data:`WIDE_ROWS`, else by :func:`_long_add_row_times`."""
    n = out.shape[0]
    if n >= WIDE_ROWS:
        _long_add_row_times(out, matrix, i, weight, sign, first)
        return
    if first:
        for j in range(n):
            out[j] = sign * (weight * matrix[i, j])
    elif sign > 0.0:
        for j in range(n):
            out[j] += weight * matrix[i, j]
    else:
        for j in range(n):
            out[j] -= weight * matrix[i, j]


@part(**_PART, fastmath={"contract"})
def _long_add_row_times(out, matrix, i, weight, sign, first):
    """:func:`_add_row_times` for a long row, its multiply-adds fused ("contract", in this function alone: half the
    instructions of a large game's iteration, which they bound once the matrix streams from the cache). Rounded once
    rather than twice, each entry agrees with the twin's to rounding only, as :func:`_long_row_dot`'s do."""
    n = out.shape[0]
    if first:
        for j in range(n):
            out[j] = sign * (weight * matrix[i, j])
    elif sign > 0.0:
        for j in range(n):
            out[j] += weight * matrix[i, j]
    else:
        for j in range(n):
            out[j] -= weight * matrix[i, j]


@part(**_PART)
def row_utilities_against(A, y, out):
    """``out = A y``."""
    for i in range(A.shape[0]):
        out[i] = _row_dot(A, i, y)


@part(**_PART)
def col_utilities_against(A, B, zero_sum, x, out):
    """``out = x^T B`` (``B = -A`` in a zero-sum game)."""
    for i in range(A.shape[0]):
        if zero_sum:
            _add_row_times(out, A, i, x[i], -1.0, i == 0)
        else:
            _add_row_times(out, B, i, x[i], 1.0, i == 0)


#: A matrix of at least this many columns is summed by one loop a row that also adds the row to the column utilities
#: (:func:`_fused_row`).
FUSED_FROM_COLUMNS = 32


@part(**_PART)
def payoff_vectors(A, B, zero_sum, x, y, row_utilities, col_utilities):
    """``row_utilities = A y`` and ``col_utilities = x^T B`` in one pass over the rows.

    From :data:`FUSED_FROM_COLUMNS` columns on, one loop a row does both (:func:`_fused_row`): each entry is read once,
    and the loop runs in vector registers. Narrower rows take two loops a row (:func:`_row_dot`, then
    :func:`_add_row_times`), in order below :data:`WIDE_ROWS` columns, as the plain-Python twin adds them. With the
    arrays on cache-line boundaries (:data:`rmcore.kernels.ALIGNMENT`), one loop is the faster at every width from 16
    columns to 1000 (``python -m rmcore bench --only matrix``, the shape rows)."""
    if y.shape[0] >= FUSED_FROM_COLUMNS:
        for i in range(A.shape[0]):
            row_utilities[i] = _fused_row(A, B, zero_sum, i, x[i], y, col_utilities, i == 0)
        return
    for i in range(A.shape[0]):
        row_utilities[i] = _row_dot(A, i, y)
        if zero_sum:
            _add_row_times(col_utilities, A, i, x[i], -1.0, i == 0)
        else:
            _add_row_times(col_utilities, B, i, x[i], 1.0, i == 0)


@part(**_PART, fastmath={"reassoc", "contract"})
def _fused_row(A, B, zero_sum, i, weight, y, col_utilities, first):
    """Row ``i``'s utility ``sum_j A[i, j] y[j]``, returned, and its part of the column utilities, ``col_utilities +=
    weight B[i]`` (``B = -A`` in a zero-sum game; ``=`` for the first row): one loop, summed in vector registers
    ("reassoc") with fused multiply-adds ("contract"), as :func:`_long_row_dot` and :func:`_long_add_row_times` are.

    LLVM vectorises a loop that both sums and stores behind a run-time check that the stores (the column utilities)
    lie at least one unrolled vector step (32 doubles) from the loads; distinct arrays of :data:`FUSED_FROM_COLUMNS`
    doubles or more always do, so the check never sends a row to the loop's scalar copy (whose sum would run in
    another order) and a run does not depend on where its arrays lie. (Narrower rows could: two arrays of 16 doubles
    may lie 128 bytes apart.)"""
    n = y.shape[0]
    total = 0.0
    if zero_sum:
        if first:
            for j in range(n):
                payoff = A[i, j]
                total += payoff * y[j]
                col_utilities[j] = -(weight * payoff)
        else:
            for j in range(n):
                payoff = A[i, j]
                total += payoff * y[j]
                col_utilities[j] -= weight * payoff
    elif first:
        for j in range(n):
            total += A[i, j] * y[j]
            col_utilities[j] = weight * B[i, j]
    else:
        for j in range(n):
            total += A[i, j] * y[j]
            col_utilities[j] += weight * B[i, j]
    return total


@part(**_PART)
def payoff_vectors_and_joint(A, B, zero_sum, x, y, row_utilities, col_utilities, joint):
    """:func:`payoff_vectors`, and the joint distribution's ``J += x (x) y``: from :data:`FUSED_FROM_COLUMNS` columns
    on in the same loop a row (:func:`_fused_row_and_joint`), which reads each row of the matrices and of ``J`` once
    (as a pass of its own, the joint distribution took 1.5 times an iteration's time on 64 x 64, with A, B and J no
    longer in the first-level cache together); narrower rows as :func:`payoff_vectors` then :func:`_add_joint`."""
    if y.shape[0] >= FUSED_FROM_COLUMNS:
        for i in range(A.shape[0]):
            row_utilities[i] = _fused_row_and_joint(A, B, zero_sum, i, x[i], y, col_utilities, i == 0, joint)
        return
    payoff_vectors(A, B, zero_sum, x, y, row_utilities, col_utilities)
    _add_joint(joint, x, y)


@part(**_PART, fastmath={"reassoc", "contract"})
def _fused_row_and_joint(A, B, zero_sum, i, weight, y, col_utilities, first, joint):
    """:func:`_fused_row` that also adds ``weight y`` to row ``i`` of the joint distribution (fused multiply-adds)."""
    n = y.shape[0]
    total = 0.0
    if zero_sum:
        if first:
            for j in range(n):
                payoff = A[i, j]
                total += payoff * y[j]
                col_utilities[j] = -(weight * payoff)
                joint[i, j] += weight * y[j]
        else:
            for j in range(n):
                payoff = A[i, j]
                total += payoff * y[j]
                col_utilities[j] -= weight * payoff
                joint[i, j] += weight * y[j]
    elif first:
        for j in range(n):
            total += A[i, j] * y[j]
            col_utilities[j] = weight * B[i, j]
            joint[i, j] += weight * y[j]
    else:
        for j in range(n):
            total += A[i, j] * y[j]
            col_utilities[j] += weight * B[i, j]
            joint[i, j] += weight * y[j]
    return total


@part(**_PART)
def _dot(a, b):
    total = 0.0
    for k in range(a.shape[0]):
        total += a[k] * b[k]
    return total


@part(**_PART)
def _add_weighted(sums, strategy, weight):
    for k in range(sums.shape[0]):
        sums[k] += weight * strategy[k]


@part(**_PART)
def _weight(t, averaging_power):
    """Iteration t's weight in the average: 1, t or t^2."""
    if averaging_power == 0:
        return 1.0
    if averaging_power == 1:
        return float(t)
    return float(t) * float(t)


@part(**_PART)
def _sampled_row_utilities(A, b, out):
    for i in range(A.shape[0]):
        out[i] = A[i, b]


@part(**_PART)
def _sampled_col_utilities(A, B, zero_sum, a, out):
    if zero_sum:
        for j in range(A.shape[1]):
            out[j] = -A[a, j]
    else:
        for j in range(A.shape[1]):
            out[j] = B[a, j]


# -- the loops -------------------------------------------------------------------------------------


# -- checkpoints -----------------------------------------------------------------------------------


@part(**_PART)
def _average(sums, weight_sum, out):
    n = sums.shape[0]
    if weight_sum > 0.0:
        for k in range(n):
            out[k] = sums[k] / weight_sum
    else:
        for k in range(n):
            out[k] = 1.0 / n


@part(**_PART)
def _max_positive(values):
    best = 0.0
    for k in range(values.shape[0]):
        if values[k] > best:
            best = values[k]
    return best


@part(**_PART)
def profile_gains(A, B, zero_sum, x, y, row_utilities, col_utilities):
    """``(g1, g2, value)`` for the profile (x, y): each player's gain from a best response, and x^T A y.

    ``g1 = max_i (A y)_i - x^T A y`` and ``g2 = max_j (x^T B)_j - x^T B y``; both are >= 0 in exact arithmetic and are
    clipped at 0 against rounding.
    """
    payoff_vectors(A, B, zero_sum, x, y, row_utilities, col_utilities)
    value_row = _dot(x, row_utilities)
    value_col = _dot(y, col_utilities)
    best_row = row_utilities[0]
    for i in range(row_utilities.shape[0]):
        if row_utilities[i] > best_row:
            best_row = row_utilities[i]
    best_col = col_utilities[0]
    for j in range(col_utilities.shape[0]):
        if col_utilities[j] > best_col:
            best_col = col_utilities[j]
    return max(best_row - value_row, 0.0), max(best_col - value_col, 0.0), value_row


@njit(**_CHECKPOINT)
def record_row(A, B, flags, s, iteration, record, k):
    """Row ``k`` of ``record``: the state after ``iteration`` iterations. Current strategies are the ones the next
    iteration plays (:func:`play` at ``iteration + 1``); averages are ``S / sum_t w_t`` (uniform before the first
    iteration). The state's work arrays serve as scratch."""
    m = s.x.shape[0]
    n = s.y.shape[0]
    fixed = flags.fixed_opponent
    record.iteration[k] = iteration
    for player in range(1 if fixed else 2):  # (a fixed opponent's y is its strategy; in self-play a work array)
        play(flags, s, player, iteration + 1, s.next_x if player == 0 else s.y)
    weight_sum = s.weight_sum[0]
    _average(s.strategy_sums_row, weight_sum, s.avg_x)
    if fixed:
        for j in range(n):
            s.avg_y[j] = s.y[j]
    else:
        _average(s.strategy_sums_col, weight_sum, s.avg_y)
    elapsed = float(iteration) if iteration > 0 else 1.0  # R = 0 before the first iteration
    record.nash_conv_current[k] = np.nan
    for average in range(0 if not fixed else 1, 2):  # the current profile (in self-play), then the average one
        gain_row, gain_col, value = profile_gains(
            A,
            B,
            flags.zero_sum,
            s.avg_x if average else s.next_x,
            s.avg_y if average else s.y,
            s.row_utilities,
            s.col_utilities,
        )
        if not average:
            record.nash_conv_current[k] = gain_row + gain_col
            continue
        record.br_gain_1[k] = gain_row
        record.br_gain_2[k] = np.nan if fixed else gain_col
        record.nash_conv[k] = np.nan if fixed else gain_row + gain_col
        record.game_value[k] = value
    for i in range(m):
        record.current[k, 0, i] = s.next_x[i]
        record.average[k, 0, i] = s.avg_x[i]
        record.regrets[k, 0, i] = s.regrets_row[i]
    for j in range(n):
        record.current[k, 1, j] = s.y[j]
        record.average[k, 1, j] = s.avg_y[j]
        record.regrets[k, 1, j] = s.regrets_col[j]
    for player, actions in ((0, m), (1, n)):  # the narrower player's padding (the row's memory is not zeroed)
        for j in range(actions, record.current.shape[2]):
            record.current[k, player, j] = 0.0
            record.average[k, player, j] = 0.0
            record.regrets[k, player, j] = 0.0
    record.average_regret_1[k] = _max_positive(s.regrets_row) / elapsed
    record.average_regret_2[k] = np.nan if fixed else _max_positive(s.regrets_col) / elapsed
    if flags.track_joint and s.joint_total[0] > 0.0:
        total = s.joint_total[0]
        cce, ce, internal = correlated_gaps(A, B, s.joint, total, s.scratch_row, s.scratch_col)
        record.cce_gap[k], record.ce_gap[k], record.internal_regret[k] = cce, ce, internal
        for i in range(m):
            for j in range(n):
                record.joint[k, i, j] = s.joint[i, j] / total
    else:
        record.cce_gap[k], record.ce_gap[k], record.internal_regret[k] = np.nan, np.nan, np.nan
        for i in range(record.joint.shape[1]):  # (kept, before the first iteration; the row's memory is not zeroed)
            for j in range(record.joint.shape[2]):
                record.joint[k, i, j] = np.nan


# -- three players or more ------------------------------------------------------------------------
# A game of n >= 3 players (Nash 1951's n-person games; the rules' updates are each player's own, as for two) runs
# here, from run_matrix, with the state laid out as MatrixState's note says. Each pass below is a function of its
# own, not inlined (``_PART_OF_N``): inlined into run_matrix, whose two-player loops LLVM then optimises beside them,
# they would lengthen the family's compile for every two-player game.

_PART_OF_N = dict(error_model="numpy", _nrt=False)


@part(**_PART_OF_N)
def player_payoff_vectors(A, actions, strategies, utilities, digits, partial, joint, track):
    """Every player's payoff vector against the others' mixed strategies, ``u_i(k) = sum_{a: a_i = k} A[i, a]
    prod_{j != i} s_j(a_j)`` (``utilities`` and ``strategies`` laid out player after player), in one pass over the
    joint actions ``a`` in C order (the last player's action fastest); with ``track`` also the joint distribution's
    ``J(a) += prod_j s_j(a_j)``. Player i's product of the others' probabilities is the product of the players before
    it times that of the players after it, without a division (a probability may be 0)."""
    players = actions.shape[0]
    for k in range(utilities.shape[0]):
        utilities[k] = 0.0
    for i in range(players):
        digits[i] = 0
    for a in range(A.shape[1]):
        partial[0] = 1.0  # partial[i] = prod_{j < i} s_j(a_j)
        offset = 0
        for i in range(players):
            partial[i + 1] = partial[i] * strategies[offset + digits[i]]
            offset += actions[i]
        if track:
            joint[0, a] += partial[players]
        after = 1.0  # prod_{j > i} s_j(a_j)
        for i in range(players - 1, -1, -1):
            offset -= actions[i]
            utilities[offset + digits[i]] += A[i, a] * (partial[i] * after)
            after *= strategies[offset + digits[i]]
        i = players - 1  # the next joint action
        while i >= 0:
            digits[i] += 1
            if digits[i] < actions[i]:
                break
            digits[i] = 0
            i -= 1


@part(**_PART_OF_N)
def player_sampled_vectors(A, actions, strategies, utilities, drawn, state, joint, track):
    """Each player draws ``a_i ~ s_i`` (player 1 first) and every player's payoff vector is its payoffs against the
    others' draws, ``u_i(k) = A[i, (k, a_-i)]``; with ``track`` the joint action's count ``J(a) += 1``."""
    players = actions.shape[0]
    index = 0  # the joint action a, in C order
    offset = 0
    for i in range(players):
        count = actions[i]
        drawn[i] = rng.sample_index(strategies[offset : offset + count], rng.next_uniform(state))
        index = index * count + drawn[i]
        offset += count
    if track:
        joint[0, index] += 1.0
    stride = 1  # how far apart player i's actions lie among the joint actions
    for i in range(players - 1, -1, -1):
        count = actions[i]
        offset -= count
        base = index - drawn[i] * stride
        for k in range(count):
            utilities[offset + k] = A[i, base + k * stride]
        stride *= count


@part(**_PART_OF_N)
def _pairs_start(s, player):
    """Where player ``player``'s a_i x a_i block starts in ``conditional_row`` and ``markov_row`` (each the blocks of
    every player, flattened; a view of a block is made where it is used: with ``_nrt=False`` a function returns no
    array it was not given)."""
    start = 0
    for i in range(player):
        start += s.actions[i] * s.actions[i]
    return start


@part(**_PART_OF_N)
def play_player(flags, s, player, offset, t, out):
    """``out = x_t`` of player ``player`` (numbered from 0), whose entries start at ``offset``: :func:`play_from`."""
    count = s.actions[player]
    end = offset + count
    start = _pairs_start(s, player)
    play_from(
        flags,
        s.regrets_row[offset:end],
        s.predictions_row[offset:end],
        s.scores_row[offset:end],
        s.log_start_row[offset:end],
        s.start_row[offset:end],
        s.conditional_row[0, start : start + count * count].reshape((count, count)),
        s.markov_row[0, start : start + count * count].reshape((count, count)),
        s.scratch_row[offset:end],
        s.steps,
        player,
        s.drawn,
        s.inertia,
        t,
        out,
    )


@part(**_PART_OF_N)
def learn_player(flags, s, player, offset, value):
    """Player ``player``'s update from its payoff vector (in ``row_utilities`` from ``offset``): :func:`learn_from`."""
    count = s.actions[player]
    end = offset + count
    start = _pairs_start(s, player)
    learn_from(
        flags,
        s.regrets_row[offset:end],
        s.predictions_row[offset:end],
        s.scores_row[offset:end],
        s.conditional_row[0, start : start + count * count].reshape((count, count)),
        s.scratch_row[offset:end],
        s.steps,
        player,
        s.x[offset:end],
        s.drawn,
        s.row_utilities[offset:end],
        value,
    )


@part(**_PART_OF_N)
def record_players(A, flags, s, iteration, record, k):
    """Row ``k`` of ``record`` for a game of n >= 3 players, as :func:`record_row` for two: current strategies (the
    next iteration's), averages, cumulative regrets, each player's best-response gain at the average profile (NaN for
    a fixed player) and the learners' sum NashConv (NaN for one learner), NashConv of the current profile (two
    learners or more), and the joint distribution of play where it is kept. A game of n players has no one game
    value, and its CE and CCE gaps are measured from the joint distribution outside the kernel: NaN here."""
    players = s.actions.shape[0]
    record.iteration[k] = iteration
    learners = 0
    offset = 0
    for i in range(players):
        end = offset + s.actions[i]
        if s.learning[i]:
            learners += 1
            play_player(flags, s, i, offset, iteration + 1, s.next_x[offset:end])
        else:
            for j in range(offset, end):
                s.next_x[j] = s.x[j]
        _average(s.strategy_sums_row[offset:end], s.weight_sum[0], s.avg_x[offset:end])
        offset = end
    record.nash_conv_current[k] = np.nan
    # NashConv sums the learning players' gains (the fixed players are part of the game the learners play), where two
    # or more learn; one learner's measure is its own gain, as against a fixed opponent of two-player games.
    for average in range(0 if learners > 1 else 1, 2):  # the current profile (two or more learners), then the average
        strategies = s.avg_x if average else s.next_x
        player_payoff_vectors(A, s.actions, strategies, s.row_utilities, s.digits, s.partial, s.joint, 0)
        total = 0.0
        offset = 0
        for i in range(players):
            end = offset + s.actions[i]
            utilities = s.row_utilities[offset:end]
            best = utilities[0]
            for j in range(utilities.shape[0]):
                best = utilities[j] if utilities[j] > best else best
            gain = max(best - _dot(strategies[offset:end], utilities), 0.0) if s.learning[i] else np.nan
            if s.learning[i]:
                total += gain
            if average:
                if i == 0:
                    record.br_gain_1[k] = gain
                elif i == 1:
                    record.br_gain_2[k] = gain
                else:
                    record.more_br_gains[k, i - 2] = gain
            offset = end
        if average:
            record.nash_conv[k] = total if learners > 1 else np.nan
        else:
            record.nash_conv_current[k] = total
    record.game_value[k] = np.nan
    elapsed = float(iteration) if iteration > 0 else 1.0
    width = record.current.shape[2]
    offset = 0
    for i in range(players):
        count = s.actions[i]
        for j in range(width):
            inside = j < count
            record.current[k, i, j] = s.next_x[offset + j] if inside else 0.0
            record.average[k, i, j] = s.avg_x[offset + j] if inside else 0.0
            record.regrets[k, i, j] = s.regrets_row[offset + j] if inside else 0.0
        regret = _max_positive(s.regrets_row[offset : offset + count]) / elapsed if s.learning[i] else np.nan
        if i == 0:
            record.average_regret_1[k] = regret
        elif i == 1:
            record.average_regret_2[k] = regret
        else:
            record.more_average_regrets[k, i - 2] = regret
        offset += count
    record.cce_gap[k], record.ce_gap[k], record.internal_regret[k] = np.nan, np.nan, np.nan
    total = s.joint_total[0]
    for a in range(record.joint.shape[2]):
        record.joint[k, 0, a] = s.joint[0, a] / total if (flags.track_joint and total > 0.0) else np.nan


@part(**_PART_OF_N)
def run_players(A, flags, s, first_iteration, last_iteration, checkpoints, record):
    """:func:`run_matrix` for a game of n >= 3 players: each iteration every learning player plays its strategy
    (:func:`play_from`), every player's payoff vector is computed against the others' strategies (or sampled draws),
    and each learning player updates (:func:`learn_from`) from it and its value, all simultaneously; a fixed player's
    strategy stays in ``x``."""
    written = np.int64(0)
    if first_iteration > last_iteration:
        if checkpoints.shape[0] == 0:
            return written
        record_players(A, flags, s, checkpoints[0], record, written)
        return written + 1
    players = s.actions.shape[0]
    sampled, track = flags.sampled, flags.track_joint
    for t in range(first_iteration, last_iteration + 1):
        offset = 0
        for i in range(players):
            end = offset + s.actions[i]
            if s.learning[i]:
                play_player(flags, s, i, offset, t, s.x[offset:end])
            offset = end
        if sampled:
            player_sampled_vectors(A, s.actions, s.x, s.row_utilities, s.drawn, s.rng, s.joint, track)
        else:
            player_payoff_vectors(A, s.actions, s.x, s.row_utilities, s.digits, s.partial, s.joint, track)
        if track:
            s.joint_total[0] += 1.0
        offset = 0
        for i in range(players):
            end = offset + s.actions[i]
            if s.learning[i]:
                utilities = s.row_utilities[offset:end]
                value = utilities[s.drawn[i]] if sampled else _dot(s.x[offset:end], utilities)
                learn_player(flags, s, i, offset, value)
            offset = end
        w = _weight(t, flags.averaging_power)
        _add_weighted(s.strategy_sums_row, s.x, w)
        s.weight_sum[0] += w
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            record_players(A, flags, s, t, record, written)
            written += 1
    return written


# -- the entry point -------------------------------------------------------------------------------


@njit(**_ENTRY)
def run_matrix(A, B, flag_fields, state_fields, first_iteration, last_iteration, checkpoints, record_fields):
    """Run iterations ``first_iteration .. last_iteration`` (inclusive) of the rule ``flags`` names, writing row ``k``
    of ``record`` after each iteration ``checkpoints[k]`` (increasing, all within the range); returns how many rows it
    wrote. With ``first_iteration > last_iteration`` it runs nothing and, given one checkpoint, records the state as
    it stands after that iteration (a snapshot: what ``metrics()`` and ``history()`` read).

    A fixed opponent keeps ``y`` (``state.y``) constant, and only the row player learns. The records
    (:class:`MatrixFlags`, :class:`MatrixState`, :class:`MatrixRecord`) come as plain tuples of their fields: numba
    types a plain tuple of arrays in C, a NamedTuple in Python, array by array (a cost on every call).
    """
    flags, s = MatrixFlags(*flag_fields), MatrixState(*state_fields)
    record = MatrixRecord(*record_fields)
    if s.actions.shape[0] > 2:  # (three players or more: A holds every player's payoffs, B is unused)
        return run_players(A, flags, s, first_iteration, last_iteration, checkpoints, record)
    written = np.int64(0)  # (not the literal 0: numba would compile the checkpoint twice, for a literal and an int64)
    if first_iteration > last_iteration:
        if checkpoints.shape[0] == 0:
            return 0
        record_row(A, B, flags, s, checkpoints[0], record, written)
        return written + 1
    if flags.fixed_opponent and not flags.sampled:
        row_utilities_against(A, s.y, s.fixed_row_utilities)  # the opponent never moves: A y is the same throughout
    fixed, alternating, zero_sum = flags.fixed_opponent, flags.alternating, flags.zero_sum
    sampled, power, track = flags.sampled, flags.averaging_power, flags.track_joint
    for t in range(first_iteration, last_iteration + 1):
        if flags.algorithm == EXTRAGRADIENT_RM_PLUS:  # (two evaluations an iteration: an iteration of its own)
            _extragradient_iteration(A, B, flags, s, t)
            if written < checkpoints.shape[0] and checkpoints[written] == t:
                record_row(A, B, flags, s, t, record, written)
                written += 1
            continue
        for player in range(1 if fixed else 2):
            if player == 0 and alternating and not fixed and t > 1:
                # (x_t was played at the end of iteration t - 1, for the column player's answer: the same numbers)
                for i in range(s.x.shape[0]):
                    s.x[i] = s.next_x[i]
            else:
                play(flags, s, player, t, s.x if player == 0 else s.y)
        # The row player's payoff vector u1 and value v1; in simultaneous self-play the column player's with them.
        a = 0
        b = 0
        v2 = 0.0
        if sampled:
            a = rng.sample_index(s.x, rng.next_uniform(s.rng))
            b = rng.sample_index(s.y, rng.next_uniform(s.rng))
            s.drawn[0], s.drawn[1], s.drawn[2] = a, b, a
            _sampled_row_utilities(A, b, s.row_utilities)
            row_utilities = s.row_utilities
            v1 = row_utilities[a]
            if not (fixed or alternating):
                _sampled_col_utilities(A, B, zero_sum, a, s.col_utilities)
                v2 = s.col_utilities[b]
        elif fixed:
            row_utilities = s.fixed_row_utilities  # (A y, computed once: the opponent never moves)
            v1 = _dot(s.x, row_utilities)
        elif alternating:
            row_utilities_against(A, s.y, s.row_utilities)
            row_utilities = s.row_utilities
            v1 = _dot(s.x, row_utilities)
        else:
            if track:
                payoff_vectors_and_joint(A, B, zero_sum, s.x, s.y, s.row_utilities, s.col_utilities, s.joint)
            else:
                payoff_vectors(A, B, zero_sum, s.x, s.y, s.row_utilities, s.col_utilities)
            row_utilities = s.row_utilities
            v1 = _dot(s.x, row_utilities)
            # x^T B y = -x^T A y in a zero-sum game: one dot product fewer on the critical path.
            v2 = -v1 if zero_sum else _dot(s.y, s.col_utilities)
        if track:  # the joint play (x_t, y_t), or sampled (a, b); simultaneous expected play adds it above
            if sampled:
                s.joint[a, b] += 1.0
            elif fixed or alternating:
                _add_joint(s.joint, s.x, s.y)
            s.joint_total[0] += 1.0
        learn(flags, s, 0, row_utilities, v1)
        if not fixed:
            if alternating:
                # The column player answers the row player's new strategy x_{t+1} (sampled: a fresh draw from it).
                play(flags, s, 0, t + 1, s.next_x)
                if sampled:
                    fresh = rng.sample_index(s.next_x, rng.next_uniform(s.rng))
                    s.drawn[2] = fresh
                    _sampled_col_utilities(A, B, zero_sum, fresh, s.col_utilities)
                    v2 = s.col_utilities[b]
                else:
                    col_utilities_against(A, B, zero_sum, s.next_x, s.col_utilities)
                    v2 = _dot(s.y, s.col_utilities)
            learn(flags, s, 1, s.col_utilities, v2)
        w = _weight(t, power)
        _add_weighted(s.strategy_sums_row, s.x, w)
        if not fixed:
            _add_weighted(s.strategy_sums_col, s.y, w)
        s.weight_sum[0] += w
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            record_row(A, B, flags, s, t, record, written)
            written += 1
    return written
