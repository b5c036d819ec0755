"""Hands against the bot: reproducible deals, the bot plays its policy, winnings add up to the exact expectation."""

import math

import numpy as np
import pytest

import rmcore
from rmcore.trees import poker
from rmcore.trees.play import Hand, running_mean

from . import naive_rules_cfr

EXACT = rmcore.solve_exactly(rmcore.KUHN)


def _play_out(hand: Hand, choose) -> Hand:
    while not hand.is_over:
        hand.play(choose(hand))
    return hand


def test_the_same_seed_deals_the_same_hands_and_the_bot_draws_the_same():
    first = [
        _play_out(Hand(rmcore.KUHN, EXACT.policy, 2, seed=11, number=n), lambda h: h.legal_actions[-1])
        for n in range(30)
    ]
    again = [
        _play_out(Hand(rmcore.KUHN, EXACT.policy, 2, seed=11, number=n), lambda h: h.legal_actions[-1])
        for n in range(30)
    ]
    assert [(h.deal, h.history) for h in first] == [(h.deal, h.history) for h in again]
    other = [Hand(rmcore.KUHN, EXACT.policy, 2, seed=12, number=n).deal for n in range(30)]
    assert other != [h.deal for h in first]


def test_deals_are_uniform_and_the_bot_acts_with_its_policys_probability():
    counts = {}
    for n in range(3000):
        hand = _play_out(
            Hand(rmcore.KUHN, EXACT.policy, 1, seed=5, number=n), lambda h: h.legal_actions[1]
        )  # bet, or call a bet
        counts[hand.deal] = counts.get(hand.deal, 0) + 1
        for move in hand.bot_moves:
            k = rmcore.KUHN.infosets.index(move.infoset)
            a = move.index
            assert (
                move.action == ("call" if move.infoset.endswith("b") else "bet")
                if a == 1
                else move.action in ("check", "fold")
            )
            assert move.probability == EXACT.policy.probabilities[k, a] > 0
    assert len(counts) == 6 and all(abs(c - 500) < 5 * math.sqrt(500) for c in counts.values())


@pytest.mark.parametrize("seat", [1, 2])
def test_mean_winnings_agree_with_the_exact_expectation(seat):
    """The student always bets or calls; over 4000 hands the mean lies within 4 standard errors of the exact value of
    that strategy against the bot (the expectation by brute force over the rules)."""
    rules = poker.KuhnRules()
    always = {
        name: [0.0, 1.0]
        for k, name in enumerate(rmcore.KUHN.infosets)
        if rmcore.KUHN.tree.infoset_player[k] == seat - 1
    }
    policy = {name: list(EXACT.policy[name]) for name in rmcore.KUHN.infosets} | always
    exact = naive_rules_cfr.expected(rules, policy) * (1 if seat == 1 else -1)
    winnings = [
        _play_out(Hand(rmcore.KUHN, EXACT.policy, seat, seed=1, number=n), lambda h: h.legal_actions[1]).winnings
        for n in range(4000)
    ]
    summary = running_mean(winnings)
    assert abs(summary.mean - exact) < 4 * summary.half_width / 1.96


def test_a_kuhn_hand_is_told_in_a_players_words_fold_and_call_after_a_bet():
    hand = Hand(rmcore.KUHN, EXACT.policy, 2, seed=3, number=0)
    for n in range(200):
        hand = _play_out(Hand(rmcore.KUHN, EXACT.policy, 2, seed=3, number=n), lambda h: h.legal_actions[1])
        for (_who, said), before in zip(hand.steps, [""] + [h for h in _prefixes(hand.history)]):
            assert said in (("fold", "call") if before.endswith("b") else ("check", "bet")), (hand.history, hand.steps)


def _prefixes(history: str) -> list[str]:
    return [history[: k + 1] for k in range(len(history))]


def test_a_leduc_hand_deals_the_public_card_between_the_rounds():
    game = poker.leduc_poker()
    bot = rmcore.CFRSolver(game, "cfr+")
    bot.run(5)
    hand = Hand(game, bot.average_policy(), 1, seed=2, number=0)
    assert len(hand.your_cards.split()) == 1 and hand.legal_actions == ("check", "bet")
    _play_out(hand, lambda h: "call" if "call" in h.legal_actions else "check")
    assert hand.is_over and ("dealer" in [who for who, _ in hand.steps]) == ("/" in hand.history)
    if "/" in hand.history:
        assert len(hand.your_cards.split()) == 2
    assert hand.winnings == pytest.approx(game.rules.payoff(hand.history, hand.deal))


def test_bad_moves_and_settings_are_refused_with_a_clear_message():
    hand = Hand(rmcore.KUHN, EXACT.policy, 1, seed=0, number=0)
    with pytest.raises(ValueError, match="not a legal action now; choose one of check, bet"):
        hand.play("raise")
    with pytest.raises(ValueError, match="not over yet"):
        _ = hand.winnings  # the property raises
    _play_out(hand, lambda h: h.legal_actions[0])  # check, or fold to a bet
    with pytest.raises(ValueError, match="the hand is over"):
        hand.play("check")
    with pytest.raises(ValueError, match="player 1 or 2"):
        Hand(rmcore.KUHN, EXACT.policy, 0, seed=0, number=0)
    with pytest.raises(ValueError, match="seed"):
        Hand(rmcore.KUHN, EXACT.policy, 1, seed=-1, number=0)
    with pytest.raises(ValueError, match="TreeGame"):
        Hand("kuhn", EXACT.policy, 1, seed=0, number=0)


def test_running_mean_and_its_band():
    values = np.random.default_rng(0).normal(0.3, 2.0, 500)
    summary = running_mean(values)
    assert summary.hands == 500 and summary.mean == pytest.approx(values.mean())
    assert summary.half_width == pytest.approx(1.96 * values.std(ddof=1) / math.sqrt(500))
    assert running_mean([]).hands == 0 and math.isnan(running_mean([1.0]).half_width)
    with pytest.raises(ValueError, match="finite numbers"):
        running_mean([1.0, float("nan")])


# -- any game tree: the hand walks the tree's arrays -----------------------------------------------------------------


def _matching_pennies_with_a_coin() -> rmcore.TreeGame:
    """Chance flips a fair coin that only player 1 sees; player 1 calls heads or tails, player 2 (blind) guesses."""

    def expand(history):
        if not history:
            return rmcore.Chance(("heads", "tails"), (0.5, 0.5), ("H", "T"))
        if len(history) == 1:
            return rmcore.Decision(1, f"coin {history}", ("say H", "say T"), (history + "h", history + "t"))
        if len(history) == 2:
            return rmcore.Decision(2, f"told {history[1]}", ("guess H", "guess T"), (history + "H", history + "T"))
        return rmcore.Terminal(1.0 if history[1].upper() != history[2] else -1.0)

    return rmcore.build_tree_game("Coin", "", expand)


def test_a_hand_of_any_tree_shows_the_students_information_set_and_its_actions_and_pays_the_tree():
    game = _matching_pennies_with_a_coin()
    policy = {"coin H": [1.0, 0.0], "coin T": [0.0, 1.0], "told h": [0.0, 1.0], "told t": [1.0, 0.0]}
    for seat in (1, 2):
        for number in range(20):
            hand = Hand(game, policy, seat, seed=4, number=number)
            assert hand.your_cards == hand.your_infosets[-1] and hand.your_cards in game.infosets
            assert hand.legal_actions == game.actions[game.infosets.index(hand.your_cards)]
            _play_out(hand, lambda h: h.legal_actions[0])
            assert hand.is_over and hand.legal_actions == ()
            payoff = float(game.tree.payoff[hand.node])
            assert hand.winnings == (payoff if seat == 1 else -payoff)
            assert hand.deal in (("heads",), ("tails",)) and hand.history.startswith(hand.deal[0])
            assert all(move.probability == 1.0 for move in hand.bot_moves)


def test_a_hand_of_any_tree_is_reproducible_from_its_seed_and_its_chance_is_fair():
    game = _matching_pennies_with_a_coin()
    uniform = rmcore.trees.game.uniform_policy(game)
    deals = [Hand(game, uniform, 2, seed=9, number=n).deal for n in range(2000)]
    assert deals == [Hand(game, uniform, 2, seed=9, number=n).deal for n in range(2000)]
    assert abs(deals.count(("heads",)) - 1000) < 5 * math.sqrt(500)


@pytest.mark.parametrize(
    "name", ["goofspiel(num_cards=4,imp_info=True,points_order=descending)", "liars_dice(dice_sides=3)"]
)
def test_a_whole_hand_of_an_openspiel_game_against_its_cfr_bot(name):
    pyspiel = pytest.importorskip("pyspiel")
    game = rmcore.from_openspiel(pyspiel.load_game(name))
    bot = rmcore.CFRSolver(game, "cfr+")
    bot.run(3)
    for seat in (1, 2):
        for number in range(10):
            hand = Hand(game, bot.average_policy(), seat, seed=0, number=number)
            _play_out(hand, lambda h: h.legal_actions[-1])
            moves = [who for who, _ in hand.steps]
            assert "you" in moves and "bot" in moves and hand.winnings == hand.winnings  # a number, not NaN
            assert hand.winnings == float(game.tree.payoff[hand.node]) * (1 if seat == 1 else -1)


def test_a_leduc_hand_pays_what_the_tree_pays():
    game = poker.leduc_poker()
    uniform = rmcore.trees.game.uniform_policy(game)
    for number in range(50):
        hand = _play_out(Hand(game, uniform, 2, seed=8, number=number), lambda h: h.legal_actions[0])
        assert hand.winnings == pytest.approx(-game.rules.payoff(hand.history, hand.deal))
