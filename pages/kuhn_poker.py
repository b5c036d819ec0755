"""Kuhn poker: the game, one CFR iteration step by step, training live, and the equilibrium check."""

import streamlit as st

from ui import kuhn_view

st.title("CFR on Kuhn poker")
st.markdown(
    "Three cards, J < Q < K. Each player antes 1 and gets one card. Player 1 **passes** (checks) or **bets** 1. "
    "After a pass, player 2 passes (showdown for the pot of 2) or bets, and player 1 then folds (pass) or calls (bet). "
    "After a bet, the other player folds or calls (showdown for 4). Counterfactual regret minimisation (Zinkevich et al. 2007) "
    "runs regret matching at each of the 12 information sets; its average strategy approaches the equilibrium family, "
    "where player 1's game value is −1/18."
)
variants, updates, seed = kuhn_view.settings()
runs = kuhn_view.sync(variants, updates, seed)
kuhn_view.controls()
kuhn_view.tree(runs)
with st.expander("One iteration, step by step", expanded=True):
    kuhn_view.walkthrough(runs)
st.subheader("Training")
show_current = st.toggle("Also show the current policy's exploitability", value=True, key="kuhn_show_current")
kuhn_view.live(runs, show_current)
