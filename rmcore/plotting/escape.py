"""Text a user gave (a game's, an action's or an information set's name), shown as typed in a figure.

Plotly renders a subset of HTML (``<a href>``, ``<b>``, ``<br>``, ``<span style>``) in titles, legends, tick labels,
annotations and hover text. A name such as ``<a href=x>y</a>`` must reach the screen as those characters, not as a
link: every figure that shows a user's text passes it through :func:`plotly`. (The pages' Markdown has its own
escape, ``ui/escape.py``.)

>>> plotly('<a href="x">y</a> & <b>')
'&lt;a href="x"&gt;y&lt;/a&gt; &amp; &lt;b&gt;'
"""

from __future__ import annotations

__all__ = ["plotly"]

_PLOTLY_SPECIAL = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def plotly(text: object) -> str:
    """``text`` shown as typed where Plotly renders its HTML subset: a figure's title, a trace's name (the legend), a
    category (a tick label), an annotation or hover text. Plotly turns the entities back into the characters."""
    return str(text).translate(_PLOTLY_SPECIAL)
