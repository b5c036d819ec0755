"""The child process of :func:`rmcore.load_openspiel`: ``python -m rmcore.formats._openspiel_child REQUEST``.

``REQUEST`` is JSON: the game string, :func:`~rmcore.from_openspiel`'s caps, and the limits. The child caps its own
address space and processor time, loads the game with ``pyspiel.load_game``, converts it, and writes one pickle to
its standard output: ``("game", TreeGame)``, ``("refused", sentence)`` or ``("memory", "")``. OpenSpiel's own words
(it prints its exceptions to the standard error too) go no further than the first line of a refusal, without paths.
"""

from __future__ import annotations

import difflib
import json
import math
import pickle
import re
import resource
import sys

from .._compile import _end_with_the_parent
from .openspiel import check_game_string, from_openspiel

#: A line OpenSpiel writes when one of its internal checks fails: it starts with a source file and a line number.
_CHECK = re.compile(r"^\S+\.(cc|h):\d+")
#: Longest part of OpenSpiel's own words kept in a refusal.
_SAID_CHARS = 200


def _limit(megabytes: int, seconds: float) -> None:
    """Cap this process: its address space at ``megabytes`` (an allocation past it fails: MemoryError in Python,
    ``std::bad_alloc`` in OpenSpiel) and its processor time a little past ``seconds`` (SIGXCPU: the parent kills the
    child at ``seconds`` of wall-clock time; this stops it should the parent be gone)."""
    size = megabytes * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    cpu = math.ceil(seconds) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 3))


def _load(text: str):
    """``pyspiel.load_game(text)``, or ValueError in one sentence (OpenSpiel's first line, paths left out)."""
    import pyspiel

    try:
        return pyspiel.load_game(text)
    except pyspiel.SpielError as error:
        said = str(error).strip()
        if said.startswith("Unknown game"):
            name = text.split("(")[0].strip()
            near = difflib.get_close_matches(name, pyspiel.registered_names(), n=3)
            also = f" (did you mean {', '.join(near)}?)" if near else " (pyspiel.registered_names() lists them)"
            raise ValueError(f"OpenSpiel has no game {name!r}{also}") from None
        first = said.splitlines()[0] if said else ""
        if not first or _CHECK.match(first) or "/" in first:
            first = "one of its internal checks failed on these parameters"
        first = " ".join(first.split())
        first = first if len(first) <= _SAID_CHARS else first[: _SAID_CHARS - 3] + "..."
        raise ValueError(f"OpenSpiel cannot load {text!r}: {first.rstrip('.')}") from None


def answer(request: dict) -> tuple[str, object]:
    """What the child writes back for ``request``."""
    try:
        text = check_game_string(request["text"])
        game = _load(text)
        return "game", from_openspiel(game, max_nodes=request["max_nodes"], max_moves=request["max_moves"])
    except ValueError as error:
        return "refused", str(error)
    except MemoryError:
        return "memory", ""


def main(argv: list[str]) -> int:
    request = json.loads(argv[0])
    _limit(request["megabytes"], request["seconds"])
    _end_with_the_parent()
    reply = answer(request)
    try:
        data = pickle.dumps(reply, protocol=4)
    except MemoryError:
        reply = None
        data = pickle.dumps(("memory", ""), protocol=4)
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
