"""Fuzzing the .efg reader: any text, and any mutation of a valid file, gives a TreeGame or a ValueError."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rmcore
from tests.test_efg import SMALL

VALID = [SMALL, rmcore.write_efg(rmcore.KUHN)]
PIECES = st.sampled_from(
    [
        '"',
        '\\"',
        "{",
        "}",
        ",",
        " ",
        "\n",
        "0",
        "1",
        "2",
        "3",
        "-1",
        "1/3",
        "1/0",
        "0.5",
        "1e999",
        "c",
        "p",
        "t",
        '""',
        '"x"',
        "EFG",
        "R",
        "\x00",
        "é",
    ]
)


def _read(text):
    try:
        game = rmcore.read_efg(text)
    except ValueError:
        return
    assert isinstance(game, rmcore.TreeGame) and np.isfinite(game.tree.payoff).all()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.lists(PIECES, max_size=80).map("".join)))
def test_any_text_gives_a_game_or_a_value_error(text):
    _read("EFG 2 R " + text)
    _read(('EFG 2 R "" { "A" "B" }\n' + text).encode())


@st.composite
def mutations(draw):
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["cut", "delete", "insert", "replace", "swap"]))
        if kind == "cut":
            text = text[:at]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif kind == "insert":
            text = text[:at] + draw(PIECES) + text[at:]
        elif kind == "replace":
            text = text[:at] + draw(PIECES) + text[at + 1 :]
        else:  # two lines change places
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_a_mutated_valid_file_gives_a_game_or_a_value_error(text):
    _read(text if text.lstrip().startswith("EFG") else "EFG " + text)
