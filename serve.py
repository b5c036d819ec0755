"""The app as an ASGI application, for a server that must open links longer than 16 KiB:

    uvicorn serve:app --port 8501 --h11-max-incomplete-event-size 1048576 --no-access-log

``streamlit run app.py`` serves the same app through uvicorn with that parser's defaults, and Streamlit has no option
for them: an address whose request line and headers pass 16 KiB before they have all arrived gets a bare
``400 Bad Request`` before the app sees it (docs/reference/share-links.md). Started by uvicorn itself, the limit is
uvicorn's ``--h11-max-incomplete-event-size``, and such a link opens the page, whose notice names the value too long
for its key. The app reads ``.streamlit/config.toml`` either way.
"""

from pathlib import Path

import streamlit as st

app = st.App(Path(__file__).with_name("app.py"))
