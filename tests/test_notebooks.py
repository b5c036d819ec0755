"""The tutorial notebooks: stored without outputs (every documentation build runs them, and a notebook that no longer
runs fails the build), and offered for download by the matrix page and by their own pages."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

from tests.visits import opened
from ui import explain_matrix
from ui.matrix import view

DOCS = Path(__file__).resolve().parent.parent / "docs"
NOTEBOOKS = sorted(path for path in DOCS.rglob("*.ipynb") if "_build" not in path.relative_to(DOCS).parts)


def test_the_tutorials_are_the_two_notebooks():
    assert [path.name for path in NOTEBOOKS] == ["cfr-in-a-notebook.ipynb", "regret-matching-exercise.ipynb"]
    listed = (DOCS / "tutorials" / "index.md").read_text(encoding="utf-8")
    assert all(path.stem in listed for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_a_notebook_is_stored_valid_without_outputs_and_links_its_own_download(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
    assert f"{{download}}`Download this notebook <{path.name}>`" in notebook.cells[0].source


def test_the_documentation_build_runs_every_notebook_and_fails_on_an_error():
    settings = {
        node.targets[0].id: node.value
        for node in ast.parse((DOCS / "conf.py").read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    assert ast.literal_eval(settings["nb_execution_mode"]) == "force"
    assert ast.literal_eval(settings["nb_execution_raise_on_error"]) is True
    assert "myst_nb" in ast.literal_eval(settings["extensions"])


def test_the_matrix_page_offers_the_exercise_notebook():
    app = opened()
    (button,) = [b for b in app.get("download_button") if b.proto.id.endswith("-matrix_notebook")]
    assert button.proto.label == explain_matrix.NOTEBOOK_LABEL and button.proto.help == explain_matrix.NOTEBOOK_HELP
    assert view.NOTEBOOK == DOCS / "tutorials" / "regret-matching-exercise.ipynb"
