"""Gambit .nfg files: both versions read, the profile order, exact numbers, one-sentence errors, and round trips."""

import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rmcore
from rmcore import MatrixGame, config, read_nfg, write_nfg

#: An asymmetric 2x3 game whose twelve payoffs all differ, so that a cell read into the wrong place shows.
A = [[1, 2, 3], [4, 5, 6]]
B = [[10, 20, 30], [40, 50, 60]]
# Profiles with player 1's strategy changing fastest: (U,L) (D,L) (U,C) (D,C) (U,R) (D,R).
PAYOFF_VERSION = """NFG 1 R "Asymmetric" { "Player 1" "Player 2" } { { "U" "D" } { "L" "C" "R" } }
"a comment"

1 10 4 40 2 20 5 50 3 30 6 60
"""
OUTCOME_VERSION = """NFG 1 R "Asymmetric, outcomes" { "Player 1" "Player 2" }

{ { "U" "D" }
{ "L" "C" "R" }
}
""

{
{ "ul" 1, 10 }
{ "dl" 4, 40 }
{ "uc" 2, 20 }
{ "dc" 5, 50 }
{ "ur" 3, 30 }
{ "dr" 6, 60 }
}
1 2 3 4 5 6
"""


def same_game(a: MatrixGame, b: MatrixGame) -> bool:
    """Equal to the bit: payoffs (as raw doubles, so that -0.0 differs from 0.0), names and kind."""
    return (
        a.row_payoffs.tobytes() == b.row_payoffs.tobytes()
        and a.col_payoffs.tobytes() == b.col_payoffs.tobytes()
        and a.row_actions == b.row_actions
        and a.col_actions == b.col_actions
        and a.is_zero_sum == b.is_zero_sum
    )


def test_the_payoff_version_puts_each_profile_in_its_cell():
    game = read_nfg(PAYOFF_VERSION)
    assert game.row_payoffs.tolist() == A and game.col_payoffs.tolist() == B
    assert game.row_actions == ("U", "D") and game.col_actions == ("L", "C", "R")
    assert game.name == "Asymmetric" and game.description == "a comment" and not game.is_zero_sum


def test_the_outcome_version_gives_the_same_game():
    game = read_nfg(OUTCOME_VERSION)
    assert game.row_payoffs.tolist() == A and game.col_payoffs.tolist() == B
    assert game.col_actions == ("L", "C", "R") and game.description == ""


def test_gambits_own_example_with_strategy_counts():
    # Gambit's documentation's payoff-version example: 3 strategies for player 1, 2 for player 2.
    game = read_nfg(
        'NFG 1 R "Selten (IJGT, 75), Figure 2, normal form"\n{ "Player 1" "Player 2" } { 3 2 }\n\n'
        "1 1 0 2 0 2 1 1 0 3 2 0\n"
    )
    assert game.row_payoffs.tolist() == [[1, 1], [0, 0], [0, 2]]
    assert game.col_payoffs.tolist() == [[1, 1], [2, 3], [2, 0]]
    assert game.row_actions == ("R1", "R2", "R3") and game.col_actions == ("C1", "C2")


def test_outcome_zero_is_the_null_outcome_and_outcomes_may_repeat():
    game = read_nfg('NFG 1 R "" { "1" "2" } { 2 2 } { { "win" 1 -1 } { "loss" -1, 1 } } 1 0 0 2')
    assert game.row_payoffs.tolist() == [[1, 0], [0, -1]] and game.is_zero_sum
    assert read_nfg('NFG 1 R "" { "1" "2" } { 1 2 } { } 0 0').row_payoffs.tolist() == [[0, 0]]


def test_numbers_are_read_exactly_in_every_notation():
    game = read_nfg('NFG 1 D "" { "1" "2" } { 1 3 } 1/3, -1/3, 0.25, -1.5e2, +7, .5E-3')
    assert game.row_payoffs[0].tolist() == [float(Fraction(1, 3)), 0.25, 7.0]
    assert game.col_payoffs[0].tolist() == [-float(Fraction(1, 3)), -150.0, 0.0005]


def test_zero_sum_only_when_player_2_gets_exactly_minus_player_1():
    assert read_nfg('NFG 1 R "" { "1" "2" } { 1 2 } 1/3 -1/3 0 0').is_zero_sum
    assert not read_nfg('NFG 1 R "" { "1" "2" } { 1 2 } 0.3333333333 -1/3 0 0').is_zero_sum


def test_quoted_names_keep_escaped_quotes_and_empty_names_get_defaults():
    game = read_nfg(r'NFG 1 R "say \"hi\"" { "1" "2" } { { "a \"b\"" "" } { "c\d" } } 1 2 3 4')
    assert game.name == 'say "hi"' and game.row_actions == ('a "b"', "R2") and game.col_actions == ("c\\d",)


def test_a_long_title_is_shortened_to_a_name_and_kept_whole_in_the_description():
    title = "A title " * 20
    game = read_nfg(f'NFG 1 R "{title}" {{ "1" "2" }} {{ 1 1 }} "Its comment" 1 2')
    assert len(game.name) == config.MAX_LABEL_CHARS and game.name.endswith("…")
    assert game.description == f"{title.strip()}. Its comment"


def test_a_path_a_pathlike_bytes_and_a_byte_order_mark(tmp_path):
    path = tmp_path / "game.nfg"
    path.write_text(PAYOFF_VERSION)
    for source in (path, str(path), PAYOFF_VERSION.encode(), b"\xef\xbb\xbf" + PAYOFF_VERSION.encode()):
        assert read_nfg(source).row_payoffs.tolist() == A


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "line 1, column 1: the file is empty"),
        ("EFG 2 R\n", "line 1, column 1: not a Gambit .nfg file: it starts with the word 'EFG' where 'NFG' should be"),
        ('NFG 2 R "" { "1" "2" } { 1 1 } 1 1', "line 1, column 5: this is NFG version 2; only version 1 is read"),
        ('NFG 1 Q "" { "1" "2" } { 1 1 } 1 1', "line 1, column 7: expected R or D"),
        ('NFG 1 R "" { "1" } { 2 } 1 1', "line 1, column 12: a game has at least two players; this file has 1 player"),
        ('NFG 1 R "" { } { } 1', "a game has at least two players; this file has 0 players"),
        ('NFG 1 R "" { ' + '"p" ' * 33 + "}", "the file has more than 32 players; at most that many are read"),
        (
            'NFG 1 R "" { "1" "2" "3" } { 2 2 2 }\n1 1 1',
            "line 2, column 6: the file gives 3 payoff numbers; a 2x2x2 game with 3 players needs 24 (three for each "
            "of the 8 strategy profiles)",
        ),
        (
            'NFG 1 R "" { "1" "2" "3" } { 1 1 1 } { { "a" 1 2 } } 1',
            "outcome 1 has 2 payoffs; it needs one for each of the 3",
        ),
        ('NFG 1 R "" { "1" "2" "3" } { 1 1 1 } { { "a" 1 2 3 4 } } 1', "outcome 1 has more than 3 payoffs"),
        ('NFG 1 R "" { "1" "2" "3" } { 200 100 51 } 1', "line 1, column 28: the game has 1,020,000 strategy profiles"),
        ('NFG 1 R "" { "1" "2" "3" } { { "a" } { "b" } { "c" "c" } } 1 1 1', "player 3's action names must be unique"),
        ('NFG 1 R "" { "1" "2" "3" } { 1 1 1 } 1 1 1e13', "the payoffs are refused: player 3's payoffs: the payoff"),
        (
            'NFG 1 R "" { "1" "2" } { 2 3 }\n1 1 1 1 1',
            "line 2, column 10: the file gives 5 payoff numbers; a 2x3 game with 2 players needs 12",
        ),
        (
            'NFG 1 R "" { "1" "2" } { 1 1 }\n1 1 7',
            "line 2, column 5: the file gives 3 payoff numbers; a 1x1 game with 2 players needs 2",
        ),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n1 2x', "line 2, column 3: '2x' is not a number"),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n1 1/0', "line 2, column 3: the fraction 1/0 divides by zero"),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n1 1e400', "the number 1e400 is too large for a double"),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n1 ' + "1" * 101, "a number of 101 characters; at most 100 are read"),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n1 "open', "line 2, column 3: a quoted text is not closed"),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n', "line 2, column 1: the file ends after its header, before the payoffs"),
        ('NFG 1 R "" { "1" "2" } { 1 1 } { { "a" 1 2 } }\n2', "line 2, column 1: outcome 2 is out of range"),
        ('NFG 1 R "" { "1" "2" } { 1 1 } { { "a" 1 } } 1', "outcome 1 has 1 payoff; it needs one for each"),
        ('NFG 1 R "" { "1" "2" } { 1 1 } { { "a" 1 2 3 } } 1', "outcome 1 has more than 2 payoffs"),
        ('NFG 1 R "" { "1" "2" } { 1 2 } { { "a" 1 2 } } 1', "the file gives 1 outcome number; a 1x2 game needs 2"),
        ('NFG 1 R "" { "1" "2" } { 1 1 } { { "a" 1 2 } } 1.0', "expected an outcome number (a whole number)"),
        ('NFG 1 R "" { "1" "2" } { 5001 1 } 1 1', "player 1 has 5,001 strategies; at most 5,000 per player"),
        ('NFG 1 R "" { "1" "2" } { 1 0 } 1 1', "player 2 has no strategies"),
        ('NFG 1 R "" { "1" "2" } { { "a" "a" } { "b" } } 1 1 1 1', "row action names must be unique"),
        ('NFG 1 R "" { "1" "2" } { 1 1 } 1e13 0', "line 1, column 32: the payoffs are refused"),
        ('NFG 1 R "" { "1" "2" } { 1 1 }\n1\x00 2', "line 2, column 2: the file holds binary data"),
        (
            b'NFG 1 R "" { "1" "2" }\n{ 1 1 } \xff 1 2',
            "line 2: the file is binary or not UTF-8 text (byte 0xff cannot be read)",
        ),
        (3.5, "read_nfg takes a path, the file's text or its bytes, not float"),
    ],
)
def test_bad_input_is_one_sentence_naming_the_place_and_the_reason(text, message):
    with pytest.raises(ValueError) as error:
        read_nfg(text)
    assert message in str(error.value)


def test_a_file_over_the_cap_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "MAX_NFG_CHARS", 100)
    path = tmp_path / "big.nfg"
    path.write_text(PAYOFF_VERSION + " " * 100)
    with pytest.raises(ValueError, match="longer than 100 characters"):
        read_nfg(path)
    with pytest.raises(ValueError, match="at most 100 are read"):
        read_nfg(PAYOFF_VERSION + " " * 100)
    with pytest.raises(ValueError, match="not a regular file"):
        read_nfg(tmp_path)


def test_a_bad_file_is_named_with_its_path(tmp_path):
    path = tmp_path / "bad.nfg"
    path.write_text('NFG 1 R "" { "1" "2" } { 1 1 }\n1 x')
    with pytest.raises(ValueError, match=rf"^{path}: line 2, column 3: expected a payoff number"):
        read_nfg(path)


def test_write_nfg_refuses_what_is_not_a_matrix_game():
    with pytest.raises(ValueError, match="write_nfg takes a MatrixGame or a NormalFormGame, not list"):
        write_nfg([[1, 2], [3, 4]])


@pytest.mark.parametrize("name", list(rmcore.PRESETS))
def test_every_preset_reads_back_to_the_same_game(name):
    game = rmcore.preset(name)
    back = read_nfg(write_nfg(game))
    assert same_game(game, back) and back.name == game.name and back.description == game.description
    plain = read_nfg(write_nfg(game, for_openspiel=True))
    assert plain.row_payoffs.tobytes() == game.row_payoffs.tobytes() and plain.name == game.name


def test_a_nul_in_a_name_is_written_as_a_replacement_character():
    game = MatrixGame([[1]], name="a\x00b")
    assert read_nfg(write_nfg(game)).name == read_nfg(write_nfg(game, for_openspiel=True)).name == "a\ufffdb"


def test_the_written_file_lists_profiles_with_player_1_fastest():
    text = write_nfg(MatrixGame(A, B, ["U", "D"], ["L", "C", "R"], name="Asymmetric"))
    assert text.split("\n\n")[1].split() == "1 10 4 40 2 20 5 50 3 30 6 60".split()


#: Doubles from every part of the range a game allows, written from raw bits so that odd ones (the last digit of a long
#: mantissa, -0.0, the smallest allowed) come up.
PAYOFFS = st.one_of(
    st.floats(-config.MAX_PAYOFF, config.MAX_PAYOFF, allow_nan=False).filter(
        lambda x: x == 0 or abs(x) >= config.MIN_PAYOFF
    ),
    # sign, binary exponent (2**-332 > 1e-100, 2**39 < 1e12) and any 52-bit mantissa
    st.tuples(st.integers(0, 1), st.integers(-332, 38), st.integers(0, 2**52 - 1)).map(
        lambda parts: struct.unpack("<d", struct.pack("<Q", parts[0] << 63 | (parts[1] + 1023) << 52 | parts[2]))[0]
    ),
    st.sampled_from([0.1, 1 / 3, -0.0, 1e-100, 2.0**-52, 123456789.123456789]),
)
#: Any text a name can hold, but a NUL (see test_a_nul_in_a_name_is_written_as_a_replacement_character).
TEXT = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
NAMES = st.text(TEXT, min_size=1, max_size=12).map(str.strip).filter(bool)


@st.composite
def games(draw):
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    a = draw(st.lists(st.lists(PAYOFFS, min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    zero_sum = draw(st.booleans())
    b = (
        None
        if zero_sum
        else draw(st.lists(st.lists(PAYOFFS, min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    )
    row_names = draw(st.lists(NAMES, min_size=rows, max_size=rows, unique=True))
    col_names = draw(st.lists(NAMES, min_size=cols, max_size=cols, unique=True))
    return MatrixGame(a, b, row_names, col_names, name=draw(st.text(TEXT, max_size=20)))


@settings(max_examples=200, deadline=None)
@given(games())
def test_any_game_reads_back_bit_for_bit(game):
    back = read_nfg(write_nfg(game))
    assert same_game(game, back)
    assert back.name == " ".join(game.name.split())


@settings(max_examples=100, deadline=None)
@given(games())
def test_any_game_written_for_openspiel_reads_back_to_the_same_payoffs(game):
    back = read_nfg(write_nfg(game, for_openspiel=True))
    assert back.row_payoffs.tobytes() == game.row_payoffs.tobytes()
    assert back.col_payoffs.tobytes() == game.col_payoffs.tobytes()


def _openspiel_payoffs(text: str):
    pyspiel = pytest.importorskip("pyspiel")
    loaded = pyspiel.load_nfg_game(text)
    assert isinstance(loaded, pyspiel.MatrixGame)  # a two-player .nfg loads as OpenSpiel's matrix game
    return np.array(loaded.row_utilities()), np.array(loaded.col_utilities()), loaded


@pytest.mark.parametrize(
    "game",
    [
        *(rmcore.preset(name) for name in rmcore.PRESETS),
        MatrixGame(A, B, name="Asymmetric 2x3"),
        rmcore.preset("random-general-sum", rows=7, cols=4, seed=3),
        MatrixGame([[1 / 3, -0.0, 1e-100], [2.5e11, -7, 0.1]], [[0.2, 1, 2], [3, 4, 1 / 7]], name='odd "title"'),
    ],
    ids=lambda game: game.name,
)
def test_openspiel_reads_what_we_write_to_the_same_payoffs(game):
    row, col, _ = _openspiel_payoffs(write_nfg(game, for_openspiel=True))
    assert row.tobytes() == game.row_payoffs.tobytes() and col.tobytes() == game.col_payoffs.tobytes()


def test_we_read_what_openspiel_writes():
    pyspiel = pytest.importorskip("pyspiel")
    loaded = pyspiel.create_matrix_game(A, B)
    game = read_nfg(pyspiel.game_to_nfg_string(loaded))
    assert game.row_payoffs.tolist() == A and game.col_payoffs.tolist() == B


# ---------------------------------------------------------------------------------------
# Games of three and more players

#: Gambit's contrib/games/2x2x2-nau.nfg as Gambit ships it: the outcome version, with empty player and outcome names.
NAU = """NFG 1 R "2x2x2 example with 3 pure, 2 incompletely mixed, and a continuum of completely mixed NE" { "" "" "" }

{ { "1" "2" }
{ "1" "2" }
{ "1" "2" }
}
""

{
{ "" 0, 0, 2 }
{ "" 3, 0, 0 }
{ "" 0, 3, 0 }
{ "" 0, 0, 0 }
{ "" 1, 1, 0 }
{ "" 0, 0, 0 }
{ "" 0, 0, 0 }
{ "" 0, 0, 3 }
}
1 2 3 4 5 6 7 8 \n
"""


def same_payoffs(a, b) -> bool:
    """The same players, actions and payoffs to the bit."""
    return (
        a.num_players == b.num_players
        and a.actions == b.actions
        and all(u.tobytes() == v.tobytes() and u.shape == v.shape for u, v in zip(a.payoffs, b.payoffs))
    )


def test_gambits_file_of_nau_s_game_reads_to_the_preset():
    game = read_nfg(NAU)
    assert isinstance(game, rmcore.NormalFormGame) and not isinstance(game, MatrixGame)
    assert same_payoffs(game, rmcore.preset("nau-2x2x2"))
    assert game.players == ("Player 1", "Player 2", "Player 3") and game.name.startswith("2x2x2 example with 3 pure")


def test_a_three_player_payoff_version_puts_each_profile_in_its_cell_with_player_1_fastest():
    # Profile k (counted from 0, player 1 fastest) pays 100 k + player: every payoff says where it belongs.
    shape = (2, 3, 2)
    numbers = " ".join(f"{100 * k + 1} {100 * k + 2} {100 * k + 3}" for k in range(12))
    game = read_nfg(f'NFG 1 R "t" {{ "A" "B" "C" }} {{ 2 3 2 }} {numbers}')
    assert game.shape == shape and game.actions == (("1", "2"), ("1", "2", "3"), ("1", "2"))
    for i, j, k in np.ndindex(shape):
        profile = i + 2 * j + 6 * k
        assert [u[i, j, k] for u in game.payoffs] == [100 * profile + 1, 100 * profile + 2, 100 * profile + 3]
    outcomes = " ".join(f'{{ "" {100 * k + 1} {100 * k + 2} {100 * k + 3} }}' for k in range(12))
    same = read_nfg(f'NFG 1 R "t" {{ "A" "B" "C" }} {{ 2 3 2 }} {{ {outcomes} }} ' + " ".join(map(str, range(1, 13))))
    assert same_payoffs(game, same) and game.players == ("A", "B", "C")


def random_game(rng, shape):
    payoffs = [rng.normal(size=shape) * 10.0 ** rng.integers(-3, 4) for _ in shape]
    payoffs[0].flat[0] = -0.0  # a zero's sign is kept
    names = [[f'a"{p}\\{k}' for k in range(count)] for p, count in enumerate(shape)]
    return rmcore.NormalFormGame(
        payoffs, names, 'odd "title"', description="its comment", players=list("XYZWV")[: len(shape)]
    )


@pytest.mark.parametrize("shape", [(2, 2, 2), (3, 1, 4), (2, 3, 2, 2), (1, 1, 1, 1, 2)])
def test_a_game_of_n_players_reads_back_bit_for_bit(shape):
    game = random_game(np.random.default_rng(len(shape) * 10 + shape[0]), shape)
    back = read_nfg(write_nfg(game))
    assert same_payoffs(game, back) and back.players == game.players
    assert back.name == game.name and back.description == game.description
    plain = read_nfg(write_nfg(game, for_openspiel=True))
    assert all(u.tobytes() == v.tobytes() for u, v in zip(game.payoffs, plain.payoffs))


@pytest.mark.parametrize("name", list(rmcore.NORMAL_FORM_PRESETS))
def test_every_three_player_preset_reads_back_and_openspiel_reads_it_to_the_same_payoffs(name):
    pyspiel = pytest.importorskip("pyspiel")
    game = rmcore.preset(name)
    back = read_nfg(write_nfg(game))
    assert same_payoffs(game, back) and back.name == game.name and back.description == game.description
    loaded = pyspiel.load_nfg_game(write_nfg(game, for_openspiel=True))
    assert loaded.num_players() == 3
    for profile in np.ndindex(game.shape):
        state = loaded.new_initial_state()
        state.apply_actions(list(profile))
        assert state.returns() == [u[profile] for u in game.payoffs]


def test_we_read_what_openspiel_writes_for_three_players():
    pyspiel = pytest.importorskip("pyspiel")
    text = pyspiel.game_to_nfg_string(pyspiel.load_game("matching_pennies_3p"))
    assert [u.tolist() for u in read_nfg(text).payoffs] == [
        u.tolist() for u in rmcore.preset("matching-pennies-3p").payoffs
    ]


def test_asking_for_two_players_refuses_a_file_of_three_with_a_sentence():
    with pytest.raises(
        ValueError, match=r"line 1, column 12: a two-player game was asked for \(players=2\); this file has 3"
    ):
        read_nfg(
            NAU.replace("2x2x2 example with 3 pure, 2 incompletely mixed, and a continuum of completely mixed NE", ""),
            players=2,
        )
    assert read_nfg(PAYOFF_VERSION, players=2).row_payoffs.tolist() == A
    for wrong in (1, True, 2.5, "2"):
        with pytest.raises(ValueError, match="players must be None or a whole number from 2 to 32"):
            read_nfg(PAYOFF_VERSION, players=wrong)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(NAU) - 1), st.sampled_from('0123456789{}" ,-./xe\n')), max_size=4))
def test_a_mutated_three_player_file_gives_a_game_or_one_sentence(changes):
    text = NAU
    for at, new in changes:
        text = text[:at] + new + text[at + 1 :]
    try:
        game = read_nfg(text)
    except ValueError as error:
        assert "\n" not in str(error) and str(error)
        return
    assert game.num_players >= 2 and all(np.isfinite(u).all() and u.shape == game.shape for u in game.payoffs)
