"""Every uploader of both pages states a small limit of its own, and nginx (deploy/nginx.conf) admits the largest."""

from __future__ import annotations

import re
from pathlib import Path

from tests.visits import opened
from ui import link
from ui.matrix.editor import UPLOAD_ACCEPTED_MEGABYTES
from ui.trees.games import EFG_ACCEPTED_MEGABYTES

NGINX = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"


def _uploaders(app) -> list:
    """Every file uploader on the page, as AppTest keeps it (an element it has no class for)."""
    found = []

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None and type(proto).__name__ == "FileUploader":
            found.append(proto)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(app._tree)
    return found


def _megabytes(size: str) -> float:
    number, unit = re.fullmatch(r"(\d+)([kKmMgG]?)", size).groups()
    return int(number) / {"": 2**20, "k": 1024, "m": 1, "g": 1 / 1024}[unit.lower()]


def test_nginx_admits_the_largest_upload_the_app_accepts():
    sizes = re.findall(r"^\s*client_max_body_size\s+(\S+);", NGINX.read_text(), flags=re.MULTILINE)
    assert len(sizes) == 1
    largest = max(EFG_ACCEPTED_MEGABYTES, UPLOAD_ACCEPTED_MEGABYTES, link.SETUP_ACCEPTED_MEGABYTES)
    assert _megabytes(sizes[0]) > largest, "a multipart upload is the file and a few hundred bytes more"


def test_every_uploader_states_its_limit_and_none_takes_streamlits_200_mb():
    app = opened()
    matrix = _uploaders(app)
    app.switch_page("app_pages/trees.py").run()
    app.segmented_control(key="kuhn_game").set_value("efg").run()
    tree = _uploaders(app)
    uploaders = matrix + tree
    assert {u.id.split("-")[-1] for u in uploaders} >= {"upload_row", "upload_col", "upload_nfg", "matrix_load_setup"}
    for uploader in uploaders:
        assert 1 <= uploader.max_upload_size_mb <= EFG_ACCEPTED_MEGABYTES, uploader.label
        assert re.search(r"at most \d+ (MB|kB)", uploader.label), uploader.label
    setups = [u for u in uploaders if u.id.endswith("_load_setup")]
    assert setups and all(u.max_upload_size_mb == link.SETUP_ACCEPTED_MEGABYTES == 1 for u in setups)
    assert all(f"at most {link.SETUP_ACCEPTED_MEGABYTES} MB" in u.label for u in setups)
    assert link.MAX_SETUP_BYTES == link.SETUP_ACCEPTED_MEGABYTES * 2**20  # (what the uploader counts as its MB)
