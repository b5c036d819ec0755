"""The app starts and its pages run without exceptions (streamlit AppTest)."""

from streamlit.testing.v1 import AppTest


def test_app_starts_and_the_welcome_page_runs():
    app = AppTest.from_file("../app.py", default_timeout=60)
    app.run()
    assert not app.exception
    assert "Watch no-regret learning" in app.title[0].value
    app.select_slider(key="home_iterations").set_value(10_000).run()
    assert not app.exception
    table = app.dataframe[0].value
    assert abs(table["average strategy"].iloc[1] - 0.5) < 0.01
