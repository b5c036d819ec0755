"""Matrix game: pick or edit a game, choose the opponent and the algorithm, and watch it learn."""

import streamlit as st

from ui import controls
from ui.matrix_view import live_panel
from ui.state import init_matrix_page, sync_run

init_matrix_page()
st.title("Regret matching on a matrix game")
st.caption("Each action is played in proportion to its positive cumulative regret. "
           "In zero-sum self-play the *average* strategies approach a Nash equilibrium.")  # fmt: skip

game_column, settings_column = st.columns([3, 2], gap="large")
with game_column:
    controls.game_section()
with settings_column:
    opponent = controls.opponent_section(st.session_state.game)
    settings = controls.algorithm_section(opponent)

st.divider()
run = sync_run(settings)
controls.notice()
speed, log_x, show_current = controls.run_controls(run)
live_panel(run, speed, log_x, show_current)
