"""Text a user gave (a game's, an action's, an information set's or a file's name; a link's key or value), shown as
typed where Streamlit renders Markdown (figures escape theirs with :func:`rmcore.plotting.escape.plotly`).

Streamlit renders Markdown (and its own ``:material/...:`` icons, ``:red[...]`` colours and ``$...$`` maths) in
``st.markdown``, captions, notices and widget labels. A name such as ``![i](https://attacker.example/p.png)`` must
reach the screen as those characters, not as an image fetched from elsewhere. Every page element that shows a user's
text calls :func:`markdown`.

>>> markdown("**bold** ![i](x.png) $x$ :material/lock:")
'\\\\*\\\\*bold\\\\*\\\\* \\\\!\\\\[i\\\\](x.png) \\\\$x\\\\$ \\\\:material/lock\\\\:'
>>> markdown("see https://x.example or www.x.example") == "see https\\\\:\\u2060//x.example or www\\u2060.x.example"
True
"""

from __future__ import annotations

import re

__all__ = ["markdown"]

# Every character CommonMark, GitHub's extensions (tables, strikethrough, autolinks) or Streamlit give a meaning to
# inside a line: emphasis, code, links and images, raw HTML, tables, headings, maths, icons and colours. A backslash
# before an ASCII punctuation character shows that character (CommonMark 2.4).
_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\|*_`[]<>#~$!:"})
# GitHub's autolinks (``https://...``, ``www....``, ``name@host.org``) are found in the text after its escapes are
# resolved (remark-gfm), so no backslash stops them: a word joiner (U+2060, invisible and unbreakable) inside each
# breaks the pattern and leaves the text as it looks.
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?=@)", re.IGNORECASE)
_WORD_JOINER = "\u2060"
# A list item, a block quote or a heading is made by what starts a line: a name put first in a caption must not.
_LINE_START = re.compile(r"^(\s*(?:\d{1,9})?)([-+.)])(?=[\s-]|$)")


def markdown(text: object) -> str:
    """``text`` shown as typed where Streamlit renders Markdown: ``st.markdown``, ``st.caption``, notices, a widget's
    label, a table cell drawn as Markdown. Line breaks become spaces: a name is one line."""
    flat = " ".join(str(text).splitlines())
    escaped = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), flat.translate(_MARKDOWN_SPECIAL))
    return _AUTOLINK.sub(_WORD_JOINER, escaped)
