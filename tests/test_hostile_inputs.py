"""Inputs that once gave a silent wrong answer get the right answer or a message that names the problem."""

import numpy as np
import pytest

import rmcore
from rmcore import config


@pytest.mark.parametrize("payoffs", [[[3e-320, 0], [0, 1e-320]], [[1, 0], [0, 1e-320]], [[1e-101, 1], [1, 0]]])
def test_subnormal_and_vanishing_payoffs_are_refused_naming_the_cell(payoffs):
    with pytest.raises(ValueError, match=r"payoff at \(R\d, C\d\).*at least 1e-100"):
        rmcore.MatrixGame(payoffs)
    with pytest.raises(ValueError, match="at least 1e-100"):
        rmcore.MatrixGame(
            parsed := rmcore.parse_matrix_csv("\n".join(",".join(map(repr, row)) for row in payoffs)).matrix
        )
        del parsed


def test_small_payoffs_above_the_floor_still_solve():
    game = rmcore.MatrixGame([[2e-90, -1e-90], [-1e-90, 1e-90]])
    solver = rmcore.MatrixSolver(game)
    solver.run(2000)
    profile = solver.average_policy()
    assert np.isfinite(profile["row"]).all() and abs(profile["row"].sum() - 1) < 1e-12
    assert solver.metrics().nash_conv is not None and solver.metrics().nash_conv < 1e-91


@pytest.mark.parametrize(
    "text, cell",
    [
        ("1,abc\n2,3\n", "'abc'"),
        ("0x10,2\n3,4\n", "'0x10'"),
        ("1,2 # c\n3,4\n", "'2 # c'"),
        ("True,False\n1,2\n", "'True'"),
    ],
)
def test_a_first_line_that_looks_numeric_is_data_and_its_bad_cell_is_named(text, cell):
    with pytest.raises(ValueError, match=f"row 1, column \\d is {cell}"):
        rmcore.parse_matrix_csv(text)


def test_a_unicode_minus_is_a_minus_and_the_notes_say_so():
    parsed = rmcore.parse_matrix_csv("\u22121,2\n3,\u20134\n")
    assert parsed.matrix.tolist() == [[-1.0, 2.0], [3.0, -4.0]] and parsed.col_labels is None
    assert any("minus" in note for note in parsed.notes)


def test_comment_lines_are_skipped_and_do_not_change_the_shape():
    parsed = rmcore.parse_matrix_csv("# a comment\n1,2\n# another\n3,4\n")
    assert parsed.matrix.shape == (2, 2) and parsed.col_labels is None
    assert any("comment" in note for note in parsed.notes)


def test_a_header_of_names_alone_is_still_a_header():
    parsed = rmcore.parse_matrix_csv("Left,Right\n1,0\n0,1\n")
    assert parsed.col_labels == ("Left", "Right")


def test_huge_opponent_weights_do_not_overflow_to_a_zero_opponent():
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), opponent={"col": [1e308, 1e308, 0.0]})
    assert list(solver.opponent["col"]) == [0.5, 0.5, 0.0]
    policy = rmcore.fixed_strategy(rmcore.KUHN, 2, rmcore.equilibrium_policy(0.2), {"Jp": (1e308, 1e308)})
    assert policy["Jp"] == pytest.approx((0.5, 0.5))


def test_ordinary_weights_normalise_to_the_same_bits_as_a_plain_division():
    weights = np.array([7.0, 28.0, 7.0])
    solver = rmcore.MatrixSolver(rmcore.preset("rps"), opponent={"col": weights})
    assert list(solver.opponent["col"]) == (weights / weights.sum()).tolist()


def test_an_action_name_longer_than_a_table_holds_is_refused():
    with pytest.raises(ValueError, match="at most 60"):
        rmcore.MatrixGame([[1, 0], [0, 1]], row_actions=["x" * 10_000, "y"])
    assert config.MAX_LABEL_CHARS == 60


def _cli(*args):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    return subprocess.run(
        [sys.executable, "-m", "rmcore", *args], cwd=root, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve", "--matrix", "/dev/zero", "--iterations", "10"), "not a regular file"),
        (("solve", "--game", "rps", "--iterations", "9223372036854775808"), "a whole number from 0 to"),
        (
            ("race", "--game", "kuhn", "--variants", "cfr", "--iterations", "10", "--opponent", "/dev/zero"),
            "not a regular",
        ),
    ],
)
def test_the_command_line_refuses_unbounded_files_and_numbers_in_one_line(args, message):
    out = _cli(*args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr


@pytest.mark.parametrize(
    "content, message",
    [("[" * 3000 + "]" * 3000, "nested 3000 levels"), ('{"Jp": [' + "1" * 400 + ", 1]}", "400 characters")],
)
def test_an_opponent_file_nested_deep_or_with_huge_numbers_gets_one_line(tmp_path, content, message):
    path = tmp_path / "opponent.json"
    path.write_text(content)
    out = _cli("race", "--game", "kuhn", "--variants", "cfr", "--iterations", "10", "--opponent", str(path))
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    import os

    fifo = tmp_path / "matrix.csv"
    os.mkfifo(fifo)
    out = _cli("solve", "--matrix", str(fifo), "--iterations", "10")
    assert out.returncode == 2 and "not a regular file" in out.stderr


def _corrupted(field: str, change) -> rmcore.TreeGame:
    game = rmcore.KUHN
    arrays = {name: getattr(game.tree, name).copy() for name in game.tree._fields}
    change(arrays[field])
    if field == "payoff":  # (a hand-built tree keeps player 1's row of payoffs equal to payoff)
        arrays["payoffs"][0] = arrays["payoff"]
    return game._replace(tree=type(game.tree)(**arrays))


@pytest.mark.parametrize(
    "field, change, message",
    [
        ("children", lambda a: a.__setitem__(0, 10_000), "child index outside"),
        # (node 5's first child made node 2, which has a parent already: a child with two parents)
        ("children", lambda a: a.__setitem__(rmcore.KUHN.tree.child_start[5], 2), "parent and parent_slot"),
        ("child_start", lambda a: a.__setitem__(1, a[1] + 1), "one child for each of its information set's actions"),
        ("infoset", lambda a: a.__setitem__(int(np.argmax(a >= 0)), 99), "information set is outside"),
        ("player", lambda a: a.__setitem__(0, 7), "player must be"),
        ("deal_probability", lambda a: a.__setitem__(0, 0.5), "sum to 1"),
        ("payoff", lambda a: a.__setitem__(-1, np.nan), "not a finite number"),
        ("response_order", lambda a: a.__setitem__((0, 0), a[0, 1]), "every block once"),
        ("block_child_base", lambda a: a.__setitem__(0, a[0] + 1), "offsets must lie within"),
        ("block_start", lambda a: a.__setitem__(1, a[1] + 1), "every node of a block"),
        ("deal_root", lambda a: a.__setitem__(0, a[1]), "roots must be exactly"),
    ],
)
def test_a_hand_built_tree_is_checked_before_any_kernel_walks_it(field, change, message):
    game = _corrupted(field, change)
    with pytest.raises(ValueError, match=message):
        rmcore.CFRSolver(game)
    with pytest.raises(ValueError, match=message):
        rmcore.best_response(game, rmcore.equilibrium_policy(0.2), 1)


@pytest.mark.parametrize(
    "rules, message",
    [
        (dict(raises=(float("nan"), 2)), "round 1 must be a number"),
        (dict(raises=(2,)), "two sizes"),
        (dict(max_raises=60), "from 1 to 4"),
        (dict(raises=(2, 1e9)), "round 2 must be a number"),
    ],
)
def test_leduc_rules_are_checked_within_what_a_page_holds(rules, message):
    with pytest.raises(ValueError, match=message):
        rmcore.LeducRules(**rules)


def test_the_column_matrix_is_matched_to_the_row_matrix_by_its_action_names(tmp_path):
    import json as json_module

    (tmp_path / "A.csv").write_text(",L,R\nU,3,0\nD,5,1\n")
    (tmp_path / "B.csv").write_text(",R,L\nD,1,5\nU,0,3\n")  # the same game, rows and columns in another order
    (tmp_path / "same.csv").write_text(",L,R\nU,3,0\nD,5,1\n")
    shuffled = _cli(
        "solve",
        "--matrix",
        str(tmp_path / "A.csv"),
        "--col-matrix",
        str(tmp_path / "B.csv"),
        "--iterations",
        "2000",
        "--json",
    )
    ordered = _cli(
        "solve",
        "--matrix",
        str(tmp_path / "A.csv"),
        "--col-matrix",
        str(tmp_path / "same.csv"),
        "--iterations",
        "2000",
        "--json",
    )
    assert shuffled.returncode == ordered.returncode == 0, shuffled.stderr + ordered.stderr
    first, second = json_module.loads(shuffled.stdout), json_module.loads(ordered.stdout)
    assert first["average_strategies"] == second["average_strategies"] and first["value"] == second["value"]
    (tmp_path / "other.csv").write_text(",L,X\nU,1,0\nD,0,1\n")
    (tmp_path / "plain.csv").write_text("1,0\n0,1\n")
    for matrix, other, message in (
        ("A.csv", "other.csv", "names other column actions"),
        ("plain.csv", "B.csv", "names its row actions but --matrix does not"),
    ):
        out = _cli(
            "solve", "--matrix", str(tmp_path / matrix), "--col-matrix", str(tmp_path / other), "--iterations", "10"
        )
        assert out.returncode == 2 and message in out.stderr, out.stderr


def test_the_page_matches_an_uploaded_column_csv_by_name_too():
    from ui.matrix.editor import game_from_csv

    game, _ = game_from_csv(b",L,R\nU,3,0\nD,5,1\n", b",R,L\nD,1,5\nU,0,3\n", name="upload")
    assert game.col_payoffs.tolist() == [[3.0, 0.0], [5.0, 1.0]]
    with pytest.raises(ValueError, match="names other column actions"):
        game_from_csv(b",L,R\nU,3,0\nD,5,1\n", b",L,X\nU,1,0\nD,0,1\n", name="upload")


def test_an_uploaded_csv_over_what_is_read_gets_a_sentence_not_a_wordless_chip():
    from ui.matrix.editor import UPLOAD_ACCEPTED_MEGABYTES, UPLOAD_MEGABYTES, game_from_csv

    data = ("1," * 999 + "1\n").encode() * 1800  # 3.6 MB: Streamlit's uploader takes it, the reader refuses it in words
    assert UPLOAD_MEGABYTES * 2**20 < len(data) < UPLOAD_ACCEPTED_MEGABYTES * 2**20
    with pytest.raises(ValueError, match=r"the CSV is 3\.4 MB; at most 2 MB is read"):
        game_from_csv(data, None, name="big.csv")


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "--game", "rps", "--iterations", "50", "--opponent", "1,1,1", "--json"),
        ("race", "--game", "rps", "--variants", "rm,rm+", "--iterations", "50", "--opponent", "1,2,3", "--json"),
        ("kuhn", "--iterations", "20", "--json"),
    ],
)
def test_json_output_is_strict_json(args):
    import json as json_module

    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")

    out = _cli(*args)
    assert out.returncode == 0, out.stderr
    json_module.loads(out.stdout, parse_constant=refuse)
