"""How long a link may be: the longest address the app writes reaches a real server even when it arrives in small
pieces (as across a network), an address past the server's 16 KiB is refused by the server itself (what
docs/reference/share-links.md says) unless the app is served by ``uvicorn serve:app`` with a larger limit, and a link
whose value is longer than its key holds opens the page with a notice that names it."""

from __future__ import annotations

import socket
import time
import urllib.parse

import pytest

from tests.browser import chromium_page, require_chromium, running_app
from tests.visits import opened
from ui import link

pytestmark = pytest.mark.browser

#: What a browser sends beside the address (Chromium's headers and Streamlit's cookie), about 1.2 kB.
BROWSER_HEADERS = (
    "Host: {host}\r\n"
    "Connection: keep-alive\r\n"
    'sec-ch-ua: "Chromium";v="140", "Not=A?Brand";v="24"\r\n'
    "sec-ch-ua-mobile: ?0\r\n"
    'sec-ch-ua-platform: "Linux"\r\n'
    "Upgrade-Insecure-Requests: 1\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/140.0.0.0 Safari/537.36\r\n"
    "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
    "application/signed-exchange;v=b3;q=0.7\r\n"
    "Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-User: ?1\r\nSec-Fetch-Dest: document\r\n"
    "Accept-Encoding: gzip, deflate, br, zstd\r\n"
    "Accept-Language: en-GB,en;q=0.9,de;q=0.8,fr;q=0.7\r\n"
    "Cookie: _streamlit_xsrf=2|5c1f0a9b|8f3a1d2e4b5c6d7e8f9a0b1c2d3e4f5a|1764700000; "
    "rm_replica=0123456789abcdef0123456789abcdef\r\n"
    "\r\n"
)


def _status(url: str, target: str) -> int:
    """The HTTP status a server at ``url`` answers a GET of ``target`` with, the request sent in pieces of 1,000 bytes
    10 ms apart (so that the server reads it in many parts)."""
    address = urllib.parse.urlsplit(url)
    request = f"GET {target} HTTP/1.1\r\n{BROWSER_HEADERS.format(host=address.netloc)}".encode()
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        for start in range(0, len(request), 1000):
            connection.sendall(request[start : start + 1000])
            time.sleep(0.01)
        answer = connection.recv(200).decode("latin-1")
    return int(answer.split()[1])


@pytest.fixture(scope="module")
def app_url():
    with running_app() as url:
        yield url


def test_the_longest_link_the_app_writes_reaches_the_server_in_pieces(app_url):
    base = f"{app_url}/?preset=Rock-Paper-Scissors&matrix="
    value = "1" * (link.MAX_LINK_CHARS - len(base))
    target = f"/?preset=Rock-Paper-Scissors&matrix={value}"
    assert len(app_url) + len(target) == link.MAX_LINK_CHARS
    assert _status(app_url, target) == 200


def test_an_address_past_the_servers_16_kib_is_refused_before_the_app_sees_it(app_url):
    assert _status(app_url, "/?matrix=" + "1" * (16 * 1024)) == 400


def test_a_link_whose_matrix_is_a_200x200_games_length_opens_with_a_notice_naming_it():
    app = opened({"matrix": "1" * 185_000})
    assert not app.exception
    notice = " ".join(w.value for w in app.warning)
    assert "matrix" in notice and "185,000 characters long (at most 8,000)" in notice, notice


def test_served_by_uvicorn_a_200x200_games_link_opens_the_page_with_its_notice():
    """``serve.py`` under uvicorn with a larger parser limit: the same address, sent in pieces, reaches the app, and
    Chromium opens the page with the notice naming the value."""
    require_chromium()
    target = "/?matrix=" + "1" * 185_000
    with running_app(timeout=120, uvicorn=True, options=("--h11-max-incomplete-event-size", str(2**20))) as url:
        assert _status(url, target) == 200
        with chromium_page(1280, 720) as page:
            page.goto(url + target)
            page.get_by_text("185,000 characters long (at most 8,000)").wait_for(timeout=90_000)
