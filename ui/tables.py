"""Small tables drawn as Markdown: a live page redraws its tables several times a second.

``st.table`` of a styled DataFrame cost milliseconds of the server's time per update (the Styler and the Arrow
conversion), a fifth of everything else an update of the matrix page costs; the same table as Markdown costs
a few microseconds and looks the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .escape import markdown as escape


def markdown_table(
    columns: Sequence[str], rows: Iterable[Sequence[object]], numeric: Sequence[bool] | None = None
) -> str:
    """A Markdown table of ``rows`` (cells already formatted, or any value) under ``columns``; ``numeric`` columns
    are aligned right.

    >>> print(markdown_table(["action", "p"], [("R|ock", "0.2500")], numeric=[False, True]))
    | action | p |
    |:---|---:|
    | R\\|ock | 0.2500 |
    """
    numeric = numeric or [False] * len(columns)
    lines = [
        "| " + " | ".join(escape(c) for c in columns) + " |",
        "|" + "|".join("---:" if n else ":---" for n in numeric) + "|",
    ]
    lines += ["| " + " | ".join(escape(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
