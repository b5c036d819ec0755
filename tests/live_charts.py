"""What a page's live charts were sent, read from an AppTest run: the figure, the config and the caption of each."""

from __future__ import annotations

import json


def live_charts(app) -> list[dict]:
    """The payload of every live chart on the page, in page order (``ui.live_chart`` sends it as JSON bytes)."""
    return [
        json.loads(element.proto.bytes)
        for element in app.get("bidi_component")
        if element.proto.component_name == "live_chart"
    ]


def captions(app) -> str:
    """Every caption on the page, those the live charts draw under themselves included, joined by spaces."""
    return " ".join([c.value for c in app.caption] + [chart["caption"] for chart in live_charts(app)])
