"""Session state in one place, for every page: the one module that writes the session's keys. Each browser tab is its
own session, with its own runs.

Every key is declared once, in :data:`KEYS`, with what it holds; the other modules read them and change them through
the functions here (``tests/test_state_owner.py`` fails when any other module writes ``st.session_state``). A widget's
own key is the widget's: Streamlit writes it, and this module writes one only to give the widget a value before it is
drawn (:data:`WIDGET_KEYS`, :func:`set_widgets`).

Per page (``"matrix"``, ``"kuhn"``: the game-tree page's id): the run flag ``{page}_run`` (the only record of whether
the page is running; the Run/Pause switch, keyed ``{page}_running`` until :func:`pause_unasked` renames it, shows it
and sets it), the live run ``{page}_live`` and a one-shot notice ``{page}_notice``. The matrix page also keeps its game
and its editor draft; the tree page its own game and its hands against the bot; the atlas its own results.

Every input that can refuse what it is given (a preset's parameters, the editor, a file) says why through one
mechanism: :func:`say` keeps one :class:`Message` per widget (``messages``), and :func:`show` draws it beside the
widget.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Mapping
from typing import NamedTuple

import streamlit as st

import rmcore

from . import escape, explain_app, link
from .live import SESSION_HISTORY_BYTES, SESSION_SOLVER_BYTES, LiveRun
from .matrix.editor import Draft

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
    "game_in_link": "whether the link carries the matrix page's game (its preset, or a game small enough)",
    "tree_game_in_link": "whether the link carries the tree page's game (a catalogue game, or a small enough .efg)",
    "tree_game_link_chars": "the tree page's own game's length as the link's kuhn_efg (0: none)",
    "kuhn_efg_param": "(digest, kuhn_efg): the tree page's own game as the link's parameter, made once per game",
    # -- each page's run
    "{page}_run": "the run flag, RUN or PAUSE: the only record of whether the page runs",
    "{page}_live": "the page's LiveRun (None before the page first runs)",
    "{page}_notice": "a one-shot Notice at the top of the page (None: nothing to say)",
    "{page}_fault": "True when the live panel failed: the next run pauses the page before a widget is drawn",
    "{page}_switch": "how many times the page was paused unasked: it names the Run/Pause switch's key",
    "{page}_ran": "whether the page ran at its last full script run (started: a run that has just begun)",
    # -- the matrix page
    "game": "the game being solved (rmcore.MatrixGame)",
    "from_preset": "whether that game is a preset's (False: edited, uploaded or linked)",
    "draft": "the editor's Draft: cells and names as typed, and a version that renews the editor's widgets",
    "opponent": "the last valid fixed opponent, as a tuple of the column player's weights (None: none yet)",
    "exact": "(game, its ExactSolution or None): the LP answer, computed once per game",
    "equilibria": "(game, its NashEquilibria or None): computed once per general-sum game",
    "field_lesson": "the field lesson last chosen: its words show while the page's settings stay the lesson's",
    "space_clicked": "True after a click on the strategy-space chart set a start: the live panel reruns the page",
    "space_animation": "the strategy chart's last animation: (iteration range, frames, format, bytes)",
    # -- the tree page
    "kuhn_uploaded": "the page's own game (ui.trees.games.UploadedGame), from the link or the uploader; None: none",
    "kuhn_play": "the hands against the bot (ui.trees.play.Table; None before the first)",
    "kuhn_retrace": "(run, iteration, its CFRTrace list): the walkthrough's iteration, re-derived once",
    # -- the atlas
    "atlas_results": "the page's own results: (table, where from, in words); None: the shipped atlas",
}
#: Widgets' own keys this module gives a value before the widget is drawn (beside :func:`set_widgets`): the matrix
#: page's preset box, the Run/Pause switch, the atlas's game.
WIDGET_KEYS = ("preset", "{page}_running", "{page}_running_{renamed}", "atlas_game")


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
    st.session_state.setdefault("session_id", uuid.uuid4().hex)
    st.session_state.setdefault("messages", {})
    st.session_state.setdefault("said_once", set())
    if "link_given" not in st.session_state:
        _arrived()
    for page in PAGES:
        st.session_state.setdefault(f"{page}_run", PAUSE)
        st.session_state.setdefault(f"{page}_live", None)
        st.session_state.setdefault(f"{page}_notice", None)
    st.session_state.setdefault("kuhn_play", None)
    if "kuhn_uploaded" not in st.session_state:  # from the link, or uploaded later
        uploaded, problem = link.uploaded_game()
        _link_problem(problem)
        st.session_state.kuhn_uploaded = uploaded
    settle_faults()
    st.session_state.setdefault("atlas_results", None)
    if "game" not in st.session_state:
        game, source, problem = link.initial_game(DEFAULT_PRESET)
        _link_problem(problem)
        st.session_state.game = game
        st.session_state.from_preset = source[0] == "preset"
        st.session_state.draft = Draft.from_game(game)
        st.session_state.opponent = None
        st.session_state.exact = None
        st.session_state.equilibria = None


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
    _link_problem(problem)
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


def label_link_algorithm() -> None:
    """On the matrix page, before its widgets are drawn in a session's first run: an algorithm the link names as the
    library does goes into the address by its widget's label, and the run starts again from there
    (:func:`ui.link.label_named_algorithm` says why)."""
    if not st.session_state.link_checked and link.label_named_algorithm():
        st.rerun()


def _link_problem(problem: str | None) -> None:
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
        _link_problem(problem)
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


def link_tree_game(uploaded) -> None:
    """Keep the link's ``kuhn_efg`` in step with the tree page's game: the user's game (``uploaded``, an
    ``UploadedGame``) when it is running and small enough, nothing for a catalogue game (None);
    ``tree_game_in_link`` says whether the link carries the game, for the Share box."""
    param = None if uploaded is None else _efg_param_of(uploaded)
    fits = link.tree_game_changed(param)
    st.session_state.tree_game_in_link = uploaded is None or fits
    st.session_state.tree_game_link_chars = 0 if param is None else len(param)


def _efg_param_of(uploaded) -> str:
    """``link.efg_param`` of the uploaded game's text, made once per game in a session (compressing Liar's dice's
    text took more than a second, on every run of the page)."""
    made = st.session_state.get("kuhn_efg_param")
    if made is None or made[0] != uploaded.digest:
        made = (uploaded.digest, link.efg_param(uploaded.text))
        st.session_state.kuhn_efg_param = made
    return made[1]


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

    def build(self, history_budget: int) -> rmcore.Race:
        """The race, its histories within ``history_budget`` bytes (fewer checkpoints a run where they would not
        fit)."""
        return rmcore.Race(
            self.game,
            self.variants,
            seeds=self.seeds,
            seed=self.seed,
            opponent=self.opponent,
            start=self.start,
            history_budget=history_budget,
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
    labels = [getattr(v, "label", v) for v in dropped]
    return trimmed, explain_app.fewer_runs(runs, each, SESSION_SOLVER_BYTES, kept, seeds, plan.seeds, labels)


def _within_limits(plan: RacePlan) -> tuple[rmcore.Race, list[str]]:
    """The race ``plan`` asks for, within the session's limits: at most ``SESSION_SOLVER_BYTES`` of solver state
    (:func:`_fewer_runs`), and at most ``SESSION_HISTORY_BYTES`` of history (fewer checkpoints per run); and what was
    cut, in words."""
    said = []
    plan, fewer = _fewer_runs(plan)
    if fewer:
        said.append(fewer)
    race = plan.build(SESSION_HISTORY_BYTES)
    points, members = rmcore.config.DEFAULT_MAX_POINTS, rmcore.config.RACE_MEMBER_POINTS
    needed = race.history_bytes(points, members)
    if needed > SESSION_HISTORY_BYTES:
        said.append(
            explain_app.fewer_checkpoints(
                race.runs, needed, SESSION_HISTORY_BYTES, race.max_points, race.member_points, points, members
            )
        )
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
    st.session_state.game_in_link = link.game_changed(game, from_preset)
    st.session_state.game = game
    st.session_state.from_preset = from_preset
    unsay("preset", "editor", "upload_csv")
    version = st.session_state.draft.version + 1
    if max(game.shape) <= 10:
        st.session_state.draft = Draft.from_game(game, version)


def ready_preset_box() -> None:
    """The preset box's value before it is drawn: the default preset at first (set here, not as the widget's default:
    a link may set it too), and none for an edited, uploaded or linked game (the box said "RPS with crash" over a
    200x200 CSV)."""
    st.session_state.setdefault("preset", DEFAULT_PRESET)
    if not st.session_state.get("from_preset", True):
        st.session_state.preset = None


def set_draft(draft: Draft) -> None:
    """What the editor shows: ``draft`` (a new shape, zero-sum switched)."""
    st.session_state.draft = draft


def remember_opponent(opponent: tuple[float, ...]) -> None:
    """The last valid fixed opponent (the column player's weights): kept while the sliders say something invalid."""
    st.session_state.opponent = opponent


def choose_field_lesson(name: str) -> None:
    """The field lesson ``name`` was chosen: its words show while the page's settings stay the lesson's."""
    st.session_state.field_lesson = name


def field_lesson() -> str | None:
    """The field lesson last chosen (None: none yet)."""
    return st.session_state.get("field_lesson")


def start_clicked() -> None:
    """A click on the strategy-space chart set a start (the live panel then reruns the whole page)."""
    st.session_state.space_clicked = True


def take_start_click() -> bool:
    """Whether a click on the strategy-space chart set a start since last asked."""
    return bool(st.session_state.pop("space_clicked", False))


def remember_animation(made: tuple) -> None:
    """The strategy chart's last animation: ``(iteration range, frames, format, bytes)``, offered for download."""
    st.session_state.space_animation = made


def animation() -> tuple | None:
    """The strategy chart's last animation (:func:`remember_animation`), or None."""
    return st.session_state.get("space_animation")


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
            say("exact", explain_app.exact_failed(error), "warning")
        else:
            unsay("exact")
        st.session_state.exact = known
    return known[1]


#: Seconds of the server a general-sum game's equilibria may take (computed once per game, in the script's run): an 8x8
#: game's vertex enumeration takes about a second, a 200x200 game's Lemke-Howson path well under that; a larger game
#: may take minutes, and the page then says it gave up.
EQUILIBRIA_SECONDS = 3.0


def nash_equilibria(game: rmcore.MatrixGame) -> rmcore.NashEquilibria | None:
    """A general-sum game's Nash equilibria (every one up to 8x8, one by Lemke-Howson beyond), computed once per game;
    None for a zero-sum game (its LP answers) or where the computation gave up (the message of ``"equilibria"`` says
    why)."""
    if game.is_zero_sum:
        return None
    known = st.session_state.get("equilibria")
    if known is None or known[0] is not game:
        try:
            known = (game, rmcore.nash_equilibria(game, time_limit=EQUILIBRIA_SECONDS))
        except RuntimeError as error:  # its time limit or pivot cap: said on the page; the run goes on without it
            known = (game, None)
            say("equilibria", escape.markdown(str(error)))
        else:
            unsay("equilibria")
        st.session_state.equilibria = known
    return known[1]


# -- the tree page ------------------------------------------------------------------------------


def set_tree_game(uploaded) -> None:
    """The tree page's own game is now ``uploaded`` (an ``UploadedGame`` read from a file)."""
    st.session_state.kuhn_uploaded = uploaded


def set_play_table(table) -> None:
    """The hands against the bot start afresh at ``table`` (a new seat, seed or bot)."""
    st.session_state.kuhn_play = table


def retraced(run: LiveRun, iteration: int) -> list:
    """Iteration ``iteration`` of ``run``'s first run, re-derived once (a rerun of the page does not redo it)."""
    known = st.session_state.get("kuhn_retrace")
    if known is None or known[0] is not run or known[1] != iteration:
        known = (run, iteration, run.primary.retrace(iteration))
        st.session_state.kuhn_retrace = known
    return known[2]


# -- the atlas ----------------------------------------------------------------------------------


def set_atlas_results(table, where: str) -> None:
    """The atlas shows ``table`` (a sweep's results) from now on; ``where`` says where it came from."""
    st.session_state.atlas_results = (table, where)


def ready_atlas_game(offered) -> None:
    """The atlas's game box before it is drawn: the first game ``offered`` when the box's game is not among them (new
    results)."""
    if st.session_state.get("atlas_game") not in offered:
        st.session_state.atlas_game = next(iter(offered))
