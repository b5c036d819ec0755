"""The poker page's setup: its record (:class:`RunSettings`), the widgets that fill it in (game, Kuhn poker's players,
opponent, variants, seed), the live run it stands for, and each game's exact answer.

Every widget is bound to a query parameter of its own ``kuhn_*`` key, so a shared link or a loaded setup file fills the
record in again. ``kuhn`` is the page's id in those keys, in session state and in setup files (``page: "kuhn"``); links
already handed out carry it, so it stays ``kuhn`` for every game the page offers.
"""

from __future__ import annotations

import itertools
import threading
from typing import NamedTuple

import streamlit as st

import rmcore
from rmcore.formats.efg import writes_efg
from rmcore.trees.cfr import DISCOUNT_DEFAULTS, MMD_DEFAULT_ALPHA, VARIANT_DISCOUNTS
from rmcore.trees.game import uniform_policy
from rmcore.verification import check

from .. import escape, explain, explain_app, explain_trees, link, state
from ..live import SESSION_HISTORY_BYTES, LiveRun, RacePlan, history_share
from . import exact, games
from . import state as trees_state


def _variant(name: str, updates: str):
    """``CFRVariant(name, updates)``, or ``None`` for a pair it refuses (Monte Carlo CFR only alternates)."""
    try:
        return rmcore.CFRVariant(name, updates)
    except ValueError:
        return None


#: Every variant a race can include: each CFR variant, alternating or simultaneous where it has that form.
ALL_VARIANTS = tuple(
    variant
    for variant in itertools.starmap(_variant, itertools.product(rmcore.CFR_ALGORITHMS, rmcore.CFR_UPDATES))
    if variant is not None
)
VARIANT_HELP = " ".join(f"{name}: {text}" for name, text in rmcore.CFR_ALGORITHMS.items())


#: The games the page offers, id -> label (``games.choices()``): classic Kuhn (with its tree, walkthrough and
#: equilibrium family), Kuhn poker with more cards and another bet, Leduc hold'em, every other game of the catalogue
#: and the user's own (.efg). A link carries the label, as the bound control writes it (``kuhn_game=Leduc hold'em``):
#: changing a label breaks the links that carry it.
GAMES = games.choices()


class RunSettings(NamedTuple):
    """The page's setup: the game (``game``; ``cards`` and ``bet`` for Kuhn on sliders, ``players`` for classic Kuhn,
    ``parameters`` for another catalogue game, ``uploaded`` for the user's own), the variants, the seeds and the fixed
    player; any change means a new run."""

    variants: tuple[rmcore.CFRVariant, ...]
    seed: int = 0
    seeds: int = 1
    game: str = "kuhn"
    cards: int = 3
    bet: float = 1.0
    opponent: tuple | None = None  # (the fixed player 1 or 2, ((locked information set, probabilities), ...))
    parameters: tuple = ()  # another catalogue game's parameter values, in the catalogue's order
    uploaded: games.UploadedGame | None = None  # the user's own game (compared by its text's digest)
    players: int = 2  # classic Kuhn's players (the Players slider); every other game keeps its own

    @property
    def tree_game(self) -> rmcore.TreeGame:
        if self.game == "kuhn" and self.players != 2:
            return _kuhn_for(self.players)
        if self.game == "sliders":
            return rmcore.tree_game("kuhn", cards=self.cards, bet=self.bet)
        if self.game == games.UPLOAD:
            return self.uploaded.game
        if self.game == games.OPENSPIEL:
            return converted(self.parameters[0])
        entry = rmcore.TREE_GAMES[self.game]
        return rmcore.tree_game(self.game, **{p.name: v for p, v in zip(entry.parameters, self.parameters)})

    @property
    def game_key(self) -> tuple:
        """The game alone, as a key of server-wide caches and of the lock controls (the poker games' as before)."""
        if self.game in games.CLASSIC:  # (two players: no count in the key, which lock links carry as kuhn_3_1.0)
            return (self.game, self.cards, self.bet) + ((self.players,) if self.players != 2 else ())
        if self.game == games.UPLOAD:
            return (self.game, self.uploaded.digest)
        return (self.game, *self.parameters)

    @property
    def two_player(self) -> bool:
        """Whether the game is two-player zero-sum: the exact answer, a locked player, the bot and the walkthrough
        are for those games alone."""
        return self.tree_game.is_two_player_zero_sum

    def exact_answer(self, wait: float | None = exact.WAIT_SECONDS) -> rmcore.ExactSolution | None:
        """The game's exact answer if it is there within ``wait`` seconds (None: until it is, or for a game with more
        than two players, which has none), else None."""
        return exact.answer(self.game_key, self.tree_game, wait)

    def fixed_opponent(self) -> dict | None:
        """The fixed player's whole strategy: the locks, and the exact equilibrium everywhere else (it is waited for:
        the run needs it, and every game the page runs is solved in seconds)."""
        if self.opponent is None:
            return None
        player, locks = self.opponent
        answer = self.exact_answer(wait=None)
        if answer is None:  # the LP failed: the unlocked sets play uniformly, and the page says why
            elsewhere = uniform_policy(self.tree_game)
        else:
            elsewhere = answer.policy
        return rmcore.fixed_strategy(self.tree_game, player, elsewhere, dict(locks))


@st.cache_resource(max_entries=4, show_spinner=False)
def _kuhn_for(players: int) -> rmcore.TreeGame:
    """Kuhn poker for ``players`` players (``players + 1`` cards), built once on this server: the setup asks for its
    game on every rerun."""
    return rmcore.kuhn_poker(players=players)


#: Who learns: both players, or one against the other held fixed (the matrix page's "fixed opponent").
OPPONENTS = {"self-play": "Self-play", "2": "Player 2 fixed", "1": "Player 1 fixed"}


def widgets() -> RunSettings:
    """The game (with Kuhn poker's players), the opponent, the variants and the seed, as the page's setup record."""
    game = st.segmented_control(
        "Game",
        list(GAMES),
        format_func=GAMES.get,
        default="kuhn",
        key="kuhn_game",
        bind="query-params",
        help=games.help_text(),
    )
    game = game or "kuhn"  # (a segmented control can be clicked off: that keeps the classic)
    cards, bet, parameters, uploaded, players = 3, 1.0, (), None, 2
    if game == "kuhn":
        players = _players_slider()
    elif game == "leduc":
        st.caption(explain_trees.LEDUC_TWO_PLAYERS)
    if game == "sliders":
        cards, bet = _kuhn_sliders()
    elif game == games.UPLOAD:
        uploaded = _your_game()
        if uploaded is None:  # nothing loaded yet: the last game keeps running
            current = state.live("kuhn")
            last = current.key if current is not None else RunSettings(())
            game, cards, bet, parameters, uploaded = last.game, last.cards, last.bet, last.parameters, last.uploaded
    elif game == games.OPENSPIEL:
        named = _openspiel_box()
        if named is None:  # nothing converted: the last game keeps running
            current = state.live("kuhn")
            last = current.key if current is not None else RunSettings(())
            game, cards, bet, parameters, uploaded = last.game, last.cards, last.bet, last.parameters, last.uploaded
        else:
            parameters = (named,)
    elif game not in games.CLASSIC:
        parameters = _catalogue_parameters(game)
    trees_state.link_tree_game(uploaded if game == games.UPLOAD else None)
    setup = RunSettings((), game=game, cards=cards, bet=bet, parameters=parameters, uploaded=uploaded, players=players)
    opponent = _opponent_settings(setup)
    labels = {v.label: v for v in ALL_VARIANTS}
    c1, c2, c3 = st.columns([4, 1, 1])
    most = link.MOST_CHOSEN["kuhn_variants"]
    chosen = c1.multiselect(
        explain_trees.variants_label(most),
        state.list_choices("kuhn_variants", list(labels)),
        default=[ALL_VARIANTS[0].label],
        key="kuhn_variants",
        bind="query-params",
        max_selections=most,
        help=VARIANT_HELP + " " + " ".join(f"{k}: {v}" for k, v in rmcore.CFR_UPDATES.items()),
    )
    seed = int(
        c2.number_input(
            "Seed",
            0,
            2**31 - 1,
            0,
            key="kuhn_seed",
            help=explain_trees.SEED_HELP,
            bind="query-params",
        )
    )
    link.refused_note(c2, "kuhn_seed", 0, "a whole number from 0 to 2,147,483,647")
    if not chosen:
        st.error(explain_trees.NO_VARIANT)
        current = state.live("kuhn")
        return (
            current.key
            if current is not None
            else RunSettings((ALL_VARIANTS[0],), seed, 1, game, cards, bet, opponent, parameters, uploaded, players)
        )
    variants = tuple(labels[label] for label in chosen)
    if not setup.two_player and any(v.algorithm in TWO_PLAYER_ALGORITHMS for v in variants):
        kept = tuple(v for v in variants if v.algorithm not in TWO_PLAYER_ALGORITHMS)
        st.caption(explain_trees.two_player_variants_left_out(setup.tree_game, bool(kept)))
        variants = kept or (ALL_VARIANTS[0],)
    _checked_lines(variants)
    if any(v.algorithm == "mmd" for v in variants):
        alpha = _mmd_slider()
        variants = tuple(
            rmcore.CFRVariant(v.algorithm, v.updates, mmd=(alpha, None)) if v.algorithm == "mmd" else v
            for v in variants
        )
    if any(v.algorithm == "discounted" for v in variants):
        discount = _discount_sliders()
        variants = tuple(
            rmcore.CFRVariant(v.algorithm, v.updates, discount) if v.algorithm == "discounted" else v for v in variants
        )
    for name in PLUS_VARIANTS:
        if any(v.algorithm == name for v in variants):
            values = _plus_sliders(name)
            variants = tuple(
                rmcore.CFRVariant(v.algorithm, v.updates, values) if v.algorithm == name else v for v in variants
            )
    seeds = 1
    if len(variants) > 1 and any(v.is_sampled for v in variants):
        seeds = int(
            c3.number_input(
                "Seeds",
                1,
                20,
                5,
                key="kuhn_seeds",
                help=explain_trees.SEEDS_HELP,
                bind="query-params",
            )
        )
        link.refused_note(c3, "kuhn_seeds", 5, "a whole number from 1 to 20")
    return RunSettings(variants, seed, seeds, game, cards, bet, opponent, parameters, uploaded, players)


#: Discounted CFR's sliders: (low, high, step) for each parameter, within the library's [-10, 10]. α and γ below 0
#: would weight early iterations more than late ones, which no paper recommends; β reaches -5, close to the paper's
#: β = -inf (negative regrets forgotten at once).
DCFR_RANGES = {"alpha": (0.0, 5.0, 0.25), "beta": (-5.0, 5.0, 0.25), "gamma": (0.0, 5.0, 0.25)}


def _discount_sliders() -> tuple[float, float, float]:
    """Discounted CFR's α, β and γ, a slider each (defaults ``rmcore.trees.cfr.DISCOUNT_DEFAULTS``): shown only while
    discounted CFR is among the variants."""
    columns = st.columns(3)
    values = []
    for column, (name, (low, high, step)) in zip(columns, DCFR_RANGES.items()):
        symbol, words = explain.DCFR_PARAMETERS[name]
        values.append(
            float(
                column.slider(
                    f"DCFR {symbol}",
                    low,
                    high,
                    DISCOUNT_DEFAULTS[name],
                    step,
                    key=f"kuhn_dcfr_{name}",
                    bind="query-params",
                    help=words,
                )
            )
        )
    st.caption(explain.DCFR_CAPTION)
    return tuple(values)


#: PDCFR+ and DCFR+ (Xu et al. 2024): their α and γ, a slider each while the variant is among the chosen, under these
#: link keys (``kuhn_pdcfr_alpha``, ``kuhn_dcfrplus_gamma``, ...).
PLUS_VARIANTS = ("pdcfr+", "dcfr+")
#: Every discounting variant's link-key prefix.
DISCOUNT_KEYS = {"discounted": "kuhn_dcfr", "pdcfr+": "kuhn_pdcfr", "dcfr+": "kuhn_dcfrplus"}
#: Their sliders: (low, high, step), within the library's [-10, 10]; the defaults (2.3 and 5, 1.5 and 4) on the grid.
PLUS_RANGES = {"alpha": (0.0, 5.0, 0.1), "gamma": (0.0, 10.0, 0.5)}


def _plus_sliders(name: str) -> tuple[float, float]:
    """PDCFR+'s or DCFR+'s α and γ, a slider each (defaults ``rmcore.trees.cfr.VARIANT_DISCOUNTS``)."""
    label = {"pdcfr+": "PDCFR+", "dcfr+": "DCFR+"}[name]
    columns = st.columns(2)
    values = []
    for column, (parameter, (low, high, step)) in zip(columns, PLUS_RANGES.items()):
        symbol, words = explain.PLUS_PARAMETERS[name][parameter]
        values.append(
            float(
                column.slider(
                    f"{label} {symbol}",
                    low,
                    high,
                    VARIANT_DISCOUNTS[name][parameter],
                    step,
                    key=f"{DISCOUNT_KEYS[name]}_{parameter}",
                    bind="query-params",
                    help=words,
                )
            )
        )
    return tuple(values)


def _checked_lines(variants) -> None:
    """Under the variant picker, what each chosen variant is checked against (``rmcore.verification``), one line."""
    names = list(dict.fromkeys(v.algorithm for v in variants))
    lines = "; ".join(f"{name}: {check('tree', name).line}" for name in names)
    st.caption(f"Checked: {lines}.", help=explain_trees.CHECKED_HELP)


#: MMD's temperatures on the slider, log-spaced (as text, so that the link reads ``kuhn_mmd_alpha=0.05``).
MMD_ALPHAS = ("0.001", "0.002", "0.005", "0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1")


def _mmd_slider() -> float:
    """MMD's temperature α on a log scale (default ``rmcore.trees.cfr.MMD_DEFAULT_ALPHA``), shown only while MMD is
    among the variants; its step size stays OpenSpiel's default for that α."""
    alpha = st.select_slider(
        "MMD α (temperature)",
        MMD_ALPHAS,
        value=format(MMD_DEFAULT_ALPHA, "g"),
        key="kuhn_mmd_alpha",
        bind="query-params",
        help=explain.MMD_ALPHA,
    )
    return float(alpha)


def display_options(chosen: RunSettings) -> tuple[bool, str, bool]:
    """Whether the nash_conv chart also draws each variant's current policy, which policy ranks a race's table
    (asked only of a race in self-play: against a fixed player the chart draws the learner's gain alone), and whether
    the chart's x-axis is the nodes touched rather than the iterations."""
    show_current = st.toggle(explain_trees.SHOW_CURRENT, value=True, key="kuhn_show_current", bind="query-params")
    axis = st.radio(
        "nash_conv against",
        list(explain.WORK_AXES),
        format_func=explain.WORK_AXES.get,
        horizontal=True,
        key="kuhn_x_axis",
        bind="query-params",
        help=explain.WORK_AXIS_HELP,
    )
    rank_by = "average"
    if len(chosen.variants) > 1 and chosen.opponent is None:
        rank_by = st.radio(
            "Rank the race by",
            list(explain.RANK_BY),
            format_func=explain.RANK_BY.get,
            horizontal=True,
            key="kuhn_rank_by",
            bind="query-params",
            help=explain.RANK_HELP,
        )
    return show_current, rank_by or "average", axis == "nodes"


#: The Players slider's range on classic Kuhn poker: 4 players have 7,800 tree nodes, well within the page's node cap
#: (``games.MAX_PAGE_NODES``); Leduc hold'em keeps two (``explain_trees.LEDUC_TWO_PLAYERS`` says why).
KUHN_PLAYERS = (2, 4)
#: Variants that run on two-player zero-sum games alone (``rmcore.trees.cfr`` refuses them on more players).
TWO_PLAYER_ALGORITHMS = ("mmd",)


def _players_slider() -> int:
    """Classic Kuhn's players, 2 to 4 (bound to the link as ``kuhn_players``)."""
    return int(
        st.slider(
            "Players",
            *KUHN_PLAYERS,
            2,
            key="kuhn_players",
            bind="query-params",
            help=explain_trees.PLAYERS_HELP,
        )
    )


def _kuhn_sliders() -> tuple[int, float]:
    """Kuhn on sliders: its cards and its bet."""
    left, right = st.columns(2)
    cards = int(
        left.slider(
            "Cards",
            *rmcore.trees.poker.KUHN_CARDS,
            4,
            key="kuhn_cards",
            bind="query-params",
            help=explain_trees.CARDS_HELP,
        )
    )
    bet = float(
        right.slider(
            "Bet, in antes",
            *rmcore.trees.poker.KUHN_BETS,
            1.0,
            0.25,
            key="kuhn_bet",
            bind="query-params",
            help=explain_trees.BET_HELP,
        )
    )
    return cards, bet


def _catalogue_parameters(name: str) -> tuple:
    """Another catalogue game's parameters, a slider each (range, default, step and help from the catalogue), and its
    description."""
    entry = rmcore.TREE_GAMES[name]
    values = []
    columns = st.columns(len(entry.parameters)) if entry.parameters else []
    for column, parameter in zip(columns, entry.parameters):
        kind = int if parameter.integer else float
        value = column.slider(
            parameter.name.replace("_", " ").capitalize(),
            kind(parameter.low),
            kind(parameter.high),
            kind(parameter.default),
            kind(parameter.step),
            key=f"kuhn_{name}_{parameter.name}",
            bind="query-params",
            help=parameter.help,
        )
        values.append(kind(value))
    return tuple(values)


#: Most OpenSpiel children at once on the server: each may take ``games.OPENSPIEL_MEGABYTES`` of memory, so a class
#: typing different strings waits in line rather than filling the machine.
OPENSPIEL_CHILDREN = 2


@st.cache_resource
def _openspiel_children() -> threading.Semaphore:
    """The server's turns at loading an OpenSpiel game (:data:`OPENSPIEL_CHILDREN` at once)."""
    return threading.Semaphore(OPENSPIEL_CHILDREN)


@st.cache_resource(
    max_entries=16,
    show_spinner=f"Loading the OpenSpiel game in a process of its own (at most {games.OPENSPIEL_SECONDS:g} s)…",
)
def _conversion(text: str) -> tuple[rmcore.TreeGame | None, str | None]:
    """An OpenSpiel game by its string, loaded and converted once on this server, or why it was refused: kept too, so
    that a game refused after seconds of walking (tic-tac-toe) or stopped at the time limit is not tried again on
    every rerun, and a class opening one link starts one child process (Streamlit computes a key once, the others
    wait for it)."""
    with _openspiel_children():
        try:
            return games.openspiel_game(text), None
        except ValueError as error:
            return None, str(error)


def converted(text: str) -> rmcore.TreeGame:
    """The OpenSpiel game ``text`` names as a tree game (``games.openspiel_game``, once per string on this server);
    ValueError says why it is refused."""
    game, refusal = _conversion(text)
    if game is None:
        raise ValueError(refusal)
    return game


def _openspiel_box() -> str | None:
    """The OpenSpiel game's string, typed (bound to the link as ``kuhn_openspiel``), and whether it converts: its
    string when it does, None (with the reason next to the box, or how to install OpenSpiel) when it does not."""
    if not games.openspiel_installed():
        st.info(explain.OPENSPIEL_MISSING, icon=":material/extension:")
        return None
    typed = st.text_input(
        explain_trees.OPENSPIEL_LABEL,
        value="kuhn_poker",
        max_chars=games.MAX_OPENSPIEL_CHARS,
        key="kuhn_openspiel",
        bind="query-params",
        help=explain.OPENSPIEL_HELP,
    )
    text = str(typed).strip()
    try:
        converted(text)
    except ValueError as error:
        st.error(explain_trees.not_loaded(error))
        return None
    return text


def _your_game() -> games.UploadedGame | None:
    """The uploader of the user's own game, what became of the last file, and the game now loaded (None: none yet).

    A file is read once, when it arrives (``load_efg``); a bad one leaves the last valid game running.
    """
    # The limits go in the label: a file over EFG_ACCEPTED_MEGABYTES gets Streamlit's wordless chip.
    file = st.file_uploader(
        explain_trees.efg_label(games.EFG_READ_MEGABYTES, games.MAX_PAGE_NODES),
        type="efg",
        key="kuhn_efg_file",
        max_upload_size=games.EFG_ACCEPTED_MEGABYTES,
    )
    said = st.empty()  # (what became of the file: the last file's words give way at once to the new file's)
    if file is not None and state.new_file("kuhn_efg_file", file.file_id):
        said.info(explain_app.reading(file.name), icon=":material/hourglass_top:")
        load_efg(file.getvalue(), f"the file {file.name}")
    if state.message("kuhn_efg_file") is not None:
        state.show("kuhn_efg_file", place=said)
    elif st.session_state.kuhn_uploaded is not None and st.session_state.kuhn_uploaded.notes:
        said.caption(explain.efg_notes(st.session_state.kuhn_uploaded.notes))
    else:
        said.empty()
    uploaded: games.UploadedGame | None = st.session_state.kuhn_uploaded
    if uploaded is None:
        st.info(explain_trees.UPLOAD_FIRST)
    return uploaded


def load_efg(data: bytes | str, source: str) -> None:
    """What the uploader does with a file's bytes (and a test with any text): the game it holds becomes the page's
    own game; a file that cannot be run leaves the last valid game and says why."""
    try:
        uploaded = games.read_uploaded(data, source)
    except Exception as error:  # noqa: BLE001 - a hostile file must give a sentence, never a crash
        reason = error if isinstance(error, ValueError) else f"the file could not be read ({type(error).__name__})"
        state.say("kuhn_efg_file", explain_trees.not_loaded(reason))
        return
    trees_state.set_tree_game(uploaded)
    state.unsay("kuhn_efg_file")


def download(chosen: RunSettings) -> None:
    """The current game (any game, poker included, of any number of players) as a Gambit .efg file, written when the
    button is clicked; for a two-player general-sum game, which a two-player .efg file does not hold, a sentence in
    its place."""
    if not writes_efg(chosen.tree_game):
        st.caption(explain_trees.EFG_GENERAL_SUM)
        return
    st.download_button(
        "Download as .efg",
        lambda: games.efg_text(chosen.tree_game, chosen.uploaded),
        f"{chosen.game_key[0]}.efg",
        "text/plain",
        key="kuhn_download_efg",
        on_click="ignore",
        icon=":material/download:",
        help=explain_trees.EFG_DOWNLOAD_HELP,
    )


def _opponent_settings(chosen: RunSettings) -> tuple | None:
    """Self-play, or one player fixed: the information sets it is locked at, each with weight sliders (normalised, as
    the matrix page's fixed opponent); at every other set it plays the exact equilibrium. A game of more than two
    players has no fixed player: the page says so in its place."""
    if not chosen.two_player:
        st.caption(explain_trees.lock_two_players(chosen.tree_game.players))
        return None
    mode = st.radio(
        "Opponent",
        list(OPPONENTS),
        format_func=OPPONENTS.get,
        horizontal=True,
        key="kuhn_opponent",
        bind="query-params",
        help=explain_trees.OPPONENT_HELP,
    )
    if mode in (None, "self-play"):
        return None
    player = int(mode)
    game = chosen.tree_game
    names = [name for k, name in enumerate(game.infosets) if game.tree.infoset_player[k] == player - 1]
    default = ["Jp"] if rmcore.is_classic_kuhn(game) and player == 2 else names[:1]  # "player 2 never bluffs with J"
    suffix = "_".join(str(part) for part in chosen.game_key)
    locked = st.multiselect(
        explain_trees.locks_label(player),
        names,
        default=default,
        key=f"kuhn_locks_{player}_{suffix}",
        bind="query-params",
        help=explain_trees.LOCKS_HELP,
    )
    locks = []
    for name in locked:
        k = game.infosets.index(name)
        actions = game.actions[k]
        columns = st.columns(len(actions))
        weights = [
            column.slider(
                f"{escape.markdown(name)}: weight of {escape.markdown(action)}",
                0,
                100,
                100 if a == 0 else 0,
                key=f"kuhn_lock_{suffix}_{k}_{a}",
                bind="query-params",
            )
            for a, (column, action) in enumerate(zip(columns, actions))
        ]
        total = sum(weights)
        if total == 0:
            st.error(explain_trees.lock_weights_zero(name))
            continue
        locks.append((name, tuple(w / total for w in weights)))
        st.caption(
            f"At {escape.markdown(name)} player {player} plays "
            + " / ".join(f"{escape.markdown(action)} {w / total:.0%}" for action, w in zip(actions, weights))
        )
    return (player, tuple(locks))


def _describe(old: RunSettings, new: RunSettings) -> str:
    names = [name for name in RunSettings._fields if getattr(old, name) != getattr(new, name)]
    game_fields = ("game", "cards", "bet", "parameters", "uploaded", "players")
    names = [
        "the game" if name in game_fields else "the fixed opponent" if name == "opponent" else name for name in names
    ]
    return " and ".join(dict.fromkeys(name.replace("variants", "the variants") for name in names)) or "the settings"


def memory_words(run: LiveRun) -> str:
    """How much of the run's history the session keeps, for a game whose checkpoints are large."""
    race = run.race
    return explain_trees.memory(
        race.max_points, race.member_points, race.runs, race.history_bytes(), SESSION_HISTORY_BYTES
    )


def folded_label() -> str:
    """The label of the settings folded away in presentation mode: naming the game running (the room sees no other
    name of it), once the page has a run; the settings are read inside, after the label is drawn."""
    running = state.live("kuhn")
    words = explain_trees.SETTINGS_FOLDED
    return words if running is None else f"{words}: {escape.markdown(running.race.game.name or 'your game')}"


def live_run(chosen: RunSettings) -> LiveRun:
    """The page's live run for this setup: the same run while the setup stays, a fresh one (with a notice) when it
    changes."""
    return state.sync_live(
        "kuhn",
        chosen,
        RacePlan(
            chosen.tree_game,
            tuple(chosen.variants),
            chosen.seeds,
            chosen.seed,
            chosen.fixed_opponent(),
            None,
            history_share(chosen.tree_game),
        ),
        _describe,
    )
