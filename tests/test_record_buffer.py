"""RecordBuffer: a solver's checkpoint rows grow without copying the rows already held."""

import numpy as np
import pytest

import rmcore
from rmcore.kernels.tree import empty_cfr_record
from rmcore.records import RecordBuffer, concat_records, take_records


def _rows(first: int, count: int):
    record = empty_cfr_record(count, 2, 2)
    for field in record:
        field[...] = (first + np.arange(count)).reshape((count,) + (1,) * (field.ndim - 1))
    return record


def _update(buffer, held, new, rng):
    """Rows added by ``update``: now and then some held rows are dropped."""
    keep = rng.random(held.iteration.shape[0]) < (0.6 if rng.random() < 0.1 else 1.0)
    buffer.update(keep, new)
    return keep


def _write_into_room(buffer, held, new, rng):
    """Rows written into reserved room, as a solver's kernel writes them (every element); now and then a chunk writes
    part of its room and never commits (an interrupted kernel), which leaves nothing behind (None)."""
    room = buffer.reserve(new.iteration.shape[0])
    if rng.random() < 0.2:
        for target in room:
            target[: target.shape[0] // 2 + 1] = -1
        return None
    for target, source in zip(room, new):
        target[...] = source
    buffer.commit(new.iteration.shape[0])
    return np.ones(held.iteration.shape[0], dtype=bool)


@pytest.mark.parametrize("add", [_update, _write_into_room])
def test_rows_added_give_what_a_plain_concatenation_gives_and_never_change_rows_handed_out(add):
    buffer, expected, first = RecordBuffer(_rows(0, 0), capacity=64), _rows(0, 0), 0
    handed_out = []
    rng = np.random.default_rng(1)
    for _ in range(200):
        held = buffer.rows
        handed_out.append((held, [field.copy() for field in held]))
        new = _rows(first, int(rng.integers(0, 4)))
        first += 100
        keep = add(buffer, held, new, rng)
        if keep is not None:
            expected = concat_records(take_records(expected, keep), new)
        for mine, theirs in zip(buffer.rows, expected):
            assert np.array_equal(mine, theirs, equal_nan=True)
    for view, contents in handed_out:
        assert all(np.array_equal(field, copy) for field, copy in zip(view, contents))


def test_rows_never_reserved_cannot_be_committed():
    buffer = RecordBuffer(_rows(0, 0), capacity=64)
    buffer.reserve(3)
    with pytest.raises(ValueError, match="not reserved"):
        buffer.commit(4)


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


def test_the_default_history_keeps_as_many_rows_as_fit_in_its_memory(monkeypatch):
    leduc = rmcore.leduc_poker()
    row_bytes = sum(field.nbytes for field in empty_cfr_record(1, len(leduc.infosets), 3))
    monkeypatch.setattr(rmcore.config, "DEFAULT_HISTORY_BYTES", 10 * row_bytes)
    solver = rmcore.CFRSolver(leduc, "cfr")
    assert solver.max_points == 10
    solver.run(2000)
    assert solver.history().iterations.shape[0] <= 11  # (its checkpoints and the iteration now)
    assert rmcore.CFRSolver(leduc, "cfr", max_points=50).max_points == 50  # a number given is kept
    assert rmcore.MatrixSolver(rmcore.preset("rps")).max_points == rmcore.config.DEFAULT_MAX_POINTS  # small rows


def test_a_matrix_history_row_writes_the_narrower_players_padding_over_whatever_its_room_held():
    game = rmcore.preset("random-zero-sum", rows=2, cols=5, seed=1)
    solver, clean = (rmcore.MatrixSolver(game, max_points=500, history_share=None) for _ in range(2))
    solver.run(3)
    for field in solver._records._buffer:  # the room past the rows held, as reused memory may leave it
        field[solver._records.iterations.shape[0] :] = -1
    solver.run(97)
    clean.run(100)
    history = solver.history()
    assert history.iterations.shape[0] == 100  # (a row an iteration, none dropped: all written into that room)
    for field in (history.current, history.average, history.regrets):
        assert np.all(field[:, 0, 2:] == 0)
    for mine, theirs in zip(solver._records.rows, clean._records.rows):
        assert np.array_equal(mine, theirs, equal_nan=True)
