"""Entry point: page config, navigation over every page, and nothing else."""

import streamlit as st

st.set_page_config(page_title="Watch regret matching find equilibria", page_icon="🎯", layout="wide")

navigation = st.navigation([st.Page("pages/home.py", title="Welcome", icon="🎯", default=True)])
navigation.run()
