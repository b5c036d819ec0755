"""Playing hands of a two-player game tree against a policy (the bot), for a student to feel what CFR learned.

A :class:`Hand` is one deal played out on any :class:`~rmcore.TreeGame`, walking its arrays (``game.tree``) node by
node: the student sits as player 1 or 2, the bot plays the other seat by sampling its policy at each of its
information sets, chance draws its outcomes with their probabilities (the deal at the root, Leduc's public card or a
Goofspiel prize in the middle). Everything random in hand number ``n`` comes from
``numpy.random.default_rng([seed, n])``, so the same seed deals the same hands and the bot makes the same draws
(given the same policy and the same student actions).

The student sees what their seat may see: the name of their information set (which is what the player knows), the
legal actions and, at the end, the outcome. A poker game (built from rules: ``rmcore.KUHN``, ``kuhn_poker(...)``,
``leduc_poker()``) names its cards and its actions as a player at the table says them (check, bet, fold, call); the
policy's rows keep the tree's names (Kuhn's pass and bet).

:func:`running_mean` summarises the student's winnings so far: the mean and a 95% confidence band (normal
approximation, mean +- 1.96 sd / sqrt(n)), to set beside the game value and what a best response would win
(:func:`rmcore.best_response`).

>>> import rmcore
>>> bot = rmcore.solve_exactly(rmcore.KUHN).policy
>>> hand = Hand(rmcore.KUHN, bot, player=1, seed=3, number=0)
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

from .._deprecated import warn
from ..validation import whole_number
from .game import CHANCE_NODE, TreeGame, as_policy_array, chance_of, check_tree_game, children_of

__all__ = ["Hand", "BotMove", "running_mean", "RunningMean"]

#: ``TreeArrays.player`` at a terminal node.
_TERMINAL = -1


class BotMove(NamedTuple):
    """One decision the bot made: where, what (as a player says it: fold, call, ...), and the probability its policy
    gave that action there; ``index`` is the action's place in the information set's policy row."""

    infoset: str
    action: str
    probability: float
    index: int


class Hand:
    """One hand of ``game`` between a student and a bot playing ``policy``.

    Parameters
    ----------
    game : TreeGame
        Any two-player game tree: a poker game (``rmcore.KUHN``, ``rmcore.leduc_poker()``), a catalogue game
        (``rmcore.tree_game(...)``), a game read from a file or converted from OpenSpiel.
    policy : Policy, dict or array
        The bot's policy (only its own seat's rows are used).
    player : {1, 2}
        The player the student plays (``student=`` is its deprecated name).
    seed, number : int
        The deal, chance's later draws and the bot's draws come from ``default_rng([seed, number])``.
    """

    def __init__(
        self, game: TreeGame, policy, player: int | None = None, seed: int = 0, number: int = 0, *, student=None
    ):
        if student is not None:
            warn("Hand(..., student=...) is deprecated: use player=... (players are 1 and 2 everywhere)")
            player = student if player is None else player
        check_tree_game(game)
        if isinstance(player, bool) or player not in (1, 2):
            raise ValueError(f"the student plays player 1 or 2, got {player!r}")
        self.game, self.rules = game, game.rules if _is_poker(game) else None
        self.policy = as_policy_array(game, policy)
        #: The player the student plays, 1 or 2.
        self.player = int(player)
        self._seat = self.player - 1  # (the arrays number the players 0 and 1)
        self.seed, self.number = whole_number(seed, "seed", 0), whole_number(number, "hand number", 0)
        self._rng = np.random.default_rng([self.seed, self.number])
        tree = game.tree
        deals = tree.deal_probability
        self.deal_index = int(self._rng.choice(len(deals), p=deals / deals.sum()))
        self.node = int(tree.deal_root[self.deal_index])
        self.bot_moves: list[BotMove] = []
        #: The hand so far as (who, what): "you", "bot", or "dealer" (a chance move after the deal).
        self.steps: list[tuple[str, str]] = []
        #: The names of the student's information sets so far, in order (the last is where they are now).
        self.your_infosets: list[str] = []
        self._advance()

    @property
    def student(self) -> int:
        """Deprecated: ``player - 1``."""
        warn("Hand.student is deprecated: use Hand.player (1 or 2)")
        return self._seat

    # -- what the student sees ------------------------------------------------------------------

    @property
    def deal(self):
        """The deal: a poker game's cards (as the rules number them), otherwise chance's outcomes at the root."""
        if self.rules is not None:
            return self.game.node_labels[self.node][:-1]
        return tuple(outcome for outcome, _ in self._deal_steps())

    @property
    def history(self) -> str:
        """The moves so far: a poker game's betting (its rules' history), otherwise the node's label (the outcome and
        action names from the root, as the tree builder writes them)."""
        label = self.game.node_labels[self.node]
        if self.rules is not None:
            return label[-1]
        return label if isinstance(label, str) else " ".join(str(part) for part in label)

    def _deal_steps(self) -> tuple:
        paths = self.game.deal_paths
        return paths[self.deal_index] if paths else ()

    def _card(self, card: int) -> str:
        return self.rules.card_names[card]

    @property
    def your_cards(self) -> str:
        """What the student knows: a poker game's private card (and, once dealt, the public card); otherwise the
        name of the student's information set (empty before their first turn)."""
        if self.rules is None:
            return self.your_infosets[-1] if self.your_infosets else ""
        return " ".join(self._card(c) for c in self._seen(self._seat))

    @property
    def bot_cards(self) -> str:
        """What the bot knew, for after the hand: a poker game's private card; otherwise the bot's last information
        set (empty if it never acted)."""
        if self.rules is None:
            return self.bot_moves[-1].infoset if self.bot_moves else ""
        return self._card(self.deal[1 - self._seat])

    def _seen(self, player: int) -> tuple[int, ...]:
        cards = (self.deal[player],)
        rounds = self.history.split("/")
        if len(rounds) > 1 and rounds[1]:
            cards += (int(rounds[1][0]),)
        return cards

    @property
    def is_over(self) -> bool:
        return int(self.game.tree.player[self.node]) == _TERMINAL

    @property
    def legal_actions(self) -> tuple[str, ...]:
        """The student's choices now (empty when the hand is over)."""
        if self.is_over:
            return ()
        if self.rules is not None:
            return self.rules.spoken_names(self.history)
        return self.game.actions[int(self.game.tree.infoset[self.node])]

    @property
    def winnings(self) -> float:
        """What the student won (negative: lost), once the hand is over."""
        if not self.is_over:
            raise ValueError("the hand is not over yet")
        payoff = float(self.game.tree.payoff[self.node])
        return payoff if self._seat == 0 else -payoff

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
        self.node = int(children_of(self.game.tree, self.node)[self.legal_actions.index(action)])
        self._advance()

    def _advance(self) -> None:
        """Chance and the bot move until the student is to act or the hand is over."""
        tree = self.game.tree
        while True:
            actor = int(tree.player[self.node])
            if actor == _TERMINAL:
                return
            if actor == CHANCE_NODE:
                weights = chance_of(tree, self.node)
                pick = int(self._rng.choice(weights.shape[0], p=weights / weights.sum()))
                before, self.node = self.node, int(children_of(tree, self.node)[pick])
                self.steps.append(("dealer", self._chance_words(before)))
                continue
            k = int(tree.infoset[self.node])
            if actor == self._seat:
                self.your_infosets.append(self.game.infosets[k])
                return
            count = int(tree.num_actions[k])
            probabilities = self.policy[k, :count]
            pick = int(self._rng.choice(count, p=probabilities / probabilities.sum()))
            said = self.rules.spoken_names(self.history)[pick] if self.rules is not None else self.game.actions[k][pick]
            self.bot_moves.append(BotMove(self.game.infosets[k], said, float(probabilities[pick]), pick))
            self.steps.append(("bot", said))
            self.node = int(children_of(tree, self.node)[pick])

    def _chance_words(self, before: int) -> str:
        """What chance just did, in words: the public card of a poker game, otherwise the outcome's name."""
        if self.rules is not None:
            return f"public card {self._card(int(self.history.split('/')[1][0]))}"
        labels = self.game.node_labels
        previous, now = labels[before], labels[self.node]
        if isinstance(previous, str) and isinstance(now, str) and now.startswith(previous):
            return now[len(previous) :].strip() or "chance moved"
        return "chance moved"


def _is_poker(game: TreeGame) -> bool:
    """Whether ``game`` was built from poker rules (``rmcore.trees.poker``), whose cards and words a hand can use."""
    rules = game.rules
    return rules is not None and all(hasattr(rules, name) for name in ("card_names", "spoken_names", "deals"))


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
