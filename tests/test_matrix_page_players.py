"""The matrix page on a game of three players (AppTest): a link opens it and runs it to the library's numbers, the
lesson, the slice editor and what it refuses, the rules and forms refused on more than two players, a race, and a
link that carries an edited game."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rmcore
from tests.live_charts import captions, live_charts
from tests.visits import opened, run_to_reached, shown
from ui import explain_players as players_words
from ui import link
from ui.explain import ALGORITHM_NAMES
from ui.matrix import players

PENNIES = "Three-player matching pennies"
START = rmcore.preset("matching-pennies-3p").start


def _metric(app, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def test_a_link_runs_three_player_matching_pennies_to_the_librarys_numbers():
    app = run_to_reached(opened({"preset": PENNIES, "player_start_mode": "suggested", "run_to": "3000"}), "matrix")
    assert not app.exception and app.session_state.game.num_players == 3
    library = rmcore.MatrixSolver(rmcore.preset("matching-pennies-3p"), "rm", start=START, joint=True)
    library.run(3000)
    metrics = library.metrics()
    assert _metric(app, "iteration") == "3,000"
    assert _metric(app, "nash_conv") == f"{metrics.nash_conv:.3e}" and metrics.nash_conv > 0.5
    assert _metric(app, "CCE gap") == f"{metrics.cce_gap:.3e}" and metrics.cce_gap < 0.01
    assert "No-regret learning finds the coarse correlated equilibria" in shown(captions(app))
    assert (
        "NashConv of the average profile (thick), of the current strategies (dotted), each learning player's average "
        "positive regret, and the CE and CCE gaps of the joint play, log-log." in captions(app)
    )
    titles = [chart["figure"]["layout"]["title"]["text"] for chart in live_charts(app) if "figure" in chart]
    assert any("cube" in title for title in titles), titles
    # Its figures for slides: the section is offered, and what it exports is the cube the page drew, frame by frame.
    from ui.explain_matrix import ANIMATION_EXPANDER
    from ui.matrix import animation, space

    assert any(expander.label == ANIMATION_EXPANDER for expander in app.expander)
    histories, given = space.export_source(app.session_state.matrix_live)
    first, last = animation.frames_of(histories, 2, **given)
    assert "cube" in last["layout"]["title"]["text"] and last["layout"]["title"]["text"].endswith("t = 3,000")
    assert last["data"][-1]["x"] == [pytest.approx(library.average_policy()["player 1"][0])]  # (player 1: Heads)


def test_the_lesson_button_opens_matching_pennies_from_its_start():
    app = opened()
    app.button(key="players_lesson").click().run()
    assert not app.exception
    assert app.session_state.game.name == PENNIES and app.session_state.player_start_mode == "suggested"
    assert any("Heads 90%" in shown(c.value) for c in app.caption)


def test_a_rule_of_two_players_and_alternating_updates_are_refused_in_a_sentence():
    app = opened({"preset": PENNIES, "algorithm": ALGORITHM_NAMES["exrm+"]})
    assert not app.exception and app.session_state.algorithm == "exrm+"
    assert "runs on two-player games" in " ".join(i.value for i in app.info)
    assert not any(m.label == "nash_conv" for m in app.metric)  # (nothing runs)
    app = opened({"preset": PENNIES, "updates": "alternating"})
    assert "updates simultaneously" in " ".join(i.value for i in app.info)


def test_a_race_of_two_rules_runs_and_fills_its_table():
    app = opened({"preset": PENNIES, "player_start_mode": "suggested"})
    hedge = rmcore.MatrixVariant("hedge", eta=0.1).label
    assert "exrm+ · expected · simultaneous · uniform" not in app.multiselect(key="race_variants").options
    assert not any("alternating" in label for label in app.multiselect(key="race_variants").options)
    app.multiselect(key="race_variants").set_value([hedge]).run()
    app.button(key="matrix_step_100").click().run()
    assert not app.exception
    table = next(d.value for d in app.dataframe if "variant" in d.value.columns)
    assert table["variant"].tolist()[:2] != [] and len(table) == 2


def test_the_slices_read_back_the_game_and_a_bad_cell_is_named():
    game = rmcore.preset("nau-2x2x2")
    tables = {(k,): players._slice_table(game, (k,)) for k in range(2)}
    again = players.game_from_slices(game, tables)
    assert all(np.array_equal(a, b) for a, b in zip(again.payoffs, game.payoffs))
    tables[(1,)].iat[0, 1] = "1, 2"
    with pytest.raises(ValueError, match=r"the cell \(1, 2\) where player 3 plays 2 holds '1, 2'; each cell is 3"):
        players.game_from_slices(game, tables)
    tables[(1,)].iat[0, 1] = "4, 5, 6"
    edited = players.game_from_slices(game, tables)
    assert [float(p[0, 1, 1]) for p in edited.payoffs] == [4.0, 5.0, 6.0] and edited.name.endswith("(edited)")


def test_apply_without_an_edit_changes_nothing():
    app = opened({"preset": PENNIES})
    app.button(key="apply_players").click().run()
    assert not app.exception and app.session_state.game.name == PENNIES
    assert any("Nothing changed" in i.value or "nothing" in i.value.lower() for i in app.info)


def test_a_link_carries_an_edited_game_of_three_players_and_refuses_a_hostile_one():
    game = rmcore.NormalFormGame([np.arange(8.0).reshape(2, 2, 2)] * 3, name="mine")
    text = link.matrix_param(game)
    again = link.game_from_param(text)
    assert again.num_players == 3 and all(np.array_equal(a, b) for a, b in zip(again.payoffs, game.payoffs))
    app = opened({"matrix": text})
    assert not app.exception and app.session_state.game.name == "mine"
    for hostile, words in [
        ({"payoffs": [[1, 2]] * 3, "x": 1}, "unknown fields"),
        ({"payoffs": [[[[1, "a"]]]] * 3}, "numbers only"),
        ({"payoffs": [[[[1, 2]]], [[[1, 2]]], [[[1]]]]}, "one shape"),
        ({"payoffs": [[[[1] * 11]]] * 3}, "at most"),
    ]:
        with pytest.raises(ValueError, match=words):
            link.game_from_param(json.dumps(hostile))


def test_an_nfg_file_of_three_players_loads_and_runs():
    app = opened()
    text = rmcore.write_nfg(rmcore.preset("nau-2x2x2")).encode()
    app.file_uploader(key="upload_nfg").upload("nau.nfg", text, "text/plain").run()
    app.button(key="load_nfg").click().run()
    game = app.session_state.game
    assert not app.exception and game.num_players == 3 and game.shape == (2, 2, 2)
    assert all(np.array_equal(a, b) for a, b in zip(game.payoffs, rmcore.preset("nau-2x2x2").payoffs))
    app.button(key="matrix_step_100").click().run()
    assert _metric(app, "iteration") == "100" and not app.exception


def test_a_fixed_player_stays_while_the_others_learn_to_the_librarys_numbers():
    link_params = {"preset": PENNIES, "fixed_player": "player 3", "fixed_p3_2_0": "20", "fixed_p3_2_1": "80"}
    app = run_to_reached(opened({**link_params, "run_to": "1000"}), "matrix")
    assert not app.exception
    library = rmcore.MatrixSolver(rmcore.preset("matching-pennies-3p"), "rm", opponent={3: (20.0, 80.0)}, start=START)
    library.run(1000)
    assert library.metrics().br_gains.of(3) is None  # (the fixed player does not learn)
    assert _metric(app, "nash_conv") == f"{library.metrics().nash_conv:.3e}"
    assert any("Player 3 plays Heads 20% / Tails 80%" in shown(c.value) for c in app.caption)


def test_two_players_fixed_leave_one_learner_best_responding_to_the_librarys_numbers():
    link_params = {
        "preset": PENNIES,
        "fixed_player": ["player 2", "player 3"],
        **{"fixed_p2_2_0": "70", "fixed_p2_2_1": "30", "fixed_p3_2_0": "20", "fixed_p3_2_1": "80"},
    }
    app = run_to_reached(opened({**link_params, "run_to": "1000"}), "matrix")
    assert not app.exception and app.session_state.fixed_player == ["player 2", "player 3"]
    opponent = {2: (70.0, 30.0), 3: (20.0, 80.0)}
    library = rmcore.MatrixSolver(rmcore.preset("matching-pennies-3p"), "rm", opponent=opponent, start=START)
    library.run(1000)
    gain = library.metrics().br_gains.of(1)  # (one learner: its own gain is the measure, NashConv is None)
    assert library.metrics().nash_conv is None and _metric(app, "player 1's gain") == f"{gain:.3e}"
    words = " ".join(shown(c.value) for c in app.caption)
    assert "Player 2 plays Heads 70% / Tails 30%" in words and "Player 3 plays Heads 20% / Tails 80%" in words
    charts = [chart["figure"] for chart in live_charts(app) if "figure" in chart]
    convergence = next(f for f in charts if "Convergence" in f["layout"]["title"]["text"])
    assert convergence["data"][0]["name"] == "best-response gain of the uniform average (player 1, the learner)"
    # Its caption names the lines drawn: the learner's gain and regret, no NashConv, current strategies or gaps.
    titled = [(c["figure"]["layout"]["title"]["text"], c["caption"]) for c in live_charts(app) if "figure" in c]
    caption = next(words for title, words in titled if "Convergence" in title)
    assert caption.startswith("Player 1's best-response gain at its average strategy (thick)"), caption
    assert "NashConv" not in caption and "dotted" not in caption and "CCE" not in caption
    cce = next(m for m in app.metric if m.label == "CCE gap")
    assert cce.value == "-" and cce.proto.help == players_words.CCE_FIXED_HELP  # (it says why there is none)
    # Player 1 alone learns, against 70% Heads from player 2: it matches, Heads; its gain falls towards 0.
    assert library.average_policy()["player 1"][0] > 0.95 and gain < 0.05


def test_players_1_and_2_fixed_show_player_3s_gain():
    app = opened({"preset": PENNIES, "fixed_player": ["player 1", "player 2"]})
    app.button(key="matrix_step_100").click().run()
    fixed = {1: (50, 50), 2: (50, 50)}
    library = rmcore.MatrixSolver(rmcore.preset("matching-pennies-3p"), "rm", opponent=fixed, start=START)
    library.run(100)
    assert _metric(app, "player 3's gain") == f"{library.metrics().br_gains.of(3):.3e}"


def test_every_player_cannot_be_fixed():
    app = opened({"preset": PENNIES})
    select = app.multiselect(key="fixed_player")
    assert select.max_selections == 2  # (of three: at least one learns)
    # A link that fixes every player, or names one the game has not: what the page cannot use is named, the rest runs.
    app = opened({"preset": PENNIES, "fixed_player": ["player 1", "player 2", "player 3", "player 9"]})
    assert app.session_state.fixed_player == ["player 1", "player 2"]
    notice = " ".join(w.value for w in app.warning)
    assert "fixed\\_player" in notice and "player 3" in notice and "player 9" in notice, notice
    app.button(key="matrix_step_100").click().run()
    assert not app.exception and _metric(app, "iteration") == "100"


def test_players_of_three_actions_are_drawn_on_their_own_triangles():
    rng = np.random.default_rng(3)
    game = rmcore.NormalFormGame([rng.integers(-2, 3, size=(3, 2, 3)).astype(float) for _ in range(3)], name="3x2x3")
    app = opened({"matrix": link.matrix_param(game)})
    app.button(key="matrix_step_100").click().run()
    assert not app.exception and app.session_state.game.shape == (3, 2, 3)
    figures = [chart["figure"] for chart in live_charts(app) if "figure" in chart]
    triangles = next(f for f in figures if "simplex" in f["layout"]["title"]["text"])
    assert {t["subplot"] for t in triangles["data"]} == {"ternary", "ternary2"}  # players 1 and 3
