"""The tree page on games other than poker: a catalogue game with its sliders, the user's own .efg (uploaded, carried
by a link, refused with a reason), the download, the bot and the locks on them, and the exact answer in the
background."""

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest, app_test

import rmcore
from tests.live_charts import captions, live_charts
from tests.visits import opened, run_to_reached, shown, tree_page
from ui import link
from ui.trees import games


def _coin() -> rmcore.TreeGame:
    """A small game of no catalogue: chance flips a coin only player 1 sees; player 1 says a side, player 2 (blind to
    the coin) guesses whether it was the truth."""

    def expand(history):
        if not history:
            return rmcore.Chance(("heads", "tails"), (0.5, 0.5), ("H", "T"))
        if len(history) == 1:
            return rmcore.Decision(1, f"coin {history}", ("say H", "say T"), (history + "h", history + "t"))
        if len(history) == 2:
            return rmcore.Decision(2, f"told {history[1]}", ("believe", "doubt"), (history + "b", history + "d"))
        truthful = history[1].upper() == history[0]
        return rmcore.Terminal((1.0 if history[2] == "b" else -1.0) * (1.0 if truthful else 2.0))

    return rmcore.build_tree_game("Coin and claim", "", expand)


COIN = _coin()


@pytest.fixture
def page():
    return tree_page()


def _choose(app: AppTest, game: str) -> AppTest:
    app.button_group(key="kuhn_game").set_value(game).run()
    assert not app.exception
    return app


def _upload(app: AppTest, name: str, data: bytes) -> AppTest:
    app.get("file_uploader")[0].upload(name, data).run()  # (the page's only uploader outside the Share box)
    assert not app.exception
    return app


def test_a_catalogue_game_comes_with_its_sliders_and_its_line_and_runs_and_charts(page):
    _choose(page, "goofspiel")
    assert page.slider(key="kuhn_goofspiel_cards").value == rmcore.TREE_GAMES["goofspiel"].parameters[0].default
    page.slider(key="kuhn_goofspiel_cards").set_value(3).run()
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception
    live = page.session_state.kuhn_live
    assert live.iteration == 10 and live.race.game is rmcore.tree_game("goofspiel", cards=3)
    assert live.key.game_key == ("goofspiel", 3)
    text = " ".join(m.value for m in page.markdown)
    assert "**Goofspiel:**" in text and "information sets" in text
    titles = [chart["figure"]["layout"]["title"]["text"] for chart in live_charts(page)]
    assert any(title.startswith("Average strategy at") for title in titles), titles
    assert "Keeps " in captions(page) and "checkpoints of this game" in captions(page)
    assert page.selectbox(key="kuhn_explore_infoset").value in live.race.game.infosets  # the explorer lists them


def test_an_uploaded_game_runs_and_a_bad_file_is_explained_while_the_last_game_keeps_running(page):
    _choose(page, "efg")
    assert any("Upload a .efg file" in i.value for i in page.info)
    assert len(page.session_state.kuhn_live.race.game.infosets) == 12  # Kuhn's, until a game is uploaded
    _upload(page, "coin.efg", rmcore.write_efg(COIN).encode())
    live = page.session_state.kuhn_live
    assert live.race.game.infosets == COIN.infosets and live.key.uploaded.source == "the file coin.efg"
    page.button(key="kuhn_step_10").click().run()
    assert page.session_state.kuhn_live.iteration == 10
    assert "kuhn_efg" in page.query_params  # small: it travels in the link
    _upload(page, "bad.efg", b"EFG 2 R nonsense")
    assert any(e.value.startswith("Not loaded: the file bad.efg, line") for e in page.error)
    _upload(page, "path.efg", b"/etc/hostname")  # a file's content is never taken for a path
    assert any(e.value.startswith("Not loaded: the file path.efg") and "EFG" in e.value for e in page.error)
    live = page.session_state.kuhn_live
    assert live.race.game.infosets == COIN.infosets and live.iteration == 10  # the last valid game, not restarted
    page.button(key="kuhn_step_10").click().run()
    assert page.session_state.kuhn_live.iteration == 20


def test_an_uploaded_file_of_three_players_is_read_and_a_general_sum_one_refused_with_a_reason():
    uploaded = games.read_uploaded(rmcore.write_efg(rmcore.kuhn_poker(players=3)).encode(), "a test")
    assert uploaded.game.players == 3 and uploaded.game.infosets == rmcore.kuhn_poker(players=3).infosets
    general_sum = (
        'EFG 2 R "dictator" { "A" "B" "C" } ""\np "" 1 1 "" { "keep" "share" } 0\nt "" 1 "" { 3, 0, 0 }\n'
        't "" 2 "" { 1, 1, 1 }\n'
    )
    with pytest.raises(
        ValueError, match="this page plays zero-sum games .two players or more.; dictator has 3 players"
    ):
        games.read_uploaded(general_sum.encode(), "a test")


def test_a_game_larger_than_the_page_runs_is_refused_with_its_size(page, monkeypatch):
    monkeypatch.setattr(games, "MAX_PAGE_NODES", 5)
    _choose(page, "efg")
    _upload(page, "coin.efg", rmcore.write_efg(COIN).encode())
    assert any("more than 5 nodes" in e.value and "at most 5 nodes" in e.value for e in page.error)
    assert page.session_state.kuhn_uploaded is None


@pytest.fixture
def media(monkeypatch) -> list:
    """Every media file manager AppTest makes (a download button's file is made from its callable there)."""
    made = []

    class Recording(MediaFileManager):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(app_test, "MediaFileManager", Recording)
    return made


def test_the_download_offers_the_current_games_efg_text(media):
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("app_pages/trees.py").run()
    button = next(b for b in app.get("download_button") if b.key == "kuhn_download_efg")
    assert button.proto.label == "Download as .efg"
    manager = media[-1]
    url = manager.execute_deferred(button.proto.deferred_file_id)  # what a click asks for
    made = manager._storage.get_file(url.rsplit("/", 1)[-1])
    assert made.content.decode() == rmcore.write_efg(rmcore.KUHN) and made.filename == "kuhn.efg"


def test_a_link_carries_an_uploaded_game_and_a_corrupt_one_opens_the_defaults_with_a_notice():
    param = link.efg_param(rmcore.write_efg(COIN))
    assert len(param) <= link.MAX_EFG_LINK_CHARS
    app = run_to_reached(
        opened({"kuhn_game": games.UPLOAD_LABEL, "kuhn_efg": param, "run_to": "5"}, url_path="kuhn_poker"), "kuhn"
    )
    live = app.session_state.kuhn_live
    assert live.race.game.infosets == COIN.infosets and live.iteration == 5 and not app.warning
    assert app.button_group(key="kuhn_game").value == "efg"
    corrupt = opened({"kuhn_game": games.UPLOAD_LABEL, "kuhn_efg": param[:40] + "!!" + param[42:]}, "kuhn_poker")
    assert any("kuhn_efg:" in shown(w.value) and "showing the defaults" in w.value for w in corrupt.warning)
    assert any("Upload a .efg file" in i.value for i in corrupt.info)  # the uploader, waiting for the game
    assert corrupt.session_state.kuhn_live.race.game is rmcore.KUHN and "kuhn_efg" not in corrupt.query_params


def test_a_corrupt_or_inflating_kuhn_efg_is_refused_with_a_reason(monkeypatch):
    import base64
    import zlib

    monkeypatch.setattr(link, "EFG_READ_MEGABYTES", 1)  # (a bomb of the real size would not fit in a link)
    bomb = base64.urlsafe_b64encode(zlib.compress(b"\0" * (2**20 + 1), 9)).decode()
    for param, reason in (
        ("%%%", "not URL-safe base64"),
        (base64.urlsafe_b64encode(b"plain text").decode(), "not a compressed game"),
        (bomb, "inflates to more than 1 MB"),
        (link.efg_param("EFG 2 R")[:-4], "cut short"),
        ("A" * (link.MAX_PARAM_CHARS + 1), "characters long"),
    ):
        with pytest.raises(ValueError, match=reason):
            link.efg_from_param(param)
    assert link.efg_from_param(link.efg_param('EFG 2 R "é"')) == 'EFG 2 R "é"'


def test_a_game_too_large_for_a_link_is_said_in_the_share_box(page, monkeypatch):
    monkeypatch.setattr(link, "MAX_EFG_LINK_CHARS", 10)
    _choose(page, "efg")
    _upload(page, "coin.efg", rmcore.write_efg(COIN).encode())
    assert "kuhn_efg" not in page.query_params
    assert any("cannot travel in a link" in w.value and "Share the .efg file" in w.value for w in page.warning)


def test_the_bot_plays_a_whole_hand_of_liars_dice(page):
    _choose(page, "liars_dice")
    page.slider(key="kuhn_liars_dice_sides").set_value(3).run()
    page.button(key="kuhn_step_10").click().run()
    for _ in range(2):
        for _ in range(20):
            actions = [b for b in page.button if b.key and b.key.startswith("kuhn_play_") and b.key != "kuhn_play_next"]
            if not actions:
                break
            actions[0].click().run()
            assert not page.exception
        assert any(m.value.startswith("**You won") or m.value.startswith("**You lost") for m in page.markdown)
        page.button(key="kuhn_play_next").click().run()
    table = page.session_state.kuhn_play
    assert len(table.winnings) == 2 and table.hand.game is rmcore.tree_game("liars_dice", sides=3)


def test_a_lock_on_goofspiel_fixes_that_set_and_the_learner_exploits_it(page):
    _choose(page, "goofspiel")
    page.slider(key="kuhn_goofspiel_cards").set_value(3).run()
    page.radio(key="kuhn_opponent").set_value("2").run()
    assert not page.exception
    game = rmcore.tree_game("goofspiel", cards=3)
    first = next(name for k, name in enumerate(game.infosets) if game.tree.infoset_player[k] == 1)
    opponent = page.session_state.kuhn_live.primary.opponent
    assert opponent[first][0] == 1.0  # locked on its first action; every other set plays the exact equilibrium
    page.button(key="kuhn_step_100").click().run()
    assert not page.exception and any("Against the fixed player 2" in s.value for s in page.subheader)


@pytest.mark.parametrize("source", ["uploaded", "catalogue"])
def test_the_bundle_reproduces_an_uploaded_game_and_a_catalogue_game_to_the_last_digit(tmp_path, source):
    import io
    import json
    import shlex
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    from ui import export
    from ui.live import LiveRun
    from ui.trees.settings import RunSettings

    variants = (rmcore.CFRVariant("cfr+"), rmcore.CFRVariant("chance-sampling", "simultaneous"))
    if source == "uploaded":
        uploaded = games.read_uploaded(rmcore.write_efg(COIN).encode(), "a test")
        chosen = RunSettings(variants, seed=2, seeds=2, game=games.UPLOAD, uploaded=uploaded)
    else:
        chosen = RunSettings(variants, seed=2, seeds=2, game="liars_dice", parameters=(4,))
    run = LiveRun(rmcore.Race(chosen.tree_game, chosen.variants, seeds=2, seed=2), chosen)
    for n in (3, 40):
        run.step(n)
    frame = run.frame()
    data = export.bundle({"format": "rmcore-setup/1", "page": "kuhn", "parameters": [], "iteration": 43}, run, frame)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path)
        names = set(archive.namelist())
    readme = (tmp_path / "README.txt").read_text()
    command = next(line.strip() for line in readme.splitlines() if line.strip().startswith("python -m rmcore"))
    if source == "uploaded":
        assert "game.efg" in names and (tmp_path / "game.efg").read_text() == uploaded.text
        assert "--efg game.efg" in command
    else:
        assert "game.efg" not in names and "--game liars_dice --sides 4" in command
    out = subprocess.run(
        [sys.executable, "-m", "rmcore", *shlex.split(command)[3:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[1]), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    numbers = json.loads((tmp_path / "numbers.json").read_text())
    assert {row["variant"]: row[result["measure"]] for row in result["variants"]} == numbers["variants"]


def test_a_race_and_the_replay_on_goofspiel(page):
    _choose(page, "goofspiel")
    page.slider(key="kuhn_goofspiel_cards").set_value(3).run()
    chosen = ["cfr+ · alternating", "chance-sampling · simultaneous"]
    page.multiselect(key="kuhn_variants").set_value(chosen).run()
    page.button(key="kuhn_step_100").click().run()
    assert not page.exception
    live = page.session_state.kuhn_live
    assert [v.label for v in live.race.variants] == chosen and live.race.runs == 1 + 5 and live.iteration == 100
    table = next(d.value for d in page.dataframe if "variant" in d.value.columns)
    assert list(table["variant"]) == chosen
    history = live.primary.history()
    earlier = int(history.iterations[len(history) // 2])
    page.select_slider(key="kuhn_replay_100").set_value(earlier).run()
    assert not page.exception and page.metric[0].value == f"{earlier} (replay; live end 100)"
    row = history.row_at(earlier)
    name = page.selectbox(key="kuhn_explore_infoset").value  # the explorer shows the replayed checkpoint's strategy
    k = live.race.game.infosets.index(name)
    table = next(t.value for t in page.table if shown(t.value.index.name) == name)
    assert list(table["average"]) == pytest.approx(list(history.average[row, k, : len(live.race.game.actions[k])]))
