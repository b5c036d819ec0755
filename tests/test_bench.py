"""The bench's records and data file (the timings themselves are printed by ``python -m rmcore bench``, never
asserted)."""

import json

import pytest

from rmcore import bench


def test_a_section_measures_and_its_rows_merge_into_the_data_file(tmp_path):
    rows = bench.measure(quick=True, only=("lp",))
    assert [row.key for row in rows] == ["tree_lp_leduc"]
    assert rows[0].unit == "s" and rows[0].value > 0 and rows[0].met is not None
    path = tmp_path / "bench.json"
    other = bench.Row("other_key", "another row", 1.5, "ms", "2 ms (a baseline)", 1.33, "<= 2 ms", True)
    bench.write_json(str(path), [other], {"date": "then"})
    bench.write_json(str(path), rows, {"date": "now"})
    written = {row["key"]: row for row in json.loads(path.read_text())["rows"]}
    assert set(written) == {"other_key", "tree_lp_leduc"}
    assert written["other_key"]["date"] == "then" and written["tree_lp_leduc"]["date"] == "now"
    table = bench.markdown_table(written.values())
    assert "| another row | 1.5 ms | 2 ms (a baseline) | 1.33x | <= 2 ms (met) |" in table


def test_an_unknown_section_is_named():
    with pytest.raises(ValueError, match="unknown bench section 'matrices'"):
        bench.measure(quick=True, only=("matrices",))


def test_the_command_line_offers_every_section():
    from rmcore.__main__ import build_parser

    bench_parser = build_parser()._subparsers._group_actions[0].choices["bench"]
    choices = next(action for action in bench_parser._actions if action.dest == "only")
    assert tuple(choices.choices) == tuple(bench.SECTIONS)


def test_the_compile_sections_statements_run_every_rule_in_each_order_it_has():
    """The statements the compile section times in fresh interpreters run here, on the warm cache: every matrix rule
    in each update order it has (a rule without an order is left out rather than refused mid-measurement)."""
    import rmcore

    for statement in (bench._FIRST_MATRIX_RUN, bench._FIRST_TREE_RUN, bench._EVERY_MATRIX_RULE):
        exec(statement, {"rmcore": rmcore})
