"""The matrix page's correlated-equilibrium parts in streamlit's AppTest: the learners of correlated equilibria and
internal-rm's inertia, chosen on the page and carried by a link."""

import pytest

import rmcore
from tests.visits import opened, run_to_reached


def test_a_link_runs_internal_rm_with_its_inertia_as_a_multiple_of_the_least_allowed():
    game = rmcore.preset("shapley")
    app = run_to_reached(
        opened({"preset": "Shapley's game", "algorithm": "internal-rm", "mu": "2", "run_to": "30"}), "matrix"
    )
    live = app.session_state.matrix_live
    least = rmcore.internal_rm_inertia(game)
    assert live.primary.variant.algorithm == "internal-rm" and live.iteration == 30
    assert live.primary.mu == pytest.approx(2 * least)
    assert app.select_slider(key="mu").value == "2"
    assert any("2 × the least allowed" in c.value for c in app.caption)
    assert not app.warning


def test_internal_rm_starts_at_the_least_inertia_and_other_rules_show_no_inertia():
    app = opened({"preset": "Shapley's game", "algorithm": "internal-rm"})
    least = rmcore.internal_rm_inertia(rmcore.preset("shapley"))
    assert app.session_state.matrix_live.primary.mu == least
    assert any("the least allowed on this game" in c.value for c in app.caption)
    app.selectbox(key="algorithm").set_value("swap-rm").run()
    assert not app.exception
    assert not [s for s in app.select_slider if s.key == "mu"]
    assert app.session_state.matrix_live.primary.variant.algorithm == "swap-rm"
    assert app.session_state.matrix_live.primary.mu is None


def test_a_race_gives_its_inertia_to_internal_rm_alone_and_refuses_one_without_it():
    game = rmcore.preset("shapley")
    race = rmcore.Race(game, ["internal-rm/sampled", "rm"], seeds=1, mu=10.0)
    assert [solver.mu for solver in race.solvers] == [10.0, None]
    assert race.fresh().solvers[0].mu == 10.0
    with pytest.raises(ValueError, match="no variant here is one"):
        rmcore.Race(game, ["rm"], mu=10.0)
