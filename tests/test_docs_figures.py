"""Every figure the project states comes from one generated place: the data files under ``docs/performance/``.

The README, the documentation's pages, the on-screen words (every string of ``ui/`` and ``app_pages/`` that is not a
docstring) and the library's docstrings state no timing, rate or ratio that no data file holds. A page draws a
measured figure from its row as a MyST substitution (``{{ tree_cfr_leduc }}``, :mod:`benchmarks.results`); a figure
written out is accepted only where a data file holds it (a target such as ">= 400x the numpy loop" is in the bench's
rows). Code blocks and inline code are not prose: commands, their flags and their printed output may hold numbers.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from benchmarks import results

ROOT = Path(__file__).resolve().parent.parent
#: Pages rendered from data by the commands that measure (their figures are the generated place itself).
GENERATED = ("docs/performance/atlas.md", "docs/performance/atlas-scaling.md")

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_RANGE = rf"(?:{_NUMBER})(?:\s*(?:-|–|to)\s*(?:{_NUMBER}))?"
_UNIT = r"ns|µs|us|ms|seconds?|secs?|s|minutes?|min|hours?"
#: A timing (``28.2 ns``, ``10-20 s``, ``3 to 5 s``), a ratio (``1.16x``, ``496×``) or a rate (``3.4 updates a
#: second``, ``625 / s``), not inside a word or a formula.
FIGURE = re.compile(
    rf"(?<![\w.:/=^-])(?:"
    rf"(?P<timing>{_RANGE})\s(?P<unit>{_UNIT})(?![\w/])"
    rf"|(?P<short>{_NUMBER})(?P<short_unit>ns|µs|us|ms)(?!\w)"
    rf"|(?P<ratio>{_RANGE})(?:x|×)(?!\w)"
    rf"|(?P<rate>{_RANGE})\s+(?:updates|iterations|frames|its|chart updates)\s*(?:a|per|/)\s*(?:second|s)\b"
    rf"|(?P<per_s>{_RANGE})\s*/\s*s\b"
    rf")"
)


def prose(text: str) -> str:
    """Markdown without its code (fenced blocks, inline code), its substitutions and its link targets."""
    text = re.sub(r"^(`{3,}|~{3,}).*?^\1", "", text, flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\{\{[^}]*\}\}", "", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


def figures(text: str) -> list[str]:
    return [match.group(0) for match in FIGURE.finditer(text)]


def _held() -> set[str]:
    """Every figure a data file holds, written as prose would write it (the row's value, its ratio, and the figures in
    its baseline and target words)."""
    held = set()
    for row in results.rows().values():
        held.add(_normal(results.formatted(row)))
        if row.get("ratio") is not None:
            held.add(_normal(f"{results._number(row['ratio'])}x"))
        for field in ("baseline", "target"):
            held.update(_normal(figure) for figure in figures(str(row.get(field) or "")))
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


def _strings(path: Path, docstrings: bool) -> list[tuple[int, str]]:
    """A module's docstrings, or every other string constant in it (the words a page shows)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    holders = [tree] + [
        node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
    ]
    first = {
        id(node.body[0].value)
        for node in holders
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (id(node) in first) == docstrings
    ]


def _stated() -> list[tuple[str, str]]:
    """``(where, figure)`` for every timing, rate and ratio the project states outside its data files."""
    found = []
    for page in _markdown_files():
        text = prose(page.read_text(encoding="utf-8"))
        found += [(str(page.relative_to(ROOT)), figure) for figure in figures(text)]
    on_screen = [*sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "app_pages").glob("*.py"))]
    library = [path for path in sorted((ROOT / "rmcore").rglob("*.py")) if "kernels" not in path.parts]
    for path, docstrings in [(p, False) for p in on_screen] + [(p, True) for p in library]:
        for line, text in _strings(path, docstrings):
            found += [(f"{path.relative_to(ROOT)}:{line}", figure) for figure in figures(prose(text))]
    return found


def test_the_pattern_finds_timings_rates_and_ratios_and_leaves_other_numbers_alone():
    said = "takes 97-169 ns, 3.4 updates a second, 1.0-1.3x, 10-30 s each, 6.5 µs, 3 to 5 s, 625 / s, 2.2µs"
    assert figures(said) == [
        "97-169 ns",
        "3.4 updates a second",
        "1.0-1.3x",
        "10-30 s",
        "6.5 µs",
        "3 to 5 s",
        "625 / s",
        "2.2µs",
    ]
    assert figures("3 cards, 12 information sets, player 2s, 1e-6, 0x1F, a 3x3 game, {0:04x}, [0, s], 1,000 runs") == []
    assert figures(prose("run `--seconds 20` and {{ tree_cfr_leduc }}\n```\n0.2 s\n```\n")) == []


def test_no_prose_states_a_figure_that_no_data_file_holds():
    held = _held()
    unheld = [f"{where}: {figure}" for where, figure in _stated() if _normal(figure) not in held]
    assert not unheld, (
        "figures typed by hand (draw each from its data file as a substitution, {{ key }}, or leave it out):\n"
        + "\n".join(unheld)
    )


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
