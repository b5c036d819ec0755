"""The poker page in streamlit's AppTest: step with its trace, run, variants, reset; the bigger games, a fixed player,
hands against the bot; links and setup files naming the page by its path of one release ago ``/kuhn_poker`` and its id
``kuhn``."""

import json
import urllib.parse

import pytest

from tests.live_charts import captions
from tests.visits import opened, run_to_reached, tree_page
from ui import link


@pytest.fixture
def page():
    return tree_page()


def metric(app, k):
    return app.metric[k].value


def test_step_shows_one_iteration_traced_infoset_by_infoset(page):
    page.button(key="kuhn_step_1").click().run()
    assert not page.exception
    assert metric(page, 0) == "1" and metric(page, 1) == "9.167e-01"  # nash_conv 11/12 after one iteration
    assert "exploitability is nash_conv / 2: here 4.583e-01" in page.metric[1].proto.help  # 11/24, labelled so
    values, update = walkthrough_tables(page)
    assert len(values) == 12 and list(values["infoset"]) == [
        "J",
        "Q",
        "K",
        "Jpb",
        "Qpb",
        "Kpb",
        "Jp",
        "Jb",
        "Qp",
        "Qb",
        "Kp",
        "Kb",
    ]
    king, king_update = values.set_index("infoset").loc["K"], update.set_index("infoset").loc["K"]
    assert king["σ(bet)"] == 0.5 and king_update["r(bet)"] == pytest.approx(king["v(bet)"] - king["v(I)"])
    assert values["Σ π_i"].max() == 2.0  # a sum over the set's two deals, labelled as one
    page.button(key="kuhn_step_10").click().run()
    assert any(
        c.value.startswith("Iteration 1 of cfr") for c in page.caption
    )  # still the traced iteration, not the live one


def walkthrough_tables(app):
    """The walkthrough's two tables: reach and values, then the update."""
    values = next(d.value for d in app.dataframe if "Σ π_i" in d.value.columns)
    update = next(d.value for d in app.dataframe if "σ'(bet)" in d.value.columns)
    return values, update


def test_show_iteration_t_rederives_that_iteration_from_the_seed(page):
    import rmcore

    page.number_input(key="kuhn_show_iteration").set_value(250).run()
    assert not page.exception
    values, update = walkthrough_tables(page)
    solver = rmcore.CFRSolver(rmcore.KUHN)
    solver.run(249)
    expected = solver.trace_iteration()
    assert list(update["R(bet)"]) == [r.cumulative_regrets[1] for r in expected]
    assert list(values["v(I)"]) == [r.strategy_value for r in expected]
    assert metric(page, 0) == "0"  # the run itself did not move


def test_replay_shows_an_earlier_checkpoint_and_run_resumes_from_the_live_end(page):
    page.button(key="kuhn_step_100").click().run()
    live = page.session_state.kuhn_live
    history = live.primary.history()
    earlier = int(history.iterations[len(history) // 2])
    page.select_slider(key="kuhn_replay_100").set_value(earlier).run()
    assert not page.exception
    assert metric(page, 0) == f"{earlier} (replay; live end 100)"
    table = next(t.value for t in page.table if "current P(bet)" in t.value.columns)
    assert list(table["R(bet)"]) == list(history.regrets[history.row_at(earlier), :, 1])
    page.segmented_control(key="kuhn_running").set_value("Run").run()
    assert int(metric(page, 0).replace(",", "")) > 100


def test_run_trains_towards_the_game_value_and_pause_holds(page):
    page.segmented_control(key="kuhn_running").set_value("Run").run()
    for _ in range(5):
        page.run()
    assert not page.exception
    iterations = int(metric(page, 0).replace(",", ""))
    assert iterations > 100
    assert abs(float(metric(page, 2)) + 1 / 18) < 0.01
    page.segmented_control(key="kuhn_running").set_value("Pause").run()
    held = metric(page, 0)
    page.run()
    assert metric(page, 0) == held
    assert "Estimated α" in " ".join(m.value for m in page.markdown)


def test_several_variants_overlay_and_a_change_restarts_with_a_notice(page):
    page.button(key="kuhn_step_1").click().run()
    chosen = ["cfr+ · alternating", "discounted · simultaneous", "chance-sampling · alternating"]
    page.multiselect(key="kuhn_variants").set_value(chosen).run()
    assert any("restarted from iteration 0" in i.value for i in page.info)
    page.segmented_control(key="kuhn_running").set_value("Run").run()
    # One time-budgeted update per run of the page: on a cold numba cache the first ones load or compile kernels.
    for _ in range(40):
        page.run()
        table = next(d.value for d in page.dataframe if "variant" in d.value.columns)
        if table.set_index("variant").loc["cfr+ · alternating", "to 1e-02"] != "not yet":
            break
    live = page.session_state.kuhn_live
    assert [v.label for v in live.race.variants] == chosen and live.race.runs == 2 + 5  # five seeds for the sampled one
    assert len({s.iteration for s in live.race.solvers}) == 1 and live.iteration > 0
    table = next(d.value for d in page.dataframe if "variant" in d.value.columns)
    assert sorted(table["variant"]) == sorted(chosen) and list(table["rank"]) == [1, 2, 3]
    ranked = [float(gap) for gap in table["average's nash_conv"]]  # best first: ranked by the average's measure
    assert ranked == sorted(ranked) and "last iterate's nash_conv" in table.columns
    assert table.set_index("variant").loc["cfr+ · alternating", "to 1e-02"] != "not yet" and not page.exception


def test_no_variant_keeps_the_last_choice_with_a_message(page):
    page.multiselect(key="kuhn_variants").set_value([]).run()
    assert "Choose at least one variant" in " ".join(e.value for e in page.error) and not page.exception
    assert [v.label for v in page.session_state.kuhn_live.race.variants] == ["cfr · alternating"]


def test_reset(page):
    page.button(key="kuhn_step_1").click().run()
    page.button(key="kuhn_reset").click().run()
    assert metric(page, 0) == "0" and page.session_state.kuhn_live.trace is None


def test_the_training_charts_say_what_they_show(page):
    page.button(key="kuhn_step_10").click().run()
    said = captions(page)
    assert "CFR's guarantee is for the average" in said and "equilibrium family" in said


def test_the_alpha_estimate_is_shown_as_it_is_and_a_clipped_target_is_explained():
    from ui.explain_trees import alpha_sentence

    assert alpha_sentence(0.2, 0.2) == "Estimated α = P(bet | J) = **0.2000**."
    outside = alpha_sentence(0.47, 1 / 3)
    assert (
        "**0.4700**" in outside
        and "outside the equilibrium family's range [0, 1/3]" in outside
        and "α = 0.3333" in outside
    )


# -- the bigger games, a fixed player, hands against the bot ------------------------------------------


def test_kuhn_on_sliders_shows_the_exact_answer_for_the_sliders_and_learns_toward_it(page):
    import rmcore

    page.button_group(key="kuhn_game").set_value("sliders").run()
    page.slider(key="kuhn_cards").set_value(5).run()
    page.slider(key="kuhn_bet").set_value(2.0).run()
    assert not page.exception
    page.button(key="kuhn_step_100").click().run()
    assert not page.exception and metric(page, 0) == "100"
    live = page.session_state.kuhn_live
    assert live.race.game is rmcore.kuhn_poker(5, 2.0)
    value = rmcore.solve_exactly(rmcore.kuhn_poker(5, 2.0)).game_value
    assert any(f"**{value:.6f}**" in m.value for m in page.markdown), "the LP value for the sliders' game"
    assert not any("One iteration, step by step" in e.label for e in page.expander)  # the walkthrough is classic Kuhn's
    page.selectbox(key="kuhn_explore_cards").set_value("K").run()
    table = page.table[-1].value
    assert list(table.index) == ["pass", "bet"] and table.index.name == "K"
    assert table["exact (LP)"].sum() == pytest.approx(1.0)


def test_leduc_trains_and_its_explorer_reads_any_information_set(page):
    import rmcore

    page.button_group(key="kuhn_game").set_value("leduc").run()
    page.button(key="kuhn_step_10").click().run()
    assert not page.exception and metric(page, 0) == "10"
    solver = rmcore.CFRSolver(rmcore.leduc_poker())
    solver.run(10)
    assert metric(page, 1) == f"{solver.metrics().nash_conv:.3e}"
    page.radio(key="kuhn_explore_player").set_value(2).run()
    page.radio(key="kuhn_explore_round").set_value(2).run()
    page.selectbox(key="kuhn_explore_cards").set_value("Q♠ K♥").run()
    page.selectbox(key="kuhn_explore_history").set_value("rc/r").run()
    assert not page.exception
    table = page.table[-1].value
    assert table.index.name == "Q♠ K♥ rc/r" and list(table.index) == ["fold", "call", "raise"]
    expected = solver.average_policy()["Q♠ K♥ rc/r"]
    assert list(table["average"]) == pytest.approx(list(expected), abs=1e-12)


def test_locking_player_2_lets_player_1_learn_to_exploit_it(page):
    """Player 2 fixed, never bluffing with J (the default lock): player 1 learns alone; the page shows the exact
    best-response value, the gain the lock gives away and the exploiting deviations, in the matrix page's words."""
    import rmcore

    page.radio(key="kuhn_opponent").set_value("2").run()
    assert not page.exception
    assert page.multiselect(key="kuhn_locks_2_kuhn_3_1.0").value == ["Jp"]
    page.button(key="kuhn_step_100").click().run()
    assert not page.exception and metric(page, 0) == "100"
    live = page.session_state.kuhn_live
    assert live.primary.learner == 1 and live.primary.opponent["Jp"] == (1.0, 0.0)
    exact = rmcore.solve_exactly(rmcore.KUHN)
    opponent = rmcore.fixed_strategy(rmcore.KUHN, 2, exact.policy, {"Jp": (1, 0)})
    response = rmcore.best_response(rmcore.KUHN, opponent, 1)
    solver = rmcore.CFRSolver(rmcore.KUHN, opponent=opponent)
    solver.run(100)
    assert (
        page.metric[1].label == "learner's best-response gain (cfr)"
        and metric(page, 1) == f"{solver.metrics().br_gains[0]:.3e}"
    )
    text = " ".join(m.value for m in page.markdown)
    assert f"**{response.value:.6f}**" in text and f"**{response.value - exact.game_value:.6f}**" in text
    deviations = next(d.value for d in page.dataframe if "best response" in d.value.columns)
    assert list(deviations["information set"]) == ["Qpb", "K"] and list(deviations["best response"]) == [
        "always pass",
        "always bet",
    ]
    assert "Against a fixed opponent only player 1 learns" in captions(page)
    # move the lock: J bluffs half the time; the run restarts with a notice
    page.slider(key="kuhn_lock_kuhn_3_1.0_6_1").set_value(100).run()
    assert not page.exception and page.session_state.kuhn_live.primary.opponent["Jp"] == (0.5, 0.5)
    # all weights zero: a message next to the sliders, the set plays the equilibrium
    page.slider(key="kuhn_lock_kuhn_3_1.0_6_0").set_value(0).run()
    page.slider(key="kuhn_lock_kuhn_3_1.0_6_1").set_value(0).run()
    assert any("All weights at Jp are zero" in e.value for e in page.error)
    assert page.session_state.kuhn_live.primary.opponent["Jp"] == tuple(exact.policy["Jp"])


def test_playing_hands_against_the_bot_reveals_its_cards_and_tallies(page):
    import rmcore

    page.button(key="kuhn_step_100").click().run()
    for _ in range(3):
        while True:
            actions = [b for b in page.button if b.key and b.key.startswith("kuhn_play_") and b.key != "kuhn_play_next"]
            if not actions:
                break
            actions[-1].click().run()  # always bet / call
            assert not page.exception
        assert any("The bot held" in m.value for m in page.markdown)
        page.button(key="kuhn_play_next").click().run()
    table = page.session_state.kuhn_play
    assert len(table.winnings) == 3 and table.hand.number == 3
    # the same hands again from the seed: a fresh table replays them exactly
    bot = page.session_state.kuhn_live.primary.average_policy()
    again = []
    for number in range(3):
        hand = rmcore.Hand(rmcore.KUHN, bot, 1, 0, number)
        while not hand.is_over:
            hand.play(hand.legal_actions[-1])
        again.append(hand.winnings)
    assert table.winnings == again
    assert any(m.value.startswith("After **3** hands you average") for m in page.markdown)


# -- links handed out keep opening: the URL path /kuhn_poker (now /game_trees), the page id kuhn, every kuhn_* key --


def _opened_at(url: str):
    """The app opened at ``url``'s path with its query, as a browser's first request opens a link."""
    parts = urllib.parse.urlsplit(url)
    params = {}
    for key, value in urllib.parse.parse_qsl(parts.query):
        params.setdefault(key, []).append(value)
    params = {key: values if len(values) > 1 else values[0] for key, values in params.items()}
    return opened(params, parts.path.strip("/"))


def _shows_leduc(app, seed: int, variant: str, iteration: int) -> None:
    run_to_reached(app, "kuhn")
    assert not app.exception and app.title[0].value == "CFR on game trees" and not app.warning
    assert app.button_group(key="kuhn_game").value == "leduc"
    live = app.session_state.kuhn_live
    assert live.key.game == "leduc" and len(live.race.game.infosets) == 936  # Leduc's, not classic Kuhn's 12
    assert live.key.seed == seed and [v.label for v in live.race.variants] == [variant] and live.iteration == iteration
    assert "**Leduc hold'em:**" in " ".join(m.value for m in app.markdown)
    assert app.radio(key="kuhn_explore_round").value == 1  # the explorer's betting rounds: Leduc has two
    assert not any("One iteration, step by step" in e.label for e in app.expander)  # classic Kuhn's walkthrough


def test_an_old_leduc_link_opens_leduc_with_its_variant_and_seed():
    """The link as the page writes it: the game by its label (as the bound control writes it), every key ``kuhn_*``."""
    app = _opened_at(
        "/kuhn_poker?"
        + urllib.parse.urlencode(
            {"kuhn_game": "Leduc hold'em", "kuhn_variants": "cfr+ · simultaneous", "kuhn_seed": "7", "run_to": "3"}
        )
    )
    _shows_leduc(app, seed=7, variant="cfr+ · simultaneous", iteration=3)


def test_an_old_setup_file_of_page_kuhn_opens_the_poker_page_with_its_game():
    parameters = [["kuhn_game", "Leduc hold'em"], ["kuhn_variants", "cfr · alternating"], ["kuhn_seed", "9"]]
    setup = {"format": "rmcore-setup/1", "page": "kuhn", "parameters": parameters, "iteration": 2}
    target = link.link_from_setup(json.dumps(setup).encode(), "http://host:8501/")
    assert urllib.parse.urlsplit(target).path == "/game_trees"  # (the page's path now; /kuhn_poker opens it too)
    _shows_leduc(_opened_at(target), seed=9, variant="cfr · alternating", iteration=2)


def test_the_average_policies_value_and_the_game_value_are_two_named_numbers(page):
    """Player 2 locked (never bluffs with J): the average policies earn player 1 more than the game's −1/18, and the
    page names each number for what it is."""
    page.radio(key="kuhn_opponent").set_value("2").run()
    labels = [m.label for m in page.metric]
    assert labels[2:] == ["average policies' value for player 1", "game value for player 1"]
    assert metric(page, 2) == "-" and metric(page, 3) == "-0.05556", "no average before the first iteration"
    page.button(key="kuhn_step_100").click().run()
    assert not page.exception
    assert float(metric(page, 2)) > 0 and metric(page, 3) == "-0.05556"
    assert float(metric(page, 2)) == pytest.approx(page.session_state.kuhn_live.primary.metrics().game_value, abs=1e-5)


def test_leducs_game_value_is_its_exact_answer_and_uniform_play_is_not_called_a_value(page):
    import rmcore

    page.segmented_control(key="kuhn_game").set_value("leduc").run()
    for _ in range(20):  # the exact answer arrives from the background on a later run
        if metric(page, 3) != "-":
            break
        page.run()
    assert metric(page, 2) == "-"
    assert float(metric(page, 3)) == pytest.approx(rmcore.solve_exactly(rmcore.leduc_poker()).game_value, abs=1e-5)
