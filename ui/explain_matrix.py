"""Every on-screen word of the matrix page's own widgets and panels (``ui/matrix/``): the game's inputs and what they
say, the opponent, the start, the race, the numbers above the charts, the exact answer beside the averages, the
field lessons and the strategy chart's export. Text only: no Streamlit. (What each rule does and what each chart
shows is ``ui/explain.py``'s; what a field is, ``ui/explain_fields.py``'s.)"""

from __future__ import annotations

from .escape import markdown

# -- the game --------------------------------------------------------------------------------------

PRESET_PLACEHOLDER = "your own game (pick a preset to replace it)"
PRESET_HELP = "Pick a game to start from; then edit it below."
ZERO_SUM_HELP = "On: the column player gets minus the row player's payoff. Off: edit both payoff matrices."
ROW_PAYOFFS = "Row player's payoffs A (rows: row actions, columns: column actions)"
COL_PAYOFFS = "Column player's payoffs B"
APPLY_HELP = "Edits take effect only when applied, so a half-typed matrix never restarts a run."
NOTHING_CHANGED = "Nothing was changed, so the run goes on."
NFG_DOWNLOAD_HELP = (
    "The game being solved, with its action names, in Gambit's payoff format: Gambit and rmcore read it back exactly "
    "(OpenSpiel reads only strategy counts: rmcore.write_nfg(game, for_openspiel=True))."
)


def now_solving(name: str, shape: tuple[int, ...], zero_sum: bool) -> str:
    """The line that names the game being solved (``name`` as typed: escaped here); a game of three players or more
    says how many."""
    kind = "zero-sum" if zero_sum else "general-sum"
    players = f"{len(shape)} players, " if len(shape) > 2 else ""
    return f"Now solving: **{markdown(name) or 'your game'}** ({players}{'x'.join(map(str, shape))}, {kind})"


def nfg_expander(limit: int) -> str:
    return f"Gambit .nfg file: upload (up to {limit}x{limit}) or download"


def action_count_refused(label: str, limit: int, typed: float) -> str:
    """A number of actions that is not a whole number from 1 to ``limit``."""
    return f"{label} must be a whole number from 1 to {limit}; {typed:g} is not. Nothing changed."


def not_applied(error: Exception) -> str:
    """The editor's edits were refused (``error`` says why, and may quote the user: escaped here)."""
    return f"Not applied: {markdown(str(error))}. The last valid game keeps running."


def not_loaded(error: Exception, keeps_running: bool = True) -> str:
    """A file was refused (``error`` says why, and may quote the file: escaped here)."""
    return f"Not loaded: {markdown(str(error))}" + (". The last valid game keeps running." if keeps_running else "")


def loaded_assuming(notes: list[str]) -> str:
    """A CSV was read, on these assumptions (``notes``, which may quote the file: escaped here)."""
    return f"Loaded, assuming: {markdown('; '.join(notes))}."


def csv_row_label(megabytes: int) -> str:
    return (
        f"Row player's payoffs (CSV of at most {megabytes} MB: numbers, optionally with a header line and a first "
        "column of names; commas, semicolons or tabs)"
    )


def csv_col_label(megabytes: int) -> str:
    return f"Column player's payoffs (optional, at most {megabytes} MB; leave empty for zero-sum)"


def too_large_to_edit(shape: tuple[int, int], limit: int) -> str:
    """Under the editor's sizes and names, for a game larger than the editor's grid."""
    return (
        f"This {shape[0]}x{shape[1]} game is larger than the {limit}x{limit} the editor holds cell by cell: its sizes "
        "and action names are shown, and its payoffs are edited in its file (upload it again to load the change)."
    )


def nfg_label(megabytes: int) -> str:
    return (
        f"A two-player game in Gambit's .nfg format (at most {megabytes} MB; strategic form, with payoffs or outcomes)"
    )


# -- the opponent, the rule, the start -------------------------------------------------------------

OPPONENT_HELP = (
    "Self-play: both players learn. Fixed: only the row player learns, against the mix you set; its average "
    "approaches a best response."
)
ZERO_WEIGHTS = "All weights are zero: give at least one action a positive weight. Keeping the last valid opponent."
START_HELP = (
    "Regret matching's first strategy. From uniform play a symmetric game such as RPS is already at its equilibrium "
    "and nothing moves; starting elsewhere shows the dynamics. Realised as initial regrets R₀ = Δ·x₀ (one iteration's "
    "worth), so the first iteration plays exactly x₀."
)
NO_SUGGESTED_START = "This game's uniform start is not its equilibrium, so it suggests none: learning starts uniform."


def too_many_for_sliders(limit: int, actions: int) -> str:
    """A fixed opponent is set with one slider per column action: at most ``limit`` of them."""
    return (
        f"A fixed opponent is set with sliders for up to {limit} column actions; this game has {actions}. Using "
        "self-play."
    )


def check_help(paper: str, reference: str, tolerance: str, tests: list[str]) -> str:
    """A rule's row of the status table (``rmcore.verification``), as its "Checked" line's help."""
    return (
        f"Paper: {paper}. Checked against {reference}; {tolerance} ({', '.join(tests)}). The table of every "
        "algorithm: docs/reference/algorithms.md."
    )


def only_form(name: str, forms: str) -> str:
    """A rule that runs in one form only (``forms``: "expected sampling and simultaneous updates", say)."""
    return f"{name} evaluates both players' regrets at one profile, twice an iteration: it runs with {forms}."


def first_strategy(player: str) -> str:
    """The heading of a player's start sliders (``player``: "row player" or "column player")."""
    return f"**{player.capitalize()}'s first strategy** (weights, normalised)"


def start_weight_help(player: str, action: str) -> str:
    """A start slider's help (``action`` as typed: escaped here)."""
    return f"The {player}'s starting weight on {markdown(action)}."


def start_weights_zero(player: str) -> str:
    return f"All of the {player}'s start weights are zero; starting uniform instead."


# -- the race and the display ----------------------------------------------------------------------

RACE_PLACEHOLDER = "none: one variant, drawn in detail"
RACE_HELP = "Runs every chosen variant on the same game, for the same iterations, and overlays how fast each converges."
SEEDS_HELP = "A sampled variant runs once per seed; the race draws the median and the min-max band."
SHOW_CURRENT = "Show the current strategies (last iterate)"
SPACE_LAYERS_HELP = (
    "Where a rule has a continuous dynamic (Hedge, fictitious play, GDA) and one picture holds the whole state, the "
    "strategy-space chart draws its field; the last iterate's recent positions as a trail; the average strategy's "
    "path as a line."
)


def race_label(most: int) -> str:
    return f"Race: compare with other variants (up to {most})"


# -- the live panel ------------------------------------------------------------------------------

PRESS_TO_START = "Press **Run** or a **Step** button to start learning."
VALUE_HELP = (
    "x̄ and ȳ are the row and the column player's average strategies; A is the row player's payoff matrix, so "
    "x̄ᵀAȳ is the row player's expected payoff when both play their averages."
)
NO_AVERAGE_YET = "- (no average before the first iteration)"
NOTEBOOK_LABEL = "Download notebook"
NOTEBOOK_HELP = (
    "The regret-matching exercise as a Jupyter notebook: write regret matching yourself, a cell at a time, with "
    "rmcore checking each iterate, then watch this page's charts live in the notebook (pip install "
    "'rmcore[notebook]')."
)
FIXED_ANSWER = "Against a fixed opponent the learner converges to a best response, not to the equilibrium."


def compact_numbers(iteration: str, gap_name: str, gap: str, value: str, speed: str) -> str:
    """The numbers above the charts in one line (presentation mode)."""
    return f"##### iteration {iteration} · {gap_name} {gap} · value {value} · {speed} iterations / s"


def drawn(row_action: str, opponent: str, col_action: str, fresh: str | None = None) -> str:
    """What a sampled iteration drew (actions as typed: escaped here), and, for alternating updates, the fresh draw the
    column player's update met."""
    row, col = markdown(row_action), markdown(col_action)
    text = (
        f"This iteration drew: the row player played **{row}** (outlined), {opponent} **{col}**. "
        f"The row player's regret for each action is what it would have got against {col}, minus what it got."
    )
    if fresh is not None:
        text += (
            " The column player's update then met a fresh draw from the row player's new strategy: "
            f"**{markdown(fresh)}**."
        )
    return text


def exact_value(value: str, running: str) -> str:
    """The LP's value beside the running averages' (both formatted)."""
    return f"Exact value by linear programming: **{value}**; running value x̄ᵀAȳ = {running}."


def answer_rows_shown(shown: int) -> str:
    return (
        f"The {shown} actions per player with the most weight in either column; every other action has less. The "
        "history export (CSV) has them all."
    )


def cce(gap: float | None) -> str:
    """The joint play's CCE gap in a general-sum game, and what it tells (nothing without its gap): every rule's, not
    regret matching's alone, so the words claim the convergence only of the rules that have it."""
    if gap is None:
        return ""
    return (
        f"the joint play's CCE gap is now {gap:.3e} (a no-regret learner's joint play approaches the coarse correlated "
        "equilibria, a swap-regret learner's the correlated ones); "
    )


def nash_unknown(gap: float | None, reason: str) -> str:
    """A general-sum game whose equilibria could not be computed (``reason`` may quote the game: escaped here)."""
    return f"General-sum game: {cce(gap)}its Nash equilibria could not be computed ({markdown(reason)})."


def nash_beside(gap: float | None, found: str) -> str:
    """The words above a general-sum game's equilibria (``found``: how they were found, ``ui.explain.nash_found``)."""
    return (
        f"General-sum game: {cce(gap)}the averages need not approach a Nash equilibrium (Shapley's game cycles). "
        f"{found}"
    )


# -- the field lessons -----------------------------------------------------------------------------

#: Each field lesson's button title, its help, and what the class sees (``ui/matrix/field_lessons.py`` holds the
#: settings; ``tests/test_field_lessons.py`` holds the numbers to this library's runs).
FIELD_LESSONS_TITLE = "Lessons: the field under the rule"
FIELD_LESSONS = {
    "pennies": (
        "Matching pennies: Hedge against optimistic Hedge",
        "Hedge and optimistic Hedge on matching pennies from 90% Heads against 30% Heads, 10 iterations an update, "
        "on the replicator dynamic's field.",
        "Lesson: both rules discretise the replicator dynamic, whose orbits around the centre are closed (the centre "
        "is neutral: its Jacobian's eigenvalues are ±i). Hedge's last iterate (blue) steps off each orbit outward and "
        "spirals out to the corners (0.46 from the centre after 10 iterations, 0.69 after 1,000); optimistic Hedge's "
        "(red) spirals in to the equilibrium (0.005 after 1,000). Both averages approach the centre.",
    ),
    "rps": (
        "Rock-Paper-Scissors: the replicator's closed orbits",
        "Hedge on Rock-Paper-Scissors, both players starting at 70% Rock, 20% Paper, 10% Scissors (one population), "
        "10 iterations an update.",
        "Lesson: the replicator's orbits around the centre are closed (eigenvalues ±i/√3: neutral). Hedge's last "
        "iterate follows an orbit but drifts outward a little each turn (0.39 from the centre after 100 iterations, "
        "0.62 after 1,000), while its average circles in to the equilibrium (nash_conv 0.043 after 1,000).",
    ),
    "shapley": (
        "Shapley's game: fictitious play cycles",
        "Fictitious play on Shapley's game from the game's suggested start, as fast as possible.",
        "Lesson: the uniform equilibrium repels the joint dynamic, so nothing draws the averages in. Each player's "
        "average travels round a triangle, the Shapley triangle, and never settles: nash_conv stays near 0.29 (0.293 "
        "after 1,000 iterations, 0.287 after 100,000).",
    ),
    "rps-br": (
        "Rock-Paper-Scissors: the best-response dynamic converges",
        "Fictitious play on Rock-Paper-Scissors, both players starting at 70% Rock, 20% Paper, 10% Scissors (one "
        "population), 100 iterations an update.",
        "Lesson: the best-response dynamic's arrows point at the action that beats the most played one, and its rest "
        "point, the centre, is stable. The average turns an ever smaller triangle into the equilibrium (nash_conv "
        "0.043 after 1,000 iterations, 0.0042 after 100,000), as fictitious play does in every zero-sum game "
        "(Robinson 1951).",
    ),
}

# -- the strategy chart's animations and figures ---------------------------------------------------

ANIMATION_EXPANDER = "Animation and figures of the strategy chart (GIF, MP4, SVG, PDF)"
ANIMATION_NEEDS_HISTORY = "Run a few iterations first: an animation needs a history."


def animation_unavailable(missing: str) -> str:
    return f"Not available on this server: {missing}."


def animation_frames(frames: int, fps: int, size: tuple[int, int]) -> str:
    """What an animation of ``frames`` frames will be, and how long it takes to draw."""
    return (
        f"{frames} frames at {fps} a second ({frames / fps:.1f} s) of {size[0]}x{size[1]} pixels, drawn by Plotly's "
        "own export (kaleido); 300 frames take about a minute."
    )


def animation_failed(error: Exception) -> str:
    return f"The animation could not be made ({type(error).__name__}: {error})."
