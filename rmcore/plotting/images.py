"""Figures drawn as images by kaleido (Plotly's static export), which renders the figure dicts in a headless Chrome or
Chromium: a PNG, SVG or PDF per figure, every figure of a call in one browser session.

Kaleido looks for a browser itself; ``BROWSER_PATH`` (kaleido's and choreographer's documented variable) points it at
one, and :data:`BROWSERS` are tried when it is unset (Debian's ``/usr/bin/chromium``). kaleido is imported on first
use: the figures need numpy alone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
from pathlib import Path

#: Browsers tried, in order, when ``BROWSER_PATH`` is unset (kaleido then searches the usual names on the PATH).
BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
#: A drawing's size by default: a 1280x720 slide.
SIZE = (1280, 720)
#: Kaleido tabs drawing frames at once: two, as many as the cores of the machine this was measured on (one tab drew
#: 300 frames in nearly twice the time two did there).
TABS = 2


def browser_path() -> str | None:
    """The browser kaleido is given: ``BROWSER_PATH`` if set, else the first of :data:`BROWSERS` that exists (None:
    kaleido searches the PATH itself)."""
    given = os.environ.get("BROWSER_PATH")
    if given:
        return given
    return next((path for path in BROWSERS if Path(path).exists()), None)


def session_options(count: int) -> dict:
    """Kaleido's options for a session drawing ``count`` figures: its tabs, no MathJax, the browser found."""
    options = dict(n=max(1, min(TABS, count)), mathjax=False)  # MathJax would come from the internet
    browser = browser_path()
    if browser is not None:
        options["path"] = browser
    return options


async def _render(figures_: list[dict], format_: str, sizes: list[tuple[int, int]]) -> list[bytes]:
    import kaleido  # (imported on first use: the page loads without it)

    async with kaleido.Kaleido(**session_options(len(figures_))) as session:  # one browser for every figure
        return await asyncio.gather(
            *(
                session.calc_fig(figure, opts=dict(format=format_, width=width, height=height))
                for figure, (width, height) in zip(figures_, sizes)
            )
        )


def run_to_end(coroutine):
    """Run ``coroutine`` to its end from code that is not async (a script, Streamlit, or a notebook's running loop)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no event loop here (a script, Streamlit): run one
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # inside a running loop (a notebook): run it beside
        return pool.submit(asyncio.run, coroutine).result()


def render(figures_: list[dict], format_: str = "png", size: tuple[int, int] = SIZE) -> list[bytes]:
    """Each figure drawn by kaleido as ``format_`` (png, svg, pdf...) at ``size`` pixels, in one browser session."""
    return render_each(figures_, [size] * len(figures_), format_)


def render_each(figures_: list[dict], sizes, format_: str = "png") -> list[bytes]:
    """Each figure drawn by kaleido as ``format_`` at its own size (``sizes``: a ``(width, height)`` per figure), in
    one browser session."""
    sizes = [checked_size(size) for size in sizes]
    if len(sizes) != len(figures_):
        raise ValueError(f"one size per figure: {len(figures_)} figures, {len(sizes)} sizes")
    return run_to_end(_render(figures_, format_, sizes))


def checked_size(size) -> tuple[int, int]:
    """``size`` as whole pixels ``(width, height)``, from 16x16 to 3840x2160; ``ValueError`` otherwise."""
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height) in pixels, got {size!r}") from None
    if not (16 <= width <= 3840 and 16 <= height <= 2160) or (width, height) != tuple(size):
        raise ValueError(f"size must be whole pixels from 16x16 to 3840x2160, got {size!r}")
    return width, height
