"""The tree page's OpenSpiel game: any zero-sum game of OpenSpiel typed by name (two players or more), converted under
the page's caps, each refusal a sentence next to the box; where OpenSpiel is missing, how to install it."""

from __future__ import annotations

import concurrent.futures
import time

import pytest

import rmcore
from tests.visits import opened, shown
from ui import explain_trees, export
from ui.trees import games, settings

pytest.importorskip("pyspiel")


def _errors(app) -> str:
    return shown(" | ".join(e.value for e in app.error))


def test_a_game_typed_by_name_runs_with_its_exact_answer_and_travels_in_the_link():
    app = opened({"kuhn_game": "OpenSpiel game", "kuhn_openspiel": "liars_dice(dice_sides=3)"}, url_path="kuhn_poker")
    assert not app.exception and not app.error and not app.warning
    game = app.session_state.kuhn_live.race.game
    assert len(game.infosets) == 192 and game.name == "Liars Dice"
    assert any("OpenSpiel's game, converted by rmcore.from_openspiel" in m.value for m in app.markdown)
    for _ in range(20):  # the exact answer arrives from the background
        if app.metric[3].value != "-":
            break
        app.run()
    assert float(app.metric[3].value) == pytest.approx(1 / 9, abs=1e-5)  # Liar's dice with 3 sides: 1/9
    app.button(key="kuhn_step_10").click().run()
    assert not app.exception and app.session_state.kuhn_live.iteration == 10
    assert app.query_params["kuhn_openspiel"] == "liars_dice(dice_sides=3)"


def test_a_three_player_zero_sum_game_runs_with_nash_conv_and_its_two_player_sections_say_so(tmp_path):
    app = opened({"kuhn_game": "OpenSpiel game", "kuhn_openspiel": "kuhn_poker(players=3)"}, url_path="kuhn_poker")
    assert not app.exception and not app.error
    game = app.session_state.kuhn_live.race.game
    assert game.players == 3 and game.name == "Kuhn Poker"
    app.button(key="kuhn_step_10").click().run()
    assert not app.exception and app.session_state.kuhn_live.iteration == 10
    solver = rmcore.CFRSolver(game)
    solver.run(10)
    assert app.metric[1].label.startswith("nash_conv") and app.metric[1].value == f"{solver.metrics().nash_conv:.3e}"
    assert app.radio(key="kuhn_explore_player").options == ["1", "2", "3"]
    said = " ".join([c.value for c in app.caption] + [i.value for i in app.info])
    assert explain_trees.EXACT_TWO_PLAYERS in said and explain_trees.lock_two_players(3) in said
    command, files = export.command(app.session_state.kuhn_live, 10)  # (an OpenSpiel game travels as game.efg)
    assert command.startswith("python -m rmcore race --efg game.efg") and set(files) == {"game.efg"}
    assert rmcore.read_efg(files["game.efg"]).tree.payoffs.tolist() == game.tree.payoffs.tolist()


@pytest.mark.parametrize(
    "typed,words",
    [
        (
            "first_sealed_auction",
            "zero-sum games (two players or more); First-Price Sealed-Bid Auction has two players",
        ),
        ("tic_tac_toe", "tic_tac_toe has more than 300,000 nodes: this page runs trees of at most 300,000 nodes"),
        ("chess", "plays are too long"),
        ("backgammon", "does not give its players' information states"),
        ("leduc_pokr", "OpenSpiel has no game 'leduc_pokr' (did you mean leduc_poker"),
        ("leduc_poker(bogus=1)", "OpenSpiel cannot load 'leduc_poker(bogus=1)': Unknown parameter 'bogus'"),
        ("connect_four(rows=0)", "OpenSpiel crashed loading or converting connect_four(rows=0) (a segmentation fault)"),
        ("efg_game(filename=/etc/passwd)", "a game string may not name a file, and 'filename' would"),
        ("goofspiel(num_cards=4)", "OpenSpiel's Goofspiel gives information states with perfect recall"),
        ("", "type a game's name"),
    ],
)
def test_each_refusal_is_a_sentence_next_to_the_box_and_the_last_game_keeps_running(typed, words):
    app = opened({"kuhn_game": "OpenSpiel game"}, url_path="kuhn_poker")
    assert app.session_state.kuhn_live.race.game.name == "Kuhn Poker"  # the box's default: kuhn_poker
    app.text_input(key="kuhn_openspiel").input(typed).run()
    assert not app.exception
    assert words in _errors(app) and "The last valid game keeps running" in _errors(app), _errors(app)
    assert app.session_state.kuhn_live.race.game.name == "Kuhn Poker"


def test_a_string_is_loaded_once_on_the_server_whoever_opens_it(monkeypatch):
    """A class opening one link starts one child process: the conversion is kept server-wide by its string."""
    loads = []

    def counted(text, **limits):
        loads.append(text)
        return load(text, **limits)

    load = rmcore.load_openspiel
    monkeypatch.setattr(rmcore, "load_openspiel", counted)
    link = {"kuhn_game": "OpenSpiel game", "kuhn_openspiel": "liars_dice(dice_sides=2)"}
    for _ in range(3):
        app = opened(link, url_path="kuhn_poker")
        assert not app.error and app.session_state.kuhn_live.race.game.name == "Liars Dice"
    assert loads == ["liars_dice(dice_sides=2)"]


def test_sessions_asking_for_one_string_at_once_start_one_child(monkeypatch):
    """Thirty students opening one link at the same moment wait for one conversion (Streamlit computes a cached key
    once, the others wait for it) rather than starting thirty child processes."""
    loads = []

    def slow(text, **limits):
        loads.append(text)
        time.sleep(1.0)
        return rmcore.KUHN

    monkeypatch.setattr(rmcore, "load_openspiel", slow)
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        got = list(pool.map(settings.converted, ["kuhn_poker(players=2)"] * 30))
    assert loads == ["kuhn_poker(players=2)"] and all(game is rmcore.KUHN for game in got)


def test_without_openspiel_the_page_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(games, "openspiel_installed", lambda: False)
    app = opened({"kuhn_game": "OpenSpiel game"}, url_path="kuhn_poker")
    assert not app.exception
    assert any("pip install open_spiel" in i.value for i in app.info)
    assert rmcore.is_classic_kuhn(app.session_state.kuhn_live.race.game), "the last game (the default) keeps running"
