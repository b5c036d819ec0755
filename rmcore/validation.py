"""Checks every public function runs on what it is given: one place, one wording.

Each helper returns the value in its canonical form or raises ``ValueError`` with a sentence a
student can act on (what was expected, what was given).

>>> whole_number(5, "iterations", 0)
5
>>> choice("rm+", ("rm", "rm+"), "algorithm")
'rm+'
>>> as_strategy([2, 1, 1], 3, "opponent", normalise=True).tolist()
[0.5, 0.25, 0.25]
"""

from __future__ import annotations

import numpy as np

from . import config

__all__ = [
    "choice",
    "whole_number",
    "history_points",
    "seed_words",
    "as_strategy",
    "named_parts",
    "normalised",
    "text",
    "start_weights",
    "payoff",
]


def choice(value, allowed, what: str) -> str:
    """``value`` if it is one of the names ``allowed``."""
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value


def whole_number(value, what: str, minimum: int) -> int:
    """``value`` as an ``int`` if it is a whole number (not a bool, not a float) of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{what} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def history_points(value) -> int:
    """``max_points``: a whole number from 0 to ``config.MAX_POINTS`` (each row holds the policies: Leduc's are 67
    kB)."""
    points = whole_number(value, "max_points", 0)
    if points > config.MAX_POINTS:
        raise ValueError(f"max_points must be at most {config.MAX_POINTS:,}, got {points:,}")
    return points


def seed_words(seed) -> tuple[np.ndarray, int]:
    """The four uint64 words of an xoshiro256+ state drawn from ``seed``, and the seed itself.

    ``None`` draws fresh entropy; the returned seed reproduces the run.
    """
    if seed is not None:
        seed = whole_number(seed, "seed", 0)
    sequence = np.random.SeedSequence(seed)
    words = sequence.generate_state(4, np.uint64)
    if not words.any():  # xoshiro's one forbidden state
        words[0] = 1
    return words, sequence.entropy


def as_strategy(values, size: int, who: str, *, normalise: bool = False) -> np.ndarray:
    """Validate a mixed strategy of ``size`` actions and return it as a float64 array.

    With ``normalise=True`` any non-negative vector with a positive sum is accepted and scaled
    to sum to one (how a fixed opponent is given); otherwise it must already sum to one within
    ``config.SIMPLEX_TOLERANCE``.

    Raises
    ------
    ValueError
        If the length is wrong, an entry is not a finite number or is negative, or the sum is off.
    """
    try:
        p = np.array(values, dtype=np.float64).reshape(-1) if np.ndim(values) <= 1 else None
    except (TypeError, ValueError):
        raise ValueError(f"{who} must be a list of {size} numbers") from None
    if p is None:
        raise ValueError(f"{who} must be a flat list of {size} probabilities")
    if p.shape[0] != size:
        raise ValueError(f"{who} has {p.shape[0]} entries but the player has {size} actions")
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{who}: entry {int(np.argmin(np.isfinite(p))) + 1} is not a finite number")
    if np.any(p < 0):
        raise ValueError(
            f"{who}: entry {int(np.argmax(p < 0)) + 1} is negative ({p[p < 0][0]:g}); probabilities are >= 0"
        )
    if normalise:
        if not p.any():
            raise ValueError(f"{who} is all zeros; give at least one action a positive weight")
        return normalised(p)
    total = float(p.sum())
    if abs(total - 1.0) > config.SIMPLEX_TOLERANCE:
        raise ValueError(f"{who} sums to {total:.12g}, not 1")
    return p


def normalised(weights: np.ndarray) -> np.ndarray:
    """Non-negative finite ``weights`` (not all zero) scaled to sum to one.

    Where the sum overflows, the weights are divided by the largest first: ``[1e308, 1e308]`` is ``[0.5, 0.5]``, not
    ``[0, 0]``. (Only there: every sum that fits is divided as it is, so the same weights give the same bits on every
    route, the page, the command line and the library.)

    >>> normalised(np.array([1e308, 1e308])).tolist()
    [0.5, 0.5]
    """
    with np.errstate(over="ignore"):
        total = weights.sum()
    if np.isfinite(total):
        return weights / total
    scaled = weights / weights.max()
    return scaled / scaled.sum()


def named_parts(text, catalogues: dict, what: str, example: str) -> dict[str, str]:
    """``{field: name}`` from names joined by ``/`` in any order, each found in exactly one catalogue.

    >>> named_parts("b/x", {"letter": ("a", "b"), "other": ("x",)}, "a pair", "a/x")
    {'letter': 'b', 'other': 'x'}
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{what} is names joined by '/', like {example!r}; got {text!r}")
    fields: dict[str, str] = {}
    for token in (part.strip() for part in text.split("/")):
        field = next((f for f, names in catalogues.items() if token in names), None)
        if field is None:
            known = ", ".join(name for names in catalogues.values() for name in names)
            raise ValueError(f"unknown part {token!r} in {text!r}; the parts are: {known}")
        if field in fields:
            raise ValueError(f"{text!r} names the {field} twice ({fields[field]!r} and {token!r})")
        fields[field] = token
    return fields


def text(value, what: str) -> str:
    """``value`` as text that can be written out (to a page, a file, a link): a lone surrogate (``"\\ud800"``, which a
    JSON link can carry but UTF-8 cannot encode) is refused, naming where it is.

    >>> text("Rock", "row action 1")
    'Rock'
    >>> text("x\\ud800", "the game's name")
    Traceback (most recent call last):
    ...
    ValueError: the game's name has a lone surrogate (\\ud800) at character 2: not a character text can hold
    """
    value = str(value)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        shown = value[error.start].encode("unicode_escape").decode("ascii")
        raise ValueError(
            f"{what} has a lone surrogate ({shown}) at character {error.start + 1}: not a character text can hold"
        ) from None
    return value


def start_weights(values, size: int, who: str) -> tuple[float, ...]:
    """A starting strategy given as weights (normalised later): ``size`` finite numbers, none negative, not all zero.

    >>> start_weights([1, 2, 1], 3, "the row player's start")
    (1.0, 2.0, 1.0)
    >>> start_weights([0, 0], 2, "the column player's start")
    Traceback (most recent call last):
    ...
    ValueError: the column player's start is all zeros; give at least one action a positive weight
    """
    as_strategy(values, size, who, normalise=True)  # the length, finite numbers, none negative, a positive sum
    return tuple(float(v) for v in np.asarray(values, dtype=np.float64).reshape(-1))


def payoff(value, where: str) -> float:
    """A game tree's payoff as a float within the matrix games' limits: finite, at most ``config.MAX_PAYOFF`` in size,
    and zero or at least ``config.MIN_PAYOFF``. Far outside them CFR's regret sums overflow (1e308) or lose every digit
    (subnormal numbers), and no solver depends on the payoffs' unit.

    >>> payoff(-2, "the payoff at J Q p b")
    -2.0
    >>> payoff(1e308, "a payoff")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a payoff is 1e+308; payoffs must lie within ±1e+12 (rescale the game: ...)
    """
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{where} is {str(value)[:40]!r}, not a number that fits a double") from None
    rescale = "rescale the game: no solver depends on the payoffs' unit"
    if not np.isfinite(number):
        raise ValueError(f"{where} is not a finite number")
    if abs(number) > config.MAX_PAYOFF:
        raise ValueError(f"{where} is {number:.3g}; payoffs must lie within ±{config.MAX_PAYOFF:.0e} ({rescale})")
    if number != 0 and abs(number) < config.MIN_PAYOFF:
        raise ValueError(
            f"{where} is {number:.3g}; a non-zero payoff must be at least {config.MIN_PAYOFF:.0e} in size ({rescale})"
        )
    return number
