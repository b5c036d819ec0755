"""CFR on game trees: counterfactual regret minimisation on Kuhn poker, Kuhn on sliders, Leduc hold'em, every other
game of the catalogue (Liar's dice, Goofspiel, ...) and the user's own (.efg). The game and the settings; the run
controls and, on Kuhn poker, one iteration step by step right under them; training live, or a race of variants;
export; hands against the bot."""

import streamlit as st

from ui import controls, export, link, state
from ui.poker import games, lesson, play, settings, view, walkthrough

RULES = (
    "Three cards, J < Q < K. Each player antes 1 and gets one card. Player 1 **passes** (checks) or **bets** 1. "
    "After a pass, player 2 passes (showdown for the pot of 2) or bets, and player 1 then folds (pass) or calls "
    "(bet). After a bet, the other player folds or calls (showdown for 4). Counterfactual regret minimisation "
    "(Zinkevich et al. 2007) runs regret matching at each of the 12 information sets; its average strategy "
    "approaches the equilibrium family, where player 1's game value is −1/18."
)

GAME_RULES = {
    "kuhn": RULES,
    "sliders": (
        "**Kuhn on sliders:** the same betting as Kuhn poker with more cards and another bet size; the exact value and "
        "equilibrium come from the sequence-form linear program and follow the sliders."
    ),
    "leduc": (
        "**Leduc hold'em:** six cards (J, Q, K in two suits), a betting round, a public card, a second round (bets "
        "of 2, then 4; at most two a round); a pair with the public card wins. Its 936 information sets are too many "
        "to table: a heat map and an explorer show them."
    ),
}

presenting = state.presenting()
if not presenting:
    st.title("CFR on game trees")
link.notice()

with st.expander("The game and the settings", expanded=False) if presenting else st.container():
    lesson.buttons()
    chosen = settings.widgets()
    st.markdown(GAME_RULES.get(chosen.game) or games.description(chosen.game, chosen.uploaded, chosen.tree_game))
    settings.download(chosen)
    show_current, rank_by, work = settings.display_options(chosen)
display = view.Display(show_current, rank_by, lesson.words(chosen), work)

run = settings.live_run(chosen)
with st.container():  # (there for every game: the charts below keep their place when the game changes)
    if chosen.game not in games.CLASSIC:
        st.caption(settings.memory_words(run))
state.notice("kuhn")
speed = controls.run_controls(
    "kuhn",
    run.iteration,
    step_help="Step +1 runs one iteration and shows what it computed in the walkthrough just below.",
)
if chosen.game == "kuhn":  # right under Step +1, so that what a step computed shows where the lecturer pressed it
    with st.expander("One iteration, step by step", expanded=not presenting):
        walkthrough.section(run)
controls.live_fragment("kuhn", speed, lambda run, timeline: view.draw(run, display, timeline))

export.section("kuhn", run)
with st.expander("Play against the bot", expanded=False):
    answer = run.key.exact_answer()
    play.section(run, None if answer is None else answer.game_value)
link.check()
