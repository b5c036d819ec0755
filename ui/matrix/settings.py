"""The matrix page's input widgets: game, opponent, algorithm and the variants to race.

Widgets change state through callbacks, so the script that follows sees the change; invalid input
shows a message right under the widget and leaves the last valid game (and the typed text) alone.
Choices and their help texts come from rmcore's catalogues.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import NamedTuple

import numpy as np
import streamlit as st

import rmcore
from rmcore.verification import check

from .. import explain_app, explain_correlated, explain_matrix, explain_players, link, state
from ..escape import markdown as escape
from ..explain import ALGORITHM_NAMES, CURRENT_HELP, ETA, MATRIX_RANK_BY, MATRIX_RANK_HELP
from ..live import LiveRun, RacePlan, history_share
from . import players
from . import state as matrix_state
from .editor import (
    EDITOR_LIMIT,
    UPLOAD_ACCEPTED_MEGABYTES,
    UPLOAD_LIMIT,
    UPLOAD_MEGABYTES,
    Draft,
    edit_cells,
    game_from_csv,
    game_from_nfg,
    nfg_file_name,
    show_too_large,
)


def _variant(*names):
    """``MatrixVariant(*names)``, or ``None`` for a form the rule refuses (extragradient RM+ is expected and
    simultaneous only)."""
    try:
        return rmcore.MatrixVariant(*names)
    except ValueError:
        return None


#: Every variant a race can include, in catalogue order.
ALL_VARIANTS = tuple(
    variant
    for variant in itertools.starmap(
        _variant, itertools.product(rmcore.ALGORITHMS, rmcore.SAMPLINGS, rmcore.UPDATES, rmcore.AVERAGINGS)
    )
    if variant is not None
)
#: Most variants in a matrix race: the chosen one and ``link.MOST_CHOSEN["race_variants"]`` others.
MAX_RACE = 1 + link.MOST_CHOSEN["race_variants"]
#: The step sizes the eta slider offers, log-spaced (as text, so that the link reads ``eta=0.05``).
#: internal-rm's inertia as a multiple of the least Hart & Mas-Colell allow on the game (a multiple, not a number:
#: the least differs from game to game, and a link's mu=2 stays valid on every game it opens).
MU_CHOICES = ("1", "1.5", "2", "3", "5", "10", "100")
ETA_CHOICES = ("0.001", "0.002", "0.005", "0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10")


class RunSettings(NamedTuple):
    """Everything that changes the dynamics besides the game: a change means a new run."""

    variants: tuple[rmcore.MatrixVariant, ...]
    opponent: tuple[float, ...] | None = None
    seed: int = 0
    seeds: int = 1
    start: tuple[tuple[float, ...], tuple[float, ...]] | None = None
    mu: float | None = None


# -- game ----------------------------------------------------------------------------------


#: The page's catalogue: the two-player presets, then those of three players (``rmcore.NORMAL_FORM_PRESETS``).
CATALOGUE = {**rmcore.PRESETS, **rmcore.NORMAL_FORM_PRESETS}


def _parameter_key(preset: str, name: str) -> str:
    return f"param_{preset}_{name}"


def load_preset() -> None:
    """Load the chosen preset with its parameters' values (a message under the box if they are refused)."""
    if st.session_state.preset is None:  # (the box shows the user's own game: nothing to load)
        return
    entry = CATALOGUE[st.session_state.preset]
    params = {p.name: st.session_state.get(_parameter_key(entry.name, p.name), p.default) for p in entry.parameters}
    params = {name: int(v) if p.integer else float(v) for (name, v), p in zip(params.items(), entry.parameters)}
    try:
        matrix_state.load_game(rmcore.preset(entry.name, **params), from_preset=True)
    except ValueError as error:
        state.say("preset", escape(str(error)))


def game_section() -> None:
    """Preset, its parameters, the in-place editor with Apply, a CSV upload and a Gambit .nfg upload and download."""
    st.subheader("Game")
    # The app's default preset is the first option: a bound select box leaves its first option out of the address, so
    # an address without ``preset`` must mean that game on the page and in a fresh tab alike.
    names = [matrix_state.DEFAULT_PRESET, *(name for name in CATALOGUE if name != matrix_state.DEFAULT_PRESET)]
    matrix_state.ready_preset_box()
    st.selectbox(
        "Preset",
        names,
        key="preset",
        on_change=load_preset,
        bind="query-params",
        format_func=lambda name: CATALOGUE[name].title,
        placeholder=explain_matrix.PRESET_PLACEHOLDER,
        help=explain_matrix.PRESET_HELP,
    )
    entry = CATALOGUE.get(st.session_state.preset)
    if st.session_state.game.description:  # the game's own words: an edited, uploaded or linked game has none
        st.caption(escape(st.session_state.game.description))
    for p in entry.parameters if entry is not None else ():
        kind = int if p.integer else float
        st.slider(
            p.name.replace("_", " "),
            kind(p.low),
            kind(p.high),
            kind(p.default),
            step=1 if p.integer else 0.1,
            key=_parameter_key(entry.name, p.name),
            on_change=load_preset,
            help=p.help,
            bind="query-params",
        )
    state.show("preset")
    game = st.session_state.game
    st.markdown(explain_matrix.now_solving(game.name, game.shape, game.is_zero_sum))
    if game.num_players > 2:
        players.editor(game)
    else:
        _editor()
    with st.expander(f"Upload a CSV (up to {UPLOAD_LIMIT}x{UPLOAD_LIMIT})"):
        _upload()
    with st.expander(explain_matrix.nfg_expander(UPLOAD_LIMIT)):
        _nfg()


def _action_count(column, label: str, current: int, key: str) -> int | None:
    """A number of actions as typed; a message under it (and None) unless it is a whole number from 1 to EDITOR_LIMIT.

    A float input without bounds, because Streamlit's own integer input silently truncates 2.5 to 2
    and shows an out-of-range count only as a red border, never telling the server.
    """
    typed = column.number_input(label, value=float(current), step=1.0, format="%g", key=key)
    if typed.is_integer() and 1 <= typed <= EDITOR_LIMIT:
        return int(typed)
    column.error(explain_matrix.action_count_refused(label, EDITOR_LIMIT, typed))
    return None


def _same_payoffs(a: rmcore.MatrixGame, b: rmcore.MatrixGame) -> bool:
    return (
        a.shape == b.shape
        and np.array_equal(a.row_payoffs, b.row_payoffs)
        and np.array_equal(a.col_payoffs, b.col_payoffs)
    )


def _same_game(a: rmcore.MatrixGame, b: rmcore.MatrixGame) -> bool:
    return (
        a.shape == b.shape
        and np.array_equal(a.row_payoffs, b.row_payoffs)
        and np.array_equal(a.col_payoffs, b.col_payoffs)
        and a.row_actions == b.row_actions
        and a.col_actions == b.col_actions
    )


def _editor() -> None:
    if max(st.session_state.game.shape) > EDITOR_LIMIT:
        show_too_large(st.session_state.game)
        return
    draft: Draft = st.session_state.draft
    v = draft.version
    c1, c2, c3 = st.columns(3)
    zero_sum = c1.toggle(
        "Zero-sum",
        value=draft.zero_sum,
        key=f"zero_sum_{v}",
        help=explain_matrix.ZERO_SUM_HELP,
    )
    rows = _action_count(c2, "Row actions", draft.shape[0], f"rows_{v}")
    cols = _action_count(c3, "Column actions", draft.shape[1], f"cols_{v}")
    row_names = st.text_input("Row action names (comma-separated)", ", ".join(draft.row_names), key=f"row_names_{v}")
    col_names = st.text_input("Column action names (comma-separated)", ", ".join(draft.col_names), key=f"col_names_{v}")
    row_cells = edit_cells(draft, "row", explain_matrix.ROW_PAYOFFS)
    col_cells = None if draft.col_cells is None else edit_cells(draft, "col", explain_matrix.COL_PAYOFFS)
    shape = (rows or draft.shape[0], cols or draft.shape[1])
    if zero_sum != draft.zero_sum or shape != draft.shape:
        typed = Draft(row_cells, col_cells, _split(row_names), _split(col_names), v)
        try:
            matrix_state.set_draft(typed.with_zero_sum(zero_sum).with_shape(*shape))
        except ValueError as error:
            state.say("editor", explain_matrix.not_applied(error))
        st.rerun()
    if st.button(
        "Apply edits",
        key="apply",
        type="primary",
        help=explain_matrix.APPLY_HELP,
    ):
        current = st.session_state.game
        try:
            name = (
                current.name
                if current.name.endswith("(edited)") or current.name == "Edited game"
                else f"{current.name} (edited)"
            )
            edited = dataclasses.replace(
                draft.to_game(row_cells, col_cells, row_names, col_names, name=name), players=current.players
            )
            if _same_payoffs(edited, current):  # only names changed: the same game and its start
                renamed = (edited.row_actions, edited.col_actions) != (current.row_actions, current.col_actions)
                edited = dataclasses.replace(
                    current,
                    row_actions=edited.row_actions,
                    col_actions=edited.col_actions,
                    # (a preset's words name its actions, "90% Heads": with other names they would be false)
                    description="" if renamed else current.description,
                )
        except ValueError as error:
            state.say("editor", explain_matrix.not_applied(error))
        else:
            if _same_game(edited, current):
                state.say("editor", explain_matrix.NOTHING_CHANGED, "info", once=True)
            else:
                matrix_state.load_game(edited, from_preset=False)
                st.rerun()  # so that everything above (the game's name) shows the new game at once
    state.show("editor")


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in str(text).split(","))


def _upload() -> None:
    # The size goes in the label too: a file over UPLOAD_ACCEPTED_MEGABYTES gets Streamlit's wordless chip.
    row_file = st.file_uploader(
        explain_matrix.csv_row_label(UPLOAD_MEGABYTES),
        type=["csv", "txt", "tsv"],
        key="upload_row",
        max_upload_size=UPLOAD_ACCEPTED_MEGABYTES,
    )
    col_file = st.file_uploader(
        explain_matrix.csv_col_label(UPLOAD_MEGABYTES),
        type=["csv", "txt", "tsv"],
        key="upload_col",
        max_upload_size=UPLOAD_ACCEPTED_MEGABYTES,
    )
    load = st.button("Load CSV", key="load_csv", disabled=row_file is None)
    said = st.empty()  # (what became of the file: the last file's words give way at once to the new file's)
    if load:
        said.info(explain_app.reading(row_file.name), icon=":material/hourglass_top:")
        try:
            game, notes = game_from_csv(
                row_file.getvalue(), None if col_file is None else col_file.getvalue(), name=row_file.name
            )
        except ValueError as error:
            state.say("upload_csv", explain_matrix.not_loaded(error, keeps_running=False))
        else:
            matrix_state.load_game(game, from_preset=False)
            if notes:
                state.say("upload_csv", explain_matrix.loaded_assuming(notes), "info")
            st.rerun()
    now = state.message("upload_csv")
    state.show("upload_csv", icon=":material/info:" if now is not None and now.kind == "info" else None, place=said)


def _nfg() -> None:
    """Load a game from a Gambit .nfg file, or save the current one as one."""
    # The size goes in the label too: a file over UPLOAD_ACCEPTED_MEGABYTES gets Streamlit's wordless chip.
    nfg_file = st.file_uploader(
        explain_matrix.nfg_label(UPLOAD_MEGABYTES),
        type=["nfg", "txt"],
        key="upload_nfg",
        max_upload_size=UPLOAD_ACCEPTED_MEGABYTES,
    )
    load = st.button("Load .nfg", key="load_nfg", disabled=nfg_file is None)
    said = st.empty()  # (as for the CSV: the last file's words give way at once)
    if load:
        said.info(explain_app.reading(nfg_file.name), icon=":material/hourglass_top:")
        try:
            game = game_from_nfg(nfg_file.getvalue(), nfg_file.name)
        except ValueError as error:
            state.say("upload_nfg", explain_matrix.not_loaded(error))
        else:
            state.unsay("upload_nfg")
            matrix_state.load_game(game, from_preset=False)
            st.rerun()
    state.show("upload_nfg", place=said)
    game = st.session_state.game
    # The text is made only when the button is clicked (a 200x200 game's is too slow to make on every rerun).
    st.download_button(
        "Download as .nfg",
        lambda: rmcore.write_nfg(game),
        nfg_file_name(game),
        "text/plain",
        key="download_nfg",
        on_click="ignore",
        icon=":material/download:",
        help=explain_matrix.NFG_DOWNLOAD_HELP,
    )


# -- opponent and algorithm ----------------------------------------------------------------


def opponent_section(game: rmcore.MatrixGame) -> tuple[float, ...] | None:
    """Self-play (None) or a fixed column strategy from one slider per column action."""
    st.subheader("Opponent")
    mode = st.radio(
        "Column player",
        ["Self-play", "Fixed mixed strategy"],
        key="opponent_mode",
        horizontal=True,
        bind="query-params",
        help=explain_matrix.OPPONENT_HELP,
    )
    if mode == "Self-play":
        return None
    n = game.shape[1]
    if n > EDITOR_LIMIT:
        st.warning(explain_matrix.too_many_for_sliders(EDITOR_LIMIT, n))
        return None
    weights = [
        st.slider(f"weight of {escape(label)}", 0, 100, 50, key=f"opponent_{n}_{k}", bind="query-params")
        for k, label in enumerate(game.col_actions)
    ]
    total = sum(weights)
    last = st.session_state.opponent
    if total == 0:
        st.error(explain_matrix.ZERO_WEIGHTS)
        return last if last is not None and len(last) == n else tuple([1.0 / n] * n)
    opponent = tuple(w / total for w in weights)
    st.caption(
        "Opponent plays " + " / ".join(f"{escape(label)} {p:.0%}" for label, p in zip(game.col_actions, opponent))
    )
    matrix_state.remember_opponent(opponent)
    return opponent


def algorithm_section(players: int = 2) -> rmcore.MatrixVariant:
    """The variant the page draws in detail (on a game of ``players``: three or more update simultaneously)."""
    st.subheader("Algorithm")
    algorithm = st.selectbox(
        "Variant",
        list(rmcore.ALGORITHMS),
        format_func=ALGORITHM_NAMES.get,
        key="algorithm",
        bind="query-params",
        help=" ".join(rmcore.ALGORITHMS.values()),
    )
    st.caption(rmcore.ALGORITHMS[algorithm])
    st.caption(f"Checked: {check('matrix', algorithm).line}.", help=_check_help("matrix", algorithm))
    eta = None
    if algorithm in rmcore.STEP_ALGORITHMS:  # (the anytime schedule is for Python and the command line)
        eta = float(
            st.select_slider(
                "Step η",
                ETA_CHOICES,
                value=format(rmcore.config.DEFAULT_ETA, "g"),
                key="eta",
                bind="query-params",
                help=ETA,
            )
        )
    sampling, updates, averaging = (
        _catalogue_radio(label, catalogue)
        for label, catalogue in (
            ("Sampling", rmcore.SAMPLINGS),
            ("Updates", rmcore.UPDATES),
            ("Averaging", rmcore.AVERAGINGS),
        )
    )
    only = rmcore.matrix.ONLY_FORMS.get(algorithm, {})
    refused = [name for name, form in (("sampling", sampling), ("updates", updates)) if only.get(name, form) != form]
    if refused:  # (the radios keep the user's choice for the other rules; this rule runs in its only form)
        forms = " and ".join(f"{only[name]} {name}" for name in refused)
        st.info(explain_matrix.only_form(ALGORITHM_NAMES[algorithm], forms))
        sampling, updates = only.get("sampling", sampling), only.get("updates", updates)
    if players > 2 and updates == "alternating":  # (the radio keeps the choice for a two-player game)
        st.info(explain_players.SIMULTANEOUS)
        updates = "simultaneous"
    return rmcore.MatrixVariant(algorithm, sampling, updates, averaging, eta)


def inertia_section(game: rmcore.MatrixGame, primary: rmcore.MatrixVariant) -> float | None:
    """internal-rm's inertia ``mu``, as a multiple of the least the paper allows on ``game`` (shown with its value);
    None for the other rules, which take none."""
    if primary.algorithm != "internal-rm":
        return None
    least = rmcore.internal_rm_inertia(game)
    times = float(
        st.select_slider(
            explain_correlated.MU_LABEL,
            MU_CHOICES,
            value=MU_CHOICES[0],
            key="mu",
            bind="query-params",
            help=explain_correlated.MU_HELP,
        )
    )
    mu = least * times
    st.caption(explain_correlated.mu_now(mu, least, rmcore.matrix.bounds.inertia_bound(game)))
    return mu


def _check_help(family: str, name: str) -> str:
    """The status table's row for one algorithm, as a widget's help (``rmcore.verification``)."""
    record = check(family, name)
    return explain_matrix.check_help(
        record.paper, record.reference, record.tolerance, [test.split("::")[1] for test in record.tests]
    )


def _catalogue_radio(label: str, catalogue: dict) -> str:
    """A horizontal choice among a catalogue's names, keyed and bound to the link by its label, each name explained."""
    return st.radio(
        label,
        list(catalogue),
        key=label.lower(),
        horizontal=True,
        bind="query-params",
        help=" ".join(f"{k}: {v}" for k, v in catalogue.items()),
    )


START_CHOICES = {
    "suggested": "the preset's suggestion",
    "uniform": "uniform (zero regrets)",
    "custom": "my own, with sliders",
}


def start_section(game: rmcore.MatrixGame) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """Where learning starts: each player's first strategy, realised as initial regrets (see MatrixSolver's
    ``start``)."""
    with st.expander("Where learning starts", expanded=False):
        choice = st.radio(
            "Start",
            list(START_CHOICES),
            format_func=START_CHOICES.get,
            key="start_mode",
            horizontal=True,
            bind="query-params",
            help=explain_matrix.START_HELP,
        )
        if choice == "suggested":
            if game.start is None:
                st.caption(explain_matrix.NO_SUGGESTED_START)
                return None
            st.caption(
                "Row player "
                + _mix(game.row_actions, game.start.row)
                + "; column player "
                + _mix(game.col_actions, game.start.col)
                + "."
            )
            return game.start
        if choice == "uniform" or max(game.shape) > EDITOR_LIMIT:
            return None
        sides = []
        for who, labels in (("row", game.row_actions), ("col", game.col_actions)):
            player = "row player" if who == "row" else "column player"
            st.markdown(explain_matrix.first_strategy(player))
            columns = st.columns(len(labels))
            weights = [
                column.slider(
                    escape(label),
                    0,
                    100,
                    50,
                    key=f"start_{who}_{len(labels)}_{k}",
                    bind="query-params",
                    help=explain_matrix.start_weight_help(player, label),
                )
                for k, (column, label) in enumerate(zip(columns, labels))
            ]
            if sum(weights) == 0:
                st.error(explain_matrix.start_weights_zero(player))
                return None
            sides.append(tuple(float(w) for w in weights))
        return tuple(sides)


def _mix(labels, probabilities) -> str:
    total = sum(probabilities)
    return " / ".join(f"{escape(label)} {p / total:.0%}" for label, p in zip(labels, probabilities))


def race_section(
    primary: rmcore.MatrixVariant,
    opponent: tuple[float, ...] | None,
    start=None,
    mu: float | None = None,
    players: int = 2,
) -> RunSettings:
    """Other variants to run beside the primary one on the same game, and the seeds (``mu``: internal-rm's inertia,
    :func:`inertia_section`; a game of three ``players`` or more races the simultaneous variants of every rule but
    extragradient RM+)."""
    others = [v for v in ALL_VARIANTS if v != primary and (players == 2 or _runs_on_more_players(v))]
    labels = {v.label: v for v in others}
    chosen = st.multiselect(
        explain_matrix.race_label(MAX_RACE - 1),
        state.list_choices("race_variants", list(labels)),
        key="race_variants",
        bind="query-params",
        max_selections=MAX_RACE - 1,
        placeholder=explain_matrix.RACE_PLACEHOLDER,
        help=explain_matrix.RACE_HELP,
    )
    variants = (primary, *(labels[label] for label in chosen))
    sampled = any(v.is_sampled for v in variants)
    seed, seeds = 0, 1
    if sampled:
        c1, c2 = st.columns(2)
        seed = int(
            c1.number_input("Seed", 0, 2**31 - 1, 0, key="seed", help="Same seed, same run.", bind="query-params")
        )
        link.refused_note(c1, "seed", 0, "a whole number from 0 to 2,147,483,647")
        if len(variants) > 1:
            seeds = int(
                c2.number_input(
                    "Seeds per sampled variant",
                    1,
                    20,
                    5,
                    key="race_seeds",
                    bind="query-params",
                    help=explain_matrix.SEEDS_HELP,
                )
            )
            link.refused_note(c2, "race_seeds", 5, "a whole number from 1 to 20")
    return RunSettings(variants, opponent, seed, seeds, start, mu)


def _runs_on_more_players(variant: rmcore.MatrixVariant) -> bool:
    return variant.algorithm != "exrm+" and variant.updates == "simultaneous"


def describe_change(old, new) -> str:
    """What differs between two run keys ``(game, RunSettings)``, in words."""
    (old_game, old_settings), (new_game, new_settings) = old, new
    if old_game is not new_game:
        return "the game"
    names = [name for name in RunSettings._fields if getattr(old_settings, name) != getattr(new_settings, name)]
    return " and ".join(name.replace("variants", "the variants") for name in names) or "the settings"


def live_run(game: rmcore.MatrixGame, settings: RunSettings) -> LiveRun:
    """The page's live run for this game and these settings (a new one, with a notice, when they changed)."""
    return state.sync_live(
        "matrix",
        (game, settings),
        RacePlan(
            game,
            tuple(settings.variants),
            settings.seeds,
            settings.seed,
            _opponent(game, settings.opponent),
            settings.start,
            history_share(game),
            settings.mu,
        ),
        describe_change,
    )


def _opponent(game: rmcore.NormalFormGame, opponent) -> dict | None:
    """The solvers' ``opponent``: ``{"col": weights}`` for two players, ``{player: weights}`` for more (the settings
    hold ``((player, weights), ...)``)."""
    if opponent is None:
        return None
    return {"col": opponent} if game.num_players == 2 else dict(opponent)


class Display(NamedTuple):
    """How the live panel draws the run: the iteration axis, the current strategies (the last iterate) beside the
    averages, which profile ranks a race's table (``"average"`` or ``"current"``), and a lesson's words under the race
    chart (or none)."""

    log_x: bool = True
    show_current: bool = False
    rank_by: str = "average"
    lesson: str | None = None
    space_layers: tuple[str, ...] = ("field", "last iterate", "average")
    picture: tuple[tuple[str, ...], bool] | None = None  # the correlated picture's layers and closest set (coarse)


def display_options(chosen: RunSettings, players: int = 2) -> Display:
    """The chart toggles, and in a self-play race which profile ranks its table (a game of three ``players`` or more
    has no strategy space with a field and no correlated picture)."""
    log_x = st.toggle("Log iteration axis", value=True, key="log_x", bind="query-params")
    show_current = st.toggle(
        explain_matrix.SHOW_CURRENT,
        value=False,
        key="show_current",
        bind="query-params",
        help=CURRENT_HELP,
    )
    rank_by = "average"
    if len(chosen.variants) > 1 and chosen.opponent is None:
        rank_by = st.radio(
            "Rank the race by",
            list(MATRIX_RANK_BY),
            format_func=MATRIX_RANK_BY.get,
            horizontal=True,
            key="rank_by",
            bind="query-params",
            help=MATRIX_RANK_HELP,
        )
    if players > 2:
        return Display(log_x, show_current, rank_by or "average", space_layers=(), picture=None)
    return Display(log_x, show_current, rank_by or "average", space_layers=space_layers(), picture=picture(chosen))


#: What the strategy-space chart can draw when a field applies (ui/matrix/space.py).
SPACE_LAYERS = ("field", "last iterate", "average")


#: What the correlated picture can draw (ui/matrix/correlated.py): the tetrahedron's layers.
PICTURE_LAYERS = ("CE set", "CCE set", "independent play", "Nash equilibria", "welfare-best CE")
#: Shown unless turned off (in a 2x2 game the CCE set is the CE set: its solid waits in the legend).
PICTURE_SHOWN = ("CE set", "independent play", "Nash equilibria", "welfare-best CE")
#: Which set the heatmap's closest equilibrium is taken from (by the short names, which the link carries).
CLOSEST_SETS = ("CE", "CCE")


def picture(chosen: RunSettings) -> tuple[tuple[str, ...], bool] | None:
    """In general-sum self-play, the correlated picture's toggles: the tetrahedron's layers (a 2x2 game) or the set
    the heatmap's closest equilibrium is taken from (a larger one); None elsewhere (the picture is not drawn)."""
    game = st.session_state.game
    if chosen.opponent is not None or game.is_zero_sum:
        return None
    if game.shape == (2, 2):
        chosen_layers = st.pills(
            explain_correlated.PICTURE_LABEL,
            PICTURE_LAYERS,
            selection_mode="multi",
            default=list(PICTURE_SHOWN),
            key="picture_layers",
            bind="query-params",
            help=explain_correlated.PICTURE_HELP,
        )
        return tuple(name for name in PICTURE_LAYERS if name in (chosen_layers or ())), False
    closest = st.radio(
        explain_correlated.CLOSEST_LABEL,
        list(CLOSEST_SETS),
        horizontal=True,
        key="closest_set",
        bind="query-params",
        help=explain_correlated.CLOSEST_HELP,
    )
    return PICTURE_LAYERS, closest == "CCE"


def space_layers() -> tuple[str, ...]:
    """The strategy-space chart's layers, each toggled: the field under the rule, the last iterate's trail, the
    average's line."""
    chosen = st.pills(
        "Strategy space shows",
        SPACE_LAYERS,
        selection_mode="multi",
        default=list(SPACE_LAYERS),
        key="space_layers",
        bind="query-params",
        help=explain_matrix.SPACE_LAYERS_HELP,
    )
    return tuple(name for name in SPACE_LAYERS if name in (chosen or ()))
