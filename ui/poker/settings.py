"""The poker page's setup: its record (:class:`RunSettings`), the widgets that fill it in (game, opponent, variants,
seed), the live run it stands for, and each game's exact answer.

Every widget is bound to a query parameter of its own ``kuhn_*`` key, so a shared link or a loaded setup file fills the
record in again. ``kuhn`` is the page's id in those keys, in session state and in setup files (``page: "kuhn"``); links
already handed out carry it, so it stays ``kuhn`` for every game the page offers.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import streamlit as st

import rmcore

from .. import state
from ..live import LiveRun


def _variant(name: str, updates: str):
    """``CFRVariant(name, updates)``, or ``None`` for a pair it refuses (Monte Carlo CFR only alternates)."""
    try:
        return rmcore.CFRVariant(name, updates)
    except ValueError:
        return None


#: Every variant a race can include: each CFR variant, alternating or simultaneous where it has that form.
ALL_VARIANTS = tuple(
    variant
    for variant in itertools.starmap(_variant, itertools.product(rmcore.CFR_VARIANTS, rmcore.CFR_UPDATES))
    if variant is not None
)
VARIANT_HELP = " ".join(f"{name}: {text}" for name, text in rmcore.CFR_VARIANTS.items())


#: The games the page offers: classic Kuhn (with its tree, walkthrough and equilibrium family), Kuhn poker with more
#: cards and another bet, and Leduc hold'em. A link carries the label, as the bound control writes it
#: (``kuhn_game=Leduc hold'em``): changing a label breaks the links that carry it.
GAMES = {"kuhn": "Kuhn poker", "sliders": "Kuhn on sliders", "leduc": "Leduc hold'em"}
GAME_HELP = (
    "Kuhn poker: 3 cards, the classic (value −1/18), taught step by step. Kuhn on sliders: 3 to 13 cards and a bet "
    "of 0.5 to 4 antes; the exact value and equilibrium follow the sliders. Leduc hold'em: 6 cards, two betting rounds "
    "and a public card (OpenSpiel's leduc_poker, 936 information sets)."
)


class RunSettings(NamedTuple):
    """The page's setup: the game (``game``, with ``cards`` and ``bet`` for Kuhn on sliders), the variants, the seeds
    and the fixed player; any change means a new run."""

    variants: tuple[rmcore.CFRVariant, ...]
    seed: int = 0
    seeds: int = 1
    game: str = "kuhn"
    cards: int = 3
    bet: float = 1.0
    opponent: tuple | None = None  # (the fixed player 1 or 2, ((locked information set, probabilities), ...))

    @property
    def tree_game(self) -> rmcore.TreeGame:
        if self.game == "sliders":
            return rmcore.tree_game("kuhn", cards=self.cards, bet=self.bet)
        return rmcore.tree_game(self.game)

    @property
    def game_key(self) -> tuple:
        return (self.game, self.cards, self.bet)

    def fixed_opponent(self) -> dict | None:
        """The fixed player's whole strategy: the locks, and the exact equilibrium everywhere else."""
        if self.opponent is None:
            return None
        player, locks = self.opponent
        return rmcore.fixed_strategy(self.tree_game, player, exact_answer(self.game_key).policy, dict(locks))


#: Who learns: both players, or one against the other held fixed (the matrix page's "fixed opponent").
OPPONENTS = {"self-play": "Self-play", "2": "Player 2 fixed", "1": "Player 1 fixed"}
OPPONENT_HELP = (
    "Self-play: both players learn. A fixed player plays the exact equilibrium except at the information sets "
    "you lock; the other player, the learner, runs CFR alone and learns to exploit the locks."
)


def widgets() -> RunSettings:
    """The game, the opponent, the variants and the seed, as the page's setup record."""
    game = st.segmented_control(
        "Game", list(GAMES), format_func=GAMES.get, default="kuhn", key="kuhn_game", bind="query-params", help=GAME_HELP
    )
    game = game or "kuhn"  # (a segmented control can be clicked off: that keeps the classic)
    cards, bet = 3, 1.0
    if game == "sliders":
        left, right = st.columns(2)
        cards = int(
            left.slider(
                "Cards",
                *rmcore.poker.KUHN_CARDS,
                4,
                key="kuhn_cards",
                bind="query-params",
                help="How many cards (each player gets one; the higher wins a showdown).",
            )
        )
        bet = float(
            right.slider(
                "Bet, in antes",
                *rmcore.poker.KUHN_BETS,
                1.0,
                0.25,
                key="kuhn_bet",
                bind="query-params",
                help="The size of a bet or call; each player antes 1.",
            )
        )
    opponent = _opponent_settings(RunSettings((), game=game, cards=cards, bet=bet))
    labels = {v.label: v for v in ALL_VARIANTS}
    c1, c2, c3 = st.columns([4, 1, 1])
    chosen = c1.multiselect(
        "Variants (the first is traced and tabled; several race each other)",
        list(labels),
        default=[ALL_VARIANTS[0].label],
        key="kuhn_variants",
        bind="query-params",
        help=VARIANT_HELP + " " + " ".join(f"{k}: {v}" for k, v in rmcore.CFR_UPDATES.items()),
    )
    seed = int(
        c2.number_input(
            "Seed",
            0,
            2**31 - 1,
            0,
            key="kuhn_seed",
            help="For chance sampling: same seed, same run.",
            bind="query-params",
        )
    )
    if not chosen:
        st.error("Choose at least one variant; the last choice stays in use.")
        current = state.live("kuhn")
        return (
            current.key if current is not None else RunSettings((ALL_VARIANTS[0],), seed, 1, game, cards, bet, opponent)
        )
    variants = tuple(labels[label] for label in chosen)
    seeds = 1
    if len(variants) > 1 and any(v.is_sampled for v in variants):
        seeds = int(
            c3.number_input(
                "Seeds",
                1,
                20,
                5,
                key="kuhn_seeds",
                help="Runs per sampled variant: the race draws the median and the min-max band.",
                bind="query-params",
            )
        )
    return RunSettings(variants, seed, seeds, game, cards, bet, opponent)


def _opponent_settings(chosen: RunSettings) -> tuple | None:
    """Self-play, or one player fixed: the information sets it is locked at, each with weight sliders (normalised, as
    the matrix page's fixed opponent); at every other set it plays the exact equilibrium."""
    mode = st.radio(
        "Opponent",
        list(OPPONENTS),
        format_func=OPPONENTS.get,
        horizontal=True,
        key="kuhn_opponent",
        bind="query-params",
        help=OPPONENT_HELP,
    )
    if mode in (None, "self-play"):
        return None
    player = int(mode)
    game = chosen.tree_game
    names = [name for k, name in enumerate(game.infosets) if game.tree.infoset_player[k] == player - 1]
    default = ["Jp"] if rmcore.is_classic_kuhn(game) and player == 2 else names[:1]  # "player 2 never bluffs with J"
    suffix = "_".join(str(part) for part in chosen.game_key)
    locked = st.multiselect(
        f"Player {player}'s locked information sets (it plays the exact equilibrium at the others)",
        names,
        default=default,
        key=f"kuhn_locks_{player}_{suffix}",
        bind="query-params",
        help="An information set is the player's cards and the betting so far, e.g. Jp: holding J after a pass.",
    )
    locks = []
    for name in locked:
        k = game.infosets.index(name)
        actions = game.actions[k]
        columns = st.columns(len(actions))
        weights = [
            column.slider(
                f"{name}: weight of {action}",
                0,
                100,
                100 if a == 0 else 0,
                key=f"kuhn_lock_{suffix}_{k}_{a}",
                bind="query-params",
            )
            for a, (column, action) in enumerate(zip(columns, actions))
        ]
        total = sum(weights)
        if total == 0:
            st.error(
                f"All weights at {name} are zero: give at least one action a positive weight. Until then {name} plays "
                "the equilibrium."
            )
            continue
        locks.append((name, tuple(w / total for w in weights)))
        st.caption(
            f"At {name} player {player} plays "
            + " / ".join(f"{action} {w / total:.0%}" for action, w in zip(actions, weights))
        )
    return (player, tuple(locks))


def _describe(old: RunSettings, new: RunSettings) -> str:
    names = [name for name in RunSettings._fields if getattr(old, name) != getattr(new, name)]
    names = [
        "the game" if name in ("game", "cards", "bet") else "the fixed opponent" if name == "opponent" else name
        for name in names
    ]
    return " and ".join(dict.fromkeys(name.replace("variants", "the variants") for name in names)) or "the settings"


def live_run(chosen: RunSettings) -> LiveRun:
    """The page's live run for this setup: the same run while the setup stays, a fresh one (with a notice) when it
    changes."""
    return state.sync_live(
        "kuhn",
        chosen,
        lambda points, members: rmcore.Race(
            chosen.tree_game,
            chosen.variants,
            seeds=chosen.seeds,
            seed=chosen.seed,
            opponent=chosen.fixed_opponent(),
            max_points=points,
            member_points=members,
        ),
        _describe,
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def exact_answer(game_key: tuple) -> rmcore.TreeSolution:
    """The sequence-form LP's value and equilibrium, once per game on this server (Leduc: about 0.2 s)."""
    name, cards, bet = game_key
    return rmcore.solve_tree_game(RunSettings((), game=name, cards=cards, bet=bet).tree_game)
