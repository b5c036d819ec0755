"""The words beside the strategy-space chart's field (:mod:`rmcore.plotting.fields`): what is drawn, which rule it
belongs to and which of the rule's iterates travels along it (the rules' names are the figures',
:data:`rmcore.plotting.words.RULE_NAMES`)."""

from __future__ import annotations

from rmcore.plotting import fields
from rmcore.plotting.words import RULE_NAMES

SPACE_WORDS = {
    "square": "The square is the whole state of a 2x2 game: across, the row player's first action; up, the column "
    "player's.",
    "segment": "Against a fixed opponent the learner's share of its first action is the whole state: the field runs "
    "along the line at the opponent's mix.",
    "simplex": "Against a fixed opponent the learner's own triangle is the whole state.",
    "one-population": "Both players start at one point and update alike, so their strategies stay equal: one "
    "triangle is the whole state (one population).",
}
FOLLOWING = {
    "current": "{rule}'s current strategy (the last iterate) is a step-by-step version of this flow: its trail is "
    "drawn with its recent positions, the average as a line.",
    "average": "{rule}'s average strategy is a step-by-step version of this flow (its current play is a corner, the "
    "best response): the average is the line, the last iterate's trail jumps between corners.",
}
FIELD = (
    "The short arrows are the {dynamic}, the continuous-time limit of the rule; their colour is the speed. Filled "
    "dots are stable rest points, open ones unstable, grey ones neutral (read from the eigenvalues of the dynamic's "
    "Jacobian); the star is the Nash equilibrium, the diamond the start. Click anywhere on the chart to start the run "
    "there."
)


def field_caption(setup: fields.Setup, algorithm: str, note: str = "") -> str:
    """The strategy-space chart's caption when a field is drawn."""
    words = [
        SPACE_WORDS[setup.space],
        FIELD.format(dynamic=fields.DYNAMIC_NAMES[setup.dynamic]),
        FOLLOWING[fields.FOLLOWED_BY[algorithm]].format(rule=RULE_NAMES[algorithm]),
    ]
    if note:
        words.append(note)
    return " ".join(words)


def joint_words(setup: fields.Setup) -> str:
    """Where no picture holds two players' joint state: the joint dynamic's equilibria and their stability."""
    points = [p for p in fields.rest_points(setup) if p.is_nash]
    if not points:
        return ""
    said = [f"{_strategies(p.strategies)} is {p.stability}" for p in points]
    name = fields.DYNAMIC_TITLES[setup.dynamic][0].lower()
    return (
        f"Under the joint {name} of both players, the equilibrium {'; '.join(said)} (from its Jacobian's eigenvalues)."
    )


def _strategies(strategies) -> str:
    return " against ".join("(" + ", ".join(f"{v:.3g}" for v in s) + ")" for s in strategies)
