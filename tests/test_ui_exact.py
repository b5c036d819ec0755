"""ui/exact.py: one server-wide cache of exact answers for both pages, each computed once per game (a failure kept too),
off the script's thread; and the matrix page takes its LP and its equilibria from it, one computation for every session
on the same game."""

import json
import threading

import numpy as np
import pytest

import rmcore
from tests.visits import opened
from ui import exact


def _counted(result=None, error=None, gate=None):
    """A computation that counts its calls (and returns ``result``, raises ``error``, or waits for ``gate`` first)."""
    calls = []

    def solve(game):
        calls.append(game)
        if gate is not None:
            gate.wait(10)
        if error is not None:
            raise error
        return result

    return solve, calls


def test_an_answer_is_computed_once_per_game_key_and_computation():
    solve, calls = _counted(result="answer")
    first, same = rmcore.preset("rps"), rmcore.preset("rps")
    assert exact.answer(solve, ("test", "once"), first, wait=None) == "answer"
    assert exact.answer(solve, ("test", "once"), same, wait=None) == "answer"
    assert calls == [first]  # the second game of the same key is never computed on
    assert exact.answer(solve, ("test", "another"), same, wait=None) == "answer" and len(calls) == 2
    other, other_calls = _counted(result="other")
    assert exact.answer(other, ("test", "once"), first, wait=None) == "other" and len(other_calls) == 1
    where = exact.progress(solve, ("test", "once"), first)
    assert where.done and where.error is None


def test_a_failure_is_kept_and_said_by_progress_not_computed_again():
    solve, calls = _counted(error=RuntimeError("the linear program failed"))
    game = rmcore.preset("rps")
    assert exact.answer(solve, ("test", "failing"), game, wait=None) is None
    assert exact.answer(solve, ("test", "failing"), game, wait=None) is None
    where = exact.progress(solve, ("test", "failing"), game)
    assert where.done and isinstance(where.error, RuntimeError) and len(calls) == 1


def test_an_answer_on_its_way_is_none_within_its_wait_and_there_once_done():
    gate = threading.Event()
    solve, calls = _counted(result="late", gate=gate)
    game = rmcore.preset("rps")
    try:
        assert exact.answer(solve, ("test", "late"), game, wait=0.0) is None
        where = exact.progress(solve, ("test", "late"), game)
        assert not where.done and where.seconds >= 0 and where.error is None
    finally:
        gate.set()
    assert exact.answer(solve, ("test", "late"), game, wait=None) == "late" and len(calls) == 1


def test_a_matrix_games_key_is_its_payoffs():
    game = rmcore.preset("rps")
    renamed = rmcore.MatrixGame(game.row_payoffs, None, ["R", "P", "S"], ["r", "p", "s"], name="renamed")
    other = rmcore.MatrixGame(game.row_payoffs + np.eye(3))
    general = rmcore.MatrixGame(game.row_payoffs, game.row_payoffs)
    assert exact.matrix_key(game) == exact.matrix_key(renamed)
    assert len({exact.matrix_key(g) for g in (game, other, general)}) == 3
    with pytest.raises(TypeError, match="rmcore.MatrixGame"):
        exact.matrix_key(rmcore.KUHN)
    with pytest.raises(TypeError, match="by a function"):
        exact.answer("solve", ("test",), game, wait=0)


def test_sessions_on_the_same_matrix_game_share_one_lp_and_one_equilibria(monkeypatch):
    solve_exactly, nash_equilibria = rmcore.solve_exactly, rmcore.nash_equilibria
    solved, found = [], []

    def counted_lp(game):
        solved.append(game)
        return solve_exactly(game)

    def counted_equilibria(game, **options):
        found.append(game)
        return nash_equilibria(game, **options)

    monkeypatch.setattr(rmcore, "solve_exactly", counted_lp)
    monkeypatch.setattr(rmcore, "nash_equilibria", counted_equilibria)
    rng = np.random.default_rng(50)  # (games no other test opens: the cache lives as long as the test process)
    zero_sum = {"matrix": json.dumps({"name": "Shared LP", "A": rng.normal(size=(3, 4)).round(3).tolist()})}
    a, b = rng.normal(size=(3, 3)).round(3).tolist(), rng.normal(size=(3, 3)).round(3).tolist()
    general = {"matrix": json.dumps({"name": "Shared equilibria", "A": a, "B": b})}
    for link in (zero_sum, general):
        for _ in range(2):
            app = opened(link)
            app.button(key="matrix_step_10").click().run()
            assert not app.exception
            answer = next(m.value for m in app.markdown if m.value.startswith("### The answer"))
            assert ("value" in answer) if link is zero_sum else ("Nash equilibri" in answer)
    assert len(solved) == 1 and len(found) == 1


def test_the_matrix_page_says_its_answer_is_on_its_way_and_shows_it_once_there(monkeypatch):
    import ui.matrix.state

    gate = threading.Event()
    solve_exactly = rmcore.solve_exactly

    def queued(game):  # (as if other games' answers were computed ahead of this one)
        gate.wait(30)
        return solve_exactly(game)

    monkeypatch.setattr(rmcore, "solve_exactly", queued)
    monkeypatch.setattr(ui.matrix.state, "WAIT_SECONDS", 0.0)
    game = {"matrix": json.dumps({"name": "Queued", "A": np.random.default_rng(51).normal(size=(4, 3)).tolist()})}
    try:
        app = opened(game)
        app.button(key="matrix_step_10").click().run()
        assert not app.exception and app.session_state.matrix_live.iteration == 10
        assert any("still being computed on this server" in i.value for i in app.info)
    finally:
        gate.set()
    exact.answer(queued, exact.matrix_key(app.session_state.game), app.session_state.game, wait=None)
    app.button(key="matrix_step_10").click().run()
    answer = next(m.value for m in app.markdown if m.value.startswith("### The answer"))
    assert "Exact value by linear programming" in answer
    assert not any("still being computed" in i.value for i in app.info)
