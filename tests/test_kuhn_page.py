"""The Kuhn poker page in streamlit's AppTest: step with its trace, run, variants, reset."""

import pytest
from streamlit.testing.v1 import AppTest


@pytest.fixture
def page():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("pages/kuhn_poker.py").run()
    assert not app.exception and app.title[0].value == "CFR on Kuhn poker"
    return app


def metric(app, k):
    return app.metric[k].value


def test_step_shows_one_iteration_traced_infoset_by_infoset(page):
    page.button(key="kuhn_step").click().run()
    assert not page.exception
    assert metric(page, 0) == "1" and metric(page, 1) == "4.583e-01"  # 11/24 after one iteration
    trace = page.dataframe[0].value  # the only dataframe on the page
    assert len(trace) == 12 and list(trace["infoset"]) == ["J", "Q", "K", "Jpb", "Qpb", "Kpb", "Jp", "Jb", "Qp", "Qb", "Kp", "Kb"]
    king = trace.set_index("infoset").loc["K"]
    assert king["σ bet"] == 0.5 and king["r bet"] == pytest.approx(king["v(I,bet)"] - king["v(I)"])


def test_run_trains_towards_the_game_value_and_pause_holds(page):
    page.segmented_control(key="kuhn_running").set_value("Run").run()
    for _ in range(5):
        page.run()
    assert not page.exception
    iterations = int(metric(page, 0).replace(",", ""))
    assert iterations > 100
    assert abs(float(metric(page, 2)) + 1 / 18) < 0.01
    page.segmented_control(key="kuhn_running").set_value("Pause").run()
    held = metric(page, 0)
    page.run()
    assert metric(page, 0) == held
    assert "Estimated α" in " ".join(m.value for m in page.markdown)


def test_several_variants_overlay_and_a_change_restarts_with_a_notice(page):
    page.button(key="kuhn_step").click().run()
    page.multiselect(key="kuhn_variants").set_value(["cfr+", "discounted", "chance-sampling"]).run()
    assert any("restarted from iteration 0" in i.value for i in page.info)
    page.segmented_control(key="kuhn_running").set_value("Run").run()
    runs = page.session_state.kuhn
    assert list(runs.solvers) == ["cfr+", "discounted", "chance-sampling"]
    assert len({s.iteration for s in runs.solvers.values()}) == 1 and runs.primary.iteration > 0
    page.radio(key="kuhn_updates").set_value("simultaneous").run()
    assert page.session_state.kuhn.primary.updates == "simultaneous" and not page.exception


def test_no_variant_keeps_the_last_choice_with_a_message(page):
    page.multiselect(key="kuhn_variants").set_value([]).run()
    assert "Choose at least one variant" in " ".join(e.value for e in page.error) and not page.exception
    assert list(page.session_state.kuhn.solvers) == ["cfr"]


def test_reset(page):
    page.button(key="kuhn_step").click().run()
    page.button(key="kuhn_reset").click().run()
    assert metric(page, 0) == "0" and page.session_state.kuhn.trace is None
