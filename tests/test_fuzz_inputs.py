"""Fuzzing the readers of what users hand over: any text gets a game or a ValueError, never another exception."""

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rmcore
from rmcore.inputs import loads_json

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**60), 10**60) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=5),
    max_leaves=40,
)
SPEC_KEYS = st.sampled_from(["A", "B", "rows", "cols", "name", "start", "other"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(max_size=300), JSON_VALUES.map(json.dumps), st.dictionaries(SPEC_KEYS, JSON_VALUES).map(json.dumps)
    )
)
def test_a_matrix_link_parameter_gives_a_game_or_a_value_error(text):
    from ui import link

    try:
        game = link.game_from_param(text)
    except ValueError:
        return
    assert isinstance(game, rmcore.MatrixGame) and np.isfinite(game.row_payoffs).all()


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=200), JSON_VALUES.map(json.dumps), st.integers(1, 5000).map(lambda n: "[" * n + "]" * n))
)
def test_json_from_a_user_is_read_or_refused_with_a_value_error(text):
    try:
        loads_json(text, "it")
    except ValueError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('0123456789.,;-+eE \t\n#"abcx−')), max_size=200))
def test_csv_text_gives_a_matrix_or_a_value_error(text):
    try:
        parsed = rmcore.parse_matrix_csv(text)
        game = rmcore.MatrixGame(parsed.matrix, None, parsed.row_labels, parsed.col_labels)
    except ValueError:
        return
    assert np.isfinite(game.row_payoffs).all() and game.row_payoffs.size > 0
