"""Each session-state key has one writer, and each page's room one owner: ``ui/state.py`` writes the session-wide
keys, ``ui/matrix/state.py``, ``ui/trees/state.py`` and ``ui/atlas/state.py`` each page's own. Every other module of
the app (``app.py``, ``app_pages/``, ``ui/``) reads the session's keys and changes them through those modules'
functions; every key a state module writes is declared in its ``KEYS`` (what each holds) or, a widget's own key, in
its ``WIDGET_KEYS``; and no key is declared by two of them.

The writes are found in the source with ``ast``: an assignment to, or ``del`` of, anything reached from
``st.session_state`` (``st.session_state.game = ...``, ``st.session_state["x"] = ...``,
``st.session_state.messages[k] = ...``); a call of one of its mutating methods (``setdefault``, ``pop``, ``update``,
...) or of a mutating method of what a key holds (``st.session_state.link_problems.append(...)``); ``setattr`` on it;
and any other name bound to it (``ss = st.session_state``, ``from streamlit import session_state``), which would hide
the writes made through that name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ui import state
from ui.atlas import state as atlas_state
from ui.matrix import state as matrix_state
from ui.trees import state as trees_state

ROOT = Path(__file__).resolve().parent.parent
#: Each state module, by its file: the session-wide one and each page's room's.
OWNERS = {
    ROOT / "ui" / "state.py": state,
    ROOT / "ui" / "matrix" / "state.py": matrix_state,
    ROOT / "ui" / "trees" / "state.py": trees_state,
    ROOT / "ui" / "atlas" / "state.py": atlas_state,
}
#: Methods that change the session's mapping, and methods that change a list, set or dict a key holds.
_MAPPING_WRITES = {"setdefault", "pop", "popitem", "update", "clear", "__setitem__", "__delitem__"}
_HELD_WRITES = _MAPPING_WRITES | {"append", "extend", "insert", "add", "discard", "remove", "sort", "reverse"}


def app_modules() -> list[Path]:
    """Every module of the app: the entry point, the pages and ``ui/``."""
    return [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]


def _is_session_state(node: ast.AST) -> bool:
    """``st.session_state`` (Streamlit imported as ``st``) or ``streamlit.session_state``."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "session_state"
        and isinstance(node.value, ast.Name)
        and node.value.id in ("st", "streamlit")
    )


def _reaches_session_state(node: ast.AST) -> bool:
    """Whether ``node`` is ``st.session_state`` or something reached from it by attributes and subscripts."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if _is_session_state(node):
            return True
        node = node.value
    return False


def _key(node: ast.AST) -> str | None:
    """The session key a write names: an attribute's name, a subscript's text or f-string (``{page}_run``); None when
    the key is a variable's value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text_of(part) for part in node.values)
    return None


def _text_of(part: ast.AST) -> str:
    """A piece of an f-string as the key's pattern shows it: its text, or ``{expression}``."""
    return part.value if isinstance(part, ast.Constant) else f"{{{ast.unparse(part.value)}}}"


def _key_of_target(node: ast.AST) -> str | None:
    """The key a write reached from ``st.session_state`` changes: ``game`` for ``st.session_state.game = ...`` and for
    ``st.session_state.messages[k] = ...`` (what ``messages`` holds changes)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if _is_session_state(node.value):
            return node.attr if isinstance(node, ast.Attribute) else _key(node.slice)
        node = node.value
    return None


def writes(source: str, name: str = "<source>") -> list[tuple[int, str, str | None]]:
    """``(line, what, key)`` for every write to the session state in ``source`` (``key``: the key written, when the
    source names it; None for a variable key or an alias)."""
    tree = ast.parse(source, name)
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
            if _is_session_state(node.value):
                found.append((node.lineno, "binds another name to st.session_state", None))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.NamedExpr) and _is_session_state(node.value):
            found.append((node.lineno, "binds another name to st.session_state", None))
        elif isinstance(node, ast.ImportFrom) and node.module == "streamlit":
            if any(alias.name == "session_state" for alias in node.names):
                found.append((node.lineno, "imports session_state under a name of its own", None))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
                if _reaches_session_state(node.args[0]):
                    key = _key(node.args[1]) if len(node.args) > 1 else None
                    found.append((node.lineno, f"{func.id} on st.session_state", key))
            elif isinstance(func, ast.Attribute):
                if _is_session_state(func.value) and func.attr in _MAPPING_WRITES:
                    key = _key(node.args[0]) if node.args and func.attr != "update" else None
                    found.append((node.lineno, f"st.session_state.{func.attr}(...)", key))
                elif _reaches_session_state(func.value) and func.attr in _HELD_WRITES:
                    found.append((node.lineno, f"changes a key's value: .{func.attr}(...)", _key_of_target(func.value)))
        for target in targets:
            for part in ast.walk(target):  # (tuple targets: a, st.session_state.x = ...)
                if isinstance(part, (ast.Attribute, ast.Subscript)) and _reaches_session_state(part):
                    what = f"{type(node).__name__.lower()} {ast.unparse(part)}"
                    found.append((node.lineno, what, _key_of_target(part)))
                    break
    return sorted(found, key=lambda write: write[0])


def test_no_module_but_a_state_module_writes_the_session_state():
    written = []
    for path in app_modules():
        if path in OWNERS:
            continue
        for line, what, _ in writes(path.read_text(encoding="utf-8"), str(path)):
            written.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    owners = ", ".join(str(path.relative_to(ROOT)) for path in OWNERS)
    said = f"only the state modules ({owners}) write st.session_state; call their functions:"
    assert not written, "\n".join([said, *written])


def test_every_page_room_has_a_state_module():
    rooms = {path.parent for path in (ROOT / "ui").glob("*/__init__.py")}
    assert rooms == {path.parent for path in OWNERS} - {ROOT / "ui"}


@pytest.mark.parametrize("owner", sorted(OWNERS), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_key_a_state_module_writes_is_declared_once_with_what_it_holds(owner):
    module = OWNERS[owner]
    found = writes(owner.read_text(encoding="utf-8"), str(owner))
    assert found, f"{owner.relative_to(ROOT)} writes the session state"
    declared = set(module.KEYS) | set(module.WIDGET_KEYS)
    assert not set(module.KEYS) & set(module.WIDGET_KEYS), "a key is a widget's or this module's, not both"
    assert all(isinstance(what, str) and what for what in module.KEYS.values()), "each key says what it holds"
    named = {key for _, _, key in found if key is not None}
    undeclared = sorted(named - declared)
    assert not undeclared, f"{owner.relative_to(ROOT)} writes keys not in its KEYS or WIDGET_KEYS: {undeclared}"
    never_written = sorted(set(module.KEYS) - named)
    assert not never_written, f"{owner.relative_to(ROOT)}'s KEYS declares keys it never writes: {never_written}"


def test_no_key_has_two_writers():
    seen: dict[str, str] = {}
    twice = []
    for path, module in OWNERS.items():
        for key in (*module.KEYS, *module.WIDGET_KEYS):
            if key in seen:
                twice.append(f"{key}: {seen[key]} and {path.relative_to(ROOT)}")
            seen[key] = str(path.relative_to(ROOT))
    assert not twice, "each key has one writer:\n" + "\n".join(twice)


@pytest.mark.parametrize(
    "source",
    [
        "st.session_state.game = 1",
        "st.session_state['game'] = 1",
        "st.session_state[f'{page}_run'] = 1",
        "st.session_state.messages['x'] = 1",
        "st.session_state.count += 1",
        "a, st.session_state.game = 1, 2",
        "del st.session_state['game']",
        "del st.session_state.game",
        "st.session_state.setdefault('game', 1)",
        "st.session_state.pop('game', None)",
        "st.session_state.update({'game': 1})",
        "st.session_state.clear()",
        "st.session_state.link_problems.append('x')",
        "st.session_state['notices'].add('x')",
        "st.session_state.messages.pop('x', None)",
        "setattr(st.session_state, 'game', 1)",
        "ss = st.session_state",
        "from streamlit import session_state",
    ],
)
def test_the_scan_finds_each_kind_of_write(source):
    assert writes(f"import streamlit as st\n{source}\n"), source


@pytest.mark.parametrize(
    "source",
    [
        "x = st.session_state.game",
        "x = st.session_state.get('game')",
        "x = st.session_state['game'].shape",
        "if 'game' in st.session_state: pass",
        "x = st.session_state.draft.version + 1",
        "st.session_state.game.name.split(',')",
        "st.query_params['matrix'] = 'x'",
    ],
)
def test_the_scan_leaves_reads_alone(source):
    assert not writes(f"import streamlit as st\n{source}\n"), source


def test_the_scan_names_the_keys_written():
    source = (
        "import streamlit as st\n"
        "st.session_state.game = 1\n"
        "st.session_state[f'{page}_run'] = 2\n"
        "st.session_state.setdefault('messages', {})\n"
        "st.session_state.said_once.add(3)\n"
        "st.session_state[key] = 4\n"
    )
    assert [key for _, _, key in writes(source)] == ["game", "{page}_run", "messages", "said_once", None]
