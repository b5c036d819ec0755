"""The kernels' parts called from Python, for tests: each compiled into a small function of its own (a part is compiled
into the kernels that call it, and has no entry point from Python)."""

import numba

from rmcore.kernels import matrix


@numba.njit(cache=True)
def project_onto_simplex(values, active):
    matrix.project_onto_simplex(values, active)


@numba.njit(cache=True)
def softmax_weight(shifted):
    return matrix.softmax_weight(shifted)


@numba.njit(cache=True)
def fused_multiply_add(a, b, c):
    return matrix.fused_multiply_add(a, b, c)


@numba.njit(cache=True)
def softmax(scores, prediction, optimistic, log_start, eta, out):
    matrix._softmax(scores, prediction, optimistic, log_start, eta, out)
