"""The matrix page's last-iterate lesson (Cai et al.'s 3x3 game): its button and its link open the race with the current
strategies drawn and ranked, its words quote what the library gives, measured afresh, and the page says under the
variant box what each rule is checked against."""

import pytest
from streamlit.testing.v1 import AppTest

import rmcore
from rmcore.verification import check
from tests.live_charts import captions, live_charts
from tests.visits import opened
from ui import explain
from ui.matrix import last_iterate


@pytest.fixture
def page() -> AppTest:
    return opened()


def _race_names(app: AppTest) -> list[str]:
    chart = next(c for c in live_charts(app) if c["figure"]["layout"]["title"]["text"].startswith("Race"))
    return [trace["name"] for trace in chart["figure"]["data"] if "name" in trace]


def test_the_lesson_button_and_its_link_open_the_race_ranked_by_the_last_iterates(page):
    page.radio(key="opponent_mode").set_value("Fixed mixed strategy").run()  # settings the lesson must undo
    page.radio(key="averaging").set_value("linear").run()
    page.button(key="matrix_last_iterate_lesson").click().run()
    from_link = opened(
        {key: [v for k, v in last_iterate.LESSON.query() if k == key] for key, _ in last_iterate.LESSON.query()}
    )
    for app in (page, from_link):
        live = app.session_state.matrix_live
        assert live.race.variants == last_iterate.LESSON.variants
        assert live.key[1].opponent is None and live.key[1].start is None
        assert app.session_state.game.name == "Cai et al.'s 3x3 game"
        assert app.toggle(key="show_current").value and app.radio(key="rank_by").value == "current"
        for _ in range(10):
            app.button(key="matrix_step_100").click().run()
        assert not app.exception
        names = _race_names(app)
        assert sum(name.endswith("current (last iterate)") for name in names) == len(last_iterate.LESSON.variants) == 7
        words = captions(app)
        assert "The lesson, as run here" in words and explain.LESSON_LINK_BELOW in words
        assert "race_variants=sprm%2B%28%CE%B7%3D0.1%29" in words  # (the link, as a link under the charts)
        table = next(frame.value for frame in app.dataframe if "variant" in frame.value.columns)
        first_four = set(table["variant"][:4])
        smooth = {v.label for v in last_iterate.LESSON.variants if v.algorithm in ("sprm+", "exrm+", "optimistic-gda")}
        assert smooth <= first_four  # ranked by the current strategies, after 1,000 iterations
    assert not from_link.warning  # nothing in the link was refused


def test_the_lessons_words_quote_what_the_library_gives():
    """explain.LAST_ITERATE_OBSERVED, to two digits, is what a race of the lesson's variants gives at 1,000 and 10,000
    iterations, and the facts the words state hold: the three that never settle are above 0.3 after 100,000
    iterations, the three smooth or optimistic-GDA ones at machine precision by 1,000, the averages but RM+'s within
    a factor of 3 at 10,000."""
    race = rmcore.Race(rmcore.preset(last_iterate.LESSON.preset), last_iterate.LESSON.variants)
    texts = {v: v.algorithm + ("/alternating" if v.updates == "alternating" else "") for v in race.variants}
    averages = {}
    for k, target in enumerate((1000, 10000)):
        race.run(target - race.iteration)
        for variant, runs in zip(race.variants, race.histories()):
            said = explain.LAST_ITERATE_OBSERVED[texts[variant]][k]
            metrics = runs[0].metrics
            measured = (metrics["nash_conv"][-1], metrics["nash_conv_current"][-1])
            averages[texts[variant]] = measured[0]
            for value, quoted in zip(measured, said):
                if quoted < 1e-12:  # machine precision: the exact digits are rounding
                    assert value < 1e-12, (variant.label, target)
                else:
                    assert value == pytest.approx(quoted, rel=0.06), (variant.label, target)
    others = [value for name, value in averages.items() if name != "rm+"]
    assert max(others) / min(others) < 3.5
    race.run(100_000 - race.iteration)
    for variant, runs in zip(race.variants, race.histories()):
        if variant.algorithm in ("rm+", "prm+"):
            assert runs[0].metrics["nash_conv_current"][-1] > 0.3, variant.label


def test_the_line_under_the_variant_box_says_what_the_rule_is_checked_against(page):
    for rule in ("rm", "sprm+", "exrm+"):
        page.selectbox(key="algorithm").set_value(rule).run()
        assert f"Checked: {check('matrix', rule).line}." in captions(page)


def test_exrm_plus_runs_in_its_only_form_and_says_so_while_the_radios_keep_the_choice(page):
    page.radio(key="sampling").set_value("sampled").run()
    page.radio(key="updates").set_value("alternating").run()
    page.selectbox(key="algorithm").set_value("exrm+").run()
    assert not page.exception
    assert any("runs with expected sampling and simultaneous updates" in info.value for info in page.info)
    variant = page.session_state.matrix_live.primary.variant
    assert (variant.algorithm, variant.sampling, variant.updates) == ("exrm+", "expected", "simultaneous")
    assert page.radio(key="sampling").value == "sampled" and page.radio(key="updates").value == "alternating"
    page.selectbox(key="algorithm").set_value("sprm+").run()
    variant = page.session_state.matrix_live.primary.variant
    assert (variant.sampling, variant.updates) == ("sampled", "alternating")
