"""What every learning rule and CFR variant is checked against: the paper it comes from, the independent route the test
suite holds it to, how closely, and the tests that do it.

One record per algorithm (:data:`CHECKS`), read by three places that must say the same: the status table of
``docs/reference/algorithms.md`` (generated from it: ``python -m rmcore.verification --write``; a test fails when the
page is stale), the line under each page's variant picker (:attr:`Check.line`), and the test suite (a test fails
when a rule or variant has no record, or a record names a test that does not exist).

>>> from rmcore.verification import check
>>> check("tree", "discounted").line
"equal to OpenSpiel's DCFRSolver to the last bit (regrets and current policy)"
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

__all__ = ["Check", "CHECKS", "check", "status_table", "TABLE_START", "TABLE_END"]


class Check(NamedTuple):
    """How one algorithm is verified.

    ``reference`` is the independent route (another implementation, the authors' code or its numbers, a slow reference
    in ``tests/``, an exact value); ``tolerance`` how closely and how long; ``tests`` the pytest node ids (file and
    function) that check it; ``line`` the same in a few words, as the page shows it under the variant picker.
    """

    paper: str
    reference: str
    tolerance: str
    tests: tuple[str, ...]
    line: str


_MATRIX = "tests/test_matrix.py::"
_RULES = "tests/test_rules.py::"
_SMOOTH = "tests/test_frontier_matrix.py::"
_TREE = "tests/test_frontier_cfr.py::"
_CORRELATED = "tests/test_correlated_learners.py::"

_PLAIN_LOOP = Check(
    "",
    "a plain-Python loop written from the definitions (`tests/naive_rules.py`), every option: expected and sampled "
    "(the same random numbers), both update orders, the three averagings, a fixed opponent, a start",
    "averages, current strategies and regrets to 1e-12 (relative to the largest), after 150 to 300 iterations",
    (_RULES + "test_defaults_equal_the_plain_loop", _RULES + "test_every_option_equals_the_plain_loop"),
    "equal to a plain-Python reference to 1e-12",
)

#: (family, name) -> :class:`Check`, for every rule of ``rmcore.ALGORITHMS`` and variant of ``rmcore.CFR_ALGORITHMS``.
CHECKS: dict[tuple[str, str], Check] = {
    ("matrix", "rm"): Check(
        "Hart & Mas-Colell 2000",
        "a slow plain-Python regret matching (`tests/naive.py`), expected and sampled (the same random numbers), both "
        "update orders, the three averagings; the exact LP value (scipy's HiGHS) on random zero-sum games",
        "strategies to 1e-10, regrets to 1e-9 after 150 iterations",
        (_MATRIX + "test_every_variant_matches_the_reference", _MATRIX + "test_fixed_opponent_matches_the_reference"),
        "equal to a plain-Python reference to 1e-10",
    ),
    ("matrix", "rm+"): Check(
        "Tammelin 2014",
        "the slow plain-Python reference (`tests/naive.py`); on Cai et al.'s 3x3 game the SOGRM authors' code's "
        "last-iterate duality gap (menglinjian/NeurIPS-2025-SOGRM, `main.py`)",
        "strategies to 1e-10 after 150 iterations; the authors' 0.308 at 100,000 iterations, to 3 digits",
        (
            _MATRIX + "test_every_variant_matches_the_reference",
            _SMOOTH + "test_rm_plus_and_prm_plus_last_iterates_stay_far_from_equilibrium",
        ),
        "equal to a plain-Python reference to 1e-10, and to the SOGRM authors' numbers",
    ),
    ("matrix", "prm+"): Check(
        "Farina, Kroer & Sandholm 2021",
        "the slow plain-Python reference (`tests/naive.py`); on Cai et al.'s 3x3 game the SOGRM authors' code's "
        "last-iterate duality gap; the exact LP value on random zero-sum games",
        "strategies to 1e-10 after 150 iterations; the authors' 0.622 at 100,000 iterations, to 3 digits",
        (
            _MATRIX + "test_every_variant_matches_the_reference",
            _MATRIX + "test_random_zero_sum_value_agrees_with_the_lp",
            _SMOOTH + "test_rm_plus_and_prm_plus_last_iterates_stay_far_from_equilibrium",
        ),
        "equal to a plain-Python reference to 1e-10, and to the SOGRM authors' numbers",
    ),
    ("matrix", "hedge"): _PLAIN_LOOP._replace(
        paper="Freund & Schapire 1997; Littlestone & Warmuth 1994",
        tests=(*_PLAIN_LOOP.tests, _RULES + "test_the_anytime_step_equals_the_plain_loop"),
    ),
    ("matrix", "optimistic-hedge"): _PLAIN_LOOP._replace(
        paper="Rakhlin & Sridharan 2013; Syrgkanis, Agarwal, Luo & Schapire 2015"
    ),
    ("matrix", "fictitious-play"): _PLAIN_LOOP._replace(
        paper="Brown 1951; Robinson 1951",
        tolerance=_PLAIN_LOOP.tolerance + "; to the last bit on Shapley's game (integer payoffs, 500 iterations)",
        tests=(*_PLAIN_LOOP.tests, _RULES + "test_fictitious_play_on_integer_payoffs_is_the_plain_loop_to_the_bit"),
    ),
    ("matrix", "gda"): _PLAIN_LOOP._replace(paper="Zinkevich 2003"),
    ("matrix", "optimistic-gda"): _PLAIN_LOOP._replace(paper="Daskalakis, Ilyas, Syrgkanis & Zeng 2018"),
    ("matrix", "sprm+"): Check(
        "Farina, Grand-Clément, Kroer, Lee & Luo 2023; Cai, Farina, Grand-Clément, Kroer, Lee, Luo & Zheng 2023",
        "a slow reference in the order of the SOGRM authors' `SPRMSolver` (`tests/naive_smooth.py`, plain lists, a "
        "sort-based projection); the authors' code's duality gaps on Cai et al.'s 3x3 game",
        "the last iterate to 1e-13 at every iteration (1,000 on Cai et al.'s game, 300 on two others); the authors' "
        "gaps after 1 to 10 iterations to 4 digits; below 1e-12 within 1,000 iterations",
        (
            _SMOOTH + "test_the_last_iterate_equals_the_reference_at_every_iteration",
            _SMOOTH + "test_sprm_plus_gives_the_authors_numbers",
            _SMOOTH + "test_the_smoothed_rules_last_iterates_reach_machine_precision_within_1000_iterations",
        ),
        "equal to the SOGRM authors' SPRMSolver (as a slow reference in its order) to 1e-13 at every iteration",
    ),
    ("matrix", "exrm+"): Check(
        "Cai, Farina, Grand-Clément, Kroer, Lee, Luo & Zheng 2023",
        "a slow reference written from the paper (`tests/naive_smooth.py`, plain lists, a sort-based projection)",
        "the last iterate and the average to 1e-13 at every iteration (1,000 on Cai et al.'s game, 300 on two "
        "others); below 1e-12 within 1,000 iterations",
        (
            _SMOOTH + "test_the_last_iterate_equals_the_reference_at_every_iteration",
            _SMOOTH + "test_the_smoothed_rules_last_iterates_reach_machine_precision_within_1000_iterations",
        ),
        "equal to a slow reference written from Cai et al. (2023) to 1e-13 at every iteration",
    ),
    ("matrix", "swap-rm"): Check(
        "Blum & Mansour 2007 (over Hart & Mas-Colell's regret matching)",
        "a slow plain-Python reference written from the paper (`tests/naive_correlated.py`: plain lists, the "
        "stationary distribution by numpy's least squares rather than the kernel's GTH elimination), expected and "
        "sampled (the "
        "same random numbers), from a uniform and a non-uniform start; its CE gap against OpenSpiel's `ce_dist`",
        "strategies, external and per-action regrets and the joint distribution to 1e-12 at every iteration (150); "
        "on Shapley's game from a non-uniform start a CE gap below 0.02 after 10,000 iterations",
        (
            _CORRELATED + "test_swap_rm_equals_the_plain_loop_iterate_by_iterate",
            _CORRELATED + "test_on_shapleys_game_rm_reaches_the_coarse_set_and_swap_rm_the_correlated_one",
            _CORRELATED + "test_swap_rms_internal_regret_stays_under_its_bound",
        ),
        "equal to a plain-Python reference written from Blum & Mansour (2007) to 1e-12 at every iteration",
    ),
    ("matrix", "internal-rm"): Check(
        "Hart & Mas-Colell 2000",
        "a slow plain-Python reference written from the paper's eq. (2.2) (`tests/naive_correlated.py`), drawing the "
        "same random numbers, the smallest inertia the paper allows and a larger one",
        "strategies, external and pair regrets and the joint distribution to 1e-12 at every iteration (100 to 300)",
        (
            _CORRELATED + "test_internal_rm_equals_the_plain_loop_iterate_by_iterate",
            _CORRELATED + "test_internal_rm_with_a_larger_inertia_equals_the_plain_loop",
        ),
        "equal to a plain-Python reference written from Hart & Mas-Colell (2000) to 1e-12 at every iteration",
    ),
    ("tree", "cfr"): Check(
        "Zinkevich, Johanson, Bowling & Piccione 2007",
        "OpenSpiel's C++ `CFRSolver` (two players: Kuhn, Leduc; Liar's dice and Goofspiel built by rmcore; three and "
        "four: Kuhn); for three players a slow plain-Python CFR of n players (`tests/naive_nplayer_cfr.py`), both "
        "update orders",
        "exploitability after every iteration to 1e-9 (100 iterations); the average policy bit for bit at 500; on "
        "Liar's dice and Goofspiel the exploitability to 1e-12 over 30 iterations; three and four players: NashConv to "
        "1e-12 (every iteration to 100, four players to 20, then every 50th), the average bit for bit at 500",
        (
            "tests/test_openspiel.py::test_equals_openspiels_cpp_solver_after_every_iteration_and_bit_for_bit",
            "tests/test_teaching_games.py::test_cfr_curve_equals_openspiels_cpp_solver",
            "tests/test_nplayer_trees.py::test_cfr_equals_openspiels_cpp_solver_after_every_iteration_and_bit_for_bit",
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
        ),
        "equal to OpenSpiel's CFRSolver to the last bit",
    ),
    ("tree", "cfr+"): Check(
        "Tammelin 2014",
        "OpenSpiel's C++ `CFRPlusSolver` (two players: Kuhn, Leduc; three: Kuhn); for three players the slow "
        "plain-Python CFR of n players (`tests/naive_nplayer_cfr.py`), both update orders",
        "exploitability after every iteration to 1e-9 (100 iterations); the average policy bit for bit at 500; three "
        "players: NashConv to 1e-12, the average bit for bit at 500",
        (
            "tests/test_openspiel.py::test_equals_openspiels_cpp_solver_after_every_iteration_and_bit_for_bit",
            "tests/test_nplayer_trees.py::test_cfr_equals_openspiels_cpp_solver_after_every_iteration_and_bit_for_bit",
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
        ),
        "equal to OpenSpiel's CFRPlusSolver to the last bit",
    ),
    ("tree", "linear"): Check(
        "Brown & Sandholm 2019",
        "a slow plain-Python CFR (`tests/naive_cfr.py`; on any poker rules `tests/naive_rules_cfr.py`), both update "
        "orders; three players (Kuhn): the slow plain-Python CFR of n players (`tests/naive_nplayer_cfr.py`)",
        "average policy and regrets to 1e-12 after 30 iterations (Kuhn) and 20 (Kuhn with other cards and bets); three "
        "players: average and current policy to 1e-12 after 12",
        (
            "tests/test_kuhn.py::test_variants_match_the_reference_cfr",
            "tests/test_poker.py::test_variants_match_the_reference_cfr_on_the_rules",
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
        ),
        "equal to a plain-Python reference to 1e-12",
    ),
    ("tree", "discounted"): Check(
        "Brown & Sandholm 2019",
        "OpenSpiel's Python `DCFRSolver(game, α, β, γ)` (Kuhn, Leduc), three parameter sets; three players (Kuhn, "
        "the defaults): the slow plain-Python CFR of n players (`tests/naive_nplayer_cfr.py`), both orders",
        "regrets and current policy bit for bit after every iteration (Kuhn 100, Leduc 25); the average to 1e-12 "
        "(the strategy weight multiplied in another order); three players: average and current policy to 1e-12 after "
        "12",
        (
            "tests/test_cfr_variants.py::test_discounted_equals_openspiels_python_dcfr_on_kuhn",
            "tests/test_cfr_variants.py::test_discounted_equals_openspiels_python_dcfr_on_leduc",
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
        ),
        "equal to OpenSpiel's DCFRSolver to the last bit (regrets and current policy)",
    ),
    ("tree", "chance-sampling"): Check(
        "Lanctot, Waugh, Zinkevich & Bowling 2009",
        "a recursive plain-Python reference written from the paper, the deals as its sampled blocks, drawing the same "
        "random numbers (`tests/naive_mccfr.py`), both update orders: two players (Kuhn, Leduc, a coin whose deals "
        "are not equally likely), three (Kuhn); Kuhn poker's known value −1/18",
        "regrets and strategy sums to 1e-12 (in fact to the bit; Kuhn 200 iterations, Leduc 20, the coin 200, "
        "three-player Kuhn 100); exploitability below 0.01 and the game value within 0.01 of −1/18 after 20,000 "
        "iterations",
        (
            "tests/test_mccfr.py::test_chance_sampling_equals_the_recursive_reference_drawing_the_same_deals",
            "tests/test_nplayer_trees.py::test_chance_sampling_on_three_player_kuhn_equals_the_recursive_reference",
            "tests/test_mccfr.py::test_chance_sampling_converges_where_the_deals_are_not_equally_likely",
            "tests/test_kuhn.py::test_every_variant_converges_to_the_game_value",
        ),
        "equal to a plain-Python reference on the same random numbers to 1e-12",
    ),
    ("tree", "pcfr+"): Check(
        "Farina, Kroer & Sandholm 2021",
        "a slow plain-Python PCFR+ written from the paper (`tests/naive_pcfr.py`); three players (Kuhn): the slow "
        "plain-Python CFR of n players (`tests/naive_nplayer_cfr.py`), both orders",
        "regrets, prediction, current and average policy to 1e-12 (Kuhn 200 iterations, both orders; Leduc 20); three "
        "players: average and current policy to 1e-12 after 12",
        (
            "tests/test_cfr_variants.py::test_pcfr_plus_equals_the_reference_on_kuhn",
            "tests/test_cfr_variants.py::test_pcfr_plus_equals_the_reference_on_leduc",
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
        ),
        "equal to a plain-Python reference to 1e-12",
    ),
    ("tree", "external-sampling"): Check(
        "Lanctot, Waugh, Zinkevich & Bowling 2009",
        "a recursive plain-Python reference drawing the same random numbers (`tests/naive_mccfr.py`), two players "
        "(Kuhn, Leduc) and three (Kuhn); OpenSpiel's Python `ExternalSamplingSolver` over 10 seeds",
        "regrets and strategy sums to 1e-12 (Kuhn 300, Leduc 40, three-player Kuhn 100 iterations); the median "
        "exploitability within a factor 1.5 of OpenSpiel's after 2,000",
        (
            "tests/test_mccfr.py::test_equals_the_recursive_reference_drawing_the_same_numbers",
            "tests/test_nplayer_trees.py::test_monte_carlo_cfr_on_three_player_kuhn_equals_the_recursive_reference",
            "tests/test_mccfr.py::test_median_exploitability_agrees_with_openspiels_mccfr_over_seeds",
        ),
        "equal to a plain-Python reference on the same random numbers to 1e-12",
    ),
    ("tree", "outcome-sampling"): Check(
        "Lanctot, Waugh, Zinkevich & Bowling 2009",
        "a recursive plain-Python reference drawing the same random numbers (`tests/naive_mccfr.py`), two players "
        "(Kuhn, Leduc) and three (Kuhn); OpenSpiel's Python `OutcomeSamplingSolver` over 10 seeds",
        "regrets and strategy sums to 1e-12 (Kuhn 300, Leduc 40, three-player Kuhn 100 iterations); the median "
        "exploitability within a factor 1.5 of OpenSpiel's after 2,000",
        (
            "tests/test_mccfr.py::test_equals_the_recursive_reference_drawing_the_same_numbers",
            "tests/test_nplayer_trees.py::test_monte_carlo_cfr_on_three_player_kuhn_equals_the_recursive_reference",
            "tests/test_mccfr.py::test_median_exploitability_agrees_with_openspiels_mccfr_over_seeds",
        ),
        "equal to a plain-Python reference on the same random numbers to 1e-12",
    ),
    ("tree", "mmd"): Check(
        "Sokota, D'Orazio, Kolter, Loizou, Lanctot, Mitliagkas, Brown & Kroer 2023",
        "OpenSpiel's Python `MMDDilatedEnt` (Kuhn; Leduc in the slow tests); two-player zero-sum games only (refused "
        "on others)",
        "current policy, its NashConv and the average after every iteration to 1e-10 (Kuhn 50 iterations, two "
        "parameter sets; Leduc 20)",
        (
            "tests/test_mmd.py::test_mmd_is_openspiels_mmd_dilated_ent_on_kuhn_after_every_iteration",
            "tests/test_mmd.py::test_mmd_is_openspiels_mmd_dilated_ent_on_leduc",
        ),
        "equal to OpenSpiel's MMDDilatedEnt to 1e-10",
    ),
    ("tree", "pdcfr+"): Check(
        "Xu, Li, Liu, Fu, Fu, Xing & Cheng 2024",
        "the authors' code (rpSebastian/PDCFRPlus, `pdcfrplus/cfr/`), as a slow reference in its update order "
        "(`tests/naive_pdcfr.py`), itself equal to that code's published exploitabilities (by OpenSpiel's "
        "exploitability) to 7 digits",
        "exploitability to 1e-6 relative after every iteration while above 1e-10 (Kuhn 300, both orders; Leduc 100); "
        "regrets and current policy to 1e-12, the average to 1e-13 (Kuhn to 1,000); three players (Kuhn, against the "
        "slow plain-Python CFR of n players, `tests/naive_nplayer_cfr.py`, both orders): average and current policy to "
        "1e-12 after 12",
        (
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
            _TREE + "test_equal_to_the_reference_on_kuhn_at_every_iteration",
            _TREE + "test_equal_to_the_reference_on_leduc_at_every_iteration",
            _TREE + "test_the_reference_gives_the_authors_published_numbers_on_kuhn",
        ),
        "equal to the authors' code (as a slow reference in its order) to 1e-6 in exploitability",
    ),
    ("tree", "dcfr+"): Check(
        "Xu, Li, Liu, Fu, Fu, Xing & Cheng 2024",
        "the authors' code (rpSebastian/PDCFRPlus, `pdcfrplus/cfr/`), as a slow reference in its update order "
        "(`tests/naive_pdcfr.py`), itself equal to that code's published exploitabilities (by OpenSpiel's "
        "exploitability) to 7 digits",
        "exploitability to 1e-6 relative after every iteration (Kuhn 300, both orders; Leduc 100); regrets and "
        "current policy to 1e-12, the average to 1e-13; three players (Kuhn, against the slow plain-Python CFR of n "
        "players, `tests/naive_nplayer_cfr.py`, both orders): average and current policy to 1e-12 after 12",
        (
            "tests/test_nplayer_trees.py::test_variants_on_three_player_kuhn_equal_the_slow_reference",
            _TREE + "test_equal_to_the_reference_on_kuhn_at_every_iteration",
            _TREE + "test_equal_to_the_reference_on_leduc_at_every_iteration",
            _TREE + "test_the_reference_gives_the_authors_published_numbers_on_kuhn",
        ),
        "equal to the authors' code (as a slow reference in its order) to 1e-6 in exploitability",
    ),
}

#: The lines that bracket the generated table in ``docs/reference/algorithms.md``.
TABLE_START = "<!-- status table: generated from rmcore/verification.py by `python -m rmcore.verification --write` -->"
TABLE_END = "<!-- end of the status table -->"
_PAGE = Path("docs") / "reference" / "algorithms.md"


# Games of three players or more: the rules each player runs on its own, against a plain-Python loop of n players.
_THREE_PLAYERS = "tests/test_matrix_players.py::"
_CHECKED_ON_THREE_PLAYERS = ("rm", "rm+", "prm+", "hedge", "optimistic-hedge", "fictitious-play", "swap-rm")
_MORE_PLAYERS = {
    "gda": "three players or more: the plain-Python twin to the last bit, no second implementation",
    "internal-rm": "three players or more: the plain-Python twin to the last bit, no second implementation",
    "optimistic-gda": "three players or more: runs, unchecked",
    "sprm+": "three players or more: runs, unchecked",
    "exrm+": "two players only (refused on more)",
}
for _name in _CHECKED_ON_THREE_PLAYERS:
    _record = CHECKS[("matrix", _name)]
    CHECKS[("matrix", _name)] = _record._replace(
        reference=_record.reference + "; three players: a plain-Python loop of n players (`tests/naive_players.py`), "
        "expected and sampled",
        tolerance=_record.tolerance + "; three players: averages, current strategies and the joint play to 1e-12 "
        "after 40 iterations",
        tests=(*_record.tests, _THREE_PLAYERS + "test_each_rule_on_three_players_equals_the_reference"),
    )
for _name, _words in _MORE_PLAYERS.items():
    _record = CHECKS[("matrix", _name)]
    _twin = ("gda", "internal-rm")
    CHECKS[("matrix", _name)] = _record._replace(
        reference=_record.reference + "; " + _words,
        tests=(*_record.tests, _THREE_PLAYERS + "test_the_plain_python_twin_gives_the_same_bits_on_four_players")
        if _name in _twin
        else _record.tests,
    )


def check(family: str, name: str) -> Check:
    """The record of the rule (``family="matrix"``) or CFR variant (``"tree"``) ``name``; ``KeyError`` for none."""
    return CHECKS[(family, name)]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def status_table() -> str:
    """The status table as Markdown: one row per rule and variant, in the catalogues' order."""
    from .matrix import ALGORITHMS
    from .trees.cfr import CFR_ALGORITHMS

    rows = [
        "| family | name | paper | checked against | how closely | tests |",
        "|---|---|---|---|---|---|",
    ]
    for family, names in (("matrix", ALGORITHMS), ("tree", CFR_ALGORITHMS)):
        for name in names:
            record = check(family, name)
            tests = "<br>".join(f"`{test}`" for test in record.tests)
            cells = (family, f"`{name}`", record.paper, record.reference, record.tolerance, tests)
            rows.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(rows)


def page_with_table(text: str) -> str:
    """``text`` (the algorithms page) with the block between :data:`TABLE_START` and :data:`TABLE_END` replaced by
    :func:`status_table`; ``ValueError`` when the markers are missing."""
    start, end = text.find(TABLE_START), text.find(TABLE_END)
    if start < 0 or end < start:
        raise ValueError(f"the page has no status table between {TABLE_START!r} and {TABLE_END!r}")
    return text[: start + len(TABLE_START)] + "\n" + status_table() + "\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    """``python -m rmcore.verification [--write | --check] [PAGE]``: print the table, write it into the page, or say
    (exit status 1) that the page's table is stale."""
    parser = argparse.ArgumentParser(prog="python -m rmcore.verification", description=__doc__.splitlines()[0])
    parser.add_argument("page", nargs="?", default=str(_PAGE), help=f"the page (default {_PAGE})")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into the page")
    action.add_argument("--check", action="store_true", help="exit 1 if the page's table is not the generated one")
    args = parser.parse_args(argv)
    if not (args.write or args.check):
        print(status_table())
        return 0
    page = Path(args.page)
    text = page.read_text(encoding="utf-8")
    try:
        fresh = page_with_table(text)
    except ValueError as error:
        print(f"error: {page}: {error}", file=sys.stderr)
        return 2
    if args.check:
        if fresh != text:
            print(f"{page}: the status table is stale; run python -m rmcore.verification --write", file=sys.stderr)
            return 1
        return 0
    page.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
