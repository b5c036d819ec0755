"""The game catalogue: every entry builds, names and parameters are validated, and a game names its own setting."""

import pytest

import rmcore
from rmcore.trees import poker


@pytest.mark.parametrize("name", list(rmcore.TREE_GAMES))
def test_every_entry_builds_its_game_at_the_defaults_and_at_its_range_ends(name):
    entry = rmcore.TREE_GAMES[name]
    assert entry.name == name and entry.title and entry.description and "\n" not in entry.description
    game = rmcore.tree_game(name)
    assert isinstance(game, rmcore.TreeGame) and isinstance(game.rules, entry.rules)
    assert game is entry.build(*(p.default for p in entry.parameters))  # (built once: the builders cache)
    assert rmcore.tree_game_setting(game) == (name, {p.name: p.default for p in entry.parameters})
    for parameter in entry.parameters:
        assert parameter.low <= parameter.default <= parameter.high and parameter.step > 0 and parameter.help
        for value in (parameter.low, parameter.high):
            built = rmcore.tree_game(name, **{parameter.name: value})
            assert rmcore.tree_game_setting(built)[1][parameter.name] == value


def test_kuhn_takes_cards_and_bet_and_leduc_takes_nothing():
    kuhn, leduc = rmcore.TREE_GAMES["kuhn"], rmcore.TREE_GAMES["leduc"]
    assert (kuhn.title, leduc.title) == ("Kuhn poker", "Leduc hold'em")
    ranges = [(p.name, p.low, p.high, p.default) for p in kuhn.parameters]
    assert ranges == [("cards", 3, 13, 3), ("bet", 0.5, 4.0, 1.0)]
    assert kuhn.parameters[0].integer and not kuhn.parameters[1].integer and leduc.parameters == ()
    assert rmcore.tree_game("kuhn") is rmcore.KUHN and rmcore.tree_game("leduc") is poker.leduc_poker()
    assert rmcore.tree_game("kuhn", cards=5, bet=2.5) is poker.kuhn_poker(5, 2.5)
    assert rmcore.tree_game("kuhn", cards=5.0).rules == poker.KuhnRules(5, 1.0)


@pytest.mark.parametrize(
    "name, parameters, named",
    [
        ("poker", {}, "'poker'"),
        ("KUHN", {}, "'KUHN'"),
        ("kuhn", {"card": 4}, "'card'"),
        ("leduc", {"cards": 4}, "'cards'"),
        ("kuhn", {"cards": 2}, "cards must be 3 to 13; got 2"),
        ("kuhn", {"cards": 14}, "cards must be 3 to 13; got 14"),
        ("kuhn", {"cards": 4.5}, "cards must be a whole number; got 4.5"),
        ("kuhn", {"cards": True}, "cards must be 3 to 13; got True"),
        ("kuhn", {"bet": 0.25}, "bet must be 0.5 to 4; got 0.25"),
        ("kuhn", {"bet": float("nan")}, "bet must be 0.5 to 4; got nan"),
        ("kuhn", {"bet": "two"}, "bet must be a number; got 'two'"),
        ("kuhn", {"bet": None}, "bet must be a number; got None"),
    ],
)
def test_a_bad_name_or_parameter_is_a_value_error_naming_it(name, parameters, named):
    with pytest.raises(ValueError) as error:
        rmcore.tree_game(name, **parameters)
    assert named in str(error.value)


def test_a_game_outside_the_catalogue_has_no_setting():
    with pytest.raises(ValueError, match="not built from a game of the catalogue"):
        rmcore.tree_game_setting(rmcore.preset("rps"))


@pytest.mark.parametrize("players", [3, 4])
def test_kuhn_for_more_than_two_players_has_no_setting_that_would_build_two_player_kuhn(players):
    """The catalogue's Kuhn poker is two-player: its cards and bet alone would build another game."""
    with pytest.raises(ValueError, match=f"has {players} players"):
        rmcore.tree_game_setting(rmcore.kuhn_poker(players=players))


@pytest.mark.parametrize("name", list(rmcore.TREE_GAMES))
def test_each_game_is_described_once_in_the_catalogue_and_the_page_reads_it_there(name):
    """One description per game: its line and how it is played are written in the catalogue only, and the tree page
    shows them for each of its choices of that game (the classic Kuhn and Kuhn on sliders are both "kuhn")."""
    from pathlib import Path

    from ui.tables import escape
    from ui.trees import games

    entry = rmcore.TREE_GAMES[name]
    assert entry.how_to_play and entry.description
    root = Path(__file__).resolve().parent.parent
    for words in (entry.description, entry.how_to_play):
        head = words[:48]
        holders = [
            str(path.relative_to(root))
            for folder in ("rmcore", "ui", "app_pages")
            for path in (root / folder).rglob("*.py")
            if head in path.read_text(encoding="utf-8")
        ]
        assert holders == ["rmcore/trees/catalogue.py"], (head, holders)
    choices = [choice for choice, entry_name in games.ENTRY_OF_CLASSIC.items() if entry_name == name] or [name]
    for choice in choices:
        shown = games.page_words(choice, None, rmcore.tree_game(name))
        assert escape(entry.how_to_play) in shown
        if choice not in games.CLASSIC:  # (a classic choice's line is its help's: TREE_GAME_CHOICES)
            assert escape(entry.description) in shown
