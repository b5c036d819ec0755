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

from . import link
from .live import SESSION_HISTORY_BYTES, LiveRun
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
        game, _ = link.initial_game(DEFAULT_PRESET)
        st.session_state.game = game
        st.session_state.draft = Draft.from_game(game)
        st.session_state.opponent = None  # the last valid fixed opponent, as a tuple
        st.session_state.exact = None  # (game, its LP solution): computed once per game


# -- one message per input ----------------------------------------------------------------------

_DRAW = {"error": st.error, "warning": st.warning, "info": st.info}


def say(widget: str, text: str, kind: str = "error", once: bool = False) -> None:
    """Keep what the input ``widget`` says now (replacing what it said before): ``kind`` is ``"error"`` (nothing was
    taken), ``"warning"`` or ``"info"`` (taken, and how); a ``once`` message goes after :func:`show` has drawn it."""
    if kind not in _DRAW:
        raise ValueError(f"a message is an error, a warning or info, not {kind!r}")
    st.session_state.messages[widget] = Message(text, kind, once)


def unsay(*widgets: str) -> None:
    """The inputs ``widgets`` have nothing to say any more."""
    for widget in widgets:
        st.session_state.messages.pop(widget, None)


def message(widget: str) -> Message | None:
    """What the input ``widget`` says now, if anything."""
    return st.session_state.messages.get(widget)


def show(widget: str, icon: str | None = None) -> None:
    """Draw what the input ``widget`` says, here (beside the widget), if anything."""
    said = message(widget)
    if said is None:
        return
    _DRAW[said.kind](said.text, icon=icon)
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


def sync_live(
    page: str, key: Hashable, build: Callable[[int, int], rmcore.Race], describe: Callable[[Hashable, Hashable], str]
) -> LiveRun:
    """The page's live run, started afresh (with a visible notice) when ``key`` (game and settings) changed.

    ``build(max_points, member_points)`` makes the race; one that would hold more history than a session may
    (``SESSION_HISTORY_BYTES``) is made again keeping fewer checkpoints per run, and the notice says so.
    ``describe(old_key, new_key)`` names what changed, for the notice. A link's ``run_to`` (the session's first run of
    any page) is run toward in time-bounded updates, as Run runs, and stops there.
    """
    current: LiveRun | None = st.session_state[f"{page}_live"]
    if current is not None and current.key == key:
        return current
    race, reduced = _within_memory(build)
    fresh = LiveRun(race, key)
    said = []
    if current is not None and current.iteration > 0:
        said.append(
            f"Changing {describe(current.key, key)} changes the dynamics, so the run restarted from iteration 0 "
            f"(it had reached {current.iteration:,})."
        )
    if reduced:
        said.append(reduced)
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


def _within_memory(build: Callable[[int, int], rmcore.Race]) -> tuple[rmcore.Race, str | None]:
    """The race ``build`` makes, with fewer checkpoints per run if its histories could pass ``SESSION_HISTORY_BYTES``;
    and what was reduced, in words (None if nothing)."""
    points, members = rmcore.config.DEFAULT_MAX_POINTS, rmcore.config.RACE_MEMBER_POINTS
    race = build(points, members)
    needed = race.history_bytes()
    if needed <= SESSION_HISTORY_BYTES:
        return race, None
    share = SESSION_HISTORY_BYTES / needed
    fits = (max(int(points * share), 2), max(int(members * share), 2))
    race = build(*(max(20, n) for n in fits))  # at least 20 checkpoints where they fit: a chart of fewer looks coarse
    if race.history_bytes() > SESSION_HISTORY_BYTES:  # they do not: Liar's dice with 6 sides keeps 19 of 7.7 MB
        race = build(*fits)
    if race.runs == 1:
        said = f"This run would hold {needed / 1e6:,.0f} MB of history"
        kept = f"it keeps {race.max_points:,} checkpoints (of {points:,})"
    else:
        said = f"These {race.runs} runs would hold {needed / 1e6:,.0f} MB of history"
        kept = (
            f"each keeps fewer checkpoints: {race.max_points:,} for the first run and {race.member_points:,} for the "
            f"others (of {points:,} and {members:,})"
        )
    return race, f"{said}, more than a session may ({SESSION_HISTORY_BYTES / 1e6:,.0f} MB), so {kept}."


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
                f"The exact answer could not be computed for this game ({error}); the run goes on without it.",
                "warning",
            )
        else:
            unsay("exact")
        st.session_state.exact = known
    return known[1]
