"""Entry point: page config, session state for every page, presentation mode, navigation over every page, and nothing else."""

import streamlit as st

import rmcore
from ui import controls, state

# No setting change waits for a kernel to compile: the general kernel stands in meanwhile (rmcore/_runtime.py).
rmcore.compile_in_background()
state.init()
# Presentation mode opens with the sidebar folded away: the page gets the projector's whole width.
st.set_page_config(page_title="Watch regret matching find equilibria", page_icon=":material/target:", layout="wide",
                   initial_sidebar_state="collapsed" if st.query_params.get("present") == "true" else "auto")  # fmt: skip
controls.presentation_toggle()

navigation = st.navigation(
    [
        st.Page("app_pages/matrix_game.py", title="Matrix game", icon=":material/grid_on:", default=True),
        st.Page("app_pages/kuhn_poker.py", title="Kuhn poker (CFR)", icon=":material/playing_cards:"),
        st.Page("app_pages/home.py", title="About", icon=":material/info:"),
    ]
)
navigation.run()
