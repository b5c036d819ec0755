"""JupyterLab on 127.0.0.1 for the notebook browser tests: a server of its own (its own settings, runtime and kernel
files in a temporary folder, so a developer's Jupyter set-up never changes what the test sees), and the steps a user
takes in it: open a notebook, run every cell, read the Plotly charts the cells drew."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .browser import _free_port, wait_until_answering

#: JupyterLab asks a first-time user whether to fetch Jupyter's news, in a toast over the notebook; a test (on a
#: machine with no network) answers no in advance through the user settings. JupyterLab also skips drawing the cells
#: outside the window (its notebook "windowing mode"), which leaves an output's chart half-made when the browser is
#: slow; the tests ask for every cell to be drawn, so what they read never depends on where the notebook is scrolled.
_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def require_jupyterlab() -> None:
    """Skip the calling test when JupyterLab is missing, or fail it on CI (where requirements-dev.txt installs it)."""
    import pytest

    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("JupyterLab is not installed (pip install -r requirements-dev.txt)")


@contextlib.contextmanager
def running_jupyterlab(notebooks: list[Path], timeout: float = 90.0, cpus: str | None = None):
    """Start JupyterLab (and so its kernels; pinned to ``cpus`` with taskset, if given) over a temporary folder
    holding copies of ``notebooks``; yield ``(url, folder)``."""
    folder = Path(tempfile.mkdtemp(prefix="rmcore-jupyterlab-"))
    home = folder / ".jupyter-home"
    for name, settings in _USER_SETTINGS.items():
        target = home / "settings" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(settings))
    for notebook in notebooks:
        shutil.copy(notebook, folder / notebook.name)
    port = _free_port()
    environment = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        # The kernel imports this checkout's rmcore, as a notebook beside the repository would.
        "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]),
    }
    pin = ["taskset", "-c", cpus] if cpus else []
    server = subprocess.Popen(
        [
            *pin,
            sys.executable,
            "-m",
            "jupyterlab",
            "--allow-root",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={folder}",
            f"--LabApp.user_settings_dir={home / 'settings'}",
            f"--LabApp.workspaces_dir={home / 'workspaces'}",
        ],
        cwd=folder,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(f"{url}/api/status", server, timeout, "JupyterLab")
        yield url, folder
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


def open_notebook(page, url: str, name: str, timeout: float = 90.0) -> None:
    """Open ``name`` in JupyterLab and wait until its kernel is idle (ready to run cells)."""
    page.goto(f"{url}/lab/tree/{name}")
    page.locator(".jp-Notebook").wait_for(timeout=timeout * 1000)
    page.get_by_text("| Idle").first.wait_for(timeout=timeout * 1000)


def run_all_cells(page) -> None:
    """Run every cell, as the menu's Run > Run All Cells does."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


#: Number of points of every trace of every Plotly chart on the page, chart by chart.
TRACE_LENGTHS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(
    chart => (chart._fullData || []).map(trace => (trace.x || []).length))"""


#: The last iteration drawn on the page's first chart (the Kuhn view's NashConv against iterations).
LAST_ITERATION_JS = """() => {
    const chart = document.querySelector('.js-plotly-plot');
    if (!chart || !chart._fullData) return null;
    const ends = chart._fullData.filter(t => t.x && t.x.length).map(t => Number(t.x[t.x.length - 1]));
    return ends.length ? Math.max(...ends) : null;
}"""


def last_iteration(page) -> float | None:
    """The last iteration drawn on the page's first chart, or None before it has curves."""
    try:
        return page.evaluate(LAST_ITERATION_JS)
    except Exception:  # noqa: BLE001  (the output area re-rendering between asking and answering)
        return None


def wait_for(condition, timeout: float, what: str, seen=None) -> None:
    """Wait until ``condition()`` holds, or fail saying ``what`` never happened (and what ``seen()`` then returns:
    the state that tells a failure on a loaded machine from a broken page)."""
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            state = f"; seen: {seen()}" if seen is not None else ""
            raise AssertionError(f"{what} within {timeout:.0f} s{state}")
        time.sleep(0.25)


def page_state(page) -> dict:
    """What a failed wait reports: each chart's trace lengths, the kernel's status and any error output."""
    try:
        return {
            "trace lengths": page.evaluate(TRACE_LENGTHS_JS),
            "kernel idle": page.get_by_text("| Idle").count() > 0,
            "error outputs": page.locator(
                ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
            ).all_inner_texts(),
        }
    except Exception as error:  # noqa: BLE001  (the page itself gone: say so)
        return {"page": repr(error)}
