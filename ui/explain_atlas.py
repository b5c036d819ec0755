"""Every on-screen word of the atlas page (``app_pages/atlas.py``, ``ui/atlas/``): what a run is, where the results
come from, the widgets' help and what the ranking shows. Text only: no Streamlit."""

from __future__ import annotations

from .escape import markdown

RUNS = (
    "Each run is one algorithm with its settings on one game, run to a fixed number of iterations with the metrics "
    "recorded at fixed checkpoints (`python -m rmcore atlas`, or a grid of your own with `python -m rmcore sweep`)."
)
#: The choices of where the results come from.
SOURCES = {
    "shipped": "The atlas shipped with rmcore",
    "folder": "A sweep folder on this server",
    "zip": "A sweep folder as a zip",
}
FOLDER_LABEL = "Results folder (the --out of python -m rmcore sweep)"
FOLDER_HELP = (
    "The sweep folders this server offers: those its operator named in RM_ATLAS_FOLDERS when starting it, and the "
    "folders with results directly inside them (by default the atlas-results folder of the app's own checkout)."
)
NO_FOLDERS = (
    "This server offers no results folder. Whoever starts it names the folders it may read in the environment "
    "variable `RM_ATLAS_FOLDERS` (by default the `atlas-results` folder of the app's own checkout, which holds no "
    "results yet). A zip of a sweep folder can be uploaded instead."
)
NOTHING_LOADED = "Load a folder (or a zip of one) that `python -m rmcore sweep` wrote to see its runs here."
MEASURE_HELP = (
    "NashConv: the sum of the players' best-response gains against the average strategies (the marginals of the "
    "play). CE gap and CCE gap: those of the joint distribution of play, the frequency of each pair of actions "
    "played together (rmcore.ce_gap, rmcore.cce_gap): the sum over the players of what the best switch away from "
    "each recommended action, or the best single action played whatever is recommended, would gain. Regret "
    "matching's joint play approaches the coarse correlated equilibria (CCE gap to 0); swap-rm's and internal-rm's "
    "the correlated equilibria (CE gap to 0)."
)
NO_GAPS = (
    "No CE or CCE gap for a zero-sum game: in a two-player zero-sum game the marginals of every coarse correlated "
    "equilibrium form a Nash equilibrium, and the CCE gap of expected play equals the NashConv of its average "
    "strategies whenever neither player's regret is negative, so NashConv already says how far the play is. A "
    "general-sum game (in the atlas: Shapley's game, Aumann's Chicken, Battle of the sexes) offers all three measures."
)
SECONDS_HELP = "Seconds are the solver's own time up to each checkpoint, as the run measured it (metrics left out)."


def zip_label(megabytes: int) -> str:
    return f"A zip of a sweep's results folder (at most {megabytes} MB)"


def shipped_unreadable(error: Exception) -> str:
    return f"The shipped atlas cannot be shown: {error}."


def not_loaded(error: Exception) -> str:
    return f"Not loaded: {markdown(str(error))}."


def skipped(messages) -> str:
    """The result files a load left out, each with why (``messages``: ``rmcore.read_results``' words, quoted)."""
    shown = [markdown(text) for text in list(messages)[:5]]
    more = f"; and {len(messages) - 5:,} more" if len(messages) > 5 else ""
    return f"Loaded without {len(messages):,} file{'s' if len(messages) != 1 else ''}: {'; '.join(shown)}{more}."


def your_sweep(runs: int, where: str) -> str:
    """Where the user's results come from: ``where`` is the folder's or the file's name, as typed (escaped here)."""
    return f"Your sweep: {runs:,} runs from {markdown(where)}."


def shipped(about: dict) -> str:
    """Where the shipped atlas comes from: the command, its runs, the machine and the date (``about``: its data file's
    own record)."""
    if not about:
        return "The shipped atlas."
    machine = about.get("machine", {})
    return (
        f"The shipped atlas: `{about.get('command')}`, {about.get('cells')} runs of up to "
        f"{about.get('iterations', 0):,} iterations, on {markdown(machine.get('processor', '?'))} "
        f"({machine.get('cores', '?')} cores), {about.get('date')}."
    )


def ranking(measure: str, policy: str, target: float) -> str:
    """What the ranking's table shows: the first checkpoint at which ``measure`` of ``policy`` was at most
    ``target``."""
    return (
        f"The first checkpoint at which each run's {measure} of {policy} "
        f"was at most {target:g} (–: not within its iterations). *open* sets the run up on its page and runs "
        "it to its last iteration."
    )
