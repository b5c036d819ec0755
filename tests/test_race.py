"""The race against separately run solvers, its table, its curves and its bad input."""

import numpy as np
import pytest

import rmcore
from rmcore import checkpoints, config

GAME = rmcore.preset("rps-crash")


def first_reached(solvers, iterations):
    """What separate solvers say, run to each iteration of the log grid in turn (then to ``iterations``): for each
    threshold, the first where the median of their measures is at or below it."""
    at, reached = 0, dict.fromkeys(rmcore.THRESHOLDS)
    for probe in checkpoints.log_grid_between(0, iterations).tolist():
        gaps = []
        for solver in solvers:
            solver.run(probe - at)
            gaps.append(solver.metrics().gap)
        at = probe
        for threshold in rmcore.THRESHOLDS:
            if reached[threshold] is None and np.median(gaps) <= threshold:
                reached[threshold] = probe
    for solver in solvers:
        solver.run(iterations - at)
    return reached


def _separate(game, variant, seeds, history_share=config.HISTORY_SHARE, max_points=None):
    if isinstance(game, rmcore.MatrixGame):
        v = rmcore.MatrixVariant.parse(variant)
        return v, [
            rmcore.MatrixSolver(
                game,
                v.algorithm,
                v.sampling,
                v.updates,
                v.averaging,
                seed=s,
                history_share=history_share,
                max_points=max_points,
            )
            for s in (seeds if v.is_sampled else seeds[:1])
        ]
    v = rmcore.CFRVariant.parse(variant)
    return v, [
        rmcore.CFRSolver(game, v.algorithm, v.updates, seed=s, history_share=history_share, max_points=max_points)
        for s in (seeds if v.is_sampled else seeds[:1])
    ]


@pytest.mark.parametrize(
    "game,variants,iterations",
    [
        (GAME, ["rm", "rm+/alternating", "prm+/alternating/linear", "rm+/sampled/linear"], 30_000),
        (rmcore.KUHN, ["cfr", "cfr+/simultaneous", "discounted", "chance-sampling"], 3_000),
    ],
    ids=["matrix", "kuhn"],
)
def test_iterations_to_each_threshold_equal_what_separate_solvers_say(game, variants, iterations):
    result = rmcore.run_race(game, variants, iterations, seeds=3, seed=10, chunks=7)  # run in 7 chunks ...
    for variant, standing, curve in zip(variants, result.standings, result.curves):
        v, solvers = _separate(game, variant, [10, 11, 12], history_share=None)  # ... the separate ones step by step
        assert standing.label == v.label and standing.iterations == iterations and curve.runs == len(solvers)
        expected = first_reached(solvers, iterations)
        assert {t: r and r.iterations for t, r in standing.reached.items()} == expected, v.label
        gaps = np.array([solver.metrics().gap for solver in solvers])
        assert standing.gap == pytest.approx(float(np.median(gaps)), abs=0)
        assert (
            curve.iterations[-1] == iterations
            and np.all(curve.low <= curve.median)
            and np.all(curve.median <= curve.high)
        )
        np.testing.assert_array_equal(curve.high[-1], gaps.max())


@pytest.mark.parametrize(
    "game,variants",
    [(GAME, ["rm+/sampled", "rm"]), (rmcore.KUHN, ["chance-sampling", "cfr"])],
    ids=["matrix", "kuhn"],
)
def test_a_sampled_first_variant_keeps_racing_past_its_runs_thinning(game, variants):
    """The first run of the first variant keeps more rows than the variant's other runs (it is the one a page draws
    in detail): the variant's curve is read at the iterations all its runs keep, and matches separate solvers
    there."""
    contest = rmcore.Race(game, variants, seeds=3, seed=4, history_share=None)
    for _ in range(6):
        contest.run(700)  # (the other runs thin their rows from iteration 376 on; the first from 1,501)
        result = contest.result()
    histories = contest.histories()[0]
    assert len(histories[0]) > len(histories[1]) == len(histories[2])
    _, solvers = _separate(game, variants[0], [4, 5, 6], history_share=None, max_points=config.RACE_MEMBER_POINTS)
    for solver in solvers:
        solver.run(contest.iteration)
    separate = [solver.history() for solver in solvers]
    curve = result.curves[0]
    rows = np.searchsorted(separate[0].iterations, curve.iterations)
    np.testing.assert_array_equal(separate[0].iterations[rows], curve.iterations)
    median = np.median(np.vstack([h.gap[rows] for h in separate]), axis=0)
    np.testing.assert_array_equal(curve.median, median)


def test_crossings_do_not_depend_on_the_history_its_size_or_the_chunks():
    """The page (every checkpoint, a budgeted history, many small updates) and the command line (the library's
    defaults, one call) read the same crossings: the same measures at the same iterations."""
    variants = ["rm", "rm+", "rm+/sampled"]
    page = rmcore.Race(GAME, variants, seeds=3, history_share=None, history_budget=20_000)
    for _ in range(40):
        page.run(500)
    command_line = rmcore.Race(GAME, variants, seeds=3)
    command_line.run(20_000)
    assert page.max_points < config.DEFAULT_MAX_POINTS
    assert page.solvers[0].checkpoint_stride != command_line.solvers[0].checkpoint_stride
    on_page, on_command_line = page.result(), command_line.result()
    for ours, theirs in zip(on_page.standings, on_command_line.standings):
        assert {t: r and r.iterations for t, r in ours.reached.items()} == {
            t: r and r.iterations for t, r in theirs.reached.items()
        }
    assert any(r is not None for s in on_page.standings for r in s.reached.values())


def test_histories_read_earlier_give_the_crossings_of_then():
    contest = rmcore.Race(GAME, ["rm"])
    contest.run(10_000)
    then = contest.histories()
    contest.run(10_000)
    assert contest.result().standings[0].reached[1e-2].iterations > 10_000
    assert contest.result(then).standings[0].reached[1e-2] is None


def test_first_crossing():
    assert rmcore.first_crossing([1, 2, 3, 4], [0.5, 0.01, 0.2, 0.001], 0.01) == 2
    assert rmcore.first_crossing([1, 2], [0.5, 0.02], 0.01) is None
    assert rmcore.first_crossing([], [], 0.01) is None
    with pytest.raises(ValueError, match="two lists of one length"):
        rmcore.first_crossing([1, 2], [0.5], 0.01)


def test_a_fast_variant_reaches_more_thresholds_and_seconds_grow_with_them():
    result = rmcore.run_race(GAME, ["rm", "prm+/alternating/linear"], 20_000, chunks=4)
    slow, fast = result.standings
    assert result.gap_name == "nash_conv"
    assert sum(r is not None for r in fast.reached.values()) > sum(r is not None for r in slow.reached.values())
    reached = [r for r in fast.reached.values() if r is not None]
    assert [r.iterations for r in reached] == sorted(r.iterations for r in reached)
    assert all(0 <= a.seconds <= b.seconds <= fast.seconds for a, b in zip(reached, reached[1:]))
    assert fast.iterations_per_second > 0


def test_the_race_object_runs_incrementally_and_reports_its_solvers():
    contest = rmcore.Race(rmcore.KUHN, ["cfr", "chance-sampling/alternating"], seeds=2)
    contest.run(10)
    contest.run(15)
    assert contest.iteration == 25 and contest.runs == 3 and [s.iteration for s in contest.solvers] == [25, 25]
    assert contest.result().gap_name == "nash_conv"


def test_against_a_fixed_opponent_the_race_measures_the_learners_gain():
    result = rmcore.run_race(rmcore.preset("rps"), ["rm", "rm+"], 2_000, opponent={"col": [0.4, 0.3, 0.3]})
    assert result.gap_name == "br_gain_1" and all(s.gap < 0.05 for s in result.standings)


@pytest.mark.parametrize(
    "game,variants,kwargs,message",
    [
        (GAME, [], {}, "1 to 10 variants"),
        (GAME, ["rm"] * 2, {}, "appears more than once"),
        (GAME, ["rm", "rm/expected"], {}, "appears more than once"),
        (GAME, ["rm/rm+"], {}, "names the algorithm twice"),
        (GAME, ["bogus"], {}, "unknown part 'bogus'"),
        (GAME, "rm", {}, "must be a list"),
        (GAME, [3], {}, "MatrixVariant or a string"),
        (rmcore.KUHN, ["cfr/rm"], {}, "unknown part 'rm'"),
        (rmcore.KUHN, ["cfr"], {"opponent": [1, 0]}, "dict from each of its information sets"),
        (GAME, ["rm"], {"seeds": 0}, "seeds must be a whole number >= 1"),
        (GAME, ["rm"], {"seeds": 51}, "at most 50"),
        ("rps", ["rm"], {}, "MatrixGame or a TreeGame"),
        (GAME, ["rm"], {"history_budget": -1}, "history_budget must be a whole number >= 0"),
    ],
)
def test_bad_input_is_explained(game, variants, kwargs, message):
    with pytest.raises(ValueError, match=message):
        rmcore.Race(game, variants, **kwargs)


def test_every_history_keeps_fifteen_decades_of_log_checkpoints():
    # The race reads crossings at the log grid; the default history must not thin it.
    assert config.DEFAULT_MAX_POINTS * config.LOG_CHECKPOINT_SHARE >= 15 * config.LOG_POINTS_PER_DECADE
    kept = checkpoints.checkpoints_between(0, 10**9, config.DEFAULT_MAX_POINTS)
    grid = np.unique(np.round(10 ** (np.arange(0, 9 * 32 + 1) / 32)).astype(np.int64))
    assert np.isin(grid, kept).all()


def test_a_race_keeps_its_histories_within_its_budget_and_counts_given_as_given():
    leduc = rmcore.leduc_poker()
    variants = ["cfr", "cfr+", "linear"]
    full = rmcore.Race(leduc, variants)  # 3 runs at the default counts: 2,000 + 2 x 500 rows of 67 kB
    assert (full.max_points, full.member_points) == (config.DEFAULT_MAX_POINTS, config.RACE_MEMBER_POINTS)
    budget = full.history_bytes() // 10
    race = rmcore.Race(leduc, variants, history_budget=budget)
    assert race.history_bytes() <= budget < race.history_bytes(race.max_points + 1, race.member_points + 1)
    # both defaults shrink by one share (to the row)
    shares = race.max_points / config.DEFAULT_MAX_POINTS, race.member_points / config.RACE_MEMBER_POINTS
    assert shares[0] == pytest.approx(shares[1], abs=0.01)
    assert [s.max_points for s in race.solvers] == [race.max_points, race.member_points, race.member_points]
    assert race.history_bytes(config.DEFAULT_MAX_POINTS, config.RACE_MEMBER_POINTS) == full.history_bytes()
    tiny = rmcore.Race(leduc, variants, history_budget=1)  # too small a budget: 2 rows a run
    assert (tiny.max_points, tiny.member_points) == (2, 2)
    alone = rmcore.Race(leduc, ["cfr"], history_budget=25 * full.solvers[0].row_bytes())
    assert alone.max_points == 25
    given = rmcore.Race(leduc, variants, max_points=100, history_budget=budget)  # (the budget: 300 rows)
    assert (given.max_points, given.member_points) == (100, 100) and given.history_bytes() <= budget
    kept = rmcore.Race(leduc, variants, max_points=300, member_points=400, history_budget=1)
    assert (kept.max_points, kept.member_points) == (300, 400)
    run = kept.solvers[0]
    run.run(10)
    with pytest.raises(RuntimeError, match="before its first iteration"):
        run._keep_rows(5)


def test_a_race_on_liars_dice_keeps_its_default_histories_within_the_default_budget():
    race = rmcore.Race(rmcore.liars_dice_game(6), ["cfr", "cfr+", "linear"])  # 7.1 MB a row
    assert race.history_bytes() <= config.DEFAULT_HISTORY_BYTES
    assert 2 <= race.max_points < config.DEFAULT_MAX_POINTS and 2 <= race.member_points < config.RACE_MEMBER_POINTS
