"""Compiled code only: one file per family of kernels, pure loops over arrays they are given.

- :mod:`~rmcore.kernels.rng`: the random numbers every sampled variant draws (xoshiro256+);
- :mod:`~rmcore.kernels.matrix`: one kernel for every learning rule on a matrix game;
- :mod:`~rmcore.kernels.tree`: the game-tree layout's passes (reach, the CFR update, the best responses), Monte Carlo
  CFR's sampled walks and magnetic mirror descent.

No validation and no allocation happen here: the wrappers (``rmcore/matrix/solver.py``, ``rmcore/trees/``)
validate, allocate (:func:`aligned`) and read the results, and ``rmcore/_runtime.py`` decides whether a call runs
compiled or, while a family compiles in a process of its own, as the same file run as plain Python
(:func:`python_twin`).

numba caches compiled code per source file and knows nothing of the jitted functions a file calls in another one, so a
family that calls :mod:`rng` would keep running an edited generator's old code. :class:`_FamilyStamp` closes that gap:
a family file's cache is stamped with its own content and that of every kernel file it reads through
:func:`sibling`, so an edit to ``rng.py`` recompiles both families, while an edit to ``tree.py`` leaves the matrix
kernel's cache alone.

Both that stamp and :func:`rmcore._runtime.on_disk` read numba's private cache classes (``numba.core.caching``), which
any numba release may change: ``requirements.txt`` and ``pyproject.toml`` pin the releases this is tested with
(:data:`NUMBA_TESTED`), and a numba whose classes are not the ones read here fails with a message that says so.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import re

import numba
import numpy as np
from numba.core import caching
from numba.extending import register_jitable

__all__ = [
    "NUMBA_TESTED",
    "TWIN_SUFFIX",
    "FAMILIES",
    "ALIGNMENT",
    "aligned",
    "jit_for",
    "part_for",
    "sibling",
    "python_twin",
    "is_twin",
    "family_stamp",
]

#: The numba releases the kernels, their family stamp and the check of numba's disk cache are tested with: the pin in
#: ``requirements.txt`` and ``pyproject.toml``, and the range the installation docs list. Besides the private cache
#: classes (``numba.core.caching``: the locators' list, ``Cache._index_key``, the index file's ``_load_index``) and a
#: dispatcher's ``typeof_pyval``, ``overloads`` and ``targetctx``, the kernels use ``numba.extending.intrinsic`` with
#: llvmlite's IR builder (the fused multiply-add of ``kernels/matrix.py``; numba pins its own llvmlite).
NUMBA_TESTED = ">=0.68,<0.69"
#: The module names of the kernel files loaded again as plain Python end with this (``python_twin``).
TWIN_SUFFIX = "_python_twin"
#: The kernel families, each compiled and cached as a whole (``python -m rmcore._compile FAMILY``).
FAMILIES = ("matrix", "tree")
_HERE = os.path.dirname(os.path.abspath(__file__))
#: Every array a kernel reads in vector registers starts on a boundary of this many bytes, a cache line. numpy starts
#: an array on a 16-byte boundary; a 64-byte vector load from an array that starts mid-line spans two lines, and
#: matrix games of 32 to 256 columns then ran at half their speed (``python -m rmcore bench --only matrix``).
ALIGNMENT = 64


def aligned(array) -> np.ndarray:
    """A C-contiguous, writable copy of ``array`` (same dtype and shape) that starts on an :data:`ALIGNMENT`-byte
    boundary."""
    array = np.asarray(array)
    buffer = np.empty(array.nbytes + ALIGNMENT, dtype=np.uint8)
    offset = -buffer.ctypes.data % ALIGNMENT
    out = buffer[offset : offset + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    return out


def is_twin(module_name: str) -> bool:
    """Whether ``module_name`` is a kernel file loaded as plain Python."""
    return module_name.endswith(TWIN_SUFFIX)


def jit_for(module_name: str):
    """The decorator a kernel file compiles with: ``numba.njit``, or for its plain-Python twin one that leaves every
    function as it is (so that both run the same source)."""
    if not is_twin(module_name):
        return numba.njit

    def leave_as_is(*function, **options):
        return function[0] if function else (lambda kernel: kernel)

    return leave_as_is


def part_for(module_name: str):
    """The decorator of a kernel's parts, the functions only kernels call: ``numba.extending.register_jitable``, which
    compiles a part into each kernel that calls it (inlined by LLVM with ``forceinline``) rather than as a function of
    its own with an entry point from Python, its own machine code and its own cache file; or for the twin one that
    leaves every function as it is."""
    if is_twin(module_name):
        return jit_for(module_name)

    def part(*function, **options):
        if function:
            return register_jitable(*function)
        return register_jitable(**options)

    return part


def sibling(module_name: str, name: str):
    """The kernel file ``name`` as the file ``module_name`` reads it: compiled, or its twin from a twin."""
    if is_twin(module_name):
        return python_twin(name)
    return importlib.import_module(f"{__name__}.{name}")


@functools.cache
def python_twin(name: str):
    """Kernel file ``name`` (``"matrix"``, ``"tree"``, ``"rng"``) loaded a second time with every ``@njit`` left out.

    The same loops as plain Python functions: a thousand times slower, but they need no compile, so a server whose
    numba cache is empty answers at once while the family compiles in a process of its own. The kernels use no
    ``fastmath`` (no reassociated sums, no contracted multiply-adds) but in the three functions of a wide matrix game's
    rows (``kernels.matrix.WIDE_ROWS`` columns or more, a game the twin never stands in for), so the twin computes the
    same numbers to the last bit (``tests/test_kernel_twin.py``). The random number generator's uint64 arithmetic
    wraps around by design: call the twin under ``np.errstate(over="ignore")``.
    """
    spec = importlib.util.spec_from_file_location(f"{__name__}.{name}{TWIN_SUFFIX}", os.path.join(_HERE, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_READS = re.compile(r"""sibling\(__name__,\s*["'](\w+)["']\)""")


def _reads(name: str) -> tuple[str, ...]:
    """The kernel files that file ``name`` reads through :func:`sibling`, and the files those read."""
    with open(os.path.join(_HERE, f"{name}.py"), encoding="utf-8") as source:
        direct = _READS.findall(source.read())
    found: list[str] = []
    for other in direct:
        for dependency in (*_reads(other), other):
            if dependency not in found and dependency != name:
                found.append(dependency)
    return tuple(found)


def family_stamp(path: str) -> bytes:
    """The stamp numba's cache keeps for the kernel file at ``path``: a hash of its content and of every kernel file
    it reads, so that an edit to any of them makes its cached code stale."""
    name = os.path.splitext(os.path.basename(path))[0]
    digest = hashlib.sha256()
    for part in (name, *_reads(name)):
        with open(os.path.join(_HERE, f"{part}.py"), "rb") as source:
            digest.update(hashlib.sha256(source.read()).digest())
    return digest.digest()


def _in_this_package(py_file: str) -> bool:
    return os.path.dirname(os.path.abspath(py_file)) == _HERE


class _FamilyStamp:
    """A numba cache locator for the files of this package, stamped by :func:`family_stamp`."""

    def get_source_stamp(self):
        return family_stamp(self._py_file)

    @classmethod
    def from_function(cls, py_func, py_file):
        return super().from_function(py_func, py_file) if _in_this_package(py_file) else None


class _UserDirectoryFamily(_FamilyStamp, caching.UserProvidedCacheLocator):
    """Under ``NUMBA_CACHE_DIR`` when it is set, as numba's own first choice."""


class _InTreeFamily(_FamilyStamp, caching.InTreeCacheLocator):
    """In the package's ``__pycache__`` otherwise."""


def _stamp_families(cache_classes) -> None:
    """Put the family-stamped locators first in numba's list of cache locators (``CacheImpl._locator_classes``).

    numba offers no public hook for a file's stamp: its cache asks each class of that list in turn. Ours go first and
    answer only for this package's files; every other function is cached as numba does it. A numba without that list
    would cache a family under its own file's stamp alone (an edited ``rng.py`` would leave its families' old code
    running): an ``ImportError`` that names the releases tested says so instead.
    """
    locators = getattr(cache_classes, "_locator_classes", None)
    if not isinstance(locators, list):
        raise ImportError(
            f"rmcore's kernels are tested with numba {NUMBA_TESTED}, and numba {numba.__version__} has no list of "
            "cache locators (numba.core.caching.CacheImpl._locator_classes) to stamp each kernel family's cache with "
            f"the files it reads: install numba{NUMBA_TESTED}"
        )
    for locator in (_InTreeFamily, _UserDirectoryFamily):
        if locator not in locators:
            locators.insert(0, locator)


_stamp_families(caching.CacheImpl)
