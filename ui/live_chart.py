"""``live_chart``: a Plotly chart that is updated in place, for charts redrawn several times a second.

``st.plotly_chart`` creates the browser's plot afresh on every rerun, so four live charts on a modest
laptop managed two updates a second. This Streamlit component
(``st.components.v2``: drawn in the app's own page, no iframe) keeps one plot per chart and hands
each new figure to ``Plotly.react``, which redraws only what changed.

plotly.js is the copy inside the installed ``plotly`` package (so the app works offline and the two
always match), served by Streamlit's static file serving (``server.enableStaticServing``) and loaded
once per page for all its charts. A v2 component can name asset files only from an installed
package's declared ``asset_dir``, and the app runs from a checkout; so the file is copied, once, into
the app's ``static/`` folder under a name that carries its version.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import orjson
import plotly
import plotly.graph_objects as go
import streamlit as st

from rmcore.plotting.charts import for_projector

_FRONTEND = Path(__file__).with_name("live_chart_frontend") / "live_chart.js"
_PLOTLY_JS = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"
#: Streamlit serves the folder ``static`` beside the main script at ``app/static/``.
_STATIC = Path(__file__).resolve().parents[1] / "static"

#: What Streamlit sends with every update of every chart is this loader, not the component's code (10 kB): it imports
#: the code once from the static folder (the browser keeps the module), under a name that changes with its contents,
#: and tells it where plotly.js is. Both paths are from the app's root, found from Streamlit's own bundle script.
_LOADER = """
const bundle = document.querySelector('script[src*="static/js/index."]');
const root = bundle ? bundle.src.replace(/static\\/js\\/[^/]*$/, "") : document.baseURI;
export default async function (component) {
  const chart = await import(new URL("%(module)s", root).href);
  return chart.default(component, new URL("%(plotly)s", root).href);
}
"""


def _served(source: Path, name: str) -> str:
    """Copy ``source`` into the static folder as ``name`` if it is not there yet; its URL path from the app's root."""
    target = _STATIC / name
    if not target.exists():
        try:
            _STATIC.mkdir(exist_ok=True)
            handle, staging = tempfile.mkstemp(dir=_STATIC, prefix=".staging-")
            os.close(handle)
            shutil.copyfile(source, staging)
            os.replace(staging, target)  # atomic: another process copying at the same time writes the same bytes
        except OSError as error:
            raise RuntimeError(
                f"the charts need {name} in {_STATIC}, the folder Streamlit serves as static files, and it "
                f"cannot be written there ({error.strerror}); make that folder writable"
            ) from None
    return f"app/static/{name}"


@functools.cache
def _component():
    """Registered on first use: nothing touches the file system when the module is imported.

    ``isolate_styles=False``: plotly.js puts its style sheet (modebar, hover labels) in the page's head, which a
    shadow root would keep out.
    """
    digest = hashlib.sha256(_FRONTEND.read_bytes()).hexdigest()[:12]
    paths = {
        "module": _served(_FRONTEND, f"live_chart-{digest}.js"),
        "plotly": _served(_PLOTLY_JS, f"plotly-{plotly.__version__}.min.js"),
    }
    return st.components.v2.component("live_chart", js=_LOADER % paths, isolate_styles=False)


#: Paused charts are interactive: hover, zoom, and the image buttons (the component adds an SVG
#: download beside Plotly's PNG one). plotly.js 3 also offers to upload the chart to Plotly Cloud:
#: not from a classroom's page.
CHART_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["sendChartToCloud"],
}
#: While a run is live, charts are static except the one under the pointer (the component makes that
#: one interactive): hover and zoom layers rebuilt on every update of every chart hold the pages to
#: fewer updates a second, by a third or more (measured, server and browser pinned to a core each).
RUNNING_CONFIG = {**CHART_CONFIG, "staticPlot": True}


def live_chart(
    figure: dict | go.Figure,
    key: str,
    running: bool = False,
    projector: bool = False,
    every: float = 0.0,
    caption: str = "",
    clicks: str | None = None,
    on_click=None,
) -> None:
    """Draw ``figure`` (a dict in Plotly's JSON schema, or a ``go.Figure``) under ``key``, static while ``running``
    (but for the chart under the pointer), restyled for a projector if ``projector``, with ``caption`` (plain text)
    under it as ``st.caption`` would draw it.

    Later calls with the same key update the same plot in place, keeping the user's zoom; ``every`` > 0 redraws
    it at most once every ``every`` seconds (the latest figure wins). The caption is drawn by the chart itself
    because every element of a live panel is sent again on each update, at a cost to a class's server each.

    Traces whose ``meta`` is :data:`rmcore.plotting.space.FIELD` (the field under the strategy space: thousands of
    points that stay put) are drawn, while the chart is static, in a plot of their own under it, again only when their
    ``uid``, the theme, the size or the axes change; the chart above redraws the rest.

    ``clicks`` (``"square"`` or ``"ternary"``) makes a click on the plot report the point clicked, in data
    coordinates (``{"x", "y"}`` or ``{"a", "b", "c"}``), as the component's ``clicked`` value: ``on_click`` is called
    with it in ``st.session_state[key]["clicked"]``, before the script runs. Plotly reports clicks on data points only;
    the component reads the point under the pointer from the axes itself, so anywhere on the square or the triangle
    counts.
    """
    if clicks not in (None, "square", "ternary"):
        raise ValueError(f"clicks must be None, 'square' or 'ternary', not {clicks!r}")
    if isinstance(figure, go.Figure):
        figure = figure.to_plotly_json()
    if projector:
        figure = for_projector(figure)
    payload = {
        "figure": figure,
        "config": RUNNING_CONFIG if running else CHART_CONFIG,
        "every": every if running else 0.0,
        "caption": caption,
        "clicks": clicks,
    }
    callbacks = {} if on_click is None else {"on_clicked_change": on_click}
    # Bytes, passed through as they are: a dict would be encoded and hashed once more by Streamlit (as JSON, sorted).
    _component()(data=figure_json(payload), key=key, **callbacks)


def figure_json(payload: dict) -> bytes:
    """``payload`` (figure dicts with numpy arrays) as JSON bytes, NaN as null.

    orjson directly: plotly's ``to_json(engine="orjson")`` first walks the whole figure to clean it, which takes
    longer than the encoding itself (measured on the strategy chart) and is needed only for types our
    figure builders never produce; those few go through ``default``.
    """
    return orjson.dumps(payload, default=_plain, option=orjson.OPT_SERIALIZE_NUMPY)


def _plain(value):
    """What orjson leaves to us: arrays it does not write natively (not C-contiguous, other dtypes) and numpy
    scalars."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} into a chart")
