"""Session state shared by every page: the one module that writes the session-wide keys. Each browser tab is its own
session, with its own runs.

Each key has one writer: the session-wide keys are this module's, and each page's own keys are its room's
(``ui/matrix/state.py``, ``ui/trees/state.py``, ``ui/atlas/state.py``). Every key is declared once, in its writer's
``KEYS``, with what it holds; the other modules read them and change them through their writer's functions
(``tests/test_state_owner.py`` fails when any other module writes ``st.session_state``). A widget's own key is the
widget's: Streamlit writes it, and a state module writes one only to give the widget a value before it is drawn (its
``WIDGET_KEYS``, :func:`set_widgets`).

Per page (``"matrix"``, ``"kuhn"``: the game-tree page's id): the run flag ``{page}_run`` (the only record of whether
the page is running; the Run/Pause switch, keyed ``{page}_running`` until :func:`pause_unasked` renames it, shows it
and sets it), the live run ``{page}_live`` (made by :func:`sync_live` from a ``ui.live.RacePlan``) and a one-shot
notice ``{page}_notice``. The link the session arrived with is read here too; each page's state reads the page's own
game from it.

Every input that can refuse what it is given (a preset's parameters, the editor, a file) says why through one
mechanism: :func:`say` keeps one :class:`Message` per widget (``messages``), and :func:`show` draws it beside the
widget.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Mapping
from typing import NamedTuple

import streamlit as st

from . import explain_app, link
from .live import LiveRun, RacePlan, within_limits

PAGES = ("matrix", "kuhn")

#: Every key this module writes, with what it holds (``{page}`` is each of :data:`PAGES`, ``{uploader}`` a file
#: uploader's key).
KEYS = {
    # -- the session
    "session_id": "this browser tab's own name, for the server-wide governor (ui/governor.py)",
    "messages": "each input's last word: a Message by the input's key (say, show)",
    "said_once": "what the session has said once and will not say again (once)",
    "{uploader}_seen": "the uploader's last file, read once (new_file)",
    # -- the link it arrived with (ui/link.py)
    "link_given": "the link's parameters as the session arrived, every value of each",
    "link_run_to": "the iteration the link asks the session's first run to reach (0: none, or on its way)",
    "link_problems": "what the link asked for and did not get, in words, for the link's notice",
    "link_choices": "the choices of each list setting (a multiselect), by key, for the link's notice",
    "link_refused": "the link's settings written as numbers no setting holds (1e400), by key, with their values",
    "link_checked": "whether the link has been checked against what the widgets show (at the end of the first run)",
    # -- each page's run
    "{page}_run": "the run flag, RUN or PAUSE: the only record of whether the page runs",
    "{page}_live": "the page's LiveRun (None before the page first runs)",
    "{page}_notice": "a one-shot Notice at the top of the page (None: nothing to say)",
    "{page}_fault": "True when the live panel failed: the next run pauses the page before a widget is drawn",
    "{page}_switch": "how many times the page was paused unasked: it names the Run/Pause switch's key",
    "{page}_ran": "whether the page ran at its last full script run (started: a run that has just begun)",
}
#: Widgets' own keys this module gives a value before the widget is drawn (beside :func:`set_widgets`): the Run/Pause
#: switch.
WIDGET_KEYS = ("{page}_running", "{page}_running_{renamed}")


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


def init() -> None:
    """Create the session-wide state on a session's first run; never overwrite it afterwards (each page's own state
    is its room's: ``ui/<room>/state.py``'s ``init``, called after this one).

    The first run also reads the link the session arrived with (``ui/link.py``): its iteration to run to.
    """
    st.session_state.setdefault("session_id", uuid.uuid4().hex)
    st.session_state.setdefault("messages", {})
    st.session_state.setdefault("said_once", set())
    if "link_given" not in st.session_state:
        _arrived()
    for page in PAGES:
        st.session_state.setdefault(f"{page}_run", PAUSE)
        st.session_state.setdefault(f"{page}_live", None)
        st.session_state.setdefault(f"{page}_notice", None)
    settle_faults()


def set_widgets(values: Mapping[str, object]) -> None:
    """Give widgets ``values`` (by their keys) before they are drawn: a lesson's settings, the start a click on a chart
    chose. Call it from a widget's callback, or before the widgets run: Streamlit refuses a value for a widget already
    drawn in this run."""
    st.session_state.update(values)


def once(topic: Hashable) -> bool:
    """True the first time this session asks about ``topic``, False ever after: for what is said once a session (a
    link's target lowered on the way, a kernel notice per setting)."""
    said = st.session_state.said_once
    if topic in said:
        return False
    said.add(topic)
    return True


def new_file(uploader: str, identity: Hashable) -> bool:
    """Whether the file uploader ``uploader`` holds a file not read before (``identity`` names it: its file id, say);
    from now on it has been read."""
    if st.session_state.get(f"{uploader}_seen") == identity:
        return False
    st.session_state[f"{uploader}_seen"] = identity
    return True


# -- the link the session arrived with ------------------------------------------------------------


def _arrived() -> None:
    """On a session's first run: remember the link's parameters and its iteration to run to."""
    given = link.given()
    st.session_state.link_given = given
    st.session_state.link_refused = link.drop_unreadable_numbers(given)
    st.session_state.link_problems = []
    st.session_state.link_checked = False
    run_to, problem = link.requested_iteration(given)
    link_problem(problem)
    st.session_state.link_run_to = run_to
    if st.session_state.link_refused:
        # (Streamlit seeds a bound widget from the address the run began with: the run starts again from the address
        # without the refused values.)
        st.rerun()


def list_choices(key: str, options: list[str]) -> list[str]:
    """``options``, the choices of the list setting ``key`` (a multiselect), remembered for the link's notice (which
    tells an entry that is no choice from one past the most the list holds: ``ui.link.unused``); returned for the
    widget."""
    st.session_state.link_choices = {**(st.session_state.get("link_choices") or {}), key: list(options)}
    return options


def link_problem(problem: str | None) -> None:
    """Note, for the link's notice, what the link asked for and did not get (nothing when ``problem`` is None)."""
    if problem is not None:
        st.session_state.link_problems = [*st.session_state.link_problems, problem]


def check_link() -> None:
    """At the end of a session's first run: note what the link asked for but did not get (:func:`ui.link.unused`),
    then rerun, so that :func:`link_notice` says so at the top of the page."""
    if st.session_state.link_checked:
        return
    st.session_state.link_checked = True
    for problem in link.unused(st.session_state.link_given):
        link_problem(problem)
    if st.session_state.link_problems:
        st.rerun()


def link_notice() -> None:
    """Show, once, what the link asked for but could not get (in a container of its own, as :func:`notice` says
    why)."""
    problems = st.session_state.get("link_problems") or []
    with st.container():
        if problems and st.session_state.get("link_checked"):
            st.warning(explain_app.link_problems(problems), icon=":material/link_off:")
            st.session_state.link_problems = []


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
    text = explain_app.stopped(message, iteration)
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


def started(page: str) -> bool:
    """Whether the page's run has begun since its last full script run (Run pressed, or a link's ``run_to``): what
    only explains a step gives way to the run's charts then (the tree page's walkthrough folds)."""
    now = running(page)
    began = now and not st.session_state.get(f"{page}_ran", False)
    st.session_state[f"{page}_ran"] = now
    return began


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


def sync_live(page: str, key: Hashable, plan: RacePlan, describe: Callable[[Hashable, Hashable], str]) -> LiveRun:
    """The page's live run, started afresh (with a visible notice) when ``key`` (game and settings) changed.

    The race ``plan`` (a ``ui.live.RacePlan``) asks for is made within the session's limits
    (``ui.live.within_limits``: fewer runs, fewer checkpoints), and the notice says what was cut. ``describe(old_key,
    new_key)`` names what changed, for the notice. A link's ``run_to`` (the session's first run of any page) is run
    toward in time-bounded updates, as Run runs, and stops there.
    """
    current: LiveRun | None = st.session_state[f"{page}_live"]
    if current is not None and current.key == key:
        return current
    race, reduced = within_limits(plan)
    fresh = LiveRun(race, key)
    said = []
    if current is not None and current.iteration > 0:
        said.append(explain_app.restarted(describe(current.key, key), current.iteration))
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
