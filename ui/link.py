"""The setup in the URL: what a shared link restores, what it could not, and the Share control.

Every setting widget is bound to a query parameter of its own key (``bind="query-params"``), so
the URL always holds the page's setup and opening it in a fresh browser restores it. Two more
parameters are ours:

* ``matrix``: an edited or uploaded game of up to 10x10, as JSON (payoffs, action names, name);
  without it the game is the preset with its parameters, as the preset widgets say.
* ``run_to``: an iteration to run to when the link opens (at most ``MAX_RUN_TO``).
* ``kuhn_efg``: the tree page's own game (an uploaded .efg), its text zlib-compressed and in URL-safe base64, when
  that is at most ``MAX_EFG_LINK_CHARS`` characters; a larger game is shared as its file.

The setup file (*Setup (JSON)*, format ``rmcore-setup/1``) is the same setup as data: the page (``"matrix"`` or
``"kuhn"``, the game-tree page's id), the link's parameters as ``[name, value]`` pairs, and the iteration reached.
:func:`setup` writes it from the URL and :func:`link_from_setup` turns it back into a link.

Streamlit drops a bound value it cannot use (an unknown preset, a number out of range) and shows
the default. To say so on the page, the parameters a session arrived with are remembered and
compared, at the end of its first run, with what survived; the rejected, the unknown and our own
malformed ones are listed in one notice.

This module reads the link and writes the URL; what the session keeps of it (the parameters it arrived with, what
could not be used, whether the link carries the game) is the state modules' to write (``ui/state.py``, and each page's
own: ``ui/matrix/state.py``, ``ui/trees/state.py``): each reader here returns what it found, and the problem it met,
in words.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import urllib.parse
import zlib

import streamlit as st
from streamlit.errors import StreamlitAPIException

import rmcore
from rmcore.inputs import loads_json
from rmcore.race import MAX_VARIANTS

from . import escape
from .explain import ALGORITHM_NAMES, list_trimmed
from .explain_app import (
    SHARE_CARRIED,
    link_too_long,
    load_setup_label,
    refused_number,
    share_run_to,
    share_too_large_matrix,
    share_too_large_tree,
)
from .explain_trees import size_words

#: The game-tree page's URL path, and its path of one release ago, which still opens it (with the same settings).
TREE_PAGE_PATH = "game_trees"
OLD_TREE_PAGE_PATH = "kuhn_poker"
#: Largest game a link carries (the editor's size).
MAX_LINK_ACTIONS = 10
#: Longest value a link parameter may have before it is refused unread.
MAX_PARAM_CHARS = 8_000
#: Highest iteration a link may ask to run to when it opens.
MAX_RUN_TO = 1_000_000
#: Longest address the app writes (*Share this setup*, a lesson's link) or opens from a setup file. Streamlit serves
#: the app with uvicorn, whose HTTP/1.1 parser (h11) answers a bare "400 Bad Request" to a request whose line and
#: headers pass 16 KiB before they have all arrived (on one machine a longer one often arrives at once and passes), and
#: Streamlit has no option for that limit: 12,000 characters leave the browser 4 KiB for its other headers
#: (tests/test_link_length.py sends such a request in small pieces to a real server).
MAX_LINK_CHARS = 12_000
#: Largest file the setup uploader takes, in megabytes (Streamlit's uploader counts whole megabytes, 2**20 bytes, and
#: says so under its label), and so the largest setup file read: the uploader and its label say one limit. A setup
#: is a few hundred bytes; one that stands for a link longer than MAX_LINK_CHARS is refused with a sentence.
SETUP_ACCEPTED_MEGABYTES = 1
MAX_SETUP_BYTES = SETUP_ACCEPTED_MEGABYTES * 2**20
#: Longest ``kuhn_efg`` a link carries: with the page's other settings the address stays well under 8 kB, which
#: browsers, proxies and chat programs pass on whole. A compressed .efg of a few hundred histories fits.
MAX_EFG_LINK_CHARS = 6_000
#: Largest .efg read, in megabytes, from a file or a link: Liar's dice with 6 sides written out is some 24 million
#: characters (reading it takes seconds); under what rmcore reads at all (``rmcore.formats.efg.MAX_EFG_CHARS``, 50
#: million characters).
EFG_READ_MEGABYTES = 30
_OURS = ("matrix", "run_to", "kuhn_efg")
#: Most entries a list setting holds, by its key: the matrix page races its variant with at most seven others (eight in
#: all: eight colours a chart keeps apart), the tree page at most ``rmcore.race.MAX_VARIANTS`` variants in all.
#: Streamlit keeps a linked list's first entries up to its widget's ``max_selections`` and drops the rest; the notice
#: names what was dropped.
MOST_CHOSEN = {"race_variants": 7, "kuhn_variants": MAX_VARIANTS}
# Opening a loaded setup is a page load: a few lines of JavaScript in the page (st.components.v2 runs
# inline code; Streamlit has no Python command that sends the browser to another URL).
_navigate = st.components.v2.component(
    "rm_navigate",
    js="export default function (component) { const url = component.data && component.data.url; if (url) "
    "window.location.assign(url); }",
)
_STREAMLITS = ("embed", "embed_options")


def open_moved_page(page) -> None:
    """A page asked for by its path of one release ago (``/kuhn_poker``): open it at its path now, with every parameter
    the link carries, a repeated one with all its values (Streamlit's own page switch, which keeps the session)."""
    st.switch_page(page, query_params={key: st.query_params.get_all(key) for key in st.query_params})


def given() -> dict[str, list[str]]:
    """The link's parameters, every value of each, as the session arrived with them."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def named_algorithm() -> str | None:
    """An algorithm the link names as the library names it (``algorithm=hedge``, as ``python -m rmcore`` and
    ``MatrixVariant.parse`` take it), for its widget to show by its label (``Hedge (multiplicative weights)``); None
    when the link names none that way."""
    named = st.query_params.get_all("algorithm")
    return named[0] if len(named) == 1 and named[0] in ALGORITHM_NAMES else None


def label_named_algorithm() -> bool:
    """On a session's first run, before the matrix page's widgets are drawn: write an algorithm the link names as the
    library does into the address by its widget's label; returns whether it did (the caller then reruns).

    Why the address, and why a rerun: Streamlit seeds a bound widget from the parameters its run began with, drops
    one that is not an option's label from the address, and writes a value given through ``st.session_state`` into
    the address only once the widget holds a value from a run the browser asked for (``st.rerun`` is not one). A
    rerun starts from the address as written here, so the widget reads the label as from any link that gives it, and
    the address and the Share link keep it.
    """
    named = named_algorithm()
    if named is None:
        return False
    st.query_params["algorithm"] = ALGORITHM_NAMES[named]
    return True


#: A value written as a number (a whole one, a decimal, or in exponent form).
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
#: The longest number a setting of a link holds: a seed is at most 10 digits, a slider's value a few more.
_LONGEST_NUMBER = 40


def drop_unreadable_numbers(parameters: dict[str, list[str]]) -> dict[str, str]:
    """On a session's first run, before any widget is drawn: every setting of the link written as a number that no
    setting holds (past a float's range, ``1e400`` or a whole number of 309 digits; or longer than
    :data:`_LONGEST_NUMBER` characters) leaves the address, and is returned by key with the value as given.

    Why here: Streamlit's binding of a whole-number box converts the address's value with ``int(float(value))``,
    which raises an ``OverflowError`` on such a value before the page can say anything, on every reload while the
    value stays in the address. Gone from the address, the box shows its default, the address is written without
    it, and :func:`unused` and :func:`refused_note` say so.
    """
    refused = {}
    for key, values in parameters.items():
        if key in _OURS or len(values) != 1 or not _NUMBER.fullmatch(values[0]):
            continue
        if len(values[0]) > _LONGEST_NUMBER or not math.isfinite(float(values[0])):
            refused[key] = values[0]
            del st.query_params[key]
    return refused


def refused_note(column, key: str, default, holds: str) -> None:
    """Under a number box (in ``column``): a sentence while the box shows its ``default`` in place of the link's value
    for it, refused (:func:`drop_unreadable_numbers`); ``holds`` says what the box takes."""
    value = (st.session_state.get("link_refused") or {}).get(key)
    if value is not None and st.session_state.get(key) == default:
        column.caption(refused_number(escape.markdown(key), _shown([value]), holds))


def _shown(values: list[str]) -> str:
    """A link's value as the notice quotes it: cut to 40 characters, in quotes, as typed (escaped for Markdown)."""
    text = ", ".join(values)
    return escape.markdown(repr(text if len(text) <= 40 else text[:37] + "..."))


# -- the game -----------------------------------------------------------------------------------


def matrix_param(game: rmcore.MatrixGame) -> str | None:
    """``game`` as the ``matrix`` parameter, or None when it is larger than a link carries. A game of three players or
    more is its name, its actions (a list per player) and its payoffs (a nested list per player, ``payoffs[i][a1][a2]
    ...``)."""
    if max(game.shape) > MAX_LINK_ACTIONS:
        return None
    if game.num_players > 2:
        payoffs = [p.tolist() for p in game.payoffs]
        spec = {"name": game.name, "actions": [list(a) for a in game.actions], "payoffs": payoffs}
        text = json.dumps(spec, separators=(",", ":"))
        return text if len(text) <= MAX_PARAM_CHARS else None
    spec = {
        "name": game.name,
        "rows": list(game.row_actions),
        "cols": list(game.col_actions),
        "A": game.row_payoffs.tolist(),
    }
    if not game.is_zero_sum:
        spec["B"] = game.col_payoffs.tolist()
    if game.start is not None:  # a preset with renamed actions keeps its start
        spec["start"] = [list(game.start.row), list(game.start.col)]
    text = json.dumps(spec, separators=(",", ":"))
    return text if len(text) <= MAX_PARAM_CHARS else None  # longer than a link may carry: a link would be refused


def game_from_param(text: str) -> rmcore.MatrixGame:
    """The game a ``matrix`` parameter describes; ``ValueError`` says what is wrong with it."""
    if len(text) > MAX_PARAM_CHARS:
        raise ValueError(f"it is {len(text):,} characters long (at most {MAX_PARAM_CHARS:,})")
    spec = loads_json(text, "it")  # nesting and number length capped
    if isinstance(spec, dict) and "payoffs" in spec:
        return _players_game_from(spec)
    if not isinstance(spec, dict) or "A" not in spec:
        raise ValueError("it needs the row player's payoffs 'A'")
    unknown = set(spec) - {"name", "rows", "cols", "A", "B", "start"}
    if unknown:
        raise ValueError(f"it has unknown fields {sorted(unknown)}")
    for field in ("A", "B"):
        table = spec.get(field)
        if table is None:
            continue
        if not isinstance(table, list) or not all(isinstance(row, list) for row in table):
            raise ValueError(f"'{field}' must be a list of rows")
        if len(table) > MAX_LINK_ACTIONS or any(len(row) > MAX_LINK_ACTIONS for row in table):
            raise ValueError(f"a link carries games of at most {MAX_LINK_ACTIONS}x{MAX_LINK_ACTIONS}")
        if any(isinstance(cell, bool) or not isinstance(cell, (int, float)) for row in table for cell in row):
            raise ValueError(f"'{field}' must hold numbers only")
    for field in ("rows", "cols"):
        names = spec.get(field)
        if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            raise ValueError(f"'{field}' must be a list of action names")
    start = spec.get("start")
    if start is not None and not (
        isinstance(start, list) and len(start) == 2 and all(isinstance(s, list) for s in start)
    ):
        raise ValueError("'start' must be two lists of weights, the row player's and the column player's")
    name = spec.get("name", "Shared game")
    if not isinstance(name, str) or len(name) > 100:
        raise ValueError("its name must be text of at most 100 characters")
    return rmcore.MatrixGame(
        spec["A"],
        spec.get("B"),
        spec.get("rows"),
        spec.get("cols"),
        name=name or "Shared game",
        start=None if start is None else tuple(start),
    )


def initial_game(default: str) -> tuple[rmcore.MatrixGame, tuple, str | None]:
    """The game a session starts with, where it came from (the link's matrix, its preset, or ``default``), and what
    was wrong with the link's matrix, if anything (the link then opens the preset)."""
    text = st.query_params.get("matrix")
    problem = None
    if text is not None:
        try:
            return game_from_param(text), ("matrix",), None
        except Exception as error:  # noqa: BLE001 - any failure: a hostile link must open the defaults, never crash
            reason = error if isinstance(error, ValueError) else f"it could not be read ({type(error).__name__})"
            problem = f"matrix: {escape.markdown(reason)}; showing the preset instead"
            del st.query_params["matrix"]
    catalogue = {**rmcore.PRESETS, **rmcore.NORMAL_FORM_PRESETS}  # (the page's: two players, then three)
    titles = {entry.title: name for name, entry in catalogue.items()}
    name = titles.get(st.query_params.get("preset", ""), default)
    entry = catalogue[name]
    params = {}
    for p in entry.parameters:
        text = st.query_params.get(f"param_{name}_{p.name}")
        try:
            value = float(text) if text is not None else p.default
        except ValueError:
            value = p.default  # the bound slider drops it too, and the check names it
        params[p.name] = value if math.isfinite(value) and p.low <= value <= p.high else p.default
    params = {k: int(v) if p.integer else float(v) for (k, v), p in zip(params.items(), entry.parameters)}
    return rmcore.preset(name, **params), ("preset", name), problem


def _players_game_from(spec: dict) -> rmcore.NormalFormGame:
    """The game of three players or more a ``matrix`` parameter describes (:func:`matrix_param`), checked before it is
    built: its fields, 3 to ``rmcore.config.MAX_PLAYERS`` players, at most ``MAX_LINK_ACTIONS`` actions each and
    numbers only."""
    unknown = set(spec) - {"name", "actions", "payoffs"}
    if unknown:
        raise ValueError(f"it has unknown fields {sorted(unknown)}")
    payoffs = spec["payoffs"]
    if not isinstance(payoffs, list) or not 3 <= len(payoffs) <= rmcore.config.MAX_PLAYERS:
        raise ValueError(f"'payoffs' must be a list of 3 to {rmcore.config.MAX_PLAYERS} players' payoff arrays")

    def shape_of(value, depth: int) -> tuple:
        if depth == len(payoffs):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError("'payoffs' must hold numbers only")
            return ()
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_LINK_ACTIONS:
            raise ValueError(f"a link carries games of at most {MAX_LINK_ACTIONS} actions a player")
        shapes = {shape_of(item, depth + 1) for item in value}
        if len(shapes) != 1:
            raise ValueError("every player's payoffs must be an array of one shape")
        return (len(value), *shapes.pop())

    shapes = {shape_of(array, 0) for array in payoffs}
    if len(shapes) != 1:
        raise ValueError("every player's payoffs must be an array of one shape")
    actions = spec.get("actions")
    if actions is not None and not (
        isinstance(actions, list) and all(isinstance(a, list) and all(isinstance(n, str) for n in a) for a in actions)
    ):
        raise ValueError("'actions' must be a list of action names per player")
    name = spec.get("name", "Shared game")
    if not isinstance(name, str) or len(name) > 100:
        raise ValueError("'name' must be text of at most 100 characters")
    return rmcore.NormalFormGame(payoffs, actions, name)


def game_changed(game: rmcore.MatrixGame, from_preset: bool) -> bool:
    """Keep the link's ``matrix`` parameter in step with the game: set for an edited or uploaded game, gone for a
    preset. Returns whether the link carries the game (a preset's always; another game up to the editor's size)."""
    text = None if from_preset else matrix_param(game)
    if text is None:
        st.query_params.pop("matrix", None)
    else:
        st.query_params["matrix"] = text
    return from_preset or text is not None


# -- the tree page's own game ----------------------------------------------------------------------


def efg_param(text: str) -> str:
    """A .efg text as the ``kuhn_efg`` parameter: zlib-compressed, URL-safe base64 without its padding."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def efg_from_param(param: str) -> str:
    """The .efg text a ``kuhn_efg`` parameter carries; ``ValueError`` says what is wrong with it. One longer than
    ``MAX_EFG_LINK_CHARS`` (more than a page writes into its links) is refused before it is decompressed."""
    if len(param) > MAX_EFG_LINK_CHARS:
        raise ValueError(
            f"it is {len(param):,} characters long; a link carries a game of at most {MAX_EFG_LINK_CHARS:,}"
        )
    try:
        packed = base64.b64decode(param + "=" * (-len(param) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("it is not URL-safe base64") from None
    # Never more than a file would be read: a few kB of zeros inflate to gigabytes.
    inflate = zlib.decompressobj()
    try:
        data = inflate.decompress(packed, EFG_READ_MEGABYTES * 2**20)
    except zlib.error:
        raise ValueError("it is not a compressed game (zlib)") from None
    if inflate.unconsumed_tail:
        raise ValueError(f"it inflates to more than {EFG_READ_MEGABYTES} MB")
    if not inflate.eof:
        raise ValueError("it is cut short (the compressed game does not end)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("it is not UTF-8 text") from None


def tree_game_changed(param: str | None) -> bool:
    """Keep the link's ``kuhn_efg`` in step with the tree page's game (``param``: the user's game as the parameter,
    None for a catalogue game): set when it is at most ``MAX_EFG_LINK_CHARS`` long, gone otherwise. Returns whether
    it was set."""
    fits = param is not None and len(param) <= MAX_EFG_LINK_CHARS
    if fits:
        if st.query_params.get("kuhn_efg") != param:
            st.query_params["kuhn_efg"] = param
    else:
        st.query_params.pop("kuhn_efg", None)
    return fits


# -- running to an iteration --------------------------------------------------------------------


def requested_iteration(parameters: dict[str, list[str]]) -> tuple[int, str | None]:
    """The ``run_to`` of a link's ``parameters`` (0 when there is none or it is unusable), and what was wrong with it,
    if anything."""
    text = parameters.get("run_to", [None])[-1]
    if text is None:
        return 0, None
    if not text.isdigit() or not 1 <= int(text) <= MAX_RUN_TO:
        return 0, f"run\\_to={_shown([text])}: a whole number from 1 to {MAX_RUN_TO:,} runs the link to that iteration"
    return int(text), None


# -- the setup file -----------------------------------------------------------------------------


def setup(page: str, iteration: int) -> dict:
    """The setup as data: the page, the link's parameters (pairs, in order) and the iteration reached."""
    pairs = [[key, value] for key in st.query_params if key != "run_to" for value in st.query_params.get_all(key)]
    return {"format": "rmcore-setup/1", "page": page, "parameters": pairs, "iteration": iteration}


def link_from_setup(data: bytes, base: str) -> str:
    """The link a setup file stands for (``base`` is the app's URL); ``ValueError`` says what is wrong with the file."""
    if len(data) > MAX_SETUP_BYTES:
        raise ValueError(f"the file is {len(data):,} bytes; a setup is at most {MAX_SETUP_BYTES:,}")
    try:
        spec = loads_json(data.decode("utf-8"), "the setup file")
    except UnicodeDecodeError:
        raise ValueError("the file is not a setup saved by this app (not JSON text)") from None
    if not isinstance(spec, dict) or spec.get("format") != "rmcore-setup/1":
        raise ValueError("the file is not a setup saved by this app (no 'format': 'rmcore-setup/1')")
    page, pairs, iteration = spec.get("page"), spec.get("parameters"), spec.get("iteration", 0)
    if page not in ("matrix", "kuhn"):
        raise ValueError(f"the setup's page must be 'matrix' or 'kuhn', not {page!r}")
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p) for p in pairs
    ):
        raise ValueError("the setup's parameters must be a list of [name, value] pairs of text")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 0:
        raise ValueError("the setup's iteration must be a whole number >= 0")
    pairs = [tuple(pair) for pair in pairs]
    if iteration:
        pairs.append(("run_to", str(min(iteration, MAX_RUN_TO))))
    root = base.rstrip("/").removesuffix(f"/{TREE_PAGE_PATH}").removesuffix(f"/{OLD_TREE_PAGE_PATH}")
    query = f"?{urllib.parse.urlencode(pairs)}" if pairs else ""
    target = f"{root}/{TREE_PAGE_PATH if page == 'kuhn' else ''}" + query
    if len(target) > MAX_LINK_CHARS:
        raise ValueError(
            f"the link it stands for is {len(target):,} characters long; a link is at most {MAX_LINK_CHARS:,}"
        )
    return target


# -- the notice and the Share control -------------------------------------------------------------


def unused(parameters: dict[str, list[str]]) -> list[str]:
    """At the end of a session's first run: what the link's ``parameters`` asked for but did not get, in words.

    Bound widgets drop values they cannot use, so a parameter that is gone or changed was rejected;
    one that no widget on this page knows was ignored.
    """
    problems = []
    for key, values in parameters.items():
        if key in _OURS or key in _STREAMLITS:
            continue
        if key == "preset" and not st.session_state.get("from_preset", True):
            continue  # the link's own game (``matrix``) stands in for its preset, and the box says so
        if len(key) > 100 or key not in st.session_state:
            problems.append(f"{escape.markdown(key[:40])}: not a setting of this page; ignored")
        elif isinstance(st.session_state[key], list):
            problems += _check_list(key, values, st.session_state[key])
        elif st.query_params.get_all(key) != values and not _shows(values, st.session_state[key]):
            # Gone from the URL and not what the widget shows: rejected. (A value equal to the
            # widget's default is dropped from the URL too, to keep links short.)
            problems.append(f"{escape.markdown(key)}={_shown(values)}: not a valid value; the default is shown")
    return problems


def _check_list(key: str, given: list[str], kept: list) -> list[str]:
    """A list setting (a multiselect): every entry the widget did not keep, and why (not a choice of this page, or
    past the most the list holds), in words (none when it kept them all).

    Streamlit drops the entries that are no choice first, then keeps the first ``max_selections`` of the rest: an
    entry that is no choice can come anywhere, before kept ones too.
    """
    shown = [str(value) for value in kept]
    dropped = [value for value in dict.fromkeys(given) if value not in shown]
    if not dropped:
        return []
    # (A list whose page does not remember its choices has no most it holds: all it dropped was no choice.)
    options = (st.session_state.get("link_choices") or {}).get(key)
    unknown = [value for value in dropped if options is None or value not in options]
    past = [value for value in dropped if value not in unknown]
    return [list_trimmed(key, shown, unknown, past, MOST_CHOSEN.get(key))]


def _shows(given: list[str], value) -> bool:
    """Whether a widget whose value is ``value`` shows what a link ``given`` (as Streamlit writes it)."""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value] == given
    if len(given) != 1:
        return False
    text = given[0]
    if isinstance(value, bool):
        return text.lower() == str(value).lower()
    if isinstance(value, (int, float)):
        try:
            return float(text) == float(value)
        except ValueError:
            return False
    labels = {str(value), ALGORITHM_NAMES.get(value, ""), getattr(rmcore.PRESETS.get(value), "title", "")}
    return text in labels


def link(iteration: int | None = None) -> str:
    """This page's URL with its whole setup (and, if given, the iteration to run to)."""
    pairs = [(key, value) for key in st.query_params if key != "run_to" for value in st.query_params.get_all(key)]
    if iteration:
        pairs.append(("run_to", str(min(iteration, MAX_RUN_TO))))
    base = st.context.url or ""
    if base and not urllib.parse.urlsplit(base).path:
        base += "/"  # http://host:8501 -> http://host:8501/ before the query
    return base + ("?" + urllib.parse.urlencode(pairs) if pairs else "")


def share(page: str, iteration: int) -> None:
    """A Share control: the link to this setup, ready to copy."""
    with st.popover("Share this setup", icon=":material/link:"):
        if page == "matrix":
            carried = st.session_state.get("game_in_link", True)
        else:
            carried = st.session_state.get("tree_game_in_link", True)
        if carried:
            st.caption(SHARE_CARRIED)
        elif page != "matrix":  # the user's own game, too large to travel: the link would open another game
            uploaded = st.session_state.kuhn_uploaded  # (a ui.trees.games.UploadedGame)
            chars = st.session_state.tree_game_link_chars
            st.warning(share_too_large_tree(size_words(uploaded.game), chars, MAX_EFG_LINK_CHARS))
        else:  # the link opens the preset: running it to this run's iteration would show other numbers
            game = st.session_state.game
            st.warning(share_too_large_matrix(game.shape, MAX_LINK_ACTIONS, MAX_PARAM_CHARS))
        run_to = st.checkbox(
            share_run_to(min(iteration, MAX_RUN_TO)),
            key=f"{page}_share_run_to",
            disabled=iteration == 0 or not carried,
        )
        address = link(iteration if run_to and carried else None)
        if len(address) > MAX_LINK_CHARS:  # (the server would answer such a link with a bare "400 Bad Request")
            st.warning(link_too_long(len(address), MAX_LINK_CHARS))
        else:
            st.code(address, language=None, wrap_lines=True)
        loaded = st.file_uploader(
            load_setup_label(SETUP_ACCEPTED_MEGABYTES),
            type="json",
            key=f"{page}_load_setup",
            max_upload_size=SETUP_ACCEPTED_MEGABYTES,
        )
        if loaded is not None:
            try:
                target = link_from_setup(loaded.getvalue(), st.context.url or "")
            except ValueError as error:
                st.error(f"Not loaded: {error}.")
            else:
                st.caption(f"Opening {target}")
                _navigate(data={"url": target}, key=f"{page}_navigate")


def write_drawn_later(values: dict) -> None:
    """Write widget ``values`` set from code (a lesson, a click on a chart) into the address too: a widget first drawn
    with a value from the session does not write itself into the address (the start sliders, drawn only once the start
    is one's own), so without this the share link would miss them. A widget already bound to the address writes
    itself, and Streamlit refuses a second writer: that one is left to do so."""
    for key, value in values.items():
        try:
            st.query_params[key] = str(value)
        except StreamlitAPIException:
            pass
