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
