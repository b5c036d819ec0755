"""The four field lessons: the numbers their words quote come from this library's runs, and each button sets up the page
so that its chart and its words show."""

import itertools
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import rmcore
from tests.live_charts import captions, live_charts
from ui.matrix import field_lessons

START = ((0.7, 0.2, 0.1), (0.7, 0.2, 0.1))


def run(game, algorithm, iterations, **kwargs):
    solver = rmcore.MatrixSolver(game, algorithm, **kwargs)
    solver.run(iterations)
    return solver


def distance_from_centre(solver) -> float:
    current = solver.current_policy()
    if len(current["row"]) == 2:
        return float(np.hypot(current["row"][0] - 0.5, current["col"][0] - 0.5))
    return float(np.linalg.norm(np.asarray(current["row"]) - 1 / 3))


def test_the_pennies_lesson_hedge_spirals_out_and_optimistic_hedge_in():
    pennies = rmcore.preset("matching-pennies")
    said = field_lessons.LESSONS["pennies"].words
    hedge = [distance_from_centre(run(pennies, "hedge", n, start=pennies.start)) for n in (10, 1000)]
    optimistic = distance_from_centre(run(pennies, "optimistic-hedge", 1000, start=pennies.start))
    assert f"{hedge[0]:.2f} from the centre after 10 iterations, {hedge[1]:.2f} after 1,000" in said
    assert f"({optimistic:.3f} after 1,000)" in said
    assert hedge[1] > hedge[0] > optimistic


def test_the_rps_lesson_stays_symmetric_drifts_out_and_its_average_closes_in():
    rps = rmcore.preset("rps")
    said = field_lessons.LESSONS["rps"].words
    runs = {n: run(rps, "hedge", n, start=START) for n in (100, 1000)}
    assert all(np.allclose(s.current_policy()["row"], s.current_policy()["col"]) for s in runs.values())
    near = [distance_from_centre(runs[n]) for n in (100, 1000)]
    assert f"({near[0]:.2f} from the centre after 100 iterations, {near[1]:.2f} after 1,000)" in said
    assert f"(nash_conv {runs[1000].metrics().nash_conv:.3f} after 1,000)" in said


@pytest.mark.slow
def test_the_fictitious_play_lessons_cycle_on_shapleys_game_and_converge_on_rps():
    shapley, rps = rmcore.preset("shapley"), rmcore.preset("rps")
    cycles = [run(shapley, "fictitious-play", n, start=shapley.start).metrics().nash_conv for n in (1000, 100_000)]
    assert "(0.293 after 1,000 iterations, 0.287 after 100,000)" in field_lessons.LESSONS["shapley"].words
    assert [round(v, 3) for v in cycles] == [0.293, 0.287]
    converges = [run(rps, "fictitious-play", n, start=START).metrics().nash_conv for n in (1000, 100_000)]
    assert f"(nash_conv {converges[0]:.3f} after 1,000 iterations, {converges[1]:.4f} after 100,000)" in (
        field_lessons.LESSONS["rps-br"].words
    )


@pytest.fixture
def app():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    assert not app.exception
    return app


def strategy_space(app) -> dict:
    (chart,) = [c for c in live_charts(app) if c.get("clicks")]
    return chart


@pytest.mark.parametrize("name", list(field_lessons.LESSONS))
def test_each_lesson_button_sets_up_its_game_rule_and_words(app, name):
    lesson = field_lessons.LESSONS[name]
    app.button(key=f"field_lesson_{name}").click().run()
    assert not app.exception
    assert app.session_state.game.name == rmcore.PRESETS[lesson.settings["preset"]].title
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    assert lesson.words in captions(app)
    if name == "shapley":  # two populations: no picture of the state, the joint dynamic's verdict in words
        assert not any(c.get("clicks") for c in live_charts(app))
        assert "is unstable (from its Jacobian's eigenvalues)" in captions(app)
        return
    chart = strategy_space(app)
    names = [trace.get("name", "") for trace in chart["figure"]["data"]]
    expected = {"pennies": "rest point: neutral", "rps": "rest point: neutral", "rps-br": "rest point: stable"}[name]
    assert expected in names and any(n.endswith(": last iterate") for n in names)
    if name == "pennies":  # the raced optimistic Hedge is drawn on the same field, in the colour the words name
        assert sum(n.endswith(": last iterate") for n in names) == 2
        colours = {"#1f77b4": "blue", "#d62728": "red"}
        named = {
            t["name"]: colours[t["line"]["color"]]
            for t in chart["figure"]["data"]
            if t.get("name", "").endswith(": last iterate")
        }
        assert f"Hedge's last iterate ({named['Hedge: last iterate']})" in lesson.words
        assert f"optimistic Hedge's ({named['Optimistic Hedge: last iterate']})" in lesson.words


def test_a_changed_setting_takes_the_lessons_words_away(app):
    app.button(key="field_lesson_rps").click().run()
    app.button(key="matrix_step_10").click().run()
    assert field_lessons.LESSONS["rps"].words in captions(app)
    app.radio(key="updates").set_value("alternating").run()
    app.button(key="matrix_step_10").click().run()
    assert field_lessons.LESSONS["rps"].words not in captions(app)
    assert "alternating updates treat the two players differently" in captions(app)


def _sentences(text: str) -> list[str]:
    return [sentence for sentence in re.split(r"(?<=[.!?])\s+", text) if sentence]


def _runs_of_words(sentence: str, length: int = 5) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", sentence.lower())
    return {tuple(words[k : k + length]) for k in range(len(words) - length + 1)}


@pytest.mark.parametrize("name", list(field_lessons.LESSONS))
def test_no_caption_of_a_lesson_says_a_thing_twice(app, name):
    """No two sentences of one caption share five words in a row: the lesson's words add to the chart's caption
    (the space, the field, the rest points), they do not say it again."""
    app.button(key=f"field_lesson_{name}").click().run()
    app.button(key="matrix_step_10").click().run()
    texts = [chart.get("caption") or "" for chart in live_charts(app)] + [caption.value for caption in app.caption]
    assert field_lessons.LESSONS[name].words in " ".join(texts)
    for text in texts:
        for first, second in itertools.combinations(_sentences(text), 2):
            assert not _runs_of_words(first) & _runs_of_words(second), (first, second)


def test_the_pennies_lessons_export_draws_both_rules_by_name(app):
    """The page's animation and stills take what its panel drew: both runs of the race, each by its rule's name."""
    from ui.matrix import animation, space

    app.button(key="field_lesson_pennies").click().run()
    app.button(key="matrix_step_100").click().run()
    histories, given = space.export_source(app.session_state.matrix_live)
    (figure,) = animation.frames_of(histories, 1, 100, 100, **given)
    names = [trace.get("name", "") for trace in figure["data"]]
    for rule in ("Hedge", "Optimistic Hedge"):
        assert f"{rule}: average" in names and f"{rule}: last iterate" in names
    assert "rest point: neutral" in names
