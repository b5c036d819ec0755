"""Numba kernels: pure loops over arrays they are given, and the records (NamedTuples of arrays) they take.

No validation, no allocation in hot loops. Everything jitted that calls each other lives in this one file, because
numba's on-disk cache does not notice edits to jitted callees in other modules; for the same reason the records a
kernel builds (:class:`TreeArrays`, :class:`CFRState`) are defined here. The public wrappers in ``matrix.py`` and
``cfr.py`` validate input, allocate these arrays and read the results; ``_runtime.py`` decides which kernel runs a
call (compiled, the general matrix kernel, or this file run as plain Python).
"""

from __future__ import annotations

import decimal
import functools
import math
from typing import NamedTuple

import numba
import numpy as np
from llvmlite import ir as llvmlite_ir
from numba.extending import intrinsic

#: The module name of this file loaded again as plain Python (``rmcore._runtime.python_twin``).
TWIN_SUFFIX = "_python_twin"

if __name__.endswith(TWIN_SUFFIX):  # this file loaded again by python_twin(): plain Python

    def njit(*function, **options):
        return function[0] if function else (lambda kernel: kernel)

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
    njit = numba.njit

    @intrinsic
    def fused_multiply_add(typing_context, a, b, c):
        """``a * b + c`` rounded once (``llvm.fma``: the processor's FMA instruction, or the C library's ``fma`` where
        it has none). numba offers no fma, and its ``contract`` flag leaves fusing to LLVM's choice, so the plain-Python
        twin could not know which products were fused."""
        double = llvmlite_ir.DoubleType()

        def codegen(context, builder, signature, arguments):
            fma = builder.module.declare_intrinsic("llvm.fma", [double], llvmlite_ir.FunctionType(double, [double] * 3))
            return builder.call(fma, arguments)

        return numba.types.float64(numba.types.float64, numba.types.float64, numba.types.float64), codegen


# Small per-iteration helpers are inlined at numba's IR level: with the variant flags as runtime
# values their bodies grow past LLVM's inlining threshold, and a call per helper doubled the cost
# of a 3x3 iteration (measured: 58 ns inlined against 97-169 ns not).
_INLINE = dict(cache=True, error_model="numpy", inline="always")
# Functions called from Python release the GIL while they run (nogil): the sessions of a class on one
# server then run their solver chunks on every core at once, instead of one after another.
_ENTRY = dict(cache=True, error_model="numpy", nogil=True)
# The tree kernels (a CFR iteration's passes, Monte Carlo CFR, MMD, the best responses and the metrics) allocate
# nothing and are handed arrays that outlive them, so they run without numba's reference counting (``_nrt=False``, as
# the matrix kernels do, see ``_kernel_of``): with it, each pass took and released a reference to every array of the
# tree and the state it touched, atomically, and perf put 54% of a Kuhn CFR+ iteration in those two instructions.
# Without it, Kuhn CFR+ takes 1.0 us an iteration rather than 3.0, Leduc 0.12 ms rather than 0.24
# (``python -m rmcore bench``).
_TREE_PASS = dict(_ENTRY, _nrt=False)

# Integer codes of a matrix rule's strategy map, shared with the wrappers (``MatrixFlags.algorithm``); optimism
# (a prediction of the next payoff counted once more) is a flag of its own, ``MatrixFlags.optimistic``, so that
# predictive RM+ is RM_PLUS with the flag and optimistic Hedge / GDA are HEDGE / GDA with it.
RM, RM_PLUS, HEDGE, GDA, FICTITIOUS_PLAY = 0, 1, 2, 3, 4

# ---------------------------------------------------------------------------------------
# Random numbers: xoshiro256+ (Blackman & Vigna 2018), kept in the solver's state so that a
# run split into any chunks draws exactly the same numbers. All arithmetic stays in uint64:
# numba types uint64 + int64 as float64, which would silently ruin the generator.

_U11 = np.uint64(11)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


@njit(cache=True, error_model="numpy", inline="always")
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@njit(**_ENTRY)
def next_uniform(rng):
    """Advance the xoshiro256+ state ``rng`` (4 x uint64) and return a float in [0, 1)."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = s0 + s3
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _U45)
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    return float(result >> _U11) * _TWO_POW_MINUS_53


@njit(**_ENTRY)
def fill_uniforms(rng, out):
    """Fill ``out`` with the next ``len(out)`` uniforms of ``rng`` (for tests and baselines)."""
    for k in range(out.shape[0]):
        out[k] = next_uniform(rng)


@njit(**_INLINE)
def sample_index(probabilities, u):
    """Inverse-CDF sample: the first index whose running sum exceeds ``u``."""
    n = probabilities.shape[0]
    running = 0.0
    for k in range(n):
        running += probabilities[k]
        if u < running:
            return k
    # Rounding can leave the total a hair below u; fall back to the last action in support.
    for k in range(n - 1, -1, -1):
        if probabilities[k] > 0.0:
            return k
    return n - 1


# ---------------------------------------------------------------------------------------
# Regret matching on matrix games

# The matrix kernels may reassociate sums so LLVM can vectorise the row dot products, and may
# multiply by a reciprocal instead of dividing ("arcp": one division per strategy instead of one
# per action, 1 ns of a 3x3 iteration); this changes results only in the last bits and never
# their reproducibility.
_MATRIX_PASS = dict(cache=True, error_model="numpy", nogil=True, fastmath={"reassoc", "contract", "arcp"})
# The passes are inlined into the kernels too: a call in the hot loop costs more than a 3x3 pass,
# and an array handed to a call could be changed by it, as far as LLVM knows.
_INLINE_PASS = dict(_MATRIX_PASS, inline="always")
# A kernel's loop over iterations is a function of its own, called once per chunk: a kernel passes its flags as
# constants, numba compiles the loop for those values (as literal types, which it lowers as constants) and LLVM folds
# every flag test away, so that a 3x3 RM iteration takes the same 29-30 ns as with the loop inlined. Inlined at numba's
# level it cost 20 s of a kernel's 34 s compile: numba's inliner deep-copies the callee's IR block by block, each block
# with the callee's whole table of variables, so the copy grows with the square of the loop's size (every rule's
# play and update inlined into it). The loops allocate nothing, hence no reference counting (see ``_kernel_of``).
_LOOP = dict(_MATRIX_PASS, _nrt=False)


class MatrixState(NamedTuple):
    """Everything a matrix-game run carries from one iteration to the next."""

    # Cumulative regrets R (clipped at 0 for RM+ / PRM+), kept for every rule: external regret max_a R_T(a) is
    # defined whatever the rule, and the regret chart draws it.
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
    external_row: np.ndarray  # sum_t of unclipped regrets against the joint play, for the CCE gap
    external_col: np.ndarray
    weight_sum: np.ndarray  # shape (1,): sum_t w_t
    rng: np.ndarray  # xoshiro256+ state, 4 x uint64
    # constants of a run
    steps: np.ndarray  # [eta_row, eta_col, anytime]: the step eta, or with anytime = 1 Hedge's eta_t = eta / sqrt(t)
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
    # What the last sampled iteration drew: the row player's action, the column player's, and the
    # row player's fresh draw from x_{t+1} that the column player's alternating update met; -1 unsampled.
    drawn: np.ndarray


class MatrixFlags(NamedTuple):
    """One variant of a learning rule on a matrix game, as plain values.

    The same record is the key under which its kernel is compiled (:func:`make_matrix_kernel`
    bakes the values in as constants) and the argument :func:`record_checkpoint` reads at run time.
    Step sizes are not flags: they are numbers in the state (``MatrixState.steps``), so a new ``eta``
    needs no compile.
    """

    algorithm: int  # the strategy map: RM, RM_PLUS, HEDGE, GDA or FICTITIOUS_PLAY
    optimistic: bool  # count a prediction of the next round once more (PRM+, optimistic Hedge, optimistic GDA)
    sampled: bool
    alternating: bool
    averaging_power: int  # w_t = t ** averaging_power: 0 uniform, 1 linear, 2 quadratic
    fixed_opponent: bool  # only the row player learns; y is fixed
    zero_sum: bool  # B = -A: one pass over A gives both players' utilities
    track_external: bool  # keep the unclipped regret sums for the CCE gap


class MatrixRecord(NamedTuple):
    """History rows of a matrix-game run, one array per quantity (``k`` rows)."""

    iteration: np.ndarray  # [k] int64
    current: np.ndarray  # [k, 2, w] the strategies the next iteration plays, zero-padded to w = max(m, n)
    average: np.ndarray  # [k, 2, w]
    regrets: np.ndarray  # [k, 2, w] cumulative regrets R per player (zero for a fixed opponent)
    br_gain_row: np.ndarray  # [k] best-response gains of the average profile
    br_gain_col: np.ndarray  # NaN against a fixed opponent
    average_regret_row: np.ndarray  # [k] max_a R(a)^+ / t
    average_regret_col: np.ndarray
    value: np.ndarray  # [k] x^T A y of the averages
    cce_gap: np.ndarray  # [k] largest external regret per iteration (general-sum self-play), else NaN
    nash_conv_current: np.ndarray  # [k] g1 + g2 of the current profile (self-play), else NaN


def empty_matrix_record(rows: int, m: int, n: int) -> MatrixRecord:
    """Room for ``rows`` history rows of an m x n game."""
    w = max(m, n)
    return MatrixRecord(
        np.zeros(rows, dtype=np.int64),
        np.zeros((rows, 2, w)),
        np.zeros((rows, 2, w)),
        np.zeros((rows, 2, w)),
        *(np.zeros(rows) for _ in range(7)),
    )


@njit(**_INLINE)
def _normalise_positive_part(values, out):
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


@njit(**_INLINE)
def regret_matching(regrets, prediction, optimistic, out):
    """``out = RM(R)``: ``max(R_i, 0) / sum_j max(R_j, 0)``, uniform when nothing is positive.

    Optimistic (predictive RM+) shifts the regrets by the prediction ``m = r_{t-1}`` first
    (``out`` doubles as the scratch space for ``R + m``).
    """
    if optimistic:
        for i in range(regrets.shape[0]):
            out[i] = regrets[i] + prediction[i]
        _normalise_positive_part(out, out)
    else:
        _normalise_positive_part(regrets, out)


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


# The exponential is strict arithmetic: "reassoc" may fold (z + shift) - shift back to z or merge the two parts of
# ln(2) / N, and "contract" would leave it to LLVM which products to fuse, a choice the plain-Python twin cannot know:
# the multiply-adds it fuses are written out (fused_multiply_add). So it is not inlined at numba's level, where it would
# take its caller's fastmath flags, and it says fastmath=False: a function that leaves fastmath unset inherits its
# caller's flags when numba compiles it for that call, and numba's cache then serves that build to every caller. LLVM
# inlines it instead, where each instruction keeps its own flags.
_STRICT = dict(cache=True, error_model="numpy", fastmath=False)


@njit(**_STRICT)
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


@njit(**_STRICT)
def softmax_weight(shifted):
    """``e^s`` for a logit less the largest (``s <= 0``), within 0.501 of a unit in the last place down to ``2^-1022``,
    and 0 where ``e^s < 2^-1022`` (:func:`_exp_parts` computes it; ``tests/test_softmax_weight.py`` measures it).

    Why not the C library's ``exp``, which numba calls for ``np.exp`` and ``math.exp``: the call cannot be inlined, a
    call in a loop makes the loop keep its running values and constants in memory (every vector register is the
    callee's to change), and a Hedge run that drifts to the boundary sends many exps through the library's underflow
    path, which sets ``errno``. The results equal the C library's in all but about one input in 2000, and differ by one
    unit in the last place there, where the exact value lies near halfway between two doubles and the library is as
    far from it.

    A weight under ``2^-1022`` would be a subnormal number, which costs a microcode assist (a hundred cycles and more)
    in every operation that touches it: a probability that small is 0 here. The argument is never positive, so ``2^q``
    is one normal double. ``-inf`` (the logit of an action the start excludes) gives 0; a NaN stays a NaN.
    """
    # (Clamped so that every number on the way is finite, as the plain-Python twin wants it: one maxsd.)
    q, table_bits, rest = _exp_parts(-745.0 if shifted < -745.0 else shifted)
    scale = np.int64(table_bits + (q << 52)).view(np.float64)
    weight = fused_multiply_add(scale, rest, scale)
    return 0.0 if shifted < _LOG_SMALLEST_NORMAL else weight


@njit(**_INLINE)
def _hedge_step(steps, player, t):
    """Hedge's step ``eta_t``: the constant ``eta``, or with the anytime schedule ``eta / sqrt(t)``.

    The division and the square root only when the schedule asks for them (``eta / 1.0`` was the same number, a
    division later).
    """
    eta = steps[player]
    if steps[2] != 0.0:
        eta = eta / np.sqrt(float(t))
    return eta


@njit(**_INLINE)
def _logit(scores, prediction, optimistic, log_start, eta, i):
    """``eta * (U_i + m_i) + ln x_1(i)``, Hedge's logit of action ``i``."""
    if optimistic:
        return eta * (scores[i] + prediction[i]) + log_start[i]
    return eta * scores[i] + log_start[i]


@njit(**_INLINE)
def _logits(scores, prediction, optimistic, log_start, eta, out):
    """``out = eta * (U + m) + ln x_1``, Hedge's logits; returns their maximum."""
    best = -np.inf
    for i in range(scores.shape[0]):
        logit = _logit(scores, prediction, optimistic, log_start, eta, i)
        out[i] = logit
        best = logit if logit > best else best
    return best


@njit(**_INLINE)
def _exponentiate(best, out):
    """``out <- exp(out - best) / sum_j exp(out_j - best)``, the logits in ``out`` turned into a strategy."""
    n = out.shape[0]
    total = 0.0
    for i in range(n):
        weight = softmax_weight(out[i] - best)
        out[i] = weight
        total += weight
    scale = 1.0 / total
    for i in range(n):
        out[i] = out[i] * scale


@njit(**_INLINE)
def _softmax(scores, prediction, optimistic, log_start, eta, out):
    """Hedge's ``out ∝ x_1 * exp(eta * (U + m))``: the logits less their maximum, so that no exp overflows.

    Without a start ``log_start`` is 0 (adding 0.0 changes no bit); an action the start excludes has ``-inf``.
    """
    if out.shape[0] == 3:
        _softmax_three(scores, prediction, optimistic, log_start, eta, out)
    else:
        _exponentiate(_logits(scores, prediction, optimistic, log_start, eta, out), out)


@njit(**_INLINE)
def _softmax_three(scores, prediction, optimistic, log_start, eta, out):
    """:func:`_softmax` for three actions: :func:`_weights_of_logits_three`, each weight times ``1 / total``."""
    weights, scale = _weights_of_logits_three(_logits_three(scores, prediction, optimistic, log_start, eta))
    _store_three(out, _scaled_three(weights, scale))


@njit(**_INLINE)
def _logits_three(scores, prediction, optimistic, log_start, eta):
    """Hedge's three logits (:func:`_logit`), from arrays or from values held in tuples."""
    return (
        _logit(scores, prediction, optimistic, log_start, eta, 0),
        _logit(scores, prediction, optimistic, log_start, eta, 1),
        _logit(scores, prediction, optimistic, log_start, eta, 2),
    )


@njit(**_INLINE)
def _weights_of_logits_three(logits):
    """The weights ``e^(logit - max)`` of three logits, unnormalised, and ``1 / total``. Two exponentials: the
    largest logit's weight is ``e^0 = 1`` exactly, so only the other two are computed, and each weight is put back in
    its place before the sum, which adds in the same order (the same bits as three exponentials;
    ``tests/test_softmax_weight.py``)."""
    first, second, third = logits
    best = max(max(first, second), third)
    first_is_best = first == best
    second_is_best = second == best  # (used only when the first is not the best)
    third_is_best = not (first_is_best or second_is_best)
    earlier = softmax_weight((second if first_is_best else first) - best)  # the lower index of the other two
    later = softmax_weight((second if third_is_best else third) - best)
    first = 1.0 if first_is_best else earlier
    second = earlier if first_is_best else (1.0 if second_is_best else later)
    third = 1.0 if third_is_best else later
    return (first, second, third), 1.0 / (first + second + third)


@njit(**_INLINE)
def _fictitious_play(scores, start, t, out):
    """``out = e_i`` with ``i = argmax U_i`` (ties to the lowest index), or the start at ``t = 1``.

    Without branches: an array whose last use sits in one arm of a branch left numba's reference counting in the hot
    loop (atomic increments, decrements: 187 ns a 3x3 iteration against 25 ns for RM).
    """
    best = 0
    top = scores[0]
    for i in range(1, scores.shape[0]):
        better = scores[i] > top
        best = i if better else best
        top = scores[i] if better else top
    first = 1.0 if t == 1 else 0.0  # (a select: no array is last used in either arm)
    for i in range(scores.shape[0]):
        out[i] = first * start[i] + (1.0 - first) * (1.0 if i == best else 0.0)


@njit(**_INLINE)
def project_onto_simplex(values, scratch):
    """``values <- argmin_{x in simplex} |x - values|`` in place, by sorting (Duchi, Shalev-Shwartz, Singer & Chandra
    2008, "Efficient projections onto the l1-ball", Fig. 1): with ``mu`` the values sorted in decreasing order,
    ``rho = max{j : mu_j - (sum_{r<=j} mu_r - 1) / j > 0}``, ``theta = (sum_{r<=rho} mu_r - 1) / rho`` and
    ``x_i = max(v_i - theta, 0)``. ``scratch`` (as long as ``values``) holds the sorted copy."""
    n = values.shape[0]
    if n == 3:
        _project_three(values)
        return
    for i in range(n):
        scratch[i] = values[i]
    # Sorted ascending by insertion sort, which for a handful of actions beats a call to numba's quicksort (quadratic
    # in the actions, like one pass over A).
    for i in range(1, n):
        value = scratch[i]
        j = i - 1
        while j >= 0 and scratch[j] > value:
            scratch[j + 1] = scratch[j]
            j -= 1
        scratch[j + 1] = value
    running = 0.0
    theta = 0.0
    for k in range(n):  # mu_{k+1} = scratch[n - 1 - k]; the condition holds exactly for j = 1 .. rho
        mu = scratch[n - 1 - k]
        running += mu
        candidate = (running - 1.0) / (k + 1)
        theta = candidate if mu - candidate > 0.0 else theta
    for i in range(n):
        shifted = values[i] - theta
        values[i] = shifted if shifted > 0.0 else 0.0


@njit(**_INLINE)
def _project_three(values):
    """:func:`project_onto_simplex` for three actions, in registers: sorted by three compare-exchanges (a min and a max
    each, no branch on the data), and divided by the constants 2 and 3, which the kernels' "arcp" makes multiplications
    (a division is the longest step of an iteration's chain). The RPS family of the lessons has three actions; the
    benchmark's 3x3 rows (``python -m rmcore bench``) give GDA's time per iteration beside RM's."""
    first, second, third = values[0], values[1], values[2]
    low, middle = min(first, second), max(first, second)
    middle, high = min(middle, third), max(middle, third)
    low, middle = min(low, middle), max(low, middle)
    # theta for rho = 1 always holds (mu_1 - (mu_1 - 1) = 1 > 0); rho = 2 and 3 where their condition does.
    theta = high - 1.0
    two = (high + middle - 1.0) / 2.0
    theta = two if middle - two > 0.0 else theta
    three = (high + middle + low - 1.0) / 3.0
    theta = three if low - three > 0.0 else theta
    first, second, third = first - theta, second - theta, third - theta
    values[0] = first if first > 0.0 else 0.0
    values[1] = second if second > 0.0 else 0.0
    values[2] = third if third > 0.0 else 0.0


@njit(**_INLINE)
def play(algorithm, optimistic, regrets, predictions, scores, log_start, start, steps, player, t, out):
    """``out = x_t``, the strategy iteration ``t`` (>= 1) plays, from the state after iteration ``t - 1``.

    RM / RM+: ``RM(R)`` (optimistic: ``RM(R + r_{t-1})``); Hedge: ``x_t ∝ x_1 exp(eta_t U_{t-1})`` (optimistic:
    ``U_{t-1} + u_{t-1}``), ``eta_t`` the constant ``eta`` or the anytime ``eta / sqrt(t)``; GDA: its iterate;
    fictitious play: the start at ``t = 1``, then ``e_argmax U_{t-1}``.
    """
    if algorithm == HEDGE:
        _softmax(scores, predictions, optimistic, log_start, _hedge_step(steps, player, t), out)
    elif algorithm == GDA:
        for i in range(out.shape[0]):
            out[i] = scores[i]
    elif algorithm == FICTITIOUS_PLAY:
        _fictitious_play(scores, start, t, out)
    else:
        regret_matching(regrets, predictions, optimistic, out)


@njit(**_INLINE)
def learn(algorithm, optimistic, regrets, predictions, scores, utilities, value, steps, player, scratch):
    """One player's update from this round's payoff vector ``u`` and value ``v``.

    Every rule keeps ``R += u - v`` (RM+ and PRM+ clip it at 0). Hedge and fictitious play add ``U += u``; GDA steps
    ``x <- Proj(x + eta u)`` (optimistic: ``Proj(x + eta (2 u - u_{t-1}))``). The optimistic rules keep the
    prediction of the next round: ``r_t = u - v`` for PRM+, ``u`` for Hedge and GDA.
    """
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
    # (One loop: with a loop each for the regrets, the scores and the prediction, 3x3 optimistic Hedge took 55 ns an
    # iteration rather than 51.)
    for k in range(n):
        regrets[k] += utilities[k] - value
        scores[k] += utilities[k]
        if optimistic:
            predictions[k] = utilities[k]


@njit(**_INLINE_PASS)
def _payoff_vectors_three(row_payoffs, col_payoffs, zero_sum, x, y, row_utilities, col_utilities):
    """:func:`payoff_vectors` for three columns, the sums in registers."""
    y0, y1, y2 = y[0], y[1], y[2]
    col0 = col1 = col2 = 0.0
    for i in range(row_payoffs.shape[0]):
        a0, a1, a2 = row_payoffs[i, 0], row_payoffs[i, 1], row_payoffs[i, 2]
        row_utilities[i] = a0 * y0 + a1 * y1 + a2 * y2
        weight = x[i]
        if zero_sum:
            col0 -= weight * a0
            col1 -= weight * a1
            col2 -= weight * a2
        else:
            col0 += weight * col_payoffs[i, 0]
            col1 += weight * col_payoffs[i, 1]
            col2 += weight * col_payoffs[i, 2]
    col_utilities[0], col_utilities[1], col_utilities[2] = col0, col1, col2


#: From this many columns on, :func:`payoff_vectors` sums a row and updates the column sums in one loop. Such a loop is
#: vectorised behind LLVM's run-time check that its stores (the column sums) lie at least a few vectors' width
#: (up to 4 x 8 doubles with AVX-512) past its loads; its scalar fallback adds the row's terms in another order under
#: "reassoc", so where the check fails the results depend on where the state arrays happen to lie. Arrays of this many
#: doubles lie that far apart whenever they are distinct, so the check cannot fail.
_FUSED_FROM_COLUMNS = 64


@njit(**_INLINE_PASS)
def payoff_vectors(row_payoffs, col_payoffs, zero_sum, x, y, row_utilities, col_utilities):
    """``row_utilities = A y`` and ``col_utilities = x^T B`` in a single pass over the matrix's rows.

    - Three columns (the lessons' RPS family): the three column sums and ``y`` stay in registers
      (:func:`_payoff_vectors_three`); a value stored to an array and loaded back for the next row waits for its store.
    - Fewer than :data:`_FUSED_FROM_COLUMNS` columns: :func:`row_utilities_against`, whose inner loop only reads, and
      :func:`col_utilities_against`, whose inner loop sums nothing, so that no loop both sums and stores and the
      results do not depend on the arrays' addresses
      (``tests/test_kernel_fallback.py::test_results_do_not_depend_on_array_addresses``).
    - More: one loop does both, and the row is read from memory once (a large matrix is read at memory speed, and two
      loops read it 1.4x slower at 1000x1000).

    The column sums start from the first row's terms rather than from zeros: LLVM turns a loop that writes zeros into
    a call to ``memset``, and a call in the hot loop sends every live vector register to memory and back.
    """
    m, n = row_payoffs.shape
    if n == 3:
        _payoff_vectors_three(row_payoffs, col_payoffs, zero_sum, x, y, row_utilities, col_utilities)
        return
    if n < _FUSED_FROM_COLUMNS:
        row_utilities_against(row_payoffs, y, row_utilities)
        col_utilities_against(row_payoffs, col_payoffs, zero_sum, x, col_utilities)
        return
    for i in range(m):
        weight = x[i]
        total = 0.0
        if zero_sum:
            for j in range(n):
                payoff = row_payoffs[i, j]
                total += payoff * y[j]
                col_utilities[j] = -(weight * payoff) if i == 0 else col_utilities[j] - weight * payoff
        else:
            for j in range(n):
                total += row_payoffs[i, j] * y[j]
                col_utilities[j] = (
                    weight * col_payoffs[i, j] if i == 0 else col_utilities[j] + weight * col_payoffs[i, j]
                )
        row_utilities[i] = total


@njit(**_INLINE_PASS)
def row_utilities_against(row_payoffs, y, out):
    """``out = A y``."""
    m, n = row_payoffs.shape
    for i in range(m):
        total = 0.0
        for j in range(n):
            total += row_payoffs[i, j] * y[j]
        out[i] = total


@njit(**_INLINE_PASS)
def col_utilities_against(row_payoffs, col_payoffs, zero_sum, x, out):
    """``out = x^T B`` (from the first row's terms, not from zeros: see :func:`payoff_vectors`)."""
    m, n = row_payoffs.shape
    for i in range(m):
        weight = x[i]
        if zero_sum:
            for j in range(n):
                payoff = row_payoffs[i, j]
                out[j] = -(weight * payoff) if i == 0 else out[j] - weight * payoff
        else:
            for j in range(n):
                out[j] = weight * col_payoffs[i, j] if i == 0 else out[j] + weight * col_payoffs[i, j]


@njit(**_INLINE)
def _dot(a, b):
    total = 0.0
    for k in range(a.shape[0]):
        total += a[k] * b[k]
    return total


@njit(**_INLINE)
def _add_external(external, utilities, value):
    for k in range(external.shape[0]):
        external[k] += utilities[k] - value


@njit(**_INLINE)
def _add_weighted(sums, strategy, weight):
    for k in range(sums.shape[0]):
        sums[k] += weight * strategy[k]


@njit(**_ENTRY)
def _average(sums, weight_sum, out):
    n = sums.shape[0]
    if weight_sum > 0.0:
        for k in range(n):
            out[k] = sums[k] / weight_sum
    else:
        for k in range(n):
            out[k] = 1.0 / n


@njit(**_ENTRY)
def _max_positive(values):
    best = 0.0
    for k in range(values.shape[0]):
        if values[k] > best:
            best = values[k]
    return best


@njit(**_MATRIX_PASS)
def best_response_gains(row_payoffs, col_payoffs, zero_sum, x, y, row_utilities, col_utilities):
    """``(g1, g2, value)`` for the profile (x, y): each player's gain from a best response, and x^T A y.

    ``g1 = max_i (A y)_i - x^T A y`` and ``g2 = max_j (x^T B)_j - x^T B y``; both are >= 0 in exact
    arithmetic and are clipped at 0 against rounding.
    """
    payoff_vectors(row_payoffs, col_payoffs, zero_sum, x, y, row_utilities, col_utilities)
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
    gain_row = best_row - value_row
    gain_col = best_col - value_col
    return max(gain_row, 0.0), max(gain_col, 0.0), value_row


@njit(**_ENTRY)
def record_checkpoint(row_payoffs, col_payoffs, variant, state, iteration, record, k):
    """Write row ``k`` of ``record``: the state after ``iteration`` iterations.

    Current strategies are the ones the next iteration plays (:func:`play` at ``iteration + 1``); averages are
    ``S / sum_t w_t`` (uniform before the first iteration). Uses the state's work arrays as scratch.
    """
    m = state.x.shape[0]
    n = state.y.shape[0]
    algorithm, optimistic = variant.algorithm, variant.optimistic
    record.iteration[k] = iteration
    play(
        algorithm,
        optimistic,
        state.regrets_row,
        state.predictions_row,
        state.scores_row,
        state.log_start_row,
        state.start_row,
        state.steps,
        0,
        iteration + 1,
        state.next_x,
    )
    for i in range(m):
        record.current[k, 0, i] = state.next_x[i]
    if not variant.fixed_opponent:  # (in self-play y is a work array; a fixed opponent's y is its strategy)
        play(
            algorithm,
            optimistic,
            state.regrets_col,
            state.predictions_col,
            state.scores_col,
            state.log_start_col,
            state.start_col,
            state.steps,
            1,
            iteration + 1,
            state.y,
        )
    for j in range(n):
        record.current[k, 1, j] = state.y[j]
    if variant.fixed_opponent:
        record.nash_conv_current[k] = np.nan
    else:
        gain_row, gain_col, _ = best_response_gains(
            row_payoffs, col_payoffs, variant.zero_sum, state.next_x, state.y, state.row_utilities, state.col_utilities
        )
        record.nash_conv_current[k] = gain_row + gain_col
    weight_sum = state.weight_sum[0]
    _average(state.strategy_sums_row, weight_sum, state.avg_x)
    if variant.fixed_opponent:
        for j in range(n):
            state.avg_y[j] = state.y[j]
    else:
        _average(state.strategy_sums_col, weight_sum, state.avg_y)
    for i in range(m):
        record.average[k, 0, i] = state.avg_x[i]
    for j in range(n):
        record.average[k, 1, j] = state.avg_y[j]
    for i in range(m):
        record.regrets[k, 0, i] = state.regrets_row[i]
    for j in range(n):
        record.regrets[k, 1, j] = state.regrets_col[j]
    elapsed = float(iteration) if iteration > 0 else 1.0  # R = 0 before the first iteration
    gain_row, gain_col, value = best_response_gains(
        row_payoffs, col_payoffs, variant.zero_sum, state.avg_x, state.avg_y, state.row_utilities, state.col_utilities
    )
    record.br_gain_row[k] = gain_row
    record.br_gain_col[k] = np.nan if variant.fixed_opponent else gain_col
    record.average_regret_row[k] = _max_positive(state.regrets_row) / elapsed
    record.average_regret_col[k] = np.nan if variant.fixed_opponent else _max_positive(state.regrets_col) / elapsed
    record.value[k] = value
    if variant.track_external:
        record.cce_gap[k] = max(_max_positive(state.external_row), _max_positive(state.external_col)) / elapsed
    else:
        record.cce_gap[k] = np.nan


@njit(**_INLINE)
def _weight(t, averaging_power):
    if averaging_power == 0:
        return 1.0
    if averaging_power == 1:
        return float(t)
    return float(t) * float(t)


@njit(**_INLINE)
def _sampled_row_utilities(A, b, out):
    for i in range(A.shape[0]):
        out[i] = A[i, b]


@njit(**_INLINE)
def _sampled_col_utilities(A, B, zero_sum, a, out):
    if zero_sum:
        for j in range(A.shape[1]):
            out[j] = -A[a, j]
    else:
        for j in range(A.shape[1]):
            out[j] = B[a, j]


@njit(**_INLINE)
def _three(values):
    return values[0], values[1], values[2]


@njit(**_INLINE)
def _store_three(values, three):
    values[0], values[1], values[2] = three


@njit(**_INLINE)
def _scaled_three(values, scale):
    return values[0] * scale, values[1] * scale, values[2] * scale


@njit(**_INLINE)
def _plus_three(values, others):
    return values[0] + others[0], values[1] + others[1], values[2] + others[2]


@njit(**_INLINE)
def _plus_weighted_three(sums, weight, strategy):
    """``sums + w x`` (as :func:`_add_weighted`)."""
    return sums[0] + weight * strategy[0], sums[1] + weight * strategy[1], sums[2] + weight * strategy[2]


@njit(**_INLINE)
def _plus_regrets_three(values, utilities, value):
    """``values + (u - v)`` (as :func:`_add_external` and ``learn``'s regrets)."""
    return values[0] + (utilities[0] - value), values[1] + (utilities[1] - value), values[2] + (utilities[2] - value)


@njit(**_INLINE)
def _dot_three(a, b):
    return 0.0 + a[0] * b[0] + a[1] * b[1] + a[2] * b[2]  # (as _dot)


@njit(**_INLINE)
def _times_columns_three(rows, weights, scale):
    """``(M w) scale`` for the rows of a 3x3 matrix held in a tuple."""
    return (
        (rows[0][0] * weights[0] + rows[0][1] * weights[1] + rows[0][2] * weights[2]) * scale,
        (rows[1][0] * weights[0] + rows[1][1] * weights[1] + rows[1][2] * weights[2]) * scale,
        (rows[2][0] * weights[0] + rows[2][1] * weights[1] + rows[2][2] * weights[2]) * scale,
    )


@njit(**_INLINE)
def _times_rows_three(weights, rows, scale):
    """``(wᵀ M) scale`` for the rows of a 3x3 matrix held in a tuple."""
    return (
        (weights[0] * rows[0][0] + weights[1] * rows[1][0] + weights[2] * rows[2][0]) * scale,
        (weights[0] * rows[0][1] + weights[1] * rows[1][1] + weights[2] * rows[2][1]) * scale,
        (weights[0] * rows[0][2] + weights[1] * rows[1][2] + weights[2] * rows[2][2]) * scale,
    )


@njit(**_LOOP)
def _hedge_self_play_three(A, B, s, zero_sum, optimistic, power, track, first, last):
    """:func:`_self_play_simultaneous` for Hedge on a 3x3 game with expected payoffs: the same operations in the same
    order (the same bits), on values held in registers for the whole stretch and written back to the state at its end.

    Why a loop of its own: in the shared loop every player's scores, prediction, strategy and payoffs go to the state's
    arrays and come back in the next iteration, and each load waits for its store; the path from one iteration's
    scores to the next (logits, two exponentials, the division, the pass over ``A``) is the iteration's time. The
    payoffs are computed from the unnormalised weights and each sum then multiplied by ``1 / total``: the division
    runs beside the pass over ``A`` instead of before it. (3x3 Hedge 1.16-1.19x regret matching's time an iteration,
    optimistic Hedge 1.27-1.28x, against 1.43-1.49x and 1.47-1.57x through the shared loop; ``python -m rmcore bench``
    prints the ratios.)
    """
    a_rows = (_three(A[0]), _three(A[1]), _three(A[2]))
    b_rows = a_rows if zero_sum else (_three(B[0]), _three(B[1]), _three(B[2]))
    log_start_row, log_start_col = _three(s.log_start_row), _three(s.log_start_col)
    scores_row, scores_col = _three(s.scores_row), _three(s.scores_col)
    prediction_row, prediction_col = _three(s.predictions_row), _three(s.predictions_col)
    regrets_row, regrets_col = _three(s.regrets_row), _three(s.regrets_col)
    external_row, external_col = _three(s.external_row), _three(s.external_col)
    sums_row, sums_col = _three(s.strategy_sums_row), _three(s.strategy_sums_col)
    x, y = _three(s.x), _three(s.y)
    row_utilities, col_utilities = _three(s.row_utilities), _three(s.col_utilities)
    weight_sum = 0.0
    for t in range(first, last + 1):
        row_weights, row_scale = _weights_of_logits_three(
            _logits_three(scores_row, prediction_row, optimistic, log_start_row, _hedge_step(s.steps, 0, t))
        )
        col_weights, col_scale = _weights_of_logits_three(
            _logits_three(scores_col, prediction_col, optimistic, log_start_col, _hedge_step(s.steps, 1, t))
        )
        row_utilities = _times_columns_three(a_rows, col_weights, col_scale)
        col_utilities = _times_rows_three(row_weights, b_rows, row_scale)
        if zero_sum:
            col_utilities = _scaled_three(col_utilities, -1.0)
        x, y = _scaled_three(row_weights, row_scale), _scaled_three(col_weights, col_scale)
        v1 = _dot_three(x, row_utilities)
        v2 = -v1 if zero_sum else _dot_three(y, col_utilities)
        regrets_row = _plus_regrets_three(regrets_row, row_utilities, v1)
        regrets_col = _plus_regrets_three(regrets_col, col_utilities, v2)
        scores_row, scores_col = _plus_three(scores_row, row_utilities), _plus_three(scores_col, col_utilities)
        if optimistic:
            prediction_row, prediction_col = row_utilities, col_utilities
        if track:
            external_row = _plus_regrets_three(external_row, row_utilities, v1)
            external_col = _plus_regrets_three(external_col, col_utilities, v2)
        w = _weight(t, power)
        sums_row, sums_col = _plus_weighted_three(sums_row, w, x), _plus_weighted_three(sums_col, w, y)
        weight_sum += w
    for values, three in (
        (s.scores_row, scores_row),
        (s.scores_col, scores_col),
        (s.predictions_row, prediction_row),
        (s.predictions_col, prediction_col),
        (s.regrets_row, regrets_row),
        (s.regrets_col, regrets_col),
        (s.external_row, external_row),
        (s.external_col, external_col),
        (s.strategy_sums_row, sums_row),
        (s.strategy_sums_col, sums_col),
        (s.x, x),
        (s.y, y),
        (s.row_utilities, row_utilities),
        (s.col_utilities, col_utilities),
    ):
        _store_three(values, three)
    return weight_sum


@njit(**_LOOP)
def _self_play_simultaneous(A, B, s, zero_sum, algorithm, optimistic, sampled, power, track, first, last):
    if algorithm == HEDGE and not sampled and s.x.shape[0] == 3 and s.y.shape[0] == 3:
        return _hedge_self_play_three(A, B, s, zero_sum, optimistic, power, track, first, last)
    weight_sum = 0.0
    for t in range(first, last + 1):
        if algorithm == HEDGE and not (s.x.shape[0] == 3 and s.y.shape[0] == 3):
            # Both players' logits first, then both players' exps: the two softmaxes are independent, and in this order
            # the processor overlaps their exps. The same operations on the same numbers as play()'s, so the same bits.
            best_row = _logits(
                s.scores_row, s.predictions_row, optimistic, s.log_start_row, _hedge_step(s.steps, 0, t), s.x
            )
            best_col = _logits(
                s.scores_col, s.predictions_col, optimistic, s.log_start_col, _hedge_step(s.steps, 1, t), s.y
            )
            _exponentiate(best_row, s.x)
            _exponentiate(best_col, s.y)
        else:
            play(
                algorithm,
                optimistic,
                s.regrets_row,
                s.predictions_row,
                s.scores_row,
                s.log_start_row,
                s.start_row,
                s.steps,
                0,
                t,
                s.x,
            )
            play(
                algorithm,
                optimistic,
                s.regrets_col,
                s.predictions_col,
                s.scores_col,
                s.log_start_col,
                s.start_col,
                s.steps,
                1,
                t,
                s.y,
            )
        if sampled:
            a = sample_index(s.x, next_uniform(s.rng))
            b = sample_index(s.y, next_uniform(s.rng))
            s.drawn[0], s.drawn[1], s.drawn[2] = a, b, a
            _sampled_row_utilities(A, b, s.row_utilities)
            _sampled_col_utilities(A, B, zero_sum, a, s.col_utilities)
            v1 = s.row_utilities[a]
            v2 = s.col_utilities[b]
        else:
            payoff_vectors(A, B, zero_sum, s.x, s.y, s.row_utilities, s.col_utilities)
            v1 = _dot(s.x, s.row_utilities)
            # x^T B y = -x^T A y in a zero-sum game: one dot product fewer on the critical path.
            v2 = -v1 if zero_sum else _dot(s.y, s.col_utilities)
        learn(
            algorithm,
            optimistic,
            s.regrets_row,
            s.predictions_row,
            s.scores_row,
            s.row_utilities,
            v1,
            s.steps,
            0,
            s.scratch_row,
        )
        learn(
            algorithm,
            optimistic,
            s.regrets_col,
            s.predictions_col,
            s.scores_col,
            s.col_utilities,
            v2,
            s.steps,
            1,
            s.scratch_col,
        )
        if track:
            _add_external(s.external_row, s.row_utilities, v1)
            _add_external(s.external_col, s.col_utilities, v2)
        w = _weight(t, power)
        _add_weighted(s.strategy_sums_row, s.x, w)
        _add_weighted(s.strategy_sums_col, s.y, w)
        weight_sum += w
    return weight_sum


@njit(**_LOOP)
def _self_play_alternating(A, B, s, zero_sum, algorithm, optimistic, sampled, power, track, first, last):
    weight_sum = 0.0
    for t in range(first, last + 1):
        play(
            algorithm,
            optimistic,
            s.regrets_row,
            s.predictions_row,
            s.scores_row,
            s.log_start_row,
            s.start_row,
            s.steps,
            0,
            t,
            s.x,
        )
        play(
            algorithm,
            optimistic,
            s.regrets_col,
            s.predictions_col,
            s.scores_col,
            s.log_start_col,
            s.start_col,
            s.steps,
            1,
            t,
            s.y,
        )
        # The row player first, against y_t ...
        if sampled:
            a = sample_index(s.x, next_uniform(s.rng))
            b = sample_index(s.y, next_uniform(s.rng))
            s.drawn[0], s.drawn[1] = a, b
            _sampled_row_utilities(A, b, s.row_utilities)
            v1 = s.row_utilities[a]
        else:
            row_utilities_against(A, s.y, s.row_utilities)
            v1 = _dot(s.x, s.row_utilities)
        learn(
            algorithm,
            optimistic,
            s.regrets_row,
            s.predictions_row,
            s.scores_row,
            s.row_utilities,
            v1,
            s.steps,
            0,
            s.scratch_row,
        )
        if track:
            # ... (the CCE gap is measured against the joint play (x_t, y_t)) ...
            _add_external(s.external_row, s.row_utilities, v1)
            if sampled:
                _sampled_col_utilities(A, B, zero_sum, a, s.col_utilities)
                _add_external(s.external_col, s.col_utilities, s.col_utilities[b])
            else:
                col_utilities_against(A, B, zero_sum, s.x, s.col_utilities)
                _add_external(s.external_col, s.col_utilities, _dot(s.y, s.col_utilities))
        # ... then the column player, against the row player's new strategy x_{t+1}.
        play(
            algorithm,
            optimistic,
            s.regrets_row,
            s.predictions_row,
            s.scores_row,
            s.log_start_row,
            s.start_row,
            s.steps,
            0,
            t + 1,
            s.next_x,
        )
        if sampled:
            fresh = sample_index(s.next_x, next_uniform(s.rng))
            s.drawn[2] = fresh
            _sampled_col_utilities(A, B, zero_sum, fresh, s.col_utilities)
            v2 = s.col_utilities[b]
        else:
            col_utilities_against(A, B, zero_sum, s.next_x, s.col_utilities)
            v2 = _dot(s.y, s.col_utilities)
        learn(
            algorithm,
            optimistic,
            s.regrets_col,
            s.predictions_col,
            s.scores_col,
            s.col_utilities,
            v2,
            s.steps,
            1,
            s.scratch_col,
        )
        w = _weight(t, power)
        _add_weighted(s.strategy_sums_row, s.x, w)
        _add_weighted(s.strategy_sums_col, s.y, w)
        weight_sum += w
    return weight_sum


@njit(**_LOOP)
def _fixed_opponent(A, s, algorithm, optimistic, sampled, power, first, last):
    weight_sum = 0.0
    for t in range(first, last + 1):
        play(
            algorithm,
            optimistic,
            s.regrets_row,
            s.predictions_row,
            s.scores_row,
            s.log_start_row,
            s.start_row,
            s.steps,
            0,
            t,
            s.x,
        )
        if sampled:
            a = sample_index(s.x, next_uniform(s.rng))
            b = sample_index(s.y, next_uniform(s.rng))
            s.drawn[0], s.drawn[1], s.drawn[2] = a, b, a
            _sampled_row_utilities(A, b, s.row_utilities)
            learn(
                algorithm,
                optimistic,
                s.regrets_row,
                s.predictions_row,
                s.scores_row,
                s.row_utilities,
                s.row_utilities[a],
                s.steps,
                0,
                s.scratch_row,
            )
        else:
            learn(
                algorithm,
                optimistic,
                s.regrets_row,
                s.predictions_row,
                s.scores_row,
                s.fixed_row_utilities,
                _dot(s.x, s.fixed_row_utilities),
                s.steps,
                0,
                s.scratch_row,
            )
        w = _weight(t, power)
        _add_weighted(s.strategy_sums_row, s.x, w)
        weight_sum += w
    return weight_sum


def make_matrix_kernel(variant: MatrixFlags):
    """The kernel of one variant, compiled once per variant (then loaded from numba's disk cache).

    Returns ``run(A, B, variant, state, first_iteration, last_iteration, checkpoints, record)``
    (see :func:`rmcore._runtime.run_matrix`), which returns the number of history rows written.

    The variant's values are constants of the closure, which it passes to the loop above that it runs (compiled for
    those values, see ``_LOOP``), so every variant test folds away. With the flags read at run time instead
    (:func:`run_matrix_general`, which calls the same loops) a 3x3 iteration takes 1.0-1.3x as long: RM 30.1 ns against
    28.9, sampled RM 36.0 against 33.4, fictitious play 32.1 against 25.5 (interleaved, best of 7, one core), since LLVM
    moves most flag tests out of a loop that is a function of its own. The averaging and the sampling are the
    exceptions, read from ``variant`` at run time: ``w_t = t ** averaging_power`` is one loop-invariant branch an
    iteration, and a sampled iteration one branch away from an expected one, at no measurable cost (3x3 RM, sampled RM
    and Hedge within the noise of a kernel that bakes them in), so that one kernel serves all three averagings and both
    samplings: a sixth of the compiles, which on an empty cache take 10-20 s each. Against a fixed opponent the flags
    its loop never reads are set aside too, for the same reason.
    """
    return _kernel_of(kernel_key(variant))


def kernel_key(variant: MatrixFlags) -> MatrixFlags:
    """The flags a variant's kernel is compiled for: the averaging and the sampling (read at run time) set to 0, and
    against a fixed opponent the flags its loop never reads (B, the update order, the external regrets) set aside."""
    if variant.fixed_opponent:
        variant = variant._replace(alternating=False, zero_sum=False, track_external=False)
    return variant._replace(averaging_power=0, sampled=False)


@functools.cache
def _kernel_of(variant: MatrixFlags):
    """:func:`make_matrix_kernel`'s compile, keyed by the flags the kernel bakes in (:func:`kernel_key`). The
    closure captures plain values only (the record's fields, not the record): numba's disk cache keys closures by what
    they capture."""
    algorithm, optimistic, _, alternating, _, fixed, zero_sum, track = variant

    # No reference counting (numba's ``_nrt=False``): the kernel allocates nothing, and the arrays it is given outlive
    # the call. With it, numba left atomic increments and decrements of the state's arrays in the hot loop wherever
    # an inlined helper's array is last used inside a branch or a loop it cannot see through: perf put 80% of
    # predictive RM+'s 3x3 iteration (120 ns against RM+'s 25 ns) in NRT_incref / NRT_decref.
    @njit(**_MATRIX_PASS, _nrt=False)
    def run(A, B, variant, state, first_iteration, last_iteration, checkpoints, record):
        s = state
        power, sampled = variant.averaging_power, variant.sampled
        if fixed and not sampled:
            # The opponent never moves, so A y is the same every iteration.
            row_utilities_against(A, s.y, s.fixed_row_utilities)
        written = 0
        first = first_iteration
        while first <= last_iteration:
            last = checkpoints[written] if written < checkpoints.shape[0] else last_iteration
            if fixed:
                added = _fixed_opponent(A, s, algorithm, optimistic, sampled, power, first, last)
            elif alternating:
                added = _self_play_alternating(
                    A, B, s, zero_sum, algorithm, optimistic, sampled, power, track, first, last
                )
            else:
                added = _self_play_simultaneous(
                    A, B, s, zero_sum, algorithm, optimistic, sampled, power, track, first, last
                )
            s.weight_sum[0] += added
            if written < checkpoints.shape[0] and checkpoints[written] == last:
                record_checkpoint(A, B, variant, s, last, record, written)
                written += 1
            first = last + 1
        return written

    return run


@njit(**_MATRIX_PASS)
def run_matrix_general(A, B, variant, state, first_iteration, last_iteration, checkpoints, record):
    """Every variant in one kernel, the flags read at run time: 1.0-1.3x a variant's own kernel's time on a 3x3 game
    (:func:`make_matrix_kernel`), with bit-identical results, and compiled once for all variants. It serves a variant
    while that variant's own kernel compiles in the background (:func:`rmcore.compile_in_background`).

    Its body is the one of :func:`make_matrix_kernel`'s ``run`` line for line, the flags read from ``variant``
    instead of captured, and it calls the same loops, which numba compiles once more for flags that are values at run
    time. ``tests/test_kernel_fallback.py`` checks that every variant gives bit-identical results on both.
    """
    algorithm, optimistic, sampled, alternating, power = (
        variant.algorithm,
        variant.optimistic,
        variant.sampled,
        variant.alternating,
        variant.averaging_power,
    )
    fixed, zero_sum, track = variant.fixed_opponent, variant.zero_sum, variant.track_external
    s = state
    if fixed and not sampled:
        row_utilities_against(A, s.y, s.fixed_row_utilities)
    written = 0
    first = first_iteration
    while first <= last_iteration:
        last = checkpoints[written] if written < checkpoints.shape[0] else last_iteration
        if fixed:
            added = _fixed_opponent(A, s, algorithm, optimistic, sampled, power, first, last)
        elif alternating:
            added = _self_play_alternating(A, B, s, zero_sum, algorithm, optimistic, sampled, power, track, first, last)
        else:
            added = _self_play_simultaneous(
                A, B, s, zero_sum, algorithm, optimistic, sampled, power, track, first, last
            )
        s.weight_sum[0] += added
        if written < checkpoints.shape[0] and checkpoints[written] == last:
            record_checkpoint(A, B, variant, s, last, record, written)
            written += 1
        first = last + 1
    return written


# ---------------------------------------------------------------------------------------
# CFR on a two-player zero-sum sequential game compiled into flat arrays (see tree.py and poker.py).
#
# Nodes are stored deal by deal, each deal's subtree parents-first, so one forward pass computes
# reach probabilities and one backward pass computes values. Values are the first player's payoff;
# the second player's are their negatives.


class TreeArrays(NamedTuple):
    """A two-player zero-sum game tree as the flat arrays the kernels walk (built once, by ``poker.poker_tree``).

    Its labelled companion, with information-set and action names, is :class:`rmcore.TreeGame` (``tree.py``).
    """

    player: np.ndarray  # [node] 0 or 1 at decisions, -1 at terminals, CHANCE_NODE where chance deals a card mid-game
    infoset: np.ndarray  # [node] information-set index at decisions, -1 elsewhere
    children: np.ndarray  # [node, action or outcome] child node index (-1 past the last)
    payoff: np.ndarray  # [node] first player's payoff at terminals
    deal_start: np.ndarray  # [deal] first node of each deal's subtree (its root)
    deal_end: np.ndarray  # [deal] one past its last node
    deal_probability: np.ndarray  # [deal] chance probability of the deal
    by_depth: np.ndarray  # node indices sorted by decreasing depth (for best responses)
    depth: np.ndarray  # [node] depth in the public tree
    infoset_player: np.ndarray  # [infoset] who acts there
    num_actions: np.ndarray  # [infoset] its legal actions: columns 0..n-1 of a policy (the rest stay 0)
    chance: np.ndarray  # [node, outcome] at a chance node, each child's probability (0 elsewhere)
    chance_nodes: np.ndarray  # the chance nodes inside deals (none in Kuhn: then their loops are skipped whole)
    #: [node] one past the last node of the node's subtree where every subtree is a contiguous range (a tree laid out
    #: in prefix order, as ``tree_builder.py`` lays it out), else -1 (then no subtree is skipped)
    subtree_end: np.ndarray
    parent: np.ndarray  # [node] its parent node (-1 at a deal's root)
    parent_slot: np.ndarray  # [node] which of the parent's actions or outcomes leads to it (-1 at a deal's root)


#: ``TreeArrays.player`` at a chance node inside a deal (Leduc's public card); a deal's own cards are dealt at its root.
CHANCE_NODE = -2


class CFRState(NamedTuple):
    """Everything a CFR run carries between iterations, plus scratch and the last iteration's trace."""

    regrets: np.ndarray  # [infoset, action] cumulative (clipped / discounted per variant)
    strategy_sums: np.ndarray  # [infoset, action] sum_t w_t * own reach * sigma_t
    policy: np.ndarray  # [infoset, action] current strategy sigma
    reach: np.ndarray  # [node, 3] reach of player 0, player 1 and chance (scratch)
    value: np.ndarray  # [node] first player's expected payoff under sigma (scratch)
    regret_increment: np.ndarray  # [infoset, action] last update's sum_h pi_-i(h) (v(ha) - v(h))
    action_values: np.ndarray  # [infoset, action] last update's counterfactual action values
    strategy_value: np.ndarray  # [infoset] last update's counterfactual value of sigma
    own_reach: np.ndarray  # [infoset] last update's sum_h pi_i(h)
    opponent_reach: np.ndarray  # [infoset] last update's sum_h pi_-i(h) (chance included)
    rng: np.ndarray  # xoshiro256+ state for chance sampling
    average: np.ndarray  # [infoset, action] scratch: the average policy at a checkpoint
    scores: np.ndarray  # [infoset, action] scratch: a best response's action values
    #: [node, 3] scratch: both best responses' values (player 0's, then player 1's in its own payoff) and player 0's
    #: expected payoff, under the average policy at a checkpoint (:func:`_both_best_responses`)
    br_values: np.ndarray
    last_regrets: np.ndarray  # [infoset, action] predictive CFR+: the last instantaneous regret r_t (the prediction)
    active: np.ndarray  # [node] scratch: the nodes an iteration's pass visits, in tree order (see _reached_nodes)
    touched: np.ndarray  # [1] int64: nodes touched so far (every pass's active nodes; Monte Carlo CFR: nodes entered)
    # Monte Carlo CFR's explicit stack, one frame per node on the current path (length: the longest path):
    stack_node: np.ndarray  # [frame] int64 the node
    stack_next: np.ndarray  # [frame] int64 the child being walked (external) or the sampled action (outcome)
    stack_policy: np.ndarray  # [frame, action] the strategy played there
    stack_values: np.ndarray  # [frame, action] the children's values (external) or the sampling policy (outcome)
    stack_reach: np.ndarray  # [frame, 3] outcome sampling: own, opponent's and chance's, and the sample's reach
    # Magnetic mirror descent's arrays (empty for the other variants; built by ``cfr._mmd_arrays``). A sequence (I, a)
    # is the cell ``I * width + a`` of a policy array, the empty sequence -1.
    mmd_logits: np.ndarray  # [infoset, action] scratch: the logits h(I, a) of the closed-form step
    mmd_sequence: np.ndarray  # [node, player] int64 the player's last own action on the way to the node
    mmd_parent: np.ndarray  # [infoset] int64 the sequence leading to the information set (its player's)
    mmd_order: np.ndarray  # [infoset] int64 information sets, children before their parent sequences


#: ``CFRFlags.learner`` when both players learn (self-play).
BOTH_LEARN = -1


class CFRFlags(NamedTuple):
    """One CFR variant as plain values: the code (VANILLA_CFR ...), the update order, who learns, and discounted
    CFR's or MMD's parameters (runtime floats, so that no value needs a compile of its own; the other variants ignore
    them)."""

    code: int
    alternating: bool
    learner: int = BOTH_LEARN  # 0 or 1: the other player is a fixed opponent (its policy rows never change)
    alpha: float = 1.5  # discounted CFR: positive regrets are scaled by t^alpha / (t^alpha + 1) after iteration t,
    beta: float = 0.0  # negative ones by t^beta / (t^beta + 1),
    gamma: float = 2.0  # and iteration t's strategy is weighted by t^gamma in the average
    stepsize: float = 0.0  # magnetic mirror descent: the step size eta (its temperature is ``alpha``)


class CFRRecord(NamedTuple):
    """History rows of a CFR run, one array per quantity (``k`` rows)."""

    iteration: np.ndarray  # [k] int64
    current: np.ndarray  # [k, infoset, action] sigma, the policy the next iteration plays
    average: np.ndarray  # [k, infoset, action] S / sum S
    regrets: np.ndarray  # [k, infoset, action] cumulative regrets R
    br_value_1: np.ndarray  # [k] what player 1 gets by best-responding to the average policy
    br_value_2: np.ndarray  # [k] likewise player 2 (in player 2's own payoff)
    game_value: np.ndarray  # [k] player 1's expected payoff when both play the average policy
    nash_conv_current: np.ndarray  # [k] NashConv of the current policy
    nodes_touched: np.ndarray  # [k] int64 nodes touched so far (CFRState.touched)


def empty_cfr_record(rows: int, infosets: int, actions: int) -> CFRRecord:
    """Room for ``rows`` history rows of a game with the given policy shape."""
    return CFRRecord(
        np.zeros(rows, dtype=np.int64),
        *(np.zeros((rows, infosets, actions)) for _ in range(3)),
        *(np.zeros(rows) for _ in range(4)),
        np.zeros(rows, dtype=np.int64),
    )


# The two chance-node helpers stay out of line: inlined, their loop inside the decision-node loop made Kuhn's
# backward pass (which has no chance node) two to three times slower.
@njit(**_TREE_PASS)
def _chance_reach(children, chance, reach, node):
    """Reach of a chance node's children: chance's own reach times each outcome's probability."""
    for k in range(children.shape[1]):
        child = children[node, k]
        if child < 0:
            break
        reach[child, 0] = reach[node, 0]
        reach[child, 1] = reach[node, 1]
        reach[child, 2] = reach[node, 2] * chance[node, k]


@njit(**_TREE_PASS)
def _chance_value(children, chance, value, node):
    """A chance node's value: its outcomes' values weighted by their probabilities (summed in outcome order)."""
    total = 0.0
    for k in range(children.shape[1]):
        child = children[node, k]
        if child < 0:
            break
        total += chance[node, k] * value[child]
    return total


@njit(**_TREE_PASS)
def _forward_reach(tree, policy, reach, first_deal, last_deal, chance_weight):
    """Reach probabilities of every node of deals first..last under ``policy``."""
    for deal in range(first_deal, last_deal + 1):
        root = tree.deal_start[deal]
        reach[root, 0] = 1.0
        reach[root, 1] = 1.0
        reach[root, 2] = tree.deal_probability[deal] * chance_weight
        for node in range(root, tree.deal_end[deal]):
            actor = tree.player[node]
            if actor < 0:
                if actor == CHANCE_NODE:
                    _chance_reach(tree.children, tree.chance, reach, node)
                continue
            info = tree.infoset[node]
            for a in range(tree.num_actions[info]):
                child = tree.children[node, a]
                reach[child, 0] = reach[node, 0]
                reach[child, 1] = reach[node, 1]
                reach[child, 2] = reach[node, 2]
                reach[child, actor] *= policy[info, a]


@njit(**_TREE_PASS)
def _reached_nodes(tree, policy, reach, first_deal, last_deal, chance_weight, active):
    """:func:`_forward_reach` that skips every subtree neither player reaches, listing the nodes it visits in
    ``active`` (in tree order); returns how many it listed.

    Below a history that both players' own choices avoid (pi_0(h) = pi_1(h) = 0) every CFR term is zero: regrets are
    weighted by the opponent's reach and strategy sums by the player's own. The history's parent, a decision whose
    action leads there with probability 0, multiplies the skipped subtree's (earlier, finite) value by that 0 and
    weights its own regret by an opponent reach of 0, so skipping changes no number; it saves most of an iteration
    once regret matching has zeroed actions (Liar's dice with six sides: 54% of the nodes after one iteration, 83%
    after 100). OpenSpiel's CFR skips the same subtrees.
    """
    count = 0
    for deal in range(first_deal, last_deal + 1):
        root = tree.deal_start[deal]
        reach[root, 0] = 1.0
        reach[root, 1] = 1.0
        reach[root, 2] = tree.deal_probability[deal] * chance_weight
        active[count] = root
        count += 1
        node = root + 1
        end = tree.deal_end[deal]
        # Each node takes its reach from its parent (rather than a parent writing its children's, scattered across
        # the tree in prefix order): one row read per node, and the parent's row is usually still in the cache.
        while node < end:
            parent = tree.parent[node]
            slot = tree.parent_slot[node]
            own_0 = reach[parent, 0]
            own_1 = reach[parent, 1]
            by_chance = reach[parent, 2]
            actor = tree.player[parent]
            if actor == CHANCE_NODE:
                by_chance *= tree.chance[parent, slot]
            elif actor == 0:
                own_0 *= policy[tree.infoset[parent], slot]
            else:
                own_1 *= policy[tree.infoset[parent], slot]
            reach[node, 0] = own_0
            reach[node, 1] = own_1
            reach[node, 2] = by_chance
            if own_0 == 0.0 and own_1 == 0.0:
                node = tree.subtree_end[node]
                continue
            active[count] = node
            count += 1
            node += 1
    return count


@njit(**_TREE_PASS)
def _regret_pass(tree, state, regrets, updating, first_deal, last_deal, chance_weight, strategy_weight, trace):
    """One player's (or both players') CFR pass over deals first..last: reach forward, values backward, then the
    regret and strategy-sum increments (:func:`_accumulate_cfr`). Returns the nodes it visited.

    A tree laid out in prefix order skips the subtrees neither player reaches (:func:`_reached_nodes`); a tree laid
    out breadth first (the poker builder's) visits every node, in plain ranges: listing them would cost Kuhn a
    fifth of an iteration.
    """
    if tree.subtree_end[tree.deal_start[first_deal]] < 0:
        _forward_reach(tree, state.policy, state.reach, first_deal, last_deal, chance_weight)
        _backward_values(tree, state.policy, state.value, first_deal, last_deal)
        first = tree.deal_start[first_deal]
        count = tree.deal_end[last_deal] - first
    else:
        count = _reached_nodes(tree, state.policy, state.reach, first_deal, last_deal, chance_weight, state.active)
        _reached_values(tree, state.policy, state.value, state.reach, state.active, count, updating)
        first = -1
    _accumulate_cfr(tree, state, regrets, updating, first, count, strategy_weight, trace)
    return count


@njit(**_TREE_PASS)
def _reached_values(tree, policy, value, reach, active, count, updating):
    """:func:`_backward_values` over the nodes :func:`_reached_nodes` listed, children before parents.

    When one player updates (``updating`` 0 or 1, not 2 for both), a node its opponent and chance never reach
    (counterfactual reach 0) keeps its earlier value: the update weights every regret below it by that 0, and its
    parent reaches it through an opponent's or chance's probability of 0, which multiplies its value away.
    """
    for k in range(count - 1, -1, -1):
        node = active[k]
        if updating != 2 and reach[node, 1 - updating] * reach[node, 2] == 0.0:
            continue
        actor = tree.player[node]
        if actor < 0:
            value[node] = (
                tree.payoff[node] if actor != CHANCE_NODE else _chance_value(tree.children, tree.chance, value, node)
            )
            continue
        info = tree.infoset[node]
        total = 0.0
        for a in range(tree.num_actions[info]):
            total += policy[info, a] * value[tree.children[node, a]]
        value[node] = total


@njit(**_TREE_PASS)
def _backward_values(tree, policy, value, first_deal, last_deal):
    """The first player's expected payoff at every node of deals first..last under ``policy``."""
    for deal in range(first_deal, last_deal + 1):
        for node in range(tree.deal_end[deal] - 1, tree.deal_start[deal] - 1, -1):
            actor = tree.player[node]
            if actor < 0:
                value[node] = (
                    tree.payoff[node]
                    if actor != CHANCE_NODE
                    else _chance_value(tree.children, tree.chance, value, node)
                )
                continue
            info = tree.infoset[node]
            total = 0.0
            for a in range(tree.num_actions[info]):
                total += policy[info, a] * value[tree.children[node, a]]
            value[node] = total


@njit(**_TREE_PASS)
def _accumulate_cfr(tree, state, regrets, updating, first, count, strategy_weight, trace):
    """Counterfactual regrets and reach-weighted strategy sums for ``updating`` (0, 1, or 2 for both).

    For history h at an information set I of player i, with counterfactual reach pi_-i(h) (the
    opponent's and chance's):  R(I, a) += pi_-i(h) (v_i(h a) - v_i(h)),  S(I, a) += w_t pi_i(h) sigma(I, a).
    Added to R history by history, deal by deal, as OpenSpiel's CFR adds them: with the same chance
    probabilities (``TreeArrays.chance``, ``deal_probability``) the results are OpenSpiel's bit for bit
    (``tests/test_openspiel.py``); summing an information set's increments first differs in the last bits,
    and CFR+'s clipping at zero grows such differences to 1e-5 on Leduc by iteration 150.
    With ``trace`` the iteration's sums per information set are kept for the step-by-step walkthrough;
    only a run's last iteration needs them, and leaving them out of the others is a third of Kuhn's time.
    The increments go into ``regrets``: ``state.regrets``, or for predictive CFR+ ``state.last_regrets`` (cleared by
    the caller), which keeps the instantaneous regret r_t apart from R as the next prediction needs it.
    """
    if trace:
        _clear_trace(tree, state, updating)
    for k in range(count):  # nodes first .. first + count - 1, or (first < 0) those _reached_nodes listed
        node = first + k if first >= 0 else state.active[k]
        actor = tree.player[node]
        if actor < 0 or (updating != 2 and actor != updating):
            continue
        info = tree.infoset[node]
        sign = 1.0 if actor == 0 else -1.0
        counterfactual_reach = state.reach[node, 1 - actor] * state.reach[node, 2]
        own_weight = strategy_weight * state.reach[node, actor]
        node_value = sign * state.value[node]
        for a in range(tree.num_actions[info]):
            child_value = sign * state.value[tree.children[node, a]]
            regrets[info, a] += counterfactual_reach * (child_value - node_value)
            state.strategy_sums[info, a] += own_weight * state.policy[info, a]
        if trace:
            _trace_history(tree, state, node, info, sign, counterfactual_reach)


@njit(**_INLINE)
def _clear_trace(tree, state, updating):
    for info in range(tree.infoset_player.shape[0]):
        if updating == 2 or tree.infoset_player[info] == updating:
            state.own_reach[info] = 0.0
            state.opponent_reach[info] = 0.0
            state.strategy_value[info] = 0.0
            for a in range(state.policy.shape[1]):
                state.regret_increment[info, a] = 0.0
                state.action_values[info, a] = 0.0


@njit(**_INLINE)
def _trace_history(tree, state, node, info, sign, counterfactual_reach):
    """Add one history's reach and counterfactual values to its information set's walkthrough sums."""
    actor = tree.player[node]
    node_value = sign * state.value[node]
    state.own_reach[info] += state.reach[node, actor]
    state.opponent_reach[info] += counterfactual_reach
    state.strategy_value[info] += counterfactual_reach * node_value
    for a in range(tree.num_actions[info]):
        child_value = sign * state.value[tree.children[node, a]]
        state.action_values[info, a] += counterfactual_reach * child_value
        state.regret_increment[info, a] += counterfactual_reach * (child_value - node_value)


@njit(**_TREE_PASS)
def _clear_regrets(tree, regrets, updating):
    """Zero the rows of ``updating``'s information sets (2: every row): predictive CFR+ sums r_t afresh."""
    for info in range(tree.infoset_player.shape[0]):
        if updating == 2 or tree.infoset_player[info] == updating:
            for a in range(regrets.shape[1]):
                regrets[info, a] = 0.0


@njit(**_TREE_PASS)
def _apply_regrets(tree, state, updating, variant, t, positive_factor, negative_factor):
    """Clip (CFR+) or discount (linear / discounted CFR) the regrets just accumulated, and re-run regret matching.

    Discounted CFR (Brown & Sandholm 2019) multiplies R >= 0 by ``positive_factor = t^alpha / (t^alpha + 1)`` and
    R < 0 by ``negative_factor = t^beta / (t^beta + 1)`` (each computed once per iteration, then multiplied in, as
    OpenSpiel's ``DCFRSolver`` does).
    """
    for info in range(tree.infoset_player.shape[0]):
        if updating != 2 and tree.infoset_player[info] != updating:
            continue
        n = tree.num_actions[info]
        total = 0.0
        for a in range(n):
            r = state.regrets[info, a]  # (the increments are in: _accumulate_cfr)
            if variant == CFR_PLUS:
                r = r if r > 0.0 else 0.0
            elif variant == LINEAR_CFR:
                r *= t / (t + 1.0)
            elif variant == DISCOUNTED_CFR:
                r *= positive_factor if r >= 0.0 else negative_factor
            state.regrets[info, a] = r
            total += r if r > 0.0 else 0.0
        for a in range(n):
            r = state.regrets[info, a]
            state.policy[info, a] = (r if r > 0.0 else 0.0) / total if total > 0.0 else 1.0 / n


@njit(**_TREE_PASS)
def _apply_predictive_regrets(tree, state, updating):
    """Predictive CFR+ (Farina, Kroer & Sandholm 2021): predictive RM+ at every information set of ``updating``.

    With the instantaneous regret r_t in ``state.last_regrets`` (summed by ``_accumulate_cfr``):
    ``R_t = [R_{t-1} + r_t]^+``, and the next strategy is ``RM([R_t + m_{t+1}]^+)`` with the prediction
    ``m_{t+1} = r_t``, which stays in ``state.last_regrets`` until the next pass replaces it.
    (A function of its own, so that the other variants' loop in :func:`_apply_regrets` keeps its former speed.)
    """
    for info in range(tree.infoset_player.shape[0]):
        if updating != 2 and tree.infoset_player[info] != updating:
            continue
        n = tree.num_actions[info]
        total = 0.0
        for a in range(n):
            m = state.last_regrets[info, a]
            r = state.regrets[info, a] + m
            r = r if r > 0.0 else 0.0
            state.regrets[info, a] = r
            r += m  # the optimistic regret R_t + m_{t+1}
            total += r if r > 0.0 else 0.0
        for a in range(n):
            r = state.regrets[info, a] + state.last_regrets[info, a]
            state.policy[info, a] = (r if r > 0.0 else 0.0) / total if total > 0.0 else 1.0 / n


# Variant codes shared with cfr.py.
VANILLA_CFR, CFR_PLUS, LINEAR_CFR, DISCOUNTED_CFR, CHANCE_SAMPLING, PREDICTIVE_CFR_PLUS = 0, 1, 2, 3, 4, 5


@njit(**_TREE_PASS)
def _strategy_weight(variant, t):
    """Iteration t's weight in the average strategy: 1, t (CFR+, linear), t^gamma (discounted), t^2 (PCFR+)."""
    code = variant.code
    if code == CFR_PLUS or code == LINEAR_CFR:
        return float(t)
    if code == DISCOUNTED_CFR:
        return float(t) ** variant.gamma  # (pow is exact for t^2, t < 2^26: the former t * t to the bit)
    if code == PREDICTIVE_CFR_PLUS:
        return float(t) * float(t)
    return 1.0


@njit(**_TREE_PASS)
def run_cfr(tree, state, variant, first_iteration, last_iteration, checkpoints, record):
    """CFR iterations first..last (Zinkevich et al. 2007) and its variants, as OpenSpiel orders them.

    One iteration t, for each player i in turn (alternating) or both at once (simultaneous):
    reach probabilities forward, values backward, then for every information set I of i
    ``R(I, a) += sum_h pi_-i(h) (v_i(h a) - v_i(h))`` and ``S(I, a) += w_t sum_h pi_i(h) sigma(I, a)``,
    then the variant's clip or discount, then ``sigma(I) = RM(R(I))``; predictive CFR+ sums the increments apart
    (r_t, in ``state.last_regrets``) and plays ``RM([R_t + r_t]^+)`` (:func:`_apply_predictive_regrets`), and
    discounted CFR's weights and factors come from ``variant.alpha``, ``beta`` and ``gamma``. Against a fixed opponent
    (``variant.learner``) only the learner's information sets are updated. Chance sampling (Monte Carlo
    CFR) draws one deal per iteration and weights it by 1 (its probability over the sampling probability).

    After each iteration listed in ``checkpoints`` (increasing, within the range) the next row of
    ``record`` is written; returns how many were.
    """
    deals = tree.deal_start.shape[0]
    written = 0
    for t in range(first_iteration, last_iteration + 1):
        first_deal, last_deal, chance_weight = 0, deals - 1, 1.0
        if variant.code == CHANCE_SAMPLING:
            first_deal = min(int(next_uniform(state.rng) * deals), deals - 1)
            last_deal = first_deal
            chance_weight = 1.0 / tree.deal_probability[first_deal]
        weight = _strategy_weight(variant, t)
        predictive = variant.code == PREDICTIVE_CFR_PLUS
        regrets = state.last_regrets if predictive else state.regrets
        positive_factor, negative_factor = 1.0, 1.0
        if variant.code == DISCOUNTED_CFR:
            scale = float(t) ** variant.alpha
            positive_factor = scale / (scale + 1.0)
            scale = float(t) ** variant.beta
            negative_factor = scale / (scale + 1.0)
        if variant.alternating and variant.learner == BOTH_LEARN:
            for player in range(2):
                if predictive:
                    _clear_regrets(tree, regrets, player)
                trace = t == last_iteration
                state.touched[0] += _regret_pass(
                    tree, state, regrets, player, first_deal, last_deal, chance_weight, weight, trace
                )
                if predictive:
                    _apply_predictive_regrets(tree, state, player)
                else:
                    _apply_regrets(tree, state, player, variant.code, float(t), positive_factor, negative_factor)
        else:  # both at once, or the learner alone against a fixed opponent
            updating = 2 if variant.learner == BOTH_LEARN else variant.learner
            if predictive:
                _clear_regrets(tree, regrets, updating)
            trace = t == last_iteration
            state.touched[0] += _regret_pass(
                tree, state, regrets, updating, first_deal, last_deal, chance_weight, weight, trace
            )
            if predictive:
                _apply_predictive_regrets(tree, state, updating)
            else:
                _apply_regrets(tree, state, updating, variant.code, float(t), positive_factor, negative_factor)
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            record_cfr_checkpoint(tree, state, t, record, written)
            written += 1
    return written


@njit(**_TREE_PASS)
def record_cfr_checkpoint(tree, state, iteration, record, k):
    """Row ``k`` of ``record``: both policies, both best-response values and the game value now."""
    record.iteration[k] = iteration
    br_value_1, br_value_2, game_value = average_policy_values(tree, state)
    for info in range(state.policy.shape[0]):
        for a in range(state.policy.shape[1]):
            record.current[k, info, a] = state.policy[info, a]
            record.average[k, info, a] = state.average[info, a]
            record.regrets[k, info, a] = state.regrets[info, a]
    record.br_value_1[k] = br_value_1
    record.br_value_2[k] = br_value_2
    record.game_value[k] = game_value
    record.nash_conv_current[k] = nash_conv_of(tree, state.policy, state.reach, state.value, state.scores)
    record.nodes_touched[k] = state.touched[0]


@njit(**_TREE_PASS)
def average_policy_values(tree, state):
    """``(br_value_1, br_value_2, game_value)`` of the average policy (left in ``state.average``)."""
    return _average_policy_values(tree, state.strategy_sums, state.average, state.reach, state.br_values, state.scores)


@njit(**_INLINE)
def _average_policy_values(tree, strategy_sums, average, reach, values, scores):
    # Its three steps inlined, and so written again here rather than called (average_policy, _forward_reach): each
    # call passes the tree's sixteen arrays, and the calls were a quarter of a Kuhn metrics() call's kernel.
    _average_rows(strategy_sums, tree.num_actions, average)
    _reach_of_every_node(tree, average, reach)
    return _both_best_responses(tree, average, reach, values, scores)


@njit(**_INLINE)
def _reach_of_every_node(tree, policy, reach):
    """:func:`_forward_reach` of every deal (the same products), a chance node's children taken in the loop."""
    player, infoset, children, num_actions, chance = (
        tree.player,
        tree.infoset,
        tree.children,
        tree.num_actions,
        tree.chance,
    )
    for deal in range(tree.deal_start.shape[0]):
        root = tree.deal_start[deal]
        reach[root, 0] = 1.0
        reach[root, 1] = 1.0
        reach[root, 2] = tree.deal_probability[deal]
        for node in range(root, tree.deal_end[deal]):
            actor = player[node]
            if actor == CHANCE_NODE:
                for outcome in range(children.shape[1]):
                    child = children[node, outcome]
                    if child < 0:
                        break
                    reach[child, 0] = reach[node, 0]
                    reach[child, 1] = reach[node, 1]
                    reach[child, 2] = reach[node, 2] * chance[node, outcome]
                continue
            if actor < 0:
                continue
            info = infoset[node]
            for a in range(num_actions[info]):
                child = children[node, a]
                reach[child, 0] = reach[node, 0]
                reach[child, 1] = reach[node, 1]
                reach[child, 2] = reach[node, 2]
                reach[child, actor] *= policy[info, a]


@njit(**_INLINE)
def _both_best_responses(tree, policy, reach, values, scores):
    """``(br_value_1, br_value_2, game_value)`` of ``policy``, ``reach`` already filled in for it, in one pass.

    :func:`_best_response_with_reach` for each player and :func:`expected_value` in a single walk of the nodes
    deepest first, each node's three values side by side in a row of ``values`` (player 0's best-response value,
    player 1's in its own payoff, and player 0's expected payoff): the tree's arrays are read once rather than three
    times. Every value is the same sum, of the same terms in the same order, as in those three functions, so the
    results are theirs to the last bit; on Leduc poker the pass takes half their time (its nodes, visited by depth,
    are scattered through memory, and each visit now serves all three).

    An information set's histories share one depth (``tree_depths``), so its scores are complete once its depth's
    nodes have all been summed, and the best action is picked then; each player's information sets have rows of
    ``scores`` of their own, so the two best responses share it.
    """
    player, infoset, children, num_actions, depth = (
        tree.player,
        tree.infoset,
        tree.children,
        tree.num_actions,
        tree.depth,
    )
    payoff, chance, order, nodes = tree.payoff, tree.chance, tree.by_depth, tree.by_depth.shape[0]
    k = 0
    while k < nodes:
        end = k + 1
        while end < nodes and depth[order[end]] == depth[order[k]]:
            end += 1
        for j in range(k, end):
            node = order[j]
            if player[node] >= 0:
                info = infoset[node]
                for a in range(num_actions[info]):
                    scores[info, a] = 0.0
        # Terminals and chance nodes (whose outcomes lie deeper: done); at a decision, the opponent's best response
        # and the expected payoff are expectations under the policy, and the actor's counterfactual action values
        # enter its scores. (The chance sums written out here rather than in a call, or in a loop of their own as in
        # _best_response_with_reach: either made Kuhn's pass, which has no chance node, 1.7 times as long.)
        for j in range(k, end):
            node = order[j]
            actor = player[node]
            if actor == CHANCE_NODE:
                first = 0.0
                second = 0.0
                third = 0.0
                for outcome in range(children.shape[1]):
                    child = children[node, outcome]
                    if child < 0:
                        break
                    probability = chance[node, outcome]
                    first += probability * values[child, 0]
                    second += probability * values[child, 1]
                    third += probability * values[child, 2]
                values[node, 0] = first
                values[node, 1] = second
                values[node, 2] = third
                continue
            if actor < 0:
                value = payoff[node]
                values[node, 0] = value
                values[node, 1] = -value
                values[node, 2] = value
                continue
            other = 1 - actor
            info = infoset[node]
            weight = reach[node, other] * reach[node, 2]
            by_other = 0.0
            expected = 0.0
            for a in range(num_actions[info]):
                child = children[node, a]
                probability = policy[info, a]
                by_other += probability * values[child, other]
                expected += probability * values[child, 2]
                scores[info, a] += weight * values[child, actor]
            values[node, other] = by_other
            values[node, 2] = expected
        for j in range(k, end):
            node = order[j]
            actor = player[node]
            if actor >= 0:
                info = infoset[node]
                best = 0
                for a in range(1, num_actions[info]):
                    if scores[info, a] > scores[info, best]:
                        best = a
                values[node, actor] = values[children[node, best], actor]
        k = end
    br_value_1 = 0.0
    br_value_2 = 0.0
    game_value = 0.0
    for deal in range(tree.deal_start.shape[0]):
        root = tree.deal_start[deal]
        probability = tree.deal_probability[deal]
        br_value_1 += probability * values[root, 0]
        br_value_2 += probability * values[root, 1]
        game_value += probability * values[root, 2]
    return br_value_1, br_value_2, game_value


@njit(**_TREE_PASS)
def average_policy_values_of(tree_fields, state_fields):
    """:func:`average_policy_values` for a call from Python, the two records given as plain tuples.

    numba types a NamedTuple argument in Python, array by array (about 3 us for each 13-array record: a third of a
    Kuhn ``metrics()`` call), but a plain tuple of arrays in C (about 1.4 us); the records are named again here.
    """
    return average_policy_values(TreeArrays(*tree_fields), CFRState(*state_fields))


# The columns of :func:`pack_for_metrics`'s two tables, a row per node: in the int64 table the node's actor
# (``TreeArrays.player``), information set, the row one past the last of its information set's nodes, its parent's row
# and the parent's action or outcome leading to it (-1 at a deal's root), then its children's rows (-1 past the last);
# in the float64 table its reach (player 0, player 1, chance), its three values (:func:`_both_best_responses`), then
# chance's probability of each child (chance nodes).
_ACTOR, _INFOSET, _RUN_END, _PARENT, _SLOT, _CHILD = 0, 1, 2, 3, 4, 5
_REACH, _VALUE, _CHANCE = 0, 3, 6


def pack_for_metrics(tree: TreeArrays, width: int) -> tuple[np.ndarray, np.ndarray]:
    """A small tree laid out for :func:`average_policy_values_packed`, with its scratch: one int64 buffer and one
    float64 table.

    numba unboxes every array argument of a call from Python (about 70 ns each, 2 us for the 30 arrays of the tree
    and the state), and each view it takes of a buffer costs 10-25 ns (its reference count; a reshape): on Kuhn
    poker, whose two best responses take half a microsecond, a call was mostly its arguments. Here a node is a row
    of two tables (the columns ``_ACTOR ... _CHILD`` and ``_REACH ... _CHANCE``), and a node's reach and values
    share a row. The terminals come first, their values written here once (a payoff does not change), so that neither
    pass visits one (on Kuhn poker, 30 of 54 nodes); then the other nodes in the order the best responses visit them:
    deepest first, as ``by_depth``, and an information set's nodes in one run, so that its action scores are summed,
    and its best action picked, in one go (reach is filled in backwards, parents first). A deal's root has its reach
    written here too: 1, 1 and the deal's probability.

    The int64 buffer opens with a header: the number of terminals (the first row that is none), then three numbers
    a field (offset, rows, columns; columns 0 for a vector) for the int table, each deal's root row and the
    information sets' action counts, which follow. The float table's rows are the nodes', then room for the average
    policy, then for a best response's action scores, a row per information set (views of its rows cost less than
    a reshape).
    """
    terminal = tree.player == -1
    inner = tree.by_depth[~terminal[tree.by_depth]]
    # Deepest first; within a depth (whose nodes depend on none of each other), an information set's nodes together,
    # in by_depth's order (the order their action values are summed in), chance nodes first.
    inner = inner[np.lexsort((np.arange(inner.shape[0]), tree.infoset[inner], -tree.depth[inner]))]
    order = np.concatenate((np.flatnonzero(terminal), inner))
    nodes, infosets, outcomes = order.shape[0], tree.num_actions.shape[0], tree.children.shape[1]
    terminals = nodes - inner.shape[0]
    row_of = np.empty(nodes, dtype=np.int64)
    row_of[order] = np.arange(nodes)
    steps = np.full((nodes, _CHILD + outcomes), -1, dtype=np.int64)
    steps[:, _ACTOR] = tree.player[order]
    steps[:, _INFOSET] = tree.infoset[order]
    # One past the last row of each row's run of one information set (all its nodes: it lies at one depth).
    starts = np.flatnonzero(np.diff(tree.infoset[inner]) != 0) + 1
    run_ends = np.append(starts, inner.shape[0])
    steps[terminals:, _RUN_END] = terminals + run_ends[np.searchsorted(starts, np.arange(inner.shape[0]), "right")]
    parent = tree.parent[order]
    steps[:, _PARENT] = np.where(parent >= 0, row_of[np.maximum(parent, 0)], -1)
    steps[:, _SLOT] = tree.parent_slot[order]
    children = tree.children[order]
    steps[:, _CHILD:] = np.where(children >= 0, row_of[np.maximum(children, 0)], -1)
    table = np.zeros((nodes + 2 * infosets, max(_CHANCE + outcomes, width)))
    payoff = tree.payoff[order[:terminals]]
    table[:terminals, _VALUE : _VALUE + 3] = np.column_stack((payoff, -payoff, payoff))
    table[:nodes, _CHANCE : _CHANCE + outcomes] = tree.chance[order]
    roots = row_of[tree.deal_start]
    table[roots, _REACH : _REACH + 2] = 1.0
    table[roots, _REACH + 2] = tree.deal_probability
    fields = (steps, roots, tree.num_actions.astype(np.int64))
    header = np.zeros(1 + 3 * len(fields), dtype=np.int64)
    header[0] = terminals
    used = header.shape[0]
    for k, field in enumerate(fields):
        header[1 + 3 * k : 4 + 3 * k] = (used, field.shape[0], field.shape[1] if field.ndim == 2 else 0)
        used += field.size
    return np.concatenate((header, *(field.ravel() for field in fields))), table


@njit(**_INLINE)
def _packed_vector(buffer, k):
    start = buffer[1 + 3 * k]
    return buffer[start : start + buffer[2 + 3 * k]]


@njit(**_INLINE)
def _packed_matrix(buffer, k):
    start, rows, columns = buffer[1 + 3 * k], buffer[2 + 3 * k], buffer[3 + 3 * k]
    return buffer[start : start + rows * columns].reshape((rows, columns))


@njit(**_TREE_PASS)
def average_policy_values_packed(integers, table, strategy_sums):
    """:func:`average_policy_values` on the arrays of :func:`pack_for_metrics`: the average policy, reach, then
    :func:`_both_best_responses` row by row. Every number is the same product or sum, of the same terms in the same
    order, as there: the same results to the last bit (``tests/test_exploit.py``)."""
    steps, roots, num_actions = _packed_matrix(integers, 0), _packed_vector(integers, 1), _packed_vector(integers, 2)
    nodes, infosets = steps.shape[0], num_actions.shape[0]
    rows, average, scores = table[:nodes], table[nodes : nodes + infosets], table[nodes + infosets :]
    _average_rows(strategy_sums, num_actions, average)
    first = integers[0]  # the first row that is no terminal
    # Reach, parents first: each row takes its parent's and multiplies in the probability of the step between them.
    for row in range(nodes - 1, first - 1, -1):
        parent = steps[row, _PARENT]
        if parent < 0:
            continue
        slot = steps[row, _SLOT]
        own_0 = rows[parent, _REACH]
        own_1 = rows[parent, _REACH + 1]
        by_chance = rows[parent, _REACH + 2]
        actor = steps[parent, _ACTOR]
        if actor == CHANCE_NODE:
            by_chance *= rows[parent, _CHANCE + slot]
        elif actor == 0:
            own_0 *= average[steps[parent, _INFOSET], slot]
        else:
            own_1 *= average[steps[parent, _INFOSET], slot]
        rows[row, _REACH] = own_0
        rows[row, _REACH + 1] = own_1
        rows[row, _REACH + 2] = by_chance
    # Values, deepest first, an information set at a time: its rows, then its best action (see _both_best_responses).
    row = first
    while row < nodes:
        actor = steps[row, _ACTOR]
        if actor == CHANCE_NODE:
            total_0 = 0.0
            total_1 = 0.0
            total_2 = 0.0
            for outcome in range(steps.shape[1] - _CHILD):
                child = steps[row, _CHILD + outcome]
                if child < 0:
                    break
                probability = rows[row, _CHANCE + outcome]
                total_0 += probability * rows[child, _VALUE]
                total_1 += probability * rows[child, _VALUE + 1]
                total_2 += probability * rows[child, _VALUE + 2]
            rows[row, _VALUE] = total_0
            rows[row, _VALUE + 1] = total_1
            rows[row, _VALUE + 2] = total_2
            row += 1
            continue
        other = 1 - actor
        info = steps[row, _INFOSET]
        n = num_actions[info]
        end = steps[row, _RUN_END]
        for a in range(n):
            scores[info, a] = 0.0
        for j in range(row, end):
            weight = rows[j, _REACH + other] * rows[j, _REACH + 2]
            by_other = 0.0
            expected = 0.0
            for a in range(n):
                child = steps[j, _CHILD + a]
                probability = average[info, a]
                by_other += probability * rows[child, _VALUE + other]
                expected += probability * rows[child, _VALUE + 2]
                scores[info, a] += weight * rows[child, _VALUE + actor]
            rows[j, _VALUE + other] = by_other
            rows[j, _VALUE + 2] = expected
        best = 0
        for a in range(1, n):
            if scores[info, a] > scores[info, best]:
                best = a
        for j in range(row, end):
            rows[j, _VALUE + actor] = rows[steps[j, _CHILD + best], _VALUE + actor]
        row = end
    br_value_1 = 0.0
    br_value_2 = 0.0
    game_value = 0.0
    for deal in range(roots.shape[0]):
        root = roots[deal]
        probability = rows[root, _REACH + 2]  # (the deal's probability, as pack_for_metrics wrote it)
        br_value_1 += probability * rows[root, _VALUE]
        br_value_2 += probability * rows[root, _VALUE + 1]
        game_value += probability * rows[root, _VALUE + 2]
    return br_value_1, br_value_2, game_value


@njit(**_TREE_PASS)
def best_response_value(tree, policy, player, reach, value, scores):
    """The expected payoff ``player`` gets by best-responding to ``policy`` (the opponent's part of it).

    Information sets are resolved deepest first: at each depth the counterfactual value of every
    action, summed over the set's histories, picks the best action for the whole set.
    """
    _forward_reach(tree, policy, reach, 0, tree.deal_start.shape[0] - 1, 1.0)
    return _best_response_with_reach(tree, policy, player, reach, value, scores)


@njit(**_TREE_PASS)
def _best_response_with_reach(tree, policy, player, reach, value, scores):
    """:func:`best_response_value` with ``reach`` already filled in for ``policy`` (both players' best responses
    to one policy share one forward pass)."""
    deals = tree.deal_start.shape[0]
    sign = 1.0 if player == 0 else -1.0
    has_chance = tree.chance_nodes.shape[0] > 0
    order = tree.by_depth
    k = 0
    while k < order.shape[0]:
        depth = tree.depth[order[k]]
        end = k
        while end < order.shape[0] and tree.depth[order[end]] == depth:
            end += 1
        for j in range(k, end):  # terminals and the opponent's nodes are plain expectations
            node = order[j]
            actor = tree.player[node]
            if actor < 0:
                if actor != CHANCE_NODE:
                    value[node] = sign * tree.payoff[node]
            elif actor != player:
                info = tree.infoset[node]
                total = 0.0
                for a in range(tree.num_actions[info]):
                    total += policy[info, a] * value[tree.children[node, a]]
                value[node] = total
            else:
                info = tree.infoset[node]
                for a in range(tree.num_actions[info]):
                    scores[info, a] = 0.0
        for j in range(k, end):
            node = order[j]
            if tree.player[node] == player:
                info = tree.infoset[node]
                weight = reach[node, 1 - player] * reach[node, 2]
                for a in range(tree.num_actions[info]):
                    scores[info, a] += weight * value[tree.children[node, a]]
        for j in range(k, end):
            node = order[j]
            if tree.player[node] == player:
                info = tree.infoset[node]
                best = 0
                for a in range(1, tree.num_actions[info]):
                    if scores[info, a] > scores[info, best]:
                        best = a
                value[node] = value[tree.children[node, best]]
        # Chance nodes (their outcomes sit one level deeper) in a loop of their own, skipped where there are none:
        # a call to _chance_value inside the loops above slows Kuhn's best response (no chance node at all) by a
        # quarter.
        if has_chance:
            for j in range(k, end):
                node = order[j]
                if tree.player[node] == CHANCE_NODE:
                    value[node] = _chance_value(tree.children, tree.chance, value, node)
        k = end
    total = 0.0
    for deal in range(deals):
        total += tree.deal_probability[deal] * value[tree.deal_start[deal]]
    return total


@njit(**_TREE_PASS)
def expected_value(tree, policy, value):
    """The first player's expected payoff when both play ``policy``."""
    deals = tree.deal_start.shape[0]
    _backward_values(tree, policy, value, 0, deals - 1)
    total = 0.0
    for deal in range(deals):
        total += tree.deal_probability[deal] * value[tree.deal_start[deal]]
    return total


@njit(**_TREE_PASS)
def average_policy(strategy_sums, num_actions, out):
    """``out = S(I) / sum S(I)`` per information set, uniform over its legal actions where nothing was accumulated."""
    _average_rows(strategy_sums, num_actions, out)


@njit(**_INLINE)
def _average_rows(strategy_sums, num_actions, out):
    for info in range(strategy_sums.shape[0]):
        n = num_actions[info]
        total = 0.0
        for a in range(n):
            total += strategy_sums[info, a]
        for a in range(n):
            out[info, a] = strategy_sums[info, a] / total if total > 0.0 else 1.0 / n
        for a in range(n, strategy_sums.shape[1]):
            out[info, a] = 0.0


@njit(**_TREE_PASS)
def nash_conv_of(tree, policy, reach, value, scores):
    """Sum over both players of the best-response value against ``policy`` (zero-sum: that is NashConv)."""
    _forward_reach(tree, policy, reach, 0, tree.deal_start.shape[0] - 1, 1.0)
    return _best_response_with_reach(tree, policy, 0, reach, value, scores) + _best_response_with_reach(
        tree, policy, 1, reach, value, scores
    )


@njit(**_TREE_PASS)
def forward_reach(tree, policy, reach):
    """Reach probabilities (player 0, player 1, chance) of every node under ``policy``."""
    _forward_reach(tree, policy, reach, 0, tree.deal_start.shape[0] - 1, 1.0)


# ---------------------------------------------------------------------------------------
# Monte Carlo CFR (Lanctot, Waugh, Zinkevich & Bowling 2009): external and outcome sampling, walking one sampled part
# of the tree per traverser with an explicit stack (numba compiles no recursion worth having), as OpenSpiel's
# ``external_sampling_mccfr.py`` and ``outcome_sampling_mccfr.py`` define them.

EXTERNAL_SAMPLING, OUTCOME_SAMPLING = 6, 7
#: Outcome sampling's exploration: the traverser samples from ``epsilon * uniform + (1 - epsilon) * sigma``
#: (OpenSpiel's ``OutcomeSamplingSolver._expl``).
OUTCOME_EXPLORATION = 0.6


@njit(**_INLINE)
def _regret_matched(regrets, info, n, out):
    """``out[:n] = RM(R(I))``: the positive regrets normalised, uniform when none is positive (OpenSpiel's
    ``MCCFRSolverBase._regret_matching``)."""
    total = 0.0
    for a in range(n):
        r = regrets[info, a]
        total += r if r > 0.0 else 0.0
    for a in range(n):
        r = regrets[info, a]
        out[a] = (r if r > 0.0 else 0.0) / total if total > 0.0 else 1.0 / n


@njit(**_INLINE)
def _learns(tree, learner, info):
    return learner == BOTH_LEARN or tree.infoset_player[info] == learner


@njit(**_INLINE)
def _node_policy(tree, state, learner, info, n, out):
    """The strategy played at ``info`` now: RM of its regrets as they stand (OpenSpiel computes it at each visit), or
    a fixed opponent's own row."""
    if _learns(tree, learner, info):
        _regret_matched(state.regrets, info, n, out)
    else:
        for a in range(n):
            out[a] = state.policy[info, a]


@njit(**_INLINE)
def _external_sampling_walk(tree, state, player, learner):
    """One traversal of external sampling for ``player``; returns its sampled value of the root.

    The recursion it replaces (OpenSpiel's ``ExternalSamplingSolver._update_regrets``), with v in ``player``'s payoff:
    at a terminal v = u_i(z); at chance, and at the opponent's node with sigma(I) = RM(R(I)), one sampled child's v,
    after which the opponent's ``S(I, a) += sigma(I, a)`` (OpenSpiel's default "simple" averaging: an unweighted
    sum at the opponent's nodes, which the sampling itself weights by the opponent's reach); at ``player``'s own node
    every child, v = sum_a sigma(I, a) v(a) and ``R(I, a) += v(a) - v``. Nodes enter in prefix order and children in
    action order, so the uniforms are drawn in the recursion's order. Frame ``top`` of the ``stack_*`` arrays holds a
    node on the current path: its strategy, its children's values so far and the next child to walk.
    """
    sign = 1.0 if player == 0 else -1.0
    node = tree.deal_start[sample_index(tree.deal_probability, next_uniform(state.rng))]
    top = -1
    touched = 0
    value = 0.0
    while True:
        # Down: to a terminal, pushing a frame at every chance and decision node on the way.
        while True:
            touched += 1
            actor = tree.player[node]
            if actor == -1:
                value = sign * tree.payoff[node]
                break
            top += 1
            state.stack_node[top] = node
            if actor == CHANCE_NODE:
                node = tree.children[node, sample_index(tree.chance[node], next_uniform(state.rng))]
                continue
            info = tree.infoset[node]
            n = tree.num_actions[info]
            policy = state.stack_policy[top]
            _node_policy(tree, state, learner, info, n, policy)
            if actor == player:
                state.stack_next[top] = 0
                node = tree.children[node, 0]
            else:
                node = tree.children[node, sample_index(policy[:n], next_uniform(state.rng))]
        # Up: hand the value to the frames above, until one of ``player``'s frames has a child left to walk.
        descend = False
        while top >= 0:
            node = state.stack_node[top]
            actor = tree.player[node]
            if actor == player:
                info = tree.infoset[node]
                n = tree.num_actions[info]
                k = state.stack_next[top]
                state.stack_values[top, k] = value
                if k + 1 < n:
                    state.stack_next[top] = k + 1
                    node = tree.children[node, k + 1]
                    descend = True
                    break
                value = 0.0
                for a in range(n):
                    value += state.stack_policy[top, a] * state.stack_values[top, a]
                if _learns(tree, learner, info):
                    for a in range(n):
                        state.regrets[info, a] += state.stack_values[top, a] - value
            elif actor >= 0:
                info = tree.infoset[node]
                if _learns(tree, learner, info):
                    for a in range(tree.num_actions[info]):
                        state.strategy_sums[info, a] += state.stack_policy[top, a]
            top -= 1
        if not descend:
            state.touched[0] += touched
            return value


@njit(**_INLINE)
def _outcome_sampling_walk(tree, state, player, learner):
    """One episode of outcome sampling for ``player``; returns its sampled value estimate of the root.

    As OpenSpiel's ``OutcomeSamplingSolver._episode`` (no baseline): one history is sampled, chance by its
    probabilities, the opponent by sigma = RM(R), ``player`` by ``q = epsilon / n + (1 - epsilon) sigma`` with
    epsilon = 0.6. Going down, pi_i (own reach), pi_-i (opponent's and chance's) and q(h) (the sample's) are kept per
    node; coming back up with u, the estimate of the child's value, at a node with sampled action b:
    ``u_a = u / q(b)`` for a = b and 0 else, ``u_h = sum_a sigma(a) u_a``, and at ``player``'s nodes
    ``R(I, a) += u_a pi_-i / q(h) - u_h pi_-i / q(h)`` and ``S(I, a) += pi_i sigma(a) / q(h)`` (the stochastically
    weighted average, at the traverser's own nodes, as OpenSpiel does).
    """
    sign = 1.0 if player == 0 else -1.0
    deal = sample_index(tree.deal_probability, next_uniform(state.rng))
    node = tree.deal_start[deal]
    own, opponent, sample = 1.0, tree.deal_probability[deal], tree.deal_probability[deal]
    top = -1
    touched = 1
    actor = tree.player[node]
    while actor != -1:
        if actor == CHANCE_NODE:
            k = sample_index(tree.chance[node], next_uniform(state.rng))
            opponent *= tree.chance[node, k]
            sample *= tree.chance[node, k]
            node = tree.children[node, k]
        else:
            top += 1
            state.stack_node[top] = node
            state.stack_reach[top, 0] = own
            state.stack_reach[top, 1] = opponent
            state.stack_reach[top, 2] = sample
            info = tree.infoset[node]
            n = tree.num_actions[info]
            policy = state.stack_policy[top]
            behaviour = state.stack_values[top]  # (this walk needs no child values: the frame's row holds q)
            _node_policy(tree, state, learner, info, n, policy)
            for a in range(n):
                behaviour[a] = (
                    OUTCOME_EXPLORATION * (1.0 / n) + (1.0 - OUTCOME_EXPLORATION) * policy[a]
                    if actor == player
                    else policy[a]
                )
            b = sample_index(behaviour[:n], next_uniform(state.rng))
            state.stack_next[top] = b
            if actor == player:
                own *= policy[b]
            else:
                opponent *= policy[b]
            sample *= behaviour[b]
            node = tree.children[node, b]
        touched += 1
        actor = tree.player[node]
    value = sign * tree.payoff[node]
    while top >= 0:
        node = state.stack_node[top]
        info = tree.infoset[node]
        n = tree.num_actions[info]
        b = state.stack_next[top]
        sampled_value = value / state.stack_values[top, b]
        estimate = 0.0
        for a in range(n):
            estimate += state.stack_policy[top, a] * (sampled_value if a == b else 0.0)
        if tree.player[node] == player and _learns(tree, learner, info):
            own, opponent, sample = state.stack_reach[top, 0], state.stack_reach[top, 1], state.stack_reach[top, 2]
            policy_value = estimate * opponent / sample
            for a in range(n):
                state.regrets[info, a] += (sampled_value if a == b else 0.0) * opponent / sample - policy_value
            for a in range(n):
                state.strategy_sums[info, a] += own * state.stack_policy[top, a] / sample
        value = estimate
        top -= 1
    state.touched[0] += touched
    return value


@njit(**_TREE_PASS)
def _regret_matched_policy(tree, state, learner):
    """``sigma = RM(R)`` at every learning information set: the current policy, refreshed for reading."""
    for info in range(tree.infoset_player.shape[0]):
        if _learns(tree, learner, info):
            _regret_matched(state.regrets, info, tree.num_actions[info], state.policy[info])


@njit(**_TREE_PASS)
def run_mccfr(tree, state, variant, first_iteration, last_iteration, checkpoints, record):
    """Monte Carlo CFR iterations first..last, external or outcome sampling (``variant.code``).

    An iteration is one traversal (external) or one episode (outcome) for player 1, then one for player 2, as in
    OpenSpiel (outcome sampling against a fixed opponent: the learner's alone), drawing from the xoshiro256+ state
    ``state.rng`` so that any split of a run draws the same numbers. Strategies are regret matched at each visit;
    ``state.policy`` holds RM(R) after each checkpoint and at the end, and ``state.touched[0]`` counts every node
    entered.
    Same arguments and return value as :func:`run_cfr`.
    """
    written = 0
    for t in range(first_iteration, last_iteration + 1):
        for player in range(2):
            # Against a fixed opponent, external sampling still walks for it: the learner's average is summed at the
            # opponent's nodes, in the fixed player's traversal (which updates no regret of the fixed player's).
            if variant.code == OUTCOME_SAMPLING and variant.learner != BOTH_LEARN and player != variant.learner:
                continue
            # Self-play passes the learner as a constant, so that numba compiles a walk of its own for it: with the
            # learner a runtime value the walk took 6.8 us on Leduc against 0.8 us (its tests stay in the hot loop).
            if variant.code == EXTERNAL_SAMPLING:
                if variant.learner == BOTH_LEARN:
                    _external_sampling_walk(tree, state, player, BOTH_LEARN)
                else:
                    _external_sampling_walk(tree, state, player, variant.learner)
            elif variant.learner == BOTH_LEARN:
                _outcome_sampling_walk(tree, state, player, BOTH_LEARN)
            else:
                _outcome_sampling_walk(tree, state, player, variant.learner)
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            _regret_matched_policy(tree, state, variant.learner)
            record_cfr_checkpoint(tree, state, t, record, written)
            written += 1
    _regret_matched_policy(tree, state, variant.learner)
    return written


# ---------------------------------------------------------------------------------------
# Magnetic mirror descent with the dilated entropy (Sokota, D'Orazio, Kolter, Loizou, Lanctot, Mitliagkas, Brown &
# Kroer 2023), as OpenSpiel's ``mmd_dilated.py`` (``MMDDilatedEnt``) defines it, in behavioural form on the flat tree.

MAGNETIC_MIRROR_DESCENT = 8


@njit(**_TREE_PASS)
def _mmd_step(tree, state, variant, updating):
    r"""One MMD step for ``updating`` (2: both players at once, from the same profile; 0 or 1 against a fixed
    opponent), replacing ``state.policy`` and adding the policy it played to the strategy sums.

    In sequence form a player i maximises ``x^T u`` with ``u = A y`` (player 2: ``-A^T x``) over its treeplex, with the
    dilated entropy ``psi(x) = sum_I x_p(I) sum_a sigma(I, a) log sigma(I, a)`` (``sigma(I, a) = x_Ia / x_p(I)``,
    p(I) the sequence leading to I), whose minimiser, the uniform policy, is the magnet. MMD's step

        x_{t+1} = argmax_x  eta <u_t, x> - eta alpha psi(x) - B_psi(x; x_t)

    has the first-order condition ``(1 + eta alpha) grad psi(x) = eta u_t + grad psi(x_t)``, with
    ``grad psi(x)_Ia = log sigma(I, a) + 1 - |children(I a)|``. The constants cancel (each child information set of
    I a adds -1 to its logits, which passes up as -1), so ``x_{t+1} = argmax_x <h, x> - psi(x)`` with the logits

        h(I, a) = (eta u_t(I a) + log sigma_t(I, a)) / (1 + eta alpha),

    ``u_t(I a) = sum_z pi_c(z) pi_-i(z) u_i(z)`` over the leaves z whose last own action of i is (I, a). That
    maximum is found bottom-up: at each information set I, children first,

        sigma_{t+1}(I) = softmax(h(I)),   h(p(I)) += log sum_a exp h(I, a)   (the set's value, unless p(I) is empty),

    the closed form OpenSpiel's ``_update_state_sequences`` computes (its ``-g`` is our h; it adds
    ``<g, sigma> + sum sigma log sigma``, which is ``-logsumexp(-g)``). Before the step the strategy sums get
    ``S(I, a) += pi_i(h) sigma_t(I, a)`` for every history h of I (weight 1: a uniform average of the iterates'
    sequence forms, normalised per information set).

    Exponentials and logarithms are ``math.exp`` and ``math.log``, the C library's, which numba calls too: numpy's
    own differ in the last bit, and the plain-Python twin must give the compiled kernel's numbers.
    """
    deals = tree.deal_start.shape[0]
    nodes = tree.player.shape[0]
    width = state.policy.shape[1]
    logits = state.mmd_logits
    _forward_reach(tree, state.policy, state.reach, 0, deals - 1, 1.0)
    state.touched[0] += nodes
    for node in range(nodes):
        actor = tree.player[node]
        if actor < 0 or (updating != 2 and actor != updating):
            continue
        info = tree.infoset[node]
        own = state.reach[node, actor]
        for a in range(tree.num_actions[info]):
            state.strategy_sums[info, a] += own * state.policy[info, a]
    for info in range(tree.infoset_player.shape[0]):
        for a in range(width):
            logits[info, a] = 0.0
    # u_t(I a): each leaf's payoff, weighted by chance and the opponent, goes to each player's last own sequence.
    for node in range(nodes):
        if tree.player[node] != -1:
            continue
        for p in range(2):
            sequence = state.mmd_sequence[node, p]
            if sequence < 0 or (updating != 2 and p != updating):
                continue
            payoff = tree.payoff[node] if p == 0 else -tree.payoff[node]
            logits[sequence // width, sequence % width] += payoff * state.reach[node, 1 - p] * state.reach[node, 2]
    eta = variant.stepsize
    shrink = 1.0 + eta * variant.alpha
    for info in range(tree.infoset_player.shape[0]):
        if updating != 2 and tree.infoset_player[info] != updating:
            continue  # (a fixed opponent's rows may hold zeros, whose log is no number to compute)
        for a in range(tree.num_actions[info]):
            played = state.policy[info, a]
            logits[info, a] = (eta * logits[info, a] + (math.log(played) if played > 0.0 else -math.inf)) / shrink
    for k in range(state.mmd_order.shape[0]):
        info = state.mmd_order[k]
        if updating != 2 and tree.infoset_player[info] != updating:
            continue
        n = tree.num_actions[info]
        top = logits[info, 0]
        for a in range(1, n):
            top = max(top, logits[info, a])
        total = 0.0
        for a in range(n):
            total += math.exp(logits[info, a] - top)
        for a in range(n):
            state.policy[info, a] = math.exp(logits[info, a] - top) / total
        parent = state.mmd_parent[info]
        if parent >= 0:
            logits[parent // width, parent % width] += top + math.log(total)


@njit(**_TREE_PASS)
def run_mmd(tree, state, variant, first_iteration, last_iteration, checkpoints, record):
    """Magnetic mirror descent iterations first..last (:func:`_mmd_step`): both players at once as OpenSpiel's
    ``MMDDilatedEnt.update_sequences``, or the learner alone against a fixed opponent, with temperature
    ``variant.alpha`` and step size ``variant.stepsize``. Same arguments and return value as :func:`run_cfr`.
    """
    updating = 2 if variant.learner == BOTH_LEARN else variant.learner
    written = 0
    for t in range(first_iteration, last_iteration + 1):
        _mmd_step(tree, state, variant, updating)
        if written < checkpoints.shape[0] and checkpoints[written] == t:
            record_cfr_checkpoint(tree, state, t, record, written)
            written += 1
    return written
