"""``live_chart``: a Plotly chart that is updated in place, for charts redrawn several times a second.

``st.plotly_chart`` creates the browser's plot afresh on every rerun, about 100 ms per chart on a
modest laptop, so four live charts managed two updates a second. This Streamlit component keeps
one plot per chart and hands each new figure to ``Plotly.react``, which redraws only what changed.

The component's page loads the plotly.js that ships inside the installed ``plotly`` package (so
the app works offline and the two always match); it is copied once, on the first chart drawn, next
to our two small files in a temporary directory that Streamlit serves.

Why not ``st.components.v2``: a v2 component can reference asset files only from an installed
package's declared ``asset_dir``; the app is run from a checkout (only ``rmcore`` is packaged), and
inlining the 4.6 MB plotly.js as a string would send it with the component. Version 1's
``declare_component(path=...)`` serves a directory, which is what this needs.
"""

from __future__ import annotations

import functools
import hashlib
import shutil
import tempfile
from pathlib import Path

import numpy as np
import orjson
import plotly
import plotly.graph_objects as go
import streamlit.components.v1 as components

from .charts import for_projector

_FRONTEND = Path(__file__).with_name("live_chart_frontend")
_PLOTLY_JS = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"


def _served_directory() -> Path:
    """Our frontend files plus plotly.min.js, in a directory named after their contents."""
    files = sorted(_FRONTEND.iterdir())
    digest = hashlib.sha256(plotly.__version__.encode())
    for path in files:
        digest.update(path.read_bytes())
    directory = Path(tempfile.gettempdir()) / f"rm-live-chart-{digest.hexdigest()[:16]}"
    if not (directory / "plotly.min.js").exists():
        staging = Path(tempfile.mkdtemp(prefix="rm-live-chart-"))
        for path in files:
            shutil.copy(path, staging / path.name)
        shutil.copy(_PLOTLY_JS, staging / "plotly.min.js")
        try:
            staging.rename(directory)
        except OSError:  # another process got there first with the same contents
            shutil.rmtree(staging, ignore_errors=True)
    return directory


@functools.lru_cache(maxsize=None)
def _component():
    """Declared on first use: nothing touches the file system when the module is imported."""
    return components.declare_component("live_chart", path=str(_served_directory()))


#: Paused charts are interactive: hover, zoom, and the image buttons (the component adds an SVG
#: download beside Plotly's PNG one). plotly.js 3 also offers to upload the chart to Plotly Cloud:
#: not from a classroom's page.
CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}, "modeBarButtonsToRemove": ["sendChartToCloud"]}
#: While a run is live, charts are static except the one under the pointer (the component makes that
#: one interactive): hover and zoom layers rebuilt on every update of every chart held the pages to
#: 3.0-3.5 updates a second instead of 4.2-7 (measured, pinned: README).
RUNNING_CONFIG = {**CHART_CONFIG, "staticPlot": True}


def live_chart(figure: dict | go.Figure, key: str, running: bool = False, projector: bool = False, every: float = 0.0) -> None:
    """Draw ``figure`` (a dict in Plotly's JSON schema, or a ``go.Figure``) under ``key``, static while ``running``
    (but for the chart under the pointer), restyled for a projector if ``projector``.

    Later calls with the same key update the same plot in place, keeping the user's zoom; ``every`` > 0 redraws
    it at most once every ``every`` seconds (the latest figure wins).
    """
    if isinstance(figure, go.Figure):
        figure = figure.to_plotly_json()
    if projector:
        figure = for_projector(figure)
    payload = {"figure": figure, "config": RUNNING_CONFIG if running else CHART_CONFIG, "every": every if running else 0.0}
    # One argument: Streamlit checks every argument of a component (is it a DataFrame?), about 0.2 ms an argument on
    # the server. A string, although Streamlit encodes it as JSON once more (0.2 ms a chart): bytes would skip that,
    # but the browser redraws a component only when its JSON arguments change, so a chart sent as bytes never updates.
    _component()(chart=figure_json(payload).decode(), key=key, default=None)


def figure_json(payload: dict) -> bytes:
    """``payload`` (figure dicts with numpy arrays) as JSON bytes, NaN as null.

    orjson directly: plotly's ``to_json(engine="orjson")`` first walks the whole figure to clean it, which took
    longer than the encoding itself (0.16 vs 0.09 ms for the strategy chart) and is needed only for types our
    figure builders never produce; those few go through ``default``.
    """
    return orjson.dumps(payload, default=_plain, option=orjson.OPT_SERIALIZE_NUMPY)


def _plain(value):
    """What orjson leaves to us: arrays it does not write natively (not C-contiguous, other dtypes) and numpy scalars."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} into a chart")
