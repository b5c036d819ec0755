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
    assert isinstance(game, rmcore.NormalFormGame) and all(np.isfinite(u).all() for u in game.payoffs)


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


NFG_VALID = (
    'NFG 1 R "Asymmetric" { "Player 1" "Player 2" } { { "U" "D" } { "L" "C" "R" } }\n"a comment"\n\n'
    "1 10 4 40 2 20 5 50 3 30 6 60\n",
    'NFG 1 D "Pennies" { "1" "2" } { 2 2 }\n{ { "win" 1, -1 } { "loss" -1, 1 } }\n1 2 2 1\n',
)
#: The characters an .nfg file is made of, and a few that break it.
NFG_ALPHABET = st.sampled_from(list('NFGRD0123456789.,/-+eE {}"\\ \t\n\x00é'))


@st.composite
def mutated_nfg(draw):
    """A valid file with a few characters deleted, inserted or replaced."""
    text = draw(st.sampled_from(NFG_VALID))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        change = draw(st.sampled_from(["delete", "insert", "replace"]))
        new = draw(NFG_ALPHABET)
        if change == "delete":
            text = text[:at] + text[at + 1 :]
        elif change == "insert":
            text = text[:at] + new + text[at:]
        else:
            text = text[:at] + new + text[at + 1 :]
    return text


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        mutated_nfg(),
        st.text(max_size=200).map(lambda text: "NFG 1 R " + text),
        st.text(NFG_ALPHABET, max_size=200).map(lambda text: "NFG " + text),
        st.binary(max_size=200).map(lambda data: b"NFG 1 R " + data),
    )
)
def test_nfg_text_gives_a_game_or_a_value_error(source):
    try:
        game = rmcore.read_nfg(source)
    except ValueError:
        return
    assert isinstance(game, rmcore.NormalFormGame) and all(np.isfinite(u).all() for u in game.payoffs)
