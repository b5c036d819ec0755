"""Fuzz tests (hypothesis): every input route takes random text, numbers and files without letting an exception escape.

Routes: the CSV reader (library, upload and CLI), the in-place editor, a link's ``matrix`` parameter, the game
constructor and the exact LP on whatever it accepts, the command line, and a shared link opened in the app (where
the last valid game must stay loaded).
"""

import json
import math
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rmcore
from rmcore.__main__ import main
from ui import link
from ui.matrix.editor import Draft, game_from_csv

NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**20), 10**20),
    st.sampled_from([1e12, -1e12, 1e13, 1e308, 5e-324, 0.0]),
)
CELL_TEXT = st.one_of(
    NUMBERS.map(repr),
    NUMBERS.map(str),
    st.text(max_size=6),
    st.sampled_from(["", " ", "1,5", "nan", "inf", "-", "1e", "Rock"]),
)
SEPARATOR = st.sampled_from([",", ";", "\t", " ", "|"])


@st.composite
def table_texts(draw):
    """CSV-like text: a grid of random cells with a random separator, sometimes a header, sometimes ragged."""
    rows, cols, sep = draw(st.integers(0, 5)), draw(st.integers(1, 5)), draw(SEPARATOR)
    lines = [sep.join(draw(st.lists(CELL_TEXT, min_size=max(cols - 1, 1), max_size=cols + 1))) for _ in range(rows)]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


def _accepted_game_is_sound(game: rmcore.MatrixGame) -> None:
    assert np.isfinite(game.row_payoffs).all() and np.abs(game.row_payoffs).max() <= rmcore.config.MAX_PAYOFF
    if game.is_zero_sum:
        value = rmcore.solve_exactly(game).game_value  # the LP never fails on an accepted game
        assert math.isfinite(value)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.one_of(st.text(), table_texts()))
def test_the_csv_reader_and_the_game_accept_or_explain(text):
    try:
        parsed = rmcore.parse_matrix_csv(text)
        game = rmcore.MatrixGame(parsed.matrix, None, parsed.row_labels, parsed.col_labels)
    except ValueError as error:
        assert str(error)
        return
    _accepted_game_is_sound(game)


@FUZZ
@given(st.binary(max_size=300) | table_texts().map(str.encode), st.none() | table_texts().map(str.encode))
def test_an_upload_loads_or_says_why(row_file, col_file):
    try:
        game, notes = game_from_csv(row_file, col_file, "upload.csv")
    except ValueError as error:
        assert str(error)
        return
    assert all(isinstance(note, str) for note in notes)
    _accepted_game_is_sound(game)


@FUZZ
@given(
    st.lists(st.lists(CELL_TEXT, min_size=1, max_size=4), min_size=1, max_size=4),
    st.text(max_size=20),
    st.text(max_size=20),
)
def test_the_editor_accepts_or_explains(cells, row_names, col_names):
    import pandas as pd

    width = max(len(row) for row in cells)
    frame = pd.DataFrame([row + [""] * (width - len(row)) for row in cells], columns=[f"c{j}" for j in range(width)])
    draft = Draft.from_game(rmcore.preset("rps"))
    try:
        game = draft.to_game(frame, None, row_names, col_names)
    except ValueError as error:
        assert str(error)
        return
    _accepted_game_is_sound(game)


JSON = st.recursive(
    st.none() | st.booleans() | NUMBERS | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["A", "B", "rows", "cols", "name", "x"]) | st.text(max_size=4), inner, max_size=5
        )
    ),
    max_leaves=30,
)


@FUZZ
@given(st.one_of(st.text(), JSON.map(lambda value: json.dumps(value, allow_nan=True))))
def test_a_links_matrix_parameter_loads_or_says_why(text):
    try:
        game = link.game_from_param(text)
    except ValueError as error:
        assert str(error)
        return
    _accepted_game_is_sound(game)


ARGUMENT = st.one_of(
    st.sampled_from(
        [
            "solve",
            "race",
            "kuhn",
            "--game",
            "--matrix",
            "--col-matrix",
            "--iterations",
            "--algorithm",
            "--sampling",
            "--updates",
            "--averaging",
            "--seed",
            "--opponent",
            "--start",
            "--variants",
            "--seeds",
            "--json",
            "rps",
            "kuhn",
            "rm+",
            "sampled",
            "0.5,0.5",
            "1,0;0,1",
            "nau-2x2x2",
            "3:0.5,0.5",
            "1,0;0,1;1,1",
            "cfr+ · alternating",
            "rm · expected",
        ]
    ),
    st.integers(-3, 300).map(str),
    st.text(string.printable, max_size=10),
)


@settings(max_examples=120, deadline=None)
@given(st.lists(ARGUMENT, max_size=8), table_texts())
def test_the_command_line_answers_every_argument_list_with_a_result_or_a_message(tmp_path_factory, arguments, csv_text):
    path = tmp_path_factory.mktemp("fuzz") / "game.csv"
    path.write_text(csv_text, encoding="utf-8")
    if "--matrix" in arguments:  # the flag, then the random file
        k = arguments.index("--matrix")
        arguments.insert(k + 1, str(path))
    try:
        code = main(arguments)
    except SystemExit as exit_:  # argparse's --help and its own usage errors exit; they never print a traceback
        assert exit_.code in (0, 2)
        return
    assert code in (0, 2)


@pytest.mark.slow
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    st.dictionaries(
        st.sampled_from(
            ["preset", "matrix", "run_to", "algorithm", "seed", "param_rps-crash_x", "race_variants", "present"]
        ),
        st.text(max_size=30) | JSON.map(json.dumps),
        max_size=4,
    )
)
def test_a_hostile_link_opens_the_app_with_a_valid_game(params):
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file("../app.py", default_timeout=120)
    app.query_params.update(params)
    app.run()
    assert not app.exception
    assert isinstance(app.session_state.game, rmcore.MatrixGame)
    _accepted_game_is_sound(app.session_state.game)
