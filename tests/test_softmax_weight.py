"""Hedge's exponential (``rmcore.kernels.matrix.softmax_weight``): against the exact value, the C library, the
plain-Python twin, and what it does to a Hedge run that drifts to the boundary."""

import decimal
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numba
import numpy as np
import pytest

from rmcore import MatrixSolver, preset
from rmcore.kernels import matrix, python_twin

from . import compiled_parts, naive_rules

SMALLEST_NORMAL = 2.0**-1022
LOG_SMALLEST_NORMAL = math.log(SMALLEST_NORMAL)


def _arguments(count=6000, seed=1):
    """Logits less the largest: spread over the whole normal range, near 0, and near the flush threshold."""
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [
            rng.uniform(LOG_SMALLEST_NORMAL, 0.0, count),
            -rng.exponential(1e-3, count // 3),
            rng.uniform(LOG_SMALLEST_NORMAL, LOG_SMALLEST_NORMAL + 2.0, count // 3),
        ]
    )


def _units_from_exact(value, x):
    """|value - e^x| in units in the last place of e^x, e^x to 40 digits."""
    exact = decimal.Decimal(float(x)).exp(decimal.Context(prec=40))
    return float(abs(decimal.Decimal(float(value)) - exact) / decimal.Decimal(math.ulp(float(exact))))


def test_within_half_a_unit_in_the_last_place_as_the_c_library_is():
    arguments = _arguments()
    ours = np.array([compiled_parts.softmax_weight(x) for x in arguments])
    theirs = np.array([math.exp(x) for x in arguments])
    # Every weight is within 0.501 of a unit in the last place of the exact value, down to 2^-1022 (the last rounding,
    # at the scale of the result, is one fused multiply-add). The C library's exp differs from it by one unit in about
    # one input of 2000 (glibc), where the exact value lies near halfway between two doubles and the library is as far
    # from it.
    assert max(_units_from_exact(ours[i], arguments[i]) for i in range(len(arguments))) <= 0.501
    differ = np.flatnonzero(ours != theirs)
    assert len(differ) < 0.002 * len(arguments)
    assert all(_units_from_exact(theirs[i], arguments[i]) >= 0.499 for i in differ)


def test_the_fused_multiply_add_rounds_once_compiled_and_in_the_plain_python_twin():
    """``fused_multiply_add`` against the exact ``a * b + c`` rounded once (fractions); the triples are chosen so that
    the product and the sum rounded apart give another double in most of them."""
    rng = np.random.default_rng(3)
    a = rng.uniform(-1.0, 1.0, 400)
    b = rng.uniform(-1.0, 1.0, 400) * 2.0 ** rng.integers(-30, 30, 400)
    c = -(a * b) * (1.0 + rng.uniform(-1e-3, 1e-3, 400))  # c near -a*b: the sum cancels, the product's error shows
    exact = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)]
    apart = [x * y + z for x, y, z in zip(a, b, c)]
    assert sum(e != p for e, p in zip(exact, apart)) > 300

    @numba.njit(fastmath=False)
    def compiled(a, b, c, out):
        for i in range(a.shape[0]):
            out[i] = matrix.fused_multiply_add(a[i], b[i], c[i])

    out = np.empty(400)
    compiled(a, b, c, out)
    assert out.tolist() == exact
    twin = python_twin("matrix")
    assert [twin.fused_multiply_add(x, y, z) for x, y, z in zip(a, b, c)] == exact
    assert (
        math.isnan(twin.fused_multiply_add(math.inf, 0.0, 1.0))
        and twin.fused_multiply_add(1.0, 2.0, math.inf) == math.inf
    )
    assert math.copysign(1.0, twin.fused_multiply_add(-0.0, 1.0, -0.0)) == -1.0


@pytest.mark.parametrize("optimistic", [False, True])
def test_the_softmax_gives_the_largest_logit_weight_one_and_equals_its_twin(optimistic):
    """Hedge's softmax (``matrix._softmax``): the largest logit's weight is ``e^0 = 1`` before normalising, with
    ties, excluded actions (``-inf``) and logits far apart; compiled and as plain Python, the same bits."""
    rng = np.random.default_rng(4)
    cases = [rng.normal(0.0, scale, 3) for scale in (0.01, 1.0, 300.0) for _ in range(100)]
    cases += [
        np.array(case, dtype=float) for case in ([1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [2.0, 2.0, 2.0])
    ]
    cases += [rng.normal(0.0, 3.0, size) for size in (2, 5, 9) for _ in range(20)]
    twin = python_twin("matrix")
    with np.errstate(divide="ignore"):
        for case_index, scores in enumerate(cases):
            size = scores.shape[0]
            prediction = rng.normal(0.0, 1.0, size)
            starts = [np.zeros(size), np.log(rng.dirichlet(np.ones(size))), np.log(np.eye(size)[0])]
            log_start = starts[case_index % len(starts)]
            compiled, plain = np.empty(size), np.empty(size)
            compiled_parts.softmax(scores, prediction, optimistic, log_start, 0.7, compiled)
            with np.errstate(over="ignore"):
                twin._softmax(scores, prediction, optimistic, log_start, 0.7, plain)
            assert compiled.tobytes() == plain.tobytes(), (scores, log_start)
            logits = 0.7 * (scores + prediction if optimistic else scores) + log_start
            top = np.flatnonzero(logits == logits.max())
            assert np.all(compiled[top] == compiled[top[0]]) and compiled.max() == compiled[top[0]]
            assert compiled.sum() == pytest.approx(1.0, abs=1e-15)


def test_exact_values_and_the_ends():
    assert compiled_parts.softmax_weight(0.0) == 1.0 and compiled_parts.softmax_weight(-0.0) == 1.0
    assert compiled_parts.softmax_weight(-math.log(2.0)) == 0.5
    assert compiled_parts.softmax_weight(-math.inf) == 0.0  # the logit of an action the start excludes
    assert math.isnan(compiled_parts.softmax_weight(math.nan))
    # Below 2^-1022 a weight is 0 rather than a subnormal number; just above, it is the normal double.
    assert compiled_parts.softmax_weight(LOG_SMALLEST_NORMAL - 1e-9) == 0.0
    assert compiled_parts.softmax_weight(-745.2) == 0.0 and compiled_parts.softmax_weight(-1e300) == 0.0
    just_above = compiled_parts.softmax_weight(LOG_SMALLEST_NORMAL + 1e-9)
    assert SMALLEST_NORMAL <= just_above == pytest.approx(math.exp(LOG_SMALLEST_NORMAL + 1e-9), rel=1e-15)


def test_the_plain_python_twin_gives_the_same_bits():
    """What runs while the kernels compile is the same function as plain Python, with no warning on the way."""
    twin = python_twin("matrix")
    arguments = np.concatenate([_arguments(count=600), [-math.inf, -745.0, -746.0, -1e300, 0.0]])
    with np.errstate(over="ignore", invalid="raise", divide="raise"):
        plain = [twin.softmax_weight(np.float64(x)) for x in arguments]
    assert plain == [compiled_parts.softmax_weight(x) for x in arguments]


def test_a_kernel_compiled_with_fastmath_gets_the_same_bits(tmp_path):
    """A kernel's fastmath flags do not reach the exponential: in a fresh process with an empty cache, a fastmath
    caller compiled first (as a kernel is) gives the plain-Python twin's bits, and so does the cached build after it."""
    arguments = np.concatenate([_arguments(count=600), [-math.inf, -745.0, 0.0]])
    np.save(tmp_path / "arguments.npy", arguments)
    script = f"""
import numpy as np, numba
from rmcore.kernels import matrix
@numba.njit(fastmath={{"reassoc", "contract", "arcp"}})
def caller(values, out):
    for i in range(values.shape[0]):
        out[i] = matrix.softmax_weight(values[i])
@numba.njit
def alone(x):
    return matrix.softmax_weight(x)
values = np.load({str(tmp_path / "arguments.npy")!r})
out = np.empty_like(values)
caller(values, out)
np.save({str(tmp_path / "weights.npy")!r}, np.array([out, [alone(x) for x in values]]))
"""
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    subprocess.run([sys.executable, "-c", script], check=True, env=environment, cwd=Path(__file__).parents[1])
    in_a_kernel, standalone = np.load(tmp_path / "weights.npy")
    twin = python_twin("matrix")
    with np.errstate(over="ignore", invalid="raise", divide="raise"):
        plain = np.array([twin.softmax_weight(np.float64(x)) for x in arguments])
    assert np.array_equal(in_a_kernel, plain) and np.array_equal(standalone, plain)


def test_a_hedge_run_at_the_boundary_has_no_subnormal_probability_and_equals_the_plain_loop():
    """A large step drives Hedge's strategies to the boundary within a few hundred iterations: after 181 the plain loop
    (the C library's exp) holds probabilities under 2^-1022, the kernel holds 0 in their place, and nothing else
    moves."""
    game = preset("rps-crash")
    solver = MatrixSolver(game, "hedge", eta=20.0)
    solver.run(181)
    A, B = game.row_payoffs.tolist(), game.col_payoffs.tolist()
    avg_x, avg_y, _, _, cur_x, cur_y = naive_rules.reference_rule_run(A, B, 181, "hedge", eta=20.0)
    plain = np.array(cur_x + cur_y)
    assert np.any((plain > 0) & (plain < SMALLEST_NORMAL))  # the plain loop met subnormal probabilities
    current = np.concatenate([solver.current_policy()["row"], solver.current_policy()["col"]])
    assert not np.any((current > 0) & (current < SMALLEST_NORMAL))
    np.testing.assert_allclose(current, plain, rtol=0, atol=1e-12)
    average = solver.average_policy()
    np.testing.assert_allclose(np.concatenate([average["row"], average["col"]]), avg_x + avg_y, rtol=0, atol=1e-12)
