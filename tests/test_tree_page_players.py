"""The tree page's Players slider on Kuhn poker in streamlit's AppTest: 3 players run live with NashConv on the charts;
a link ``?kuhn_players=3`` opens with 3 players; each two-player-only section says so in its place, and the .efg
download stays; Leduc hold'em says why it stays two players."""

import pytest

import rmcore
from tests.live_charts import captions, live_charts
from tests.visits import opened, tree_page
from ui import explain_trees


@pytest.fixture
def page():
    return tree_page()


def metric(app, k):
    return app.metric[k].value


def everything_said(app) -> str:
    """Every caption, info, Markdown and expander label of the page, joined (where a sentence may stand)."""
    parts = [captions(app)] + [m.value for m in app.markdown] + [i.value for i in app.info]
    return " ".join(parts)


def test_three_players_run_live_and_the_charts_show_nash_conv_per_player_names(page):
    page.slider(key="kuhn_players").set_value(3).run()
    assert not page.exception
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception and metric(page, 0) == "10"
    solver = rmcore.CFRSolver(rmcore.kuhn_poker(players=3))
    solver.run(10)
    assert page.metric[1].label.startswith("nash_conv")
    assert metric(page, 1) == f"{solver.metrics().nash_conv:.3e}"  # 3-player Kuhn's NashConv, not two-player's
    charts = live_charts(page)
    titles = " ".join(str(chart["figure"]["layout"].get("title", "")) for chart in charts)
    assert "nash_conv" in titles and "xploitability" not in titles
    assert page.metric[1].proto.help == explain_trees.NASH_CONV_HELP  # (no exploitability figure: two-player only)
    assert page.radio(key="kuhn_explore_player").options == ["1", "2", "3"]  # the explorer names players 1 to 3
    page.radio(key="kuhn_explore_player").set_value(3).run()
    assert not page.exception


def test_three_players_run_with_the_run_switch(page):
    page.slider(key="kuhn_players").set_value(3).run()
    page.segmented_control(key="kuhn_running").set_value("Run").run()
    for _ in range(3):
        page.run()
    assert not page.exception
    assert int(metric(page, 0).replace(",", "")) > 10
    assert float(metric(page, 1)) < 0.1  # CFR on 3-player Kuhn: NashConv falls (uniform play's is above 1)
    page.segmented_control(key="kuhn_running").set_value("Pause").run()
    assert not page.exception


def test_a_link_with_kuhn_players_3_opens_three_player_kuhn():
    app = opened({"kuhn_players": "3"}, url_path="game_trees")
    assert app.slider(key="kuhn_players").value == 3
    app.button(key="kuhn_step_1").click().run()
    assert not app.exception
    solver = rmcore.CFRSolver(rmcore.kuhn_poker(players=3))
    solver.run(1)
    assert metric(app, 1) == f"{solver.metrics().nash_conv:.3e}"
    assert app.query_params["kuhn_players"] == "3"


def test_each_two_player_only_section_says_so_with_three_players(page):
    page.slider(key="kuhn_players").set_value(3).run()
    page.button(key="kuhn_step_1").click().run()
    assert not page.exception
    said = everything_said(page)
    for sentence in (
        explain_trees.EXACT_TWO_PLAYERS,
        explain_trees.lock_two_players(3),
        explain_trees.PLAY_TWO_PLAYERS,
        explain_trees.WALKTHROUGH_TWO_PLAYERS,
    ):
        assert sentence in said
    assert any(b.key == "kuhn_download_efg" for b in page.get("download_button"))  # .efg files hold 3 players
    assert not any(r.key == "kuhn_opponent" for r in page.radio)  # no Opponent control, its sentence instead
    assert not any(b.key == "kuhn_play_next" for b in page.button)
    # Two players again: the sections are back.
    page.slider(key="kuhn_players").set_value(2).run()
    assert not page.exception
    assert any(r.key == "kuhn_opponent" for r in page.radio)
    assert explain_trees.WALKTHROUGH_TWO_PLAYERS not in everything_said(page)


def test_mirror_descent_is_left_out_of_a_three_player_race_with_a_sentence(page):
    page.slider(key="kuhn_players").set_value(3).run()
    page.multiselect(key="kuhn_variants").set_value(["cfr · alternating", "mmd · simultaneous"]).run()
    assert not page.exception
    game = rmcore.kuhn_poker(players=3)
    assert explain_trees.two_player_variants_left_out(game, True) in captions(page)
    page.button(key="kuhn_step_1").click().run()
    assert not page.exception and metric(page, 0) == "1"


def test_leduc_says_why_it_stays_two_players(page):
    page.button_group(key="kuhn_game").set_value("leduc").run()
    assert not page.exception
    assert not any(s.key == "kuhn_players" for s in page.slider)
    assert explain_trees.LEDUC_TWO_PLAYERS in captions(page)


@pytest.mark.parametrize("value", ["7", "1", "three"])
def test_a_link_with_players_out_of_range_opens_two_players_and_says_so(value):
    app = opened({"kuhn_players": value}, url_path="game_trees")
    assert app.slider(key="kuhn_players").value == 2
    assert any("kuhn\\_players" in w.value and "not a valid value" in w.value for w in app.warning)
    assert app.session_state.kuhn_live.race.game.players == 2


def test_the_lesson_on_kuhn_poker_is_two_player_kuhn_whatever_the_slider_said(page):
    page.slider(key="kuhn_players").set_value(4).run()
    page.button(key="kuhn_lesson_kuhn").click().run()
    assert not page.exception
    assert page.slider(key="kuhn_players").value == 2
    assert page.session_state.kuhn_live.race.game.players == 2


def test_each_of_three_players_has_its_payoff_and_best_response_gain_in_a_table(page):
    page.slider(key="kuhn_players").set_value(3).run()
    page.button(key="kuhn_step_10").click().run()
    solver = rmcore.CFRSolver(rmcore.kuhn_poker(players=3))
    solver.run(10)
    gains = solver.metrics().br_gains
    best, expected = rmcore.trees.cfr.player_values(solver.game, solver.average_policy().probabilities)
    table = next(m.value for m in page.markdown if "| player 1 |" in m.value)  # (the table, not the rules above)
    for p in (1, 2, 3):
        assert f"| player {p} | {expected[p - 1]:.5f} | {best[p - 1]:.5f} | {gains.of(p):.3e} |" in table, table
    assert sum(gains) == pytest.approx(solver.metrics().nash_conv, abs=1e-15)


@pytest.mark.parametrize("players", [3, 4])
def test_the_rules_above_the_settings_are_those_of_the_players_dealt(page, players):
    """With n players the page tells n-player Kuhn's rules (n + 1 cards, one bet, calls in turn) and its information
    sets' count, not two-player Kuhn's three cards, 12 information sets and game value -1/18."""
    page.slider(key="kuhn_players").set_value(players).run()
    assert not page.exception
    said = " ".join(m.value for m in page.markdown)
    game = rmcore.kuhn_poker(players=players)
    assert f"**Kuhn poker, {players} players:** {players + 1} cards" in said
    assert f"each of the {len(game.infosets):,} information sets" in said
    assert "−1/18" not in said and "12 information" not in said and "Three cards" not in said
    page.slider(key="kuhn_players").set_value(2).run()
    assert "Three cards" in " ".join(m.value for m in page.markdown)  # (two players: the classic rules again)


def test_presentation_mode_names_the_game_folded_away_and_shows_no_game_value_for_three_players():
    """On a projector the settings are folded: their label names the game running, and the one line of numbers leaves
    out the game value where there is none (three players); two-player Kuhn keeps it."""
    app = opened({"kuhn_players": "3", "present": "true"}, url_path="game_trees")
    app.button(key="kuhn_step_10").click().run()
    assert not app.exception
    assert [e.label for e in app.expander][0] == f"{explain_trees.SETTINGS_FOLDED}: Kuhn poker, 3 players"
    line = next(m.value for m in app.markdown if m.value.startswith("##### iteration"))
    assert "nash_conv" in line and "game value" not in line, line
    two = opened({"present": "true"}, url_path="game_trees")
    two.button(key="kuhn_step_10").click().run()
    assert [e.label for e in two.expander][0] == f"{explain_trees.SETTINGS_FOLDED}: Kuhn poker"
    assert "game value" in next(m.value for m in two.markdown if m.value.startswith("##### iteration"))
