"""The load script's light client against a real server: a tab that closes lets go of its run.

Streamlit keeps a closed tab's session for ``server.disconnectedSessionTTL`` seconds; ``ui/sessions.py`` then shuts
the expired session down and empties it, so that neither its deferred downloads nor Streamlit's message loop (which
keeps the last session it flushed) hold its run.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from benchmarks.load import RUN, Session, governor_stats

from .browser import running_app


async def _wait_for(condition, timeout: float) -> bool:
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            return False
        await asyncio.sleep(0.1)
    return True


@pytest.mark.slow
def test_a_closed_tab_leaves_no_live_run_in_the_server(tmp_path, monkeypatch):
    stats = tmp_path / "governor.txt"
    monkeypatch.setenv("RM_GOVERNOR_STATS", str(stats))  # the server started below inherits it

    async def three_tabs_run_then_close(url: str) -> tuple[int, int | None]:
        clients = [Session(url) for _ in range(3)]
        for client in clients:
            await client.open()
        await asyncio.gather(*(client.press(RUN) for client in clients))
        assert await _wait_for(lambda: all(len(client.changes) >= 2 for client in clients), 60), (
            "the runs never advanced"
        )
        assert await _wait_for(lambda: (governor_stats(stats) or (0, 0, 0))[2] >= 3, 10)
        held = governor_stats(stats)[2]
        for client in clients:
            await client.close()
        await asyncio.sleep(2.0)  # past the sessions' time to live: expired ...
        later = Session(url)  # ... while a later tab opens and closes (the last session Streamlit flushed)
        await later.open()
        await later.close()
        await _wait_for(lambda: governor_stats(stats)[2] == 0, 30)  # (the reaper looks every 5 s)
        return held, governor_stats(stats)[2]

    with running_app(timeout=120, options=("--server.disconnectedSessionTTL", "1")) as url:
        held, after = asyncio.run(three_tabs_run_then_close(url))
    assert held >= 3  # every tab's matrix run was alive while it ran ...
    assert after == 0  # ... and none is held once their sessions expired, the later tab's included
