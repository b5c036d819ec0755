"""Kuhn poker: the game, one CFR iteration step by step, training live (or a race of variants), and the equilibrium check."""

import streamlit as st

from ui import controls, link, state
from ui.kuhn import view

st.title("CFR on Kuhn poker")
link.notice()
st.markdown(
    "Three cards, J < Q < K. Each player antes 1 and gets one card. Player 1 **passes** (checks) or **bets** 1. "
    "After a pass, player 2 passes (showdown for the pot of 2) or bets, and player 1 then folds (pass) or calls (bet). "
    "After a bet, the other player folds or calls (showdown for 4). Counterfactual regret minimisation (Zinkevich et al. 2007) "
    "runs regret matching at each of the 12 information sets; its average strategy approaches the equilibrium family, "
    "where player 1's game value is −1/18."
)
run = view.live_run(view.settings())
state.notice("kuhn")
speed = controls.run_controls("kuhn", step_help="Step +1 runs one iteration and shows what it computed in the walkthrough below.")
link.share("kuhn", run.iteration)
view.tree(run)
with st.expander("One iteration, step by step", expanded=True):
    view.walkthrough(run)
st.subheader("Training")
show_current = st.toggle("Also show the current policy's exploitability", value=True, key="kuhn_show_current", bind="query-params")
controls.live_fragment("kuhn", speed, lambda run: view.draw(run, show_current))
link.check()
