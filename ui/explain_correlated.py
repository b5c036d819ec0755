"""The words of the correlated-equilibrium figures (:mod:`ui.matrix.correlated_figure`): the tetrahedron of a 2x2
game's joint distributions and the heatmaps of a larger game's, with what each layer is."""

from __future__ import annotations

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
TRAIL = "σ_t, the joint play"
NOW = "σ_t now"
#: Hovers (Plotly's markup).
NASH_HOVER = "Nash equilibrium<br>row plays (%{customdata[0]})<br>column plays (%{customdata[1]})<extra></extra>"
JOINT_HOVER = "%{text}<extra>%{fullData.name}</extra>"
CORNER_HOVER = "everyone plays %{text}<extra></extra>"
BEST_HOVER = "the CE of largest total payoff: %{customdata:.4g}<extra></extra>"


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


#: internal-rm's inertia widget: a multiple of the least the paper allows.
MU_LABEL = "Inertia μ (× the least allowed)"
MU_HELP = (
    "Hart & Mas-Colell's procedure switches from the last action j to k with probability R(j→k)⁺ / (μ t) and stays "
    "otherwise. μ must exceed 2 M (m − 1), M the largest |payoff| and m a player's number of actions, so that staying "
    "keeps a positive probability. A larger μ stays more often: play moves more slowly, and converges more slowly."
)


def mu_now(mu: float, least: float, bound: float) -> str:
    """The inertia in use, beside the least the paper allows on this game."""
    if mu == least:
        return f"μ = {mu:.4g}: the least allowed on this game (just above 2 M (m − 1) = {bound:g})."
    return f"μ = {mu:.4g}, {mu / least:g} × the least allowed on this game (just above 2 M (m − 1) = {bound:g})."
