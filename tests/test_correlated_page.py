"""The matrix page's correlated-equilibrium parts in streamlit's AppTest: the learners of correlated equilibria and
internal-rm's inertia, chosen on the page and carried by a link."""

import numpy as np
import pytest

import rmcore
from rmcore.plotting import correlated as correlated_figure
from rmcore.plotting import words as figure_words
from rmcore.plotting.correlated import traffic_light
from tests.live_charts import live_charts
from tests.visits import opened, run_to_reached
from ui import explain_correlated as words


def test_a_link_runs_internal_rm_with_its_inertia_as_a_multiple_of_the_least_allowed():
    game = rmcore.preset("shapley")
    app = run_to_reached(
        opened({"preset": "Shapley's game", "algorithm": "internal-rm", "mu": "2", "run_to": "30"}), "matrix"
    )
    live = app.session_state.matrix_live
    least = rmcore.internal_rm_inertia(game)
    assert live.primary.variant.algorithm == "internal-rm" and live.iteration == 30
    assert live.primary.mu == pytest.approx(2 * least)
    assert app.select_slider(key="mu").value == "2"
    assert any("2 × the least allowed" in c.value for c in app.caption)
    assert not app.warning


def test_internal_rm_starts_at_the_least_inertia_and_other_rules_show_no_inertia():
    app = opened({"preset": "Shapley's game", "algorithm": "internal-rm"})
    least = rmcore.internal_rm_inertia(rmcore.preset("shapley"))
    assert app.session_state.matrix_live.primary.mu == least
    assert any("the least allowed on this game" in c.value for c in app.caption)
    app.selectbox(key="algorithm").set_value("swap-rm").run()
    assert not app.exception
    assert not [s for s in app.select_slider if s.key == "mu"]
    assert app.session_state.matrix_live.primary.variant.algorithm == "swap-rm"
    assert app.session_state.matrix_live.primary.mu is None


def test_a_race_gives_its_inertia_to_internal_rm_alone_and_refuses_one_without_it():
    game = rmcore.preset("shapley")
    race = rmcore.Race(game, ["internal-rm/sampled", "rm"], seeds=1, mu=10.0)
    assert [solver.mu for solver in race.solvers] == [10.0, None]
    assert race.fresh().solvers[0].mu == 10.0
    with pytest.raises(ValueError, match="no variant here is one"):
        rmcore.Race(game, ["rm"], mu=10.0)


def correlated_chart(app) -> dict | None:
    found = [chart for chart in live_charts(app) if _title(chart) in TITLES]
    return found[0] if found else None


TITLES = (figure_words.TETRAHEDRON_TITLE, figure_words.HEATMAPS_TITLE)


def _title(chart: dict) -> str:
    """A chart's title, as one line (a projector's is wrapped)."""
    return str(chart["figure"]["layout"].get("title", {}).get("text", "")).replace("<br>", " ")


def convergence_curves(app) -> set[str]:
    """The names of the convergence chart's curves (empty when it is not drawn)."""
    return {
        trace.get("name")
        for chart in live_charts(app)
        if str(chart["figure"]["layout"].get("title", {}).get("text", "")).startswith("Convergence")
        for trace in chart["figure"]["data"]
    }


def test_a_2x2_general_sum_game_draws_the_tetrahedron_with_the_joint_plays_trail_up_to_the_iteration_shown():
    app = run_to_reached(opened({"preset": "Chicken", "run_to": "200"}), "matrix")
    chart = correlated_chart(app)
    assert chart is not None and chart["figure"]["layout"]["title"]["text"] == figure_words.TETRAHEDRON_TITLE
    trail = next(t for t in chart["figure"]["data"] if t.get("name") == figure_words.TRAIL)
    solver = app.session_state.matrix_live.primary
    now = correlated_figure.tetrahedron_point(solver.joint_distribution())
    assert [trail["x"][-1], trail["y"][-1], trail["z"][-1]] == pytest.approx(now.tolist(), abs=1e-9)
    assert chart["figure"]["layout"]["scene"]["uirevision"] == "keep"
    text = " ".join(m.value for m in app.markdown)
    assert "Correlated equilibria" in text and "Total payoff" in text
    curves = convergence_curves(app)
    assert {figure_words.CE_GAP, figure_words.CCE_GAP} <= curves


def test_a_larger_game_draws_the_joint_play_beside_its_closest_ce_and_swap_rm_its_internal_regret():
    app = run_to_reached(opened({"preset": "Shapley's game", "algorithm": "swap-rm", "run_to": "300"}), "matrix")
    app.run()  # (a paused page waits for the closest CE of the iteration it shows)
    chart = correlated_chart(app)
    assert chart is not None and chart["figure"]["layout"]["title"]["text"] == figure_words.HEATMAPS_TITLE
    solver = app.session_state.matrix_live.primary
    np.testing.assert_allclose(chart["figure"]["data"][0]["z"], solver.joint_distribution(), atol=1e-12)
    closest = app.session_state.correlated_closest
    assert closest.iteration == 300 and closest.found.distance == pytest.approx(
        rmcore.closest_correlated_equilibrium(solver.game, solver.joint_distribution()).distance, abs=1e-7
    )
    low, high = rmcore.welfare_range(solver.game)
    assert f"from **{low:.4g}** to **{high:.4g}**" in " ".join(m.value for m in app.markdown)
    curves = convergence_curves(app)
    gaps = {figure_words.CE_GAP, figure_words.CCE_GAP, figure_words.INTERNAL_REGRET, figure_words.INTERNAL_BOUND}
    assert gaps <= curves


@pytest.mark.parametrize("params", [{"run_to": "50"}, {"preset": "Chicken", "opponent_mode": "Fixed mixed strategy"}])
def test_zero_sum_games_and_a_fixed_opponent_show_no_correlated_part(params):
    app = opened({**params})
    if "run_to" not in params:
        app.button(key="matrix_step_10").click().run()
    else:
        run_to_reached(app, "matrix")
    assert not app.exception and correlated_chart(app) is None
    assert "Correlated equilibria" not in " ".join(m.value for m in app.markdown)
    curves = convergence_curves(app)
    assert curves and not curves & {figure_words.CE_GAP, figure_words.CCE_GAP}


def test_the_lesson_races_the_three_learners_on_shapleys_game_and_its_link_reopens_it():
    from ui.matrix import correlated_lesson

    app = opened({})
    app.button(key="correlated_lesson_shapley").click().run()
    assert not app.exception
    live = app.session_state.matrix_live
    assert live.race.variants == correlated_lesson.LEARNERS and live.race.runs == 3
    assert live.race.start == rmcore.preset("shapley").start
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    assert words.SHAPLEY_WORDS in " ".join(chart["caption"] for chart in live_charts(app))
    race = correlated_chart_named(app, figure_words.GAPS_RACE_TITLE)
    assert race is not None and len(race["figure"]["data"]) == 6  # a CE and a CCE gap per learner
    # The share link: the bound widgets write the address; opened afresh it is the lesson again.
    reopened = opened({key: value for key, value in app.query_params.items()})
    assert reopened.session_state.matrix_live.race.variants == correlated_lesson.LEARNERS
    assert reopened.session_state.matrix_live.race.start == rmcore.preset("shapley").start


def correlated_chart_named(app, title: str) -> dict | None:
    found = [chart for chart in live_charts(app) if chart["figure"]["layout"].get("title", {}).get("text") == title]
    return found[0] if found else None


def test_the_lessons_numbers_are_the_librarys():
    """The words' numbers (ui.explain_correlated.SHAPLEY_WORDS) from the lesson's learners, start and seed."""
    game = rmcore.preset("shapley")
    measured = {}
    for variant in ("rm", "swap-rm", "internal-rm/sampled"):
        solver = rmcore.MatrixVariant.parse(variant).solver(game, start=game.start, seed=0, history_share=None)
        solver.run(1_000)
        at_1000 = solver.metrics()
        solver.run(9_000)
        measured[variant] = (at_1000, solver.metrics())
    rm_1000, rm = measured["rm"]
    assert round(rm_1000.cce_gap, 3) == 0.009 and round(rm.cce_gap, 3) == 0.001
    assert round(rm.ce_gap, 1) == 0.3 and round(rm.nash_conv, 2) == 0.28
    assert measured["swap-rm"][1].ce_gap < 0.01
    assert round(measured["internal-rm/sampled"][1].ce_gap, 1) == 0.1
    slow = rmcore.MatrixVariant("internal-rm", "sampled").solver(game, start=game.start, seed=0, history_share=None)
    slow.run(100_000)
    assert round(slow.metrics().ce_gap, 2) == 0.05


def test_the_chicken_lesson_ends_its_learners_at_the_points_its_words_name():
    """CHICKEN_WORDS: from the uniform start, rm and swap-rm at the mixed equilibrium's product, sampled internal-rm
    (seed 0) at (Swerve, Dare); every CE gap about 0.0003 after 10,000; the traffic light and the best CE elsewhere."""
    game = rmcore.preset("aumann-chicken")
    product = np.outer([2 / 3, 1 / 3], [2 / 3, 1 / 3])
    ends = {}
    for variant in ("rm", "swap-rm", "internal-rm/sampled"):
        solver = rmcore.MatrixVariant.parse(variant).solver(game, seed=0, history_share=None)
        solver.run(10_000)
        assert round(solver.metrics().ce_gap, 4) <= 0.0003
        ends[variant] = solver.joint_distribution()
    np.testing.assert_allclose(ends["rm"], product, atol=2e-3)
    np.testing.assert_allclose(ends["swap-rm"], product, atol=2e-3)
    np.testing.assert_allclose(ends["internal-rm/sampled"], [[0, 1], [0, 0]], atol=2e-3)
    best = rmcore.correlated_equilibrium(game)
    np.testing.assert_allclose(best.joint, [[0.5, 0.25], [0.25, 0]], atol=1e-9)
    assert rmcore.ce_gap(game, np.array([[1, 1], [1, 0]]) / 3) < 1e-12  # Aumann's device is a CE
    # Where each ended relative to the traffic light (a fair coin between (Swerve, Dare) and (Dare, Swerve)):
    light = traffic_light(game)
    np.testing.assert_allclose(light, [[0, 0.5], [0.5, 0]])
    assert rmcore.ce_gap(game, light) == 0.0 and np.sum(light * (game.row_payoffs + game.col_payoffs)) == 9
    for variant in ("rm", "swap-rm"):  # both swerve 4/9 of the time and crash 1/9 of it, never under the light
        assert round(ends[variant][0, 0] * 9) == 4 and round(ends[variant][1, 1] * 9) == 1
    assert ends["internal-rm/sampled"][0, 1] > 0.998  # one of the light's two outcomes, the light halfway along
    assert all(np.abs(end - light).sum() > 0.9 for end in ends.values())  # none at the light
    for named in ("traffic light", "(Swerve, Dare) or (Dare, Swerve) with 1/2 each, 9 in all", "4/9", "crash 1/9"):
        assert named in words.CHICKEN_WORDS, named
    assert "halfway between it and (Dare, Swerve)" in words.CHICKEN_WORDS


def test_the_chicken_lesson_opens_on_its_preset_with_the_three_learners():
    from ui.matrix import correlated_lesson

    app = opened({})
    app.button(key="correlated_lesson_chicken").click().run()
    assert not app.exception
    assert app.session_state.game.name == "Aumann's Chicken"
    assert app.session_state.matrix_live.race.variants == correlated_lesson.LEARNERS
    app.button(key="matrix_step_100").click().run()
    assert words.CHICKEN_WORDS in " ".join(chart["caption"] for chart in live_charts(app))
    assert correlated_chart(app)["figure"]["layout"]["title"]["text"] == figure_words.TETRAHEDRON_TITLE
    assert figure_words.TRAFFIC_LIGHT in [trace.get("name") for trace in correlated_chart(app)["figure"]["data"]]
    reopened = opened(dict(app.query_params.items()))
    assert reopened.session_state.game.name == "Aumann's Chicken"
    assert reopened.session_state.matrix_live.race.variants == correlated_lesson.LEARNERS


def test_a_general_sum_nfg_upload_gets_the_correlated_part_and_swap_rm():
    game = rmcore.MatrixGame([[3, 0, 1], [0, 2, 0], [1, 0, 2]], [[1, 0, 2], [3, 2, 0], [0, 1, 1]], name="Uploaded")
    app = opened({"algorithm": "swap-rm"})
    app.file_uploader(key="upload_nfg").upload("mine.nfg", rmcore.write_nfg(game).encode(), "text/plain").run()
    app.button(key="load_nfg").click().run()
    assert not app.exception and app.session_state.game.row_payoffs.tolist() == game.row_payoffs.tolist()
    app.button(key="matrix_step_100").click().run()
    app.run()  # (a paused page waits for the closest CE of the iteration it shows)
    assert not app.exception
    chart = correlated_chart(app)
    assert chart is not None and chart["figure"]["layout"]["title"]["text"] == figure_words.HEATMAPS_TITLE
    assert {figure_words.CE_GAP, figure_words.CCE_GAP, figure_words.INTERNAL_REGRET} <= convergence_curves(app)
    low, high = rmcore.welfare_range(game)
    assert f"from **{low:.4g}** to **{high:.4g}**" in " ".join(m.value for m in app.markdown)


def test_a_2x2_general_sum_nfg_upload_gets_the_tetrahedron_and_its_traffic_light():
    game = rmcore.MatrixGame([[3, 1], [4, 0]], [[3, 4], [1, 0]], row_actions=("Yield", "Go"), name="Crossing")
    app = opened({"algorithm": "internal-rm", "sampling": "sampled"})
    app.file_uploader(key="upload_nfg").upload("crossing.nfg", rmcore.write_nfg(game).encode(), "text/plain").run()
    app.button(key="load_nfg").click().run()
    assert not app.exception and app.session_state.game.row_payoffs.tolist() == game.row_payoffs.tolist()
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    chart = correlated_chart(app)
    assert chart is not None and chart["figure"]["layout"]["title"]["text"] == figure_words.TETRAHEDRON_TITLE
    (light,) = [t for t in chart["figure"]["data"] if t.get("name") == figure_words.TRAFFIC_LIGHT]
    assert [light["x"][0], light["y"][0], light["z"][0]] == [0.0, 0.0, -1.0]
    assert {figure_words.CE_GAP, figure_words.CCE_GAP} <= convergence_curves(app)


def test_the_links_picture_toggles_choose_the_tetrahedrons_layers():
    app = run_to_reached(
        opened({"preset": "Chicken", "picture_layers": ["CE set", "CCE set"], "run_to": "50"}), "matrix"
    )
    visible = {t.get("name"): t.get("visible", True) for t in correlated_chart(app)["figure"]["data"]}
    assert visible[figure_words.CE_SET] is True and visible[figure_words.CCE_SAME] is True
    assert visible[figure_words.NASH] == "legendonly" and visible[figure_words.PRODUCTS] == "legendonly"
    assert visible[figure_words.TRAIL] is True  # (the joint play is always drawn)
    assert list(app.pills(key="picture_layers").value) == ["CE set", "CCE set"]


def test_the_links_closest_set_puts_the_joint_play_beside_the_closest_cce():
    app = run_to_reached(opened({"preset": "Shapley's game", "closest_set": "CCE", "run_to": "200"}), "matrix")
    app.run()  # (a paused page waits for the closest point of the iteration it shows)
    closest = app.session_state.correlated_closest
    assert closest.coarse and closest.found.coarse and closest.iteration == 200
    solver = app.session_state.matrix_live.primary
    expected = rmcore.closest_correlated_equilibrium(solver.game, solver.joint_distribution(), coarse=True)
    assert closest.found.distance == pytest.approx(expected.distance, abs=1e-7)
    assert "the closest CCE" in str(correlated_chart(app)["figure"]["layout"])


@pytest.mark.parametrize(
    ("preset", "title"), [("Chicken", figure_words.TETRAHEDRON_TITLE), ("Shapley's game", figure_words.HEATMAPS_TITLE)]
)
def test_the_correlated_picture_is_drawn_for_a_projector_in_presentation_mode(preset, title):
    app = run_to_reached(opened({"preset": preset, "present": "true", "run_to": "100"}), "matrix")
    app.run()
    chart = correlated_chart(app)
    assert not app.exception and chart is not None
    layout = chart["figure"]["layout"]
    assert _title(chart) == title and layout["font"]["size"] >= 16


def test_a_paused_page_waits_briefly_for_the_welfare_ranges_so_its_first_draw_has_them():
    app = opened({"preset": "Battle of the sexes"})
    app.button(key="matrix_step_10").click().run()
    low, high = rmcore.welfare_range(rmcore.preset("battle-of-sexes"))
    assert f"from **{low:.4g}** to **{high:.4g}**" in " ".join(m.value for m in app.markdown)


def test_a_replayed_iteration_draws_the_trail_up_to_that_iteration():
    app = opened({"preset": "Chicken"})
    app.button(key="matrix_step_100").click().run()
    solver = app.session_state.matrix_live.primary
    kept = solver.joint_history()
    k = len(kept.iterations) // 3
    earlier = int(kept.iterations[k])
    app.select_slider(key="matrix_replay_100").set_value(earlier).run()
    assert not app.exception
    trail = next(t for t in correlated_chart(app)["figure"]["data"] if t.get("name") == figure_words.TRAIL)
    assert len(trail["x"]) == k + 1
    then = correlated_figure.tetrahedron_point(kept.joint[k])
    assert [trail["x"][-1], trail["y"][-1], trail["z"][-1]] == pytest.approx(then.tolist(), abs=1e-9)
