"""The words beside the correlated-equilibrium figures (:mod:`rmcore.plotting.correlated`): the tetrahedron of a 2x2
game's joint distributions and the heatmaps of a larger game's, what each layer is, and the controls and lessons
around them. The figures' own titles, legends and hovers are :mod:`rmcore.plotting.words`'s."""

from __future__ import annotations

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


#: The live panel's part on correlated equilibria (ui/matrix/correlated.py).
PANEL_HEADING = "#### Correlated equilibria: where the joint play goes"
TETRAHEDRON_CAPTION = (
    "Every point of the tetrahedron is a joint distribution over the four joint actions; its corners are the pure "
    "joint actions. The green solid is the set of correlated equilibria (in a 2x2 game the coarse set is the same); "
    "the pale saddle holds the distributions of independent play x ⊗ y, the Nash equilibria on it. In a game of "
    "Chicken's kind the cross marks the traffic light, a fair coin between its two pure equilibria. The blue trail is "
    "σ_t, the empirical joint distribution of play up to the iteration shown: Hart & Mas-Colell's theorem is that "
    "swap-regret learners bring it into the CE set. Drag to rotate; the view stays as you leave it."
)


def heatmaps_caption(iteration: int | None, shown: int, running: bool, computing: bool) -> str:
    """The heatmaps' caption: what each panel is, and of which iteration the closest CE is."""
    words = (
        "Left: σ_t, the empirical joint distribution of play at the iteration shown. Right: the correlated "
        "equilibrium closest to it in L1 distance, found by a linear program."
    )
    if iteration is None:
        return f"{words} The program is running; the closest CE appears when it is done."
    if iteration != shown:
        when = "every few seconds while the run runs" if running else "when the page is paused"
        words += f" The closest CE is of iteration {iteration:,} (computed {when}{', now again' if computing else ''})."
    return words


def closest_failed(error: str) -> str:
    """Why the closest CE is not drawn."""
    return f"The closest correlated equilibrium could not be computed: {error}"


def welfare_line(learner: float, ce: tuple[float, float] | None, cce: tuple[float, float] | None) -> str:
    """The learner's total payoff beside the range of total payoff over the CE and the CCE sets (Markdown)."""
    line = f"Total payoff u₁ + u₂ of the joint play σ_t: **{learner:.4g}**"
    if ce is None:
        return line + "; the ranges over the CE and CCE sets are being computed."
    return (
        line + f"; over the correlated equilibria it ranges from **{ce[0]:.4g}** to **{ce[1]:.4g}**, over the coarse "
        f"correlated equilibria from **{cce[0]:.4g}** to **{cce[1]:.4g}**."
    )


def welfare_failed(error: BaseException) -> str:
    return f"The welfare ranges over the CE and CCE sets could not be computed: {error}"


CONVERGENCE_WORDS = (
    "The CE and CCE gaps measure the joint distribution of play σ_t, not the marginals: the sum over players of what "
    "the best switch (CE: per recommended action; CCE: one action for all) would gain against σ_t. Regret matching "
    "drives the CCE gap to zero; swap RM and Hart & Mas-Colell's procedure drive the CE gap to zero too, while "
    "nash_conv of the marginals need not fall."
)


def too_large(shape: tuple[int, int], cells: int) -> str:
    """Why a game's joint play is not set beside a CE."""
    return (
        f"This game has {shape[0] * shape[1]:,} joint actions: the correlated-equilibrium programs take games of at "
        f"most {cells:,}, so the joint play is not set beside a CE here (its CE and CCE gaps are on the convergence "
        "chart)."
    )


GAPS_RACE_CAPTION = (
    "Each learner's CE gap (solid) and CCE gap (dotted) of its empirical joint distribution of play σ_t: what the best "
    "switch would gain against σ_t, per recommended action (CE) or one action for all (CCE), summed over players. A "
    "sampled learner's curve is its first seed's. A gap at 0 leaves the log axis."
)


#: The lessons' popover (ui/matrix/correlated_lesson.py).
LESSONS_TITLE = "Lessons: correlated equilibria"
#: What the class sees; the numbers are the library's, from the lessons' starts, seed 0 (tests hold the words to them).
SHAPLEY_WORDS = (
    "What to watch: regret matching's joint play enters the coarse set, its CCE gap falling like 1/T (about 0.009 "
    "after 1,000 iterations, 0.001 after 10,000), while its CE gap stays near 0.3: its players would still gain by "
    "switching on their recommendations. Swap RM's CE gap falls to zero (below 0.01 after 10,000), and Hart & "
    "Mas-Colell's sampled procedure follows more slowly (about 0.1 after 10,000, 0.05 after 100,000: its inertia "
    "holds it back). Regret matching's marginals keep cycling around the equilibrium: their nash_conv stays near 0.28 "
    "while its joint play converges. The joint distribution, not the marginals, is what regret matching's theorem is "
    "about."
)

CHICKEN_WORDS = (
    "What to watch: every learner's joint play ends inside the CE polytope (CE gap near 0: about 0.0003 after 10,000 "
    "iterations), but not at one point of it, and none at the traffic light (the cross: a fair coin says who goes "
    "straight, (Swerve, Dare) or (Dare, Swerve) with 1/2 each, 9 in all). From the uniform start, regret matching "
    "and swap RM both end at the mixed Nash equilibrium's product, (4/9, 2/9, 2/9, 1/9), 28/3 in all, away from the "
    "traffic light: both drivers swerve 4/9 of the time and crash 1/9 of it, where under the light they never do "
    "either. Hart & Mas-Colell's sampled procedure (seed 0) locks into the pure equilibrium (Swerve, Dare), 9 in all, "
    "one of the light's two outcomes: the traffic light is halfway between it and (Dare, Swerve). The best CE "
    "(1/2, 1/4, 1/4, 0, 10.5 in all) is elsewhere again: the theorem brings the joint play to the set, and says "
    "nothing of where in it."
)
#: Each lesson: its button's title and help, and its words.
LESSONS = {
    "shapley": (
        "Shapley's game: CE against CCE",
        "Shapley's game from a start away from its equilibrium: regret matching races swap RM and Hart & Mas-Colell's "
        "procedure, each learner's joint play measured against the correlated equilibria (CE) and the coarse ones.",
        SHAPLEY_WORDS,
    ),
    "chicken": (
        "Aumann's Chicken: where in the CE set",
        "Aumann's Chicken from the uniform start: the same three learners, each ending somewhere in the CE polytope, "
        "the traffic light and the best CE drawn beside them.",
        CHICKEN_WORDS,
    ),
}


#: The picture's toggles (ui/matrix/settings.py).
PICTURE_LABEL = "Tetrahedron shows"
PICTURE_HELP = (
    "The layers of the tetrahedron of joint distributions: the CE set and the CCE set (the same set in a 2x2 game), "
    "the saddle of independent play x ⊗ y, the Nash equilibria and the CE of largest total payoff. The joint play's "
    "trail is always drawn, and so is the traffic light in a game of Chicken's kind (a fair coin between its two "
    "pure equilibria off the diagonal); a click on a legend entry hides a layer for this view only."
)
CLOSEST_LABEL = "Set the joint play beside the closest point of"
CLOSEST_HELP = (
    "The heatmap beside the joint play σ_t shows the point of this set closest to it in L1 distance (a linear "
    "program). Regret matching's σ_t approaches the CCE set; swap RM's and Hart & Mas-Colell's the CE set."
)
