"""A family compiles in a process of its own, which ends with the process that asked for it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A parent that starts a compile on an empty numba cache (seconds of work), prints the compile's pid and waits.
PARENT = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-m", "rmcore._compile", "tree"])
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
