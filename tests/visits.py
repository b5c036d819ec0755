"""Open the app in AppTest as a browser's first request does: at a URL path, with a link's query parameters.

``st.Page`` names a page by its URL path (the tree page's is ``game_trees``; a hidden page at ``kuhn_poker`` opens
it with the link's parameters). ``AppTest.switch_page`` finds a page by its file, and only after a first run has
registered the pages; a link opens the page on the session's first run, so these tests ask for the page the way the
browser does: by the hash of its URL path.
"""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash


def opened(params: dict | None = None, url_path: str | None = None) -> AppTest:
    """The app after its first run at ``url_path`` (None: the default page) with ``params`` in the URL."""
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.query_params.update(params or {})
    if url_path is not None:
        app._page_hash = calc_hash(url_path)  # what the browser requests for /<url_path>
    app.run()
    assert not app.exception
    return app


def tree_page() -> AppTest:
    """The app switched to the tree page, as a visitor's click in the sidebar does."""
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("app_pages/trees.py").run()
    assert not app.exception and app.title[0].value == "CFR on game trees"
    return app


def run_to_reached(app: AppTest, page: str, reruns: int = 200) -> AppTest:
    """Rerun ``app`` until the page's run is paused: a link's ``run_to`` runs in time-bounded updates, one per run of
    the page (the live fragment's timed reruns, which a browser sends, are not sent by AppTest)."""
    for _ in range(reruns):
        if app.session_state[f"{page}_run"] == "Pause":
            break
        app.run()
    assert not app.exception and app.session_state[f"{page}_run"] == "Pause"
    return app


def run_switch(app: AppTest, page: str):
    """The page's Run/Pause switch: keyed ``{page}_running``, renamed after a pause the user did not ask for
    (``ui.state.pause_unasked``)."""
    return next(c for c in app.segmented_control if c.key and c.key.startswith(f"{page}_running"))


def shown(text: str) -> str:
    """Markdown source as a reader sees it: each backslash escape (``\\*``, ``\\:``) shown as the character it
    escapes, and the word joiners that keep an address from becoming a link (invisible) left out. What a user gave
    reaches the page escaped (``ui/escape.py``); a test reads the words."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u2060", "")
