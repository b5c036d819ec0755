"""One message mechanism for every input: ``ui.state.say`` keeps one message per widget, ``ui.state.show`` draws it
beside the widget; no page keeps error or note keys of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent


def test_no_module_keeps_an_error_or_a_note_key_of_its_own():
    """Every ``st.session_state.X`` (or ``["X"]``) the pages read or write: none is a message of its own."""
    found = []
    for path in [*sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "app_pages").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = None
            if isinstance(node, ast.Attribute) and getattr(node.value, "attr", None) == "session_state":
                name = node.attr
            elif isinstance(node, ast.Subscript) and getattr(node.value, "attr", None) == "session_state":
                name = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if isinstance(name, str) and name.endswith(("_error", "_note", "_problem")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not found, "\n".join(found)


@pytest.fixture
def app():
    app = AppTest.from_file("../app.py", default_timeout=120)
    app.run()
    assert not app.exception
    return app


def test_an_input_says_one_thing_beside_itself_and_a_new_game_clears_it(app):
    draft = app.session_state.draft
    cells = draft.row_cells.copy()
    cells.iat[0, 1] = "not a number"
    app.session_state.draft = type(draft)(cells, draft.col_cells, draft.row_names, draft.col_names, draft.version)
    app.button(key="apply").click().run()
    said = app.session_state.messages["editor"]
    assert said.kind == "error" and said.text.startswith("Not applied:") and "keeps running" in said.text
    assert [e.value for e in app.error] == [said.text]
    app.button(key="apply").click().run()  # (still refused: the same one message, not two)
    assert [e.value for e in app.error] == [said.text]
    app.selectbox(key="preset").select("matching-pennies").run()  # a new game: the editor has nothing to say
    assert "editor" not in app.session_state.messages and not app.error


def test_a_note_shown_once_goes():
    app = AppTest.from_file("../app.py", default_timeout=120).run()
    app.button(key="apply").click().run()
    assert any("Nothing was changed" in i.value for i in app.info)
    assert "editor" not in app.session_state.messages  # shown, then gone
    app.run()
    assert not any("Nothing was changed" in i.value for i in app.info)


def test_a_message_is_an_error_a_warning_or_info():
    from ui import state

    with pytest.raises(ValueError, match="not 'shout'"):
        state.say("preset", "too loud", "shout")
