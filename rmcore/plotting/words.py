"""The words the library's figures draw (:mod:`rmcore.plotting`): titles, legend entries, axis titles and hovers, in
Plotly's markup (``<br>`` breaks a line, ``<sup>`` sets a smaller line under a title).

One copy of each: the dashboard's pages (``ui/``) and a notebook draw the same figures with these words, and the
pages' own sentences (captions, help, lessons) stay in ``ui/explain*.py``.
"""

from __future__ import annotations

from . import fields

# -- every live chart ------------------------------------------------------------------------------------------

#: A live chart's words before the first iteration (Plotly's HTML).
PRESS_RUN = "Press <b>Run</b> or a <b>Step</b> button to start"
#: The live charts' titles before the first iteration (each chart's own title comes with the first update).
WAITING_STRATEGIES = "Strategies over time"
WAITING_SIMPLEX = "Average strategy path"
WAITING_CONVERGENCE = "Convergence (log-log)"
WAITING_RACE = "Race (log-log)"
WAITING_EXPLOITABILITY = "Exploitability (log-log)"
#: The same place on a game of more than two players, where exploitability is not defined.
WAITING_NASH_CONV = "nash_conv (log-log)"
TRAJECTORIES_POKER = "Average P(bet) at each information set"
TRAJECTORIES_OTHER = "Average strategy, player 1's first set"


# -- the matrix page's charts -------------------------------------------------------------------------------------

#: The strategies chart's title, as many actions as the chart draws or fewer.
STRATEGIES_TITLE = "Strategies: current (thin) and average (thick)"
#: A game of three players or more: the profile in the cube of three players' simplices, and each player of three
#: actions on its triangle.
CUBE_TITLE = "Average profile in the strategy cube"
TRIANGLES_TITLE = "Each player's average strategy on its simplex"
#: The regret bars' hover: what the last step added.
LAST_STEP_HOVER = "%{x}: %{y:+.4g} in the last step<extra></extra>"


def strategies_title_large(shown: int) -> str:
    """The strategies chart's title when it draws only each player's ``shown`` most played actions."""
    return f"Average strategies: the {shown} most played actions of each player"


#: The regret chart's title, by whether and how the rule plays by its regrets: what the bars are on one short line
#: and how to read them below it, smaller (in one line they overran a half-width column at both ends).
REGRET_TITLES = {
    "rm": "Cumulative regrets now<br><sup>only the positive, blue ones are played</sup>",
    "rm+": "Cumulative regrets now, clipped at zero<br><sup>the positive, blue ones are played</sup>",
    "prm+": "Cumulative regrets now, clipped at zero<br><sup>blue: positive</sup>",
}
REGRET_TITLE_OTHER = "Cumulative regrets now<br><sup>blue: positive; this rule does not play by them</sup>"


def regret_title(algorithm: str) -> str:
    """The regret chart's title for ``algorithm``."""
    return REGRET_TITLES.get(algorithm, REGRET_TITLE_OTHER)


#: The bound each rule's regret chart draws (the others have none drawn: fictitious play is not a no-regret rule).
BOUND_NAMES = {
    "rm": "Δ·√(|A|/T)",
    "rm+": "Δ·√(|A|/T)",
    "prm+": "Δ·√(|A|/T)",
    "hedge": "(ln|A|/η + ηTΔ²/8)/T",
}


# -- the convergence curves' legends --------------------------------------------------------------------------

_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_t(exponent: float) -> str:
    """``t`` to a power, written with superscripts as every label writes it: ``t``, ``t²``, ``t⁵``; an exponent that is
    no whole number as ``tᵞ`` (the variant's label names its γ), since Unicode has no superscript decimal point.

    >>> power_of_t(1.0), power_of_t(2.0), power_of_t(5.0), power_of_t(2.5)
    ('t', 't²', 't⁵', 'tᵞ')
    """
    if not float(exponent).is_integer():
        return "tᵞ"
    return "t" if exponent == 1 else "t" + str(int(exponent)).translate(_SUPERSCRIPTS)


def cfr_averaging(variant) -> str:
    """How a CFR variant (an ``rmcore.CFRVariant``) averages its policies, in a legend's words: iteration t's policy
    enters the average with weight 1, t, t² or, for discounted CFR, t to the power γ (``rmcore.CFRSolver``'s
    docstring), written with superscripts (:func:`power_of_t`)."""
    if variant.algorithm in ("discounted", "pdcfr+", "dcfr+"):
        gamma = variant.parameters["gamma"]
        return "uniform average" if gamma == 0 else f"{power_of_t(gamma)}-weighted average"
    return {"cfr+": "t-weighted average", "linear": "t-weighted average", "pcfr+": "t²-weighted average"}.get(
        variant.algorithm, "uniform average"
    )


def cfr_curve_name(variant, iterate: str) -> str:
    """A convergence curve's legend entry: variant, updates, averaging and which iterate (``"average"`` or
    ``"current"``), e.g. ``"pcfr+ · alternating · t²-weighted average"`` and
    ``"pcfr+ · alternating · current (last iterate)"``."""
    which = cfr_averaging(variant) if iterate == "average" else "current (last iterate)"
    return f"{variant.label} · {which}"


def matrix_curve_name(variant, iterate: str) -> str:
    """A matrix race curve's legend entry: the variant's label (algorithm and step, sampling, updates, averaging) and
    which iterate (``"average"`` or ``"current"``): ``"rm+ · expected · simultaneous · linear average"``,
    ``"rm+ · expected · simultaneous · linear · current (last iterate)"``."""
    return f"{variant.label} average" if iterate == "average" else f"{variant.label} · current (last iterate)"


def tree_unit(poker: bool) -> str:
    """The unit of a tree game's payoffs on an axis: poker pays in antes per hand; Liar's dice, Goofspiel and the
    user's games pay in their own units per game."""
    return "antes per hand" if poker else "payoff units per game"


# -- the strategy space's field -----------------------------------------------------------------------------------

RULE_NAMES = {
    "hedge": "Hedge",
    "optimistic-hedge": "Optimistic Hedge",
    "fictitious-play": "Fictitious play",
    "gda": "Gradient ascent",
    "optimistic-gda": "Optimistic gradient ascent",
}


EIGENVALUES = "Jacobian's eigenvalues: {values}"
#: The best-response dynamic jumps where best responses tie (an interior equilibrium), so its eigenvalues are its
#: smoothed form's, the logit dynamic x' = softmax(u/τ) - x at a small temperature τ: its Jacobian -I + C Du / τ turns
#: the replicator's rotation (±0.577i on Rock-Paper-Scissors) into one 1/τ times as fast, so the imaginary parts are
#: large by construction; the real part, -1, is what classifies the point.
EIGENVALUES_LOGIT = (
    "Jacobian's eigenvalues: {values}<br>(of the logit dynamic x' = softmax(u/τ) − x, which smooths the best<br>"
    "response, at τ = {tau:g} of the payoff scale: the imaginary parts grow as 1/τ<br>and say nothing of stability; "
    "the real parts classify the point)"
)


def eigenvalues_words(dynamic: str, values: str) -> str:
    """A rest point's eigenvalues in its hover (Plotly's markup: ``<br>`` breaks a line), with what they are the
    eigenvalues of where that is not the field's own Jacobian (the best-response dynamic's smoothed form)."""
    if dynamic == "best-response":
        return EIGENVALUES_LOGIT.format(values=values, tau=fields.LOGIT_TEMPERATURE)
    return EIGENVALUES.format(values=values)


# -- the correlated-equilibrium figures ---------------------------------------------------------------------------

#: The tetrahedron's title: every point is a joint distribution over the four joint actions.
TETRAHEDRON_TITLE = "Joint distributions of play: the CE and CCE sets in the tetrahedron"
#: The legend's entries, one per layer.
CE_SET = "correlated equilibria (CE)"
#: With two actions each, a player's one CCE constraint per alternative is their one CE constraint for it: in a 2x2
#: game the coarse set is the CE set.
CCE_SAME = "coarse CE (CCE): the same set in a 2x2 game"
PRODUCTS = "independent play x ⊗ y"
NASH = "Nash equilibria"
BEST = "welfare-best CE"
#: The traffic light's legend entry and the label beside its point.
TRAFFIC_LIGHT = "traffic light: a fair coin between the two pure equilibria"
TRAFFIC_LIGHT_LABEL = "traffic light"
TRAIL = "σ_t, the joint play"
NOW = "σ_t now"
#: Hovers (Plotly's markup).
NASH_HOVER = "Nash equilibrium<br>row plays (%{customdata[0]})<br>column plays (%{customdata[1]})<extra></extra>"
JOINT_HOVER = "%{text}<extra>%{fullData.name}</extra>"
CORNER_HOVER = "everyone plays %{text}<extra></extra>"
BEST_HOVER = "the CE of largest total payoff: %{customdata:.4g}<extra></extra>"
TRAFFIC_LIGHT_HOVER = (
    "the traffic light: %{customdata[0]} or %{customdata[1]}, 1/2 each<br>(a CE, paying %{customdata[2]:.4g} in all)"
    "<extra></extra>"
)


def joint_words(labels: list[str], joint) -> str:
    """A 2x2 joint distribution in a hover: each joint action's probability, one a line."""
    return "<br>".join(f"{label}: {p:.3f}" for label, p in zip(labels, joint))


#: The heatmaps' title and panels.
HEATMAPS_TITLE = "The joint distribution of play beside the correlated equilibrium closest to it"
JOINT_PANEL = "σ_t, the joint play"
HEATMAP_HOVER = "row %{y}, column %{x}: %{z:.4f}<extra></extra>"
PROBABILITY = "probability"
ROW_AXIS = "row player's action"
COLUMN_AXIS = "column player's action"


def closest_panel(coarse: bool, distance: float) -> str:
    """The second heatmap's title: which set's closest point, and how far it is (L1: the sum of the differences)."""
    kind = "CCE" if coarse else "CE"
    return f"the closest {kind} (L1 distance {distance:.3g})"


#: The convergence chart's correlated curves.
CE_GAP = "CE gap of the joint play σ_t"
CCE_GAP = "CCE gap of the joint play σ_t"
INTERNAL_REGRET = "largest internal regret per iteration"
INTERNAL_BOUND = "internal-regret bound"
#: The race's chart of the joint play's gaps, one learner a colour.
GAPS_RACE_TITLE = "Distance of each learner's joint play from the CE set (solid) and the CCE set (dotted), log-log"
GAPS_AXIS = "gap (payoff units, summed over players)"


# -- the game-tree page's charts ----------------------------------------------------------------------------------

KUHN_TRAJECTORIES_TITLE = "Average strategies (solid: player 1, dotted: player 2)"
EQUILIBRIUM_CHECK_TITLE = "Equilibrium check: bet J with α, K with 3α, call Qpb with α + 1/3; player 2 fixed"
OPENING_TITLE = "Average P(bet) at player 1's first decision, by card"
POLICY_HEATMAP_HOVER = "%{y} after %{x}: P(bet or raise) %{z:.3f}<extra></extra>"


def winnings_title(learner: int) -> str:
    return f"Player {learner}'s winnings per game against the fixed player"


# -- a solver watched in a notebook (rmcore.plotting.live) ------------------------------------------------------

WATCH_RUN = "Run"
WATCH_PAUSE = "Pause"
WATCH_SPEED = "Speed"
WATCH_FASTEST = "as fast as possible"
#: The speeds of a watched solver: iterations per update (about 5 updates a second), or as many as a time budget holds.
WATCH_SPEEDS = {
    "1 per update": 1,
    "10 per update": 10,
    "100 per update": 100,
    "1,000 per update": 1_000,
    WATCH_FASTEST: None,
}
WATCH_WAITING = "iteration 0: press <b>Run</b>"
WATCH_NASH_CONV = "NashConv"
WATCH_GAIN = "the learner's best-response gain"
WATCH_STOPPED = "stopped"
WATCH_NO_IMAGE = "The figures could not be drawn as images for a static copy of this notebook"


def watch_status(iteration: int, name: str, value: float) -> str:
    """The line beside a watched solver's controls (ipywidgets' HTML): the iteration and the measure now, each kept
    whole when the line wraps (a number such as 1.052e-06 is never split at its dash)."""
    return (
        f'<span style="white-space: nowrap">iteration <b>{iteration:,}</b></span> · '
        f'<span style="white-space: nowrap">{name} <b>{value:.4g}</b></span>'
    )
