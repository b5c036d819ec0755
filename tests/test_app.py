"""The app starts on the matrix page, and the About page runs (streamlit AppTest)."""

from streamlit.testing.v1 import AppTest


def test_app_starts_on_the_matrix_page():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    assert not app.exception
    assert app.title[0].value == "Regret matching on a matrix game"


def test_about_page_runs_its_demo():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    app.switch_page("pages/home.py").run()
    assert not app.exception
    assert "Watch no-regret learning" in app.title[0].value
    app.select_slider(key="home_iterations").set_value(10_000).run()
    assert not app.exception
    table = app.dataframe[0].value
    assert abs(table["average strategy"].iloc[1] - 0.5) < 0.01
