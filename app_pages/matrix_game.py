"""Matrix game: pick or edit a game, choose the opponent and the algorithm, race variants, and watch it learn."""

import streamlit as st

from ui import controls, escape, explain, state
from ui.matrix import correlated_lesson, field_lessons, last_iterate, lesson, settings, space, view
from ui.matrix import state as matrix_state

matrix_state.label_link_algorithm()
presenting = state.presenting()
if not presenting:
    st.title("Regret matching on a matrix game")
subtitle = st.empty()  # (how the chosen rule plays: filled in once the rule is read below)
state.link_notice()

with (
    st.expander(f"Game and settings: {escape.markdown(st.session_state.game.name)}", expanded=False)
    if presenting
    else st.container()
):
    with st.container(horizontal=True):
        lesson.RULES_LESSON.button()
        last_iterate.LESSON.button()
        field_lessons.buttons()
        correlated_lesson.buttons()
    game_column, settings_column = st.columns([3, 2], gap="large")
    with game_column:
        settings.game_section()
    with settings_column:
        opponent = settings.opponent_section(st.session_state.game)
        primary = settings.algorithm_section()
        mu = settings.inertia_section(st.session_state.game, primary)
        start = settings.start_section(st.session_state.game)
        chosen = settings.race_section(primary, opponent, start, mu)
        display = settings.display_options(chosen)
game = st.session_state.game
display = display._replace(
    lesson=lesson.RULES_LESSON.words(game, chosen)
    or last_iterate.LESSON.words(game, chosen)
    or correlated_lesson.words()
)
if not presenting:
    subtitle.caption(explain.matrix_subtitle(primary.algorithm))

if not presenting:
    st.divider()
run = settings.live_run(st.session_state.game, chosen)
state.notice("matrix")
speed = controls.run_controls("matrix", run.iteration)
controls.live_fragment("matrix", speed, lambda run, timeline: view.draw(run, display, timeline))
lesson.RULES_LESSON.link_line(st.session_state.game, chosen)
last_iterate.LESSON.link_line(st.session_state.game, chosen)
view.export_section(run)
space.export_section(run)
state.check_link()
