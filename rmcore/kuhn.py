"""Counterfactual regret minimisation on Kuhn poker: :class:`KuhnCFR`.

Kuhn poker (Kuhn 1950): three cards J < Q < K, each player antes 1 and is dealt one card. Player 1
passes (checks) or bets 1; after a pass player 2 passes (showdown for 2) or bets, and player 1 then
folds (pass) or calls (bet); after a bet the other player folds or calls. The game value for player 1
is -1/18.

CFR (Zinkevich, Johanson, Bowling & Piccione 2007) runs regret matching at every information set,
weighting each history by the probability that the opponent and chance reach it. One iteration, for
each player i (alternating, as OpenSpiel does, or both at once):

1. reach probabilities pi_0(h), pi_1(h), pi_c(h) of every history under the current strategy sigma;
2. values v_i(h) bottom-up;
3. for every information set I of i: ``R(I, a) += sum_{h in I} pi_-i(h) (v_i(h a) - v_i(h))`` and
   ``S(I, a) += w_t sum_{h in I} pi_i(h) sigma(I, a)``;
4. ``sigma(I) = RM(R(I))``; CFR+ (Tammelin 2014) clips R at 0, and linear and discounted CFR
   (Brown & Sandholm 2019) scale it down; the average strategy is ``S / sum S``.

>>> from rmcore import KuhnCFR
>>> solver = KuhnCFR("cfr+")
>>> solver.run(1000)
>>> round(solver.game_value(), 3), solver.exploitability() < 1e-3
(-0.056, True)
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import _kernels, checkpoints, config
from .matrix import _initial_rng_state, _whole_number

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["KuhnCFR", "KuhnTrace", "INFOSETS", "ACTIONS", "VARIANTS", "kuhn_tree", "kuhn_nash_conv"]

CARDS = "JQK"
ACTIONS = ("pass", "bet")
#: Player 1's information sets, then player 2's: card, then the public history.
INFOSETS = ("J", "Q", "K", "Jpb", "Qpb", "Kpb", "Jp", "Jb", "Qp", "Qb", "Kp", "Kb")
VARIANTS = {
    "cfr": _kernels.VANILLA_CFR,
    "cfr+": _kernels.CFR_PLUS,
    "linear": _kernels.LINEAR_CFR,
    "discounted": _kernels.DISCOUNTED_CFR,
    "chance-sampling": _kernels.CHANCE_SAMPLING,
}
_TERMINAL = {"pp", "bp", "bb", "pbp", "pbb"}


def _payoff(history: str, card_1: int, card_2: int) -> float:
    """Player 1's payoff at a terminal history."""
    showdown = 1.0 if card_1 > card_2 else -1.0
    return {"pp": showdown, "bp": 1.0, "pbp": -1.0, "bb": 2.0 * showdown, "pbb": 2.0 * showdown}[history]


def kuhn_tree() -> tuple[_kernels.GameTree, list[tuple[int, int, str]]]:
    """Kuhn poker as flat arrays, and each node's (card 1, card 2, public history) label."""
    labels: list[tuple[int, int, str]] = []
    deal_start, deal_end = [], []
    for card_1, card_2 in itertools.permutations(range(3), 2):
        deal_start.append(len(labels))
        frontier = [""]
        while frontier:  # breadth first: parents before children
            labels.extend((card_1, card_2, h) for h in frontier)
            frontier = [h + a for h in frontier if h not in _TERMINAL for a in "pb"]
        deal_end.append(len(labels))
    index = {label: k for k, label in enumerate(labels)}
    n = len(labels)
    player = np.full(n, -1, dtype=np.int64)
    infoset = np.full(n, -1, dtype=np.int64)
    children = np.full((n, 2), -1, dtype=np.int64)
    payoff = np.zeros(n)
    depth = np.array([len(h) for _, _, h in labels], dtype=np.int64)
    for k, (c1, c2, h) in enumerate(labels):
        if h in _TERMINAL:
            payoff[k] = _payoff(h, c1, c2)
            continue
        actor = len(h) % 2
        player[k] = actor
        infoset[k] = INFOSETS.index(CARDS[c1 if actor == 0 else c2] + h)
        children[k] = [index[(c1, c2, h + "p")], index[(c1, c2, h + "b")]]
    tree = _kernels.GameTree(
        player=player,
        infoset=infoset,
        children=children,
        payoff=payoff,
        deal_start=np.array(deal_start, dtype=np.int64),
        deal_end=np.array(deal_end, dtype=np.int64),
        deal_probability=np.full(len(deal_start), 1.0 / len(deal_start)),
        by_depth=np.argsort(-depth, kind="stable").astype(np.int64),
        depth=depth,
        infoset_player=np.array([0] * 6 + [1] * 6, dtype=np.int64),
    )
    return tree, labels


_TREE, NODE_LABELS = kuhn_tree()


def _as_policy(policy) -> np.ndarray:
    """A [12, 2] array from a dict {infoset: [pass, bet]} or an array, validated."""
    if isinstance(policy, dict):
        missing = [name for name in INFOSETS if name not in policy]
        if missing:
            raise ValueError(f"the policy has no entry for information set {missing[0]!r}")
        policy = [policy[name] for name in INFOSETS]
    array = np.asarray(policy, dtype=np.float64)
    if array.shape != (len(INFOSETS), 2):
        raise ValueError(f"a Kuhn policy has {len(INFOSETS)} information sets with 2 probabilities each; got shape {array.shape}")
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError("policy probabilities must be finite and >= 0")
    bad = np.abs(array.sum(axis=1) - 1.0) > config.SIMPLEX_TOLERANCE
    if bad.any():
        raise ValueError(f"the probabilities at {INFOSETS[int(np.argmax(bad))]!r} do not sum to 1")
    return np.ascontiguousarray(array)


def _scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(NODE_LABELS)
    return np.empty((n, 3)), np.empty(n), np.empty((len(INFOSETS), 2))


def _nash_conv(policy: np.ndarray, scratch=None) -> float:
    return float(_kernels.nash_conv_of(_TREE, policy, *(scratch or _scratch())))


def kuhn_nash_conv(policy) -> float:
    """NashConv of a Kuhn poker policy: the sum of what each player gains by best-responding.

    ``policy`` maps every information set label to [pass, bet] probabilities (or is a 12x2 array).

    >>> round(kuhn_nash_conv({name: [0.5, 0.5] for name in INFOSETS}), 12)
    0.916666666667
    """
    return _nash_conv(_as_policy(policy))


class KuhnTrace(NamedTuple):
    """What one CFR iteration computed at one information set (for the walkthrough page).

    ``own_reach`` is sum_h pi_i(h); ``opponent_reach`` is sum_h pi_-i(h) including chance;
    ``action_values`` are the counterfactual values ``sum_h pi_-i(h) v_i(h a)``; ``strategy_value`` is
    ``sum_h pi_-i(h) v_i(h)``; ``regret_increment = action_values - strategy_value``.
    """

    infoset: str
    player: int
    strategy: tuple[float, float]
    own_reach: float
    opponent_reach: float
    action_values: tuple[float, float]
    strategy_value: float
    regret_increment: tuple[float, float]
    cumulative_regrets: tuple[float, float]
    new_strategy: tuple[float, float]
    average_strategy: tuple[float, float]


class KuhnCFR:
    """CFR and its variants on Kuhn poker, run incrementally.

    Parameters
    ----------
    variant : {"cfr", "cfr+", "linear", "discounted", "chance-sampling"}
        Vanilla CFR (regret matching, uniform averaging); CFR+ (RM+, linear averaging); linear CFR
        (regrets and averages weighted by t); discounted CFR (alpha 1.5, beta 0, gamma 2); Monte
        Carlo CFR sampling one deal per iteration (reproducible from ``seed``).
    updates : {"alternating", "simultaneous"}
        Player 1 then player 2 (OpenSpiel's order, the default), or both at once (Zinkevich et al.).
    seed : int, optional
        Seed for chance sampling; ``None`` draws fresh entropy (see ``seed`` afterwards).
    max_points : int
        Most rows ``history()`` keeps.

    Notes
    -----
    With the defaults, ``cfr`` and ``cfr+`` follow OpenSpiel's CFRSolver and CFRPlusSolver exactly.
    """

    def __init__(self, variant: str = "cfr", updates: str = "alternating", seed: int | None = None, max_points: int = config.DEFAULT_MAX_POINTS):
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(map(repr, VARIANTS))}; got {variant!r}")
        if updates not in ("alternating", "simultaneous"):
            raise ValueError(f"updates must be 'alternating' or 'simultaneous'; got {updates!r}")
        if seed is not None:
            seed = _whole_number(seed, "seed", 0)
        self.variant, self.updates = variant, updates
        self.max_points = _whole_number(max_points, "max_points", 0)
        rng, self.seed = _initial_rng_state(seed)
        n, m = len(NODE_LABELS), len(INFOSETS)
        self._state = _kernels.CFRState(
            regrets=np.zeros((m, 2)), strategy_sums=np.zeros((m, 2)), policy=np.full((m, 2), 0.5),
            reach=np.zeros((n, 3)), value=np.zeros(n), regret_increment=np.zeros((m, 2)),
            action_values=np.zeros((m, 2)), strategy_value=np.zeros(m), own_reach=np.zeros(m),
            opponent_reach=np.zeros(m), rng=rng,
        )  # fmt: skip
        self._iteration = 0
        self._history: list[tuple] = []
        self._scratch = _scratch()
        self._average_buffer = np.empty((m, 2))

    @property
    def iteration(self) -> int:
        return self._iteration

    def _advance(self, stop: int) -> None:
        _kernels.run_cfr(_TREE, self._state, VARIANTS[self.variant], self.updates == "alternating", self._iteration + 1, stop)
        self._iteration = stop

    def run(self, iterations: int) -> None:
        """Advance ``iterations`` iterations; any split of the same total gives identical results."""
        iterations = _whole_number(iterations, "iterations", 0)
        stop = self._iteration + iterations
        for point in checkpoints.checkpoints_between(self._iteration, stop, self.max_points):
            self._advance(int(point))
            self._history.append(self._record())
        if stop > self._iteration:
            self._advance(stop)
        kept = checkpoints.kept(np.array([row[0] for row in self._history], dtype=np.int64), stop, self.max_points)
        self._history = [row for row, keep in zip(self._history, kept) if keep]

    # -- policies and metrics ----------------------------------------------------------------

    def _average(self) -> np.ndarray:
        """The average policy in a reused buffer (copy it before keeping it)."""
        _kernels.average_policy(self._state.strategy_sums, self._average_buffer)
        return self._average_buffer

    @staticmethod
    def _as_dict(array: np.ndarray) -> dict[str, list[float]]:
        return {name: [float(p) for p in array[k]] for k, name in enumerate(INFOSETS)}

    def average_policy(self) -> dict[str, list[float]]:
        """``S(I) / sum S(I)`` per information set, as [pass, bet] (uniform where nothing was accumulated)."""
        return self._as_dict(self._average().copy())

    def current_policy(self) -> dict[str, list[float]]:
        """The strategy the next iteration plays: ``RM(R(I))`` per information set."""
        return self._as_dict(self._state.policy)

    def cumulative_regrets(self) -> dict[str, list[float]]:
        return self._as_dict(self._state.regrets)

    def nash_conv(self, policy: str = "average") -> float:
        """What the two players together gain by best-responding to the average (or current) policy."""
        if policy not in ("average", "current"):
            raise ValueError(f"policy must be 'average' or 'current'; got {policy!r}")
        return _nash_conv(self._average() if policy == "average" else self._state.policy, self._scratch)

    def exploitability(self, policy: str = "average") -> float:
        """``nash_conv / 2`` (OpenSpiel's convention)."""
        return self.nash_conv(policy) / 2.0

    def reach_probabilities(self, policy: str = "current") -> dict[str, float]:
        """How likely each information set is to be reached (chance and both players) under the policy."""
        if policy not in ("average", "current"):
            raise ValueError(f"policy must be 'average' or 'current'; got {policy!r}")
        chosen = self._average() if policy == "average" else self._state.policy
        reach = self._scratch[0]
        _kernels.forward_reach(_TREE, chosen, reach)
        totals = np.zeros(len(INFOSETS))
        decisions = _TREE.player >= 0
        np.add.at(totals, _TREE.infoset[decisions], reach[decisions].prod(axis=1))
        return {name: float(totals[k]) for k, name in enumerate(INFOSETS)}

    def game_value(self) -> float:
        """Player 1's expected payoff when both play the average policy (-1/18 at equilibrium)."""
        return float(_kernels.expected_value(_TREE, self._average(), self._scratch[1]))

    def _record(self) -> tuple:
        average = self._average()
        return (
            self._iteration,
            _nash_conv(average, self._scratch) / 2.0,
            _nash_conv(self._state.policy, self._scratch) / 2.0,
            float(_kernels.expected_value(_TREE, average, self._scratch[1])),
            average[:, 1].copy(),
            self._state.policy[:, 1].copy(),
        )

    def history(self) -> "pd.DataFrame":
        """Checkpoints plus the current iteration: exploitability of the average and current policies,
        the game value, and each information set's average and current probability of betting
        (columns ``average_bet[J]``, ``current_bet[Kb]``, ...)."""
        import pandas as pd

        rows = list(self._history)
        if self._iteration and (not rows or rows[-1][0] != self._iteration):
            rows.append(self._record())
        columns = {
            "iteration": np.array([r[0] for r in rows], dtype=np.int64),
            "exploitability": np.array([r[1] for r in rows]),
            "exploitability_current": np.array([r[2] for r in rows]),
            "game_value": np.array([r[3] for r in rows]),
        }
        for stem, position in (("average_bet", 4), ("current_bet", 5)):
            for k, name in enumerate(INFOSETS):
                columns[f"{stem}[{name}]"] = np.array([r[position][k] for r in rows])
        return pd.DataFrame(columns)

    def trace_iteration(self) -> list[KuhnTrace]:
        """Run one iteration and return, per information set, what it computed (reach, counterfactual
        values, regret increments, new cumulative regrets and strategies). In alternating updates each
        player's numbers come from that player's own half of the iteration."""
        before = self._state.policy.copy()
        self.run(1)
        state, average = self._state, self._average()
        pair = lambda row: (float(row[0]), float(row[1]))  # noqa: E731
        return [
            KuhnTrace(
                infoset=name,
                player=int(_TREE.infoset_player[k]),
                strategy=pair(before[k]),
                own_reach=float(state.own_reach[k]),
                opponent_reach=float(state.opponent_reach[k]),
                action_values=pair(state.action_values[k]),
                strategy_value=float(state.strategy_value[k]),
                regret_increment=pair(state.regret_increment[k]),
                cumulative_regrets=pair(state.regrets[k]),
                new_strategy=pair(state.policy[k]),
                average_strategy=pair(average[k]),
            )
            for k, name in enumerate(INFOSETS)
        ]

    def __repr__(self) -> str:
        return f"<KuhnCFR {self.variant} ({self.updates}) at iteration {self._iteration}>"


def equilibrium_policy(alpha: float) -> dict[str, list[float]]:
    """The Kuhn equilibrium family (Kuhn 1950) for ``0 <= alpha <= 1/3``, as [pass, bet] per information set."""
    if not (0.0 <= alpha <= 1.0 / 3.0 + 1e-12) or math.isnan(alpha):
        raise ValueError(f"alpha must lie in [0, 1/3]; got {alpha}")
    bet = {
        "J": alpha, "Q": 0.0, "K": 3 * alpha, "Jpb": 0.0, "Qpb": alpha + 1 / 3, "Kpb": 1.0,
        "Jp": 1 / 3, "Jb": 0.0, "Qp": 0.0, "Qb": 1 / 3, "Kp": 1.0, "Kb": 1.0,
    }  # fmt: skip
    return {name: [1.0 - bet[name], bet[name]] for name in INFOSETS}
