"""Welcome page: what the dashboard is, and a tour of its pages."""

import streamlit as st

from ui import explain_app
from ui.home import quick_demo

st.title("Watch no-regret learning find equilibria")
st.markdown(explain_app.HOME_INTRO)
st.subheader("A tour of the pages")
st.markdown(explain_app.HOME_TOUR)
st.subheader("A first taste: Rock-Paper-Scissors with a crash")
iterations = st.select_slider(
    "Iterations", options=[10, 100, 1_000, 10_000, 100_000], value=1_000, key="home_iterations"
)
st.dataframe(quick_demo(iterations), hide_index=True)
