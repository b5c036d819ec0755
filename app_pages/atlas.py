"""The atlas: every algorithm rmcore ships on every game it ships (or the runs of a sweep of your own), one game at a
time: the measure (NashConv; for a general-sum game also the CE and CCE gaps of the joint play), every run's curve,
and the runs ranked by the iterations and the seconds they took to a chosen value of it."""

import streamlit as st

from ui import explain_atlas
from ui.atlas import view

st.title("The atlas: every algorithm on every game")
st.caption(explain_atlas.RUNS)
loaded = view.results()
if loaded is not None:
    results, where = loaded
    view.where_from(where)
    game = view.game(results)
    of_game = results[results.game == game]
    measure = view.measure(of_game)
    view.chart(of_game, of_game.game_title.iloc[0], measure)
    st.subheader("Who gets there first")
    view.ranking(of_game, measure)
    view.failures(results)
