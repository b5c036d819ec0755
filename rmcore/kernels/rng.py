"""Random numbers for the sampled variants: xoshiro256+ (Blackman & Vigna 2018), its state kept in the solver's.

The state travels with the solver, so that a run split into any chunks draws exactly the same numbers. All arithmetic
stays in uint64: numba types uint64 + int64 as float64, which would silently ruin the generator.
"""

from __future__ import annotations

import numpy as np

from . import jit_for, part_for

njit = jit_for(__name__)
part = part_for(__name__)

_U11 = np.uint64(11)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_U64 = np.uint64(64)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


@part(error_model="numpy", _nrt=False, forceinline=True)
def _rotl(x, k):
    return (x << k) | (x >> (_U64 - k))


@part(error_model="numpy", _nrt=False, forceinline=True)
def next_uniform(rng):
    """Advance the xoshiro256+ state ``rng`` (4 x uint64) and return a float in [0, 1): its top 53 bits."""
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


@part(error_model="numpy", _nrt=False, forceinline=True)
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
