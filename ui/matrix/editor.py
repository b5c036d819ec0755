"""Editing a matrix game: drafts that hold whatever the user typed, and an explicit Apply.

A draft is text, cell by cell, so a half-typed or mistyped matrix stays on screen exactly as typed
while the last valid game keeps running. ``Draft.to_game`` turns it into a :class:`rmcore.MatrixGame`
or raises ``ValueError`` with a message that names the cell.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

import rmcore

from .. import explain_matrix

#: Largest game edited cell by cell; larger ones (up to UPLOAD_LIMIT) come from a CSV upload.
EDITOR_LIMIT = 10
UPLOAD_LIMIT = 200


def _format(value: float) -> str:
    return f"{value:g}"


def _table(values: np.ndarray) -> pd.DataFrame:
    rows, cols = values.shape
    return pd.DataFrame(
        [[_format(v) for v in row] for row in values], columns=[f"c{j}" for j in range(cols)], dtype="string"
    )


@dataclass(frozen=True)
class Draft:
    """What the editor shows: payoff cells as text, action names, and the zero-sum switch."""

    row_cells: pd.DataFrame
    col_cells: pd.DataFrame | None  # None when zero-sum
    row_names: tuple[str, ...]
    col_names: tuple[str, ...]
    version: int = 0  # part of the editor widgets' keys: a new version starts fresh editors

    @classmethod
    def from_game(cls, game: rmcore.MatrixGame, version: int = 0) -> Draft:
        col = None if game.is_zero_sum else _table(game.col_payoffs)
        return cls(_table(game.row_payoffs), col, game.row_actions, game.col_actions, version)

    @property
    def shape(self) -> tuple[int, int]:
        return self.row_cells.shape

    @property
    def zero_sum(self) -> bool:
        return self.col_cells is None

    def with_shape(self, rows: int, cols: int) -> Draft:
        """Add (zero-filled) or drop actions at the end."""
        if not (1 <= rows <= EDITOR_LIMIT and 1 <= cols <= EDITOR_LIMIT):
            raise ValueError(f"the editor holds 1 to {EDITOR_LIMIT} actions per player; upload a CSV for larger games")

        def resize(cells):
            values = cells.to_numpy(dtype=object)
            grown = np.full((rows, cols), "0", dtype=object)
            r, c = min(rows, values.shape[0]), min(cols, values.shape[1])
            grown[:r, :c] = values[:r, :c]
            return pd.DataFrame(grown, columns=[f"c{j}" for j in range(cols)], dtype="string")

        def names(old, count, prefix):
            kept, k = list(old[:count]), 1
            while len(kept) < count:  # new actions get the first free default name
                if f"{prefix}{k}" not in kept:
                    kept.append(f"{prefix}{k}")
                k += 1
            return tuple(kept)

        return replace(
            self,
            row_cells=resize(self.row_cells),
            col_cells=None if self.col_cells is None else resize(self.col_cells),
            row_names=names(self.row_names, rows, "R"),
            col_names=names(self.col_names, cols, "C"),
            version=self.version + 1,
        )

    def with_zero_sum(self, zero_sum: bool) -> Draft:
        """Switching zero-sum off starts the column player's matrix at -A (or 0 where A is not a number)."""
        if zero_sum == self.zero_sum:
            return self
        if zero_sum:
            return replace(self, col_cells=None, version=self.version + 1)
        negated = self.row_cells.apply(lambda column: column.map(_negate_text)).astype("string")
        return replace(self, col_cells=negated, version=self.version + 1)

    def to_game(
        self, row_cells: pd.DataFrame, col_cells: pd.DataFrame | None, row_names: str, col_names: str, name: str = ""
    ) -> rmcore.MatrixGame:
        """Validate what the user typed (cells and comma-separated names) into a game."""
        rows = _names(row_names, "row")
        cols = _names(col_names, "column")
        return rmcore.MatrixGame(
            _cells(row_cells, "row player's payoffs"),
            None if col_cells is None else _cells(col_cells, "column player's payoffs"),
            rows,
            cols,
            name=name,
        )


def _negate_text(text) -> str:
    try:
        return _format(-float(text))
    except (TypeError, ValueError):
        return "0"


def _names(text: str, who: str) -> list[str]:
    names = [part.strip() for part in str(text).split(",")]
    if not any(names):
        raise ValueError(f"{who} action names: give one name per action, separated by commas")
    return names


def _cells(cells: pd.DataFrame, what: str) -> list[list]:
    """The typed cells as they are (blank and missing cells become '' so the game names them)."""
    return [["" if pd.isna(cell) else str(cell).strip() for cell in row] for row in cells.itertuples(index=False)]


#: Largest CSV read, in megabytes (a 200x200 game of long numbers is well within it).
UPLOAD_MEGABYTES = 2
#: Largest file the uploader accepts, in megabytes. Streamlit refuses a larger one in the browser with a red chip and no
#: words, so it is set well above what is read: a file between the two gets a sentence that says why it was not loaded.
UPLOAD_ACCEPTED_MEGABYTES = 20


def game_from_csv(row_file: bytes, col_file: bytes | None, name: str) -> tuple[rmcore.MatrixGame, tuple[str, ...]]:
    """A game from uploaded CSV bytes (and an optional column-player CSV), at most UPLOAD_LIMIT per side, and the
    notes on what the reader assumed."""
    for data, what in ((row_file, "the CSV"), (col_file, "the column player's CSV")):
        if data is not None and len(data) > UPLOAD_MEGABYTES * 2**20:
            raise ValueError(f"{what} is {len(data) / 2**20:.1f} MB; at most {UPLOAD_MEGABYTES} MB is read")
    row = rmcore.parse_matrix_csv(_decode(row_file, "the CSV"), what="uploaded CSV")
    notes = row.notes
    col = None
    if col_file is not None:
        parsed = rmcore.parse_matrix_csv(_decode(col_file, "the column player's CSV"), what="column player's CSV")
        col = rmcore.aligned_column_payoffs(row, parsed)  # by the action names, when the file gives them
        notes = notes + tuple(f"column player's CSV: {note}" for note in parsed.notes)
    if max(row.matrix.shape) > UPLOAD_LIMIT:
        raise ValueError(
            f"the uploaded matrix is {row.matrix.shape[0]}x{row.matrix.shape[1]}; the page takes at most "
            f"{UPLOAD_LIMIT} actions per player"
        )
    return rmcore.MatrixGame(row.matrix, col, row.row_labels, row.col_labels, name=name), notes


#: The most joint actions of a game of three players or more the page takes from a file (each iteration passes over
#: all of them once per player).
PLAYER_PROFILE_LIMIT = 4096


def game_from_nfg(data: bytes, file_name: str) -> rmcore.NormalFormGame:
    """A game from an uploaded Gambit ``.nfg`` file of at most UPLOAD_MEGABYTES and UPLOAD_LIMIT actions per player
    (of three players or more, at most PLAYER_PROFILE_LIMIT joint actions), named by the file's title, or by the
    file's name when the title is empty."""
    if len(data) > UPLOAD_MEGABYTES * 2**20:
        raise ValueError(f"the file is {len(data) / 2**20:.1f} MB; at most {UPLOAD_MEGABYTES} MB is read")
    game = rmcore.read_nfg(data)
    size = "x".join(map(str, game.shape))
    if max(game.shape) > UPLOAD_LIMIT:
        raise ValueError(f"the game is {size}; the page takes at most {UPLOAD_LIMIT} actions per player")
    if game.num_players > 2 and math.prod(game.shape) > PLAYER_PROFILE_LIMIT:
        raise ValueError(
            f"the game is {size}, {math.prod(game.shape):,} joint actions; the page takes games of three players or "
            f"more of at most {PLAYER_PROFILE_LIMIT:,}"
        )
    return game if game.name else replace(game, name=file_name)


def nfg_file_name(game: rmcore.MatrixGame) -> str:
    """A file name for ``game`` as ``.nfg``: its name in letters, digits, dots, dashes and underscores."""
    stem = re.sub(r"[^\w.-]+", "-", game.name, flags=re.ASCII).strip("-.")
    return f"{stem or 'game'}.nfg"


def _decode(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{what} is not a UTF-8 text file") from None


# -- widgets --------------------------------------------------------------------------------


#: The editor's narrowest column, in pixels (Streamlit's "small"): room for a payoff such as -0.125.
CELL_WIDTH = 75
#: A column header's room besides its name: the edit icon and the padding either side, in pixels.
HEADER_EXTRA = 44
#: Widest column, in pixels: a name longer than fits is cut there (the names field above shows it whole).
HEADER_MOST = 320


def header_width(name: str) -> int:
    """The width, in pixels, of an editor column whose header shows ``name`` whole: the grid draws its headers on a
    canvas and cuts a name at the column's edge ("Scissor" at Streamlit's "small"). A character is taken at 10 px (the
    header's 14 px sans-serif runs 7-9 px for most letters, 11 for W and M), a wide East Asian one at 16.

    >>> header_width("Rock"), header_width("Scissors") > header_width("Rock")
    (84, True)
    """
    text = sum(16 if unicodedata.east_asian_width(c) in "WF" else 10 for c in str(name))
    return int(min(max(CELL_WIDTH, HEADER_EXTRA + text), HEADER_MOST))


def edit_cells(draft: Draft, which: str, label: str) -> pd.DataFrame:
    """One matrix as an editable grid of text cells; returns what is typed there now."""
    names = draft.row_names
    cells = draft.row_cells if which == "row" else draft.col_cells
    shown = cells.copy()
    shown.index = pd.Index(names, name="")
    config = {
        f"c{j}": st.column_config.TextColumn(name, width=header_width(name)) for j, name in enumerate(draft.col_names)
    }
    st.caption(label)
    edited = st.data_editor(
        shown, key=f"editor_{which}_{draft.version}", column_config=config, num_rows="fixed", width="content"
    )
    return edited.reset_index(drop=True)


def show_too_large(game: rmcore.MatrixGame) -> None:
    """The editor's place for a game larger than ``EDITOR_LIMIT`` (an uploaded CSV or .nfg): its sizes and action
    names, read-only, and why its cells are not shown. (A grid of 200x200 text cells would take the browser seconds
    on every rerun.)"""
    rows, cols = game.shape
    c1, c2, c3 = st.columns(3)
    c1.toggle("Zero-sum", value=game.is_zero_sum, disabled=True)
    c2.number_input("Row actions", value=float(rows), format="%g", disabled=True)
    c3.number_input("Column actions", value=float(cols), format="%g", disabled=True)
    st.text_input("Row action names (comma-separated)", ", ".join(game.row_actions), disabled=True)
    st.text_input("Column action names (comma-separated)", ", ".join(game.col_actions), disabled=True)
    st.caption(explain_matrix.too_large_to_edit(game.shape, EDITOR_LIMIT))
