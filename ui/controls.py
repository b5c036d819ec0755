"""The matrix page's input widgets: game, opponent, algorithm and run controls.

Widgets change state through callbacks, so the script that follows sees the change; invalid input
shows a message right under the widget and leaves the last valid game (and the typed text) alone.
"""

from __future__ import annotations

import streamlit as st

import rmcore

from .live_run import SPEEDS, LiveRun, RunSettings
from .matrix_editor import EDITOR_LIMIT, UPLOAD_LIMIT, Draft, edit_cells, game_from_csv
from .state import DEFAULT_PRESET, load_game

ALGORITHM_HELP = {
    "rm": "Regret matching (Hart & Mas-Colell 2000): play each action in proportion to its positive cumulative regret.",
    "rm+": "RM+ (Tammelin 2014): like RM, but cumulative regrets are clipped at zero after every update, so a good action recovers fast.",
    "prm+": "Predictive RM+ (Farina, Kroer & Sandholm 2021): RM+ that also counts the last regret once more as a prediction; converges much faster in practice.",
}
ALGORITHM_NAMES = {"rm": "RM (regret matching)", "rm+": "RM+", "prm+": "Predictive RM+"}


# -- game ----------------------------------------------------------------------------------


def _parameter_key(preset: str, name: str) -> str:
    return f"param_{preset}_{name}"


def _load_preset() -> None:
    entry = rmcore.PRESETS[st.session_state.preset]
    params = {p.name: st.session_state.get(_parameter_key(entry.name, p.name), p.default) for p in entry.parameters}
    params = {name: int(v) if p.integer else float(v) for (name, v), p in zip(params.items(), entry.parameters)}
    try:
        load_game(rmcore.preset(entry.name, **params))
    except ValueError as error:
        st.session_state.game_error = str(error)


def game_section() -> None:
    """Preset, its parameters, a CSV upload and the in-place editor with Apply."""
    st.subheader("Game")
    names = list(rmcore.PRESETS)
    st.selectbox("Preset", names, index=names.index(DEFAULT_PRESET), key="preset", on_change=_load_preset,
                 format_func=lambda name: rmcore.PRESETS[name].title, help="Pick a game to start from; then edit it below.")  # fmt: skip
    entry = rmcore.PRESETS[st.session_state.preset]
    st.caption(entry.description)
    for p in entry.parameters:
        kind = int if p.integer else float
        st.slider(p.name.replace("_", " "), kind(p.low), kind(p.high), kind(p.default), step=1 if p.integer else 0.1,
                  key=_parameter_key(entry.name, p.name), on_change=_load_preset, help=p.help)  # fmt: skip
    if st.session_state.game_error:
        st.error(st.session_state.game_error)
    game = st.session_state.game
    kind = "zero-sum" if game.is_zero_sum else "general-sum"
    st.markdown(f"Now solving: **{game.name or 'your game'}** ({game.shape[0]}x{game.shape[1]}, {kind})")
    _editor()
    with st.expander(f"Upload a CSV (up to {UPLOAD_LIMIT}x{UPLOAD_LIMIT})"):
        _upload()


def _editor() -> None:
    draft: Draft = st.session_state.draft
    v = draft.version
    c1, c2, c3 = st.columns(3)
    zero_sum = c1.toggle("Zero-sum", value=draft.zero_sum, key=f"zero_sum_{v}", help="On: the column player gets minus the row player's payoff. Off: edit both payoff matrices.")
    rows = c2.number_input("Row actions", 1, EDITOR_LIMIT, draft.shape[0], key=f"rows_{v}")
    cols = c3.number_input("Column actions", 1, EDITOR_LIMIT, draft.shape[1], key=f"cols_{v}")
    row_names = st.text_input("Row action names (comma-separated)", ", ".join(draft.row_names), key=f"row_names_{v}")
    col_names = st.text_input("Column action names (comma-separated)", ", ".join(draft.col_names), key=f"col_names_{v}")
    row_cells = edit_cells(draft, "row", "Row player's payoffs A (rows: row actions, columns: column actions)")
    col_cells = None if draft.col_cells is None else edit_cells(draft, "col", "Column player's payoffs B")
    if zero_sum != draft.zero_sum or (rows, cols) != draft.shape:
        typed = Draft(row_cells, col_cells, _split(row_names), _split(col_names), v)
        try:
            st.session_state.draft = typed.with_zero_sum(zero_sum).with_shape(int(rows), int(cols))
        except ValueError as error:
            st.session_state.editor_error = str(error)
        st.rerun()
    if st.button("Apply edits", key="apply", type="primary", help="Edits take effect only when applied, so a half-typed matrix never restarts a run."):
        try:
            load_game(draft.to_game(row_cells, col_cells, row_names, col_names, name="Edited game"))
        except ValueError as error:
            st.session_state.editor_error = str(error)
    if st.session_state.editor_error:
        st.error(f"Not applied: {st.session_state.editor_error}. The last valid game keeps running.")


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in str(text).split(","))


def _upload() -> None:
    row_file = st.file_uploader("Row player's payoffs (CSV: numbers, optionally with a header line and a first column of names)", type="csv", key="upload_row")
    col_file = st.file_uploader("Column player's payoffs (optional; leave empty for zero-sum)", type="csv", key="upload_col")
    if st.button("Load CSV", key="load_csv", disabled=row_file is None):
        try:
            game = game_from_csv(row_file.getvalue(), None if col_file is None else col_file.getvalue(), name=row_file.name)
        except ValueError as error:
            st.session_state.upload_error = str(error)
        else:
            st.session_state.upload_error = None
            load_game(game)
            st.rerun()
    if st.session_state.upload_error:
        st.error(f"Not loaded: {st.session_state.upload_error}")
    if max(st.session_state.game.shape) > EDITOR_LIMIT:
        st.caption(f"This game is larger than {EDITOR_LIMIT}x{EDITOR_LIMIT}, so the editor above still shows the last small game.")


# -- opponent and algorithm ----------------------------------------------------------------


def opponent_section(game: rmcore.MatrixGame) -> tuple[float, ...] | None:
    """Self-play (None) or a fixed column strategy from one slider per column action."""
    st.subheader("Opponent")
    mode = st.radio("Column player", ["Self-play", "Fixed mixed strategy"], key="opponent_mode", horizontal=True,
                    help="Self-play: both players learn. Fixed: only the row player learns, against the mix you set; its average approaches a best response.")  # fmt: skip
    if mode == "Self-play":
        return None
    n = game.shape[1]
    if n > EDITOR_LIMIT:
        st.warning(f"A fixed opponent is set with sliders for up to {EDITOR_LIMIT} column actions; this game has {n}. Using self-play.")
        return None
    weights = [st.slider(f"weight of {label}", 0, 100, 50, key=f"opponent_{n}_{k}") for k, label in enumerate(game.col_actions)]
    total = sum(weights)
    last = st.session_state.opponent
    if total == 0:
        st.error("All weights are zero: give at least one action a positive weight. Keeping the last valid opponent.")
        return last if last is not None and len(last) == n else tuple([1.0 / n] * n)
    opponent = tuple(w / total for w in weights)
    st.caption("Opponent plays " + " / ".join(f"{label} {p:.0%}" for label, p in zip(game.col_actions, opponent)))
    st.session_state.opponent = opponent
    return opponent


def algorithm_section(opponent: tuple[float, ...] | None) -> RunSettings:
    st.subheader("Algorithm")
    algorithm = st.selectbox("Variant", list(ALGORITHM_NAMES), format_func=ALGORITHM_NAMES.get, key="algorithm",
                             help=" ".join(ALGORITHM_HELP.values()))  # fmt: skip
    st.caption(ALGORITHM_HELP[algorithm])
    sampling = st.radio("Sampling", ["expected", "sampled"], key="sampling", horizontal=True,
                        help="expected: regrets against the opponent's full mixed strategy. sampled: each player samples one action per iteration, as in the classic tutorials (noisier).")  # fmt: skip
    seed = 0
    if sampling == "sampled":
        seed = st.number_input("Seed", 0, 2**31 - 1, 0, key="seed", help="Same seed, same run.")
    updates = st.radio("Updates", ["simultaneous", "alternating"], key="updates", horizontal=True,
                       help="simultaneous: both players update against this iteration's strategies. alternating: the column player updates against the row player's new strategy (as CFR+ does).")  # fmt: skip
    averaging = st.radio("Averaging", ["uniform", "linear", "quadratic"], key="averaging", horizontal=True,
                         help="Weights of iteration t in the average strategy: 1, t or t². Later iterations are better, so weighting them more converges faster.")  # fmt: skip
    return RunSettings(algorithm, sampling, updates, averaging, opponent, int(seed))


# -- run controls --------------------------------------------------------------------------


RUN, PAUSE = "Run", "Pause"


def run_pause(key: str) -> bool:
    """A Run / Pause switch; returns True while running.

    A two-way switch rather than a button: while a live fragment reruns several times a second, a
    button's one-shot click can be swallowed by the next fragment rerun (seen in a real browser),
    whereas a widget's value always arrives. Callbacks pause it by setting ``st.session_state[key]``.
    """
    st.session_state.setdefault(key, PAUSE)  # set here once, so callbacks may change it
    st.segmented_control("Run or pause", [RUN, PAUSE], required=True, key=key, label_visibility="collapsed",
                         format_func=lambda o: f":material/{'play_arrow' if o == RUN else 'pause'}: {o}")  # fmt: skip
    return st.session_state[key] == RUN


def _pause_and_step(iterations: int) -> None:
    st.session_state.running = PAUSE
    st.session_state.run.step(iterations)


def _reset() -> None:
    run: LiveRun = st.session_state.run
    st.session_state.running = PAUSE
    st.session_state.run = LiveRun(run.game, run.settings)


def run_controls(run: LiveRun) -> tuple[int | None, bool, bool]:
    """Run / Pause, Step +1 / +10 / +100, Reset, speed and display options."""
    c = st.columns([1.6, 1, 1, 1, 1])
    with c[0]:
        run.running = run_pause("running")
    for column, n in zip(c[1:4], (1, 10, 100)):
        column.button(f"Step +{n}", key=f"step_{n}", on_click=_pause_and_step, args=(n,))
    c[4].button("Reset", key="reset", on_click=_reset, icon=":material/restart_alt:")
    options = list(SPEEDS)
    speed = st.select_slider("Speed: iterations per screen update", options, value=options[-1], key="speed",
                             help="1 per update to watch regret matching move by hand; 'as fast as possible' runs millions per second.")  # fmt: skip
    d1, d2 = st.columns(2)
    log_x = d1.toggle("Log iteration axis", value=True, key="log_x")
    show_current = d2.toggle("Show current strategies on the simplex", value=False, key="show_current")
    return SPEEDS[speed], log_x, show_current


def notice() -> None:
    """Say once why a run restarted."""
    if st.session_state.notice:
        st.info(st.session_state.notice, icon=":material/restart_alt:")
        st.session_state.notice = None
