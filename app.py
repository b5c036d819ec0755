"""Entry point: page config, navigation over every page, and nothing else."""

import streamlit as st

st.set_page_config(page_title="Watch regret matching find equilibria", page_icon=":material/target:", layout="wide")

navigation = st.navigation(
    [
        st.Page("pages/matrix_game.py", title="Matrix game", icon=":material/grid_on:", default=True),
        st.Page("pages/kuhn_poker.py", title="Kuhn poker (CFR)", icon=":material/playing_cards:"),
        st.Page("pages/home.py", title="About", icon=":material/info:"),
    ]
)
navigation.run()
