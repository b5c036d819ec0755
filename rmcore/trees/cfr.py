"""Counterfactual regret minimisation on a game tree of any number of players: :class:`CFRSolver`.

CFR (Zinkevich, Johanson, Bowling & Piccione 2007) runs regret matching at every information set,
weighting each history by the probability that the other players and chance reach it. One iteration, for
each player i (alternating, as OpenSpiel does, or all at once):

1. reach probabilities pi_1(h), ..., pi_n(h), pi_c(h) of every history under the current strategy sigma;
2. values v_i(h) bottom-up;
3. for every information set I of i: ``R(I, a) += sum_{h in I} pi_-i(h) (v_i(h a) - v_i(h))`` and
   ``S(I, a) += w_t sum_{h in I} pi_i(h) sigma(I, a)``;
4. ``sigma(I) = RM(R(I))``; CFR+ (Tammelin 2014) clips R at 0, and linear and discounted CFR
   (Brown & Sandholm 2019) scale it down; predictive CFR+ (Farina, Kroer & Sandholm 2021) and PDCFR+ (Xu et al.
   2024) play RM of the regrets plus a prediction, the last instantaneous regret, PDCFR+ and DCFR+ discounting the
   regrets by ``(t-1)^alpha / ((t-1)^alpha + 1)`` (DCFR+: ``+ 1.5``, as the authors' code) before clipping them; the
   average strategy is ``S / sum S``.

The game is a :class:`TreeGame`: the tree walked once into flat arrays (see ``tree.py``), so the
kernel is a pair of loops over arrays, and a policy is a dense ``[infoset, action]`` array.

>>> from rmcore import CFRSolver, KUHN
>>> solver = CFRSolver(KUHN, "cfr+")
>>> solver.run(1000)
>>> m = solver.metrics()
>>> round(m.game_value, 3), m.exploitability < 1e-3
(-0.056, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import _runtime, config
from .._deprecated import getattr_for, warn
from .._guard import exclusive
from ..kernels import tree as kernels
from ..records import History, Metrics, Policy
from ..solver import Solver
from ..validation import choice, named_parts, seed_words, whole_number
from . import poker
from .game import (
    TreeGame,
    as_policy_array,
    check_tree_game,
    opponent_rows,
    player_index,
    policy_width,
    uniform_policy,
)

__all__ = ["CFRSolver", "CFRVariant", "CFRTrace", "TreeGame", "CFR_ALGORITHMS", "CFR_UPDATES", "nash_conv"]

#: The catalogues: each choice's name and what it does (the UI and the CLI read their options here).
CFR_ALGORITHMS = {
    "cfr": "Vanilla CFR: regret matching at every information set, uniform averaging.",
    "cfr+": "CFR+ (Tammelin 2014): regrets clipped at zero, averages weighted by t.",
    "linear": "Linear CFR (Brown & Sandholm 2019): regrets and averages weighted by t.",
    "discounted": "Discounted CFR (Brown & Sandholm 2019): α = 1.5, β = 0, γ = 2 unless given.",
    "chance-sampling": "Monte Carlo CFR: one deal per iteration, drawn by its probability (seeded).",
    "pcfr+": "Predictive CFR+ (Farina, Kroer & Sandholm 2021): RM+ on regrets plus the last ones, averages by t².",
    "external-sampling": "External-sampling MCCFR (Lanctot et al. 2009): every own action, sampled opponent, chance.",
    "outcome-sampling": "Outcome-sampling MCCFR (Lanctot et al. 2009): one sampled history, exploration ε = 0.6.",
    "mmd": "Magnetic mirror descent (Sokota et al. 2023): dilated entropy, temperature α; the last iterate converges.",
    "pdcfr+": (
        "Predictive discounted CFR+ (Xu et al. 2024): regrets discounted by (t-1)ᵅ / ((t-1)ᵅ + 1) and clipped, "
        "predictive RM+ on them, averages by tᵞ; α = 2.3, γ = 5 unless given."
    ),
    "dcfr+": "DCFR+ (Xu et al. 2024): regrets discounted and clipped, RM on them, averages by tᵞ; α = 1.5, γ = 4.",
}
CFR_UPDATES = {
    "alternating": "Player 1 then player 2, as OpenSpiel does.",
    "simultaneous": "Both players at once, as in Zinkevich et al. (2007).",
}
_VARIANT_CODES = {
    "cfr": kernels.VANILLA_CFR,
    "cfr+": kernels.CFR_PLUS,
    "linear": kernels.LINEAR_CFR,
    "discounted": kernels.DISCOUNTED_CFR,
    "chance-sampling": kernels.CHANCE_SAMPLING,
    "pcfr+": kernels.PREDICTIVE_CFR_PLUS,
    "external-sampling": kernels.EXTERNAL_SAMPLING,
    "outcome-sampling": kernels.OUTCOME_SAMPLING,
    "mmd": kernels.MAGNETIC_MIRROR_DESCENT,
    "pdcfr+": kernels.PREDICTIVE_DISCOUNTED_CFR_PLUS,
    "dcfr+": kernels.DISCOUNTED_CFR_PLUS,
}
#: The variants that sample with the seed: a race runs them once per seed (median and band).
SAMPLED_VARIANTS = ("chance-sampling", "external-sampling", "outcome-sampling")
#: Monte Carlo CFR walks sampled parts of the tree, always alternating as OpenSpiel does.
MONTE_CARLO_VARIANTS = ("external-sampling", "outcome-sampling")
#: The update order of each variant that has only one (the others default to alternating and take either): Monte
#: Carlo CFR alternates, as OpenSpiel's solvers do; MMD moves both players at once from the same profile, as OpenSpiel's
#: ``MMDDilatedEnt.update_sequences`` does.
ONLY_UPDATES = {"external-sampling": "alternating", "outcome-sampling": "alternating", "mmd": "simultaneous"}
#: The discounting variants' parameters and their defaults: discounted CFR's (Brown & Sandholm 2019's recommended
#: DCFR_{1.5, 0, 2}), PDCFR+'s and DCFR+'s (Xu, Li, Liu, Fu, Fu, Xing & Cheng 2024, their code's defaults).
VARIANT_DISCOUNTS = {
    "discounted": {"alpha": 1.5, "beta": 0.0, "gamma": 2.0},
    "pdcfr+": {"alpha": 2.3, "gamma": 5.0},
    "dcfr+": {"alpha": 1.5, "gamma": 4.0},
}
#: Discounted CFR's parameters and their defaults.
DISCOUNT_DEFAULTS = VARIANT_DISCOUNTS["discounted"]
#: Each parameter lies in ``[-DISCOUNT_LIMIT, DISCOUNT_LIMIT]``: then t^x stays finite (t < 2^63 gives at most 1e190)
#: and so do the strategy sums (sum_t t^gamma < T^11), while every value in the paper (-inf excepted) is allowed.
DISCOUNT_LIMIT = 10.0
#: MMD's temperature when none is given (OpenSpiel's has none; 0.05 is the example of issue 29): on Kuhn the last
#: iterate settles within a few hundred iterations, at the alpha-QRE, whose exploitability is 0.046 (alpha = 0.01:
#: about 0.01, after some 3,000 iterations).
MMD_DEFAULT_ALPHA = 0.05
#: MMD's temperature and step size lie in ``(0, MMD_LIMIT]``: a temperature far above the payoffs' scale only makes the
#: regularised equilibrium uniform, and eta * alpha stays far from overflowing in ``1 + eta * alpha``.
MMD_LIMIT = 1e6


def _positive_number(name: str, value) -> float:
    """``value`` as a float in ``(0, MMD_LIMIT]``, else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number; got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or not 0.0 < value <= MMD_LIMIT:
        raise ValueError(f"{name} must be a finite number above 0 and at most {MMD_LIMIT:g}; got {value}")
    return value


def mmd_parameters(variant: str, alpha=None, eta=None) -> dict:
    """MMD's ``{"alpha", "eta"}``: alpha a float (default ``MMD_DEFAULT_ALPHA``), the step size eta a float or ``None``
    (then the solver takes OpenSpiel's default, ``alpha / max |A|^2`` with A the game's sequence-form payoff matrix);
    ``{}`` for any other variant. (The step size is ``eta`` in both families, as a matrix rule's.)

    Raises ``ValueError`` for a value not in ``(0, 1e6]``, or a step size given to another variant.

    >>> mmd_parameters("mmd")
    {'alpha': 0.05, 'eta': None}
    """
    if variant != "mmd":
        if eta is not None:
            raise ValueError(f"eta applies only to the 'mmd' variant (its step size), not {variant!r}")
        return {}
    return {
        "alpha": _positive_number("alpha", MMD_DEFAULT_ALPHA if alpha is None else alpha),
        "eta": None if eta is None else _positive_number("eta", eta),
    }


def variant_parameters(variant: str, alpha=None, beta=None, gamma=None, eta=None) -> dict:
    """The variant's parameters, validated and with defaults filled in: discounted CFR's ``alpha, beta, gamma``,
    PDCFR+'s and DCFR+'s ``alpha, gamma`` (:func:`discount_parameters`), MMD's ``alpha, eta``
    (:func:`mmd_parameters`), ``{}`` for the others (which refuse any).

    >>> variant_parameters("mmd", alpha=0.1)
    {'alpha': 0.1, 'eta': None}
    """
    if variant == "mmd":
        named = [name for name, value in (("beta", beta), ("gamma", gamma)) if value is not None]
        if named:
            raise ValueError(f"{', '.join(named)} {_takers(named)}, not 'mmd'")
        return mmd_parameters(variant, alpha, eta)
    mmd_parameters(variant, eta=eta)  # refuses a step size
    return discount_parameters(variant, alpha, beta, gamma)


def _takers(names: list[str]) -> str:
    """Which variants take the parameters ``names``, in words (for a refusal)."""
    takers = [variant for variant, defaults in VARIANT_DISCOUNTS.items() if all(name in defaults for name in names)]
    listed = ", ".join(repr(name) for name in takers)
    return f"applies only to the {listed} variant{'s' if len(takers) > 1 else ''}"


def discount_parameters(variant: str, alpha=None, beta=None, gamma=None) -> dict:
    """A discounting variant's parameters as floats, defaults filled in: discounted CFR's ``{"alpha", "beta",
    "gamma"}``, PDCFR+'s and DCFR+'s ``{"alpha", "gamma"}`` (``VARIANT_DISCOUNTS``); ``{}`` for any other variant.

    Raises ``ValueError`` for a parameter that is not a finite number in ``[-10, 10]``, or given to a variant that
    does not take it.

    >>> discount_parameters("discounted", alpha=1)
    {'alpha': 1.0, 'beta': 0.0, 'gamma': 2.0}
    >>> discount_parameters("pdcfr+", gamma=4)
    {'alpha': 2.3, 'gamma': 4.0}
    """
    given = {"alpha": alpha, "beta": beta, "gamma": gamma}
    defaults = VARIANT_DISCOUNTS.get(variant, {})
    named = [name for name, value in given.items() if value is not None and name not in defaults]
    if named:
        also = " (alpha also to 'mmd', as its temperature)" if "alpha" in named else ""
        raise ValueError(f"{', '.join(named)} {_takers(named)}{also}, not {variant!r}")
    out = {}
    for name, default in defaults.items():
        value = given[name]
        if value is None:
            value = default
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{name} must be a number; got {type(value).__name__}")
        value = float(value)
        if not np.isfinite(value) or abs(value) > DISCOUNT_LIMIT:
            raise ValueError(
                f"{name} must be a finite number between {-DISCOUNT_LIMIT:g} and {DISCOUNT_LIMIT:g}; got {value}"
            )
        out[name] = value
    return out


@dataclass(frozen=True)
class CFRVariant:
    """A CFR variant: the algorithm and its update order (by default alternating, or the algorithm's only order:
    ``ONLY_UPDATES``).

    >>> CFRVariant.parse("cfr+/simultaneous").label
    'cfr+ · simultaneous'
    >>> CFRVariant("mmd").updates
    'simultaneous'
    """

    algorithm: str = "cfr"
    updates: str | None = None
    #: A discounting variant's parameters in the order of ``VARIANT_DISCOUNTS[name]``: discounted CFR's ``(alpha,
    #: beta, gamma)``, PDCFR+'s and DCFR+'s ``(alpha, gamma)`` (``None``: the defaults); others take none.
    discount: tuple[float, ...] | None = None
    #: MMD's ``(alpha, eta)``, the step size eta ``None`` for OpenSpiel's default (``None``: alpha =
    #: ``MMD_DEFAULT_ALPHA`` and that step size); others take none.
    mmd: tuple[float, float | None] | None = None

    def __post_init__(self):
        choice(self.algorithm, CFR_ALGORITHMS, "algorithm")
        if self.updates is None:
            object.__setattr__(self, "updates", ONLY_UPDATES.get(self.algorithm, "alternating"))
        choice(self.updates, CFR_UPDATES, "updates")
        only = ONLY_UPDATES.get(self.algorithm)
        if only is not None and self.updates != only:
            how = (
                "alternately (one traversal for player 1, then one for player 2, as in OpenSpiel)"
                if only == "alternating"
                else "both players at once from the same profile (as OpenSpiel's MMDDilatedEnt)"
            )
            raise ValueError(f"{self.algorithm} updates {how}; it has no {self.updates!r} form")
        if self.discount is not None:
            names = tuple(VARIANT_DISCOUNTS.get(self.algorithm, DISCOUNT_DEFAULTS))
            if isinstance(self.discount, str) or len(self.discount) != len(names):
                raise ValueError(f"discount is ({', '.join(names)}); got {self.discount!r}")
            parameters = discount_parameters(self.algorithm, **dict(zip(names, self.discount)))
            # The defaults are stored as None, so that a variant equals itself however its defaults were spelled.
            plain = parameters == VARIANT_DISCOUNTS.get(self.algorithm, {})
            object.__setattr__(self, "discount", None if plain else tuple(parameters.values()))
        if self.mmd is not None:
            if self.algorithm != "mmd":
                raise ValueError(f"mmd (alpha, eta) applies only to the 'mmd' variant, not {self.algorithm!r}")
            if len(self.mmd) != 2:
                raise ValueError(f"mmd is (alpha, eta); got {self.mmd!r}")
            alpha, eta = mmd_parameters(self.algorithm, *self.mmd).values()
            plain = alpha == MMD_DEFAULT_ALPHA and eta is None
            object.__setattr__(self, "mmd", None if plain else (alpha, eta))

    @property
    def parameters(self) -> dict:
        """Discounted CFR's ``{"alpha", "beta", "gamma"}``, PDCFR+'s and DCFR+'s ``{"alpha", "gamma"}`` and MMD's
        ``{"alpha", "eta"}`` (defaults filled in, MMD's step size ``None`` for OpenSpiel's default); ``{}`` for the
        other variants."""
        if self.algorithm == "mmd":
            return mmd_parameters(self.algorithm, *(self.mmd or (None, None)))
        names = VARIANT_DISCOUNTS.get(self.algorithm, {})
        return discount_parameters(self.algorithm, **dict(zip(names, self.discount or ())))

    @classmethod
    def parse(cls, text: str) -> CFRVariant:
        """From ``"algorithm"`` or ``"algorithm/updates"`` (either order), e.g. ``"discounted/simultaneous"``; a
        discounting variant's parameters as parts ``alpha=X``, ``beta=X``, ``gamma=X`` in any place (:attr:`text`
        writes them).

        >>> CFRVariant.parse("pdcfr+/gamma=4").label
        'pdcfr+(α=2.3, γ=4) · alternating'
        """
        parts = text.split("/") if isinstance(text, str) else []
        given: dict[str, str] = {}
        for part in parts:
            key, equals, value = part.strip().partition("=")
            if not equals:
                continue
            if key not in ("alpha", "beta", "gamma"):
                raise ValueError(f"{text!r}: {part.strip()!r} is no parameter of a CFR variant (alpha=, beta=, gamma=)")
            if key in given:
                raise ValueError(f"{text!r} names {key} twice")
            try:
                given[key] = float(value)
            except ValueError:
                raise ValueError(f"{text!r}: {key} must be a number, got {value!r}") from None
        names = "/".join(part for part in parts if "=" not in part) if parts else text
        catalogues = {"algorithm": CFR_ALGORITHMS, "updates": CFR_UPDATES}
        fields = named_parts(names, catalogues, "a CFR variant", "cfr+/simultaneous")
        if not given:
            return cls(**fields)
        parameters = discount_parameters(fields.get("algorithm", "cfr"), **given)
        return cls(**fields, discount=tuple(parameters.values()))

    @property
    def text(self) -> str:
        """The variant as :meth:`parse` reads it: ``"pdcfr+/alternating/alpha=2/gamma=4"`` (parameters only where
        they are not the defaults)."""
        parameters = "".join(f"/{name}={value!r}" for name, value in self.parameters.items()) if self.discount else ""
        return f"{self.algorithm}/{self.updates}{parameters}"

    @property
    def label(self) -> str:
        """``"algorithm · updates"``; discounted CFR and MMD with parameters other than the defaults name them,
        ``"discounted(α=1, β=1, γ=1) · alternating"``, ``"mmd(α=0.1) · simultaneous"``."""
        plain = self.discount is None and self.mmd is None
        return f"{self.algorithm} · {self.updates}" if plain else self.full_label

    @property
    def full_label(self) -> str:
        """:attr:`label`, with discounted CFR's parameters named even when they are the defaults."""
        parameters = self.parameters
        if not parameters:
            return f"{self.algorithm} · {self.updates}"
        if self.algorithm == "mmd":
            eta = "" if parameters["eta"] is None else f", η={parameters['eta']:g}"
            return f"{self.algorithm}(α={parameters['alpha']:g}{eta}) · {self.updates}"
        symbols = {"alpha": "α", "beta": "β", "gamma": "γ"}
        shown = ", ".join(f"{symbols[name]}={value:g}" for name, value in parameters.items())
        return f"{self.algorithm}({shown}) · {self.updates}"

    @property
    def name(self) -> str:
        """Deprecated: :attr:`algorithm`."""
        warn("CFRVariant.name is deprecated: use .algorithm (the word both families use)")
        return self.algorithm

    @property
    def is_sampled(self) -> bool:
        """Whether runs differ by seed (chance sampling and Monte Carlo CFR): a race draws them over seeds."""
        return self.algorithm in SAMPLED_VARIANTS

    def solver(self, game: TreeGame, *, start=None, **options) -> CFRSolver:
        """A :class:`CFRSolver` of this variant on ``game``; ``options`` as the solver takes them (``opponent``,
        ``seed``, ``max_points``, ``history_share``). A start is for matrix games (``None`` here)."""
        if start is not None:
            raise ValueError("a start is for matrix games")
        return CFRSolver(game, self.algorithm, self.updates, **options, **self.parameters)


class CFRTrace(NamedTuple):
    """What one CFR iteration computed at one information set (for a step-by-step walkthrough).

    ``own_reach`` is sum_h pi_i(h); ``opponent_reach`` is sum_h pi_-i(h) including chance;
    ``action_values`` are the counterfactual values ``sum_h pi_-i(h) v_i(h a)``; ``strategy_value`` is
    ``sum_h pi_-i(h) v_i(h)``; ``regret_increment = action_values - strategy_value``.
    """

    infoset: str
    player: int  # who acts there: 1 or 2
    strategy: tuple[float, ...]
    own_reach: float
    opponent_reach: float
    action_values: tuple[float, ...]
    strategy_value: float
    regret_increment: tuple[float, ...]
    cumulative_regrets: tuple[float, ...]
    new_strategy: tuple[float, ...]
    average_strategy: tuple[float, ...]


def new_state(game: TreeGame, variant: str | None = None, policy=None, rng=None, fixed_player=None) -> kernels.CFRState:
    """A :class:`~rmcore.kernels.tree.CFRState` for ``game``: a solver's (``variant``; ``policy`` the first one, with a
    fixed player's rows fixed) or, without ``variant``, room for a best response's or a reach's work alone. Every
    field has the same type either way, so that one compiled signature serves both."""
    tree = game.tree
    nodes, infosets, width = tree.player.shape[0], len(game.infosets), policy_width(game)
    blocks = tree.block_kind.shape[0]
    players, one_value = game.players, game.is_two_player_zero_sum
    zeros = np.zeros
    solving = variant is not None
    shape = (infosets, width) if solving else (0, width)
    start = uniform_policy(game) if policy is None else policy
    frames = int(tree.depth.max()) + 1 if variant in MONTE_CARLO_VARIANTS else 0  # (the longest path's nodes)
    strategy_sums = zeros(shape)
    if solving and fixed_player is not None:  # a fixed opponent's strategy sums are its policy: its average is it
        strategy_sums = np.where((tree.infoset_player == fixed_player)[:, None], start, 0.0)
    return kernels.CFRState(
        regrets=zeros(shape),
        strategy_sums=strategy_sums,
        policy=np.array(start) if solving else zeros(shape),
        last_regrets=zeros(shape),
        rng=np.zeros(4, dtype=np.uint64) if rng is None else rng,
        touched=zeros(1, dtype=np.int64),
        trace=zeros(1, dtype=np.int64),
        reach=zeros((players + 1, nodes)),
        value=tree.payoff.copy() if one_value else zeros(0),  # (a terminal's value is its payoff, once and for all)
        responses=np.vstack((tree.payoff, -tree.payoff, tree.payoff) if one_value else (tree.payoffs, tree.payoffs)),
        scores=zeros((infosets, width)),
        average=zeros((infosets, width)),
        first=zeros(blocks, dtype=np.int64),
        last=zeros(blocks, dtype=np.int64),
        reached=np.full(blocks, -1, dtype=np.int64),
        passes=zeros(1, dtype=np.int64),
        regret_increment=zeros(shape),
        action_values=zeros(shape),
        strategy_value=zeros(shape[0]),
        own_reach=zeros(shape[0]),
        opponent_reach=zeros(shape[0]),
        stack_node=zeros(frames, dtype=np.int64),
        stack_next=zeros(frames, dtype=np.int64),
        stack_policy=zeros((frames, width)),
        stack_values=zeros((frames, width)),
        stack_reach=zeros((frames, 3)),
        **_mmd_arrays(game, variant if solving else None),
        values=zeros((0, 0)) if one_value else tree.payoffs.copy(),
        player_values=zeros((2, players)),
    )


def reach_of(game: TreeGame, policy: np.ndarray) -> np.ndarray:
    """Every node's reach ``[n + 1, node]`` (player 1, ..., player n, chance) under a policy array."""
    state = new_state(game)
    _runtime.call("tree", kernels.reach_of, tuple(game.tree), policy, tuple(state), work=game.tree.player.shape[0])
    return state.reach


def best_responses(game: TreeGame, policy: np.ndarray) -> tuple[float, float, float, np.ndarray, np.ndarray]:
    """``(br_value_1, br_value_2, game_value, scores, reach)`` of a policy array: both best responses' values (each in
    its player's own payoff), player 1's expected value, each player's counterfactual action values at its
    information sets (the best response played below), and the policy's reach ``[n + 1, node]`` of the blocks some
    player reaches (``rmcore/kernels/tree.py``)."""
    state = new_state(game)
    first, second, expected = _runtime.call(
        "tree", kernels.best_responses, tuple(game.tree), policy, tuple(state), work=game.tree.player.shape[0]
    )
    return float(first), float(second), float(expected), state.scores, state.reach


def _mmd_arrays(game: TreeGame, variant: str | None) -> dict:
    """MMD's arrays (``CFRState.mmd_*``; empty for the other variants).

    A sequence (I, a) is numbered ``I * width + a`` (a cell of a policy array), the empty sequence -1. Each node's
    sequence for each player is the last action that player took on the way there; an information set's parent
    sequence is that of any of its nodes (perfect recall); and the order lists information sets by their first node in
    reverse, so children come before their parent sequences (nodes are laid out parents first, so an information
    set's first node precedes those of all that follow one of its actions).
    """
    tree = game.tree
    infosets, width = len(game.infosets), policy_width(game)
    nodes = tree.player.shape[0] if variant == "mmd" else 0
    out = {
        "mmd_logits": np.zeros((infosets if nodes else 0, width)),
        "mmd_sequence": np.full((nodes, 2), -1, dtype=np.int64),
        "mmd_parent": np.full(infosets if nodes else 0, -1, dtype=np.int64),
        "mmd_order": np.arange(infosets if nodes else 0, dtype=np.int64),
    }
    if not nodes:
        return out
    sequence = out["mmd_sequence"]
    # Each node's sequences, a tree level more per vectorised pass (as many passes as the depth).
    inner = np.flatnonzero(tree.parent >= 0)
    parent, slot = tree.parent[inner], tree.parent_slot[inner]
    actor = tree.player[parent]
    own = np.where(actor >= 0, tree.infoset[parent] * width + slot, -1)
    while True:
        deeper = sequence.copy()
        for p in range(2):
            deeper[inner, p] = np.where(actor == p, own, sequence[parent, p])
        if np.array_equal(deeper, sequence):
            break
        sequence[:] = deeper
    decisions = np.flatnonzero(tree.player >= 0)
    infoset_of = tree.infoset[decisions]
    first = np.full(infosets, nodes, dtype=np.int64)
    np.minimum.at(first, infoset_of, decisions)
    out["mmd_parent"][:] = sequence[first, tree.infoset_player]
    out["mmd_order"][:] = np.argsort(first, kind="stable")[::-1]
    return out


def _payoff_scale(game: TreeGame) -> float:
    """The largest ``|A[s, t]|`` of the sequence-form payoff matrix (chance's reach times player 1's payoff, summed
    over the leaves of each pair of sequences): OpenSpiel's default MMD step size is ``alpha / scale^2``."""
    tree = game.tree
    sequences = _mmd_arrays(game, "mmd")["mmd_sequence"]
    reach = reach_of(game, uniform_policy(game))
    leaves = np.flatnonzero(tree.player == kernels.TERMINAL)
    infosets, width = len(game.infosets), policy_width(game)
    pairs = (sequences[leaves, 0] + 1) * (infosets * width + 1) + sequences[leaves, 1] + 1
    _, cell = np.unique(pairs, return_inverse=True)
    entries = np.bincount(cell.ravel(), weights=reach[2, leaves] * tree.payoff[leaves])
    return float(np.abs(entries).max()) if entries.size else 0.0


def player_values(game: TreeGame, policy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(best_response_values, expected_values)`` of a policy array, each ``[n]``: what each player earns by its best
    response to the others' parts of ``policy``, and what it earns by its own part (its own payoff)."""
    state = best_response_state(game, policy)
    return state.player_values[0].copy(), state.player_values[1].copy()


def best_response_state(game: TreeGame, policy: np.ndarray) -> kernels.CFRState:
    """The state after every player's best response to a policy array: ``player_values`` (each player's best
    response's value and expected value), ``scores`` (each player's counterfactual action values at its information
    sets, the best response played below) and ``reach`` (``[n + 1, node]``, of the blocks some player reaches)."""
    state = new_state(game)
    _runtime.call(
        "tree", kernels.best_responses, tuple(game.tree), policy, tuple(state), work=game.tree.player.shape[0]
    )
    return state


def nash_conv(game: TreeGame, policy) -> float:
    """NashConv of ``policy`` in ``game``: what the players together gain by best-responding, ``sum_i (BR_i -
    u_i(policy))``, 0 exactly at a Nash equilibrium (for either family: :func:`rmcore.nash_conv`)."""
    check_tree_game(game)
    policy = as_policy_array(game, policy)
    if game.is_two_player_zero_sum:
        first, second, *_ = best_responses(game, policy)
        return first + second  # (as a history row sums them: the same number)
    best, expected = player_values(game, policy)
    return float(sum(float(b) - float(e) for b, e in zip(best, expected)))  # (in a row's order: the same number)


class CFRSolver(Solver):
    """CFR and its variants on a :class:`TreeGame`, run incrementally.

    Parameters
    ----------
    game : TreeGame
        For example :data:`rmcore.KUHN`.
    algorithm : {"cfr", "cfr+", "linear", "discounted", "chance-sampling", "pcfr+", "external-sampling", \
"outcome-sampling", "mmd", "pdcfr+", "dcfr+"}
        Vanilla CFR (regret matching, uniform averaging); CFR+ (RM+, linear averaging); linear CFR
        (regrets and averages weighted by t); discounted CFR (``alpha``, ``beta``, ``gamma`` below); Monte
        Carlo CFR sampling one deal per iteration by its probability (reproducible from ``seed``); predictive CFR+
        (Farina, Kroer & Sandholm 2021): ``R_t = [R_{t-1} + r_t]^+`` and ``sigma_{t+1} = RM([R_t + r_t]^+)``, the last
        instantaneous regret r_t serving as the prediction of the next, with averages weighted by t^2.
        External- and outcome-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich & Bowling 2009), as
        OpenSpiel's Python ``ExternalSamplingSolver`` and ``OutcomeSamplingSolver`` define them: per iteration one
        sampled walk for player 1, then one for player 2. External sampling walks every action of the traverser i
        and one sampled action of the opponent and of chance, adding ``R(I, a) += v(I a) - v(I)`` (sampled values,
        no reach weights: the sampling weights them) at i's nodes and ``S(I, a) += sigma(I, a)`` at the opponent's
        (OpenSpiel's default "simple" averaging). Outcome sampling samples one history, i's actions from
        ``0.6 / n + 0.4 sigma``, and adds ``R(I, a) += pi_-i / q(h) (u(I a) - u(I))`` with importance-weighted
        estimates u and ``S(I, a) += pi_i(h) sigma(I, a) / q(h)`` at i's own nodes (stochastically weighted
        averaging). Both only alternate (``updates="simultaneous"`` is refused).
    updates : {"alternating", "simultaneous"}, optional
        Player 1 then player 2 (OpenSpiel's order, the default), or both at once (Zinkevich et al.); by default the
        variant's only order where it has one (``ONLY_UPDATES``: MMD is simultaneous), else alternating.
    seed : int, optional
        Seed for the sampling variants (chance sampling, Monte Carlo CFR); ``None`` draws fresh entropy (see ``seed``
        afterwards).
    max_points : int, optional
        Most rows ``history()`` keeps; by default ``config.DEFAULT_MAX_POINTS``, or fewer where that many rows would
        take more than ``config.DEFAULT_HISTORY_BYTES`` (a row holds the policies).
    history_share : float or None
        The share of a run's time its history's rows may take, by default ``config.HISTORY_SHARE`` (a tenth): a row
        costs two best responses to each of two policies, more than an iteration, so the checkpoints are spaced
        (:attr:`checkpoint_stride`). ``None`` keeps every checkpoint of the grid however much it costs.
    opponent : dict, optional
        A fixed opponent: a strategy for every information set of one player (``rmcore.fixed_strategy``
        builds one). Then only the other player, the learner, runs CFR; its average converges to a best
        response (``rmcore.best_response``), and ``metrics().br_gains`` of the learner falls to 0.
    alpha, beta, gamma : float, optional
        Discounted CFR (Brown & Sandholm 2019), each a finite number in [-10, 10], by default 1.5, 0 and 2:
        after iteration t the cumulative regrets R >= 0 are multiplied by ``t^alpha / (t^alpha + 1)``, those
        R < 0 by ``t^beta / (t^beta + 1)``, and iteration t's strategy enters the average with weight
        ``t^gamma``. (1, 1, 1) is linear CFR. PDCFR+ and DCFR+ take ``alpha`` and ``gamma`` (by default 2.3 and 5,
        1.5 and 4; see the Notes). Any other variant refuses them (``ValueError``), except that ``alpha`` is also
        MMD's temperature.
    eta : float, optional
        MMD only: its step size, in (0, 1e6]; by default OpenSpiel's, ``alpha / max |A|^2`` with ``A`` the
        sequence-form payoff matrix (chance's probability times the payoff, summed over the leaves of each pair of
        sequences). The step size's name in both families (:class:`~rmcore.MatrixSolver`'s ``eta``).
    stepsize : float, optional
        Deprecated: ``eta`` (warns).

    Notes
    -----
    PDCFR+ and DCFR+ (Xu, Li, Liu, Fu, Fu, Xing & Cheng 2024, "Minimizing weighted counterfactual regret with
    optimistic online mirror descent", IJCAI) follow the authors' code (rpSebastian/PDCFRPlus, ``pdcfrplus/cfr/``)
    in its order. With r_t the instantaneous counterfactual regret of iteration t (t = 1, 2, ...) at an information
    set of the player being updated,

    - PDCFR+: ``R_t = [R_{t-1} d(t) + r_t]^+`` with ``d(t) = (t-1)^alpha / ((t-1)^alpha + 1)``, and the next strategy
      ``sigma_{t+1} = RM([R_t d(t+1) + r_t]^+)``: predictive RM+ on the discounted regrets, the last instantaneous
      regret as the prediction;
    - DCFR+: ``R_t = [R_{t-1} d(t) + r_t]^+`` with ``d(t) = (t-1)^alpha / ((t-1)^alpha + 1.5)``, the constant of the
      published code (``dcfr_plus.py``; PDCFR+'s and discounted CFR's positive discount have 1), and
      ``sigma_{t+1} = RM(R_t)``;
    - both: the average strategy ``S_t = S_{t-1} ((t-1)/t)^gamma + pi_i sigma_t`` (``pi_i`` the player's own reach),
      which is the average with iteration t weighted by ``t^gamma``: rmcore adds ``t^gamma pi_i sigma_t`` to its
      sums, the same average to rounding.

    With alternating updates player 1 is updated first, as in the authors' code; ``tests/test_frontier_cfr.py`` holds
    both to a slow reference written in that order, to 1e-6 relative in exploitability at every iteration (Kuhn
    poker, Leduc hold'em).

    Magnetic mirror descent (``"mmd"``, Sokota et al. 2023) is no regret method: each iteration moves both players at
    once by a mirror-descent step with the dilated entropy, towards the uniform magnet with temperature ``alpha``
    (by default ``MMD_DEFAULT_ALPHA``) and step size ``eta``, as OpenSpiel's ``MMDDilatedEnt(game, alpha, stepsize)``
    (``rmcore.kernels.tree.run_mmd``). Its current policy (``current_policy()``, ``nash_conv_current`` in the
    history) converges to the alpha-QRE; the average policy is the uniform average of the iterates' sequence forms, as
    CFR's. Its only update order is ``"simultaneous"`` (the default when ``updates`` is not given).

    ``run(n)`` may be called any number of times: any split of the same total gives identical
    results. With the defaults, ``cfr`` and ``cfr+`` are OpenSpiel's CFRSolver and CFRPlusSolver bit for bit
    (Kuhn and Leduc poker: ``tests/test_openspiel.py``), and ``discounted`` with any parameters is OpenSpiel's
    Python ``DCFRSolver(game, alpha, beta, gamma)`` (regrets and current policy bit for bit; the average to
    rounding, since the strategy weight is multiplied in another order: ``tests/test_cfr_variants.py``).
    """

    family = "tree"

    def __init__(
        self,
        game: TreeGame,
        algorithm: str = "cfr",
        updates: str | None = None,
        seed: int | None = None,
        max_points: int | None = None,
        opponent: dict | None = None,
        alpha: float | None = None,
        beta: float | None = None,
        gamma: float | None = None,
        eta: float | None = None,
        history_share: float | None = config.HISTORY_SHARE,
        variant: str | None = None,
        stepsize: float | None = None,
    ):
        if variant is not None:
            warn("CFRSolver(variant=...) is deprecated: use algorithm=... (the word both families use)")
            algorithm = variant
        if stepsize is not None:
            warn("CFRSolver(stepsize=...) is deprecated: use eta=... (the step size's name in both families)")
            if eta is not None:
                raise ValueError("give the step size once: eta (stepsize is its deprecated name)")
            eta = stepsize
        check_tree_game(game)
        self.game = game
        variant = algorithm
        parameters = variant_parameters(variant, alpha, beta, gamma, eta)
        if variant == "mmd" and not game.is_two_player_zero_sum:
            raise ValueError(
                f"magnetic mirror descent runs on two-player zero-sum games (its step is a saddle point's), and "
                f"{game.name} has {game.players} players{'' if game.is_zero_sum else ' and is general-sum'}"
            )
        if opponent is not None and game.players != 2:
            raise ValueError(
                f"a fixed opponent leaves one learner in a two-player game; {game.name} has {game.players} players"
            )
        values = tuple(parameters.values()) if parameters else None
        self.variant = CFRVariant(variant, updates, *((None, values) if variant == "mmd" else (values,)))
        fixed_player, start = (None, uniform_policy(game)) if opponent is None else opponent_rows(game, opponent)
        #: The learning player (1 or 2) against a fixed opponent; ``None`` in self-play.
        self.learner = None if fixed_player is None else 2 - fixed_player
        self.opponent = (
            None if opponent is None else {name: tuple(float(p) for p in row) for name, row in opponent.items()}
        )
        learner = kernels.BOTH_LEARN if self.learner is None else player_index(self.learner, "learner")
        #: MMD's step size eta (``None`` for the other variants).
        self.eta = None
        flag_parameters = parameters or DISCOUNT_DEFAULTS
        if variant == "mmd":
            self.eta = parameters["eta"]
            if self.eta is None:  # OpenSpiel's default (a game whose payoffs are all 0 moves at any step: alpha)
                scale = _payoff_scale(game)
                self.eta = parameters["alpha"] / scale**2 if scale > 0.0 else parameters["alpha"]
            # The temperature travels in CFRFlags.alpha (discounted CFR's alpha, which MMD has no use for).
            flag_parameters = dict(DISCOUNT_DEFAULTS, alpha=parameters["alpha"], eta=self.eta)
        self._flags = kernels.CFRFlags(
            _VARIANT_CODES[variant], self.variant.updates == "alternating", learner, **flag_parameters
        )
        rng, self.seed = seed_words(seed)
        self._state = new_state(game, variant, start, rng, fixed_player)
        # The kernel's inputs as the plain tuples it takes, made once: the arrays are changed in place, never replaced.
        self._inputs = (tuple(game.tree), tuple(self._state), tuple(self._flags))
        self._start(max_points, history_share)

    @property
    def algorithm(self) -> str:
        """The algorithm's name (``self.variant.algorithm``), as on :class:`~rmcore.MatrixSolver`."""
        return self.variant.algorithm

    @property
    def stepsize(self) -> float | None:
        """Deprecated: :attr:`eta`."""
        warn("CFRSolver.stepsize is deprecated: use .eta (the step size's name in both families)")
        return self.eta

    @property
    def nodes_touched(self) -> int:
        """Histories visited so far, over all iterations: the work measure that puts full passes and sampled walks on
        one axis. A full pass counts the histories of the blocks it reaches (both players' passes under alternating
        updates; blocks neither player reaches are skipped and not counted); Monte Carlo CFR counts every node its
        walks enter."""
        return int(self._state.touched[0])

    # -- the solver core's parts (rmcore/solver.py) ---------------------------------------------------

    def _iteration_work(self) -> int:
        """An iteration's work in node visits: a full pass's reach and regret sweeps, once per updating player (twice
        under alternating updates); a Monte Carlo walk's, about one deal's subtree (external sampling) or one path
        (outcome sampling) per player; MMD's, a reach sweep and a sweep over the leaves."""
        tree = self.game.tree
        nodes = tree.player.shape[0]
        name = self.variant.algorithm
        if name == "external-sampling":
            return max(self.game.players * nodes // tree.deal_root.shape[0], 1)
        if name == "outcome-sampling":
            return self.game.players * int(tree.depth.max() + 1)
        passes = self.game.players if self.variant.updates == "alternating" and self.learner is None else 1
        return 2 * passes * nodes

    def _row_operations(self) -> int:
        """A history row's operation count in node visits: for the average and for the current policy, a reach sweep
        and each player's best-response sweep (six sweeps of the nodes), and the row's three arrays over the
        information sets and their actions (the policies and the regrets). A count, not a time: it sizes what runs as
        plain Python while the kernels compile; the stride is priced by measuring
        (:func:`rmcore.solver.measured_row_cost`)."""
        return 6 * self.game.tree.player.shape[0] + 3 * len(self.game.infosets) * policy_width(self.game)

    def _cost_key(self) -> tuple:
        return ("tree", tuple(self._flags), self.game.tree.player.shape[0], self.row_bytes())

    def _empty_record(self, rows: int) -> kernels.CFRRecord:
        infosets, actions = len(self.game.infosets), policy_width(self.game)
        return kernels.empty_cfr_record(rows, infosets, actions, self.game.players)

    def _advance(self, first: int, last: int, points: np.ndarray, record) -> int:
        work = max(last - first + 1, 0) * self._iteration_work() + points.shape[0] * self._row_operations()
        arguments = (*self._inputs, first, last, points, tuple(record))
        return _runtime.call("tree", kernels.entry_for(self._flags.code), *arguments, work=work)

    # -- reading ------------------------------------------------------------------------------

    def _policy(self, probabilities: np.ndarray) -> Policy:
        return Policy(probabilities, self.game.infosets, self.game.actions)

    @exclusive
    def average_policy(self) -> Policy:
        """``S(I) / sum S(I)`` per information set (uniform where nothing was accumulated)."""
        sums = self._state.strategy_sums
        totals = sums.sum(axis=1, keepdims=True)
        legal = np.arange(sums.shape[1])[None, :] < self.game.tree.num_actions[:, None]
        uniform = legal / self.game.tree.num_actions[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            return self._policy(np.where(totals > 0.0, sums / totals, uniform))

    @exclusive
    def current_policy(self) -> Policy:
        """The strategy the next iteration plays: ``RM(R(I))`` per information set."""
        return self._policy(self._state.policy)

    @exclusive
    def cumulative_regrets(self) -> np.ndarray:
        """A copy of ``R[infoset, action]`` (rows in the order of ``game.infosets``)."""
        return self._state.regrets.copy()

    def metrics(self) -> Metrics:
        """Metrics now (see :class:`~rmcore.Metrics`): the last row of :meth:`history`."""
        return super().metrics()

    @exclusive
    def reach_probabilities(self, policy=None) -> np.ndarray:
        """How likely each information set is to be reached (chance and both players) under ``policy``.

        ``policy`` is any policy of this game (a :class:`Policy`, dict or array); by default the
        current one.
        """
        chosen = self._state.policy if policy is None else as_policy_array(self.game, policy)
        tree = self.game.tree
        reach = reach_of(self.game, chosen)
        totals = np.zeros(len(self.game.infosets))
        decisions = tree.player >= 0
        np.add.at(totals, tree.infoset[decisions], reach[:, decisions].prod(axis=0))
        return totals

    def history(self) -> History:
        """Checkpoints so far, plus the current iteration (at most ``max_points + 1`` rows).

        Metrics: :data:`rmcore.solver.METRIC_COLUMNS`, as on a matrix game: ``nash_conv`` of the average policy and
        ``nash_conv_current`` of the current one, ``br_gain_1`` and ``br_gain_2`` (each player's gain from a best
        response), ``game_value``, and ``nodes_touched`` (:attr:`nodes_touched` then, as floats: an x-axis for
        comparing sampled and full-pass variants by work); a matrix game's average regrets, bounds and CCE gap are
        NaN.
        """
        return super().history()

    def _labels(self):
        return self.game.infosets, self.game.actions

    def _family_columns(self, record: kernels.CFRRecord) -> dict:
        """The game tree's own metric: the nodes touched (as floats, an x-axis beside the iterations)."""
        return {"nodes_touched": record.nodes_touched.astype(np.float64)}

    @exclusive
    def trace_iteration(self) -> list[CFRTrace]:
        """Run one iteration and return, per information set, what it computed (reach, counterfactual
        values, regret increments, new cumulative regrets and strategies). In alternating updates each
        player's numbers come from that player's own half of the iteration."""
        before = self._state.policy.copy()
        self._state.trace[0] = 1
        try:
            self.run(1)
        finally:
            self._state.trace[0] = 0
        state, average = self._state, self.average_policy().probabilities
        width = [len(actions) for actions in self.game.actions]
        values = lambda row, k: tuple(float(v) for v in row[: width[k]])  # noqa: E731
        return [
            CFRTrace(
                infoset=name,
                player=int(self.game.tree.infoset_player[k]) + 1,
                strategy=values(before[k], k),
                own_reach=float(state.own_reach[k]),
                opponent_reach=float(state.opponent_reach[k]),
                action_values=values(state.action_values[k], k),
                strategy_value=float(state.strategy_value[k]),
                regret_increment=values(state.regret_increment[k], k),
                cumulative_regrets=values(state.regrets[k], k),
                new_strategy=values(state.policy[k], k),
                average_strategy=values(average[k], k),
            )
            for k, name in enumerate(self.game.infosets)
        ]

    def retrace(self, iteration: int) -> list[CFRTrace]:
        """The trace of iteration ``iteration`` of this setup, re-derived: a fresh solver with the same game,
        variant, updates and seed runs ``iteration - 1`` iterations, then traces one (:meth:`trace_iteration`).

        Runs are deterministic given the seed, so this is exactly what this solver computed (or will compute)
        at that iteration; this solver is left as it is.

        >>> from rmcore import KUHN
        >>> solver = CFRSolver(KUHN)
        >>> solver.run(9)
        >>> solver.trace_iteration() == solver.retrace(10)
        True
        """
        iteration = whole_number(iteration, "iteration", 1)
        replica = CFRSolver(
            self.game,
            self.variant.algorithm,
            self.variant.updates,
            self.seed,
            max_points=0,
            opponent=self.opponent,  # the same fixed player, if any
            **self.variant.parameters,
        )
        replica.run(iteration - 1)
        return replica.trace_iteration()

    def __repr__(self) -> str:
        return f"<CFRSolver {self.game.name} {self.variant.full_label} at iteration {self._iteration}>"


def _warm_up_solvers() -> list[CFRSolver]:
    """Small solvers whose kernel calls have the argument types of every solver's (the family's one signature each):
    one for each entry point (full passes, Monte Carlo walks, magnetic mirror descent)."""
    game = poker.kuhn_poker(3, 1.0)
    return [CFRSolver(game, name, max_points=4, history_share=None) for name in ("cfr", "external-sampling", "mmd")]


def _warm_up() -> None:
    """Run every tree kernel once on classic Kuhn poker (iterations and a checkpoint, a snapshot, the best responses and
    reach of a policy): loads them from numba's disk cache, or compiles them. ``python -m rmcore._compile tree`` runs
    this in a process of its own."""
    solvers = _warm_up_solvers()
    for solver in solvers:
        solver._advance(1, 2, np.array([2], dtype=np.int64), solver._empty_record(1))
    solver = solvers[0]
    best_responses(solver.game, solver._state.policy)
    reach_of(solver.game, solver._state.policy)


def _on_disk() -> bool:
    """Whether numba's disk cache holds every tree kernel for the solvers' argument types."""
    solvers = _warm_up_solvers()
    checkpoint, record = np.array([2], dtype=np.int64), tuple(solvers[0]._empty_record(1))
    calls = [
        (
            kernels.entry_for(solver._flags.code),
            (tuple(solver.game.tree), tuple(solver._state), tuple(solver._flags), 1, 2, checkpoint, record),
        )
        for solver in solvers
    ]
    game, policy = solvers[0].game, solvers[0]._state.policy
    tree = tuple(game.tree)
    calls += (
        (kernels.best_responses, (tree, policy, tuple(new_state(game)))),
        (kernels.reach_of, (tree, policy, tuple(new_state(game)))),
    )
    return all(_runtime.on_disk(kernel, arguments) for kernel, arguments in calls)


_runtime.register_warm_up("tree", _warm_up, _on_disk)


__getattr__ = getattr_for("rmcore.trees.cfr")
