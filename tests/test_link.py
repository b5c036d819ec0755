"""The setup in the URL: a link restores the game and the settings, and bad links get a notice, never an error."""

import json

import numpy as np
import pytest

import rmcore
from tests.visits import opened, run_to_reached, shown
from ui import link


def warnings(app) -> str:
    """The notices as a reader sees them: Markdown's backslash escapes shown as the characters they escape."""
    return shown(" | ".join(w.value for w in app.warning))


def test_a_link_restores_the_matrix_pages_setup_and_runs_to_its_iteration():
    app = opened(
        {
            "preset": "Weighted RPS",
            "param_weighted-rps_rock_scissors": "2.0",
            "algorithm": "RM+",
            "sampling": "sampled",
            "updates": "alternating",
            "averaging": "linear",
            "seed": "7",
            "race_variants": ["prm+ · expected · alternating · linear"],
            "opponent_mode": "Self-play",
            "matrix_speed": "10 per update",
            "log_x": "false",
            "run_to": "300",
        }
    )
    run_to_reached(app, "matrix")
    assert app.session_state.game.equilibria[0].row == pytest.approx((0.25, 0.5, 0.25))
    live = app.session_state.matrix_live
    assert [v.label for v in live.race.variants] == [
        "rm+ · sampled · alternating · linear",
        "prm+ · expected · alternating · linear",
    ]
    assert live.race.seed == 7 and live.iteration == 300
    assert app.select_slider(key="matrix_speed").value == "10 per update" and app.toggle(key="log_x").value is False
    assert not app.warning


def test_a_link_naming_the_algorithm_as_the_library_does_runs_it_and_keeps_it_by_its_label():
    app = opened({"preset": "Matching pennies", "algorithm": "optimistic-gda", "run_to": "20"})
    run_to_reached(app, "matrix")
    live = app.session_state.matrix_live
    assert live.primary.variant.algorithm == "optimistic-gda" and live.iteration == 20
    assert app.query_params["algorithm"] == "Optimistic GDA", "the address carries the label"
    assert not app.warning, "the link's algorithm was used: nothing to say"
    app.checkbox(key="matrix_share_run_to").check().run()
    assert "algorithm=Optimistic+GDA" in " ".join(c.value for c in app.code), "and so does the Share link"


def test_a_library_name_of_an_algorithm_means_nothing_on_the_tree_page():
    app = opened({"algorithm": "hedge"}, url_path="game_trees")
    assert "algorithm: not a setting of this page" in warnings(app)
    assert app.query_params["algorithm"] == "hedge"


def test_a_link_carries_an_edited_matrix_with_its_names():
    game = rmcore.MatrixGame([[1, -1], [-2, 3]], [[0, 1], [2, -1]], ("Up", "Down"), ("Left", "Right"), name="Ours")
    app = opened({"matrix": link.matrix_param(game)})
    loaded = app.session_state.game
    assert (loaded.name, loaded.row_actions, loaded.col_actions, loaded.is_zero_sum) == (
        "Ours",
        ("Up", "Down"),
        ("Left", "Right"),
        False,
    )
    assert loaded.row_payoffs.tolist() == [[1, -1], [-2, 3]] and loaded.col_payoffs.tolist() == [[0, 1], [2, -1]]


def test_applying_an_edit_puts_the_matrix_in_the_link_and_a_preset_takes_it_out():
    app = opened({})
    draft = app.session_state.draft
    cells = draft.row_cells.copy()
    cells.iat[0, 1] = "-3"
    import dataclasses

    app.session_state.draft = dataclasses.replace(draft, row_cells=cells)
    app.run()
    app.button(key="apply").click().run()
    spec = json.loads(app.query_params["matrix"])
    assert spec["A"][0][1] == -3 and spec["rows"] == ["Rock", "Paper", "Scissors"] and "B" not in spec
    app.selectbox(key="preset").set_value("matching-pennies").run()
    assert "matrix" not in app.query_params


def test_a_link_restores_the_poker_pages_variants():
    chosen = ["cfr+ · alternating", "chance-sampling · simultaneous"]
    app = run_to_reached(
        opened({"kuhn_variants": chosen, "kuhn_seeds": "3", "run_to": "20"}, url_path="kuhn_poker"), "kuhn"
    )
    live = app.session_state.kuhn_live
    assert [v.label for v in live.race.variants] == chosen and live.race.runs == 1 + 3 and live.iteration == 20


@pytest.mark.parametrize(
    "params,message",
    [
        ({"preset": "Nonexistent"}, "preset='Nonexistent': not a valid value"),
        ({"param_weighted-rps_rock_scissors": "1e308", "preset": "Weighted RPS"}, "not a valid value"),
        ({"algorithm": "<script>alert(1)</script>"}, "algorithm="),
        ({"race_variants": ["rm · bogus"]}, "race_variants: dropped 'rm · bogus' (not a choice of this page)"),
        ({"whatever": "1"}, "whatever: not a setting of this page"),
        ({"run_to": "-5"}, "run_to='-5'"),
        ({"run_to": "1" * 50}, "run_to="),
        ({"matrix": "{not json"}, "matrix: it is not valid JSON"),
        ({"matrix": json.dumps({"A": [[1] * 11]})}, "at most 10x10"),
        ({"matrix": json.dumps({"A": [[1, "x"]]})}, "numbers only"),
        ({"matrix": json.dumps({"A": [[1e400]]})}, "Infinity is not a number JSON allows"),  # json writes Infinity
        ({"matrix": '{"A": [[' + "1" * 400 + ", 2]]}"}, "a number of 400 characters"),
        ({"matrix": "[" * 3000 + "]" * 3000}, "nested 3000 levels deep"),
        ({"matrix": '{"A": [[1, 2]], "rows": 5}'}, "'rows' must be a list of action names"),
        ({"matrix": '{"A": [[1, 2]], "start": [[1], "x"]}'}, "'start' must be two lists"),
        ({"matrix": '{"A": [[1, 2]], "start": [[1], [1, 2, 3]]}'}, "start has 3 entries but the player has 2 actions"),
        ({"matrix": json.dumps({"A": [[1, 2], [3]]})}, "every row needs the same length"),
        ({"matrix": "x" * 20_000}, "at most 8,000"),
    ],
)
def test_a_bad_link_falls_back_to_defaults_with_a_notice(params, message):
    app = opened(params)
    assert message in warnings(app), warnings(app)
    assert app.session_state.game.name in ("RPS with crash", "Weighted RPS (1, 1, 1)")
    app.run()
    assert not app.warning, "the notice shows once"


def test_the_share_control_shows_a_link_with_the_setup():
    app = opened({"algorithm": "RM+"})
    app.button(key="matrix_step_10").click().run()
    app.checkbox(key="matrix_share_run_to").check().run()
    shown = " ".join(c.value for c in app.code)
    assert "algorithm=RM%2B" in shown and "run_to=10" in shown


def test_a_setup_file_opens_its_link_and_a_bad_one_is_explained():
    setup = {
        "format": "rmcore-setup/1",
        "page": "kuhn",
        "parameters": [["kuhn_variants", "cfr · alternating"]],
        "iteration": 50,
    }
    target = link.link_from_setup(json.dumps(setup).encode(), "http://host:8501/")
    assert target == "http://host:8501/game_trees?kuhn_variants=cfr+%C2%B7+alternating&run_to=50"
    matrix = {**setup, "page": "matrix", "parameters": [["algorithm", "RM+"]], "iteration": 0}
    assert (
        link.link_from_setup(json.dumps(matrix).encode(), "http://host:8501/kuhn_poker")
        == "http://host:8501/?algorithm=RM%2B"
    )
    for data, message in [
        (b"\xff\xfe", "not JSON text"),
        (b"[1, 2]", "no 'format'"),
        (b"x" * (2**20 + 1), "at most 1,048,576"),
        (
            json.dumps({**setup, "parameters": [["kuhn_openspiel", "x" * 400]] * 30}).encode(),
            "characters long; a link is at most 12,000",
        ),
        (json.dumps({**setup, "page": "other"}).encode(), "'matrix' or 'kuhn'"),
        (json.dumps({**setup, "parameters": [["a", 1]]}).encode(), "pairs of text"),
        (json.dumps({**setup, "iteration": -3}).encode(), "whole number >= 0"),
    ]:
        with pytest.raises(ValueError, match=message):
            link.link_from_setup(data, "http://host/")


def test_a_game_larger_than_a_link_carries_is_said_and_its_link_offers_no_run_to():
    app = opened()
    app.button(key="matrix_step_10").click().run()
    big = rmcore.MatrixGame(np.random.default_rng(0).uniform(-1, 1, (12, 12)), name="big upload")
    assert link.matrix_param(big) is None
    app.session_state["game"] = big
    app.session_state["game_in_link"] = False
    app.run()
    assert "more than a link carries" in warnings(app)
    assert app.checkbox(key="matrix_share_run_to").disabled
    assert all("run_to" not in c.value for c in app.code)


def test_a_game_whose_json_is_longer_than_a_link_may_be_is_not_put_in_the_link(monkeypatch):
    game = rmcore.MatrixGame(np.arange(100.0).reshape(10, 10) / 7)
    text = link.matrix_param(game)
    assert text is not None and link.game_from_param(text).row_payoffs.tolist() == game.row_payoffs.tolist()
    monkeypatch.setattr(link, "MAX_PARAM_CHARS", len(text) - 1)
    assert link.matrix_param(game) is None


def test_the_heaviest_link_opens_in_one_update_under_a_memory_cap_and_a_lowered_target():
    """48 Leduc runs to a million iterations: about an hour of a core and 5 GB of history if run as asked. The page
    opens after one time-bounded update, holds at most SESSION_HISTORY_BYTES, and says what it reduced: the history at
    once, the target within a few updates."""
    from ui.live import SESSION_HISTORY_BYTES

    variants = [
        f"{n} · {u}"
        for n in ("cfr", "cfr+", "linear", "discounted", "chance-sampling")
        for u in ("alternating", "simultaneous")
    ]
    app = opened(
        {"kuhn_game": "Leduc hold'em", "kuhn_variants": variants, "kuhn_seeds": "20", "run_to": "1000000"},
        url_path="kuhn_poker",
    )
    assert not app.exception
    live = app.session_state.kuhn_live
    assert live.race.runs == 48 and live.race.history_bytes() <= SESSION_HISTORY_BYTES
    assert live.iteration < 1_000 and app.session_state.kuhn_run == "Run", (
        "the rest goes in the fragment's governed turns"
    )
    assert "fewer checkpoints" in " ".join(i.value for i in app.info)
    said = []
    for _ in range(6):  # (the target is priced once a few chunks are timed: PRICED_AFTER)
        app.run()
        said += [t.value for t in app.toast] + [i.value for i in app.info]
        if live.target_note:
            break
    assert any("run_to=1,000,000 on a race of 48 runs would take about" in text for text in said), said
    assert live.target < 1_000_000 and live.race.history_bytes() <= SESSION_HISTORY_BYTES


def test_a_run_to_reached_over_several_updates_stops_exactly_there_and_pauses():
    app = opened({"preset": "Rock-Paper-Scissors", "run_to": "1000000"})
    live = app.session_state.matrix_live
    assert live.iteration < 1_000_000 and app.session_state.matrix_run == "Run"
    for _ in range(200):
        if app.session_state.matrix_run == "Pause":
            break
        app.run()
    assert not app.exception
    assert app.session_state.matrix_run == "Pause" and live.iteration == 1_000_000 and live.target is None
    whole = rmcore.MatrixSolver(app.session_state.game, start=app.session_state.game.start)
    whole.run(1_000_000)
    assert whole.metrics().nash_conv == live.primary.metrics().nash_conv, "chunks give the single run's numbers"


def test_names_from_a_link_are_shown_as_typed_never_as_markdown():
    hostile = "![](https://attacker.example/p.png)[Sign in](https://attacker.example) :material/lock: **bold**"
    spec = {
        "name": hostile[:100],
        "rows": ["[Rock](https://x.example)", "P"],
        "cols": ["C1", "![i](https://x.example/i.png)"],
        "A": [[1, 0], [0, 1]],
    }
    app = opened({"matrix": json.dumps(spec)})
    assert not app.exception and app.session_state.game.name == hostile[:100]
    shown = [m.value for m in app.markdown] + [c.value for c in app.caption] + [s.label for s in app.slider]
    app.radio(key="opponent_mode").set_value("Fixed mixed strategy").run()
    shown += [c.value for c in app.caption] + [s.label for s in app.slider]
    for text in shown:
        assert "](" not in text.replace("\\](", ""), text  # every link or image bracket is escaped
        assert ":material/lock:" not in text
    assert any("Now solving" in text and "\\!\\[\\]" in text for text in shown)


@pytest.mark.parametrize("count", [11, 15])
def test_a_link_with_more_cfr_variants_than_a_race_takes_runs_the_first_ten_and_names_the_rest(count):
    from ui.trees.settings import ALL_VARIANTS

    labels = [v.label for v in ALL_VARIANTS][:count]
    assert len(labels) == count
    app = opened({"kuhn_variants": labels}, url_path="kuhn_poker")
    assert not app.exception
    assert [v.label for v in app.session_state.kuhn_live.race.variants] == labels[:10]
    notice = warnings(app)
    dropped = ", ".join(repr(label) for label in labels[10:])
    assert f"kuhn_variants: dropped {dropped} (a race takes at most 10 variants); kept the first 10" in notice, notice
    assert app.button(key="kuhn_step_1") and app.segmented_control(key="kuhn_running"), "Run and Step stay"


@pytest.mark.parametrize("where", [7, 10])
def test_a_link_of_eleven_cfr_variants_one_no_choice_keeps_the_other_ten_and_says_so(where):
    """Streamlit drops the entries that are no choice first and keeps the first ten of the rest: an unknown eighth
    entry is named as no choice, and the notice does not say the eleventh was past the limit."""
    from ui.trees.settings import ALL_VARIANTS

    labels = [v.label for v in ALL_VARIANTS][:10]
    given = [*labels[:where], "cfr · sideways", *labels[where:]]
    app = opened({"kuhn_variants": given}, url_path="kuhn_poker")
    assert not app.exception
    assert [v.label for v in app.session_state.kuhn_live.race.variants] == labels
    notice = warnings(app)
    assert "kuhn_variants: dropped 'cfr · sideways' (not a choice of this page); kept 10" in notice, notice
    assert "at most 10" not in notice


def test_a_link_past_the_limit_with_an_entry_that_is_no_choice_names_each_for_its_reason():
    from ui.trees.settings import ALL_VARIANTS

    labels = [v.label for v in ALL_VARIANTS][:11]
    given = [*labels[:7], "cfr · sideways", *labels[7:]]
    app = opened({"kuhn_variants": given}, url_path="kuhn_poker")
    assert [v.label for v in app.session_state.kuhn_live.race.variants] == labels[:10]
    assert (
        f"kuhn_variants: dropped 'cfr · sideways' (not a choice of this page) and {labels[10]!r} (a race takes at "
        "most 10 variants); kept the first 10 of the rest" in warnings(app)
    ), warnings(app)


def test_the_cfr_variant_picker_takes_at_most_ten():
    app = opened(url_path="kuhn_poker")
    assert app.multiselect(key="kuhn_variants").proto.max_selections == 10


def test_a_matrix_race_link_with_more_than_eight_variants_keeps_eight_and_names_the_dropped_not_the_first():
    from ui.matrix.settings import ALL_VARIANTS

    others = [v.label for v in ALL_VARIANTS[1:10]]
    app = opened({"race_variants": others})
    assert not app.exception
    assert [v.label for v in app.session_state.matrix_live.race.variants] == [ALL_VARIANTS[0].label, *others[:7]]
    notice = warnings(app)
    assert (
        f"race_variants: dropped {others[7]!r}, {others[8]!r} (a race compares the chosen variant with at most 7 "
        "others); kept the first 7" in notice
    ), notice
    assert repr(others[0]) not in notice and "not a valid value" not in notice


def test_share_gives_no_link_longer_than_a_server_takes_and_says_why(monkeypatch):
    app = opened({"algorithm": "RM+"})
    assert any("algorithm=RM%2B" in c.value for c in app.code)  # (the link, while it is short enough)
    monkeypatch.setattr(link, "MAX_LINK_CHARS", 10)  # (AppTest's link has no host: "?algorithm=RM%2B")
    app.run()
    assert not app.exception
    assert "would be 16 characters long, more than the 10 a server takes, so no link is given" in warnings(app)
    assert not any("algorithm=RM%2B" in c.value for c in app.code)


@pytest.mark.parametrize(
    "params,url_path,page",
    [
        (
            {"sampling": "sampled", "race_variants": "rm+ · expected · simultaneous · uniform", "run_to": "1000000"},
            None,
            "matrix",
        ),
        (
            {"kuhn_variants": ["chance-sampling · alternating", "cfr · alternating"], "run_to": "1000000"},
            "game_trees",
            "kuhn",
        ),
    ],
    ids=["matrix", "trees"],
)
def test_a_race_whose_first_variant_is_sampled_runs_on_past_its_runs_thinning(params, url_path, page):
    """The first run of a sampled first variant keeps more checkpoints than the variant's other seeds; the race reads
    them at the iterations all keep, and the page runs on (it stopped at iteration 2,130)."""
    app = opened(params, url_path=url_path)
    live = app.session_state[f"{page}_live"]
    assert live.race.runs > 2 and live.race.variants[0].is_sampled
    for _ in range(300):
        if live.iteration > 20_000 or app.session_state[f"{page}_run"] == "Pause":
            break
        app.run()
    texts = " ".join(e.value for e in [*app.warning, *app.info, *app.error, *app.markdown])
    assert not app.exception and "stopped" not in texts
    assert live.iteration > 20_000 and app.session_state[f"{page}_run"] == "Run"
    histories = live.race.histories()[0]
    assert len(histories[0]) > len(histories[1])  # the seeds keep different numbers of rows, and the race goes on


_SAMPLED_RACE = {"sampling": "sampled", "race_variants": "rm+ · sampled · simultaneous · uniform"}
_SAMPLED_TREES = {"kuhn_variants": ["chance-sampling · simultaneous", "cfr · alternating"]}


@pytest.mark.parametrize(
    "params,url_path,key,default",
    [
        ({"kuhn_seed": "1e400"}, "game_trees", "kuhn_seed", 0),
        ({**_SAMPLED_TREES, "kuhn_seeds": "9" * 309}, "game_trees", "kuhn_seeds", 5),
        ({**_SAMPLED_TREES, "kuhn_seeds": "9" * 5000}, "game_trees", "kuhn_seeds", 5),
        ({"sampling": "sampled", "seed": "1e400"}, None, "seed", 0),
        ({"sampling": "sampled", "seed": "-1e999"}, None, "seed", 0),
        ({**_SAMPLED_RACE, "race_seeds": "9" * 400}, None, "race_seeds", 5),
        (
            {"kuhn_variants": "discounted · alternating", "kuhn_dcfr_alpha": "1e400"},
            "game_trees",
            "kuhn_dcfr_alpha",
            None,
        ),
        ({"opponent_mode": "Fixed mixed strategy", "opponent_3_0": "9" * 400}, None, "opponent_3_0", None),
        (
            {"preset": "Weighted RPS", "param_weighted-rps_rock_scissors": "1e400"},
            None,
            "param_weighted-rps_rock_scissors",
            None,
        ),
    ],
)
def test_a_number_past_any_range_in_a_link_is_refused_in_a_sentence_and_leaves_the_address(
    params, url_path, key, default
):
    app = opened(params, url_path=url_path)
    assert not app.exception
    assert f"{key}=" in warnings(app) and "not a valid value" in warnings(app)
    assert key not in app.query_params  # the address is written without it: a reload opens cleanly
    if default is not None:  # a seed box: a sentence beneath it, while it shows its default
        assert app.session_state[key] == default
        beneath = [c.value for c in app.caption if "is not a number this box holds" in c.value]
        assert beneath and shown(beneath[0]).startswith(f"The link's {key}=")
        app.number_input(key=key).set_value(default + 1).run()
        assert not [c.value for c in app.caption if "is not a number this box holds" in c.value]
    again = opened({k: v for k, v in app.query_params.items()}, url_path=url_path)
    assert not again.exception and not again.warning


def test_a_share_links_page_shows_the_crossings_of_the_page_it_came_from():
    """The page stepped by hand and its share link run to the same iteration in other updates: the same race table,
    the iteration each variant first reached each level included."""
    params = {
        "sampling": "sampled",
        "race_variants": ["prm+ · expected · alternating · linear", "rm+ · expected · alternating · uniform"],
        "race_seeds": "3",
    }
    app = opened(params)
    for _ in range(7):
        app.button(key="matrix_step_100").click().run()
    app.button(key="matrix_step_10").click().run()
    live = app.session_state.matrix_live
    assert not app.exception and live.iteration == 710
    here = live.frame().race.standings
    again = run_to_reached(opened({**params, "run_to": "710"}), "matrix").session_state.matrix_live
    there = again.frame().race.standings
    assert again.iteration == 710
    assert [(s.label, s.gap, {t: r and r.iterations for t, r in s.reached.items()}) for s in here] == [
        (s.label, s.gap, {t: r and r.iterations for t, r in s.reached.items()}) for s in there
    ]
    assert any(r is not None for s in here for r in s.reached.values())
