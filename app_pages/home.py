"""Welcome page: what the dashboard is and what is coming."""

import streamlit as st

from ui.home import quick_demo

st.title("Watch no-regret learning find equilibria")
st.markdown(
    """
Regret matching (Hart & Mas-Colell 2000) plays each action with probability proportional to its
positive cumulative regret. In two-player zero-sum self-play the **average** strategies converge to
a Nash equilibrium. This dashboard runs the fast `rmcore` library live in your browser.

Open **Matrix game** to edit a game, run the solver live and watch it converge. A step-by-step
walkthrough of CFR on Kuhn poker is coming next.
"""
)
st.subheader("A first taste: Rock-Paper-Scissors with a crash")
iterations = st.select_slider("Iterations", options=[10, 100, 1_000, 10_000, 100_000], value=1_000, key="home_iterations")
st.dataframe(quick_demo(iterations), hide_index=True)
