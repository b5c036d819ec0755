"""Every on-screen word the pages share: the About page, the run controls, the replay, presentation mode, the link
and its Share box, the notices at the top of a page (a restart, the session's limits, a failure, a link's unusable
settings), the race table and the reproducibility bundle. Text only: no Streamlit."""

from __future__ import annotations

from .escape import markdown

# -- the About page -------------------------------------------------------------------------------

HOME_INTRO = """
Regret matching (Hart & Mas-Colell 2000) plays each action with probability proportional to its
positive cumulative regret. In two-player zero-sum self-play the **average** strategies converge to
a Nash equilibrium. This dashboard runs the fast `rmcore` library live in your browser.

Open **Matrix game** to edit a game, run the solver live and watch it converge. Open **CFR on game trees** to follow
one iteration of counterfactual regret minimisation step by step on Kuhn poker, then train it live on Kuhn poker,
Kuhn with more cards, Leduc hold'em, Liar's dice, Goofspiel or your own .efg game. On both
pages, choose several variants to race them on the same game: one chart overlays how fast each converges,
and a table says when each first reached 1e-2, 1e-3, 1e-4 and 1e-6.
"""
HOME_TOUR = """
**Matrix game.** (1) Pick a preset, say *Rock-Paper-Scissors*: it starts away from the equilibrium, so the learning
shows. (2) Press **Run** (or Space): thin lines are what regret matching plays now and cycle; thick lines are the
averages and settle. On the simplex the average spirals into the star, over *the field under the rule*: the rule's
continuous dynamic, its rest points labelled by their eigenvalues (click the field to start there, or set *Where
learning starts*). The log-log chart shows nash_conv falling under the dashed worst-case bound. (3) Set the speed to *1
iteration a second* and press **Step +1** (or →): the orange slivers on the regret bars are what that one iteration
added. (4) Pause and drag the **Replay** slider to see any earlier moment on every chart. (5) Choose several variants to
race them, or press a lesson: *eight rules, their averages and their last iterates* (RM, RM+, predictive RM+, Hedge,
optimistic Hedge, fictitious play, GDA and optimistic GDA), *last iterates that settle, and those that never do*, and
*Lessons: the field under the rule* (four fields, from the replicator's closed orbits to the best-response dynamic). (6)
Edit the payoffs in place, **Upload a CSV** of up to 200x200 or a Gambit *.nfg* file; lock the column player as a fixed
mixed strategy (*Opponent*) and watch the row player learn to exploit it; the exact answer (every Nash equilibrium up to
8x8) sits beside the learner. *Animation and figures of the strategy chart* gives a GIF, MP4, SVG or PDF for slides.

**CFR on game trees.** (1) On Kuhn poker, press **Step +1**: the walkthrough tables one CFR iteration, set by set:
reach, counterfactual values, regrets, regret matching, the average; type any iteration up to 100,000 to see its
numbers. (2) Press **Run**: nash_conv falls; the game tree's colours (each information set's P(bet)) settle; the
equilibrium check compares the average with the family of equilibria (value −1/18). (3) Choose several variants (CFR+,
linear, discounted, predictive, Monte Carlo sampling, MMD) to race them, or press the lesson *CFR, CFR+, DCFR, PCFR+,
PDCFR+, DCFR+ and their last iterates* on Kuhn or Leduc. (4) Choose *Kuhn on sliders*, *Leduc hold'em*, Liar's dice,
Goofspiel, an *OpenSpiel game* by its name or *Your game (.efg)*: a heat map and an explorer show every information set
beside the exact answer. (5) Lock one player (*Opponent*: *Player 2 fixed*) and watch the other learn to exploit it, or
open **Play against the bot** and play hands against the average policy at any iteration.

**Atlas.** Every algorithm on every game rmcore ships, one game at a time: every run's curve, and who reaches a chosen
nash_conv first, in iterations and in seconds. Each run links to the page that runs it; load the results of a sweep
of your own (`python -m rmcore sweep`) to see them the same way.

**In front of a class.** Switch on **Presentation mode** in the sidebar (or add `?present=true` to the link): the
settings fold away, the controls and the main chart fit a 1280x720 projector, and chart text is 18 px. Keys: Space run /
pause, → step, R reset. *Share this setup* (sidebar) gives a link that opens the same setup anywhere, and **Export**
gives the history (CSV), the setup (JSON) and a reproducibility bundle that reruns it from the command line.
"""

# -- the run controls ----------------------------------------------------------------------------

KEYS_HINT = "Keys: **Space** run / pause · **→** step +1 · **R** reset"
RESET_HELP = "Back to iteration 0, paused (key R)."
SPEED_HELP = (
    "One iteration a second to talk through every step; 'as fast as possible' fills a time budget per screen update."
)
REPLAY_LABEL = "Replay: the iteration the charts show (a dotted line marks it; Run resumes from the live end)"
PRESENTATION_HELP = (
    "For a projector: settings folded away, the run controls and the main chart on the first screen, chart text at "
    "least 18 px and thicker lines."
)


def step_help(iterations: int, more: str = "") -> str:
    """A Step button's help; ``more``, the page's own words, for Step +1."""
    return (f"Step {iterations} iteration{'s' if iterations > 1 else ''}. " + more).strip()


# -- the notices at the top of a page --------------------------------------------------------------


def refused_number(key: str, value: str, holds: str) -> str:
    """Beneath a number box: the link's value for it (``key`` and ``value`` quoted and escaped by the caller) was no
    number it holds (``holds`` says what it takes)."""
    return f"The link's {key}={value} is not a number this box holds ({holds}): the default is shown."


def stopped(message: str, iteration: int) -> str:
    """The live panel failed (``message``: what failed): the run is paused."""
    return (
        f"The live panel stopped ({message}). The run is paused at iteration {iteration:,}: press Run to carry on, or "
        "Reset."
    )


def restarted(changed: str, iteration: int) -> str:
    """A setting changed (``changed`` names it) and the run started again from iteration 0."""
    return (
        f"Changing {changed} changes the dynamics, so the run restarted from iteration 0 (it had reached "
        f"{iteration:,})."
    )


def fewer_runs(runs: int, each_bytes: int, allowed_bytes: int, kept: int, seeds: int, of_seeds: int, dropped) -> str:
    """A race cut to the session's solver-state limit: ``runs`` would hold ``each_bytes`` each, more than
    ``allowed_bytes`` in all, so it runs ``kept`` (``seeds`` of ``of_seeds`` per sampled variant, without the variants
    ``dropped``, by their labels)."""
    cuts = []
    if seeds < of_seeds:
        cuts.append(f"{seeds} seed{'s' if seeds > 1 else ''} per sampled variant (of {of_seeds})")
    if dropped:
        names = ", ".join(markdown(label) for label in dropped)
        cuts.append(f"without its last variant{'s' if len(dropped) > 1 else ''} ({names})")
    return (
        f"These {runs} runs would hold {runs * each_bytes / 1e6:,.0f} MB of solver state ({each_bytes / 1e6:,.1f} MB "
        f"each), more than a session may ({allowed_bytes / 1e6:,.0f} MB), so the race runs {kept}: "
        + " and ".join(cuts)
        + "."
    )


def fewer_checkpoints(
    runs: int, needed_bytes: int, allowed_bytes: int, first: int, others: int, of_first: int, of_others: int
) -> str:
    """A race (or one run) whose history would pass ``allowed_bytes``: it keeps ``first`` checkpoints for its first run
    (of ``of_first``) and ``others`` for the others (of ``of_others``)."""
    if runs == 1:
        history = f"This run would hold {needed_bytes / 1e6:,.0f} MB of history"
        kept = f"it keeps {first:,} checkpoints (of {of_first:,})"
    else:
        history = f"These {runs} runs would hold {needed_bytes / 1e6:,.0f} MB of history"
        kept = (
            f"each keeps fewer checkpoints: {first:,} for the first run and {others:,} for the others (of "
            f"{of_first:,} and {of_others:,})"
        )
    return f"{history}, more than a session may ({allowed_bytes / 1e6:,.0f} MB), so {kept}."


def link_problems(problems: list[str]) -> str:
    """What a link asked for and did not get (each problem in words, as ``ui/link.py`` found it)."""
    return "Some of the link's settings could not be used: " + "; ".join(problems) + "."


def exact_failed(error: Exception) -> str:
    """The LP of a zero-sum matrix game gave up: the run goes on without its exact answer."""
    return f"The exact answer could not be computed for this game ({markdown(str(error))}); the run goes on without it."


def still_computing(seconds: float) -> str:
    """A matrix game's exact answer or equilibria, not there yet (other games' answers were queued ahead of them on the
    server): a clause."""
    return f"still being computed on this server, {seconds:.0f} s so far; they show on a later update"


def exact_computing(seconds: float) -> str:
    """A zero-sum matrix game's LP, not there yet: the run goes on meanwhile."""
    return f"The exact answer is {still_computing(seconds)}, and the run goes on meanwhile."


# -- the link and its Share box ------------------------------------------------------------------

SHARE_CARRIED = "The link opens this page with the same game and settings in any browser."


def share_too_large_tree(size: str, chars: int, most: int) -> str:
    """The tree page's own game (``size``: its nodes and sets, in words) is ``chars`` long in a link, past ``most``."""
    return (
        f"Your game ({size}) cannot travel in a link: written as .efg and compressed it is {chars:,} characters, and a "
        f"link carries at most {most:,} (an address past 8,000 characters is refused). Share the .efg file instead "
        "(*Download as .efg*); the link opens the page without it."
    )


def share_too_large_matrix(shape: tuple[int, int], most_actions: int, most_chars: int) -> str:
    """The matrix page's game is more than a link carries: the link opens the preset."""
    return (
        f"This game ({shape[0]}x{shape[1]}) is more than a link carries (at most {most_actions}x{most_actions} and "
        f"{most_chars:,} characters), so the link opens the preset instead. Share the game itself with Export's "
        "bundle or its CSV."
    )


def share_run_to(iteration: int) -> str:
    return f"Also run to the current iteration ({iteration:,})"


def load_setup_label(megabytes: int) -> str:
    return f"Load a setup saved with *Setup (JSON)* (at most {megabytes} MB)"


def link_too_long(chars: int, most: int) -> str:
    """*Share this setup*, for a setup whose link would pass what the server takes."""
    return (
        f"This setup's link would be {chars:,} characters long, more than the {most:,} a server takes, so no link is "
        "given: share the game's file instead (*Download as .nfg* or *Download as .efg*)."
    )


# -- the race table and the bundle -----------------------------------------------------------------

RACE_TABLE = (
    "Iterations and solver seconds (per seed) until the median first reached each level: the first of 32 "
    "log-spaced iterations a decade at which it was at or below it, the same in a share link, a bundle and "
    "python -m rmcore race; a sampled variant runs once per seed and is drawn as its median with a min-max "
    "band."
)


def bundle_readme(command: str, measure: str, iteration: int) -> str:
    """The reproducibility bundle's README.txt: the ``command`` that gives its numbers again."""
    return (
        "Reproduce the numbers in numbers.json from this folder (rmcore installed, for example `pip install .` in "
        f"its repository):\n\n    {command}\n\nIts output gives, per variant, the {measure} of the average "
        f"after {iteration:,} iterations: the same values, to the last digit, because a run gives identical "
        "results however it is split into chunks.\n"
    )


def reading(name: str) -> str:
    """A file being read (``name`` as uploaded: escaped here)."""
    return f"Reading {markdown(name)}…"


def duration(seconds: float) -> str:
    """``seconds`` in words a person reads at a glance, in seconds, minutes or hours, rounded ("about an hour")."""
    if seconds < 90:
        return f"about {seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds / 3600:.0f} hours" if seconds >= 1.5 * 3600 else "about an hour"


def target_lowered(asked: int, runs: int, seconds: float, target: int) -> str:
    """A link's ``run_to`` that would take more of the server's time than a link may: where the run stops instead."""
    what = f"a race of {runs} runs" if runs > 1 else "this run"
    return (
        f"run_to={asked:,} on {what} would take {duration(seconds)} of the server's time, so it runs to {target:,}; "
        "press Run to go on."
    )
