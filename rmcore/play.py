"""Playing hands of a poker game against a policy (the bot), for a student to feel what CFR learned.

A :class:`Hand` is one deal played out: the student sits as player 1 or 2, the bot plays the other seat by
sampling its policy at each of its information sets, chance deals the public card (Leduc). Everything random in
hand number ``n`` comes from ``numpy.random.default_rng([seed, n])``, so the same seed deals the same hands and the
bot makes the same draws (given the same policy and the same student actions). Actions are named as a player at the
table says them (check, bet, fold, call); the policy's rows keep the tree's names (Kuhn's pass and bet).

:func:`running_mean` summarises the student's winnings so far: the mean and a 95% confidence band (normal
approximation, mean +- 1.96 s / sqrt(n)), to set beside the game value and what a best response would win
(:func:`rmcore.best_response`).

>>> import rmcore
>>> bot = rmcore.solve_tree_game(rmcore.KUHN).policy
>>> hand = Hand(rmcore.KUHN, bot, student=1, seed=3, number=0)
>>> hand.your_cards, hand.legal_actions
('J', ('check', 'bet'))
>>> hand.play("bet")
>>> hand.steps
[('you', 'bet'), ('bot', 'fold')]
>>> hand.is_over, hand.bot_cards, hand.winnings, [
...     (m.infoset, m.action, round(m.probability, 3)) for m in hand.bot_moves
... ]
(True, 'Q', 1.0, [('Qb', 'fold', 0.667)])
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .tree import CHANCE_NODE, TreeGame, as_policy_array
from .validation import whole_number

__all__ = ["Hand", "BotMove", "running_mean", "RunningMean"]


class BotMove(NamedTuple):
    """One decision the bot made: where, what (as a player says it: fold, call, ...), and the probability its policy
    gave that action there; ``index`` is the action's place in the information set's policy row."""

    infoset: str
    action: str
    probability: float
    index: int


class Hand:
    """One hand of ``game`` (built by :mod:`rmcore.poker`) between a student and a bot playing ``policy``.

    Parameters
    ----------
    game : TreeGame
        A poker game with its rules (``rmcore.KUHN``, ``rmcore.kuhn_poker(...)``, ``rmcore.leduc_poker()``).
    policy : Policy, dict or array
        The bot's policy (only its own seat's rows are used).
    student : {1, 2}
        The student's seat.
    seed, number : int
        The deal, the public card and the bot's draws come from ``default_rng([seed, number])``.
    """

    def __init__(self, game: TreeGame, policy, student: int, seed: int, number: int):
        if not isinstance(game, TreeGame) or game.rules is None:
            raise ValueError(
                "a hand is played on a poker game built from rules (rmcore.KUHN, kuhn_poker(...), leduc_poker())"
            )
        if isinstance(student, bool) or student not in (1, 2):
            raise ValueError(f"the student sits as player 1 or 2, got {student!r}")
        self.game, self.rules = game, game.rules
        self.policy = as_policy_array(game, policy)
        self.student = int(student) - 1
        self.seed, self.number = whole_number(seed, "seed", 0), whole_number(number, "hand number", 0)
        self._rng = np.random.default_rng([self.seed, self.number])
        deals = self.rules.deals()
        self.deal = deals[
            int(self._rng.choice(len(deals), p=game.tree.deal_probability / game.tree.deal_probability.sum()))
        ]
        self.history = ""
        self.bot_moves: list[BotMove] = []
        #: The hand so far as (who, what): "you", "bot" or "dealer" (the public card).
        self.steps: list[tuple[str, str]] = []
        self._advance()

    # -- what the student sees ------------------------------------------------------------------

    def _card(self, card: int) -> str:
        return self.rules.card_names[card]

    @property
    def your_cards(self) -> str:
        """The student's private card (and, once dealt, the public card)."""
        return " ".join(self._card(c) for c in self._seen(self.student))

    @property
    def bot_cards(self) -> str:
        """The bot's private card: for after the hand."""
        return self._card(self.deal[1 - self.student])

    def _seen(self, player: int) -> tuple[int, ...]:
        cards = (self.deal[player],)
        rounds = self.history.split("/")
        if len(rounds) > 1 and rounds[1]:
            cards += (int(rounds[1][0]),)
        return cards

    @property
    def is_over(self) -> bool:
        return self.rules.player(self.history) == -1

    @property
    def legal_actions(self) -> tuple[str, ...]:
        """The student's choices now (empty when the hand is over)."""
        return () if self.is_over else self.rules.spoken_names(self.history)

    @property
    def winnings(self) -> float:
        """What the student won (negative: lost), once the hand is over."""
        if not self.is_over:
            raise ValueError("the hand is not over yet")
        payoff = float(self.rules.payoff(self.history, self.deal))
        return payoff if self.student == 0 else -payoff

    # -- playing ---------------------------------------------------------------------------------

    def play(self, action: str) -> None:
        """The student's ``action`` (one of :attr:`legal_actions`, by name), then the bot and chance until the
        student is to act again or the hand is over."""
        if action not in self.legal_actions:
            raise ValueError(
                f"{action!r} is not a legal action now; choose one of "
                f"{', '.join(self.legal_actions) or '(none: the hand is over)'}"
            )
        self.steps.append(("you", action))
        self.history = self.rules.after(
            self.history, self.rules.actions(self.history)[self.legal_actions.index(action)]
        )
        self._advance()

    def _advance(self) -> None:
        rules = self.rules
        while True:
            actor = rules.player(self.history)
            if actor == -1 or actor == self.student:
                return
            if actor == CHANCE_NODE:
                outcomes = rules.chance(self.history, self.deal)
                weights = np.array([p for _, p in outcomes])
                pick = int(self._rng.choice(len(outcomes), p=weights / weights.sum()))
                self.history = rules.after(self.history, outcomes[pick][0])
                self.steps.append(("dealer", f"public card {self._card(int(outcomes[pick][0]))}"))
                continue
            infoset = rules.infoset(self.history, self.deal)
            k = self.game.infosets.index(infoset)
            actions = rules.actions(self.history)
            probabilities = self.policy[k, : len(actions)]
            pick = int(self._rng.choice(len(actions), p=probabilities / probabilities.sum()))
            self.bot_moves.append(
                BotMove(infoset, rules.spoken_names(self.history)[pick], float(probabilities[pick]), pick)
            )
            self.steps.append(("bot", self.bot_moves[-1].action))
            self.history = rules.after(self.history, actions[pick])


class RunningMean(NamedTuple):
    """The student's winnings so far: ``hands``, their ``mean`` and the 95% band's half-width (``nan`` below 2)."""

    hands: int
    mean: float
    half_width: float


def running_mean(winnings) -> RunningMean:
    """Mean winnings per hand and the half-width of a 95% confidence band (1.96 standard errors).

    >>> running_mean([1.0, -1.0, 2.0, 0.0])  # doctest: +ELLIPSIS
    RunningMean(hands=4, mean=0.5, half_width=1.265...)
    """
    values = np.asarray(list(winnings), dtype=float)
    if values.ndim != 1 or not np.isfinite(values).all():
        raise ValueError("winnings must be a list of finite numbers")
    n = values.shape[0]
    if n == 0:
        return RunningMean(0, math.nan, math.nan)
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return RunningMean(n, float(values.mean()), half)
