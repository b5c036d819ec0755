"""Run controls both pages share: Run / Pause, Step, Reset and the speed.

Widgets change state through callbacks, so the script run that follows sees the change.
"""

from __future__ import annotations

import streamlit as st

from . import state
from .live import SPEEDS, Speed

STEPS = (1, 10, 100)


def _run_pause(page: str) -> None:
    """A Run / Pause switch whose value is the page's run flag.

    A two-way switch rather than a button: while a live fragment reruns several times a second, a
    button's one-shot click can be swallowed by the next fragment rerun (seen in a real browser),
    whereas a widget's value always arrives. Callbacks pause it with ``state.pause``.
    """
    st.segmented_control("Run or pause", [state.RUN, state.PAUSE], required=True, key=f"{page}_running", label_visibility="collapsed",
                         format_func=lambda o: f":material/{'play_arrow' if o == state.RUN else 'pause'}: {o}")  # fmt: skip


def _step(page: str, iterations: int) -> None:
    state.pause(page)
    state.live(page).step(iterations)


def run_controls(page: str, step_help: str = "") -> Speed:
    """Run / Pause, Step +1 / +10 / +100, Reset and the speed; returns the speed."""
    c = st.columns([1.6, 1, 1, 1, 1])
    with c[0]:
        _run_pause(page)
    for column, n in zip(c[1:4], STEPS):
        column.button(f"Step +{n}", key=f"{page}_step_{n}", on_click=_step, args=(page, n), help=step_help if n == 1 else None)
    c[4].button("Reset", key=f"{page}_reset", on_click=state.restart, args=(page,), icon=":material/restart_alt:")
    options = list(SPEEDS)
    speed = st.select_slider("Speed", options, value=options[-1], key=f"{page}_speed", bind="query-params",
                             help="One iteration a second to talk through every step; 'as fast as possible' fills a time budget per screen update.")  # fmt: skip
    return SPEEDS[speed]


def live_fragment(page: str, speed: Speed, draw) -> None:
    """Advance the page's run and redraw in a fragment that reruns every ``speed.interval`` seconds while running.

    ``draw(live)`` draws the page's live panel from the run.
    """
    running = state.running(page)

    @st.fragment(run_every=speed.interval if running else None)
    def panel():
        run = state.live(page)
        if state.running(page):
            run.tick(speed.iterations)
        draw(run)

    panel()
