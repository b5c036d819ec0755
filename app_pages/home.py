"""Welcome page: what the dashboard is and what is coming."""

import streamlit as st

from ui.home import quick_demo

st.title("Watch no-regret learning find equilibria")
st.markdown(
    """
Regret matching (Hart & Mas-Colell 2000) plays each action with probability proportional to its
positive cumulative regret. In two-player zero-sum self-play the **average** strategies converge to
a Nash equilibrium. This dashboard runs the fast `rmcore` library live in your browser.

Open **Matrix game** to edit a game, run the solver live and watch it converge. Open **Kuhn poker (CFR)**
to follow one iteration of counterfactual regret minimisation step by step, then train it live. On both
pages, choose several variants to race them on the same game: one chart overlays how fast each converges,
and a table says when each first reached 1e-2, 1e-3, 1e-4 and 1e-6.
"""
)
st.subheader("A first taste: Rock-Paper-Scissors with a crash")
iterations = st.select_slider("Iterations", options=[10, 100, 1_000, 10_000, 100_000], value=1_000, key="home_iterations")
st.dataframe(quick_demo(iterations), hide_index=True)
