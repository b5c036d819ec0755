"""One session's limits: a race too large for a session's memory runs fewer runs (fewer seeds first, then its last
variants) and says so; the heaviest link a page takes opens within them."""

import pytest

import rmcore
from tests.visits import opened
from ui import live
from ui.live import SESSION_HISTORY_BYTES, SESSION_SOLVER_BYTES

VARIANTS = tuple(
    f"{name} · {updates}"
    for name in ("cfr", "cfr+", "linear", "discounted", "chance-sampling")
    for updates in ("alternating", "simultaneous")
)


def test_a_race_over_the_solver_memory_cap_runs_fewer_seeds_first_then_fewer_variants(monkeypatch):
    leduc = rmcore.leduc_poker()
    each = rmcore.CFRSolver(leduc, max_points=0).state_bytes()
    variants = tuple(rmcore.CFRVariant.parse(label.replace(" · ", "/")) for label in VARIANTS)
    plan = live.RacePlan(leduc, variants, 20)
    assert rmcore.Race.planned_runs(leduc, variants, 20) == 48  # 8 plain variants and 2 sampled ones, 20 seeds each
    monkeypatch.setattr(live, "SESSION_SOLVER_BYTES", 20 * each)
    trimmed, said = live._fewer_runs(plan)
    assert trimmed.variants == variants and trimmed.seeds == 6  # 8 + 2 x 6 = 20 runs
    assert "These 48 runs would hold" in said and "so the race runs 20: 6 seeds per sampled variant (of 20)" in said
    monkeypatch.setattr(live, "SESSION_SOLVER_BYTES", 5 * each)
    trimmed, said = live._fewer_runs(plan)
    assert trimmed.seeds == 1 and trimmed.variants == variants[:5]  # one seed each, then the last variants go
    assert rmcore.Race.planned_runs(leduc, trimmed.variants, trimmed.seeds) == 5
    assert "without its last variants (linear · simultaneous, discounted · alternating" in said
    assert live._fewer_runs(plan._replace(variants=variants[:1], seeds=1)) == (
        plan._replace(variants=variants[:1], seeds=1),
        None,
    )


@pytest.mark.slow
def test_the_heaviest_link_on_liars_dice_opens_within_a_sessions_limits():
    """Liar's dice with six sides, ten variants (two sampled) with twenty seeds and run_to a million: 48 runs would
    hold 1.7 GB of solver state; the page runs what fits, says what it cut, and draws without a traceback."""
    app = opened(
        {
            "kuhn_game": "Liar's dice",
            "kuhn_liars_dice_sides": "6",
            "kuhn_variants": list(VARIANTS),
            "kuhn_seeds": "20",
            "run_to": "1000000",
        },
        url_path="kuhn_poker",
    )
    assert not app.exception
    race = app.session_state.kuhn_live.race
    assert race.state_bytes() <= SESSION_SOLVER_BYTES and race.history_bytes() <= SESSION_HISTORY_BYTES
    assert 1 <= race.runs <= 8 and race.seeds == 1
    notice = " ".join(info.value for info in app.info)
    assert "These 48 runs would hold" in notice and "more than a session may (300 MB)" in notice
