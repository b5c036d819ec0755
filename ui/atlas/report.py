"""The atlas's figures for the docs: ``python -m ui.atlas.report`` draws, for every game in the atlas's data file
(``docs/performance/atlas.parquet``, written by ``python -m rmcore atlas``), the page's own figure as an SVG (for a
general-sum game also its CE gap's and its CCE gap's), named as ``atlas.md`` shows it (``rmcore.atlas.figure_name``).
Kaleido renders them (with the machine's Chromium).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import plotly.graph_objects as go

from rmcore.atlas import figure_name, has_gaps

from . import data, figures

#: The figures' size in pixels: the docs' content column, and room for a legend of a dozen algorithms on the right.
WIDTH, HEIGHT = 1100, 560


def write(frame, folder: Path) -> list[Path]:
    """One SVG per game of ``frame`` into ``folder`` (its NashConv), and for a general-sum game one for each gap of the
    joint distribution of play; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game, title in data.games(frame).items():
        of_game = frame[frame.game == game]
        for measure in data.MEASURES if has_gaps(of_game) else [data.MEASURE]:
            spec = figures.curves(of_game, measure, "iteration", title)
            path = folder / figure_name(game, measure)
            go.Figure(spec).write_image(path, format="svg", width=WIDTH, height=HEIGHT)
            written.append(path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.atlas.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(data.SHIPPED), help="the atlas's data file (default: the shipped one)")
    parser.add_argument("--out", help="the figures' folder (default: atlas/ beside the data file)")
    args = parser.parse_args(argv)
    path = Path(args.data)
    data.SHIPPED = path
    try:
        frame, _ = data.shipped()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    written = write(frame, Path(args.out) if args.out else path.parent / "atlas")
    print(f"wrote {len(written)} figures into {written[0].parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
