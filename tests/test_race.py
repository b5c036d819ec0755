"""The race against separately run solvers, its table, its curves and its bad input."""

import numpy as np
import pytest

import rmcore
from rmcore import checkpoints, config

GAME = rmcore.preset("rps-crash")


def first_reached(histories, threshold, stride):
    """What separate histories say: the first log-grid checkpoint where the median gap is <= threshold."""
    iterations = histories[0].iterations
    median = np.median(np.vstack([h.gap for h in histories]), axis=0)
    hits = np.flatnonzero(checkpoints.on_log_grid(iterations, stride) & (median <= threshold))
    return int(iterations[hits[0]]) if hits.size else None


@pytest.mark.parametrize(
    "game,variants,iterations",
    [
        (GAME, ["rm", "rm+/alternating", "prm+/alternating/linear", "rm+/sampled/linear"], 30_000),
        (rmcore.KUHN, ["cfr", "cfr+/simultaneous", "discounted", "chance-sampling"], 3_000),
    ],
    ids=["matrix", "kuhn"],
)
def test_iterations_to_each_threshold_equal_what_separate_histories_say(game, variants, iterations):
    result = rmcore.race(game, variants, iterations, seeds=3, seed=10, chunks=7)  # run in 7 chunks ...
    for k, (variant, standing, curve) in enumerate(zip(variants, result.standings, result.curves)):
        # The race's first run keeps max_points checkpoints, every other run member_points: so do the separate ones.
        def points(j, k=k):
            return rmcore.config.DEFAULT_MAX_POINTS if k == 0 and j == 0 else rmcore.config.RACE_MEMBER_POINTS

        if isinstance(game, rmcore.MatrixGame):
            v = rmcore.MatrixVariant.parse(variant)
            seeds = range(10, 13) if v.is_sampled else [10]
            solvers = [
                rmcore.MatrixSolver(game, v.algorithm, v.sampling, v.updates, v.averaging, seed=s, max_points=points(j))
                for j, s in enumerate(seeds)
            ]
        else:
            v = rmcore.CFRVariant.parse(variant)
            seeds = range(10, 13) if v.is_sampled else [10]
            solvers = [
                rmcore.CFRSolver(game, v.algorithm, v.updates, seed=s, max_points=points(j))
                for j, s in enumerate(seeds)
            ]
        for solver in solvers:
            solver.run(iterations)  # ... the separate solvers in one
        histories = [s.history() for s in solvers]
        assert standing.label == v.label and standing.iterations == iterations and curve.runs == len(solvers)
        for threshold in rmcore.THRESHOLDS:
            expected = first_reached(histories, threshold, solvers[0].checkpoint_stride)
            got = standing.reached[threshold]
            assert (got is None and expected is None) or got.iterations == expected, (v.label, threshold)
        gaps = np.vstack([h.gap for h in histories])
        assert standing.gap == pytest.approx(float(np.median(gaps[:, -1])), abs=0)
        assert (
            curve.iterations[-1] == iterations
            and np.all(curve.low <= curve.median)
            and np.all(curve.median <= curve.high)
        )
        np.testing.assert_array_equal(curve.high[-1], gaps[:, -1].max())


def test_a_fast_variant_reaches_more_thresholds_and_seconds_grow_with_them():
    result = rmcore.race(GAME, ["rm", "prm+/alternating/linear"], 20_000, chunks=4)
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
    assert contest.result().gap_name == "exploitability"


def test_against_a_fixed_opponent_the_race_measures_the_learners_gain():
    result = rmcore.race(rmcore.preset("rps"), ["rm", "rm+"], 2_000, opponent={"col": [0.4, 0.3, 0.3]})
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
    race = rmcore.Race(rmcore.liars_dice(6), ["cfr", "cfr+", "linear"])  # 7.1 MB a row
    assert race.history_bytes() <= config.DEFAULT_HISTORY_BYTES
    assert 2 <= race.max_points < config.DEFAULT_MAX_POINTS and 2 <= race.member_points < config.RACE_MEMBER_POINTS
