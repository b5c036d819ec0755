"""Entry point: page config, session state for every page, presentation mode, navigation over every page, and nothing
else."""

import streamlit as st

import rmcore
from ui import controls, link, sessions, state
from ui.atlas import state as atlas_state
from ui.matrix import state as matrix_state
from ui.trees import state as trees_state

# Nothing compiles in this process: both kernel families compile in processes of their own from the first page view,
# and small runs go on as plain Python meanwhile (rmcore/_runtime.py).
rmcore.compile_in_background()
rmcore.prepare_kernels()
# Closed tabs' sessions are let go once their reconnect window ends (ui/sessions.py).
sessions.start_reaping()
# Each page's state, created on a session's first run whichever page it opens: the link may carry both pages' games.
state.init()
trees_state.init()
atlas_state.init()
matrix_state.init()
# The favicon is a file of the app's own: a Material icon name makes the browser fetch the icon from the internet, and
# the app works offline. Presentation mode opens with the sidebar folded away: the page gets the projector's whole
# width.
st.set_page_config(
    page_title="Watch regret matching find equilibria",
    page_icon="ui/assets/favicon.png",
    layout="wide",
    initial_sidebar_state="collapsed" if st.query_params.get("present") == "true" else "auto",
)
controls.presentation_toggle()

trees = st.Page(
    "app_pages/trees.py", title="CFR on game trees", icon=":material/playing_cards:", url_path=link.TREE_PAGE_PATH
)
navigation = st.navigation(
    [
        st.Page("app_pages/matrix_game.py", title="Matrix game", icon=":material/grid_on:", default=True),
        trees,
        st.Page("app_pages/atlas.py", title="Atlas", icon=":material/table_chart:", url_path="atlas"),
        st.Page("app_pages/home.py", title="About", icon=":material/info:"),
        # The tree page's path of one release ago: links handed out keep opening it, with all their settings.
        st.Page(lambda: link.open_moved_page(trees), url_path=link.OLD_TREE_PAGE_PATH, visibility="hidden"),
    ]
)
navigation.run()
