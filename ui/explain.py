"""Every on-screen word about an algorithm, a game or a chart: the algorithms' names, what the tree page teaches with
each of its games, and one or two lines under each chart on what it shows, for students. Text only: no Streamlit, no
math code. (What a game is and how it is played is the catalogue's, ``rmcore.TREE_GAMES``: one description per game.)"""

#: What the tree page does with each of its first three choices, after the game's own description (the catalogue's):
#: by the page's choice id (``ui/trees/games.py``: ``CLASSIC``).
TREE_GAME_LESSONS = {
    "kuhn": (
        "Three cards, J < Q < K, and a bet of 1. Counterfactual regret minimisation (Zinkevich et al. 2007) runs "
        "regret matching at each of the 12 information sets; its average strategy approaches the equilibrium family, "
        "where player 1's game value is −1/18. One iteration is shown step by step under the run controls."
    ),
    "sliders": (
        "The same betting as Kuhn poker with more cards and another bet size: the exact value and equilibrium come "
        "from the sequence-form linear program and follow the sliders."
    ),
    "leduc": "Its 936 information sets are too many to table: a heat map and an explorer show them.",
}
#: The game control's help for the first three choices (every other choice's is the catalogue's one line).
TREE_GAME_CHOICES = {
    "kuhn": "3 cards, the classic (value −1/18), taught step by step.",
    "sliders": "3 to 13 cards and a bet of 0.5 to 4 antes; the exact value and equilibrium follow them.",
    "leduc": "6 cards, two betting rounds and a public card (OpenSpiel's leduc_poker, 936 information sets).",
}
#: The game control's help for the user's own game.
TREE_GAME_UPLOAD = "any two-player zero-sum game tree, from a Gambit .efg file."

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
}
#: The bound each rule's regret chart draws (the others have none drawn: fictitious play is not a no-regret rule).
BOUND_NAMES = {
    "rm": "Δ·√(|A|/T)",
    "rm+": "Δ·√(|A|/T)",
    "prm+": "Δ·√(|A|/T)",
    "hedge": "(ln|A|/η + ηTΔ²/8)/T",
}
ETA = (
    "The step size η of Hedge and GDA, on a log scale. Hedge plays x ∝ exp(η·cumulative payoff): a small η moves "
    "slowly and smoothly, a large one jumps to the best reply (fictitious play). GDA steps η along the payoff vector "
    "and projects back onto the simplex. Hedge's regret bound ln|A|/η + ηTΔ²/8 is smallest at η = √(8 ln|A| / T)/Δ."
)
#: What the convergence chart shows for a rule besides regret matching (appended to its caption).
RULE_NOTES = {
    "hedge": "Dashed: Hedge's bound (ln|A|/η + ηTΔ²/8)/T on the average regret. Dotted: nash_conv of the current "
    "strategies, which cycle.",
    "optimistic-hedge": "Dotted: nash_conv of the current strategies, which converge too (last-iterate convergence). "
    "No regret bound is drawn.",
    "fictitious-play": "Dotted: nash_conv of the current strategy, a pure best reply. Fictitious play is not a "
    "no-regret rule: it has no regret bound.",
    "gda": "Dotted: nash_conv of the current strategies, which spiral out to the boundary. No regret bound is drawn "
    "(GDA's O(√T) needs a step shrinking as 1/√T).",
    "optimistic-gda": "Dotted: nash_conv of the current strategies, which converge. No regret bound is drawn.",
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
}
_AVERAGE_OF = {"hedge": "approaches", "gda": "approaches", "optimistic-hedge": "both", "optimistic-gda": "both"}
NO_SIMPLEX = "The simplex picture is drawn for players with 3 actions, and the unit square for 2x2 games."
SIMPLEX = (
    "Each corner is one action played for sure; a point inside mixes them. The line is the average strategy over time, "
    "spiralling in towards the equilibrium (the star)."
)
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
    "iterations), a worst-case guarantee rather than a prediction (real runs sit well below it); the dotted line "
    "shows the 1/√T rate."
)
CONVERGENCE_FIXED = (
    "Against a fixed opponent only the row player learns: the black line is how much it could still gain by switching "
    "to a best response against that opponent. It falls to 0 as the learner's average becomes a best response. The "
    "dashed bound is Δ·√(|A|/T) (Δ: the range of the row player's payoffs; |A|: its number of actions; T: iterations)."
)
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
}


def regrets(algorithm: str) -> str:
    """The regret chart's caption: what the bars are, and whether the rule plays by them."""
    other = NOT_BY_REGRETS.get(algorithm)
    return REGRETS if other is None else f"{_REGRET_MEANING} (blue where positive). {other}"


RACE = (
    "One line per variant, lower is better; a sampled variant shows the median of its seeds with a band from the "
    "best to the worst seed. The guides show the 1/√T rate that plain regret matching guarantees and the faster 1/T "
    "that the best variants often reach in practice."
)
KUHN_EXPLOITABILITY = (
    "Exploitability is how much a best response gains, on average over both seats, against the average policy: 0 at an "
    "equilibrium. Dashed lines are the current policy, which keeps moving; CFR's guarantee is for the average."
)
#: Added under a race chart that also draws the current policies.
RACE_CURRENT = (
    "Each variant is drawn twice in its colour: solid, its average policy (what CFR's guarantee is about); dashed, its "
    "current policy, the last iterate (for a sampled variant, its first seed's)."
)


def cfr_averaging(variant) -> str:
    """How a CFR variant (an ``rmcore.CFRVariant``) averages its policies, in a legend's words: iteration t's policy
    enters the average with weight 1, t, t² or, for discounted CFR, t^γ (``rmcore.CFRSolver``'s docstring)."""
    if variant.algorithm == "discounted":
        gamma = variant.parameters["gamma"]
        power = {0.0: None, 1.0: "t", 2.0: "t²"}.get(gamma, f"t^{gamma:g}")
        return "uniform average" if power is None else f"{power}-weighted average"
    return {"cfr+": "t-weighted average", "linear": "t-weighted average", "pcfr+": "t²-weighted average"}.get(
        variant.algorithm, "uniform average"
    )


def cfr_curve_name(variant, iterate: str) -> str:
    """A convergence curve's legend entry: variant, updates, averaging and which iterate (``"average"`` or
    ``"current"``), e.g. ``"pcfr+ · alternating · t²-weighted average"`` and
    ``"pcfr+ · alternating · current (last iterate)"``."""
    which = cfr_averaging(variant) if iterate == "average" else "current (last iterate)"
    return f"{variant.label} · {which}"


#: The race table's ranking choices (the tree page's ``kuhn_rank_by``).
RANK_BY = {"average": "average policy", "current": "current policy"}
RANK_HELP = (
    "Which policy's exploitability orders the race table: the average (what CFR guarantees to converge) or the "
    "current policy, the last iterate (what some variants, such as predictive CFR+, also bring close to equilibrium)."
)
MATRIX_LESSON_TITLE = "Lesson: eight rules, their averages and their last iterates"
MATRIX_LESSON_HELP = (
    "Sets up a race of RM, RM+, predictive RM+, Hedge, optimistic Hedge, fictitious play, GDA and optimistic GDA "
    "(step η = 0.1) on Rock-Paper-Scissors with a crash, from the uniform start, simultaneous updates, uniform "
    "averages, each drawn with its average (solid) and its current strategies (dashed); press Run. The link under "
    "the chart opens the same lesson in any browser."
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


#: Added under a matrix race chart that also draws the current strategies.
MATRIX_RACE_CURRENT = (
    "Each variant is drawn twice in its colour: solid, the nash_conv of its average strategies (what a no-regret "
    "guarantee is about); dashed, that of its current strategies, the last iterate (a sampled variant's first seed's)."
)


def matrix_curve_name(variant, iterate: str) -> str:
    """A matrix race curve's legend entry: the variant's label (algorithm and step, sampling, updates, averaging) and
    which iterate (``"average"`` or ``"current"``): ``"rm+ · expected · simultaneous · linear average"``,
    ``"rm+ · expected · simultaneous · linear · current (last iterate)"``."""
    return f"{variant.label} average" if iterate == "average" else f"{variant.label} · current (last iterate)"


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
    "alpha": ("α", "After iteration t, positive cumulative regrets are multiplied by t^α / (t^α + 1)."),
    "beta": ("β", "After iteration t, negative cumulative regrets are multiplied by t^β / (t^β + 1)."),
    "gamma": ("γ", "Iteration t's policy enters the average with weight t^γ (γ = 0: uniform)."),
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


def strategies(fixed: bool, algorithm: str = "rm") -> str:
    """The strategy chart's caption: in self-play both players chase each other, each rule in its own way; against a
    fixed opponent only one learns."""
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

#: What each kernel family serves, as the line under the iteration names it while it compiles.
KERNEL_FAMILIES = {"matrix": "the matrix-game solver", "tree": "the game-tree solver"}


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
LESSON_TITLE = "Lesson: CFR, CFR+, DCFR, PCFR+ and PCFR+'s last iterate"
LESSON_HELP = (
    "Sets up a race of CFR, CFR+, discounted CFR (α = 1.5, β = 0, γ = 2) and predictive CFR+, alternating updates, "
    "each drawn with its average (solid) and its current policy (dashed); press Run. The link under the chart opens "
    "the same lesson in any browser."
)
#: What this library's race measured (``python -m rmcore race --game kuhn --variants cfr,cfr+,discounted,pcfr+
#: --iterations 100`` and ``1000``; the same with ``--game leduc``): variant -> ((average, current) after 100
#: iterations, the same after 1,000). ``tests/test_tree_lesson.py`` holds the library to them.
LESSON_OBSERVED = {
    "kuhn": {
        "cfr": ((8.2e-3, 0.12), (9.4e-4, 0.052)),
        "cfr+": ((1.2e-3, 0.041), (8.7e-5, 0.019)),
        "discounted": ((1.7e-3, 0.030), (1.5e-4, 0.024)),
        "pcfr+": ((2.3e-5, 9.1e-13), (2.4e-8, 0.0)),
    },
    "leduc": {
        "cfr": ((0.096, 0.93), (0.012, 0.79)),
        "cfr+": ((0.013, 0.048), (2.6e-4, 7.8e-3)),
        "discounted": ((7.8e-3, 0.13), (1.4e-4, 0.015)),
        "pcfr+": ((0.020, 0.16), (7.1e-4, 0.033)),
    },
}


def _pair(numbers: tuple, k: int) -> str:
    """The 100- and 1,000-iteration values of one measure (k = 0: the average, 1: the current policy)."""
    return " and ".join("exactly 0" if pair[k] == 0 else f"{pair[k]:.2g}" for pair in numbers)


def lesson_words(game: str, value: str) -> str:
    """The lines under the lesson's chart on ``game`` ("kuhn" or "leduc"): what the curves show, with the numbers
    this library gave after 100 and 1,000 iterations, and the game's value for player 1 (``value``, in words)."""
    seen = LESSON_OBSERVED[game]
    if game == "kuhn":
        words = (
            "The lesson, as run here (exploitability after 100 and 1,000 iterations): PCFR+'s average converges "
            f"fastest ({_pair(seen['pcfr+'], 0)}; CFR+ {_pair(seen['cfr+'], 0)}, DCFR {_pair(seen['discounted'], 0)}, "
            f"CFR {_pair(seen['cfr'], 0)}), and PCFR+'s last iterate is an equilibrium to machine precision within 100 "
            f"iterations ({_pair(seen['pcfr+'], 1)}: its dashed line drops off the log axis). The other current "
            f"policies keep moving (CFR+ {_pair(seen['cfr+'], 1)}, DCFR {_pair(seen['discounted'], 1)}): for them only "
            "the average converges, as CFR's theory promises."
        )
    else:
        words = (
            "The lesson, as run here (exploitability after 100 and 1,000 iterations): on Leduc DCFR's average leads "
            f"({_pair(seen['discounted'], 0)}), then CFR+ ({_pair(seen['cfr+'], 0)}) and PCFR+ "
            f"({_pair(seen['pcfr+'], 0)}), CFR far behind ({_pair(seen['cfr'], 0)}). PCFR+'s last iterate does not "
            f"collapse as on Kuhn ({_pair(seen['pcfr+'], 1)}); CFR+'s current policy is closer "
            f"({_pair(seen['cfr+'], 1)}). Farina, Kroer & Sandholm (2021) found PCFR+ fastest on most, not all, games: "
            "which variant wins, and whether a last iterate settles, depends on the game."
        )
    return f"{words} The game value for player 1 is {value}."
