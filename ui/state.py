"""Session state in one place, for every page. Each browser tab is its own session, with its own runs.

Per page (``"matrix"``, ``"kuhn"``: the poker page's id): the run flag ``{page}_run`` (the only record of whether the
page is running; the Run/Pause switch, keyed ``{page}_running`` until :func:`pause_unasked` renames it, shows it and
sets it), the live run ``{page}_live`` and a one-shot notice ``{page}_notice``. The matrix page also keeps its game
and its editor draft.

Every input that can refuse what it is given (a preset's parameters, the editor, a file) says why through one
mechanism: :func:`say` keeps one :class:`Message` per widget (``messages``), and :func:`show` draws it beside the
widget.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable
from typing import NamedTuple

import streamlit as st

import rmcore

from . import escape, link
from .live import SESSION_HISTORY_BYTES, SESSION_SOLVER_BYTES, LiveRun
from .matrix.editor import Draft

PAGES = ("matrix", "kuhn")


class Notice(NamedTuple):
    """A one-shot message at the top of a page: why a run restarted, or (an error) why it stopped."""

    text: str
    is_error: bool = False


class Message(NamedTuple):
    """What an input says about the last thing it was given: an error (nothing was taken), a warning, or a note (it was
    taken, and how); a ``once`` message goes after it has been shown."""

    text: str
    kind: str = "error"
    once: bool = False


RUN, PAUSE = "Run", "Pause"
DEFAULT_PRESET = "rps-crash"


def init() -> None:
    """Create every page's state on a session's first run; never overwrite it afterwards.

    The first run also reads the link the session arrived with (``ui/link.py``): its game and its
    iteration to run to.
    """
    st.session_state.setdefault("session_id", uuid.uuid4().hex)  # this tab, for the server-wide governor
    st.session_state.setdefault("messages", {})  # each input's last word (say, show)
    if "link_given" not in st.session_state:
        link.arrived()
        st.session_state.link_run_to = link.requested_iteration()
    for page in PAGES:
        st.session_state.setdefault(f"{page}_run", PAUSE)
        st.session_state.setdefault(f"{page}_live", None)
        st.session_state.setdefault(f"{page}_notice", None)
    st.session_state.setdefault("kuhn_play", None)  # the poker page's hands against the bot (ui/trees/play.py)
    if "kuhn_uploaded" not in st.session_state:  # the tree page's own game (.efg): from the link, or uploaded later
        st.session_state.kuhn_uploaded = link.uploaded_game()
        st.session_state.kuhn_upload_seen = None  # the uploader's last file, read once
    settle_faults()
    st.session_state.setdefault("atlas_results", None)  # the atlas page's own results: (table, where from)
    st.session_state.setdefault("atlas_zip_seen", None)  # the uploader's last zip, read once
    if "game" not in st.session_state:
        game, source = link.initial_game(DEFAULT_PRESET)
        st.session_state.game = game
        st.session_state.from_preset = source[0] == "preset"  # False: an edited, uploaded or linked game
        st.session_state.draft = Draft.from_game(game)
        st.session_state.opponent = None  # the last valid fixed opponent, as a tuple
        st.session_state.exact = None  # (game, its LP solution): computed once per game
        st.session_state.equilibria = None  # (game, its Nash equilibria): computed once per general-sum game


# -- one message per input ----------------------------------------------------------------------

_KINDS = ("error", "warning", "info")


def say(widget: str, text: str, kind: str = "error", once: bool = False) -> None:
    """Keep what the input ``widget`` says now (replacing what it said before): ``kind`` is ``"error"`` (nothing was
    taken), ``"warning"`` or ``"info"`` (taken, and how); a ``once`` message goes after :func:`show` has drawn it.
    ``text`` is Markdown: escape what it quotes of the user's (``escape.markdown``)."""
    if kind not in _KINDS:
        raise ValueError(f"a message is an error, a warning or info, not {kind!r}")
    st.session_state.messages[widget] = Message(text, kind, once)


def unsay(*widgets: str) -> None:
    """The inputs ``widgets`` have nothing to say any more."""
    for widget in widgets:
        st.session_state.messages.pop(widget, None)


def message(widget: str) -> Message | None:
    """What the input ``widget`` says now, if anything."""
    return st.session_state.messages.get(widget)


def show(widget: str, icon: str | None = None, place=None) -> None:
    """Draw what the input ``widget`` says, here (beside the widget), if anything; or in ``place`` (an ``st.empty``
    that a file's "Reading..." filled: the last file's words give way at once to the new file's). The words are
    Markdown: :func:`say`'s callers escape what they quote of the user's (ui/escape.py)."""
    said = message(widget)
    if said is None:
        if place is not None:
            place.empty()
        return
    getattr(place if place is not None else st, said.kind)(said.text, icon=icon)
    if said.once:
        unsay(widget)


def fault(page: str, message: str, iteration: int) -> None:
    """Something in the live panel failed: pause the page and say so, from a full rerun (a widget's value, such as the
    run flag, may only change before the widget is drawn)."""
    text = (
        f"The live panel stopped ({message}). The run is paused at iteration {iteration:,}: "
        "press Run to carry on, or Reset."
    )
    if not running(page):  # already paused: say it here, and do not rerun into the same failure
        st.error(text, icon=":material/error:")
        return
    st.session_state[f"{page}_notice"] = Notice(text, is_error=True)
    st.session_state[f"{page}_fault"] = True
    st.rerun(scope="app")


def settle_faults() -> None:
    """Pause every page whose live panel failed in the last run (called before any widget is drawn)."""
    for page in PAGES:
        if st.session_state.pop(f"{page}_fault", False):
            pause_unasked(page)


def session_id() -> str:
    """This browser tab's own name, for the server-wide governor (``ui/governor.py``)."""
    return st.session_state.session_id


def presenting() -> bool:
    """Whether presentation mode is on (the sidebar switch, keyed ``present``)."""
    return bool(st.session_state.get("present", False))


def running(page: str) -> bool:
    return st.session_state[f"{page}_run"] == RUN


def pause(page: str) -> None:
    st.session_state[f"{page}_run"] = PAUSE


def pause_unasked(page: str) -> None:
    """Pause a run the user did not pause (a link's ``run_to`` reached, a failed update), and give the Run/Pause switch
    a key of its own for the rest of the session.

    Why the new key: the live fragment's timed rerun, already scheduled in the browser when the server pauses, can
    arrive after the pause carrying the switch's old value, Run; Streamlit then calls the switch's ``on_change`` as if
    Run had been pressed (seen in Chromium for three links in four whose ``run_to`` took several updates: the run
    went on past its target). A stale value of a switch no longer drawn changes nothing.
    """
    pause(page)
    st.session_state[f"{page}_switch"] = st.session_state.get(f"{page}_switch", 0) + 1


def _switch_key(page: str) -> str:
    """The Run/Pause switch's key: ``{page}_running``, then ``{page}_running_N`` after the N-th unasked pause."""
    renamed = st.session_state.get(f"{page}_switch", 0)
    return f"{page}_running" if not renamed else f"{page}_running_{renamed}"


def show_run_flag(page: str) -> str:
    """Give the Run/Pause switch the page's run flag before it is drawn; returns the switch's key.

    The flag lives under a key of its own, not the switch's: Streamlit forgets a widget's value on a page that does not
    draw it, and a page left while running came back with neither segment lit.
    """
    key = _switch_key(page)
    st.session_state[key] = st.session_state[f"{page}_run"]
    return key


def take_run_flag(page: str) -> None:
    """The switch's ``on_change``: the flag follows what was pressed."""
    st.session_state[f"{page}_run"] = st.session_state[_switch_key(page)]


def live(page: str) -> LiveRun:
    return st.session_state[f"{page}_live"]


class RacePlan(NamedTuple):
    """What a page asks to race: the game, its variants, the seeds of each sampled one, and how the runs start; a
    :class:`rmcore.Race` is made from it (:meth:`build`) within the session's limits (:func:`sync_live`)."""

    game: object
    variants: tuple
    seeds: int
    seed: int = 0
    opponent: object = None
    start: object = None
    history_share: float | None = None

    def build(self, max_points: int, member_points: int) -> rmcore.Race:
        return rmcore.Race(
            self.game,
            self.variants,
            seeds=self.seeds,
            seed=self.seed,
            opponent=self.opponent,
            start=self.start,
            max_points=max_points,
            member_points=member_points,
            history_share=self.history_share,
        )


def sync_live(page: str, key: Hashable, plan: RacePlan, describe: Callable[[Hashable, Hashable], str]) -> LiveRun:
    """The page's live run, started afresh (with a visible notice) when ``key`` (game and settings) changed.

    The race ``plan`` asks for is made within the session's limits (:func:`_within_limits`: fewer runs, fewer
    checkpoints), and the notice says what was cut. ``describe(old_key, new_key)`` names what changed, for the notice.
    A link's ``run_to`` (the session's first run of any page) is run toward in time-bounded updates, as Run runs, and
    stops there.
    """
    current: LiveRun | None = st.session_state[f"{page}_live"]
    if current is not None and current.key == key:
        return current
    race, reduced = _within_limits(plan)
    fresh = LiveRun(race, key)
    said = []
    if current is not None and current.iteration > 0:
        said.append(
            f"Changing {describe(current.key, key)} changes the dynamics, so the run restarted from iteration 0 "
            f"(it had reached {current.iteration:,})."
        )
    said += reduced
    if current is None and st.session_state.link_run_to:  # the session's first run of any page: the link's iteration
        fresh.run_to(st.session_state.link_run_to)
        st.session_state.link_run_to = 0
        if fresh.target is not None:  # on with the fragment's governed updates; it stops at the target
            st.session_state[f"{page}_run"] = RUN
        if fresh.target_note:
            said.append(fresh.target_note)
    if said:
        st.session_state[f"{page}_notice"] = Notice(" ".join(said))
    st.session_state[f"{page}_live"] = fresh
    return fresh


def _state_bytes_of_one_run(game) -> int:
    """What one run's solver state holds on ``game`` (measured on a solver made for the purpose)."""
    if isinstance(game, rmcore.MatrixGame):
        return rmcore.MatrixSolver(game, max_points=0).state_bytes()
    return rmcore.CFRSolver(game, max_points=0).state_bytes()


def _fewer_runs(plan: RacePlan) -> tuple[RacePlan, str | None]:
    """``plan`` with at most as many runs as ``SESSION_SOLVER_BYTES`` holds (fewer seeds first, then its last
    variants, never fewer than one run), and what was cut, in words (None if nothing)."""
    runs = rmcore.Race.planned_runs(plan.game, plan.variants, plan.seeds)
    each = _state_bytes_of_one_run(plan.game)
    allowed = max(1, SESSION_SOLVER_BYTES // max(each, 1))
    if runs <= allowed:
        return plan, None
    variants, seeds = list(plan.variants), plan.seeds
    while seeds > 1 and rmcore.Race.planned_runs(plan.game, variants, seeds) > allowed:
        seeds -= 1
    dropped = []
    while len(variants) > 1 and rmcore.Race.planned_runs(plan.game, variants, seeds) > allowed:
        dropped.insert(0, variants.pop())
    trimmed = plan._replace(variants=tuple(variants), seeds=seeds)
    kept = rmcore.Race.planned_runs(plan.game, variants, seeds)
    cuts = []
    if seeds < plan.seeds:
        cuts.append(f"{seeds} seed{'s' if seeds > 1 else ''} per sampled variant (of {plan.seeds})")
    if dropped:
        names = ", ".join(escape.markdown(getattr(v, "label", v)) for v in dropped)
        cuts.append(f"without its last variant{'s' if len(dropped) > 1 else ''} ({names})")
    return trimmed, (
        f"These {runs} runs would hold {runs * each / 1e6:,.0f} MB of solver state ({each / 1e6:,.1f} MB each), more "
        f"than a session may ({SESSION_SOLVER_BYTES / 1e6:,.0f} MB), so the race runs {kept}: "
        + " and ".join(cuts)
        + "."
    )


def _within_limits(plan: RacePlan) -> tuple[rmcore.Race, list[str]]:
    """The race ``plan`` asks for, within the session's limits: at most ``SESSION_SOLVER_BYTES`` of solver state
    (:func:`_fewer_runs`), and at most ``SESSION_HISTORY_BYTES`` of history (fewer checkpoints per run); and what was
    cut, in words."""
    said = []
    plan, fewer = _fewer_runs(plan)
    if fewer:
        said.append(fewer)
    points, members = rmcore.config.DEFAULT_MAX_POINTS, rmcore.config.RACE_MEMBER_POINTS
    race = plan.build(points, members)
    needed = race.history_bytes()
    if needed <= SESSION_HISTORY_BYTES:
        return race, said
    share = SESSION_HISTORY_BYTES / needed
    fits = (max(int(points * share), 2), max(int(members * share), 2))
    race = plan.build(*(max(20, n) for n in fits))  # at least 20 checkpoints where they fit: fewer look coarse
    if race.history_bytes() > SESSION_HISTORY_BYTES:  # they do not: Liar's dice with 6 sides keeps 19 of 7.7 MB
        race = plan.build(*fits)
    if race.runs == 1:
        history = f"This run would hold {needed / 1e6:,.0f} MB of history"
        kept = f"it keeps {race.max_points:,} checkpoints (of {points:,})"
    else:
        history = f"These {race.runs} runs would hold {needed / 1e6:,.0f} MB of history"
        kept = (
            f"each keeps fewer checkpoints: {race.max_points:,} for the first run and {race.member_points:,} for the "
            f"others (of {points:,} and {members:,})"
        )
    said.append(f"{history}, more than a session may ({SESSION_HISTORY_BYTES / 1e6:,.0f} MB), so {kept}.")
    return race, said


def restart(page: str) -> None:
    """Reset: the same settings, from iteration 0, paused."""
    current: LiveRun = st.session_state[f"{page}_live"]
    pause(page)
    st.session_state[f"{page}_live"] = LiveRun(current.race.fresh(), current.key)


def notice(page: str) -> None:
    """Say once why a run restarted (or stopped).

    In a container of its own, there with or without a message: a message that came and went in the page's own list
    of elements would move every element after it, and the browser would mount the live charts afresh (measured: all
    four chart frames reloaded plotly.js on every setting change, blank for seconds).
    """
    notice: Notice | None = st.session_state[f"{page}_notice"]
    with st.container():
        if notice is not None:
            if notice.is_error:
                st.error(notice.text, icon=":material/error:")
            else:
                st.info(notice.text, icon=":material/restart_alt:")
            st.session_state[f"{page}_notice"] = None


# -- the matrix page's game -------------------------------------------------------------------


def load_game(game: rmcore.MatrixGame, from_preset: bool) -> None:
    """Make ``game`` the one being solved, show it in the editor (when it fits there) and in the link."""
    link.game_changed(game, from_preset)
    st.session_state.game = game
    st.session_state.from_preset = from_preset
    unsay("preset", "editor", "upload_csv")
    version = st.session_state.draft.version + 1
    if max(game.shape) <= 10:
        st.session_state.draft = Draft.from_game(game, version)


def exact_answer(game: rmcore.MatrixGame) -> rmcore.ExactSolution | None:
    """The LP value and an equilibrium of a zero-sum game, solved once per game; None for general-sum games."""
    if not game.is_zero_sum:
        return None
    known = st.session_state.exact
    if known is None or known[0] is not game:
        try:
            known = (game, rmcore.solve_exactly(game))
        except RuntimeError as error:  # the LP solver gave up: say so on the page; the run goes on without it
            known = (game, None)
            say(
                "exact",
                f"The exact answer could not be computed for this game ({escape.markdown(str(error))}); the run goes "
                "on without it.",
                "warning",
            )
        else:
            unsay("exact")
        st.session_state.exact = known
    return known[1]


def nash_equilibria(game: rmcore.MatrixGame) -> rmcore.NashEquilibria | None:
    """A general-sum game's Nash equilibria (every one up to 8x8, one by Lemke-Howson beyond), computed once per game;
    None for a zero-sum game (its LP answers) or where the computation gave up (the message of ``"equilibria"`` says
    why)."""
    if game.is_zero_sum:
        return None
    known = st.session_state.get("equilibria")
    if known is None or known[0] is not game:
        try:
            known = (game, rmcore.nash_equilibria(game))
        except RuntimeError as error:  # Lemke-Howson's pivot cap: said on the page; the run goes on without it
            known = (game, None)
            say("equilibria", escape.markdown(str(error)))
        else:
            unsay("equilibria")
        st.session_state.equilibria = known
    return known[1]
