"""Reading what a user hands over: files read with a cap on their size, JSON with caps on depth and numbers.

Every route that takes a file or a JSON text (the command line, a share link, an upload) reads it here, so that a
hostile input costs a bounded amount of work and memory and fails with one sentence:

* a file is read only if it is a regular file, and never past its cap (``getsize`` can say 0 for ``/dev/zero``, and
  opening a FIFO would wait for a writer forever);
* JSON is refused past ``MAX_JSON_DEPTH`` levels of nesting (Python's parser recurses: 3,000 levels in 6 kB raised
  RecursionError) and past ``MAX_NUMBER_CHARS`` digits in a number (a 400-digit integer overflowed ``float``).

>>> loads_json('{"A": [[1, 2.5], [3, 4]]}', "matrix")
{'A': [[1, 2.5], [3, 4]]}
>>> loads_json("[" * 100 + "]" * 100, "matrix")
Traceback (most recent call last):
...
ValueError: matrix is nested 100 levels deep; at most 32 are read
"""

from __future__ import annotations

import json
import math
import os
import stat

__all__ = ["MAX_JSON_DEPTH", "MAX_NUMBER_CHARS", "loads_json", "read_text"]

#: Deepest nesting of JSON arrays and objects read (a game is 3 levels deep, a setup file 5).
MAX_JSON_DEPTH = 32
#: Longest number read from JSON, in characters: 17 significant digits, a sign, a point and an exponent fit.
MAX_NUMBER_CHARS = 40


def read_text(path, limit: int, what: str) -> str:
    """The text of the regular file ``path`` (UTF-8, an optional byte-order mark dropped), at most ``limit`` characters.

    Raises
    ------
    ValueError
        If the file cannot be opened, is not a regular file (a device, a FIFO, a folder), holds more than ``limit``
        characters or is not UTF-8 text.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ValueError(f"{what} {str(path)!r} is not a regular file (a device, a pipe or a folder)")
        with open(path, "rb") as handle:
            data = handle.read(4 * limit + 4)  # UTF-8 takes at most 4 bytes a character
    except OSError as error:
        raise ValueError(f"cannot read {what} {str(path)!r}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{what} {str(path)!r} is not a UTF-8 text file") from None
    if len(text) > limit:
        raise ValueError(f"{what} {str(path)!r} is longer than {limit:,} characters, the most that is read")
    return text


def _depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for character in text:
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


def _integer(text: str, what: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"{what} holds a number of {len(text):,} characters; at most {MAX_NUMBER_CHARS} are read")
    return int(text)


def _number(text: str, what: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"{what} holds a number of {len(text):,} characters; at most {MAX_NUMBER_CHARS} are read")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{what} holds the number {text[:20]}, too large for a double")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def loads_json(text: str, what: str):
    """JSON ``text``, refusing deep nesting, long numbers, numbers beyond a double and NaN/Infinity.

    Raises
    ------
    ValueError
        Naming ``what`` and the reason: not JSON, too deep, a number too long or too large.
    """
    if not isinstance(text, str):
        raise ValueError(f"{what} must be JSON text, not {type(text).__name__}")
    if (deepest := _depth(text)) > MAX_JSON_DEPTH:
        raise ValueError(f"{what} is nested {deepest} levels deep; at most {MAX_JSON_DEPTH} are read")
    try:
        return json.loads(
            text,
            parse_int=lambda s: _integer(s, what),
            parse_float=lambda s: _number(s, what),
            parse_constant=_no_constant,
        )
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError(f"{what} is nested too deeply") from None
    except ValueError as error:
        message = str(error)
        raise ValueError(message if message.startswith(what) else f"{what} is not valid JSON ({message})") from None
