"""The matrix-game page in streamlit's AppTest: presets, editing, bad input, run controls."""

import dataclasses

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import rmcore
from tests.live_charts import captions, live_charts
from tests.visits import run_switch, shown


@pytest.fixture
def app():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    assert not app.exception
    return app


def iteration(app) -> int:
    return int(app.metric[0].value.replace(",", ""))


def errors(app) -> str:
    return shown(" | ".join(e.value for e in app.error))


def test_page_opens_on_rps_with_crash_at_iteration_zero(app):
    assert app.title[0].value == "Regret matching on a matrix game"
    assert app.session_state.game.name == "RPS with crash"
    assert iteration(app) == 0
    assert any("Press **Run**" in i.value for i in app.info)
    assert "value and an equilibrium" not in errors(app)


def test_steps_and_reset(app):
    for key in ("matrix_step_1", "matrix_step_10", "matrix_step_100"):
        app.button(key=key).click().run()
        assert not app.exception
    assert iteration(app) == 111
    assert app.session_state.matrix_live.iteration == 111
    assert float(app.metric[2].value) > 0  # nash_conv shown
    app.button(key="matrix_reset").click().run()
    assert iteration(app) == 0


def test_run_advances_and_pause_stops(app):
    app.segmented_control(key="matrix_running").set_value("Run").run()
    assert not app.exception
    first = iteration(app)
    assert first > 0
    app.segmented_control(key="matrix_running").set_value("Pause").run()
    paused = iteration(app)
    app.run()
    assert iteration(app) == paused


def test_presets_and_their_parameters(app):
    app.selectbox(key="preset").set_value("matching-pennies").run()
    assert app.session_state.game.shape == (2, 2) and not app.exception
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    app.selectbox(key="preset").set_value("weighted-rps").run()
    app.slider(key="param_weighted-rps_rock_scissors").set_value(2.0).run()
    game = app.session_state.game
    assert game.equilibria[0].row == pytest.approx((0.25, 0.5, 0.25))
    app.selectbox(key="preset").set_value("random-general-sum").run()
    app.slider(key="param_random-general-sum_rows").set_value(40).run()
    assert app.session_state.game.shape == (40, 3) and not app.session_state.game.is_zero_sum
    app.button(key="matrix_step_10").click().run()
    assert not app.exception


def _type_into_cell(app, row, col, text, which="row"):
    """What typing into the editor delivers: the draft's cells with one cell changed."""
    draft = app.session_state.draft
    cells = (draft.row_cells if which == "row" else draft.col_cells).copy()
    cells.iat[row, col] = text
    app.session_state.draft = dataclasses.replace(draft, **{f"{which}_cells": cells})
    app.run()


def test_a_valid_edit_applies_and_restarts_the_run_with_a_notice(app):
    app.button(key="matrix_step_100").click().run()
    _type_into_cell(app, 0, 1, "-3")
    app.button(key="apply").click().run()
    assert not app.exception and not app.error
    assert app.session_state.game.row_payoffs[0, 1] == -3
    assert iteration(app) == 0
    assert any("restarted from iteration 0" in i.value for i in app.info)


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "row 2, column 3 is '', not a number"),
        ("abc", "row 2, column 3 is 'abc', not a number"),
        ("nan", "row 2, column 3 is NaN"),
        ("inf", "row 2, column 3 is infinite"),
    ],
)
def test_bad_cells_show_a_message_and_keep_the_game_and_the_typing(app, text, message):
    before = app.session_state.game
    app.button(key="matrix_step_10").click().run()
    _type_into_cell(app, 1, 2, text)
    app.button(key="apply").click().run()
    assert not app.exception
    assert message in errors(app) and "last valid game keeps running" in errors(app)
    assert app.session_state.game is before and iteration(app) == 10
    assert app.session_state.draft.row_cells.iat[1, 2] == text


def test_bad_action_names_are_explained(app):
    version = app.session_state.draft.version
    app.text_input(key=f"row_names_{version}").set_value("Rock, Rock, Paper").run()
    app.button(key="apply").click().run()
    assert "unique" in errors(app)


def test_resizing_and_the_zero_sum_switch(app):
    version = app.session_state.draft.version
    app.number_input(key=f"rows_{version}").set_value(4).run()
    draft = app.session_state.draft
    assert draft.shape == (4, 3) and draft.row_names[-1] == "R1"
    app.toggle(key=f"zero_sum_{draft.version}").set_value(False).run()
    draft = app.session_state.draft
    assert not draft.zero_sum and len(app.data_editor) == 2
    assert draft.col_cells.iat[0, 2] == "-2"  # starts at -A, which is still zero-sum ...
    _type_into_cell(app, 0, 0, "5", which="col")  # ... until B is edited
    app.button(key="apply").click().run()
    assert app.session_state.game.shape == (4, 3) and not app.session_state.game.is_zero_sum and not app.exception


def test_csv_upload_and_its_bad_inputs(app):
    app.file_uploader(key="upload_row").upload("a.csv", b",L,R\nU,1,-1\nD,-1,1\n", "text/csv").run()
    app.button(key="load_csv").click().run()
    assert app.session_state.game.shape == (2, 2) and app.session_state.game.row_actions == ("U", "D")
    for content, message in [
        (b"", "the CSV is empty"),
        (b"1,2\n3\n", "row 2 has 1 numbers but 2 were expected"),
        (("\n".join([",".join(["1"] * 201)] * 2)).encode(), "at most 200 actions"),
    ]:
        app.file_uploader(key="upload_row").upload("bad.csv", content, "text/csv").run()
        app.button(key="load_csv").click().run()
        assert message in errors(app) and not app.exception
        assert app.session_state.game.row_actions == ("U", "D")


def test_a_200x200_csv_runs(app):
    game = rmcore.preset("random-zero-sum", rows=200, cols=200, seed=1)
    text = "\n".join(",".join(f"{v:g}" for v in row) for row in game.row_payoffs)
    app.file_uploader(key="upload_row").upload("big.csv", text.encode(), "text/csv").run()
    app.button(key="load_csv").click().run()
    app.button(key="matrix_step_100").click().run()
    assert app.session_state.game.shape == (200, 200) and iteration(app) == 100 and not app.exception


def test_after_a_200x200_csv_the_editor_shows_its_sizes_and_names_and_a_preset_brings_the_grid_back(app):
    names = [f"a{k}" for k in range(200)]
    rows = [",".join(["", *names])]
    rows += [",".join([name] + ["1" if j == k else "0" for j in range(200)]) for k, name in enumerate(names)]
    app.file_uploader(key="upload_row").upload("big.csv", "\n".join(rows).encode(), "text/csv").run()
    app.button(key="load_csv").click().run()
    assert app.session_state.game.shape == (200, 200) and not app.exception
    sizes = {n.label: n.value for n in app.number_input}
    assert sizes["Row actions"] == sizes["Column actions"] == 200
    shown_names = {t.label: t.value for t in app.text_input}
    assert shown_names["Row action names (comma-separated)"] == ", ".join(names)
    assert shown_names["Column action names (comma-separated)"] == ", ".join(names)
    said = " ".join(c.value for c in app.caption)
    assert not app.data_editor and "This 200x200 game is larger than the 10x10" in said
    assert all(n.disabled for n in app.number_input if n.label.endswith("actions"))
    app.selectbox(key="preset").set_value("rps").run()
    sizes = {n.label: n.value for n in app.number_input}
    assert sizes["Row actions"] == 3 and len(app.data_editor) == 1 and not app.exception


def test_fixed_opponent_and_an_all_zero_opponent(app):
    app.radio(key="opponent_mode").set_value("Fixed mixed strategy").run()
    app.slider(key="opponent_3_0").set_value(80).run()
    assert app.session_state.matrix_live.key[1].opponent == pytest.approx((80 / 180, 50 / 180, 50 / 180))
    app.button(key="matrix_step_100").click().run()
    assert app.metric[2].label == "learner's best-response gain"
    for k in range(3):
        app.slider(key=f"opponent_3_{k}").set_value(0).run()
    assert "All weights are zero" in errors(app) and not app.exception
    # Zeroing one slider at a time passed through (0, 0, 1): the last valid opponent stays in force.
    assert app.session_state.matrix_live.key[1].opponent == pytest.approx((0.0, 0.0, 1.0))


def test_every_algorithm_setting_runs(app):
    app.selectbox(key="algorithm").set_value("prm+").run()
    app.radio(key="sampling").set_value("sampled").run()
    app.number_input(key="seed").set_value(7).run()
    app.radio(key="updates").set_value("alternating").run()
    app.radio(key="averaging").set_value("quadratic").run()
    app.button(key="matrix_step_100").click().run()
    settings = app.session_state.matrix_live.key[1]
    variant = settings.variants[0]
    assert (variant.algorithm, variant.sampling, settings.seed, variant.updates, variant.averaging) == (
        "prm+",
        "sampled",
        7,
        "alternating",
        "quadratic",
    )
    assert app.session_state.matrix_live.primary.seed == 7
    assert iteration(app) == 100 and not app.exception


def test_two_sessions_are_independent():
    first, second = (
        AppTest.from_file("../app.py", default_timeout=120),
        AppTest.from_file("../app.py", default_timeout=120),
    )
    first.run()
    second.run()
    first.button(key="matrix_step_100").click().run()
    second.run()
    assert iteration(first) == 100 and iteration(second) == 0


def race_table(app):
    return next(d.value for d in app.dataframe if "variant" in d.value.columns)


def test_a_race_of_three_variants_runs_together_and_fills_its_table(app):
    others = ["rm+ · expected · alternating · uniform", "prm+ · sampled · alternating · linear"]
    app.multiselect(key="race_variants").set_value(others).run()
    app.number_input(key="race_seeds").set_value(3).run()
    app.segmented_control(key="matrix_running").set_value("Run").run()
    # Each run of the page is one update of a time budget: on a cold numba cache the first ones go as plain Python
    # or load kernels, so give the race up to 40 updates to reach 1e-2 (compiled, it takes one or two).
    for _ in range(40):
        app.run()
        table = race_table(app)
        if table.set_index("variant").loc["rm+ · expected · alternating · uniform", "to 1e-02"] != "not yet":
            break
    assert not app.exception
    live = app.session_state.matrix_live
    assert live.is_race and live.race.runs == 1 + 1 + 3  # the sampled variant runs once per seed
    assert sorted(table["variant"]) == sorted(["rm · expected · simultaneous · uniform", *others])
    averages = [float(gap) for gap in table["average's nash_conv"]]
    assert list(table["rank"]) == [1, 2, 3] and averages == sorted(averages)  # ranked by the average's nash_conv
    assert {
        "to 1e-02",
        "to 1e-03",
        "to 1e-04",
        "to 1e-06",
        "last iterate's nash_conv",
        "iterations / s (solver)",
    } <= (set(table.columns))
    fast = table.set_index("variant").loc["rm+ · expected · alternating · uniform"]
    assert fast["to 1e-02"].endswith(" s") and "its" in fast["to 1e-02"]  # reached within the first updates


def test_one_variant_shows_no_race():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.button(key="matrix_step_100").click().run()
    assert not app.session_state.matrix_live.is_race
    assert not any("variant" in d.value.columns for d in app.dataframe)


def test_apply_without_a_change_keeps_the_run_and_the_name(app):
    app.button(key="matrix_step_100").click().run()
    app.button(key="apply").click().run()
    assert iteration(app) == 100 and app.session_state.game.name == "RPS with crash"
    assert any("Nothing was changed" in i.value for i in app.info) and not app.error


def test_an_applied_edit_is_named_at_once(app):
    _type_into_cell(app, 0, 1, "-3")
    app.button(key="apply").click().run()
    assert "Now solving: **RPS with crash (edited)**" in " ".join(m.value for m in app.markdown)


@pytest.mark.parametrize("typed", [2.5, 0, 11, -1])
def test_a_bad_action_count_gets_a_message_and_changes_nothing(app, typed):
    version = app.session_state.draft.version
    app.number_input(key=f"rows_{version}").set_value(typed).run()
    assert not app.exception
    assert f"Row actions must be a whole number from 1 to 10; {typed:g} is not" in errors(app)
    assert app.session_state.draft.shape == (3, 3) and app.session_state.game.shape == (3, 3)


def test_every_live_chart_says_what_it_shows(app):
    app.button(key="matrix_step_100").click().run()
    said = captions(app)
    for phrase in (
        "it is the average, not the current play",
        "heading for the equilibrium (the star)",
        "a worst-case guarantee rather than a prediction",
        "Regret matching plays each positive",
    ):
        assert phrase in said, phrase
    charts = live_charts(app)
    assert [bool(chart["caption"]) for chart in charts] == [
        False,
        True,
        True,
        True,
    ]  # the main chart's caption is under its replay
    assert all(chart["figure"]["data"] for chart in charts)


def test_learning_starts_where_the_preset_suggests_uniformly_or_where_the_user_says(app):
    app.selectbox(key="preset").set_value("rps").run()
    assert app.radio(key="start_mode").value == "suggested"
    app.button(key="matrix_step_100").click().run()
    assert float(app.metric[2].value) > 0.01  # RPS from its suggested start moves
    app.radio(key="start_mode").set_value("uniform").run()
    assert any("restarted" in i.value for i in app.info)
    app.button(key="matrix_step_100").click().run()
    assert float(app.metric[2].value) == 0  # from uniform it cannot move
    app.radio(key="start_mode").set_value("custom").run()
    app.slider(key="start_row_3_1").set_value(100).run()
    assert app.session_state.matrix_live.race.start == ((50.0, 100.0, 50.0), (50.0, 50.0, 50.0))
    assert app.session_state.matrix_live.primary.current_policy()["row"][1] == pytest.approx(0.5)


def test_a_large_game_shows_a_compact_answer(app):
    app.selectbox(key="preset").set_value("random-zero-sum").run()
    app.slider(key="param_random-zero-sum_rows").set_value(60).run()
    app.button(key="matrix_step_100").click().run()
    assert not app.exception and app.session_state.game.shape == (60, 3)
    answer = next(m.value for m in app.markdown if m.value.startswith("### The answer"))
    table = answer[answer.index("| player | action |") :]
    assert len(table.splitlines()) == 2 + 10 + 3 and "The 10 actions per player with the most weight" in " ".join(
        c.value for c in app.caption
    )


# -- replay, slow motion and presentation mode ---------------------------------------------------------


def test_a_paused_run_replays_any_checkpoint_and_run_resumes_from_the_live_end(app):
    app.button(key="matrix_step_100").click().run()
    history = app.session_state.matrix_live.primary.history()
    earlier = int(history.iterations[len(history) // 3])
    app.select_slider(key="matrix_replay_100").set_value(earlier).run()
    assert not app.exception
    assert app.metric[0].value == f"{earlier} (replay; live end 100)"
    assert app.session_state.matrix_live.iteration == 100
    app.segmented_control(key="matrix_running").set_value("Run").run()
    assert iteration(app) > 100


def test_slow_motion_in_sampled_mode_names_the_actions_drawn(app):
    app.radio(key="sampling").set_value("sampled").run()
    app.button(key="matrix_step_1").click().run()
    solver = app.session_state.matrix_live.primary
    a, b, _ = solver.last_sampled_actions()
    game = solver.game
    sentence = next(c.value for c in app.caption if c.value.startswith("This iteration drew"))
    assert f"**{game.row_actions[a]}**" in sentence and f"**{game.col_actions[b]}**" in sentence
    app.button(key="matrix_step_100").click().run()
    assert not any(c.value.startswith("This iteration drew") for c in app.caption)  # only for single steps


def test_presentation_mode_from_the_link_folds_the_settings_and_keeps_one_line_of_numbers():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.query_params["present"] = "true"
    app.run()
    assert not app.exception and app.toggle(key="present").value is True
    assert not app.title and not app.metric  # no page title; the numbers are one line
    assert app.expander[0].label.startswith("Game and settings")
    app.button(key="matrix_step_10").click().run()
    assert any(m.value.startswith("##### iteration 10 ·") for m in app.markdown)
    app.toggle(key="present").set_value(False).run()
    assert app.title[0].value == "Regret matching on a matrix game" and app.metric[0].value == "10"


def test_a_failure_inside_the_live_panel_pauses_the_run_with_a_short_message(app, monkeypatch):
    from rmcore.plotting import matrix as figures

    def broken(*args, **kwargs):
        raise RuntimeError("the figure could not be built")

    monkeypatch.setattr(figures, "strategy_trajectories", broken)
    app.segmented_control(key="matrix_running").set_value("Run").run()
    assert not app.exception  # no traceback on the page
    assert run_switch(app, "matrix").value == "Pause"
    message = " ".join(e.value for e in app.error)
    assert (
        "The live panel stopped (RuntimeError: the figure could not be built)" in message
        and "paused at iteration" in message
    )
    monkeypatch.undo()
    run_switch(app, "matrix").set_value("Run").run()
    assert not app.exception and not app.error and iteration(app) > 0  # Run carries on once the fault is gone


def test_a_payoff_beyond_the_bound_is_refused_naming_the_cell_and_a_failed_lp_keeps_the_run(app, monkeypatch):
    with pytest.raises(ValueError, match=r"payoff at \(Paper, Rock\) is 1e\+15"):
        rmcore.MatrixGame(
            [[0, -1, 2], [1e15, 0, -1], [-2, 1, 0]], None, ["Rock", "Paper", "Scissors"], ["Rock", "Paper", "Scissors"]
        )

    def failing(game):
        raise RuntimeError("the linear program failed: (HiGHS Status 2: Model error)")

    monkeypatch.setattr(rmcore, "solve_exactly", failing)
    app.session_state.exact = None
    app.button(key="matrix_step_10").click().run()
    assert not app.exception and iteration(app) == 10
    assert any("The exact answer could not be computed" in w.value for w in app.warning)


def test_an_edited_game_no_longer_shows_the_presets_description(app):
    description = rmcore.preset("rps-crash").description
    assert description in [c.value for c in app.caption]
    _type_into_cell(app, 0, 1, "-3")
    app.button(key="apply").click().run()
    assert description not in [c.value for c in app.caption]


def test_renaming_actions_keeps_the_game_and_its_start_but_not_words_naming_the_old_actions(app):
    app.selectbox(key="preset").select("matching-pennies").run()
    before = app.session_state.game
    assert before.start is not None
    version = app.session_state.draft.version
    app.text_input(key=f"row_names_{version}").set_value("Heads up, Tails up").run()
    app.button(key="apply").click().run()
    game = app.session_state.game
    assert game.row_actions == ("Heads up", "Tails up") and not app.exception
    assert game.name == before.name and game.start == before.start
    assert "90% Heads" in before.description and game.description == ""  # the preset's words named "Heads"
    assert not any("Heads against" in c.value for c in app.caption)
    app.button(key="matrix_step_100").click().run()
    assert app.session_state.matrix_live.primary.metrics().nash_conv > 1e-3, "it starts off the equilibrium, as before"
    shared = rmcore.MatrixGame(**{k: v for k, v in _link_game(app).items()})
    assert shared.start == before.start and shared.row_actions == ("Heads up", "Tails up")


def _link_game(app) -> dict:
    """The game the address's ``matrix`` parameter carries, as MatrixGame's arguments."""
    from ui import link

    game = link.game_from_param(
        app.query_params["matrix"][0] if isinstance(app.query_params["matrix"], list) else app.query_params["matrix"]
    )
    return dict(
        row_payoffs=game.row_payoffs, row_actions=game.row_actions, col_actions=game.col_actions, start=game.start
    )


def _layout_axes(chart: dict) -> dict:
    layout = chart["figure"]["layout"] if "figure" in chart else chart["layout"]
    return {
        key: value.get("title", {}).get("text")
        for key, value in layout.items()
        if key.startswith(("xaxis", "yaxis")) and value.get("showticklabels", True)
    }  # (a panel sharing an axis shows none)


def test_words_follow_the_mode_against_a_fixed_opponent(app):
    app.radio(key="opponent_mode").set_value("Fixed mixed strategy").run()
    app.button(key="matrix_step_100").click().run()
    words = captions(app)
    assert "heads for a best response" in words and "spiralling in towards the equilibrium" not in words
    assert "cycles" not in words.split("Thin lines")[1].split(".")[0]


def test_at_iteration_zero_no_running_average_is_shown(app):
    answer = " ".join(m.value for m in app.markdown if "The answer" in m.value)
    assert "0.3333" not in answer and "no average before the first iteration" in answer
    assert [m.value for m in app.metric][3] == "-"


def test_a_general_sum_game_names_its_payoff_and_its_equilibria_by_action(app):
    app.selectbox(key="preset").select("battle-of-sexes").run()
    app.button(key="matrix_step_10").click().run()
    assert [m.label for m in app.metric][3] == "row player's payoff x̄ᵀAȳ"
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    assert "| row player | column player |" in answer and "0.3333333333333333" not in answer
    row_actions = app.session_state.game.row_actions
    assert f"{row_actions[0]} 0.6667, {row_actions[1]} 0.3333" in answer, answer


def test_every_chart_axis_has_a_title_and_a_unit(app):
    app.button(key="matrix_step_100").click().run()
    for chart in live_charts(app):
        titles = _layout_axes(chart)
        assert all(titles.values()), titles
        assert "gap" not in titles.values()
    regret_axes = _layout_axes(live_charts(app)[-1])
    assert regret_axes["yaxis"] == "cumulative regret (payoff units)"


NFG_TEXT = b"""NFG 1 R "Asymmetric" { "Player 1" "Player 2" } { { "U" "D" } { "L" "C" "R" } }

1 10 4 40 2 20 5 50 3 30 6 60
"""


def test_an_nfg_upload_loads_the_game_with_its_names(app):
    app.file_uploader(key="upload_nfg").upload("asymmetric.nfg", NFG_TEXT, "text/plain").run()
    app.button(key="load_nfg").click().run()
    game = app.session_state.game
    assert not app.exception and game.name == "Asymmetric"
    assert game.row_payoffs.tolist() == [[1, 2, 3], [4, 5, 6]] and game.col_payoffs.tolist() == [
        [10, 20, 30],
        [40, 50, 60],
    ]
    assert game.row_actions == ("U", "D") and game.col_actions == ("L", "C", "R")
    assert app.session_state.draft.col_names == ("L", "C", "R")  # the editor shows it too


def test_a_bad_nfg_file_says_why_and_keeps_the_game_and_what_was_typed(app):
    before = app.session_state.game
    typed_names = f"row_names_{app.session_state.draft.version}"
    app.text_input(key=typed_names).set_value("Stone, Sheet, Blade").run()  # typed, not applied
    too_many = b'NFG 1 R "" { "1" "2" } { 201 1 }\n' + b"0 0 " * 201
    for name, content, message in [
        ("wide.nfg", b'NFG 1 R "" { "1" "2" "3" } { 20 20 20 }\n' + b"0 " * 24_000, "of at most 4,096"),
        ("short.nfg", b'NFG 1 R "" { "1" "2" } { 2 2 }\n1 2 3\n', "the file gives 3 payoff numbers"),
        ("binary.nfg", b"NFG 1 R \x00\xff", "line 1: the file is binary or not UTF-8 text"),
        ("big.nfg", b"NFG" + b" " * (2 * 2**20), "at most 2 MB is read"),
        ("many.nfg", too_many, "at most 200 actions per player"),
    ]:
        app.file_uploader(key="upload_nfg").upload(name, content, "text/plain").run()
        app.button(key="load_nfg").click().run()
        assert "Not loaded: " in errors(app) and message in errors(app) and not app.exception, (name, errors(app))
        assert app.session_state.game is before
        assert app.text_input(key=typed_names).value == "Stone, Sheet, Blade"


def test_the_download_offers_the_current_game_as_nfg_text(app, monkeypatch):
    # AppTest cannot fetch a download button's file, so the button's arguments are recorded as the page passes them.
    offered = {}
    original = st.download_button

    def recording(label, data, file_name=None, *args, **kwargs):
        if kwargs.get("key") == "download_nfg":
            offered.update(label=label, data=data, file_name=file_name)
        return original(label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", recording)
    app.selectbox(key="preset").set_value("prisoners-dilemma").run()
    assert app.download_button(key="download_nfg").label == "Download as .nfg" and not app.exception
    assert offered["label"] == "Download as .nfg" and offered["file_name"] == "Prisoner-s-dilemma.nfg"
    text = offered["data"]()
    back = rmcore.read_nfg(text)
    game = app.session_state.game
    assert back.row_actions == game.row_actions and back.row_payoffs.tobytes() == game.row_payoffs.tobytes()
    assert back.col_payoffs.tobytes() == game.col_payoffs.tobytes() and back.name == game.name


def _general_sum_link(size: int, seed: int = 4) -> dict:
    import json

    import numpy as np

    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(size, size)).round(3).tolist(), rng.normal(size=(size, size)).round(3).tolist()
    return {"matrix": json.dumps({"name": f"Edited {size}x{size}", "A": a, "B": b})}


def test_an_edited_general_sum_game_shows_every_nash_equilibrium_and_the_averages_distance_to_the_set():
    from tests.visits import opened

    app = opened(_general_sum_link(3))
    game = app.session_state.game
    found = rmcore.nash_equilibria(game)
    assert found.complete and len(found.equilibria) >= 1
    answer = next(m.value for m in app.markdown if m.value.startswith("### The answer"))
    count = len(found.equilibria)
    every = "1 Nash equilibrium, the game's only one" if count == 1 else f"All {count} Nash equilibria"
    assert every in answer and "vertex enumeration" in answer and "All 1 " not in answer
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    average = app.session_state.matrix_live.primary.average_policy()
    k, distance = rmcore.nearest_equilibrium(found.equilibria, average["row"], average["col"])
    assert f"The running averages are **{distance:.4f}** from the set of Nash equilibria" in answer
    assert f"whose nearest point is equilibrium {k + 1}" in answer and f"{k + 1} (nearest)" in answer


def _degenerate_link(a, b) -> dict:
    import json

    return {"matrix": json.dumps({"name": "Degenerate", "A": a, "B": b})}


def test_a_degenerate_games_every_extreme_equilibrium_and_its_continuum_are_shown():
    """Von Stengel's game: three extreme equilibria (Nashpy's and Gambit's vertex enumeration list the same), the
    first two the ends of a continuum."""
    from tests.visits import opened

    app = opened(_degenerate_link([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]]))
    assert not app.exception
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    assert "3 extreme Nash equilibria by vertex enumeration, in 2 components" in answer
    assert "component 1 (equilibria 1, 2) is a continuum" in answer and "1 equilibrium is isolated" in answer
    assert answer.count("1 (a continuum)") == 2


def test_averages_on_a_continuum_of_equilibria_are_told_they_are_near_it():
    """Row payoffs [[1, 1], [0, 0]]: the row player's top row is strict, the column player indifferent. The averages
    approach (1; 0.5, 0.5), a point of the continuum between the two listed equilibria, half a unit from each."""
    from tests.visits import opened

    app = opened(_degenerate_link([[1, 1], [0, 0]], [[1, 1], [0, 0]]))
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    average = app.session_state.matrix_live.primary.average_policy()
    found = rmcore.nash_equilibria(app.session_state.game)
    _, to_points = rmcore.nearest_equilibrium(found.equilibria, average["row"], average["col"])
    _, to_set = rmcore.equilibrium_distance(found, average["row"], average["col"])
    assert to_set < 0.05 < 0.4 < to_points
    assert f"The running averages are **{to_set:.4f}** from the set of Nash equilibria" in answer
    assert "whose nearest point lies in the continuum of component 1" in answer


def test_beyond_eight_actions_one_equilibrium_by_lemke_howson_is_shown():
    from tests.visits import opened

    app = opened(_general_sum_link(9))
    app.button(key="matrix_step_10").click().run()
    assert not app.exception
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    assert "One Nash equilibrium, by Lemke-Howson" in answer and "whose nearest point is equilibrium 1" in answer


def test_csv_and_nfg_uploads_of_a_general_sum_game_show_its_equilibria(app):
    row, col = "3,0,1\n0,2,1\n1,1,0.5\n", "2,0,1\n0,3,1.4\n1,0.5,1\n"
    app.file_uploader(key="upload_row").upload("row.csv", row.encode(), "text/csv").run()
    app.file_uploader(key="upload_col").upload("col.csv", col.encode(), "text/csv").run()
    app.button(key="load_csv").click().run()
    game = app.session_state.game
    assert not app.exception and not game.is_zero_sum
    found = rmcore.nash_equilibria(game)
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    assert f"All {len(found.equilibria)} Nash equilibri" in answer
    app.file_uploader(key="upload_nfg").upload("game.nfg", rmcore.write_nfg(game).encode(), "text/plain").run()
    app.button(key="load_nfg").click().run()
    assert not app.exception and app.session_state.game is not game
    answer = shown(next(m.value for m in app.markdown if m.value.startswith("### The answer")))
    assert f"All {len(found.equilibria)} Nash equilibri" in answer


def test_after_an_upload_or_an_edit_the_preset_box_names_no_preset(app):
    rows = "\n".join(",".join(str((i * 7 + j * 3) % 5 - 2) for j in range(12)) for i in range(12))
    app.file_uploader(key="upload_row").upload("big.csv", rows.encode(), "text/csv").run()
    app.button(key="load_csv").click().run()
    assert not app.exception and app.session_state.game.shape == (12, 12)
    box = app.selectbox(key="preset")
    assert box.value is None and box.proto.placeholder.startswith("your own game")
    box.set_value("rps").run()
    assert app.session_state.game.name == "Rock-Paper-Scissors" and app.selectbox(key="preset").value == "rps"
    _type_into_cell(app, 0, 1, "-3")
    app.button(key="apply").click().run()
    assert app.selectbox(key="preset").value is None and app.session_state.game.name.endswith("(edited)")
