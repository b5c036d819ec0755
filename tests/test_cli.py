"""The command line: output formats and one-line errors with exit status 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "rmcore", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_solve_prints_json_with_the_documented_keys():
    out = cli("solve", "--game", "rps-crash", "--iterations", "20000", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert {
        "game",
        "iterations",
        "average_strategies",
        "current_strategies",
        "nash_conv",
        "exploitability",
        "value",
        "seconds",
    } <= set(result)
    assert result["iterations"] == 20000
    assert result["average_strategies"][0] == pytest.approx([0.25, 0.5, 0.25], abs=5e-3)
    assert result["exploitability"] == pytest.approx(result["nash_conv"] / 2)


def test_solve_human_readable_against_a_fixed_opponent():
    out = cli("solve", "--game", "rps", "--iterations", "5000", "--opponent", "0.4,0.3,0.3")
    assert out.returncode == 0, out.stderr
    assert "best-response gain" in out.stdout and "Paper 0.99" in out.stdout


def test_solve_reads_labelled_csv_matrices(tmp_path):
    (tmp_path / "a.csv").write_text(",L,R\nU,3,0\nD,5,1\n")
    (tmp_path / "b.csv").write_text("3,5\n0,1\n")
    out = cli(
        "solve",
        "--matrix",
        str(tmp_path / "a.csv"),
        "--col-matrix",
        str(tmp_path / "b.csv"),
        "--iterations",
        "2000",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["exploitability"] is None and result["average_strategies"][0][1] > 0.99


@pytest.mark.parametrize(
    "args,files,message",
    [
        (["--game", "nope"], {}, "invalid choice: 'nope'"),
        (["--matrix", "{tmp}/bad.csv"], {"bad.csv": "1,2\n3,nan\n"}, "row 2, column 2 is NaN"),
        (["--matrix", "{tmp}/ragged.csv"], {"ragged.csv": "1,2\n3\n"}, "row 2 has 1 numbers but 2 were expected"),
        (["--matrix", "{tmp}/missing.csv"], {}, "cannot read matrix"),
        (["--game", "rps", "--opponent", "0.5,0.5"], {}, "has 2 entries but the player has 3"),
        (["--game", "rps", "--opponent", "a,b,c"], {}, "--opponent must be comma-separated numbers"),
        (["--game", "rps", "--algorithm", "cfr"], {}, "invalid choice: 'cfr'"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, args, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    out = cli("solve", *args, "--iterations", "10")
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in out.stderr


def test_negative_iterations_exit_2():
    out = cli("solve", "--game", "rps", "--iterations", "-5")
    assert out.returncode == 2 and "iterations must be a whole number from 0 to" in out.stderr


def test_kuhn_json_has_the_documented_keys_and_openspiel_values():
    out = cli("kuhn", "--variant", "cfr", "--iterations", "100", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert {"iterations", "exploitability", "nash_conv", "game_value", "average_policy"} <= set(result)
    assert f"{result['exploitability']:.3g}" == "0.00823" and len(result["average_policy"]) == 12


def test_kuhn_bad_input_exits_2():
    out = cli("kuhn", "--variant", "mccfr", "--iterations", "5")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    out = cli("kuhn", "--iterations", "-1")
    assert out.returncode == 2 and "iterations must be a whole number" in out.stderr


def _main(capsys, *args) -> tuple[int, str, str]:
    """``python -m rmcore ARGS`` in this process (the kernels already loaded): status, stdout, stderr."""
    from rmcore.__main__ import main

    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_kuhn_with_players_reports_nash_conv_and_each_players_value_never_exploitability(capsys):
    import rmcore
    from rmcore.trees.cfr import player_values

    status, out, _ = _main(capsys, "kuhn", "--players", "3", "--variant", "cfr+", "--iterations", "50", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["players"] == 3 and "exploitability" not in result and "game_value" not in result
    game = rmcore.kuhn_poker(players=3)
    solver = rmcore.CFRSolver(game, "cfr+", max_points=0)
    solver.run(50)
    best, expected = player_values(game, solver.average_policy().probabilities)
    assert result["nash_conv"] == solver.metrics().nash_conv > 0 and result["values"] == expected.tolist()
    assert result["nash_conv"] == pytest.approx(float((best - expected).sum()), abs=1e-12)
    assert result["average_policy"] == solver.average_policy().to_dict() and len(result["average_policy"]) == 48
    status, out, _ = _main(capsys, "kuhn", "--players", "4", "--iterations", "5")
    assert status == 0 and out.startswith("Kuhn poker, 4 players: 5 iterations of cfr (alternating)")
    assert "nash_conv " in out and "player 4 " in out and "xploitability" not in out
    status, two, _ = _main(capsys, "kuhn", "--players", "2", "--iterations", "5", "--json")
    status, default, _ = _main(capsys, "kuhn", "--iterations", "5", "--json")
    two, default = json.loads(two), json.loads(default)
    assert two.pop("seconds") and default.pop("seconds") and two == default and "players" not in two


@pytest.mark.parametrize(
    "args,message",
    [
        (["--players", "5"], "error: argument --players: Kuhn poker takes 2 to 4 players; got 5"),
        (["--players", "1"], "error: argument --players: Kuhn poker takes 2 to 4 players; got 1"),
        (["--players", "three"], "error: argument --players: Kuhn poker takes 2 to 4 players; got three"),
        (["--players", "3", "--efg", "game.efg"], "error: --players is Kuhn poker's; the game of an --efg file has"),
        (["--players", "3", "--variant", "mmd"], "error: magnetic mirror descent runs on two-player zero-sum games"),
    ],
)
def test_kuhn_players_out_of_range_or_for_another_game_is_one_line_and_exit_status_2(capsys, args, message):
    status, out, err = _main(capsys, "kuhn", "--iterations", "5", *args)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith(message)


def test_race_prints_a_table_and_json():
    out = cli("race", "--game", "rps-crash", "--variants", "rm,prm+/alternating/linear", "--iterations", "20000")
    assert out.returncode == 0, out.stderr
    assert "prm+ · expected · alternating · linear" in out.stdout and "not yet" in out.stdout
    out = cli(
        "race", "--game", "kuhn", "--variants", "cfr,chance-sampling", "--iterations", "500", "--seeds", "2", "--json"
    )
    result = json.loads(out.stdout)
    assert result["measure"] == "nash_conv" and [v["variant"] for v in result["variants"]] == [
        "cfr · alternating",
        "chance-sampling · alternating",
    ]
    assert (
        result["variants"][0]["reached"]["1e-02"]["iterations"] > 0
        and result["variants"][0]["reached"]["1e-06"] is None
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["--variants", "rm,nope"], "unknown part 'nope'"),
        (["--variants", ""], "1 to 10 variants"),
        (["--variants", "rm", "--seeds", "0"], "seeds must be"),
        (["--variants", "rm", "--opponent", "1,x"], "--opponent must be"),
    ],
)
def test_race_bad_input_is_one_line(args, message):
    out = cli("race", "--game", "rps", "--iterations", "10", *args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_race_on_leduc_and_on_kuhn_with_sliders_gives_the_library_numbers():
    import rmcore

    out = cli("race", "--game", "leduc", "--variants", "cfr+", "--iterations", "20", "--json")
    assert out.returncode == 0, out.stderr
    solver = rmcore.CFRSolver(rmcore.leduc_poker(), "cfr+")
    solver.run(20)
    assert json.loads(out.stdout)["variants"][0]["nash_conv"] == solver.metrics().nash_conv
    out = cli(
        "race", "--game", "kuhn", "--cards", "5", "--bet", "2.5", "--variants", "cfr", "--iterations", "50", "--json"
    )
    assert out.returncode == 0 and json.loads(out.stdout)["game"] == "Kuhn poker, 5 cards, bet 2.5"
    out = cli("race", "--game", "kuhn", "--cards", "20", "--variants", "cfr", "--iterations", "5")
    assert out.returncode == 2 and "cards must be 3 to 13" in out.stderr and "Traceback" not in out.stderr
    out = cli("race", "--game", "leduc", "--cards", "5", "--variants", "cfr", "--iterations", "5")
    assert out.returncode == 2 and "Leduc hold'em has no parameter 'cards'" in out.stderr
    out = cli("race", "--game", "kuhn", "--variants", "cfr", "--iterations", "5")
    assert out.returncode == 0 and "classic Kuhn poker" in out.stdout


def test_race_against_a_fixed_poker_player_reads_its_strategy_from_json(tmp_path):
    import rmcore

    exact = rmcore.solve_exactly(rmcore.KUHN)
    opponent = rmcore.fixed_strategy(rmcore.KUHN, 2, exact.policy, {"Jp": (1, 0)})
    (tmp_path / "p2.json").write_text(json.dumps(opponent))
    out = cli(
        "race",
        "--game",
        "kuhn",
        "--variants",
        "cfr+",
        "--iterations",
        "100",
        "--opponent",
        str(tmp_path / "p2.json"),
        "--json",
    )
    assert out.returncode == 0, out.stderr
    solver = rmcore.CFRSolver(rmcore.KUHN, "cfr+", opponent=opponent)
    solver.run(100)
    result = json.loads(out.stdout)
    assert result["measure"] == "br_gain_1" and result["variants"][0]["br_gain_1"] == solver.metrics().br_gains[0]
    (tmp_path / "bad.json").write_text(json.dumps({"Jp": [1, 0]}))
    for path, message in (
        (tmp_path / "bad.json", "every one of its information sets"),
        (tmp_path / "none.json", "could not read"),
    ):
        out = cli("race", "--game", "kuhn", "--variants", "cfr", "--iterations", "5", "--opponent", str(path))
        assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


NFG_PRISONERS = """NFG 1 R "Prisoners" { "Player 1" "Player 2" } { { "Quiet" "Confess" } { "Quiet" "Confess" } }
-1 -1  0 -3  -3 0  -2 -2
"""


def test_solve_and_race_read_a_gambit_nfg_file(tmp_path):
    path = tmp_path / "prisoners.nfg"
    path.write_text(NFG_PRISONERS)
    out = cli("solve", "--nfg", str(path), "--iterations", "2000", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["game"] == "Prisoners" and result["average_strategies"][0][1] > 0.99  # confessing dominates
    out = cli("race", "--nfg", str(path), "--variants", "rm,rm+", "--iterations", "500", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["game"] == "Prisoners"


@pytest.mark.parametrize("command", ["solve", "race"])
@pytest.mark.parametrize(
    "text,message",
    [
        ('NFG 1 R "" { "1" "2" } { 2 2 }\n1 -1 -1 1 -1 x 1 -1\n', "line 2, column 14: expected a payoff number"),
        ('NFG 1 R "" { "1" } { 2 }\n1 2\n', "a game has at least two players; this file has 1 player"),
        (None, "cannot read .nfg file"),
    ],
)
def test_a_bad_nfg_file_exits_2_with_one_line(tmp_path, command, text, message):
    path = tmp_path / "bad.nfg"
    if text is not None:
        path.write_text(text)
    variants = ["--variants", "rm"] if command == "race" else []
    out = cli(command, "--nfg", str(path), "--iterations", "10", *variants)
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in out.stderr


def test_nfg_goes_without_a_column_matrix_and_apart_from_the_other_sources(tmp_path):
    path = tmp_path / "prisoners.nfg"
    path.write_text(NFG_PRISONERS)
    out = cli("solve", "--nfg", str(path), "--col-matrix", str(path), "--iterations", "10")
    assert out.returncode == 2 and "--col-matrix goes with --matrix, not with --nfg" in out.stderr
    out = cli("solve", "--nfg", str(path), "--game", "rps", "--iterations", "10")
    assert out.returncode == 2 and "not allowed with argument" in out.stderr


def test_race_on_the_teaching_games_takes_their_parameters_from_the_catalogue():
    import rmcore

    out = cli("race", "--game", "liars_dice", "--sides", "3", "--variants", "cfr", "--iterations", "30", "--json")
    assert out.returncode == 0, out.stderr
    solver = rmcore.CFRSolver(rmcore.trees.liars_dice_game(3), "cfr")
    solver.run(30)
    result = json.loads(out.stdout)
    assert result["game"] == "Liar's dice, 3 sides"
    assert result["variants"][0]["nash_conv"] == solver.metrics().nash_conv
    out = cli("race", "--game", "goofspiel", "--cards", "3", "--variants", "cfr+", "--iterations", "10", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["game"] == "Goofspiel, 3 cards"
    out = cli("race", "--game", "goofspiel", "--cards", "7", "--variants", "cfr", "--iterations", "5")
    assert out.returncode == 2 and "Goofspiel's cards must be 3 to 5; got 7" in out.stderr
    out = cli("race", "--game", "kuhn", "--sides", "4", "--variants", "cfr", "--iterations", "5")
    assert out.returncode == 2 and "Kuhn poker has no parameter 'sides'" in out.stderr
    help_text = cli("race", "--help").stdout
    assert "--sides" in help_text and "goofspiel:" in help_text and "kuhn:" in help_text


# -- games of three players or more ---------------------------------------------------------------------------------

#: A 2x2x2x2 game of four players in the payoff version, player 1's strategy changing fastest (profile by profile):
#: player p is paid +1 for matching player p + 1's action, -1 for not, player 4 for mismatching player 1, and player
#: 1 a half more for its first action, so that uniform play is not an equilibrium and learning moves from it.
NFG_FOUR = 'NFG 1 R "Four" { "1" "2" "3" "4" } { 2 2 2 2 }\n' + "\n".join(
    " ".join(
        f"{(1 if a[p] == a[(p + 1) % 4] else -1) + (0.5 if p == 0 and a[0] == 0 else 0):g}"
        if p < 3
        else f"{1 if a[3] != a[0] else -1}"
        for p in range(4)
    )
    for a in [(k & 1, k >> 1 & 1, k >> 2 & 1, k >> 3 & 1) for k in range(16)]
)


def test_solve_on_three_players_prints_each_players_strategy_and_nash_conv_never_exploitability(capsys):
    import rmcore

    start = "0.9,0.1;0.6,0.4;0.2,0.8"
    status, out, _ = _main(capsys, "solve", "--game", "matching-pennies-3p", "--iterations", "300", "--start", start)
    assert status == 0 and out.startswith("Three-player matching pennies: 300 iterations of rm (expected, simultaneous")
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == [
        "  average strategy of player 1",
        "  average strategy of player 2",
        "  average strategy of player 3",
        "  nash_conv",
        "  nash_conv of the current strategies",
        "  best-response gains",
        "  joint play's CCE gap",
    ]
    assert "xploitability" not in out and "value" not in out
    status, out, _ = _main(
        capsys, "solve", "--game", "matching-pennies-3p", "--iterations", "300", "--start", start, "--json"
    )
    result = json.loads(out)
    solver = rmcore.MatrixSolver(rmcore.preset("matching-pennies-3p"), start=[(0.9, 0.1), (0.6, 0.4), (0.2, 0.8)])
    solver.run(300)
    metrics, average = solver.metrics(), solver.average_policy()
    assert "exploitability" not in result and "value" not in result and "br_gain" not in result
    assert result["players"] == 3 and result["fixed_players"] == []
    assert result["average_strategies"] == [average[f"player {p}"].tolist() for p in (1, 2, 3)]
    assert result["current_strategies"] == [solver.current_policy()[f"player {p}"].tolist() for p in (1, 2, 3)]
    assert result["nash_conv"] == metrics.nash_conv > 0.1 and result["nash_conv_current"] == metrics.nash_conv_current
    assert result["br_gains"] == list(metrics.br_gains) and sum(result["br_gains"]) == pytest.approx(metrics.nash_conv)
    assert (result["cce_gap"], result["ce_gap"]) == (metrics.cce_gap, metrics.ce_gap) and result["cce_gap"] > 0


def test_solve_reads_an_nfg_file_of_four_players_and_fixes_players_by_number(tmp_path, capsys):
    import rmcore

    path = tmp_path / "four.nfg"
    path.write_text(NFG_FOUR)
    args = ("solve", "--nfg", str(path), "--iterations", "200", "--start", "1,0;1,1;0,1;1,3", "--opponent", "4:1,3")
    status, out, _ = _main(capsys, *args, "--json")
    result = json.loads(out)
    solver = rmcore.MatrixSolver(
        rmcore.read_nfg(NFG_FOUR), start=[(1, 0), (1, 1), (0, 1), (1, 3)], opponent={4: [1, 3]}
    )
    solver.run(200)
    assert status == 0 and result["game"] == "Four" and result["players"] == 4 and result["fixed_players"] == [4]
    assert result["average_strategies"][3] == [0.25, 0.75] and result["br_gains"][3] is None
    assert result["br_gains"] == list(solver.metrics().br_gains) and result["nash_conv"] == solver.metrics().nash_conv
    assert result["cce_gap"] is None and result["ce_gap"] is None  # (the joint play is kept in self-play only)
    status, out, _ = _main(capsys, *args)
    assert "player 4 fixed" in out and "  fixed strategy of player 4: 1 0.2500, 2 0.7500" in out
    assert "  nash_conv (of the learners, players 1, 2 and 3): " in out and "CCE" not in out
    status, out, _ = _main(capsys, "solve", "--nfg", str(path), "--iterations", "50", "--opponent", "2:1,0;3:1,0;4:1,0")
    assert status == 0 and "players 2, 3 and 4 fixed" in out and "best-response gain of the learner, player 1: " in out
    assert "nash_conv" not in out
    path.write_text(NFG_FOUR.replace('"Four"', '""'))  # (a file without a title is named by its path)
    status, out, _ = _main(capsys, "solve", "--nfg", str(path), "--iterations", "5", "--json")
    assert json.loads(out)["game"] == str(path)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--algorithm", "exrm+"], "error: exrm+ (extragradient RM+) evaluates both players' regrets"),
        (["--updates", "alternating"], "error: alternating updates let the column player answer"),
        (["--start", "1,0;1,0"], "error: --start must be 3 lists of weights separated by ';', one per player"),
        (["--start", "1,0;x,1;1,0"], "error: --start must be 3 lists of weights"),
        (["--start", "1,0;1,0;1,0,0"], "error: player 3's start has 3 entries but the player has 2"),
        (["--opponent", "0.5,0.5"], "error: --opponent of a game of 3 players names each fixed player"),
        (["--opponent", "3:1,0;3:0,1"], "error: --opponent names player 3 twice"),
        (["--opponent", "4:1,0"], "error: a fixed player is numbered 1 to 3; got 4"),
        (["--opponent", "1:1,0;2:1,0;3:1,0"], "error: every one of the 3 players is fixed: at least one must learn"),
        (["--col-matrix", "b.csv"], "error: --col-matrix goes with --matrix, not with --game"),
    ],
)
def test_what_three_players_cannot_take_is_one_line_and_exit_status_2(capsys, args, message):
    status, out, err = _main(capsys, "solve", "--game", "nau-2x2x2", "--iterations", "5", *args)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith(message), err


def test_race_on_three_and_four_players_and_its_refusals(tmp_path, capsys):
    import rmcore

    status, out, _ = _main(
        capsys, "race", "--game", "nau-2x2x2", "--variants", "rm,rm+/sampled", "--iterations", "200", "--seeds", "2"
    )
    assert status == 0 and out.startswith("Nau et al.'s 2x2x2 game: 200 iterations per variant; nash_conv")
    assert "rm+ · sampled · simultaneous · uniform" in out
    path = tmp_path / "four.nfg"
    path.write_text(NFG_FOUR)
    status, out, _ = _main(
        capsys, "race", "--nfg", str(path), "--variants", "rm+", "--iterations", "100", "--start", "1,0;1,1;0,1;1,3",
        "--json",
    )  # fmt: skip
    solver = rmcore.MatrixSolver(rmcore.read_nfg(NFG_FOUR), "rm+", start=[(1, 0), (1, 1), (0, 1), (1, 3)])
    solver.run(100)
    result = json.loads(out)
    assert result["game"] == "Four" and result["measure"] == "nash_conv"
    assert result["variants"][0]["nash_conv"] == solver.metrics().nash_conv
    status, out, _ = _main(
        capsys, "race", "--nfg", str(path), "--variants", "rm", "--iterations", "50", "--opponent", "2:1,0;3:1,0;4:1,0",
        "--json",
    )  # fmt: skip
    assert status == 0 and json.loads(out)["measure"] == "br_gain_1"
    for variants, message in (
        ("rm,exrm+", "error: exrm+ (extragradient RM+) evaluates both players' regrets"),
        ("rm,rm/alternating", "error: alternating updates let the column player answer"),
    ):
        status, out, err = _main(capsys, "race", "--game", "nau-2x2x2", "--variants", variants, "--iterations", "5")
        assert status == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith(message), err
