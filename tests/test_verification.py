"""The status table (``rmcore/verification.py``): a record for every rule and variant, every test it names exists, and
``docs/reference/algorithms.md`` carries the table as generated (the docs test: it fails when the page is stale)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import rmcore
from rmcore import verification

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reference" / "algorithms.md"


def test_every_rule_and_variant_has_a_record_and_no_record_is_left_over():
    expected = {("matrix", name) for name in rmcore.ALGORITHMS} | {("tree", name) for name in rmcore.CFR_ALGORITHMS}
    assert set(verification.CHECKS) == expected


def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("key", list(verification.CHECKS), ids=lambda key: "/".join(key))
def test_every_record_names_tests_that_exist_and_says_something(key):
    record = verification.CHECKS[key]
    assert record.paper and record.reference and record.tolerance and record.line
    assert record.tests
    for test in record.tests:
        path, name = test.split("::")
        assert name.startswith("test_"), test
        assert name in _functions(ROOT / path), f"{test} does not exist"


def test_the_algorithms_page_carries_the_generated_table():
    """Regenerate with ``python -m rmcore.verification --write`` when this fails."""
    text = PAGE.read_text(encoding="utf-8")
    assert verification.page_with_table(text) == text
    assert verification.status_table() in text


def test_the_generator_writes_and_checks_the_page(tmp_path):
    stale = tmp_path / "algorithms.md"
    stale.write_text(
        f"# Algorithms\n\n{verification.TABLE_START}\n| an old table |\n{verification.TABLE_END}\n\nmore\n",
        encoding="utf-8",
    )

    def run(*arguments):
        return subprocess.run(
            [sys.executable, "-m", "rmcore.verification", *arguments, str(stale)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )

    out = run("--check")
    assert out.returncode == 1 and "stale" in out.stderr
    assert run("--write").returncode == 0
    assert run("--check").returncode == 0
    written = stale.read_text(encoding="utf-8")
    assert "| an old table |" not in written and written.endswith("more\n")
    assert "`tree` | `pdcfr+`" not in written and "| tree | `pdcfr+` |" in written
    stale.write_text("no markers\n", encoding="utf-8")
    out = run("--write")
    assert out.returncode == 2 and "no status table" in out.stderr
