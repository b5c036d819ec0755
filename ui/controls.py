"""Run controls both pages share: Run / Pause, Step, Reset, the speed, the keyboard, replay and presentation mode.

Widgets change state through callbacks, so the script run that follows sees the change.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import streamlit as st

import rmcore

from . import explain, explain_app, link, state
from .governor import GOVERNOR
from .live import COMPILING_INTERVAL, SEND_WAIT, SPEEDS, Speed

STEPS = (1, 10, 100)
_LOG = logging.getLogger(__name__)

# Space and R as shortcuts, in the page itself (a v2 component's script runs in the app's document).
# Streamlit's own `shortcut=` serves Step +1 (the right arrow, drawn on the button), but the Run /
# Pause switch is a segmented control, which takes no shortcut, and Streamlit reserves R for itself.
# The keys click the page's own widgets, so they take exactly the path a mouse click takes; typing
# in a field is left alone.
_keyboard = st.components.v2.component(
    "rm_keyboard",
    js="""
export default function (component) {
  window.rmKeysPage = component.data.page;
  if (window.rmKeysInstalled) return;
  window.rmKeysInstalled = true;
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable=true], """
    """[data-testid=stDataFrame], [data-testid=stDataEditor]")) return;
    const page = window.rmKeysPage;
    let button = null;
    if (event.key === " ") {
      button = document.querySelector(`[class*="st-key-${page}_running"] button[aria-checked="false"]`);
    } else if (event.key === "r" || event.key === "R") {
      button = document.querySelector(`.st-key-${page}_reset button`);
    }
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    button.click();
  }, true);
}
""",
)


def _run_pause(page: str) -> None:
    """A Run / Pause switch whose value is the page's run flag.

    A two-way switch rather than a button: while a live fragment reruns several times a second, a
    button's one-shot click can be swallowed by the next fragment rerun (seen in a real browser),
    whereas a widget's value always arrives. Callbacks pause it with ``state.pause``.
    """
    st.segmented_control(
        "Run or pause",
        [state.RUN, state.PAUSE],
        required=True,
        key=state.show_run_flag(page),
        label_visibility="collapsed",
        on_change=state.take_run_flag,
        args=(page,),
        format_func=lambda o: f":material/{'play_arrow' if o == state.RUN else 'pause'}: {o}",
    )


def _step(page: str, iterations: int) -> None:
    state.pause(page)
    state.live(page).step(iterations)


def run_controls(page: str, iteration: int, step_help: str = "") -> Speed:
    """Run / Pause, Step +1 / +10 / +100, Reset and the speed in one row, the keys under it, Share in the sidebar;
    returns the speed."""
    c = st.columns(
        [2.5, 1.3, 1.3, 1.4, 1.5, 2.4], vertical_alignment="bottom"
    )  # Run | Pause needs 175 px; a 2.0 share gave it 144 at 1280 wide with the sidebar open (it scrolled sideways)
    with c[0]:
        _run_pause(page)
    for column, n in zip(c[1:4], STEPS):
        column.button(
            f"Step +{n}",
            key=f"{page}_step_{n}",
            on_click=_step,
            args=(page, n),
            shortcut="Right" if n == 1 else None,
            help=explain_app.step_help(n, step_help if n == 1 else ""),
        )
    c[4].button(
        "Reset",
        key=f"{page}_reset",
        on_click=state.restart,
        args=(page,),
        icon=":material/restart_alt:",
        help=explain_app.RESET_HELP,
    )
    options = list(SPEEDS)
    speed = c[5].select_slider(
        "Speed",
        options,
        value=options[-1],
        key=f"{page}_speed",
        bind="query-params",
        help=explain_app.SPEED_HELP,
    )
    with st.sidebar:
        link.share(page, iteration)
    st.caption(explain_app.KEYS_HINT)
    _keyboard(data={"page": page}, key=f"{page}_keyboard")
    return SPEEDS[speed]


def live_fragment(page: str, speed: Speed, draw) -> None:
    """Advance the page's run and redraw in a fragment that reruns every ``speed.interval`` seconds while running.

    ``draw(live, timeline)`` draws the page's live panel from the run; ``timeline`` (a :class:`Timeline`) says which
    iteration a paused run's replay shows and draws its slider where the page asks.
    """
    running = state.running(page)
    if not running:
        GOVERNOR.leave(state.session_id())
    calls = []  # the first call is this full script run's; the later ones are the fragment's timed reruns
    # While the run's solver compiles, fewer updates: the compile gets the cores (COMPILING_INTERVAL); the first update
    # on compiled code reruns the page, which then updates at the chosen speed again.
    compiling = state.live(page).kernel_status() in ("python", "compiling")
    interval = max(speed.interval, COMPILING_INTERVAL) if compiling else speed.interval

    # One fragment, running or paused: a different fragment would make the page mount every chart afresh
    # (reloading plotly.js and losing the user's zoom) at each Run and Pause.
    @st.fragment(run_every=interval if running else None)
    def panel():
        timed = bool(calls)
        calls.append(True)
        run = state.live(page)
        try:
            if not state.running(page):
                draw(run, Timeline(page, run.iteration, paused=True))
            elif not timed:  # a click or a setting: answered at once, never queued behind the other sessions
                started, heading = time.perf_counter(), run.target is not None
                run.tick(speed.iterations)
                _kernel_notice(run)
                _target_reached(page, run, heading)
                draw(run, Timeline(page, run.iteration, paused=False))
                run.update_seconds += time.perf_counter() - started
            else:
                with GOVERNOR.turn(state.session_id(), _user_asked) as turn:
                    started = time.perf_counter()
                    if turn is not None:  # else the user asked for something: drawing hands over to that rerun at once
                        before, heading = run.solver_seconds, run.target is not None
                        run.tick(speed.iterations, turn.budget, _user_asked)
                        GOVERNOR.solver_used(run.solver_seconds - before)
                        _kernel_notice(run)
                        _target_reached(page, run, heading)
                    draw(run, Timeline(page, run.iteration, paused=False))
                    run.update_seconds += time.perf_counter() - started
                _wait_until_sent()
                if compiling and run.kernel_status() == "ready":
                    st.rerun(scope="app")  # (compiled now: back to the chosen speed's interval)
        except (rmcore.KernelsCompiling, rmcore.KernelsUnavailable):
            # (A read the page makes before its run starts, on a game too large for plain Python: the panel waits, and
            # the line under the iteration says what compiles and for how long, or that nothing will.)
            draw(run, Timeline(page, run.iteration, paused=not state.running(page)))
        except (
            Exception
        ) as error:  # a solver, figure or component failure: a short message and a paused run, not a traceback
            _LOG.exception("the %s page's live panel failed", page)
            state.fault(page, f"{type(error).__name__}: {error}", run.iteration)

    panel()


def _target_reached(page: str, run, heading: bool) -> None:
    """A run that was heading for a link's ``run_to`` and got there pauses; a target lowered on the way says why."""
    if run.target_note and state.once((page, "target lowered")):
        st.toast(run.target_note, icon=":material/speed:")
    if heading and run.target is None:
        state.pause_unasked(page)
        st.rerun(scope="app")  # the whole page: the Run/Pause switch shows the pause


def _kernel_notice(run) -> None:
    """Say so, once per setting, when the last update did not run on the settings' own compiled kernel.

    A toast: it takes no place among the panel's elements, so the charts after it keep theirs. Asked after the update,
    so it says what the update ran on (whether a kernel would load from numba's cache is only known by then).
    """
    status = run.kernel_status()
    if status in ("ready", "load") or not state.once(("kernel", status, run.key)):
        return
    if status == "failed":
        words = explain.kernels_failed(run.kernels_problem(), runs=not run.waits_for_compile())
        st.toast(words, icon=":material/error:")
        return
    st.toast(explain.COMPILING_NOTICE[status], icon=":material/hourglass_top:")


#: How often a timed update looks whether its messages have left (:func:`_wait_until_sent`).
_SEND_POLL = 0.002


def _wait_until_sent(limit: float = SEND_WAIT) -> None:
    """Wait, without holding the GIL or a turn, until the update just drawn has left for the browser.

    Streamlit drops a fragment's unsent elements when that fragment's next run starts. A session whose timer ticks
    came while it waited for its turn has that next run queued, and it starts the moment this one ends, before the
    server's event loop (busy sending thirty sessions' charts) has sent this update: the server did the work and the
    screen never showed it. Measured with ``benchmarks/load.py`` (30 sessions beside the heaviest Liar's dice link):
    one session's solver advanced 3.4 million iterations over eight seconds while its screen showed none of them.

    No public API says whether a session's messages have gone out: this reads the session's queue of outgoing messages
    as Streamlit's own event loop does (``tests/test_governor.py`` checks the path against the installed Streamlit);
    if that ever changes, it returns at once and updates may be dropped under load, as without it. A click waiting
    behind the update ends the wait.
    """
    queue = _outgoing_queue()
    if queue is None:
        return
    deadline = time.perf_counter() + limit
    while not queue.is_empty() and not _user_asked() and time.perf_counter() < deadline:
        time.sleep(_SEND_POLL)


def _outgoing_queue():
    """This session's queue of messages for the browser (Streamlit's ``ForwardMsgQueue``), or None."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    try:
        info = Runtime.instance()._session_mgr.get_active_session_info(ctx.session_id)
        queue = info.session._browser_queue
    except Exception:  # no runtime (AppTest, a bare script), or Streamlit's internals moved
        return None
    return queue if callable(getattr(queue, "is_empty", None)) else None


def _user_asked() -> bool:
    """Whether this session has a click, a new setting or a closed tab waiting behind its fragment's rerun.

    Streamlit answers such a request when the script next draws something; a fragment waiting for its turn draws
    nothing, so the governor asks this while it waits. No public API says whether a rerun is pending: this reads the
    session's request queue (``ScriptRequests``) as Streamlit's own script runner does (``tests/test_governor.py``
    checks it against the installed Streamlit); if that ever changes, it answers False and a click waits for the turn.
    """
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    requests = getattr(get_script_run_ctx(suppress_warning=True), "script_requests", None)
    return pending_interaction(requests)


def pending_interaction(requests) -> bool:
    """Whether a ``ScriptRequests`` holds a stop or a full-page rerun (not only fragment reruns)."""
    kind = getattr(getattr(requests, "_state", None), "name", "")
    if kind == "STOP":
        return True
    rerun = getattr(requests, "_rerun_data", None)
    return kind == "RERUN" and rerun is not None and not getattr(rerun, "fragment_id_queue", [None])


class Timeline:
    """The replay of a paused run: the iteration it points at, read before anything is drawn (the numbers above the
    charts show that iteration too), and its slider, drawn where the page calls :meth:`slider`.

    Read first and drawn later, the slider needs no place of its own held open in the page: every element is one more
    message on each screen update of a running page, and a place held empty costs as much as a filled one.
    """

    def __init__(self, page: str, live_iteration: int, paused: bool):
        self._key, self._paused = (
            f"{page}_replay_{live_iteration}",
            paused,
        )  # a new key per pause: it starts at the live end

    def at(self, history) -> int | None:
        """The iteration the slider points at, or None at the live end (and always while running)."""
        if not self._paused:
            return None
        options = _replay_options(history)
        chosen = st.session_state.get(self._key)
        return chosen if options and chosen in options and chosen != options[-1] else None

    def row(self, history) -> tuple[int, int | None]:
        """The checkpoint row the page shows and, in a replay, its iteration (None at the live end)."""
        at = self.at(history)
        row = len(history) - 1 if at is None else history.row_at(at)
        return row, None if at is None else int(history.iterations[row])

    def slider(self, history) -> None:
        """When paused on two checkpoints or more, a timeline over ``history``'s checkpoints; nothing while running."""
        options = _replay_options(history) if self._paused else []
        if options:
            st.select_slider(
                explain_app.REPLAY_LABEL,
                options,
                value=options[-1],
                key=self._key,
                format_func=lambda t: f"{t:,}",
            )


def _replay_options(history) -> list[int]:
    """Up to 400 of ``history``'s checkpoints, the last included (none for fewer than two)."""
    iterations = history.iterations
    if len(iterations) < 2:
        return []
    return [
        int(t)
        for t in iterations[np.unique(np.linspace(0, len(iterations) - 1, min(len(iterations), 400)).astype(int))]
    ]


# -- presentation mode -----------------------------------------------------------------------------

# Less empty space above the page and between blocks, so that the run controls and the main chart fit
# on a 1280x720 projector. Streamlit has no setting for its page padding; this is the one style rule we add.
_PRESENTATION_CSS = """<style>
[data-testid="stMainBlockContainer"] { padding-top: 4rem; padding-bottom: 2rem; }
[data-testid="stMain"] [data-testid="stVerticalBlock"] { gap: 0.6rem; }
</style>"""


def presentation_toggle() -> None:
    """The presentation-mode switch (in the sidebar, and in the link as ``present``) and its page style."""
    st.sidebar.toggle(
        "Presentation mode",
        key="present",
        bind="query-params",
        help=explain_app.PRESENTATION_HELP,
    )
    if state.presenting():
        st.html(_PRESENTATION_CSS)
