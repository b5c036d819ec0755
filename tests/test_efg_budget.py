"""Gambit .efg files as other tools write them and as a hostile visitor writes them: OpenSpiel's own exports (chance
probabilities as decimals) are read as the fractions they stand for, a sum that is really wrong is refused with the sum
as a number, a chance node's exact sum and outcome count are capped while reading, and payoffs keep the matrix games'
limits."""

from __future__ import annotations

import pytest

import rmcore
from rmcore import config
from tests.test_cli import cli

pyspiel = pytest.importorskip("pyspiel")
export_gambit = pytest.importorskip("open_spiel.python.algorithms.gambit").export_gambit


def _game_of(outcomes: str, payoffs: list[str] | None = None) -> str:
    """A game whose root is a chance node listing ``outcomes`` (``"a" 1/2 "b" 1/2``), each outcome followed by player
    1's one move (line 3 defines it) and the end of the game (the first at line 4)."""
    count = outcomes.count('"') // 2
    payoffs = payoffs or [f"{k + 1}, -{k + 1}" for k in range(count)]
    moves = ['p "" 1 1 "" { "go" } 0'] + ['p "" 1 1 0'] * (count - 1)
    leaves = "\n".join(
        f'{move}\nt "" {k + 1} "" {{ {payoff} }}' for k, (move, payoff) in enumerate(zip(moves, payoffs))
    )
    return f'EFG 2 R "chance" {{ "A" "B" }}\nc "" 1 "" {{ {outcomes} }} 0\n{leaves}\n'


@pytest.mark.parametrize(
    "name,outcomes",
    [("kuhn_poker", 3), ("leduc_poker", 6), ("liars_dice(dice_sides=3)", 3)],
)
def test_openspiels_own_export_is_read_with_its_decimals_as_fractions_and_a_note(name, outcomes):
    game = pyspiel.load_game(name)
    text = export_gambit(game)
    decimal = {3: "0.3333333333333333", 6: "0.1666666666666667"}[outcomes]
    assert decimal in text, "OpenSpiel writes the chance probabilities as decimals"
    with pytest.raises(ValueError, match="not exactly 1"):  # as written they do not sum to 1
        rmcore.read_efg(text.replace(decimal, decimal[:-8]))  # (a decimal 1e-9 away: no fraction stands for it)
    notes: list[str] = []
    read = rmcore.read_efg(text, notes=notes)
    fraction = {3: "1/3", 6: "1/6"}[outcomes]
    assert notes and f"read {decimal} as {fraction} (each within 1e-12 of it), which sum to exactly 1" in notes[0]
    converted = rmcore.from_openspiel(game)
    assert len(read.infosets) == len(converted.infosets)
    assert rmcore.solve_exactly(read).game_value == pytest.approx(rmcore.solve_exactly(converted).game_value, abs=1e-9)
    solver = rmcore.CFRSolver(read, "cfr+")
    solver.run(10)
    reference = rmcore.CFRSolver(converted, "cfr+")
    reference.run(10)
    assert solver.metrics().exploitability == pytest.approx(reference.metrics().exploitability, rel=1e-9)


def test_sevenths_written_as_decimals_are_read_as_sevenths():
    notes: list[str] = []
    game = rmcore.read_efg(_game_of(" ".join(f'"{k}" 0.1428571428571428' for k in range(7))), notes=notes)
    assert game.tree.deal_probability.tolist() == [1 / 7] * 7
    assert "read 0.1428571428571428 as 1/7" in notes[0]


def test_decimals_that_already_sum_to_one_are_kept_without_a_note():
    notes: list[str] = []
    rmcore.read_efg(_game_of('"a" 0.25 "b" 0.75'), notes=notes)
    assert notes == []


@pytest.mark.parametrize(
    "outcomes,sum_words",
    [
        ('"a" 0.5 "b" 0.4', "sum to 0.9 (9/10 exactly), not exactly 1"),
        ('"a" 0.3333 "b" 0.3333 "c" 0.3333', "sum to 0.9999 (9999/10000 exactly), not exactly 1"),
        ('"a" 0.3333333333333333 "b" 0.6', "sum to 0.9333333333333333"),  # one decimal snaps, the sum is still wrong
    ],
)
def test_a_sum_that_is_really_wrong_is_refused_with_the_sum_as_a_number(outcomes, sum_words):
    with pytest.raises(ValueError, match="line 2: the probabilities of chance's information set 1") as error:
        rmcore.read_efg(_game_of(outcomes))
    assert sum_words in str(error.value)


def _huge_fractions(count: int = 1238) -> str:
    """A chance node of ``count`` outcomes 1/(10^999 + j): each number fits the reader, their exact sum does not."""
    return _game_of(" ".join(f'"o{j}" 1/{10**999 + j}' for j in range(count)))


def test_a_chance_node_whose_exact_sum_grows_without_bound_is_refused_as_soon_as_it_does():
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(_huge_fractions())
    message = str(error.value)
    assert "line 2: the probabilities of chance's information set 1 have no common denominator of fewer than 2,000" in (
        message
    )
    assert len(message) < 300, "a sentence, not a number of thousands of digits"


def test_a_link_carrying_huge_fractions_opens_the_defaults_with_the_reason():
    from tests.visits import opened
    from ui import link

    param = link.efg_param(_huge_fractions(60))
    assert len(param) <= link.MAX_PARAM_CHARS
    app = opened({"kuhn_efg": param, "kuhn_game": "Your game (.efg)"}, url_path="kuhn_poker")
    assert not app.exception
    notice = " ".join(w.value for w in app.warning)
    assert "no common denominator of fewer than 2,000 digits" in notice and "Exceeds the limit" not in notice


def test_a_list_of_outcomes_longer_than_the_node_limit_is_refused_while_it_is_read():
    text = _game_of(" ".join(f'"{k}" 1/50' for k in range(50)))
    with pytest.raises(ValueError, match="line 2: the chance outcomes list more than 20 entries"):
        rmcore.read_efg(text, max_nodes=20)
    actions = " ".join(f'"{k}"' for k in range(50))
    with pytest.raises(ValueError, match="line 2: actions list more than 20 entries"):
        rmcore.read_efg(f'EFG 2 R "x" {{ "A" "B" }}\np "" 1 1 "" {{ {actions} }} 0\n', max_nodes=20)


@pytest.mark.parametrize(
    "payoff,words",
    [
        ("1e308, -1e308", "payoffs must lie within ±1e+12"),
        ("2e12, -2e12", "payoffs must lie within ±1e+12"),
        ("1e-200, -1e-200", "a non-zero payoff must be at least 1e-100 in size"),
    ],
)
def test_payoffs_past_the_matrix_games_limits_are_refused_naming_the_line(payoff, words):
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(_game_of('"a" 1/2 "b" 1/2', [payoff, "1, -1"]))
    assert "line 4: outcome 1" in str(error.value) and words in str(error.value)


def test_outcomes_that_add_up_past_the_limit_on_a_path_are_refused_by_the_builder():
    text = (
        'EFG 2 R "x" { "A" "B" }\n'
        'p "" 1 1 "" { "a" "b" } 1 "" { 9e11, -9e11 }\n'
        't "" 2 "" { 9e11, -9e11 }\n'
        't "" 3 "" { 1, -1 }\n'
    )
    with pytest.raises(ValueError) as error:
        rmcore.read_efg(text)
    assert "line 3" in str(error.value) and "1.8e+12; payoffs must lie within ±1e+12" in str(error.value)


def test_a_built_tree_keeps_the_payoff_limits():
    def expand(history):
        if not history:
            return rmcore.Decision(1, "root", ("a", "b"), ("a", "b"))
        return rmcore.Terminal(1e308 if history == "a" else 1.0)

    with pytest.raises(ValueError, match=r"the payoff at a is 1e\+308; payoffs must lie within"):
        rmcore.build_tree_game("huge", "", expand)
    assert config.MAX_PAYOFF == 1e12 and config.MIN_PAYOFF == 1e-100


@pytest.mark.parametrize("scale", [config.MAX_PAYOFF / 2, config.MIN_PAYOFF])
def test_mmd_runs_on_payoffs_at_the_limits(scale, tmp_path):
    """MMD's default step is alpha / max|A|^2: at 1e154 or 1e-155 squaring overflowed or divided by zero. Within the
    limits it runs, from the library and from the command line."""
    text = rmcore.write_efg(rmcore.KUHN)
    for payoff in ("1", "-1", "2", "-2"):
        text = text.replace(f"{{ {payoff}, ", f"{{ {float(payoff) * scale!r}, ")
        text = text.replace(f", {payoff} }}", f", {float(payoff) * scale!r} }}")
    scaled = rmcore.read_efg(text)
    assert abs(scaled.tree.payoff).max() == pytest.approx(2 * scale)
    solver = rmcore.CFRSolver(scaled, "mmd")
    solver.run(20)
    assert 0 <= solver.metrics().exploitability / scale < 1
    path = tmp_path / "scaled.efg"
    path.write_text(text)
    out = cli("race", "--efg", str(path), "--variants", "mmd", "--iterations", "20")
    assert out.returncode == 0, out.stderr


def test_the_command_line_refuses_a_game_past_the_limits_in_one_line(tmp_path):
    path = tmp_path / "huge.efg"
    path.write_text(_game_of('"a" 1/2 "b" 1/2', ["1e155, -1e155", "1, -1"]))
    out = cli("race", "--efg", str(path), "--variants", "mmd", "--iterations", "20")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "payoffs must lie within ±1e+12" in out.stderr


def test_the_tree_page_runs_an_openspiel_export_and_says_how_it_read_the_decimals():
    from tests.visits import opened, shown
    from ui import link

    param = link.efg_param(export_gambit(pyspiel.load_game("kuhn_poker")))
    app = opened({"kuhn_efg": param, "kuhn_game": "Your game (.efg)"}, url_path="kuhn_poker")
    assert not app.exception and not app.warning
    assert len(app.session_state.kuhn_live.race.game.infosets) == 12
    read_as = [shown(c.value) for c in app.caption if c.value.startswith("Read as:")]
    assert read_as and "read 0.3333333333333333 as 1/3" in read_as[0]
