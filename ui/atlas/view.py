"""The atlas page's widgets and views: which results (the shipped atlas, or a sweep folder of the user's own), which
game, the measure (NashConv; for a general-sum matrix game also the CE and CCE gaps of the joint distribution of play),
its curves, and the runs ranked by iterations and by seconds to a chosen value of it, each with a link that opens its
run on the matrix or the tree page.

The results the user loaded stay in session state (``atlas_results``); a folder or zip that cannot be read leaves
them, and the chosen folder, as they were, with one sentence under the widget that says why.
"""

from __future__ import annotations

import functools
import json
import math
import urllib.parse

import pandas as pd
import streamlit as st

from .. import explain_atlas, state
from ..escape import markdown as escape
from . import data, figures, links
from . import state as atlas_state

#: How the ranking shows its numbers, and a number it does not have (a run that never reached the target), as the
#: atlas's own tables write it.
NUMBER_FORMATS = {
    "rank by iterations": "{:.0f}",
    "rank by seconds": "{:.0f}",
    "iterations": "{:.0f}",
    "seconds": "{:.3g}",
}
MISSING = "–"
#: The page's URL path (``app.py``): links to the other pages are made from the page's own address without it.
URL_PATH = "atlas"


@st.cache_data(show_spinner=False, max_entries=2)
def _shipped(stamp: float) -> tuple[pd.DataFrame, dict]:
    """The shipped atlas, read once per version of its file (``stamp``: its modification time)."""
    return data.shipped()


def results() -> tuple[pd.DataFrame, str] | None:
    """The results to show and a line saying where they come from; None (with the reason shown) if there are none."""
    sources = explain_atlas.SOURCES
    choice = st.radio("Results", list(sources), format_func=sources.get, key="atlas_source", horizontal=True)
    if choice == "shipped":
        try:
            frame, about = _shipped(data.SHIPPED.stat().st_mtime if data.SHIPPED.exists() else 0.0)
        except ValueError as error:
            st.error(explain_atlas.shipped_unreadable(error))
            return None
        return frame, explain_atlas.shipped(about)
    if choice == "folder":
        # Only the folders the operator offers, by name: nothing a visitor types or sends is read as a path.
        offered = data.offered()
        if not offered:
            st.info(explain_atlas.NO_FOLDERS)
        else:
            name = st.selectbox(
                explain_atlas.FOLDER_LABEL, list(offered), key="atlas_folder", help=explain_atlas.FOLDER_HELP
            )
            if st.button("Load the folder", key="atlas_load_folder"):
                _load(lambda: data.folder(name), f"the folder {name}")
    else:
        upload = st.file_uploader(
            explain_atlas.zip_label(data.ZIP_MEGABYTES),
            type="zip",
            key="atlas_zip",
            max_upload_size=data.ZIP_MEGABYTES,
        )
        if upload is not None and state.new_file("atlas_zip", (upload.file_id, upload.name)):
            _load(lambda: data.unzipped(upload.getvalue(), upload.name), f"{upload.name}")
    state.show("atlas_zip")
    loaded = st.session_state.atlas_results
    if loaded is None:
        st.info(explain_atlas.NOTHING_LOADED)
        return None
    return loaded


def _load(read, what: str) -> None:
    try:
        frame = read()
    except ValueError as error:
        state.say("atlas_zip", explain_atlas.not_loaded(error))
        return
    skipped = frame.attrs.get("skipped", ())
    if skipped:
        state.say("atlas_zip", explain_atlas.skipped(skipped), kind="warning")
    else:
        state.unsay("atlas_zip")
    runs = frame.cell.nunique()
    atlas_state.set_results(frame, explain_atlas.your_sweep(runs, what))


def game(frame: pd.DataFrame) -> str:
    """The game to show, by its label in the results."""
    offered = data.games(frame)
    atlas_state.ready_game_box(offered)
    return st.selectbox("Game", list(offered), format_func=offered.get, key="atlas_game")


def measure(frame: pd.DataFrame) -> str:
    """The measure the chart and the ranking show for one game: a choice of NashConv, CE gap and CCE gap for a
    general-sum matrix game (its runs hold all three); NashConv elsewhere, with a line that says why a zero-sum game
    has no CE or CCE gap."""
    offered = data.measures(frame)
    if len(offered) == 1:
        if (frame.family == "matrix").any():
            st.caption(explain_atlas.NO_GAPS)
        return data.MEASURE
    return st.radio(
        "Measure",
        list(offered),
        format_func=offered.get,
        key="atlas_measure",
        horizontal=True,
        help=explain_atlas.MEASURE_HELP,
    )


def chart(frame: pd.DataFrame, title: str, measure: str = data.MEASURE) -> None:
    """Every run's curve of ``measure``, average and last iterate (one line, that of the joint distribution of play,
    for a CE or CCE gap), against iterations or seconds."""
    x = st.radio(
        "x-axis",
        list(figures.X_AXES),
        format_func=lambda axis: "iterations" if axis == "iteration" else "seconds",
        key="atlas_x",
        horizontal=True,
        help=explain_atlas.SECONDS_HELP,
    )
    st.plotly_chart(figures.curves(frame, measure, x, title), key="atlas_chart", width="stretch")


def ranking(frame: pd.DataFrame, measure: str = data.MEASURE) -> None:
    """The runs ranked by the iterations and by the seconds they took to reach a chosen value of ``measure``, each
    with its link."""
    name = data.MEASURES[measure] if measure != data.MEASURE else measure
    left, right = st.columns(2)
    target = left.select_slider(
        f"Target {name}",
        data.TARGETS,
        value=1e-3,
        format_func=lambda value: f"{value:g}",
        key="atlas_target",
    )
    if measure == data.MEASURE:
        iterate = right.radio(
            "Of",
            ["average", "last"],
            format_func=lambda kind: "the average policy" if kind == "average" else "the last iterate",
            key="atlas_iterate",
            horizontal=True,
        )
        policy = "the average policy" if iterate == "average" else "the last iterate"
    else:  # (a gap of the joint distribution of play, which has no last iterate)
        iterate, policy = "average", "the joint distribution of play"
    table = data.ranking(frame, target, iterate, measure)
    base = _base_url()
    opened = [links.link(_spec(text)) for text in table.spec]
    shown = pd.DataFrame(
        {
            "rank by iterations": table["rank by iterations"],
            "rank by seconds": table["rank by seconds"],
            "run": table.run,
            "iterations": table.iterations,
            "seconds": table.seconds,
            f"final {name}": table.final,
            "open": [link.url(base) for link in opened],
        }
    )
    st.caption(explain_atlas.ranking(name, policy, target))
    # The numbers stay numbers (the columns sort as numbers); the Styler gives their shown text. A run that never got
    # there is infinitely far, shown as a dash: st.dataframe draws a missing number as "None" whatever text the Styler
    # gives it, while an infinite one takes the Styler's text, and sorts after every run that got there.
    for column in NUMBER_FORMATS:
        shown[column] = shown[column].fillna(math.inf)
    formats = NUMBER_FORMATS | {f"final {name}": "{:.2e}"}
    st.dataframe(
        shown.style.format({column: functools.partial(_number, form) for column, form in formats.items()}),
        hide_index=True,
        key="atlas_ranking",
        column_config={"open": st.column_config.LinkColumn(display_text="open on its page")},
    )
    closed = [f"{escape(run)}: {link.reason}" for run, link in zip(table.run, opened) if link.path is None]
    if closed:
        st.caption("No link for " + "; ".join(closed) + ".")


def _number(form: str, value: float) -> str:
    return form.format(value) if math.isfinite(value) else MISSING


def _spec(text: str) -> dict:
    return json.loads(text)


def _base_url() -> str:
    """The app's root URL, from this page's address (``http://host:8501/atlas`` -> ``http://host:8501/``)."""
    url = st.context.url or ""
    parts = urllib.parse.urlsplit(url)
    path = parts.path.rstrip("/")
    if path.endswith("/" + URL_PATH):
        path = path[: -len(URL_PATH) - 1]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path + "/", "", "")) if parts.netloc else "/"


def failures(frame: pd.DataFrame) -> None:
    """The runs of the results that failed, with their errors."""
    failed = frame[frame.status == "failed"].drop_duplicates("cell")
    if len(failed):
        with st.expander(f"{len(failed)} runs failed"):
            st.markdown("\n".join(f"- {escape(n)}: {escape(e)}" for n, e in zip(failed.name, failed.error)))


def where_from(text: str) -> None:
    st.caption(text)
