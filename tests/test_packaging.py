"""rmcore installs on its own: the wheel holds the library only and needs neither streamlit nor plotly."""

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_import_rmcore_never_needs_the_dashboard():
    # A None entry in sys.modules makes any import of that name fail at once.
    code = (
        "import sys; sys.modules['streamlit'] = sys.modules['plotly'] = None; "
        "import rmcore, rmcore.__main__, rmcore.race; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_figures_need_no_plotly_and_no_streamlit():
    # The figure builders return plain dicts: only the notebook's live view (rmcore.plotting.watch) needs the extra.
    code = (
        "import sys; sys.modules['streamlit'] = sys.modules['plotly'] = sys.modules['ipywidgets'] = None; "
        "import rmcore.plotting, rmcore.plotting.space, rmcore.plotting.correlated; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.mark.slow
def test_the_wheel_holds_the_library_and_declares_its_dependencies(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("rmcore-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith("METADATA"))).decode()
    packages = {name.split("/")[0] for name in names if not name.startswith("rmcore-")}
    assert packages == {"rmcore"}, "only the library goes into the wheel"
    every = {str(path.parent.relative_to(ROOT)) for path in (ROOT / "rmcore").rglob("__init__.py")}
    held = {name.rpartition("/")[0] for name in names if name.endswith("/__init__.py")}
    assert every == held, f"subpackages missing from the wheel: {sorted(every - held)}"
    requires = sorted(
        re.split(r"[<>=!~ ;]", line.split(":", 1)[1].strip())[0]
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    )
    assert requires == ["numba", "numpy", "pandas", "scipy"]
    notebook = sorted(
        re.split(r"[<>=!~ ;]", line.split(":", 1)[1].strip())[0]
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and 'extra == "notebook"' in line
    )
    assert notebook == ["anywidget", "ipywidgets", "kaleido", "plotly"], "pip install 'rmcore[notebook]'"
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    runtime = (ROOT / "requirements.txt").read_text()
    for requirement in declared:  # the app's requirements include the library's, at the same versions
        assert requirement in runtime
