"""Matrix game: pick or edit a game, choose the opponent and the algorithm, race variants, and watch it learn. A game
of three players or more has its own settings and live panel (ui/matrix/players.py)."""

import streamlit as st

from ui import controls, escape, explain, state
from ui.matrix import correlated_lesson, field_lessons, last_iterate, lesson, players, settings, space, view
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
        players.lesson_button()
    game_column, settings_column = st.columns([3, 2], gap="large")
    with game_column:
        settings.game_section()
    game = st.session_state.game
    many = game.num_players > 2
    with settings_column:
        primary = settings.algorithm_section(game.num_players)
        mu = settings.inertia_section(game, primary)
        if many:
            opponent, start = players.fixed_section(game), players.start_section(game)
        else:
            opponent = settings.opponent_section(game)
            start = settings.start_section(game)
        chosen = settings.race_section(primary, opponent, start, mu, game.num_players)
        display = settings.display_options(chosen, game.num_players)
if not many:
    display = display._replace(
        lesson=lesson.RULES_LESSON.words(game, chosen)
        or last_iterate.LESSON.words(game, chosen)
        or correlated_lesson.words()
    )
if not presenting:
    subtitle.caption(explain.matrix_subtitle(primary.algorithm))

if not presenting:
    st.divider()
refused = players.refusal(primary) if many else None
if refused is not None:
    st.info(refused)
elif many:
    run = settings.live_run(game, chosen)
    state.notice("matrix")
    speed = controls.run_controls("matrix", run.iteration)
    controls.live_fragment("matrix", speed, lambda run, timeline: players.draw(run, display, timeline))
    players.export_section(run)
    space.export_section(run)
else:
    run = settings.live_run(game, chosen)
    state.notice("matrix")
    speed = controls.run_controls("matrix", run.iteration)
    controls.live_fragment("matrix", speed, lambda run, timeline: view.draw(run, display, timeline))
    lesson.RULES_LESSON.link_line(game, chosen)
    last_iterate.LESSON.link_line(game, chosen)
    view.export_section(run)
    space.export_section(run)
state.check_link()
