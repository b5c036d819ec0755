"""Every on-screen word about an algorithm, a game or a chart: the algorithms' names, what the tree page teaches with
each of its games, and one or two lines under each chart on what it shows, for students. Text only: no Streamlit, no
math code. (What a game is and how it is played is the catalogue's, ``rmcore.TREE_GAMES``: one description per game.)
The pages' other sentences are in the rooms beside this one: ``explain_app.py`` (what the pages share),
``explain_matrix.py``, ``explain_trees.py`` and ``explain_atlas.py`` (each page's own), ``explain_fields.py`` (the
fields under the rules); ``tests/test_word_rooms.py`` fails when a page or another module of ``ui/`` types one."""

from .escape import markdown

#: The game control's help for the first three choices (every other choice's is the catalogue's one line).
TREE_GAME_CHOICES = {
    "kuhn": "3 cards, the classic (value −1/18), taught step by step.",
    "sliders": "3 to 13 cards and a bet of 0.5 to 4 antes; the exact value and equilibrium follow them.",
    "leduc": "6 cards, two betting rounds and a public card (OpenSpiel's leduc_poker, 936 information sets).",
}
#: The game control's help for the user's own game, and for an OpenSpiel game.
TREE_GAME_UPLOAD = "any zero-sum game tree (two players or more), from a Gambit .efg file."
TREE_GAME_OPENSPIEL = (
    "any zero-sum game of OpenSpiel (two players or more) by its name and parameters, such as "
    "liars_dice(dice_sides=4) or kuhn_poker(players=3) (where OpenSpiel is installed)."
)


def openspiel_line(name: str, size: str) -> str:
    """An OpenSpiel game's line above the tree page's settings (``name`` as typed: escaped here)."""
    return f"**{markdown(name)}** (OpenSpiel's game, converted by rmcore.from_openspiel): {size}."


#: The matrix page's names for rmcore's algorithms (``rmcore.ALGORITHMS`` keys), as its Variant box shows them and a
#: shared link carries them.
ALGORITHM_NAMES = {
    "rm": "RM (regret matching)",
    "rm+": "RM+",
    "prm+": "Predictive RM+",
    "hedge": "Hedge (multiplicative weights)",
    "optimistic-hedge": "Optimistic Hedge",
    "fictitious-play": "Fictitious play",
    "gda": "GDA (projected gradient ascent)",
    "optimistic-gda": "Optimistic GDA",
    "sprm+": "Smooth predictive RM+ (SPRM+)",
    "exrm+": "Extragradient RM+ (ExRM+)",
    "swap-rm": "Swap RM (Blum & Mansour)",
    "internal-rm": "Hart & Mas-Colell's procedure",
}


#: Why a link's list setting was cut short, by its key (``ui.link.MOST_CHOSEN`` holds the numbers).
LIST_LIMITS = {
    "race_variants": "a race compares the chosen variant with at most {most} others",
    "kuhn_variants": "a race takes at most {most} variants",
}


def list_trimmed(key: str, kept: list[str], unknown: list[str], past: list[str], most: int | None) -> str:
    """The link notice's words for a list setting (``key``, such as ``kuhn_variants``) whose entries were not used:
    ``unknown`` are not a choice of the page, ``past`` came after the ``most`` the list holds. Every entry is quoted
    as the link gave it (escaped for Markdown)."""

    def quoted(values: list[str]) -> str:
        return ", ".join(markdown(repr(value[:60])) for value in values)

    reasons = []
    if unknown:
        reasons.append(f"{quoted(unknown)} (not a choice of this page)")
    if past:
        reasons.append(f"{quoted(past)} ({LIST_LIMITS.get(key, 'it holds at most {most}').format(most=most)})")
    if past:
        kept_words = f"kept the first {len(kept)} of the rest" if unknown else f"kept the first {len(kept)}"
    else:
        kept_words = f"kept {len(kept)}" if kept else "the default is shown"
    return f"{markdown(key)}: dropped {' and '.join(reasons)}; {kept_words}"


ETA = (
    "The step size η of Hedge, GDA and the smoothed regret matchers, on a log scale. Hedge plays x ∝ exp(η·cumulative "
    "payoff): a small η moves slowly and smoothly, a large one jumps to the best reply (fictitious play). GDA steps η "
    "along the payoff vector and projects back onto the simplex. SPRM+ and ExRM+ add η times the regrets to a regret "
    "state kept at a sum of at least 1. Hedge's regret bound ln|A|/η + ηTΔ²/8 is smallest at η = √(8 ln|A| / T)/Δ."
)
#: What the convergence chart says of a rule's regret bound, for a rule besides regret matching (its dashed line or
#: why there is none).
RULE_BOUNDS = {
    "hedge": "Dashed: Hedge's bound (ln|A|/η + ηTΔ²/8)/T on the average regret.",
    "optimistic-hedge": "No regret bound is drawn.",
    "fictitious-play": "Fictitious play is not a no-regret rule: it has no regret bound.",
    "gda": "No regret bound is drawn (GDA's O(√T) needs a step shrinking as 1/√T).",
    "optimistic-gda": "No regret bound is drawn.",
    "sprm+": "No regret bound is drawn.",
    "exrm+": "No regret bound is drawn.",
    "swap-rm": "No bound on the external regret is drawn.",
    "internal-rm": "No regret bound is drawn.",
}
#: The dotted line of the current strategies' nash_conv, rule by rule, for a rule besides regret matching (drawn in
#: self-play only: against a fixed opponent nash_conv is not the measure).
RULE_CURRENT = {
    "hedge": "Dotted: nash_conv of the current strategies, which cycle.",
    "optimistic-hedge": "Dotted: nash_conv of the current strategies, which converge too (last-iterate convergence).",
    "fictitious-play": "Dotted: nash_conv of the current strategy, a pure best reply.",
    "gda": "Dotted: nash_conv of the current strategies, which spiral out to the boundary.",
    "optimistic-gda": "Dotted: nash_conv of the current strategies, which converge.",
    "sprm+": "Dotted: nash_conv of the current strategies, which converge (Cai et al. 2023).",
    "exrm+": "Dotted: nash_conv of the current strategies (the leader R / sum R), which converge (Cai et al. 2023).",
    "swap-rm": "Dotted: nash_conv of the current strategies, which settle from some starts and keep moving from "
    "others.",
    "internal-rm": "Dotted: nash_conv of the current strategies, which keep moving.",
}

#: What the thin lines of the strategy chart do, rule by rule (in self-play).
CURRENT_PLAY = {
    "rm": "Thin lines are the strategy regret matching plays at each iteration: it keeps chasing the last best reply, "
    "so it cycles.",
    "rm+": "Thin lines are the strategy RM+ plays at each iteration: like regret matching, it chases the last best "
    "reply.",
    "prm+": "Thin lines are the strategy predictive RM+ plays at each iteration: it counts the last regrets once more, "
    "as a prediction of the next.",
    "hedge": "Thin lines are the strategy Hedge plays at each iteration, in proportion to exp(η × cumulative payoff): "
    "it cycles, drifting out towards the edges.",
    "optimistic-hedge": "Thin lines are the strategy optimistic Hedge plays at each iteration: counting the last "
    "payoff twice, it stops cycling and converges.",
    "fictitious-play": "Thin lines are fictitious play's strategy at each iteration, a pure best reply to the "
    "opponent's average: it jumps from corner to corner.",
    "gda": "Thin lines are GDA's strategy at each iteration, a step along the payoff vector projected back onto the "
    "simplex: it spirals out to the edges.",
    "optimistic-gda": "Thin lines are optimistic GDA's strategy at each iteration: stepping along the last payoff "
    "counted twice, it stops spiralling and converges.",
    "sprm+": "Thin lines are the strategy smooth predictive RM+ plays at each iteration: PRM+ whose regrets, stepped "
    "by η, never sum below 1, which keeps each step small; it stops cycling and converges.",
    "exrm+": "Thin lines are the strategy extragradient RM+ holds after each iteration: it looks one step ahead, then "
    "steps with the regrets found there; it stops cycling and converges.",
    "swap-rm": "Thin lines are the strategy swap RM plays at each iteration: the stationary distribution of one "
    "regret matcher per action; its joint play approaches the correlated equilibria.",
    "internal-rm": "Thin lines are the strategy Hart & Mas-Colell's procedure plays at each iteration: mostly the last "
    "action, with a switch to another in proportion to its regret for having played the last one instead.",
}
#: What the thick lines do: for regret matching's family and fictitious play the average converges to an equilibrium;
#: with a constant step, Hedge's and GDA's only to within a distance that shrinks with the step, and the optimistic
#: rules' current play goes with it.
_AVERAGE = "Thick lines are the running average of those strategies; in two-player zero-sum self-play "
AVERAGE_PLAY = {
    "converges": _AVERAGE + "it is the average, not the current play, that converges to an equilibrium.",
    "approaches": _AVERAGE + "it is the average, not the current play, that approaches an equilibrium (to within a "
    "distance that shrinks with η).",
    "both": _AVERAGE + "both the average and the current play approach an equilibrium.",
    "start": _AVERAGE + "the average converges to an equilibrium, and the current play settles too from some starts "
    "and keeps moving from others.",
}
_AVERAGE_OF = {
    "hedge": "approaches",
    "gda": "approaches",
    "optimistic-hedge": "both",
    "optimistic-gda": "both",
    "sprm+": "both",
    "exrm+": "both",
    "swap-rm": "start",
}
NO_SIMPLEX = "The simplex picture is drawn for players with 3 actions, and the unit square for 2x2 games."
_CORNERS = "Each corner is one action played for sure; a point inside mixes them."
_SQUARE = (
    "Across, the row player's probability of its first action; up, the column player's: each corner is a pair of "
    "actions played for sure."
)
#: Where the average's path goes in zero-sum self-play, by how the rule's average behaves (``_AVERAGE_OF``).
_PATH_GOES = {
    "converges": "The line is the average strategy over time, heading for the equilibrium (the star).",
    "approaches": "The line is the average strategy over time, heading to within a distance of the equilibrium (the "
    "star) that shrinks with η.",
    "both": "The line is the average strategy over time, heading for the equilibrium (the star); the current "
    "strategies go there too.",
    "start": "The line is the average strategy over time, heading for the equilibrium (the star); the current "
    "strategies go there too from some starts.",
}
GENERAL_SUM_PATH = (
    "The line is the average strategy over time; in a general-sum game it need not settle on a Nash equilibrium (in "
    "Shapley's game it keeps cycling). The star is the Nash equilibrium nearest to the averages now."
)
SIMPLEX = f"{_CORNERS} {_PATH_GOES['converges']}"


def simplex(zero_sum: bool, algorithm: str, square: bool = False) -> str:
    """The simplex's (or, for a 2x2 game, the unit square's) caption in self-play: where the average's path goes for
    this rule, and in a general-sum game that it need not settle."""
    where = _SQUARE if square else _CORNERS
    if not zero_sum:
        return f"{where} {GENERAL_SUM_PATH}"
    return f"{where} {_PATH_GOES[_AVERAGE_OF.get(algorithm, 'converges')]}"


SIMPLEX_FIXED = (
    "Each corner is one action played for sure; a point inside mixes them. The line is the learner's average strategy "
    "over time: against a fixed opponent it heads for a best response to that opponent (a corner or an edge), not for "
    "the equilibrium (the star)."
)
#: The convergence chart's words for a rule other than the regret-matching family (its own note follows them).
CONVERGENCE_OTHER_RULE = (
    "nash_conv is how much the two players together could gain by switching to a best response against the averages: "
    "0 exactly at an equilibrium. The dotted guide shows the 1/√T rate."
)
CONVERGENCE = (
    "nash_conv is how much the two players together could gain by switching to a best response against the averages: "
    "0 exactly at an equilibrium. The dashed line is the regret-matching bound Δ·√(|A|/T) on each player's average "
    "regret (Δ: the range of the player's payoffs, largest minus smallest; |A|: its number of actions; T: "
    "iterations), a worst-case guarantee rather than a prediction (real runs sit well below it); the grey dotted line "
    "shows the 1/√T rate. Thin black dots: nash_conv of the current strategies, the last iterate."
)
CONVERGENCE_FIXED = (
    "Against a fixed opponent only the row player learns: the black line is how much it could still gain by switching "
    "to a best response against that opponent. It falls to 0 as the learner's average becomes a best response. The "
    "dotted guide shows the 1/√T rate."
)
#: The regret-matching family's bound, against a fixed opponent.
CONVERGENCE_FIXED_BOUND = (
    "The dashed bound is Δ·√(|A|/T) (Δ: the range of the row player's payoffs; |A|: its number of actions; T: "
    "iterations)."
)


def convergence(algorithm: str, fixed: bool) -> str:
    """The matrix page's convergence caption for a rule (``MatrixVariant.algorithm``), in self-play or against a fixed
    opponent (``fixed``): every line it names is one the chart draws (``rmcore.plotting.matrix.convergence``), the
    current strategies' nash_conv in self-play only."""
    bound = RULE_BOUNDS.get(algorithm)
    if fixed:
        return f"{CONVERGENCE_FIXED} {CONVERGENCE_FIXED_BOUND if bound is None else bound}"
    if bound is None:
        return CONVERGENCE
    return f"{CONVERGENCE_OTHER_RULE} {RULE_CURRENT[algorithm]} {bound}"


CFR_FIXED_VALUE = (
    "The learner's average strategy's winnings per hand against the fixed player (thick), climbing to what a best "
    "response earns (dashed, exact); the dotted line is the equilibrium value. The gap between the two lines is what "
    "the locks give away."
)


def cfr_fixed(learner: int) -> str:
    """The convergence chart's caption against a fixed player: the matrix page's words, for a game tree."""
    return (
        f"Against a fixed opponent only player {learner} learns: the line is how much it could still gain by switching "
        "to a best response against that opponent. It falls to 0 as the learner's average becomes a best response."
    )


def trajectories(classic: bool, fixed: bool, poker: bool = True) -> str:
    """The trajectories chart's caption where the equilibrium family does not apply (another game, or a fixed
    player); ``poker``: a poker game, whose chart follows the openings card by card."""
    lines = (
        "Each line is one information set's average probability of betting."
        if classic
        else "Each line is one of player 1's opening decisions (one per card): its average probability of betting."
        if poker
        else "Each line is one action's average probability at player 1's first information set (the most likely "
        "actions, at most ten)."
    )
    return lines + (
        " The fixed player's lines stay where they are locked (or at the equilibrium); the learner's head for a best "
        "response."
        if fixed
        else " They settle on an equilibrium strategy; the exact one is under the charts."
    )


_REGRET_MEANING = (
    "An action's cumulative regret is how much better it would have done, summed over all iterations, than what was "
    "actually played"
)
REGRETS = _REGRET_MEANING + (
    ". Regret matching plays each positive (blue) one in proportion to its size; grey ones are not played."
)
_BY_PAYOFFS = "does not play by them but by cumulative payoffs; as a no-regret rule it keeps them growing more slowly "
_STEPS = "does not play by them: it steps along the payoff vector."
#: The regret chart's last sentence for a rule that does not play by its regrets.
NOT_BY_REGRETS = {
    "hedge": "Hedge " + _BY_PAYOFFS + "than the iterations.",
    "optimistic-hedge": "Optimistic Hedge " + _BY_PAYOFFS + "than the iterations.",
    "fictitious-play": "Fictitious play does not play by them: it plays a best reply to the opponent's average.",
    "gda": "GDA " + _STEPS,
    "optimistic-gda": "Optimistic GDA " + _STEPS,
    "sprm+": "SPRM+ does not play by them but by a regret state stepped by η and kept at a sum of at least 1.",
    "exrm+": "ExRM+ does not play by them but by a regret state stepped by η and kept at a sum of at least 1.",
    "swap-rm": "Swap RM does not play by them but by a regret per pair of actions (what k would have gained when "
    "j was played).",
    "internal-rm": "Hart & Mas-Colell's procedure does not play by them but by a regret per pair of actions (what k "
    "would have gained when j was played).",
}


_CLIPPED = (
    "An action's cumulative regret is how much better it would have done than what was actually played, summed over "
    "the iterations and clipped at zero after each one, so no bar is ever below 0"
)
#: The regret chart's caption for the rules that clip their regrets at zero.
CLIPPED_REGRETS = {
    "rm+": _CLIPPED + ". RM+ plays each positive (blue) one in proportion to its size; those at zero (grey) are not "
    "played.",
    "prm+": _CLIPPED + ". Predictive RM+ plays in proportion to these plus the last iteration's regret (its "
    "prediction of the next), clipped at zero: an action at zero here is played when its last regret was positive.",
}


def regrets(algorithm: str) -> str:
    """The regret chart's caption: what the bars are (summed, or clipped at zero), and whether the rule plays by
    them."""
    if algorithm in CLIPPED_REGRETS:
        return CLIPPED_REGRETS[algorithm]
    other = NOT_BY_REGRETS.get(algorithm)
    return REGRETS if other is None else f"{_REGRET_MEANING} (blue where positive). {other}"


RACE = (
    "One line per variant, lower is better; a sampled variant shows the median of its seeds with a band from the "
    "best to the worst seed. The guides show the 1/√T rate that plain regret matching guarantees and the faster 1/T "
    "that the best variants often reach in practice."
)
KUHN_EXPLOITABILITY = (
    "nash_conv (NashConv) is what the two players together gain by switching to a best response against the average "
    "policy: 0 at an equilibrium. In this two-player zero-sum game the exploitability, what a best response gains on "
    "average over both seats, is nash_conv / 2. Dashed lines are the current policy, which keeps moving; CFR's "
    "guarantee is for the average."
)
#: Added under a race chart that also draws the current policies.
RACE_CURRENT = (
    "Each variant is drawn twice in its colour: solid, its average policy (what CFR's guarantee is about); dashed, its "
    "current policy, the last iterate (for a sampled variant, its first seed's)."
)


#: The race table's ranking choices (the tree page's ``kuhn_rank_by``).
RANK_BY = {"average": "average policy", "current": "current policy"}
RANK_HELP = (
    "Which policy's nash_conv orders the race table: the average (what CFR guarantees to converge) or the "
    "current policy, the last iterate (what some variants, such as predictive CFR+, also bring close to equilibrium)."
)
MATRIX_LESSON_TITLE = "Lesson: eight rules, their averages and their last iterates"
MATRIX_LESSON_HELP = (
    "Sets up a race of RM, RM+, predictive RM+, Hedge, optimistic Hedge, fictitious play, GDA and optimistic GDA "
    "(step η = 0.1) on Rock-Paper-Scissors with a crash, from the uniform start, simultaneous updates, uniform "
    "averages, each drawn with its average (solid) and its current strategies (dashed); press Run. The link under "
    "the charts opens the same lesson in any browser."
)
#: What this library's race measured (``python -m rmcore race --game rps-crash --variants
#: rm,rm+,prm+,hedge,optimistic-hedge,fictitious-play,gda,optimistic-gda --iterations 1000`` and ``10000``): rule ->
#: ((average's nash_conv, current's) after 1,000 iterations, the same after 10,000). ``tests/test_rules_lesson.py``
#: holds the library to them, and to the two facts about the current strategies quoted with them.
MATRIX_LESSON_OBSERVED = {
    "rm": ((4.5e-2, 2.8), (1.6e-2, 2.0)),
    "rm+": ((3.2e-2, 0.84), (8.4e-3, 1.1)),
    "prm+": ((4.7e-3, 0.79), (4.3e-4, 0.96)),
    "hedge": ((3.3e-2, 1.5), (1.4e-2, 2.0)),
    "optimistic-hedge": ((6.7e-3, 4.0e-2), (6.9e-4, 9.1e-12)),
    "fictitious-play": ((4.5e-2, 2.0), (1.4e-2, 2.0)),
    "gda": ((6.9e-2, 1.2), (6.4e-2, 1.5)),
    "optimistic-gda": ((2.5e-3, 1.5e-13), (2.5e-4, 4.4e-16)),
}
#: The first iteration at which GDA's current strategies in the lesson put zero weight on an action.
MATRIX_LESSON_GDA_BOUNDARY = 18


def matrix_lesson_words() -> str:
    """The lines under the matrix lesson's race chart: what the curves show, with the numbers this library gave
    after 1,000 and 10,000 iterations."""
    seen = MATRIX_LESSON_OBSERVED

    def pair(rule: str, k: int) -> str:
        return " and ".join(f"{numbers[k]:.1f}" if numbers[k] >= 1 else f"{numbers[k]:.2g}" for numbers in seen[rule])

    return (
        "The lesson, as run here (nash_conv after 1,000 and 10,000 iterations). The averages: every no-regret rule's "
        f"converges, PRM+'s fastest of the regret-matching rules ({pair('prm+', 0)}; RM+ {pair('rm+', 0)}, RM "
        f"{pair('rm', 0)}), Hedge's at RM's pace ({pair('hedge', 0)}), the optimistic rules' faster still (optimistic "
        f"Hedge {pair('optimistic-hedge', 0)}, optimistic GDA {pair('optimistic-gda', 0)}); fictitious play's "
        f"converges too ({pair('fictitious-play', 0)}), and GDA's, with its fixed step, stalls ({pair('gda', 0)}). "
        "The current strategies set the rules apart: RM's, RM+'s and PRM+'s keep cycling (nash_conv "
        f"{pair('rm', 1)}; {pair('rm+', 1)}; {pair('prm+', 1)}), fictitious play jumps from corner to corner "
        f"({pair('fictitious-play', 1)}), Hedge's drift outward to a corner ({pair('hedge', 1)}), GDA's reach the "
        f"boundary at iteration {MATRIX_LESSON_GDA_BOUNDARY} and circle on it ({pair('gda', 1)}), and only the "
        f"optimistic rules' converge: optimistic Hedge's ({pair('optimistic-hedge', 1)}) and optimistic GDA's "
        f"({pair('optimistic-gda', 1)}), the last iterate at the equilibrium."
    )


#: The matrix page's last-iterate lesson (``ui/matrix/last_iterate.py``): its title (the button's words) and help.
LAST_ITERATE_TITLE = "Lesson: last iterates that settle, and those that never do"
LAST_ITERATE_HELP = (
    "Sets up a race on Cai et al.'s 3x3 game (value 1/4), from the uniform start: RM+ (simultaneous and alternating) "
    "and predictive RM+ against optimistic Hedge, optimistic GDA, smooth predictive RM+ and extragradient RM+ (step "
    "η = 0.1), each drawn with its average (solid) and its current strategies (dashed), the table ranked by the "
    "current strategies; press Run. The link under the chart opens the same lesson in any browser."
)
#: What this library's race measured (``python -m rmcore race --game cai-3x3 --variants
#: rm+,rm+/alternating,prm+,optimistic-hedge,optimistic-gda,sprm+,exrm+ --iterations 1000`` and ``10000``): variant
#: text -> ((average's nash_conv, current's) after 1,000 iterations, the same after 10,000).
#: ``tests/test_last_iterate_lesson.py`` holds the library to them.
LAST_ITERATE_OBSERVED = {
    "rm+": ((2.6e-2, 0.78), (7.4e-3, 0.58)),
    "rm+/alternating": ((3.3e-3, 0.31), (5.9e-4, 0.24)),
    "prm+": ((8.2e-3, 0.70), (8.9e-4, 0.65)),
    "optimistic-hedge": ((5.3e-3, 1.6e-2), (5.9e-4, 2.2e-7)),
    "optimistic-gda": ((3.2e-3, 8.6e-16), (3.2e-4, 8.3e-16)),
    "sprm+": ((3.4e-3, 5.3e-16), (3.4e-4, 4.7e-16)),
    "exrm+": ((3.0e-3, 7.2e-16), (3.0e-4, 2.8e-16)),
}


def last_iterate_words() -> str:
    """The lines under the last-iterate lesson's race chart: what the class sees, with the numbers this library gave
    after 1,000 and 10,000 iterations, and why."""
    seen = LAST_ITERATE_OBSERVED

    def pair(name: str, k: int) -> str:
        return " and ".join(f"{numbers[k]:.2g}" for numbers in seen[name])

    others = [numbers[1][0] for name, numbers in seen.items() if name != "rm+"]
    low, high = min(others), max(others)

    return (
        "The lesson, as run here (nash_conv after 1,000 and 10,000 iterations; the game's value is 1/4). Every "
        f"average converges (RM+ {pair('rm+', 0)}, PRM+ {pair('prm+', 0)}, SPRM+ {pair('sprm+', 0)}), but the last "
        "iterates part ways. RM+'s, alternating RM+'s and PRM+'s never settle: their dashed lines stay high "
        f"(RM+ {pair('rm+', 1)}; alternating {pair('rm+/alternating', 1)}; PRM+ {pair('prm+', 1)}), and after "
        "100,000 iterations they are still above 0.3. Smooth predictive RM+ and extragradient RM+ bring their last "
        f"iterates to the equilibrium, to machine precision within 1,000 iterations (SPRM+ {pair('sprm+', 1)}; "
        f"ExRM+ {pair('exrm+', 1)}), as optimistic GDA does ({pair('optimistic-gda', 1)}); optimistic Hedge's gets "
        f"there more slowly ({pair('optimistic-hedge', 1)}). Why: RM+ plays its regrets divided by their sum, and "
        "when that sum is near 0 a single iteration can swing the strategy across the simplex; the smoothed rules "
        "keep the sum at least 1, so each step moves the strategy a little, and with the prediction (SPRM+) or the "
        "look-ahead (ExRM+) the last iterate converges (Cai et al. 2023). Ranked by the current strategies, the "
        "table puts these four first, by many orders of magnitude; ranked by the averages the race is close: after "
        f"10,000 iterations all but simultaneous RM+ lie within about a factor of 3 ({low:.2g} to {high:.2g})."
    )


#: Added under a matrix race chart that also draws the current strategies.
MATRIX_RACE_CURRENT = (
    "Each variant is drawn twice in its colour: solid, the nash_conv of its average strategies (what a no-regret "
    "guarantee is about); dashed, that of its current strategies, the last iterate (a sampled variant's first seed's)."
)


#: The matrix page's ranking choices (its ``rank_by``) and what its current-strategies toggle draws.
MATRIX_RANK_BY = {"average": "average strategies", "current": "current strategies"}
MATRIX_RANK_HELP = (
    "Which profile's nash_conv orders the race table: the average strategies (what a no-regret rule's guarantee is "
    "about) or the current ones, the last iterate (which the optimistic rules also bring to the equilibrium)."
)
CURRENT_HELP = (
    "The strategies played at the latest iteration, beside their running average: their path on the simplex and, in a "
    "race, each variant's nash_conv of its current profile (dashed, in its colour). The table has a column for it in "
    "any self-play race."
)
#: Discounted CFR's three parameters on the tree page, symbol -> what it does.
DCFR_PARAMETERS = {
    "alpha": ("α", "After iteration t, positive cumulative regrets are multiplied by tᵅ / (tᵅ + 1)."),
    "beta": ("β", "After iteration t, negative cumulative regrets are multiplied by tᵝ / (tᵝ + 1)."),
    "gamma": ("γ", "Iteration t's policy enters the average with weight tᵞ (γ = 0: uniform)."),
}
#: PDCFR+'s and DCFR+'s parameters on the tree page (Xu et al. 2024, their code's order), symbol and what it does.
PLUS_PARAMETERS = {
    "pdcfr+": {
        "alpha": (
            "α",
            "Iteration t discounts the cumulative regrets by (t−1)ᵅ / ((t−1)ᵅ + 1) before adding its own.",
        ),
        "gamma": ("γ", "Iteration t's policy enters the average with weight tᵞ."),
    },
    "dcfr+": {
        "alpha": (
            "α",
            "Iteration t discounts the cumulative regrets by (t−1)ᵅ / ((t−1)ᵅ + 1.5) before adding its own (the "
            "authors' code's 1.5).",
        ),
        "gamma": ("γ", "Iteration t's policy enters the average with weight tᵞ."),
    },
}
#: The tree page's x-axis choices (its ``kuhn_x_axis``).
WORK_AXES = {"iterations": "iterations", "nodes": "nodes touched"}
WORK_AXIS_HELP = (
    "Iterations, or the work done: the nodes of the game tree each variant has entered so far. A full pass of CFR "
    "enters every node (18,900 an iteration on Leduc); an iteration of external sampling about 40, of outcome "
    "sampling about 12. Against the work, Monte Carlo CFR's cheap iterations are priced fairly."
)
MMD_ALPHA = (
    "Magnetic mirror descent's temperature α: its current policy converges to the α-regularised equilibrium (a quantal "
    "response equilibrium), not to a Nash equilibrium. Smaller α: nearer to Nash, and slower (its step size, "
    "OpenSpiel's default α / max|A|², shrinks with it). Rank the race by the current policy to score MMD by the "
    "iterate that converges."
)
DCFR_CAPTION = (
    "Discounted CFR (Brown & Sandholm 2019) forgets early iterations: the recommended α = 1.5, β = 0, γ = 2; "
    "α = β = γ = 1 is linear CFR. Other values name themselves in the legend."
)


def strategies(fixed: bool, algorithm: str = "rm", drawn: int | None = None) -> str:
    """The strategy chart's caption: in self-play both players chase each other, each rule in its own way; against a
    fixed opponent only one learns. ``drawn``: a game so large that the chart draws only the averages of that many
    most played actions a player (no current strategies, no thin lines)."""
    if drawn is not None:
        line = (
            f"Each line is the running average probability of one of the {drawn} most played actions of a player (a "
            "game this large draws no current strategies)"
        )
        if fixed:
            return line + ". The column player is fixed: the learner's average heads for a best response to it."
        return f"{line}; {AVERAGE_PLAY[_AVERAGE_OF.get(algorithm, 'converges')].split('; ', 1)[1]}"
    if not fixed:
        return f"{CURRENT_PLAY[algorithm]} {AVERAGE_PLAY[_AVERAGE_OF.get(algorithm, 'converges')]}"
    return (
        "Thin lines are the strategy the row player plays at each iteration, thick lines their running average. The "
        "column player is fixed: the learner's average heads for a best response to it, not for the equilibrium."
    )


KUHN_TRAJECTORIES = (
    "Each line is one information set's average probability of betting. Player 1 settles on one member of the "
    "equilibrium family (which α depends on the start and the variant); player 2's strategy is the same in all of them."
)
KUHN_CHECK = (
    "Bars are the average probability of betting; the dashed marks are where the equilibrium family with the bars' "
    "own α = P(bet | J) puts every other information set. Bars on their marks mean the average is an equilibrium."
)
KUHN_TREE = (
    "Chance deals one card to each player (six deals), then each decision is a pass or a bet (after a bet: fold or "
    "call); the numbers at the leaves are player 1's winnings. A player sees only their own card, so the two nodes "
    "joined by a dashed arc look the same to them: that pair is one information set, and CFR keeps one strategy (one "
    "colour) for both."
)

#: How a Kuhn information set is named: the card held, then the actions so far.
KUHN_INFOSET_NAMES = (
    "An information set is named by the card its player holds and the actions so far: **Jpb** is holding the Jack "
    "after a pass (p) and a bet (b); **K** is holding the King with nothing played yet."
)


#: What a page says, once per setting, when its solver is not compiled yet (rmcore.compile_in_background): by the
#: solvers' kernel status.
COMPILING_NOTICE = {
    "python": (
        "This server is compiling its solvers (once; the line under the iteration says for how long). Meanwhile this "
        "game runs as plain Python, far slower, with the same numbers."
    ),
    "compiling": (
        "This server is compiling its solvers (once; the line under the iteration says for how long). This game is "
        "too large to run as plain Python meanwhile: it starts when they are ready."
    ),
}


def kernels_failed(problem: str, runs: bool) -> str:
    """What a page says, once per setting, when this server could not prepare its solvers' compiled code
    (``problem``: why, as ``rmcore.kernels_failed`` says it); ``runs``: whether this game runs as plain Python."""
    then = (
        "This game runs as plain Python instead, far slower, with the same numbers."
        if runs
        else "This game is too large to run as plain Python, so it cannot run on this server."
    )
    return f"This server could not prepare its compiled solvers: {markdown(problem)}. {then} Its log says more."


#: The line under the iteration on a server that could not prepare the run's compiled solver.
NO_COMPILED_SOLVER = "no compiled solver on this server"


def waiting_for_kernels(problem: str | None) -> str:
    """Iteration 0 of a running game too large for plain Python: it waits for its solver's compile, or (``problem``
    says why) it cannot run on this server."""
    if problem is None:
        return WAITING_FOR_COMPILE
    return (
        "This game cannot run on this server: it is too large to run as plain Python, and the server could not "
        f"prepare its compiled solvers ({markdown(problem)})."
    )


def kernel_note(seconds: float | None, problem: str | None, family: str) -> str | None:
    """The line under the iteration: how long ``family`` has compiled so far (``seconds``), that this server has no
    compiled solver (``problem``), or nothing."""
    if problem is not None:
        return NO_COMPILED_SOLVER
    return None if seconds is None else compiling(seconds, family)


#: What each kernel family serves, as the line under the iteration names it while it compiles.
KERNEL_FAMILIES = {"matrix": "the matrix-game solver", "tree": "the game-tree solver"}


#: Iteration 0 of a running game that waits for its solver's compile (too large to run as plain Python meanwhile).
WAITING_FOR_COMPILE = (
    "Running: this game's solver is compiling (once per server; the line under the iteration says for how long). "
    "The first iterations show the moment it is ready."
)


def compiling(seconds: float, family: str) -> str:
    """The line under the iteration while a kernel family compiles in the background: what, and how long so far (as
    measured now)."""
    return f"compiling {KERNEL_FAMILIES.get(family, family)} (once per server): {seconds:.0f} s so far"


#: How an information set of the bigger games is named: the cards seen, then the betting, round by round.
POKER_INFOSET_NAMES = (
    "An information set is named by the cards its player sees and the betting so far: **K♥ Q♠ crrc/cr** is holding "
    "the King of hearts with the Queen of spades on the table, after check (c), raise (r), re-raise (r) and call (c) "
    "in the first round (the slash ends it) and check, raise in the second. In Kuhn poker p is pass and b bet."
)


#: The tree page's lesson: its title (the button's words) and the variants it races, all alternating.
LESSON_TITLE = "Lesson: CFR, CFR+, DCFR, PCFR+, PDCFR+, DCFR+ and their last iterates"
#: The lesson's game value while its linear program is still being solved.
LESSON_VALUE_PENDING = "under the charts, once the linear program is solved"
LESSON_HELP = (
    "Sets up a race of CFR, CFR+, discounted CFR (α = 1.5, β = 0, γ = 2), predictive CFR+, predictive discounted CFR+ "
    "(α = 2.3, γ = 5) and DCFR+ (α = 1.5, γ = 4), alternating updates, each drawn with its average (solid) and its "
    "current policy (dashed); press Run. The link under the charts opens the same lesson in any browser."
)
#: What this library's race measured (``python -m rmcore race --game kuhn --variants
#: cfr,cfr+,discounted,pcfr+,pdcfr+,dcfr+ --iterations 100`` and ``1000``; the same with ``--game leduc``): variant ->
#: ((average, current) after 100 iterations, the same after 1,000). ``tests/test_tree_lesson.py`` holds the library to
#: them.
LESSON_OBSERVED = {
    "kuhn": {
        "cfr": ((0.016, 0.24), (1.9e-3, 0.10)),
        "cfr+": ((2.4e-3, 0.081), (1.7e-4, 0.039)),
        "discounted": ((3.3e-3, 0.061), (2.9e-4, 0.047)),
        "pcfr+": ((4.6e-5, 1.8e-12), (4.7e-8, 0.0)),
        "pdcfr+": ((2.2e-7, 2.9e-9), (2.3e-13, 8.3e-17)),
        "dcfr+": ((3.2e-3, 0.044), (2.3e-4, 0.027)),
    },
    "leduc": {
        "cfr": ((0.19, 1.9), (0.024, 1.6)),
        "cfr+": ((0.027, 0.096), (5.1e-4, 0.016)),
        "discounted": ((0.016, 0.27), (2.9e-4, 0.030)),
        "pcfr+": ((0.040, 0.31), (1.4e-3, 0.065)),
        "pdcfr+": ((0.035, 0.39), (1.8e-3, 0.086)),
        "dcfr+": ((0.013, 0.18), (3.4e-4, 0.053)),
    },
}


def exploitability(metrics) -> str:
    """The tile's help beside a two-player zero-sum game's nash_conv: its half, the exploitability, labelled so."""
    return (
        "nash_conv (NashConv) is the sum of the players' best-response gains. In a two-player zero-sum game the "
        f"exploitability is nash_conv / 2: here {metrics.exploitability:.3e}."
    )


def _pair(numbers: tuple, k: int) -> str:
    """The 100- and 1,000-iteration values of one measure (k = 0: the average, 1: the current policy)."""
    return " and ".join("exactly 0" if pair[k] == 0 else f"{pair[k]:.2g}" for pair in numbers)


def lesson_words(game: str, value: str) -> str:
    """The lines under the lesson's chart on ``game`` ("kuhn" or "leduc"): what the curves show, with the numbers
    this library gave after 100 and 1,000 iterations, and the game's value for player 1 (``value``, in words)."""
    seen = LESSON_OBSERVED[game]
    if game == "kuhn":
        words = (
            "The lesson, as run here (nash_conv after 100 and 1,000 iterations): the predictive variants' "
            f"averages converge fastest, PDCFR+'s ({_pair(seen['pdcfr+'], 0)}) ahead of PCFR+'s "
            f"({_pair(seen['pcfr+'], 0)}); then CFR+ {_pair(seen['cfr+'], 0)}, DCFR+ {_pair(seen['dcfr+'], 0)}, DCFR "
            f"{_pair(seen['discounted'], 0)}, CFR {_pair(seen['cfr'], 0)}. Their last iterates are equilibria to "
            f"machine precision by 1,000 iterations (PCFR+ {_pair(seen['pcfr+'], 1)}, PDCFR+ "
            f"{_pair(seen['pdcfr+'], 1)}: their dashed lines fall far below all the others). The other current "
            f"policies keep moving (CFR+ {_pair(seen['cfr+'], 1)}, DCFR+ {_pair(seen['dcfr+'], 1)}, DCFR "
            f"{_pair(seen['discounted'], 1)}): for them only the average converges, as CFR's theory promises."
        )
    else:
        words = (
            "The lesson, as run here (nash_conv after 100 and 1,000 iterations): on Leduc the discounted "
            f"variants' averages lead, DCFR+ ({_pair(seen['dcfr+'], 0)}) and DCFR ({_pair(seen['discounted'], 0)}), "
            f"then CFR+ ({_pair(seen['cfr+'], 0)}), PCFR+ ({_pair(seen['pcfr+'], 0)}) and PDCFR+ "
            f"({_pair(seen['pdcfr+'], 0)}), CFR far behind ({_pair(seen['cfr'], 0)}). The predictive variants' last "
            f"iterates do not collapse as on Kuhn (PCFR+ {_pair(seen['pcfr+'], 1)}, PDCFR+ "
            f"{_pair(seen['pdcfr+'], 1)}); "
            f"CFR+'s current policy is the closest ({_pair(seen['cfr+'], 1)}). Farina, Kroer & Sandholm (2021) found "
            "PCFR+ fastest on most, not all, of their games: which variant wins, and whether a last iterate settles, "
            "depends on the game and on how many iterations are run."
        )
    return f"{words} The game value for player 1 is {value}."


def efg_notes(notes: tuple[str, ...], shown: int = 3) -> str:
    """Under the tree page's uploader: what the .efg reader assumed (``rmcore.read_efg``'s notes), the first ``shown``
    of them and how many more."""
    hidden = len(notes) - shown
    more = f" (and {hidden:,} more {'node' if hidden == 1 else 'nodes'} alike)" if hidden > 0 else ""
    return "Read as: " + "; ".join(markdown(note) for note in notes[:shown]) + more + "."


#: The tree page's two values for player 1: what the average policies earn against each other (Metrics.game_value),
#: and the game's own value (the equilibrium's), which the first approaches in self-play.
AVERAGE_VALUE = "average policies' value for player 1"
AVERAGE_VALUE_SHORT = "average policies' value"
GAME_VALUE = "game value for player 1"


def average_value_help(learner: int | None) -> str:
    """The help of the average policies' value: what it is, and what it approaches (``learner``: the learning player
    against a fixed one, or None in self-play)."""
    words = (
        "Player 1's expected winnings per hand when both players play their average policies (at the replay's "
        "iteration, when replaying); none before the first iteration."
    )
    if learner is None:
        return words + " In self-play it approaches the game value."
    return words + (
        f" Against the fixed player it approaches what player {learner}'s best response earns, not the game value."
    )


def game_value_help(classic: bool, known: bool) -> str:
    """The help of the game value: where it comes from."""
    if classic:
        return "Kuhn poker's value for player 1 is −1/18 = −0.05556 (Kuhn 1950): what an equilibrium earns."
    if known:
        return "What an equilibrium earns player 1, from the exact answer (sequence-form linear program, HiGHS)."
    return "What an equilibrium earns player 1: the exact answer is being computed in the background."


#: The tree page's OpenSpiel game: how to get OpenSpiel where it is missing, and what the box takes.
OPENSPIEL_MISSING = (
    "OpenSpiel is not installed on this server. `pip install open_spiel` installs it (Linux and macOS, Python 3.10 "
    "and later); restart the app, and any two-player zero-sum OpenSpiel game can be typed here by name."
)
OPENSPIEL_HELP = (
    "A game's name with its parameters, as pyspiel.load_game takes it: kuhn_poker, leduc_poker, "
    "liars_dice(dice_sides=4), goofspiel(num_cards=4,imp_info=True,points_order=descending), universal_poker(...). "
    "It is walked once into a game tree (rmcore.from_openspiel): zero-sum, listed chance outcomes and "
    "information-state strings; at most 300,000 nodes here. A game of simultaneous moves is made turn-based. It is "
    "loaded in a process of its own, stopped if OpenSpiel crashes, takes too long or too much memory; a string that "
    "names a file is refused."
)


def _count(count: int, noun: str) -> str:
    """``count`` of ``noun`` (its plural ending in -a when it ends in -um: "equilibrium", "equilibria")."""
    plural = noun[:-2] + "a" if noun.endswith("um") else noun + "s"
    return f"{count:,} {noun if count == 1 else plural}"


def nash_found(found, count: int, shown: int) -> str:
    """How a general-sum game's Nash equilibria were found (``rmcore.NashEquilibria``), how many are tabled, and
    which of them make up a continuum (its components)."""
    if found.method == "Lemke-Howson":
        words = (
            "One Nash equilibrium, by Lemke-Howson (the game is larger than 8x8, where enumerating them all takes too "
            "long); it may have others."
        )
    elif not found.continua:
        if count == 1:
            words = "1 Nash equilibrium, the game's only one, by vertex enumeration."
        else:
            words = f"All {count:,} Nash equilibria, by vertex enumeration; each is isolated."
    else:
        parts = []
        for k, members in enumerate(found.components):
            if len(members) > 1:
                listed = ", ".join(str(m + 1) for m in members)
                parts.append(f"component {k + 1} (equilibria {listed}) is a continuum")
        isolated = len(found.components) - found.continua
        words = (
            f"{_count(count, 'extreme Nash equilibrium')} by vertex enumeration, in "
            f"{_count(len(found.components), 'component')}: {'; '.join(parts)}: every mix of its row strategies "
            "against every mix of its column strategies is an equilibrium too"
            + (f"; {_count(isolated, 'equilibrium')} {'is' if isolated == 1 else 'are'} isolated." if isolated else ".")
        )
    return words + (f" The first {shown} are tabled." if count > shown else "")


def nash_distance(distance: float, component: int, continuum: bool, nearest: int) -> str:
    """The sentence under the Nash equilibria: how far the running averages are from the set of equilibria (its
    nearest point, in component ``component``; ``nearest`` is the listed equilibrium nearest them)."""
    where = (
        f"whose nearest point lies in the continuum of component {component}"
        if continuum
        else f"whose nearest point is equilibrium {nearest}"
    )
    return (
        f"The running averages are **{distance:.4f}** from the set of Nash equilibria, {where}: the most probability "
        "either player would have to move to reach it (half the L1 distance; 0 on the set, at most 1)."
    )


#: The matrix page's subtitle, by the rule it runs: how the rule plays, and what its averages do.
RULE_PLAYS = {
    "rm": "Regret matching plays each action in proportion to its positive cumulative regret.",
    "rm+": "RM+ plays each action in proportion to its cumulative regret, which it clips at zero after every "
    "iteration.",
    "prm+": "Predictive RM+ plays in proportion to its clipped cumulative regret plus the last iteration's regret, "
    "counted once more as a prediction of the next.",
    "hedge": "Hedge plays each action in proportion to exp(η × its cumulative payoff).",
    "optimistic-hedge": "Optimistic Hedge plays in proportion to exp(η × (cumulative payoff + last payoff)): the last "
    "payoff counted twice.",
    "fictitious-play": "Fictitious play plays a best reply to the opponent's average strategy so far.",
    "gda": "Projected gradient ascent steps η along its payoff vector and projects back onto the simplex.",
    "optimistic-gda": "Optimistic gradient ascent steps η along twice its last payoff vector minus the one before, and "
    "projects back onto the simplex.",
    "sprm+": "Smooth predictive RM+ plays in proportion to a regret state stepped by η (the last regret counted once "
    "more as a prediction) and kept at a sum of at least 1.",
    "exrm+": "Extragradient RM+ looks one step of η ahead, then steps its regret state (kept at a sum of at least 1) "
    "with the regrets found there, and plays in proportion to it.",
    "swap-rm": "Swap RM (Blum & Mansour 2007) runs one regret matcher per action and plays the stationary "
    "distribution of their Markov matrix; its joint play approaches the correlated equilibria.",
    "internal-rm": "Hart & Mas-Colell's procedure (2000) switches from its last action j to k with probability R(j→k)⁺ "
    "/ (μt), and stays otherwise; its joint play approaches the correlated equilibria.",
}
_SUBTITLE_AVERAGES = {
    "converges": "In zero-sum self-play the *average* strategies approach a Nash equilibrium.",
    "approaches": "In zero-sum self-play the *average* strategies approach a Nash equilibrium, to within a distance "
    "that shrinks with η.",
    "both": "In zero-sum self-play both the *average* and the *current* strategies approach a Nash equilibrium.",
    "start": "In zero-sum self-play the *average* strategies approach a Nash equilibrium, and from some starts the "
    "*current* ones too.",
}


def matrix_subtitle(algorithm: str) -> str:
    """The line under the matrix page's title: how the rule the page runs plays, and what its averages do."""
    return f"{RULE_PLAYS[algorithm]} {_SUBTITLE_AVERAGES[_AVERAGE_OF.get(algorithm, 'converges')]}"


#: The end of a lesson's words under its chart, and the line under the charts that carries the link.
LESSON_LINK_BELOW = "This lesson's link is under the charts."


def lesson_link(url: str) -> str:
    """The line under the charts while a lesson runs: its link, as a link (the address itself is 600 characters)."""
    return f"[This lesson's link]({url}) opens the same lesson in any browser: copy it for the class."


#: Kuhn on sliders: Kuhn poker's catalogue entry with other cards and bets (the page's choice, not another game).
SLIDERS_WORDS = (
    "the same betting as Kuhn poker with 3 to 13 cards and a bet of 0.5 to 4 antes; the exact value and equilibrium "
    "come from the sequence-form linear program and follow the sliders."
)

#: What the page does on Kuhn poker and on Leduc hold'em, after their rules.
KUHN_CFR = (
    "Counterfactual regret minimisation (Zinkevich et al. 2007) runs regret matching at each of the 12 information "
    "sets; its average strategy approaches the equilibrium family, where player 1's game value is −1/18."
)
LEDUC_VIEW = "Its 936 information sets are too many to table: a heat map and an explorer show them."
