"""The matrix page with the rules beside regret matching: the eta slider, the charts, the link (AppTest)."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.live_charts import captions
from tests.visits import opened, run_to_reached


@pytest.fixture
def app():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    assert not app.exception
    return app


def test_the_eta_slider_shows_only_for_the_rules_with_a_step(app):
    assert not [s for s in app.select_slider if s.key == "eta"]
    app.selectbox(key="algorithm").set_value("fictitious-play").run()
    assert not [s for s in app.select_slider if s.key == "eta"]
    app.selectbox(key="algorithm").set_value("optimistic-gda").run()
    assert app.select_slider(key="eta").value == "0.1"


def test_choosing_hedge_runs_and_charts_it(app):
    app.selectbox(key="algorithm").set_value("hedge").run()
    app.select_slider(key="eta").set_value("0.5").run()
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    live = app.session_state.matrix_live
    assert live.primary.variant.label == "hedge(η=0.5) · expected · simultaneous · uniform"
    assert live.iteration == 100
    history = live.primary.history()
    assert history.metrics["nash_conv_current"][-1] >= 0
    words = captions(app)
    assert "Hedge's bound" in words and "regret-matching bound" not in words  # the chart's words are Hedge's own
    assert "the strategy Hedge plays" in words and "regret matching plays" not in words
    assert "Hedge does not play by them" in words  # the regret bars' words too


def test_every_rule_has_its_own_words_under_the_strategies_and_the_regrets():
    from rmcore import matrix
    from ui import explain

    lines = {rule: explain.strategies(False, rule) for rule in matrix.ALGORITHMS}
    assert len(set(lines.values())) == len(matrix.ALGORITHMS)
    assert all(("regret matching plays" in line) == (rule == "rm") for rule, line in lines.items())
    for rule in matrix.ALGORITHMS:
        plays_by_regrets = rule in ("rm", "rm+")  # (predictive RM+ adds its prediction: it is said apart)
        assert ("plays each positive (blue) one" in explain.regrets(rule)) == plays_by_regrets
    assert "plus the last iteration's regret" in explain.regrets("prm+")


def test_a_link_with_hedge_and_its_step_opens_it():
    app = opened({"algorithm": "hedge", "eta": "0.05", "run_to": "200"})
    run_to_reached(app, "matrix")
    live = app.session_state.matrix_live
    assert live.primary.variant.label == "hedge(η=0.05) · expected · simultaneous · uniform"
    assert live.iteration == 200
    assert app.query_params["eta"] == "0.05"
    assert not app.warning


def test_a_race_of_new_rules_runs(app):
    app.selectbox(key="algorithm").set_value("optimistic-hedge").run()
    app.multiselect(key="race_variants").select("fictitious-play · expected · simultaneous · uniform").select(
        "gda(η=0.1) · expected · simultaneous · uniform"
    ).run()
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    labels = [v.label for v in app.session_state.matrix_live.race.variants]
    assert labels[0] == "optimistic-hedge(η=0.1) · expected · simultaneous · uniform" and len(labels) == 3


def test_the_convergence_chart_draws_each_rules_bound_and_the_current_profile():
    import rmcore
    from rmcore.plotting import matrix as figures
    from rmcore.plotting import words as figure_words

    for rule, expected in (("hedge", ["bound: (ln|A|/η + ηTΔ²/8)/T, both players"]), ("gda", [])):
        solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"), rule, start=([6, 2, 2], [2, 2, 6]), max_points=100)
        solver.run(300)
        bound = figure_words.BOUND_NAMES.get(rule)
        figure = figures.convergence(solver.history(), bound=bound, variant=solver.variant)
        names = [trace["name"] for trace in figure["data"]]
        assert [n for n in names if "bound" in n] == expected
        assert "nash_conv of the uniform average" in names
        assert "nash_conv of the current strategies (last iterate)" in names
        assert solver.variant.label in figure["layout"]["title"]["text"]  # algorithm, sampling, updates, averaging
