"""The words of the matrix page for a game of three players or more (:mod:`ui.matrix.players`): its editor, its start,
its charts and what they mean."""

from __future__ import annotations

import numpy as np

from .escape import markdown

EDITOR_TITLE = "Edit the payoffs, slice by slice"
LESSON_TITLE = "Three players: Nash out of reach"
LESSON_HELP = (
    "Jordan's three-player matching pennies: regret matching from a start away from the one Nash equilibrium. Its "
    "average never settles there (NashConv stays large), while the joint play reaches the coarse correlated "
    "equilibria (the CCE gap falls): what Hart & Mas-Colell's theorem promises for any number of players."
)


def editor_help(players: int) -> str:
    """How the slices are laid out."""
    order = ", ".join(f"u{p}" for p in range(1, players + 1))
    return (
        "One table for each choice of the players after player 2: rows are player 1's actions, columns player 2's, "
        f"and each cell holds every player's payoff in order ({order}), separated by commas. Apply edits loads the "
        "game; the run starts again."
    )


def too_large_to_edit(shape: tuple[int, ...], actions: int, slices: int) -> str:
    """A game whose slices the editor does not show."""
    size = " x ".join(map(str, shape))
    return (
        f"This {size} game is played as it was loaded: the editor shows games of at most {actions} actions for "
        f"players 1 and 2 and {slices} slices."
    )


FIXED_HELP = (
    "Self-play, or some players fixed at mixed strategies (their sliders) while the others learn, at least one: "
    "NashConv is then the learners' gains summed, the game among them with the fixed players as part of it."
)


def fixed_words(player: int, actions, weights) -> str:
    """The fixed player's strategy in words."""
    mix = " / ".join(f"{markdown(action)} {w / sum(weights):.0%}" for action, w in zip(actions, weights))
    return f"Player {player} plays {mix}, whatever the others do."


def fixed_weights_zero(player: int) -> str:
    return f"Player {player}'s weights are all 0: give an action some weight. Every player learns meanwhile."


START_HELP = (
    "Each player's first strategy. Regret matching realises it as one iteration's worth of regret, Hedge as its "
    "prior, fictitious play as its first play. From uniform play a symmetric game such as matching pennies sits at "
    "its equilibrium, and nothing moves."
)


def start_words(game, start) -> str:
    """The suggested start in words."""
    parts = []
    for player, (actions, weights) in enumerate(zip(game.actions, start), 1):
        mix = " / ".join(f"{markdown(action)} {w / sum(weights):.0%}" for action, w in zip(actions, weights))
        parts.append(f"player {player} {mix}")
    return "Starts at " + "; ".join(parts) + ": away from the uniform equilibrium, so that the dynamics show."


def start_weights_zero(player: int) -> str:
    return f"Player {player}'s weights are all 0: give an action some weight."


TWO_PLAYER_RULE = (
    "Extragradient RM+ evaluates two players' regrets at one profile, twice an iteration: it runs on two-player games. "
    "Choose another rule for this game."
)
SIMULTANEOUS = (
    "A game of three players or more updates simultaneously: alternating updates let the column player answer the "
    "row player's new strategy, an order of two players."
)
BEFORE_THE_START = "Press Run, or a Step, to start learning: the charts appear with the first iterations."
STRATEGIES = (
    "Each player's strategies over the iterations: thick lines the average, thin the current strategy (what the next "
    "iteration plays)."
)
CUBE = (
    "Each player's strategy is a point on its own simplex, here a segment: the probability of its first action. The "
    "three segments make the cube's axes, and the profile a point in it. The thick line is the average profile's path."
)
TRIANGLES = (
    "Each player of three actions on its own simplex, a triangle whose corners are its actions: the thick line is its "
    "average strategy's path, the dot where it is now."
)
NO_SIMPLEX = (
    "The strategies are drawn on their simplices for three players of two actions each (a cube) or for players of "
    "three actions (a triangle each); this game's are on the chart above."
)
RACE = (
    "The race: each variant's NashConv of its average profile (sampled variants: the median of their seeds, a band "
    "from the lowest to the highest)."
)
NASH_CONV_HELP = (
    "NashConv: what the players together gain by each switching to a best response against the others' average "
    "strategies (OpenSpiel's definition). 0 exactly at a Nash equilibrium."
)
LEARNER_GAIN_HELP = (
    "The one learning player's best-response gain: what it would gain by switching from its average strategy to a "
    "best response against the fixed players. 0 exactly when it best responds; with two learners or more the measure "
    "is NashConv, their gains summed."
)
CCE_HELP = (
    "The coarse correlated equilibrium gap of the joint play (OpenSpiel's cce_dist): what the players together gain "
    "by each ignoring the empirical joint distribution of play and playing one fixed action. Regret matching drives "
    "it to 0 in any game (Hart & Mas-Colell 2000)."
)

CCE_FIXED_HELP = (
    "Not measured with players fixed: the others then learn a game of their own, the fixed players part of it, and "
    "the CE and CCE gaps are those of every player's joint learning (self-play, Fix players left empty)."
)


def convergence(game, history) -> str:
    """The convergence chart's caption, naming the lines ``history`` gives it; on matching pennies, the lesson."""
    if history.gap_name.startswith("br_gain_"):  # (one learner: its own gain is the measure, as the chart draws it)
        player = history.gap_name.removeprefix("br_gain_")
        words = (
            f"Player {player}'s best-response gain at its average strategy (thick): the measure where it alone learns "
            "against the fixed players. Beside it, its average positive regret, log-log."
        )
    else:
        lines = ["NashConv of the average profile (thick)"]
        if "nash_conv_current" in history.metrics and not np.isnan(history.metrics["nash_conv_current"]).all():
            lines.append("of the current strategies (dotted)")
        lines.append("each learning player's average positive regret")
        if "cce_gap" in history.metrics and not np.isnan(history.metrics["cce_gap"]).all():
            lines.append("the CE and CCE gaps of the joint play")
        words = ", ".join(lines[:-1]) + ("," if len(lines) > 2 else "") + f" and {lines[-1]}, log-log."
    if game.name == "Three-player matching pennies" and history.gap_name == "nash_conv":
        words += (
            " Jordan's game has one Nash equilibrium, uniform play. Started away from it, regret matching's average "
            "circles it and its NashConv stays far from 0, while every player's regret vanishes: the joint play's "
            "CCE gap falls towards 0. No-regret learning finds the coarse correlated equilibria in any game, not the "
            "Nash equilibria."
        )
    return words
