"""A family compiles in a process of its own, which ends with the process that asked for it."""

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A parent that starts a compile on an empty numba cache (seconds of work), naming itself as the server does
# (rmcore._runtime), prints the compile's pid and waits.
PARENT = """
import os, subprocess, sys
env = dict(os.environ, RMCORE_COMPILE_PARENT=str(os.getpid()))
child = subprocess.Popen([sys.executable, "-m", "rmcore._compile", "tree"], env=env)
print(child.pid, flush=True)
child.wait()
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_compile_whose_server_is_killed_stops_too(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        time.sleep(1.5)  # into the compile
        assert _alive(child)
        parent.send_signal(signal.SIGKILL)  # as a server stopped hard: no chance to clean up
        parent.wait(10)
        deadline = time.time() + 5
        while _alive(child) and time.time() < deadline:
            time.sleep(0.1)
        assert not _alive(child), "the compile outlived the process that asked for it"
    finally:
        parent.kill()


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:  # (a thread that ended meanwhile)
            pass
    return found


def _compiles_of(server: subprocess.Popen, timeout: float = 120.0) -> list[int]:
    """The compile processes the server started once a page was opened (a light client opens it, as a tab does)."""
    import asyncio

    from benchmarks.load import Session

    url = f"http://127.0.0.1:{server.port}"
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                break
        except OSError:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.3)

    async def open_and_close():
        tab = Session(url)
        await tab.open()
        await tab.close()

    asyncio.run(open_and_close())
    while not (
        found := [p for p in _children(server.pid) if "rmcore._compile" in Path(f"/proc/{p}/cmdline").read_text()]
    ):
        assert time.time() < deadline, "no compile started"
        time.sleep(0.2)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("whole_group", [True, False], ids=["group", "server alone"])
def test_a_server_stopped_mid_compile_stops_quietly_and_takes_its_compiles_along(tmp_path, whole_group):
    """SIGTERM to the server's process group (a service manager, Ctrl-C's SIGINT alike) or to the server alone, while
    both families compile on an empty numba cache: nothing on stderr but Streamlit's own start line, no traceback, and
    no compile left running."""
    from tests.browser import _free_port

    port = _free_port()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    command += ["--server.address", "127.0.0.1", "--server.port", str(port)]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    server.port = port
    try:
        compiles = _compiles_of(server)
        time.sleep(1.0)  # into the compiles
        assert all(_alive(pid) for pid in compiles)
        if whole_group:
            os.killpg(server.pid, signal.SIGTERM)
        else:
            server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=60)
        deadline = time.time() + 10
        while any(_alive(pid) for pid in compiles) and time.time() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in compiles), "a compile outlived its server"
        assert "Traceback" not in stderr and "failed" not in stderr and "stopped" not in stderr, stderr
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)


def test_compile_all_on_a_warm_cache_says_so_and_compiles_nothing():
    """The README's compile step run again (the families in numba's cache, as the tests' first import left them): a
    line for each, no compile process, status 0."""
    import rmcore  # noqa: F401 - (this process loads or compiles both families into the worktree's cache first)
    from rmcore import _runtime

    _runtime.prepare_kernels()
    done = subprocess.run(
        [sys.executable, "-m", "rmcore._compile", "all"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "the matrix kernels are compiled already (numba's cache)",
        "the tree kernels are compiled already (numba's cache)",
    ]


def test_compile_refuses_what_it_does_not_know_in_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "rmcore._compile", "all", "extra"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2 and done.stderr.strip() == "usage: python -m rmcore._compile matrix|tree|all"
