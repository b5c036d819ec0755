"""The command line's --efg FILE: a Gambit game as the game of `kuhn` and `race`, and one-line errors."""

import json

import rmcore
from tests.test_cli import cli
from tests.test_efg import SMALL


def test_kuhn_on_kuhn_written_as_efg_gives_the_numbers_of_kuhn_itself(tmp_path):
    path = tmp_path / "EFG kuhn.efg"  # a file whose name starts with EFG is still a file
    path.write_text(rmcore.write_efg(rmcore.KUHN))
    from_file = cli("kuhn", "--efg", str(path), "--variant", "cfr+", "--iterations", "100", "--json")
    built_in = cli("kuhn", "--variant", "cfr+", "--iterations", "100", "--json")
    assert from_file.returncode == built_in.returncode == 0, from_file.stderr
    ours, theirs = json.loads(from_file.stdout), json.loads(built_in.stdout)
    for key in ("exploitability", "nash_conv", "game_value", "average_policy"):
        assert ours[key] == theirs[key]
    text = cli("kuhn", "--efg", str(path), "--iterations", "10")
    assert text.returncode == 0 and text.stdout.startswith("Kuhn poker: 10 iterations") and "  J: pass " in text.stdout


def test_kuhn_and_race_on_kuhn_of_three_players_written_as_efg_give_the_numbers_of_kuhn_itself(tmp_path, capsys):
    from rmcore.__main__ import main

    path = tmp_path / "kuhn3.efg"
    path.write_text(rmcore.write_efg(rmcore.kuhn_poker(players=3)))
    printed = []
    for source in (("--efg", str(path)), ("--players", "3")):
        assert (
            main(["kuhn", *source, "--variant", "external-sampling", "--seed", "3", "--iterations", "40", "--json"])
            == 0
        )
        printed.append(json.loads(capsys.readouterr().out))
    ours, theirs = printed
    for key in ("players", "nash_conv", "nash_conv_current", "values", "average_policy"):
        assert ours[key] == theirs[key]
    assert main(["race", "--efg", str(path), "--variants", "cfr,outcome-sampling", "--iterations", "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "Kuhn poker, 3 players" and result["measure"] == "nash_conv"
    race = rmcore.Race(rmcore.kuhn_poker(players=3), ["cfr", "outcome-sampling"], seeds=5)
    race.run(20)
    assert [row["nash_conv"] for row in result["variants"]] == [s.gap for s in race.result().standings]


def test_kuhn_and_race_on_a_small_game(tmp_path):
    path = tmp_path / "small.efg"
    path.write_text(SMALL)
    out = cli("kuhn", "--efg", str(path), "--iterations", "200")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("small: 200 iterations of cfr") and "P2:1: L " in out.stdout
    out = cli("race", "--efg", str(path), "--variants", "cfr,cfr+", "--iterations", "100", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["game"] == "small" and [row["variant"] for row in result["variants"]] == [
        "cfr · alternating",
        "cfr+ · alternating",
    ]


def test_a_bad_file_is_one_line_naming_the_line_and_exit_status_2(tmp_path):
    path = tmp_path / "bad.efg"
    path.write_text(SMALL.replace("{ 3, -3 }", "{ 3, -2 }"))
    for command in (("kuhn", "--iterations", "5"), ("race", "--variants", "cfr", "--iterations", "5")):
        out = cli(*command, "--efg", str(path))
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.splitlines() == [
            f'error: --efg: .efg file {str(path)!r}, line 8: outcome 4 "" pays 3 and -2: not zero-sum'
        ]
    out = cli("kuhn", "--iterations", "5", "--efg", str(tmp_path / "missing.efg"))
    assert out.returncode == 2 and "cannot read .efg file" in out.stderr and len(out.stderr.splitlines()) == 1
    out = cli("race", "--game", "kuhn", "--efg", str(path), "--variants", "cfr", "--iterations", "5")
    assert out.returncode == 2 and "not allowed with argument" in out.stderr
