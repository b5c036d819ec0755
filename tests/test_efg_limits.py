"""What one hostile .efg file or ``kuhn_efg`` link may cost: a wide node is laid out by its real children (never a row
of the widest node's size for every node), a policy too large is refused from the counts before any array is made, a
game is checked once however many solvers run it, and the reader bounds its strings, its path sums of payoffs and its
digits, refusing at the line."""

from __future__ import annotations

import re
import tracemalloc

import numpy as np
import pytest

import rmcore
from rmcore.formats import efg
from rmcore.trees import builder
from rmcore.trees import game as tree_game

WIDE = 10_000  # outcomes of the chance node below the first decision (a 612-character link)


def _wide_text(outcomes: int = WIDE) -> str:
    """Player 1 picks a or b; after a, one chance node of ``outcomes`` equally likely outcomes, each the end of the
    game; after b, player 2 picks x or y."""
    listed = " ".join(f'"" 1/{outcomes}' for _ in range(outcomes))
    lines = ['EFG 2 R "wide" { "P1" "P2" } ""', 'p "" 1 1 "root" { "a" "b" } 0', f'c "" 1 "" {{ {listed} }} 0']
    lines += [f't "" {k + 1} "" {{ {k - 1}, {1 - k} }}' for k in range(3)]
    lines += [f't "" {k % 3 + 1}' for k in range(3, outcomes)]
    lines += ['p "" 2 1 "two" { "x" "y" } 0', 't "" 1', 't "" 2']
    return "\n".join(lines) + "\n"


def _peak_megabytes(work) -> tuple[object, float]:
    """``work()``'s result and the most memory Python and numpy held meanwhile, in MB (tracemalloc)."""
    tracemalloc.start()
    try:
        result = work()
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_a_chance_node_of_ten_thousand_outcomes_is_laid_out_by_its_children_in_bounded_memory():
    text = _wide_text()
    game, peak = _peak_megabytes(lambda: rmcore.read_efg(text))
    tree = game.tree
    nodes = tree.player.shape[0]
    assert nodes == 1 + 1 + WIDE + 1 + 2
    assert tree.children.shape == (nodes - 1,) and tree.chance.shape == (nodes - 1,)  # one entry per edge
    assert tree.child_start.shape == (nodes + 1,) and int(np.diff(tree.child_start).max()) == WIDE
    for name in ("block_child", "block_child_base", "block_child_stride"):
        assert getattr(tree, name).ndim == 1 and getattr(tree, name).shape[0] <= nodes
    # A [node, widest] layout alone would be 2 x 10,005 x 10,000 x 8 bytes, 1.6 GB.
    assert peak < 150, f"reading and laying out took {peak:.0f} MB"
    chance = int(np.flatnonzero(tree.player == tree_game.CHANCE_NODE)[0])
    assert tree_game.chance_of(tree, chance).tolist() == [1 / WIDE] * WIDE

    def race():
        race = rmcore.Race(game, ["cfr", "cfr+", "chance-sampling", "external-sampling"], seeds=3)
        race.run(20)
        return race.result()

    result, peak = _peak_megabytes(race)
    assert peak < 150, f"a race of 10 runs took {peak:.0f} MB"
    assert all(np.isfinite(s.gap) for s in result.standings)


def test_cfr_on_the_wide_game_matches_the_recursive_oracle():
    from tests.naive_tree import best_response_value

    game = rmcore.read_efg(_wide_text(50))
    solver = rmcore.CFRSolver(game, "cfr+")
    solver.run(30)
    array = np.asarray(solver.average_policy().probabilities)
    expected = best_response_value(game, array, 0) + best_response_value(game, array, 1)
    assert solver.metrics().nash_conv == pytest.approx(expected, abs=1e-12)


def test_a_policy_too_large_is_refused_from_the_counts_before_any_array_is_made():
    width = 2_100  # player 1's actions, each to an information set of player 2: 2,101 x 2,100 policy cells

    def expand(history):
        if history == ():
            return builder.Decision(1, "root", tuple(f"a{k}" for k in range(width)), [(k,) for k in range(width)])
        if len(history) == 1:
            return builder.Decision(2, f"after {history[0]}", ("x", "y"), [history + (0,), history + (1,)])
        return builder.Terminal(1.0)

    def build():
        with pytest.raises(ValueError) as error:
            builder.build_tree_game("fan", (), expand)
        return str(error.value)

    message, peak = _peak_megabytes(build)
    assert "2,101 information sets and up to 2,100 actions at one: a policy of 4,412,100 cells" in message
    assert "more than the 4,000,000 rmcore allocates (MAX_POLICY_CELLS)" in message
    assert peak < 40, f"refusing took {peak:.0f} MB"


def test_a_game_is_checked_once_however_many_solvers_and_metrics_use_it(monkeypatch):
    game = rmcore.read_efg(_wide_text(30))
    checks = []
    real = tree_game._check_blocks
    monkeypatch.setattr(tree_game, "_check_blocks", lambda *a: checks.append(1) or real(*a))
    race = rmcore.Race(game, ["cfr", "cfr+", "chance-sampling"], seeds=5)
    race.run(3)
    rmcore.nash_conv(game, tree_game.uniform_policy(game))
    assert checks == []  # (checked when it was built)
    fresh = game._replace(name="again")  # a new game: checked anew, once
    rmcore.CFRSolver(fresh, "cfr").run(1)
    rmcore.CFRSolver(fresh, "cfr+").run(1)
    assert len(checks) == 1
    broken = game._replace(tree=game.tree._replace(children=game.tree.children[::-1].copy()))
    with pytest.raises(ValueError, match="the game tree is inconsistent"):
        rmcore.CFRSolver(broken, "cfr")


def _path_of_outcomes(depth: int, digits: int = 500) -> str:
    """A chain of ``depth`` one-action decisions, each paying an outcome of about 1 over an unrelated denominator of
    ``digits`` digits, then the end of the game."""
    lines = ['EFG 2 R "path" { "A" "B" } ""']
    for k in range(depth):
        d = 10**digits + k
        lines.append(f'p "" 1 {k + 1} "" {{ "go" }} {k + 1} "" {{ {d + 1}/{d}, -{d + 1}/{d} }}')
    lines.append('t "" 0')
    return "\n".join(lines) + "\n"


def test_a_sum_of_payoffs_on_a_path_is_refused_at_the_line_where_it_grows_too_long():
    assert rmcore.read_efg(_path_of_outcomes(3)).tree.payoff.max() == pytest.approx(3.0)
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(_path_of_outcomes(12))
    message = str(error.value)
    # Four denominators of 500 digits make 2,000; the fifth node's sum has more.
    assert message.startswith("the .efg text, line 6: the payoffs of the outcomes on the path to this node add up")
    assert "more than 2,000 digits" in message and len(message) < 300


def test_a_long_quoted_string_is_refused_where_it_starts_without_reading_it_whole():
    title = "x" * 2_000_000
    text = f'EFG 2 R "{title}" {{ "A" "B" }} ""\np "" 1 1 "" {{ "a" }} 0\nt "" 1 "" {{ 1, -1 }}\n'

    def read():
        with pytest.raises(ValueError) as error:
            rmcore.read_efg(text)
        return str(error.value)

    message, peak = _peak_megabytes(read)
    assert message == "the .efg text, line 1: a quoted string is longer than 10,000 characters, the most read"
    assert peak < 20, f"refusing a 2 MB title took {peak:.0f} MB (a backtracking expression takes 300)"
    fits = text.replace(title, "y" * efg.MAX_EFG_STRING_CHARS)
    assert rmcore.read_efg(fits).name == "y" * efg.MAX_EFG_STRING_CHARS
    escaped = 'EFG 2 R "a \\" b\nc" { "A" "B" } ""\np "" 1 1 "" { "a" } 0\nt "" 1 "" { 1, -1 }\np'
    with pytest.raises(ValueError, match="line 5: a node after the tree is complete"):  # (the string's line break)
        rmcore.read_efg(escaped)
    assert rmcore.read_efg(escaped[:-2]).name == 'a " b\nc'
    with pytest.raises(ValueError, match="line 2: a string opens with a quote that is never closed"):
        rmcore.read_efg('EFG 2 R "t" { "A" "B" } ""\np "" 1 1 "a { a } 0\n')


@pytest.mark.parametrize("number", ["１２", "٣", "1/２"])
def test_numbers_in_other_digits_than_ascii_are_refused_with_a_reason(number):
    text = f'EFG 2 R "x" {{ "A" "B" }} ""\np "" 1 1 "" {{ "a" }} 0\nt "" 1 "" {{ {number}, -1 }}\n'
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(text)
    assert "line 3: expected a payoff" in str(error.value) and "ASCII digits 0-9" in str(error.value)
    with pytest.raises(ValueError, match="ASCII digits 0-9"):
        rmcore.read_nfg(f'NFG 1 R "x" {{ "1" "2" }} {{ 1 1 }} {number} 1')
    with pytest.raises(ValueError, match="ASCII digits 0-9"):
        rmcore.read_nfg('NFG 1 R "x" { "1" "2" } { ２ 1 } 1 1 2 2')


@pytest.mark.parametrize(
    "arguments,words",
    [
        (dict(max_nodes="5"), "max_nodes must be a whole number >= 1, got '5'"),
        (dict(max_nodes=0), "max_nodes must be a whole number >= 1, got 0"),
        (dict(max_nodes=True), "max_nodes must be a whole number >= 1, got True"),
        (dict(max_nodes=2.5), "max_nodes must be a whole number >= 1, got 2.5"),
        (dict(notes="x"), "notes must be a list (to which the reader appends) or None; got str"),
    ],
)
def test_the_readers_parameters_are_checked_with_a_sentence(arguments, words):
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(rmcore.write_efg(rmcore.KUHN), **arguments)
    assert str(error.value) == words


def test_a_wide_game_comes_by_link_and_a_link_past_its_cap_is_refused_unread(monkeypatch):
    from ui import link
    from ui.trees import games

    param = link.efg_param(_wide_text())
    assert len(param) < 800  # (a link a chat program passes on)
    uploaded, peak = _peak_megabytes(lambda: games.read_uploaded(link.efg_from_param(param), "the link"))
    assert uploaded.game.tree.player.shape[0] == WIDE + 5 and peak < 150, f"{peak:.0f} MB"
    inflated = []
    monkeypatch.setattr(link.zlib, "decompressobj", lambda: inflated.append(1))
    too_long = "A" * (link.MAX_EFG_LINK_CHARS + 1)
    with pytest.raises(ValueError) as error:
        link.efg_from_param(too_long)
    assert str(error.value) == "it is 6,001 characters long; a link carries a game of at most 6,000"
    assert inflated == []


def test_names_notes_say_one_node_in_the_singular():
    from ui import explain

    notes = tuple(f"line {k}: note" for k in range(5))
    assert explain.efg_notes(notes[:4]).endswith("(and 1 more node alike).")
    assert explain.efg_notes(notes).endswith("(and 2 more nodes alike).")
    assert "alike" not in explain.efg_notes(notes[:3])


def test_bare_addresses_in_names_are_not_made_links():
    from ui import escape

    shown = escape.markdown("see https://x.example/p, www.y.example and me@z.example")
    for pattern in ("://", "www.", "e@"):  # GitHub's autolinks, which remark-gfm finds after escapes are resolved
        assert pattern not in shown.replace("\\", "")
    assert shown.replace("\u2060", "").replace("\\", "") == "see https://x.example/p, www.y.example and me@z.example"


ADDRESSES_EFG = """EFG 2 R "Rules at https://a.example/r" { "A" "B" }
p "" 1 1 "see www.b.example" { "mail me@c.example" "two" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
"""
#: GitHub's autolinks as remark-gfm finds them in the text once its escapes are resolved (checked in Chromium: a
#: ``https\\://`` still became a link, a word joiner inside each pattern did not).
_AUTOLINKED = re.compile(r"https?://|www\.|[\w.+-]@[\w-]")


def test_bare_addresses_in_a_game_files_names_reach_the_tree_page_as_text():
    from tests.test_hostile_names import _markdown_sources
    from tests.visits import opened, shown
    from ui import link

    app = opened({"kuhn_efg": link.efg_param(ADDRESSES_EFG), "kuhn_game": "Your game (.efg)"}, url_path="game_trees")
    assert not app.exception
    assert app.session_state.kuhn_live.race.game.name == "Rules at https://a.example/r"
    sources = _markdown_sources(app)
    readable = " ".join(shown(text) for text in sources)
    assert "see www.b.example" in readable and "https://a.example/r" in readable
    # (the text as remark-gfm sees it: its escapes resolved, its word joiners kept)
    linked = [text for text in sources if _AUTOLINKED.search(re.sub(r"\\(.)", r"\1", text))]
    assert linked == [], f"an address would become a link: {linked[0]!r}"


def test_a_long_quoted_text_in_an_nfg_file_costs_its_characters_not_a_hundred_bytes_each():
    title = 'x\\"' * 100_000 + "y" * 1_500_000  # (1.8 MB: escapes and plain characters)
    game, peak = _peak_megabytes(lambda: rmcore.read_nfg(f'NFG 1 R "{title}" {{ "1" "2" }} {{ 1 1 }} 1 -1'))
    assert game.name.startswith('x"x"') and peak < 30, f"{peak:.0f} MB (a backtracking expression takes 300)"
    with pytest.raises(ValueError, match="line 1, column 9: a quoted text is not closed"):
        rmcore.read_nfg('NFG 1 R "' + "z" * 1_000_000)


def test_write_nfg_takes_for_openspiel_as_true_or_false():
    game = rmcore.preset("rps-crash")
    with pytest.raises(ValueError, match="for_openspiel must be True or False, got 'yes'"):
        rmcore.write_nfg(game, for_openspiel="yes")
    assert rmcore.read_nfg(rmcore.write_nfg(game, for_openspiel=True)).shape == game.shape
