"""Welcome page: what the dashboard is, and a one-minute tour of both pages."""

import streamlit as st

from ui.home import quick_demo

st.title("Watch no-regret learning find equilibria")
st.markdown(
    """
Regret matching (Hart & Mas-Colell 2000) plays each action with probability proportional to its
positive cumulative regret. In two-player zero-sum self-play the **average** strategies converge to
a Nash equilibrium. This dashboard runs the fast `rmcore` library live in your browser.

Open **Matrix game** to edit a game, run the solver live and watch it converge. Open **CFR on game trees** to follow
one iteration of counterfactual regret minimisation step by step on Kuhn poker, then train it live on Kuhn poker,
Kuhn with more cards, Leduc hold'em, Liar's dice, Goofspiel or your own .efg game. On both
pages, choose several variants to race them on the same game: one chart overlays how fast each converges,
and a table says when each first reached 1e-2, 1e-3, 1e-4 and 1e-6.
"""
)
st.subheader("A one-minute tour")
st.markdown(
    """
**Matrix game.** (1) Pick a preset, say *Rock-Paper-Scissors*: it starts away from the equilibrium, so the learning
shows. (2) Press **Run** (or Space): thin lines are what regret matching plays now and cycle; thick lines are the
averages and settle. On the simplex the average spirals into the star; the log-log chart shows nash_conv falling
under the dashed worst-case bound. (3) Set the speed to *1 iteration a second* and press **Step +1** (or →): the
orange slivers on the regret bars are what that one iteration added. (4) Pause and drag the **Replay** slider to see
any earlier moment on every chart. (5) Open *Race* to run RM, RM+ and predictive RM+ side by side.

**CFR on game trees.** (1) On Kuhn poker, press **Step +1**: the walkthrough tables one CFR iteration, set by set:
reach, counterfactual values, regrets, regret matching, the average; type any iteration up to 100,000 to see its
numbers. (2) Press **Run**: exploitability falls; the game tree's colours (each information set's P(bet)) settle; the
equilibrium check compares the average with the family of equilibria (value −1/18). (3) Choose several variants
(CFR+, linear, discounted, sampling) to race them. (4) Choose *Kuhn on sliders* or *Leduc hold'em*: a heat map and an
explorer show every information set beside the exact answer.

**In front of a class.** Switch on **Presentation mode** in the sidebar (or add `?present=true` to the link): the
settings fold away, the controls and the main chart fit a 1280x720 projector, and chart text is 18 px. Keys:
Space run / pause, → step, R reset. *Share this setup* (sidebar) gives a link that opens the same setup anywhere.
"""
)
st.subheader("A first taste: Rock-Paper-Scissors with a crash")
iterations = st.select_slider(
    "Iterations", options=[10, 100, 1_000, 10_000, 100_000], value=1_000, key="home_iterations"
)
st.dataframe(quick_demo(iterations), hide_index=True)
