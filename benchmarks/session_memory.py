"""What a server keeps after a class's tabs close: its memory before, with twenty Leduc races running (the heaviest
link the tree page takes, 48 runs each) beside ten running matrix pages (their export buttons registered), and once
they have closed and their reconnect window has ended.

    python -m benchmarks.session_memory                     # 20 + 10 sessions, a reconnect window of 10 s
    python -m benchmarks.session_memory --sessions 30 --matrix 30 --ttl 120

Printed and written to ``docs/performance/session_memory.json``: the server's resident memory (RSS) at each stage,
and the live runs it still holds at the end (the governor counts them). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

from benchmarks import results
from benchmarks.load import HEAVIEST_LINK, RUN, Session, _memory_mb, governor_stats
from tests.browser import running_app, server_pid


async def _measure(url: str, pid: int, sessions: int, matrix: int, seconds: float, ttl: float, stats: Path) -> dict:
    # One tab of each kind opened and closed first: the server has imported, compiled, loaded, cached and drawn
    # everything once (both kernel families, the Leduc game and its exact answer).
    for first in (Session(url), Session(url, HEAVIEST_LINK[1], HEAVIEST_LINK[0])):
        await first.open()
        await asyncio.sleep(seconds)
        await first.close()
    await asyncio.sleep(ttl + 15.0)
    before = _memory_mb(pid)
    clients = [Session(url, HEAVIEST_LINK[1], HEAVIEST_LINK[0]) for _ in range(sessions)]
    pages = [Session(url) for _ in range(matrix)]
    for client in clients + pages:
        await client.open()
    await asyncio.gather(*(page.press(RUN) for page in pages))
    await asyncio.sleep(seconds)
    clients += pages
    running = _memory_mb(pid)
    for client in clients:
        await client.close()
    await asyncio.sleep(ttl + 15.0)  # the reconnect window, and the reaper's next look
    after = _memory_mb(pid)
    runs = (governor_stats(stats) or (0, 0.0, None))[2]
    return {"before_mb": before, "running_mb": running, "after_mb": after, "live_runs_after": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20, help="tabs opening the heaviest Leduc link")
    parser.add_argument("--matrix", type=int, default=10, help="tabs running the matrix page beside them")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the races run")
    parser.add_argument("--ttl", type=float, default=10.0, help="the server's disconnectedSessionTTL, in seconds")
    arguments = parser.parse_args()
    stats = Path(tempfile.mkdtemp(prefix="rm-memory-")) / "governor.txt"
    os.environ["RM_GOVERNOR_STATS"] = str(stats)  # (the server started below inherits it)
    options = (f"--server.disconnectedSessionTTL={arguments.ttl:g}",)
    with running_app(timeout=120, options=options) as url:
        measured = _measure(
            url, server_pid(url), arguments.sessions, arguments.matrix, arguments.seconds, arguments.ttl, stats
        )
        result = asyncio.run(measured)
    rows = [
        results.Row("memory_before_sessions", "server memory before the sessions", result["before_mb"], "MB"),
        results.Row(
            "memory_sessions_running",
            f"server memory with {arguments.sessions} Leduc races and {arguments.matrix} matrix pages running",
            result["running_mb"],
            "MB",
        ),
        results.Row(
            "memory_after_sessions",
            f"server memory once they closed and their window ({arguments.ttl:g} s) ended",
            result["after_mb"],
            "MB",
            target="within 100 MB of before",
            met=result["after_mb"] <= result["before_mb"] + 100,
        ),
        results.Row(
            "live_runs_after_sessions",
            "live runs the server holds once they closed and their window ended",
            float(result["live_runs_after"] or 0),
            "runs",
            target="0 runs",
            met=not result["live_runs_after"],
        ),
    ]
    command = (
        f"python -m benchmarks.session_memory --sessions {arguments.sessions} --matrix {arguments.matrix} "
        f"--ttl {arguments.ttl:g}"
    )
    print(f"written to {results.write('session_memory', rows, command)}")
    print(
        f"server memory: {result['before_mb']:.0f} MB before, {result['running_mb']:.0f} MB with {arguments.sessions} "
        f"Leduc races and {arguments.matrix} matrix pages running, {result['after_mb']:.0f} MB once they closed and "
        f"their window ({arguments.ttl:g} s) ended; live runs still held: {result['live_runs_after']}"
    )


if __name__ == "__main__":
    main()
