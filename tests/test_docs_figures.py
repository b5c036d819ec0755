"""Every measured figure the project states comes from one generated place: the data files under
``docs/performance/``.

A *measured figure* is a time (``28.2 ns``, ``10-20 s``), a speed (a rate, ``3.4 updates a second``, ``625 / s``; a
ratio, ``1.16x``) or a size in megabytes or gigabytes (``7.1 MB``), as :data:`FIGURE` matches it, not inside a word, a
formula or a value written in code (``memory="4GB"``). The guard reads everything the project writes: the README and
every page of ``docs/`` (prose, code blocks and inline code alike), and every string, docstring and comment of its own
code (``rmcore/``, ``ui/``, ``app_pages/``, ``app.py``, ``benchmarks/``, ``docs/conf.py``). A figure there is accepted
only when

- a data file holds it: a page draws it from its row as a MyST substitution (``{{ tree_cfr_leduc }}``,
  :mod:`benchmarks.results`), and code may write out a row's value, its ratio or the figures of its baseline and target
  words, as the row formats them (a comment that cites a measurement cites one the data files hold);
- it is a setting, read from the code (:func:`benchmarks.results.settings`: ``0.1 s``, the update interval); or
- it is a bound the project sets, not a measurement: the words right before it set one (``at most 2 MB``, ``up to
  20 MB``, ``< 60 s``: :data:`BOUND_BEFORE`), or the word right after it names one (``a 150 MB limit``, ``a 60 s
  timeout``: :data:`BOUND_AFTER`). Words that compare a cost with a figure (``more than``, ``under``, ``within``,
  ``about``) say what was measured, and do not make it a bound. A limit, a constant's value, a paper's number or a
  game's size is a definition: the project writes it beside a word of :data:`BOUND_BEFORE` or :data:`BOUND_AFTER`,
  or without a unit (``2,000 rows``, ``294,876 nodes``, ``50 million characters``).

A page rendered by the command that measures (:data:`GENERATED`) is the generated place itself. A comment or docstring
that names a project file by its path (``rmcore/trees/builder.py``) names one that exists.

What the guard cannot see: a figure written in words (``a tenth of a second``, ``gigabytes``), which the project uses
for an order of magnitude, not for a measurement; and a typed figure that happens to equal a value some data file
holds.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from benchmarks import results

ROOT = Path(__file__).resolve().parent.parent
#: Pages rendered from data by the commands that measure (their figures are the generated place itself).
GENERATED = ("docs/performance/atlas.md", "docs/performance/atlas-scaling.md")
#: The project's own code: its strings, docstrings and comments are read for figures and for paths.
CODE = ("rmcore", "ui", "app_pages", "benchmarks", "app.py", "docs/conf.py")

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_RANGE = rf"(?:{_NUMBER})(?:\s*(?:-|–|to)\s*(?:{_NUMBER}))?"
_UNIT = r"ns|µs|us|ms|seconds?|secs?|s|minutes?|min|hours?"
#: A timing (``28.2 ns``, ``10-20 s``, ``3 to 5 s``), a ratio (``1.16x``, ``496×``), a rate (``3.4 updates a
#: second``, ``625 / s``) or a size (``7.1 MB``, ``3 GB``), not inside a word, a formula or a quoted value.
FIGURE = re.compile(
    rf"(?<![\w.:/=^\'\"-])(?:"
    rf"(?P<timing>{_RANGE})\s(?P<unit>{_UNIT})(?![\w/])"
    rf"|(?P<short>{_NUMBER})(?P<short_unit>ns|µs|us|ms)(?!\w)"
    rf"|(?P<ratio>{_RANGE})(?:x|×)(?!\w)"
    rf"|(?P<rate>{_RANGE})\s+(?:updates|iterations|frames|its|chart updates)\s*(?:a|per|/)\s*(?:second|s)\b"
    rf"|(?P<per_s>{_RANGE})\s*/\s*s\b"
    rf"|(?P<size>{_RANGE})\s?(?:MB|GB)\b"
    rf")"
)
#: Words that make the figure after them a bound (a limit, a target), not a measurement.
BOUND_BEFORE = re.compile(
    r"(?:\b(?:at most|up to|no more than|limit of|limited to|capped at)|[<>]=?|[≤≥])\s*$",
    re.I,
)
#: Words that make the figure before them a bound: ``a 150 MB limit``.
BOUND_AFTER = re.compile(r"^\s*(?:limits?|caps?|budgets?|timeouts?|ceilings?|allowance)\b", re.I)
#: A path to a file or folder of the project, as a comment or docstring names it.
PROJECT_PATH = re.compile(
    r"(?<![\w./-])((?:rmcore|ui|app_pages|docs|tests|benchmarks|deploy|static|\.ci|\.streamlit)/[\w./-]*[\w/])"
)


def prose(text: str) -> str:
    """Markdown without its code (fenced blocks, inline code), its substitutions and its link targets."""
    text = re.sub(r"^(`{3,}|~{3,}).*?^\1", "", text, flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    return _without_substitutions(text)


def _without_substitutions(text: str) -> str:
    """Markdown without its substitutions (``{{ key }}``, drawn from the data files) and its link targets."""
    text = re.sub(r"\{\{[^}]*\}\}", "", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


def figures(text: str) -> list[str]:
    """Every measured figure in ``text``: what :data:`FIGURE` matches, less the bounds."""
    found = []
    for match in FIGURE.finditer(text):
        before, after = text[max(match.start() - 30, 0) : match.start()], text[match.end() : match.end() + 30]
        if not (BOUND_BEFORE.search(before) or BOUND_AFTER.match(after)):
            found.append(match.group(0))
    return found


def _held() -> set[str]:
    """Every figure a data file holds, written as prose would write it (the row's value, its ratio, and the figures in
    its baseline and target words), and every setting read from the code."""
    held = {_normal(value) for value in results.settings().values()}
    for row in results.rows().values():
        held.add(_normal(results.formatted(row)))
        if row.get("ratio") is not None:
            held.add(_normal(f"{results._number(row['ratio'])}x"))
        for field in ("baseline", "target"):
            held.update(_normal(match.group(0)) for match in FIGURE.finditer(str(row.get(field) or "")))
    return held


def _normal(figure: str) -> str:
    return re.sub(r"\s+", " ", figure.replace("×", "x").replace("µs", "us")).strip()


def _markdown_files() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [
        page
        for page in pages
        if "_build" not in page.parts and "generated" not in page.parts and str(page.relative_to(ROOT)) not in GENERATED
    ]


def _code_files() -> list[Path]:
    found = []
    for name in CODE:
        path = ROOT / name
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [path for path in found if "_build" not in path.parts]


def _texts(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, text, about_code)`` for every string constant and comment of a module (not a format spec: ``:#04x``);
    ``about_code``: a docstring or a comment, the words about the code, rather than a string the code uses."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    holders = [tree] + [
        node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
    ]
    docstrings = {
        id(node.body[0].value)
        for node in holders
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    specs = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None
        for part in ast.walk(node.format_spec)
    }
    found = [
        (node.lineno, node.value, id(node) in docstrings)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in specs
    ]
    comments = tokenize.generate_tokens(io.StringIO(source).readline)
    return found + [(token.start[0], token.string, True) for token in comments if token.type == tokenize.COMMENT]


#: Where a string the code uses is words a page shows (elsewhere the code's strings are messages, formats and output
#: whose figures are filled in at run time).
ON_SCREEN = ("ui", "app_pages", "app.py")


def _stated(root: Path = ROOT, pages=None, code=None) -> list[tuple[str, str]]:
    """``(where, figure)`` for every measured figure the project under ``root`` states outside its data files (its
    Markdown ``pages`` and ``code`` files: by default the project's own)."""
    found = []
    for page in _markdown_files() if pages is None else pages:
        text = _without_substitutions(page.read_text(encoding="utf-8"))
        found += [(str(page.relative_to(root)), figure) for figure in figures(text)]
    for path in _code_files() if code is None else code:
        on_screen = path.relative_to(root).parts[0] in ON_SCREEN
        for line, text, about_code in _texts(path):
            if about_code or on_screen:
                found += [(f"{path.relative_to(root)}:{line}", figure) for figure in figures(text)]
    return found


def test_the_pattern_finds_timings_rates_ratios_and_sizes_and_leaves_other_numbers_alone():
    said = (
        "takes 97-169 ns, 3.4 updates a second, 1.0-1.3x, 10-30 s each, 6.5 µs, 3 to 5 s, 625 / s, 2.2µs, 7.08 MB, "
        "a 3 GB process"
    )
    assert figures(said) == [
        "97-169 ns",
        "3.4 updates a second",
        "1.0-1.3x",
        "10-30 s",
        "6.5 µs",
        "3 to 5 s",
        "625 / s",
        "2.2µs",
        "7.08 MB",
        "3 GB",
    ]
    assert figures("3 cards, 12 information sets, player 2s, 1e-6, 0x1F, a 3x3 game, {0:04x}, [0, s], 1,000 runs") == []
    assert figures('memory="4GB", timeout="2 s"') == []
    assert figures(prose("run `--seconds 20` and {{ tree_cfr_leduc }}\n```\n0.2 s\n```\n")) == []


def test_a_bound_is_no_measurement_but_the_same_figure_stated_as_a_cost_is():
    bounds = "at most 2 MB, up to 24 MB, < 60 s, >= 400x, a 150 MB limit, a 60 s timeout"
    assert figures(bounds) == []
    said = "one CFR iteration takes about 8 ms, a checkpoint 7.7 MB; never held up more than 52 ms, within 0.2 s"
    assert figures(said) == ["8 ms", "7.7 MB", "52 ms", "0.2 s"]


def test_the_guard_reads_code_blocks_inline_code_docstrings_and_comments(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Prose at most 2 MB.\n\n```text\nself-play, 0.368 s\n```\n\n`took 11 s`\n")
    (tmp_path / "rmcore").mkdir()
    module = tmp_path / "rmcore" / "module.py"
    lines = [
        '"""A checkpoint takes 7.7 MB."""',
        "",
        "LIMIT = 2  # one CFR iteration takes about 8 ms",
        "WORDS = 'a message of 3 s'  # (the library's messages are not read: their figures are filled in as it runs)",
    ]
    module.write_text("\n".join(lines) + "\n")
    assert _stated(tmp_path, [page], [module]) == [
        ("page.md", "0.368 s"),
        ("page.md", "11 s"),
        ("rmcore/module.py:1", "7.7 MB"),
        ("rmcore/module.py:3", "8 ms"),
    ]


def test_no_page_string_docstring_or_comment_states_a_figure_that_no_data_file_holds():
    held = _held()
    unheld = [f"{where}: {figure}" for where, figure in _stated() if _normal(figure) not in held]
    assert not unheld, (
        "measured figures typed by hand (draw each from its data file, as a substitution {{ key }} on a page, or leave "
        "it out; a bound is written beside its word: 'at most 2 MB'):\n" + "\n".join(unheld)
    )


def _missing_paths(root: Path = ROOT, code=None) -> list[str]:
    """Paths in the words about the code (its docstrings and comments) that name no file or folder under ``root``; a
    pattern (``ui/explain_*.py``) or a placeholder (``docs/performance/{name}.json``) is left alone."""
    missing = []
    for path in _code_files() if code is None else code:
        for line, text, about_code in _texts(path):
            for match in PROJECT_PATH.finditer(text) if about_code else ():
                named = match.group(1).rstrip("/.")
                if text[match.end() : match.end() + 1] not in ("*", "{", "<") and not (root / named).exists():
                    missing.append(f"{path.relative_to(root)}:{line}: {named}")
    return missing


def test_a_path_to_no_file_is_found_and_a_pattern_is_left_alone(tmp_path):
    (tmp_path / "rmcore" / "trees").mkdir(parents=True)
    (tmp_path / "rmcore" / "trees" / "builder.py").write_text("")
    module = tmp_path / "rmcore" / "module.py"
    lines = [
        '"""Built by ``rmcore/trees/builder.py``, not ``rmcore/tree_builder.py``; the rooms ``ui/explain_*.py``."""',
        "WHERE = 'rmcore/nowhere.py'  # (a string the code uses is not read; a comment is: rmcore/matrix.py)",
    ]
    module.write_text("\n".join(lines) + "\n")
    assert _missing_paths(tmp_path, [module]) == [
        "rmcore/module.py:1: rmcore/tree_builder.py",
        "rmcore/module.py:2: rmcore/matrix.py",
    ]


def test_every_project_path_a_comment_or_docstring_names_exists():
    """A path in the words about the code (``rmcore/trees/builder.py``, ``docs/performance/``) names a file or folder
    of the project."""
    missing = _missing_paths()
    assert not missing, "paths to no file of the project:\n" + "\n".join(missing)


def test_every_substitution_a_page_names_is_a_row_or_a_setting():
    """A substitution names a row some measurement writes (its key's prefix names its data file) or a setting; a row
    not measured yet renders as such, a misspelt name would too, so the names are checked here."""
    known = set(results.substitutions())
    prefixes = (
        "matrix_",
        "tree_",
        "compile_",
        "parallel_",
        "liteefg_",
        "browser_",
        "load_",
        "cold_",
        "leduc_",
        "animation_",
        "atlas_",
    )
    for page in _markdown_files():
        for name in re.findall(r"\{\{\s*(\w+)\s*\}\}", page.read_text(encoding="utf-8")):
            assert name in known or name.startswith(prefixes), f"{page.relative_to(ROOT)}: {{{{ {name} }}}}"


@pytest.mark.parametrize("name", ["bench.json"])
def test_the_data_files_hold_rows_with_their_machine_and_date(name):
    rows = [row for row in results.rows().values() if row["file"] == name]
    assert rows, f"docs/performance/{name} holds no rows"
    for row in rows:
        assert (
            row["date"] and row["machine"] and row["command"].startswith(("python -m rmcore", "python -m benchmarks"))
        )
        assert isinstance(row["value"], (int, float)) and row["unit"]
