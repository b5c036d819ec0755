"""The matrix page's lesson and what it is built of: every race member drawn for its average and its current
strategies, the race table ranked by either, the lesson itself (a button and a link), and the numbers and facts its
words quote, measured afresh."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import rmcore
from tests.live_charts import captions, live_charts
from tests.visits import opened
from ui import explain
from ui.matrix import lesson


@pytest.fixture
def page() -> AppTest:
    return opened()


def _race_names(app: AppTest) -> list[str]:
    chart = next(c for c in live_charts(app) if c["figure"]["layout"]["title"]["text"].startswith("Race"))
    return [trace["name"] for trace in chart["figure"]["data"] if "name" in trace]  # (a band's edges have none)


def _race_table(app: AppTest):
    return next(frame.value for frame in app.dataframe if "variant" in frame.value.columns)


def test_a_race_draws_each_member_for_its_average_and_with_the_toggle_its_current_strategies(page):
    page.multiselect(key="race_variants").set_value(
        ["optimistic-hedge(η=0.1) · expected · simultaneous · uniform", "rm+ · sampled · simultaneous · linear"]
    ).run()
    page.button(key="matrix_step_100").click().run()
    names = _race_names(page)
    assert "rm · expected · simultaneous · uniform average" in names
    assert "rm+ · sampled · simultaneous · linear average (median of 5)" in names
    assert not any("last iterate" in name for name in names)
    page.toggle(key="show_current").set_value(True).run()
    names = _race_names(page)
    assert "rm · expected · simultaneous · uniform · current (last iterate)" in names
    assert "optimistic-hedge(η=0.1) · expected · simultaneous · uniform · current (last iterate)" in names
    assert "rm+ · sampled · simultaneous · linear · current (last iterate)" in names
    assert explain.MATRIX_RACE_CURRENT in captions(page)
    columns = list(_race_table(page).columns)
    assert "average's nash_conv" in columns and "last iterate's nash_conv" in columns


def test_the_ranking_radio_reorders_the_race_table(page):
    page.button(key="matrix_lesson").click().run()
    for _ in range(3):
        page.button(key="matrix_step_100").click().run()

    def order() -> list[str]:
        return list(_race_table(page)["variant"])

    by_average = order()
    page.radio(key="rank_by").set_value("current").run()
    by_current = order()
    live = page.session_state.matrix_live
    histories = [runs[0] for runs in live.race.histories()]
    current = {v.label: h.metrics["nash_conv_current"][-1] for v, h in zip(live.race.variants, histories)}
    average = {v.label: h.metrics["nash_conv"][-1] for v, h in zip(live.race.variants, histories)}
    assert by_average == sorted(average, key=average.get) and by_current == sorted(current, key=current.get)
    assert by_current[0] == "optimistic-gda(η=0.1) · expected · simultaneous · uniform"
    assert by_average != by_current


def test_against_a_fixed_opponent_the_race_has_no_current_column_and_no_ranking_choice(page):
    page.radio(key="opponent_mode").set_value("Fixed mixed strategy").run()
    page.multiselect(key="race_variants").set_value(["rm+ · expected · simultaneous · uniform"]).run()
    page.toggle(key="show_current").set_value(True).run()
    page.button(key="matrix_step_100").click().run()
    assert not page.exception and not any(r.key == "rank_by" for r in page.radio)
    assert not any("current" in column for column in _race_table(page).columns)


def test_the_lesson_button_and_its_link_open_the_race_with_the_current_curves(page):
    page.radio(key="opponent_mode").set_value("Fixed mixed strategy").run()  # a setting the lesson must undo
    page.selectbox(key="preset").set_value("matching-pennies").run()
    page.button(key="matrix_lesson").click().run()
    from_link = opened(
        {key: [v for k, v in lesson.RULES_LESSON.query() if k == key] for key, _ in lesson.RULES_LESSON.query()}
    )
    for app in (page, from_link):
        live = app.session_state.matrix_live
        assert (
            live.race.variants == lesson.RULES_LESSON.variants
            and live.key[1].opponent is None
            and live.key[1].start is None
        )
        assert app.session_state.game.name == "RPS with crash" and app.toggle(key="show_current").value
        app.button(key="matrix_step_100").click().run()
        assert not app.exception
        names = _race_names(app)
        assert sum(name.endswith("current (last iterate)") for name in names) == len(lesson.RULES) == 8
        words = captions(app)
        assert "The lesson, as run here" in words and "[This lesson's link](" in words
        assert "race_variants=optimistic-gda%28%CE%B7%3D0.1%29" in words
    assert not from_link.warning  # nothing in the link was refused


def test_the_lessons_words_quote_what_the_library_gives():
    """explain.MATRIX_LESSON_OBSERVED, rounded to two digits, is what a race of the lesson's variants gives at 1,000
    and 10,000 iterations; and the facts the words state about the current strategies hold."""
    race = rmcore.Race(rmcore.preset(lesson.RULES_LESSON.preset), lesson.RULES_LESSON.variants)
    for k, target in enumerate((1000, 10000)):
        race.run(target - race.iteration)
        for variant, runs in zip(race.variants, race.histories()):
            said = explain.MATRIX_LESSON_OBSERVED[variant.algorithm][k]
            metrics = runs[0].metrics
            for measured, quoted in zip((metrics["nash_conv"][-1], metrics["nash_conv_current"][-1]), said):
                if quoted < 1e-10:  # machine precision: the exact digits are rounding
                    assert measured < 1e-10, (variant.label, target)
                else:
                    assert measured == pytest.approx(quoted, rel=0.06), (variant.label, target)
    current = {
        v.algorithm: runs[0].metrics["nash_conv_current"][-1] for v, runs in zip(race.variants, race.histories())
    }
    assert current["optimistic-hedge"] < 1e-9  # the last iterate converges, with eta = 0.1, by 10,000 iterations
    averages = {v.algorithm: runs[0].metrics["nash_conv"][-1] for v, runs in zip(race.variants, race.histories())}
    assert averages["prm+"] < min(averages["rm"], averages["rm+"], averages["hedge"], averages["fictitious-play"])


def test_hedge_drifts_to_a_corner_and_gda_reaches_the_boundary_where_the_words_say():
    game = rmcore.preset(lesson.RULES_LESSON.preset)
    hedge = rmcore.MatrixSolver(game, "hedge")
    hedge.run(10000)
    current = hedge.current_policy()
    assert max(current["row"]) > 0.999 and max(current["col"]) > 0.99  # outward, to a corner
    gda = rmcore.MatrixSolver(game, "gda")
    first = None
    for t in range(1, 1001):
        gda.run(1)
        strategies = gda.current_policy()
        if min(np.min(strategies["row"]), np.min(strategies["col"])) == 0.0:
            first = t
            break
    assert first == explain.MATRIX_LESSON_GDA_BOUNDARY
