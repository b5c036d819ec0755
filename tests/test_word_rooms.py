"""Every on-screen sentence in the word rooms: ``ui/explain.py`` and the rooms beside it named for words
(``ui/explain_*.py``), and the library's figures' own, ``rmcore/plotting/words.py``. No page (``app.py``,
``app_pages/``), no other module of ``ui/`` and no other figure builder of ``rmcore/plotting/`` types a sentence into
what it draws.

A sentence is literal text of at least :data:`SENTENCE_CHARS` characters with at least :data:`SENTENCE_SPACES` spaces
(the literal parts of an f-string, or of a ``+`` of strings, counted together). The scan (``ast``) looks at what is
drawn: the arguments of a Streamlit element or widget, on ``st`` or on a column, container or placeholder
(``c1.number_input(...)``, ``said.info(...)``); a widget's ``help``, ``placeholder`` or ``label``; a chart's title or
text (``title(...)``, ``text=``, ``hovertemplate=``); a message an input keeps (``state.say``) and a page's notice
(``Notice``). A name given there is followed to the text assigned to it in the same module.

What stays beside its code, by design: a heading (``st.title``, ``st.header``, ``st.subheader``: a page's parts, named
where they are drawn), a widget's short label (under a sentence's length), an exception's message (the check that
raises it says what it found, as rmcore's own checks do; the page quotes it), a command line's help (argparse), and
log lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SENTENCE_CHARS = 40
SENTENCE_SPACES = 4
#: Streamlit's elements and widgets that draw text given as arguments (headings left out: see above).
TEXT_CALLS = {
    "caption", "markdown", "write", "text", "info", "warning", "error", "success", "toast", "latex",
    "button", "download_button", "link_button", "form_submit_button", "page_link",
    "checkbox", "toggle", "radio", "selectbox", "multiselect", "select_slider", "slider", "segmented_control", "pills",
    "number_input", "text_input", "text_area", "date_input", "time_input", "color_picker", "file_uploader",
    "data_editor", "expander", "popover", "tabs", "spinner", "status", "metric", "dialog",
    "say", "Notice",
}  # fmt: skip
#: Keyword arguments that are on-screen words wherever they are given.
TEXT_KEYWORDS = {"help", "placeholder", "label", "caption", "text", "hovertemplate", "title_text"}
#: Functions whose arguments are a chart's words (ui/charts.py's title and figure, as the figure builders import them).
CHART_CALLS = {"title", "_title", "figure", "_figure", "placeholder"}
#: A command line's help is the command's own (as ``python -m rmcore``'s is rmcore/__main__.py's).
COMMAND_LINE_CALLS = {"ArgumentParser", "add_argument", "add_parser"}


def word_rooms() -> set[Path]:
    return {ROOT / "ui" / "explain.py", *(ROOT / "ui").glob("explain_*.py"), ROOT / "rmcore" / "plotting" / "words.py"}


def scanned_modules() -> list[Path]:
    """The entry point, the pages, every module of ``ui/`` and the figure builders, outside the word rooms."""
    every = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]
    every += sorted((ROOT / "rmcore" / "plotting").glob("*.py"))
    rooms = word_rooms()
    return [path for path in every if path not in rooms]


def _literal_text(node: ast.AST) -> list[str]:
    """The literal texts ``node`` can draw: a string, an f-string's literal parts, a ``+`` of them; each branch of a
    conditional expression on its own."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(part.value for part in node.values if isinstance(part, ast.Constant))]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal_text(node.left), _literal_text(node.right)
        return [a + b for a in left or [""] for b in right or [""]] if left or right else []
    if isinstance(node, ast.IfExp):
        return _literal_text(node.body) + _literal_text(node.orelse)
    return []


def is_sentence(text: str) -> bool:
    return len(text.strip()) >= SENTENCE_CHARS and text.count(" ") >= SENTENCE_SPACES


def _texts_assigned(tree: ast.AST) -> dict[str, list[str]]:
    """Every name (or ``self.name``) of the module bound to literal text, and the texts."""
    bound: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
                if name is not None:
                    bound.setdefault(name, []).extend(_literal_text(node.value))
    return bound


def _called_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def typed_sentences(source: str, name: str = "<source>") -> list[tuple[int, str]]:
    """``(line, sentence)`` for every sentence ``source`` types into what it draws."""
    tree = ast.parse(source, name)
    bound = _texts_assigned(tree)

    def texts(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Name):
            return bound.get(node.id, [])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            return bound.get(node.attr, [])
        return _literal_text(node)

    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = _called_name(node.func)
        if called in COMMAND_LINE_CALLS:
            continue
        on_st = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
        on_st = on_st and node.func.value.id == "st"
        chart = called in CHART_CALLS and not on_st  # (``st.title`` is a heading; ``title(...)`` a chart's title)
        given = [keyword.value for keyword in node.keywords if keyword.arg in TEXT_KEYWORDS]
        if called in TEXT_CALLS or chart:
            given += node.args
        if called == "dict" or chart:  # (a chart's layout: dict(text=...), title=...)
            given += [keyword.value for keyword in node.keywords if keyword.arg == "title"]
        for argument in given:
            found += [(node.lineno, text) for text in texts(argument) if is_sentence(text)]
    return sorted(set(found))


def test_no_page_and_no_ui_module_types_a_sentence_outside_the_word_rooms():
    typed = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
        for path in scanned_modules()
        for line, text in typed_sentences(path.read_text(encoding="utf-8"), str(path))
    ]
    assert not typed, "on-screen sentences belong in ui/explain*.py or rmcore/plotting/words.py:\n" + "\n".join(typed)


def test_the_word_rooms_draw_nothing():
    """The rooms hold words only: no Streamlit, no Plotly (a figure builder or a page draws them)."""
    for path in word_rooms():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not any(name.split(".")[0] in ("streamlit", "plotly") for name in imported), path


@pytest.mark.parametrize(
    "source",
    [
        "st.caption('Each run is one algorithm with its settings on one game.')",
        "st.info(f'Load a folder that {tool} wrote to see its runs here.')",
        "c1.number_input('Frames', 2, 300, help='How many frames the animation draws, at 12 a second.')",
        "said.warning('Your game cannot travel in a link: ' + str(n) + ' characters is too long.')",
        "st.error('Not loaded: ' + reason if bad else 'The file was read, and the last game keeps running.')",
        "HINT = 'Keys: Space run and pause, the right arrow steps, R resets.'\nst.caption(HINT)",
        "state.say('editor', 'Nothing was changed, so the run goes on as it was.', 'info')",
        "layout = dict(title=dict(text='Average strategies: the most played actions of each player'))",
        "figure(traces, 'Average strategy path on the simplex of each player', 380)",
        "st.selectbox('Results folder (the --out of python -m rmcore sweep)', options)",
    ],
)
def test_the_scan_finds_a_typed_sentence(source):
    assert typed_sentences(f"import streamlit as st\n{source}\n"), source


@pytest.mark.parametrize(
    "source",
    [
        "st.caption(explain.ATLAS_RUNS)",
        "st.subheader('A first taste: Rock-Paper-Scissors with a crash')",
        "st.slider('Iterations', 1, 100, key='animation_range')",
        "raise ValueError('the file is not a setup saved by this app (not JSON text)')",
        "st.markdown(f'**{name}** ({rows}x{cols}, {kind})')",
        "_LOG.exception('the %s page live panel failed and the run is paused now', page)",
        "parser.add_argument('--out', help='the figures folder (default: atlas/ beside the data file)')",
        "st.title('The atlas: every algorithm on every game')",
    ],
)
def test_the_scan_leaves_alone_what_is_not_a_typed_sentence(source):
    assert not typed_sentences(f"import streamlit as st\n{source}\n"), source
