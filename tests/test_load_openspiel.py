"""rmcore.load_openspiel: an OpenSpiel game string loaded and converted in a child process under a time limit and a
memory limit, so that a crash, a game that never ends or one that fills the memory never reaches the caller; a string
that names a file is refused before OpenSpiel sees it. And from_openspiel's refusals in one plain line."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import rmcore
from rmcore.formats.openspiel import check_game_string

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("text", ["kuhn_poker", "liars_dice(dice_sides=3)"])
def test_a_good_game_comes_back_equal_to_the_conversion_in_this_process(text):
    bounded = rmcore.load_openspiel(text)
    here = rmcore.from_openspiel(pyspiel.load_game(text))
    assert bounded.name == here.name and bounded.infosets == here.infosets and bounded.actions == here.actions
    assert bounded.node_labels == here.node_labels and bounded.deal_paths == here.deal_paths
    for field in here.tree._fields:
        ours, theirs = getattr(bounded.tree, field), getattr(here.tree, field)
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), field
    solver = rmcore.CFRSolver(bounded, "cfr")  # (it runs: the solver checks the game it is given)
    solver.run(5)
    assert solver.iteration == 5


def test_the_caller_never_imports_openspiel():
    code = "import sys, rmcore; g = rmcore.load_openspiel('kuhn_poker'); print('pyspiel' in sys.modules, g.name)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False Kuhn Poker"


def test_a_crash_of_openspiel_is_said_and_the_caller_lives_on():
    with pytest.raises(ValueError, match=r"OpenSpiel crashed .*connect_four\(rows=0\) \(a segmentation fault\)"):
        rmcore.load_openspiel("connect_four(rows=0)")
    assert rmcore.load_openspiel("kuhn_poker").name == "Kuhn Poker"


def test_a_game_that_does_not_finish_is_stopped_at_the_time_limit():
    with pytest.raises(ValueError, match=r"did not load and convert mnk\(m=1000,n=1000,k=3\) within 6 s, so it was"):
        rmcore.load_openspiel("mnk(m=1000,n=1000,k=3)", seconds=6)


def test_a_game_that_fills_the_memory_is_stopped_at_the_memory_limit():
    with pytest.raises(
        ValueError, match=r"needed more than its limit of 768 MB to load and convert liars_dice\(numdice=1000000\)"
    ):
        rmcore.load_openspiel("liars_dice(numdice=1000000)", megabytes=768)


@pytest.mark.parametrize(
    "text,named",
    [
        ("efg_game(filename=/etc/passwd)", "'filename'"),
        ("nfg_game(filename=passwd)", "'filename'"),
        ("turn_based_simultaneous_game(game=efg_game(filename=x.efg))", "'filename'"),
        ("colored_trails(boards_file=boards.txt)", "'boards_file'"),
        ("crossword(puzzles_root=here)", "'puzzles_root'"),
        ("bargaining( instances_file =x)", "'instances_file'"),
        ("kuhn_poker(players=../../etc/passwd)", "'/'"),
        ("kuhn_poker(players=..\\secret)", "'[\\\\]'"),
    ],
)
def test_a_string_that_names_a_file_is_refused_before_openspiel_sees_it(text, named):
    with pytest.raises(ValueError, match=f"a game string may not name a file, and {named} would"):
        check_game_string(text)
    with pytest.raises(ValueError, match="may not name a file"):
        rmcore.load_openspiel(text)


def test_a_secret_in_a_file_never_reaches_the_words(tmp_path):
    secret = tmp_path / "settings.efg"
    secret.write_text("SECRET_KEY = 'hunter2'\nDEBUG = False\n")
    for text in (f"efg_game(filename={secret})", "efg_game(filename=settings.efg)", "nfg_game(filename=settings.efg)"):
        with pytest.raises(ValueError) as refused:
            rmcore.load_openspiel(text)
        words = str(refused.value)
        assert "SECRET_KEY" not in words and "hunter2" not in words and str(tmp_path) not in words, words


def test_openspiels_own_words_are_one_line_without_source_paths():
    with pytest.raises(ValueError) as refused:
        rmcore.load_openspiel("kuhn_poker(players=1)")
    words = str(refused.value)
    assert words == (
        "OpenSpiel cannot load 'kuhn_poker(players=1)': one of its internal checks failed on these parameters"
    )
    with pytest.raises(ValueError, match="OpenSpiel cannot load 'leduc_poker\\(bogus=1\\)': Unknown parameter 'bogus'"):
        rmcore.load_openspiel("leduc_poker(bogus=1)")
    with pytest.raises(ValueError, match="OpenSpiel has no game 'leduc_pokr' \\(did you mean leduc_poker"):
        rmcore.load_openspiel("leduc_pokr")


@pytest.mark.parametrize(
    "arguments,words",
    [
        ({"text": 3}, "must be a str"),
        ({"text": "  "}, "is empty"),
        ({"text": "kuhn_poker\n"}, "kuhn_poker"),  # (stripped: it loads)
        ({"text": "kuhn\x00poker"}, "no control characters"),
        ({"text": "kuhn_poker(" + "x" * 200_000 + ")"}, "200,012 characters long; at most 10,000 are taken"),
        ({"text": "kuhn_poker", "seconds": 0}, "seconds must be a positive number"),
        ({"text": "kuhn_poker", "seconds": float("nan")}, "seconds must be a positive number"),
        ({"text": "kuhn_poker", "megabytes": 100}, "at least 512"),
        ({"text": "kuhn_poker", "megabytes": "2048"}, "megabytes must be a positive whole number"),
        ({"text": "kuhn_poker", "max_nodes": 0}, "max_nodes must be a positive whole number"),
    ],
)
def test_what_it_is_given_is_checked(arguments, words):
    if words == "kuhn_poker":
        assert rmcore.load_openspiel(**arguments).name == "Kuhn Poker"
        return
    with pytest.raises(ValueError, match=words):
        rmcore.load_openspiel(**arguments)


def test_goofspiel_without_imp_info_is_refused_in_one_line_that_says_what_to_add():
    with pytest.raises(ValueError) as refused:
        rmcore.from_openspiel(pyspiel.load_game("goofspiel(num_cards=4)"))
    words = str(refused.value)
    assert "\n" not in words and "\\n" not in words
    assert "OpenSpiel's Goofspiel gives information states with perfect recall" in words and "imp_info=True" in words


@pytest.mark.parametrize("text", ["liars_dice(numdice=2)", "goofspiel(num_cards=6,imp_info=True)"])
def test_a_game_of_short_plays_and_many_states_is_refused_for_its_states(text):
    with pytest.raises(ValueError) as refused:
        rmcore.from_openspiel(pyspiel.load_game(text), max_moves=300_000)
    words = str(refused.value)
    assert "has too many states: its first" in words and "more than 300,000 moves" in words, words
    assert "plays are too long" not in words


def test_a_game_of_long_plays_is_refused_for_its_plays():
    with pytest.raises(ValueError, match=r"Chess's plays are too long: .* \(\d+ a state;"):
        rmcore.from_openspiel(pyspiel.load_game("chess"), max_moves=1_000_000)


def test_the_childs_answer_builds_only_a_converted_games_types():
    import io
    import os
    import pickle

    from rmcore.formats.openspiel import _SafeUnpickler

    game = rmcore.from_openspiel(pyspiel.load_game("kuhn_poker"))
    assert _SafeUnpickler(io.BytesIO(pickle.dumps(("game", game), protocol=4))).load()[1].name == "Kuhn Poker"
    with pytest.raises(pickle.UnpicklingError, match="is not part of a converted game"):
        _SafeUnpickler(io.BytesIO(pickle.dumps(("game", os.system), protocol=4))).load()
