"""Gambit .efg files: reading, writing, and CFR on a game read back equal to CFR on the game written, to the bit; files
of two players (zero-sum) and of more (any payoffs)."""

import math
import os
from fractions import Fraction

import numpy as np
import pytest

import rmcore
from rmcore.formats import efg
from rmcore.trees.builder import Decision, Terminal, build_tree_game

# An outcome at an inner node (the ante at the root, paid on every path), a chance node in the middle, commas and
# none, missing names, rationals and decimals, and information sets and outcomes defined once and reused.
SMALL = """EFG 2 R "small" { "A" "B" } "a comment"
c "root" 1 "coin" { "h" 1/3 "t" 2/3 } 1 "ante" { 1/2, -1/2 }
p "" 1 1 "" { "" "" } 0
c "mid" 2 "" { "x" 0.5 "y" 1/2 } 0
t "" 2 "win" { 1, -1 }
t "" 3 "lose" { -1 1 }
p "" 2 1 "" { "L" "R" } 0
t "" 4 "" { 3, -3 }
t "" 5 "" {-2, 2}
p "" 1 1 0
c "" 2 0
t "" 2
t "" 3
p "" 2 1 0
t "" 4
t "" 3
"""


def test_a_hand_written_file_reads_with_its_outcomes_summed_along_each_path():
    game = rmcore.read_efg(SMALL)
    assert game.name == "small"
    assert game.infosets == ("P1:1", "P2:1") and game.actions == (("1", "2"), ("L", "R"))
    tree = game.tree

    def in_file_order(node):  # the nodes as the file lists them: depth first
        yield node
        for child in tree.children[tree.child_start[node] : tree.child_start[node + 1]]:
            yield from in_file_order(int(child))

    order = [k for root in tree.deal_root for k in in_file_order(int(root))]
    # The ante 1/2 is added to every terminal's payoff; the coin is a deal of two, the middle chance node stays.
    assert [tree.payoff[k] for k in order if tree.player[k] == -1] == [1.5, -0.5, 3.5, -1.5, 1.5, -0.5, 3.5, -0.5]
    assert game.deal_paths == ((("h", Fraction(1, 3)),), (("t", Fraction(2, 3)),))
    assert tree.deal_probability.tolist() == [1 / 3, 2 / 3]
    assert [game.node_labels[k] for k in order[:3]] == ["h", "mid", "h 1 x"]  # the node's name, else its history
    # Player 1 cannot see the coin: the lottery is worth 0, player 2 answers the other move with R (-4/3); plus ante.
    assert rmcore.solve_exactly(game).game_value == pytest.approx(0.5, abs=1e-9)


def test_names_escaped_quotes_and_bytes_and_paths(tmp_path):
    text = 'EFG 2 D "q" { "A" "B" }\np "n" 1 7 "say \\"hi\\"" { "a" } 0\nt "" 1 "" { 1, -1 }\n'
    game = rmcore.read_efg(text.encode())
    assert game.infosets == ('say "hi"',)
    assert rmcore.read_efg(rmcore.write_efg(game)).infosets == ('say "hi"',)
    path = tmp_path / "q.efg"
    path.write_text(text)
    assert rmcore.read_efg(path).infosets == rmcore.read_efg(str(path)).infosets == ('say "hi"',)


def test_names_shared_by_two_information_sets_are_replaced_by_numbers():
    text = (
        'EFG 2 R "" { "A" "B" }\np "" 1 1 "x" { "a" "b" } 0\np "" 2 2 "x" { "c" } 0\nt "" 1 "" { 1, -1 }\n'
        'p "" 2 1 "P2:2" { "d" } 0\nt "" 1\n'
    )
    game = rmcore.read_efg(text)
    assert game.name == "Gambit game" and game.infosets == ("P1:1", "P2:1", "P2:2")


def test_kuhn_written_and_read_keeps_the_equilibrium_value():
    game = rmcore.read_efg(rmcore.write_efg(rmcore.KUHN))
    assert rmcore.solve_exactly(game).game_value == pytest.approx(-1 / 18, abs=1e-9)


def test_chance_probabilities_are_written_as_fractions_summing_to_one():
    text = rmcore.write_efg(rmcore.leduc_poker())
    assert 'c "" 1 "deal" { "J♠" 1/6 ' in text and "0.16" not in text
    assert "written by rmcore" in text.splitlines()[1] and "adjusted" not in text


def _from_openspiel(name):
    pyspiel = pytest.importorskip("pyspiel")
    return rmcore.from_openspiel(pyspiel.load_game(name))


ROUND_TRIPS = {
    "kuhn": lambda: rmcore.KUHN,
    "kuhn 11 cards": lambda: rmcore.kuhn_poker(11),  # 1/(11*10) as one float differs from (1/11)(1/10)
    "leduc": rmcore.leduc_poker,
    "liars dice": lambda: _from_openspiel("liars_dice(dice_sides=3)"),
}


@pytest.mark.parametrize("variant", ["cfr", "cfr+"])
@pytest.mark.parametrize("name", list(ROUND_TRIPS))
def test_cfr_on_the_game_read_back_equals_cfr_on_the_game_to_the_last_bit(name, variant):
    game = ROUND_TRIPS[name]()
    again = rmcore.read_efg(rmcore.write_efg(game))
    assert again.infosets == game.infosets and again.actions == game.actions
    assert np.array_equal(again.tree.deal_probability, game.tree.deal_probability)
    ours, theirs = rmcore.CFRSolver(game, variant, max_points=0), rmcore.CFRSolver(again, variant, max_points=0)
    ours.run(50)
    theirs.run(50)
    assert ours.metrics() == theirs.metrics()
    assert np.array_equal(ours.average_policy().probabilities, theirs.average_policy().probabilities)


def test_a_game_without_deal_paths_gets_one_chance_node_listing_its_deals():
    game = rmcore.KUHN._replace(deal_paths=())
    again = rmcore.read_efg(rmcore.write_efg(game))
    assert len(again.deal_paths) == 6 and all(len(path) == 1 for path in again.deal_paths)
    assert np.array_equal(again.tree.deal_probability, game.tree.deal_probability)


def test_deals_whose_floats_cannot_sum_to_one_are_adjusted_and_the_comment_says_so():
    # (1/11)(1/10) as floats lies more than half a float's gap from 1/110: 110 of them cannot sum to exactly 1.
    text = rmcore.write_efg(rmcore.kuhn_poker(11)._replace(deal_paths=()))
    assert "to make them sum to exactly 1" in text.splitlines()[1]
    again = rmcore.read_efg(text)
    assert math.fsum(again.tree.deal_probability) == pytest.approx(1.0, abs=1e-15)
    # Tilted floats are mended within their rounding where they can be: the same floats are read back.
    tilted = rmcore.KUHN.tree.deal_probability.copy()
    tilted[0] = np.nextafter(tilted[0], 1.0)
    game = rmcore.KUHN._replace(deal_paths=(), tree=rmcore.KUHN.tree._replace(deal_probability=tilted))
    text = rmcore.write_efg(game)
    assert "exactly 1" not in text
    assert np.array_equal(rmcore.read_efg(text).tree.deal_probability, tilted)


def test_write_refuses_what_is_not_a_tree_game():
    with pytest.raises(ValueError, match="TreeGame"):
        rmcore.write_efg("kuhn")


def _broken(old, new):
    assert old in SMALL
    return SMALL.replace(old, new)


@pytest.mark.parametrize(
    "text,message",
    [
        (_broken("{ 3, -3 }", "{ 3, -2 }"), 'line 8: outcome 4 "" pays 3 and -2: not zero-sum'),
        (_broken('"A" "B"', '"A" "B" "C"'), 'line 2: outcome 1 "ante" has 2 payoffs; the game has 3 players'),
        (_broken('"A" "B"', '"A"'), "line 1: the file has 1 player; rmcore reads games of 2 to 10 players"),
        (
            _broken('"A" "B"', " ".join(f'"P{k}"' for k in range(12))),
            "line 1: the file has more than 10 players; rmcore reads games of 2 to 10 players",
        ),
        (
            _broken("2/3", "1/2"),
            "line 2: the probabilities of chance's information set 1 sum to 0.8333333333333334 (5/6 exactly), not "
            "exactly 1",
        ),
        (SMALL[: SMALL.index('p "" 2 1 0')], "line 13: the file ends while the node at line 10 still lacks 1"),
        (_broken('t "" 3\n', 't "" 9\n'), "line 13: unknown outcome 9"),
        (SMALL + 't "" 1\n', "line 17: a node after the tree is complete"),
        (_broken("EFG 2", "EFG 3"), "line 1: only version 2"),
        (_broken("{ 1/2, -1/2 }", "{ 1/0, -1/2 }"), "line 2: a payoff 1/0 divides by zero"),
        (_broken("1/3", "1e999"), "line 2: a probability 1e999 is too large"),
        (_broken('p "" 1 1 0', 'p "" 1 1 { "a" } 0'), "line 10: player 1's information set 1 has other actions"),
        (_broken('p "" 2 1 0', 'p "" 3 1 0'), "line 14: player 3 moves here"),
        (_broken('{ "L" "R" }', "{ }"), "line 7: player 2's information set 1 has no actions"),
        (_broken("0.5", "-0.5"), "line 4: chance's information set 2 has a probability outside 0 to 1"),
        (_broken('t "" 5 "" {-2, 2}', 't "" 5 "" {-2, two}'), "line 9: expected a payoff"),
        (_broken('c "" 2 0', 'c "" 3 0'), "line 11: chance's information set 3 is first met here without its"),
        ('EFG 2 R "r" { "A" "B" }\n', "line 1: the file has no nodes after its header"),
        (
            'EFG 2 R "r" { "A" "B" }\np "" 1 1 "" { "a" "b" } 0\np "" 1 2 "I" { "c" "d" } 0\nt "" 1 "" { 1, -1 }\n'
            't "" 0\np "" 1 2 0\nt "" 0\nt "" 0\n',
            "line 6: information set 'I' breaks perfect recall",
        ),
        ("EFG\x00 2", "binary (it holds NUL bytes)"),
        (b"EFG 2 \xff\xfe", "binary or not UTF-8"),
        ("nonexistent-file.efg", "cannot read .efg file"),
        (12, "read_efg takes a path"),
    ],
)
def test_every_refusal_is_a_value_error_naming_the_line_and_the_reason(text, message):
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(text)
    assert message in str(error.value)


def test_files_too_long_or_with_too_many_nodes_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="line 5: more than 3 nodes, more than rmcore builds"):
        rmcore.read_efg(SMALL, max_nodes=3)
    path = tmp_path / "small.efg"
    path.write_text(SMALL)
    monkeypatch.setattr(efg, "MAX_EFG_CHARS", 100)
    for source in (path, SMALL, SMALL.encode()):
        with pytest.raises(ValueError, match="longer than 100 characters"):
            rmcore.read_efg(source)
    with pytest.raises(ValueError, match="not a regular file"):
        rmcore.read_efg(tmp_path)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_openspiel_reads_what_we_write_and_its_cfr_agrees(name):
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401  (CI installs open_spiel: a missing one is a failure)
    pyspiel = pytest.importorskip("pyspiel")
    game = rmcore.KUHN if name == "kuhn_poker" else rmcore.leduc_poker()
    loaded = pyspiel.load_efg_game(rmcore.write_efg(game))
    theirs, ours = pyspiel.CFRSolver(loaded), rmcore.CFRSolver(game, "cfr", max_points=0)
    for _ in range(20):
        theirs.evaluate_and_update_policy()
    ours.run(20)
    expected = pyspiel.exploitability(loaded, theirs.average_policy())
    assert ours.metrics().exploitability == pytest.approx(expected, abs=1e-12)


def test_a_tree_too_deep_for_the_builder_is_refused_before_it_is_built(monkeypatch):
    # The builder writes out every node's history: a chain of n moves costs about n * n characters.
    monkeypatch.setattr(efg, "MAX_EFG_HISTORY_CHARS", 10_000)
    lines = ['EFG 2 R "chain" { "A" "B" }']
    for k in range(200):
        lines += [f'p "" {1 + k % 2} {k // 2 + 1} "" {{ "a" "b" }} 0', 't "" 1 "" { 1, -1 }']
    lines.append('t "" 2 "" { -1, 1 }')
    with pytest.raises(ValueError, match=r"line \d+: the tree is too deep"):
        rmcore.read_efg("\n".join(lines))
    monkeypatch.setattr(efg, "MAX_EFG_HISTORY_CHARS", 100_000)
    assert len(rmcore.read_efg("\n".join(lines)).infosets) == 200


@pytest.mark.parametrize(
    "written", ["0", "7", "+3", "-3", "007", "1/3", "-2/4", "+6/8", "0.25", "-1.5e3", ".5", "12345678901234567890"]
)
def test_every_number_is_read_as_the_exact_fraction_it_writes(written):
    parser = efg._Parser(efg._tokens(written))
    value, text = parser.number_as_written("a payoff")
    assert (value, text) == (Fraction(written), written)
    assert type(value) is Fraction


@pytest.mark.parametrize("written", ["0", "12", "000000000005", "1000000000000", "2/1", "4.0"])
def test_whole_numbers_read_as_integers(written):
    assert efg._Parser(efg._tokens(written)).integer("an outcome number") == int(Fraction(written))


@pytest.mark.parametrize("written", ["1000000000001", "-1", "1/2", "²", "12345678901234"])
def test_numbers_that_are_not_whole_numbers_from_0_to_a_trillion_are_refused(written):
    with pytest.raises(efg._Refusal):
        efg._Parser(efg._tokens(written)).integer("an outcome number")


# Three players, general-sum: an outcome at the root (every player's ante, added on every path), chance that no one
# sees, and the outcome 0 (none) at a terminal, which then pays the ante alone.
THREE = """EFG 2 R "three" { "A" "B" "C" } ""
c "root" 1 "coin" { "h" 1/4 "t" 3/4 } 1 "ante" { 1/2, 0, -1 }
p "" 1 1 "a" { "x" "y" } 0
p "" 3 1 "c" { "l" "r" } 0
t "" 2 "" { 1, 2, 3 }
t "" 3 "" { 0, 0, 1/3 }
p "" 2 1 "b" { "u" "v" } 0
t "" 4 "" { -1, 5, 2 }
t "" 5 "" { 2, 2, 2 }
p "" 1 1 0
p "" 3 1 0
t "" 3
t "" 2
p "" 2 1 0
t "" 5
t "" 0
"""


def _terminal_payoffs_in_file_order(game) -> list[list[float]]:
    tree = game.tree

    def in_file_order(node):
        yield node
        for child in tree.children[tree.child_start[node] : tree.child_start[node + 1]]:
            yield from in_file_order(int(child))

    order = [k for root in tree.deal_root for k in in_file_order(int(root))]
    return [tree.payoffs[:, k].tolist() for k in order if tree.player[k] == -1]


def _same_tree(game, other) -> bool:
    return all(np.array_equal(getattr(game.tree, name), getattr(other.tree, name)) for name in game.tree._fields)


def test_a_three_player_general_sum_file_reads_every_players_outcomes_summed_along_each_path():
    game = rmcore.read_efg(THREE)
    assert game.players == 3 and not game.is_zero_sum
    assert game.infosets == ("a", "b", "c") and game.actions == (("x", "y"), ("u", "v"), ("l", "r"))
    assert _terminal_payoffs_in_file_order(game) == [
        [1.5, 2.0, 2.0],
        [0.5, 0.0, -2 / 3],  # (1/3 - 1 exactly, rounded once)
        [-0.5, 5.0, 1.0],
        [2.5, 2.0, 1.0],
        [0.5, 0.0, -2 / 3],
        [1.5, 2.0, 2.0],
        [2.5, 2.0, 1.0],
        [0.5, 0.0, -1.0],  # outcome 0: the ante alone
    ]
    text = rmcore.write_efg(game)
    assert text.startswith('EFG 2 R "three" { "Player 1" "Player 2" "Player 3" }')
    assert 't "t y v" 8 "" { 0.5, 0, -1 }' in text
    again = rmcore.read_efg(text)
    assert _same_tree(game, again) and again.infosets == game.infosets and again.deal_paths == game.deal_paths


@pytest.mark.parametrize("players", [3, 4])
def test_kuhn_of_more_players_written_and_read_back_is_the_same_game(players):
    game = rmcore.kuhn_poker(players=players)
    again = rmcore.read_efg(rmcore.write_efg(game))
    assert again.players == players and again.infosets == game.infosets and again.actions == game.actions
    assert _same_tree(game, again) and again.deal_paths == game.deal_paths
    uniform = rmcore.trees.game.uniform_policy(game)
    assert rmcore.nash_conv(again, uniform) == rmcore.nash_conv(game, uniform)
    if players == 3:
        assert rmcore.nash_conv(game, uniform) == 2.0625
    for variant in ("cfr", "external-sampling"):
        ours = rmcore.CFRSolver(game, variant, seed=7, max_points=0)
        theirs = rmcore.CFRSolver(again, variant, seed=7, max_points=0)
        ours.run(30)
        theirs.run(30)
        assert ours.metrics() == theirs.metrics() and ours.metrics().exploitability is None
        assert np.array_equal(ours.average_policy().probabilities, theirs.average_policy().probabilities)


def test_openspiel_reads_what_we_write_of_three_players_and_agrees_on_nash_conv():
    """OpenSpiel's own .efg reader on our files of three players: the NashConv of the uniform policy (OpenSpiel's
    ``nash_conv``) equals ours to 1e-12, on Kuhn poker (2.0625) and on a general-sum game."""
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401  (CI installs open_spiel: a missing one is a failure)
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    for game in (rmcore.kuhn_poker(players=3), rmcore.read_efg(THREE)):
        loaded = pyspiel.load_efg_game(rmcore.write_efg(game))
        assert loaded.num_players() == 3
        theirs = exploitability.nash_conv(loaded, policy.UniformRandomPolicy(loaded))
        ours = rmcore.nash_conv(game, rmcore.trees.game.uniform_policy(game))
        assert ours == pytest.approx(theirs, abs=1e-12)
    assert ours != pytest.approx(2.0625)  # (the second game's own number)


def _three_broken(old, new):
    assert old in THREE
    return THREE.replace(old, new)


@pytest.mark.parametrize(
    "text,message",
    [
        (_three_broken('p "" 2 1 0', 'p "" 4 1 0'), "line 14: player 4 moves here; the game has players 1 to 3"),
        (_three_broken("{ 1, 2, 3 }", "{ 1, 2 }"), 'line 5: outcome 2 "" has 2 payoffs; the game has 3 players'),
        (
            _three_broken('t "" 3\n', 't "" 3 "" { 0, 0, 1/2 }\n'),
            'line 12: outcome 3 "" pays (0, 0, 1/2) here and (0, 0, 1/3) at line 6',
        ),
        (_three_broken("{ 2, 2, 2 }", "{ 2, 2, 2e12 }"), 'line 9: outcome 5 ""\'s payoff to player 3 is 2e+12'),
        (_three_broken('p "" 1 1 "a"', 'p "" 1 x "a"'), "line 3: expected an information set number"),
    ],
)
def test_every_refusal_of_a_three_player_file_names_the_line_and_the_reason(text, message):
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(text)
    assert message in str(error.value)


def test_write_refuses_a_two_player_general_sum_game_which_a_two_player_file_cannot_hold():
    def expand(history):  # the battle of the sexes as a tree
        if len(history) < 2:
            return Decision(len(history) + 1, f"player {len(history) + 1}", ("O", "F"), (history + "O", history + "F"))
        return Terminal({"OO": (2.0, 1.0), "FF": (1.0, 2.0)}.get(history, (0.0, 0.0)))

    game = build_tree_game("Battle of the sexes", "", expand)
    assert game.players == 2 and not efg.writes_efg(game) and efg.writes_efg(rmcore.read_efg(THREE))
    with pytest.raises(
        ValueError,
        match="rmcore writes the .efg files it reads: two-player zero-sum games and games "
        "of more players; Battle of the sexes has 2 players and is general-sum",
    ):
        rmcore.write_efg(game)
