"""CFR on game trees (URL path /game_trees): counterfactual regret minimisation on Kuhn poker, Kuhn on sliders, Leduc
hold'em, every other game of the catalogue (Liar's dice, Goofspiel, ...) and the user's own (.efg). The game and the
settings; the run controls and, on Kuhn poker, one iteration step by step right under them; training live, or a race
of variants; export; hands against the bot."""

import streamlit as st

from ui import controls, explain_trees, export, state
from ui.trees import games, lesson, play, settings, view, walkthrough

presenting = state.presenting()
if not presenting:
    st.title("CFR on game trees")
state.link_notice()

with st.expander(settings.folded_label(), expanded=False) if presenting else st.container():
    lesson.buttons()
    chosen = settings.widgets()
    st.markdown(games.page_words(chosen.game, chosen.uploaded, chosen.tree_game))
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
    step_help=explain_trees.STEP_HELP,
)
if chosen.game == "kuhn" and not chosen.two_player:  # (the walkthrough teaches two-player Kuhn)
    st.caption(explain_trees.WALKTHROUGH_TWO_PLAYERS)
elif chosen.game == "kuhn":  # right under Step +1, so that what a step computed shows where the lecturer pressed it
    with walkthrough.expander(presenting) as steps:
        if steps.open:  # (folded, its tables are not made)
            walkthrough.section(run)
controls.live_fragment("kuhn", speed, lambda run, timeline: view.draw(run, display, timeline))
lesson.link_line(chosen)

export.section("kuhn", run)
with st.expander("Play against the bot", expanded=False):
    if run.key.two_player:
        answer = run.key.exact_answer()
        play.section(run, None if answer is None else answer.game_value)
    else:
        st.caption(explain_trees.PLAY_TWO_PLAYERS)
state.check_link()
