"""The app starts on the matrix page, and the About page runs (streamlit AppTest)."""

from pathlib import Path

import tomllib
from streamlit.testing.v1 import AppTest

from tests.visits import opened


def test_app_starts_on_the_matrix_page():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    assert not app.exception
    assert app.title[0].value == "Regret matching on a matrix game"


def test_about_page_runs_its_demo():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("app_pages/home.py").run()
    assert not app.exception
    assert "Watch no-regret learning" in app.title[0].value
    tour = " ".join(m.value for m in app.markdown)
    parts = ("Matrix game.", "CFR on game trees.", "Presentation mode", "Replay", "Step +1")
    assert all(part in tour for part in parts)
    assert "coming" not in tour.lower()  # current: nothing promised as "coming next"
    app.select_slider(key="home_iterations").set_value(10_000).run()
    assert not app.exception
    table = app.dataframe[0].value
    assert abs(table["average strategy"].iloc[1] - 0.5) < 0.01


def test_the_about_pages_tour_names_every_pages_features_by_the_words_the_pages_show():
    from ui import explain, explain_app, explain_matrix
    from ui.matrix import editor
    from ui.trees import games

    tour = " ".join(explain_app.HOME_TOUR.lower().split())
    lessons = [explain.MATRIX_LESSON_TITLE, explain.LAST_ITERATE_TITLE, explain.LESSON_TITLE]
    shown = {
        "the lessons": [title.removeprefix("Lesson: ") for title in lessons] + [explain_matrix.FIELD_LESSONS_TITLE],
        "where learning starts": ["Where learning starts", "click the field"],
        "the uploads": ["Upload a CSV", f"{editor.UPLOAD_LIMIT}x{editor.UPLOAD_LIMIT}", ".nfg"],
        "the locked players": ["Opponent", "fixed mixed strategy", "Player 2 fixed"],
        "the strategy chart's files": [explain_matrix.ANIMATION_EXPANDER.split(" (")[0], "GIF", "MP4"],
        "the tree games": [*games.CLASSIC.values(), games.OPENSPIEL_LABEL, games.UPLOAD_LABEL, "Liar's dice"],
        "the bot": ["Play against the bot"],
        "the atlas": ["Atlas.", "sweep"],
        "the exports": ["Share this setup", "Export", "reproducibility bundle"],
        "the exact answers": ["every Nash equilibrium up to 8x8", "exact answer"],
    }
    missing = {what: [w for w in words if w.lower() not in tour] for what, words in shown.items()}
    assert not any(missing.values()), missing


def test_the_server_config_skips_streamlits_full_collection_after_every_rerun():
    # A full gc.collect(2) after every fragment rerun cost about 70 ms per chart update (README).
    config = tomllib.loads((Path(__file__).parents[1] / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_viewers_see_no_developer_menu():
    config = tomllib.loads((Path(__file__).parents[1] / ".streamlit" / "config.toml").read_text())
    assert config["client"]["toolbarMode"] == "viewer"


def test_a_first_visit_straight_to_the_poker_page_runs_the_app_first():
    # Until st.navigation has run once, Streamlit treats a folder named pages/ beside app.py as its
    # old multipage layout and runs a linked page without app.py (so without the session state).
    app = opened(url_path="kuhn_poker")  # the poker page's URL path
    assert app.title[0].value == "CFR on game trees" and app.session_state.kuhn_live is not None
    assert not (Path(__file__).parents[1] / "pages").exists()


def test_a_fresh_clone_has_the_static_folder_streamlit_serves():
    """Streamlit warns at start when ``server.enableStaticServing`` finds no static/ folder: git keeps one."""
    import subprocess

    tracked = subprocess.run(
        ["git", "ls-files", "static"], cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True
    )
    assert "static/README.md" in tracked.stdout.split()
