"""The words on screen say what each rule and each game do: a test per rule (every one of ``rmcore.ALGORITHMS``) and
per game (every preset, every game of the tree catalogue), driven by the catalogues, holding each claim the page
makes against the numbers the run gives."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rmcore
from rmcore.plotting import words as figure_words
from tests.live_charts import captions, live_charts
from tests.visits import opened, run_to_reached, shown
from ui import explain


def _subtitle(app) -> str:
    """The line under the matrix page's title: the caption that opens with a rule's words."""
    return next(c.value for c in app.caption if any(c.value.startswith(words) for words in explain.RULE_PLAYS.values()))


def _chart(app, key_word: str) -> dict:
    return next(chart for chart in live_charts(app) if key_word in chart["figure"]["layout"]["title"]["text"])


@pytest.mark.parametrize("rule", list(rmcore.ALGORITHMS))
def test_every_rule_is_described_as_it_plays_and_its_regret_words_match_its_bars(rule):
    app = opened({"algorithm": rule})
    app.button(key="matrix_step_100").click().run()
    assert not app.exception and app.session_state.matrix_live.primary.variant.algorithm == rule
    subtitle = _subtitle(app)
    assert subtitle == explain.matrix_subtitle(rule)
    assert ("in proportion to its positive cumulative regret" in subtitle) == (rule == "rm")
    said = captions(app)
    regrets = app.session_state.matrix_live.frame().history.regrets
    never_negative = bool(regrets.min() >= 0)
    assert ("no bar is ever below 0" in said) == never_negative, (rule, regrets.min())
    assert ("summed over all iterations" in said) == (rule not in ("rm+", "prm+"))
    title = _chart(app, "Cumulative regrets")["figure"]["layout"]["title"]["text"]
    assert ("only the positive, blue ones are played" in title) == (rule == "rm")
    assert ("does not play by them" in title) == (rule not in ("rm", "rm+", "prm+"))


@pytest.mark.parametrize("rule", list(rmcore.ALGORITHMS))
def test_what_the_words_say_the_current_strategies_do_is_what_they_do(rule):
    """ "Converges" for the current strategies only where they do: the optimistic rules' current profile reaches the
    equilibrium of RPS with a crash, the others' keeps moving."""
    words = explain.strategies(False, rule)
    sampling = rmcore.ONLY_FORMS.get(rule, {}).get("sampling", "expected")
    currents = []
    for start in (None, ([0.6, 0.2, 0.2], [0.2, 0.2, 0.6])):
        solver = rmcore.MatrixSolver(rmcore.preset("rps-crash"), algorithm=rule, sampling=sampling, start=start, seed=1)
        solver.run(5_000)
        currents.append(solver.metrics().nash_conv_current)
    says_converges = "both the average and the current play approach" in words
    says_it_depends = "the current play settles too from some starts and keeps moving from others" in words
    if says_it_depends:  # (swap RM's: from the uniform start it settles, from another it keeps moving)
        assert currents[0] < 1e-3 < currents[1], (rule, currents)
    else:
        assert says_converges == (currents[0] < 1e-3), (rule, currents)


def test_a_general_sum_games_path_is_not_said_to_spiral_in_and_it_does_not():
    app = run_to_reached(opened({"preset": "Shapley's game", "run_to": "1000"}), "matrix")
    said = captions(app)
    assert "need not settle" in said and "heading for the equilibrium" not in said
    assert app.session_state.matrix_live.primary.metrics().nash_conv > 0.1, "the averages keep cycling"


def test_a_zero_sum_games_path_is_said_to_head_for_the_equilibrium_and_it_does():
    app = run_to_reached(opened({"preset": "RPS with crash", "run_to": "1000"}), "matrix")
    assert "heading for the equilibrium (the star)" in captions(app)
    assert app.session_state.matrix_live.primary.metrics().nash_conv < 0.1


def test_a_game_too_large_for_thin_lines_is_not_said_to_have_them():
    app = opened({"preset": "Random zero-sum", "param_random-zero-sum_rows": "12", "param_random-zero-sum_cols": "12"})
    app.button(key="matrix_step_10").click().run()
    assert app.session_state.game.shape == (12, 12)
    chart = _chart(app, "Average strategies")
    assert not any("(current)" in trace.get("name", "") for trace in chart["figure"]["data"])
    assert "Thin lines" not in captions(app) and "draws no current strategies" in captions(app)


@pytest.mark.parametrize("name", list(rmcore.PRESETS))
def test_every_presets_words_go_when_its_actions_are_renamed(name):
    """A preset's description names its actions ("90% Heads"): with other names it would be false, so it goes."""
    app = opened({"preset": rmcore.PRESETS[name].title})
    game = app.session_state.game
    assert game.description == rmcore.PRESETS[name].description  # one description, the catalogue's
    if game.description:
        assert any(shown(c.value) == game.description for c in app.caption)
    if max(game.shape) > 10:
        return  # (the editor holds games up to 10x10)
    version = app.session_state.draft.version
    renamed = ", ".join(f"Kopf {k + 1}" for k in range(game.shape[0]))
    app.text_input(key=f"row_names_{version}").set_value(renamed).run()
    app.button(key="apply").click().run()
    assert not app.exception and app.session_state.game.row_actions[0] == "Kopf 1"
    assert app.session_state.game.description == ""
    assert not any(game.description and shown(c.value) == game.description for c in app.caption)


POKER = {"kuhn", "leduc"}


@pytest.mark.parametrize("name", list(rmcore.TREE_GAMES))
def test_every_tree_game_shows_its_rules_from_the_catalogue_and_its_own_unit(name):
    from ui.trees import games

    label = games.choices()[name]
    app = opened({"kuhn_game": label}, url_path="kuhn_poker")
    app.button(key="kuhn_step_10").click().run()
    assert not app.exception
    entry = rmcore.TREE_GAMES[name]
    words = " ".join(shown(m.value) for m in app.markdown)
    assert entry.how_to_play and entry.how_to_play in words
    axis = _chart(app, "nash_conv")["figure"]["layout"]["yaxis"]["title"]["text"]
    assert ("antes per hand" in axis) == (name in POKER), axis


def test_liars_dice_explains_every_action_it_names():
    import re

    entry = rmcore.TREE_GAMES["liars_dice"]
    game = rmcore.tree_game("liars_dice")
    bids = {action for actions in game.actions for action in actions if re.fullmatch(r"\d-\d", action)}
    assert bids and "a bid q-f, such as 2-3, claims that at least q of the two dice show face f" in entry.how_to_play
    assert "2-3" in bids and "wild" in entry.how_to_play and "Liar" in entry.how_to_play
    assert "antes" not in entry.how_to_play and "antes" not in entry.description


def test_kuhn_on_sliders_shows_kuhns_rules_and_what_the_sliders_change():
    app = opened({"kuhn_game": "Kuhn on sliders"}, url_path="kuhn_poker")
    words = " ".join(shown(m.value) for m in app.markdown)
    assert rmcore.TREE_GAMES["kuhn"].how_to_play in words and "3 to 13 cards" in words


def test_the_matrix_lesson_caption_does_not_print_its_link():
    from ui.matrix import lesson

    app = opened(
        {key: [v for k, v in lesson.RULES_LESSON.query() if k == key] for key, _ in lesson.RULES_LESSON.query()}
    )
    app.button(key="matrix_step_10").click().run()
    race = next(chart for chart in live_charts(app) if "Race" in chart["figure"]["layout"]["title"]["text"])
    assert "http" not in race["caption"] and "race_variants=" not in race["caption"]
    assert any(c.value.startswith("[This lesson's link](") for c in app.caption)
    assert json.dumps(race["caption"]).count(" ") < 400
    assert np.isfinite(app.session_state.matrix_live.primary.metrics().nash_conv)


@pytest.mark.parametrize("fixed", [False, True], ids=["self-play", "fixed opponent"])
@pytest.mark.parametrize("rule", list(rmcore.ALGORITHMS))
def test_the_convergence_caption_names_only_the_lines_its_chart_draws(rule, fixed):
    settings = {"algorithm": rule} | ({"opponent_mode": "Fixed mixed strategy"} if fixed else {})
    app = opened(settings)
    app.button(key="matrix_step_100").click().run()
    assert not app.exception and app.session_state.matrix_live.primary.is_self_play != fixed
    chart = _chart(app, "Convergence")
    names = [trace["name"] for trace in chart["figure"]["data"]]
    words = chart["caption"]
    current_drawn = any("current strategies" in name for name in names)
    assert ("nash_conv of the current strateg" in words) == current_drawn, (words, names)
    bound_drawn = any(name.startswith("bound:") for name in names)
    assert ("dashed" in words.lower() and "bound" in words) == bound_drawn, (words, names)
    assert ("1/√T" in words) == any(name == "guide: 1/√T" for name in names)


@pytest.mark.parametrize("gamma", [0.0, 1.0, 2.0, 3.0, 5.0, 2.5])
def test_every_cfr_legend_writes_its_powers_of_t_in_one_notation(gamma):
    variants = [rmcore.CFRVariant(name) for name in rmcore.CFR_ALGORITHMS]
    variants += [
        rmcore.CFRVariant("discounted", discount=(1.5, 0.0, gamma)),
        rmcore.CFRVariant("pdcfr+", discount=(2.3, gamma)),
        rmcore.CFRVariant("dcfr+", discount=(1.5, gamma)),
    ]
    names = [figure_words.cfr_curve_name(v, "average") for v in variants]
    assert not any("^" in name for name in names), names
    expected = {0.0: "uniform average", 1.0: "t-weighted", 2.0: "t²-weighted", 3.0: "t³-weighted", 5.0: "t⁵-weighted"}
    assert all(expected.get(gamma, "tᵞ-weighted") in name for name in names[-3:]), names
    assert "t⁵-weighted" in figure_words.cfr_curve_name(rmcore.CFRVariant("pdcfr+"), "average")  # (its default γ = 5)
    said = " ".join(
        [*rmcore.CFR_ALGORITHMS.values(), *(t for p in explain.PLUS_PARAMETERS.values() for _, t in p.values())]
    )
    assert "^" not in said
