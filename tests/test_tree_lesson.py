"""The tree page's lesson and what it is built of: discounted CFR's sliders (only with discounted CFR, changing the
run, carried by a link), every curve drawn for its average and its current policy, the race table ranked by either,
and the lesson itself (a button and a link) with the numbers its words quote."""

import pytest
from streamlit.testing.v1 import AppTest

import rmcore
from tests.live_charts import captions, live_charts
from tests.visits import opened
from ui import explain
from ui.trees import lesson


@pytest.fixture
def page() -> AppTest:
    return opened(url_path="kuhn_poker")


def _exploitability_names(app: AppTest) -> list[str]:
    chart = next(c for c in live_charts(app) if "nash_conv" in c["figure"]["layout"]["title"]["text"])
    return [trace["name"] for trace in chart["figure"]["data"] if "name" in trace]  # (a band's edges have none)


def test_the_dcfr_sliders_come_only_with_discounted_cfr_and_change_the_run(page):
    assert not any(s.key and s.key.startswith("kuhn_dcfr_") for s in page.slider)
    page.multiselect(key="kuhn_variants").set_value(["cfr+ · alternating", "discounted · alternating"]).run()
    assert [page.slider(key=f"kuhn_dcfr_{name}").value for name in ("alpha", "beta", "gamma")] == [1.5, 0.0, 2.0]
    assert page.session_state.kuhn_live.race.variants[1] == rmcore.CFRVariant("discounted")
    page.slider(key="kuhn_dcfr_alpha").set_value(1.0).run()
    page.slider(key="kuhn_dcfr_beta").set_value(1.0).run()
    page.slider(key="kuhn_dcfr_gamma").set_value(1.0).run()
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception
    variant = page.session_state.kuhn_live.race.variants[1]
    assert variant.parameters == {"alpha": 1.0, "beta": 1.0, "gamma": 1.0}
    names = _exploitability_names(page)
    assert "discounted(α=1, β=1, γ=1) · alternating · t-weighted average" in names
    assert "discounted(α=1, β=1, γ=1) · alternating · current (last iterate)" in names
    page.multiselect(key="kuhn_variants").set_value(["cfr+ · alternating"]).run()
    assert not any(s.key and s.key.startswith("kuhn_dcfr_") for s in page.slider)


def test_the_pdcfr_and_dcfr_plus_sliders_come_with_their_variants_and_change_the_run(page):
    assert not any(s.key and s.key.startswith(("kuhn_pdcfr_", "kuhn_dcfrplus_")) for s in page.slider)
    page.multiselect(key="kuhn_variants").set_value(["pdcfr+ · alternating", "dcfr+ · simultaneous"]).run()
    assert [page.slider(key=f"kuhn_pdcfr_{name}").value for name in ("alpha", "gamma")] == [2.3, 5.0]
    assert [page.slider(key=f"kuhn_dcfrplus_{name}").value for name in ("alpha", "gamma")] == [1.5, 4.0]
    assert not any(s.key and s.key.startswith("kuhn_dcfr_") for s in page.slider)  # (discounted CFR's: not chosen)
    page.slider(key="kuhn_pdcfr_gamma").set_value(3.0).run()
    page.slider(key="kuhn_dcfrplus_alpha").set_value(2.0).run()
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception
    pdcfr, dcfr = page.session_state.kuhn_live.race.variants
    assert pdcfr.parameters == {"alpha": 2.3, "gamma": 3.0} and dcfr.parameters == {"alpha": 2.0, "gamma": 4.0}
    names = _exploitability_names(page)
    assert "pdcfr+(α=2.3, γ=3) · alternating · t³-weighted average" in names
    assert "dcfr+(α=2, γ=4) · simultaneous · current (last iterate)" in names
    linked = opened({"kuhn_variants": ["dcfr+ · alternating"], "kuhn_dcfrplus_gamma": "2.5"}, "kuhn_poker")
    assert not linked.warning and linked.session_state.kuhn_live.race.variants[0].parameters == {
        "alpha": 1.5,
        "gamma": 2.5,
    }


def test_the_line_under_the_variant_picker_says_what_each_variant_is_checked_against(page):
    from rmcore.verification import check

    page.multiselect(key="kuhn_variants").set_value(["discounted · alternating", "pdcfr+ · alternating"]).run()
    words = captions(page)
    assert f"discounted: {check('tree', 'discounted').line}" in words
    assert f"pdcfr+: {check('tree', 'pdcfr+').line}" in words
    assert "equal to OpenSpiel's DCFRSolver to the last bit" in words and "to 1e-6 in exploitability" in words


def test_the_mmd_temperature_slider_comes_only_with_mmd_and_a_link_carries_it(page):
    assert not any(s.key == "kuhn_mmd_alpha" for s in page.select_slider)
    page.multiselect(key="kuhn_variants").set_value(["mmd · simultaneous", "cfr+ · alternating"]).run()
    assert page.select_slider(key="kuhn_mmd_alpha").value == "0.05"
    page.select_slider(key="kuhn_mmd_alpha").set_value("0.2").run()
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception
    assert page.session_state.kuhn_live.race.variants[0].parameters == {"alpha": 0.2, "eta": None}
    assert "mmd(α=0.2) · simultaneous · current (last iterate)" in _exploitability_names(page)
    linked = opened({"kuhn_variants": ["mmd · simultaneous"], "kuhn_mmd_alpha": "0.01"}, "kuhn_poker")
    assert not linked.warning and linked.session_state.kuhn_live.race.variants[0].mmd == (0.01, None)


def test_a_link_carries_the_dcfr_parameters_and_the_ranking():
    app = opened(
        {"kuhn_variants": ["discounted · simultaneous", "pcfr+ · alternating"], "kuhn_dcfr_gamma": "3.5"}, "kuhn_poker"
    )
    assert not app.warning  # nothing in the link was refused
    variant = app.session_state.kuhn_live.race.variants[0]
    assert variant.updates == "simultaneous" and variant.parameters == {"alpha": 1.5, "beta": 0.0, "gamma": 3.5}
    race = {"kuhn_variants": ["cfr · alternating", "pcfr+ · alternating"], "kuhn_rank_by": "current policy"}
    ranked = opened(race, "kuhn_poker")
    assert ranked.radio(key="kuhn_rank_by").value == "current" and not ranked.warning  # (the label, as bound)


def test_every_race_member_is_drawn_for_its_average_and_its_current_policy(page):
    page.multiselect(key="kuhn_variants").set_value(["cfr · alternating", "chance-sampling · alternating"]).run()
    page.button(key="kuhn_step_10").click().run()
    names = _exploitability_names(page)
    assert "cfr · alternating · uniform average" in names and "cfr · alternating · current (last iterate)" in names
    assert "chance-sampling · alternating · uniform average (median of 5)" in names
    assert "chance-sampling · alternating · current (last iterate)" in names
    page.toggle(key="kuhn_show_current").set_value(False).run()
    assert not any("last iterate" in name for name in _exploitability_names(page))


def test_the_ranking_radio_reorders_the_race_table(page):
    page.button(key="kuhn_lesson_kuhn").click().run()
    page.button(key="kuhn_step_10").click().run()
    page.button(key="kuhn_step_10").click().run()

    def order() -> list[str]:
        return list(page.dataframe[0].value["variant"])

    by_average = order()
    page.radio(key="kuhn_rank_by").set_value("current").run()
    by_current = order()
    live = page.session_state.kuhn_live
    histories = [runs[0] for runs in live.race.histories()]
    current = {v.label: h.metrics["nash_conv_current"][-1] for v, h in zip(live.race.variants, histories)}
    average = {v.label: h.metrics["nash_conv"][-1] for v, h in zip(live.race.variants, histories)}
    assert by_average == sorted(average, key=average.get) and by_current == sorted(current, key=current.get)
    assert by_average != by_current  # after 20 iterations on Kuhn the two orders differ (cfr+ vs dcfr)
    assert by_current[0] == "pcfr+ · alternating"


@pytest.mark.parametrize("game", lesson.LESSON_GAMES)
def test_the_lesson_button_and_its_link_open_the_race_with_the_current_curves(page, game):
    page.button(key=f"kuhn_lesson_{game}").click().run()
    from_link = opened(
        {key: [v for k, v in lesson.query(game) if k == key] or None for key, _ in lesson.query(game)}, "kuhn_poker"
    )
    for app in (page, from_link):
        live = app.session_state.kuhn_live
        assert live.key.game == game and live.race.variants == lesson.VARIANTS and live.key.opponent is None
        assert app.toggle(key="kuhn_show_current").value
        app.button(key="kuhn_step_10").click().run()
        assert not app.exception
        names = _exploitability_names(app)
        assert sum(name.endswith("current (last iterate)") for name in names) == len(lesson.VARIANTS) == 6
        words = captions(app)
        assert "The lesson, as run here" in words and "The game value for player 1 is" in words
        assert "[This lesson's link](" in words and "kuhn_variants=pcfr%2B+%C2%B7+alternating" in words


def test_the_leduc_lessons_curves_start_at_the_first_iteration(page):
    """A row of Leduc's history costs dozens of its iterations, so the history keeps one row in that many iterations
    (``checkpoint_stride``); the curves still start at iteration 1."""
    page.button(key="kuhn_lesson_leduc").click().run()
    assert page.session_state.kuhn_live.race.solvers[0].checkpoint_stride > 10
    page.button(key="kuhn_step_100").click().run()
    assert not page.exception
    chart = next(c for c in live_charts(page) if "nash_conv" in c["figure"]["layout"]["title"]["text"])
    curves = [
        trace
        for trace in chart["figure"]["data"]
        if trace.get("name", "").startswith(tuple(v.label for v in lesson.VARIANTS))
    ]
    assert len(curves) == 2 * len(lesson.VARIANTS)
    assert all(trace["x"][0] == 1 for trace in curves), [(t["name"], t["x"][:2]) for t in curves]


@pytest.mark.parametrize("game", lesson.LESSON_GAMES)
def test_the_lessons_words_quote_what_the_library_gives(game):
    """explain.LESSON_OBSERVED, rounded to two digits, is what a race of the lesson's variants gives at 100 and 1,000
    iterations."""
    race = rmcore.Race(rmcore.tree_game(game), lesson.VARIANTS)
    for k, target in enumerate((100, 1000)):
        race.run(target - race.iteration)
        for variant, runs in zip(race.variants, race.histories()):
            said = explain.LESSON_OBSERVED[game][variant.algorithm][k]
            metrics = runs[0].metrics
            for measured, quoted in zip((metrics["nash_conv"][-1], metrics["nash_conv_current"][-1]), said):
                if quoted < 1e-10:  # machine precision: the exact digits are rounding
                    assert measured < 1e-10, (variant.label, target)
                else:
                    assert measured == pytest.approx(quoted, rel=0.06), (variant.label, target)


def test_the_exploitability_chart_can_be_drawn_against_the_nodes_touched(page):
    page.multiselect(key="kuhn_variants").set_value(["cfr · alternating", "external-sampling · alternating"]).run()
    page.radio(key="kuhn_x_axis").set_value("nodes").run()
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception
    chart = next(c for c in live_charts(page) if "nash_conv" in c["figure"]["layout"]["title"]["text"])
    assert chart["figure"]["layout"]["xaxis"]["title"]["text"] == "nodes touched"
    live = page.session_state.kuhn_live
    touched = {
        v.label: runs[0].metrics["nodes_touched"][-1] for v, runs in zip(live.race.variants, live.race.histories())
    }
    ends = {trace["name"]: trace["x"][-1] for trace in chart["figure"]["data"] if trace.get("name")}
    assert ends["cfr · alternating · current (last iterate)"] == touched["cfr · alternating"]
    assert ends["cfr · alternating · current (last iterate)"] > 5 * touched["external-sampling · alternating"]
    assert not any(name.startswith("guide") for name in ends)  # rates in iterations: no guides on a work axis
    linked = opened({"kuhn_x_axis": "nodes touched"}, "kuhn_poker")
    assert linked.radio(key="kuhn_x_axis").value == "nodes" and not linked.warning
