"""The atlas page's own results, against a real server (``streamlit run`` on ``RMCORE_TEST_PORTS``) in Debian's
chromium: the folders the server offers are picked by name and no path of the server's shows, and a zip bomb uploaded
is refused with its sentence while the server's memory stays where it was and the server goes on answering."""

from __future__ import annotations

import io
import os
import urllib.request
import zipfile
from pathlib import Path

import pytest

from rmcore.sweep import run_sweep
from ui.atlas import data

from .browser import CHROMIUM, chromium_page, running_app, wait_until_idle

pytestmark = pytest.mark.browser


def _peak_megabytes(pid: int) -> float:
    """The process's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def _server_pid() -> int:
    import psutil

    (server,) = [p for p in psutil.Process().children() if "streamlit" in " ".join(p.cmdline())]
    return server.pid


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run must apt-get install it")
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    root = tmp_path_factory.mktemp("offered")
    grid = {"iterations": 10, "games": [{"game": "kuhn"}], "algorithms": [{"tree": "cfr"}, {"tree": "cfr+"}]}
    run_sweep(grid, root / "poker", workers=0)
    old = os.environ.get(data.FOLDERS_VARIABLE)
    os.environ[data.FOLDERS_VARIABLE] = str(root)  # (the server started below inherits it)
    try:
        with running_app(timeout=180) as url:
            yield url, root
    finally:
        if old is None:
            os.environ.pop(data.FOLDERS_VARIABLE, None)
        else:
            os.environ[data.FOLDERS_VARIABLE] = old


def _open_source(page, url: str, source: str) -> None:
    page.goto(f"{url}/atlas", timeout=120_000)
    page.get_by_text(source).wait_for(timeout=120_000)
    wait_until_idle(page)
    page.get_by_text(source).click()
    wait_until_idle(page)


def test_the_served_page_offers_its_folders_by_name_and_shows_no_server_path(served):
    url, root = served
    with chromium_page(1280, 900) as page:
        _open_source(page, url, "A sweep folder on this server")
        page.get_by_role("button", name="Load the folder").click(timeout=60_000)
        page.get_by_text("Who gets there first").wait_for(timeout=60_000)
        wait_until_idle(page)
        text = page.inner_text("body")
    assert f"{root.name}/poker" in text and "Your sweep: 2 runs" in text
    assert str(root) not in text and str(Path.home()) not in text


def test_a_zip_bomb_uploaded_to_the_served_page_is_refused_in_bounded_memory(served):
    url, _ = served
    buffer, zeros = io.BytesIO(), bytes(2**20)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("results/bomb.parquet", "w", force_zip64=True) as member:
            member.write(data.PARQUET_MAGIC)
            for _ in range(400):
                member.write(zeros)
    bomb = buffer.getvalue()
    pid = _server_pid()
    with chromium_page(1280, 900) as page:
        _open_source(page, url, "A sweep folder as a zip")
        before = _peak_megabytes(pid)
        page.locator("input[type=file]").set_input_files(
            files=[{"name": "bomb.zip", "mimeType": "application/zip", "buffer": bomb}]
        )
        page.get_by_text("unpacks to more than").wait_for(timeout=120_000)
        shown = page.inner_text("body")
    after = _peak_megabytes(pid)
    assert "Not loaded: bomb.parquet in bomb.zip unpacks to more than 100 MB" in shown
    assert after - before < 200, f"the server's peak memory grew by {after - before:.0f} MB for a 400 MB member"
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as answer:
        assert answer.status == 200
