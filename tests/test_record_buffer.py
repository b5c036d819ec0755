"""RecordBuffer: a solver's checkpoint rows grow without copying the rows already held."""

import numpy as np

import rmcore
from rmcore.kernels.tree import empty_cfr_record
from rmcore.records import RecordBuffer, concat_records, take_records


def _rows(first: int, count: int):
    record = empty_cfr_record(count, 2, 2)
    for field in record:
        field[...] = (first + np.arange(count)).reshape((count,) + (1,) * (field.ndim - 1))
    return record


def test_updates_give_the_rows_a_plain_concatenation_gives_and_never_change_rows_handed_out():
    buffer, expected, first = RecordBuffer(_rows(0, 0), capacity=64), _rows(0, 0), 0
    handed_out = []
    rng = np.random.default_rng(1)
    for _ in range(200):
        held = buffer.rows
        handed_out.append((held, [field.copy() for field in held]))
        keep = rng.random(held.iteration.shape[0]) < (0.6 if rng.random() < 0.1 else 1.0)
        new = _rows(first, int(rng.integers(0, 4)))
        first += 100
        buffer.update(keep, new)
        expected = concat_records(take_records(expected, keep), new)
        for mine, theirs in zip(buffer.rows, expected):
            assert np.array_equal(mine, theirs)
    for view, contents in handed_out:
        assert all(np.array_equal(field, copy) for field, copy in zip(view, contents))


def test_an_append_with_room_to_spare_copies_no_row():
    buffer = RecordBuffer(_rows(0, 0), capacity=100)
    buffer.update(np.ones(0, dtype=bool), _rows(0, 10))  # allocates room for 20
    before = buffer.rows
    buffer.update(np.ones(10, dtype=bool), _rows(10, 5))
    after = buffer.rows
    assert after.average.shape[0] == 15 and np.shares_memory(before.average, after.average)
    assert not after.average.flags.writeable


def test_a_long_leduc_run_holds_its_history_in_a_buffer_no_larger_than_max_points():
    solver = rmcore.CFRSolver(rmcore.leduc_poker(), "cfr", max_points=40)
    for _ in range(30):
        solver.run(7)
    assert solver._records._buffer.average.shape[0] <= 40
    whole = rmcore.CFRSolver(rmcore.leduc_poker(), "cfr", max_points=40)
    whole.run(210)
    assert np.array_equal(whole.history().average, solver.history().average)
