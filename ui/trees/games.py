"""The tree page's games: the catalogue's (``rmcore.TREE_GAMES``) with their parameters, and the user's own, read from
a Gambit ``.efg`` file (uploaded, or carried by a share link).

No Streamlit call here: what a game is called, how big it is, and reading an uploaded file into a game the page can
run.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

import rmcore

from .. import explain
from ..escape import markdown as escape
from ..explain_trees import kuhn_players_words, size_words
from ..link import EFG_READ_MEGABYTES

#: The three choices the page had before the catalogue grew, by their old ids and labels: a link carries the label
#: (``kuhn_game=Leduc hold'em``), so none of them may change.
CLASSIC = {"kuhn": "Kuhn poker", "sliders": "Kuhn on sliders", "leduc": "Leduc hold'em"}
#: The choice of the user's own game.
UPLOAD, UPLOAD_LABEL = "efg", "Your game (.efg)"
#: The choice of any OpenSpiel game by its ``load_game`` string (where OpenSpiel is installed).
OPENSPIEL, OPENSPIEL_LABEL = "openspiel", "OpenSpiel game"
#: Longest game string taken: OpenSpiel's longest (``universal_poker`` with its betting abstraction) are 200-odd
#: characters.
MAX_OPENSPIEL_CHARS = 400
#: The limits of the child process that loads and converts an OpenSpiel game (``rmcore.load_openspiel``): its
#: wall-clock seconds and its address space in MB. ``RM_OPENSPIEL_SECONDS`` and ``RM_OPENSPIEL_MEGABYTES`` in the
#: server's environment set others (the hostile-link tests make them small).
OPENSPIEL_SECONDS = float(os.environ.get("RM_OPENSPIEL_SECONDS", rmcore.formats.openspiel.OPENSPIEL_SECONDS))
OPENSPIEL_MEGABYTES = int(os.environ.get("RM_OPENSPIEL_MEGABYTES", rmcore.formats.openspiel.OPENSPIEL_MEGABYTES))
#: The catalogue entry each classic choice is (Kuhn poker as the classic and on sliders, Leduc hold'em).
ENTRY_OF_CLASSIC = {"kuhn": "kuhn", "sliders": "kuhn", "leduc": "leduc"}
_OFFERED_AS_CLASSIC = set(ENTRY_OF_CLASSIC.values())

#: Most tree nodes the page runs. The largest catalogue game, Liar's dice with 6 sides, has 294,876 (its 294,883
#: histories less the 7 chance nodes of the deal): one CFR iteration takes 1.92 ms (the row tree_cfr_liars_dice_6 of
#: docs/performance/bench.json), a checkpoint several megabytes; a tree ten times larger would keep two checkpoints a
#: session and leave the page under two chart updates a second.
MAX_PAGE_NODES = 300_000
#: Largest file the uploader accepts, in megabytes. Streamlit refuses a larger one in the browser with a red chip and
#: no words, so it is set above what is read: a file between the two gets a sentence that says why it was not loaded.
EFG_ACCEPTED_MEGABYTES = 40


def choices() -> dict[str, str]:
    """Every game the page offers, id -> label: the classic three, every other catalogue entry, and the user's own."""
    offered = dict(CLASSIC)
    offered.update({name: entry.title for name, entry in rmcore.TREE_GAMES.items() if name not in _OFFERED_AS_CLASSIC})
    offered[OPENSPIEL] = OPENSPIEL_LABEL
    offered[UPLOAD] = UPLOAD_LABEL
    return offered


def help_text() -> str:
    """The game control's help: one line per choice (the catalogue's, or what the page does with a classic choice)."""
    lines = [f"{CLASSIC[name]}: {words}" for name, words in explain.TREE_GAME_CHOICES.items()]
    lines += [
        f"{entry.title}: {entry.description}"
        for name, entry in rmcore.TREE_GAMES.items()
        if name not in _OFFERED_AS_CLASSIC
    ]
    lines.append(f"{OPENSPIEL_LABEL}: {explain.TREE_GAME_OPENSPIEL}")
    lines.append(f"{UPLOAD_LABEL}: {explain.TREE_GAME_UPLOAD}")
    return "\n\n".join(lines)


def rules(name: str) -> str:
    """What the page shows above a game's settings for the page's choice ``name``: a catalogue game's rules in full
    (``TreeGameEntry.how_to_play``; Kuhn on sliders is Kuhn poker's), escaped for Markdown, and for Kuhn on sliders
    what the sliders change; empty for the user's and OpenSpiel's games (their description says what they are)."""
    entry = rmcore.TREE_GAMES.get("kuhn" if name == "sliders" else name)
    if entry is None or not entry.how_to_play:
        return ""
    words = f"**{escape(entry.title)}:** {escape(entry.how_to_play)}"
    return words + (f" **{CLASSIC['sliders']}:** {escape(explain.SLIDERS_WORDS)}" if name == "sliders" else "")


def page_words(name: str, uploaded: UploadedGame | None, game: rmcore.TreeGame) -> str:
    """The words above the tree page's settings: the classic choices' rules and what the page does with them, any
    other game's line (with its size) and its rules."""
    if name == "kuhn" and game.players > 2:  # (the catalogue's rules and the CFR note are two-player Kuhn's)
        rules_of_n = rmcore.trees.poker.KuhnRules(game.players + 1, 1.0, game.players)
        return kuhn_players_words(game.players, rules_of_n.card_names, len(game.infosets))
    notes = {"kuhn": explain.KUHN_CFR, "leduc": explain.LEDUC_VIEW}
    if name in CLASSIC:
        return " ".join(part for part in (rules(name), notes.get(name, "")) if part)
    line = description(name, uploaded, game)
    text = rules(name)
    return f"{line}\n\n{text}" if text else line


def description(name: str, uploaded: UploadedGame | None, game: rmcore.TreeGame) -> str:
    """A game's line (Markdown): a catalogue game's description (the catalogue's words) and its size; the user's
    game's title, where it came from and its size; an OpenSpiel game's name and size."""
    if name == UPLOAD and uploaded is not None:
        return f"**{escape(uploaded.title)}** (from {escape(uploaded.source)}): {size_words(game)}."
    if name == OPENSPIEL:
        return explain.openspiel_line(game.name, size_words(game))
    entry = rmcore.TREE_GAMES[name]
    return f"**{escape(entry.title)}:** {escape(entry.description)} ({size_words(game)}.)"


@dataclass(frozen=True, eq=False)
class UploadedGame:
    """The user's own game: the tree, the .efg text it was read from and where that came from. Two are the same game
    when their texts are (a digest of the text stands for it in the page's setup and caches)."""

    digest: str
    game: rmcore.TreeGame = field(repr=False)
    text: str = field(repr=False)
    source: str = "an uploaded file"
    notes: tuple[str, ...] = ()  # what the reader assumed (``rmcore.read_efg``'s notes: decimals read as fractions)

    @property
    def title(self) -> str:
        return self.game.name or "Your game"

    def __eq__(self, other) -> bool:
        return isinstance(other, UploadedGame) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)


def read_uploaded(data: bytes | str, source: str) -> UploadedGame:
    """The game a .efg file (its bytes, or its text) holds, if the page can run it.

    Raises
    ------
    ValueError
        One sentence: the file is too long or not UTF-8 text, the reader's reason (it names the line), the tree
        is larger than the page runs (its size against :data:`MAX_PAGE_NODES`), or a game of more than two players
        is general-sum (as :func:`openspiel_game` refuses one).
    """
    limit = EFG_READ_MEGABYTES * 2**20
    if len(data) > limit:
        raise ValueError(f"the file is {len(data) / 2**20:,.1f} MB; at most {EFG_READ_MEGABYTES} MB is read")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("the file is not UTF-8 text") from None
    too_large = (
        f"this page runs trees of at most {MAX_PAGE_NODES:,} nodes (Liar's dice with 6 sides has 294,876); "
        "solve larger ones from Python (rmcore.read_efg) or the command line (--efg)"
    )
    notes: list[str] = []
    try:  # (the reader stops counting one node past the cap: a huge file is refused without building it)
        # As bytes: a str not starting with "EFG" would be taken for a path, and a file's content is never a path.
        game = rmcore.read_efg(data.encode(), max_nodes=MAX_PAGE_NODES + 1, notes=notes)
    except ValueError as error:
        if f"more than {MAX_PAGE_NODES + 1:,} nodes" in str(error):
            raise ValueError(f"the game has more than {MAX_PAGE_NODES:,} nodes: {too_large}") from None
        if source and str(error).startswith("the .efg data"):  # (name the file the user chose)
            raise ValueError(str(source) + str(error)[len("the .efg data") :]) from None
        raise
    nodes = game.tree.player.shape[0]
    if nodes > MAX_PAGE_NODES:
        raise ValueError(f"{game.name or 'the game'} has {nodes:,} nodes: {too_large}")
    if not game.is_zero_sum:  # (a two-player file is zero-sum; the page's charts and sections are for such games)
        raise ValueError(
            f"this page plays zero-sum games (two players or more); {game.name or 'the game'} has {game.players:,} "
            "players and is not zero-sum (rmcore.read_efg reads it, and the command line runs it with --efg)"
        )
    return UploadedGame(hashlib.sha256(data.encode()).hexdigest()[:16], game, data, source, tuple(notes))


def efg_text(game: rmcore.TreeGame, uploaded: UploadedGame | None = None) -> str:
    """``game`` as Gambit .efg text: an uploaded game's own text, any other game written out."""
    if uploaded is not None and uploaded.game is game:
        return uploaded.text
    return rmcore.write_efg(game)


def openspiel_installed() -> bool:
    """Whether OpenSpiel (``pyspiel``) can be imported on this server."""
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


def openspiel_game(text: str) -> rmcore.TreeGame:
    """The OpenSpiel game ``text`` names (``pyspiel.load_game``'s string: ``liars_dice(dice_sides=4)``), loaded and
    converted by :func:`rmcore.load_openspiel` in a child process, under the page's node cap and its limits
    (:data:`OPENSPIEL_SECONDS`, :data:`OPENSPIEL_MEGABYTES`): nothing OpenSpiel does reaches the server.

    Raises
    ------
    ValueError
        One sentence: empty or too long a string, one that names a file, a game OpenSpiel does not know or a parameter
        it refuses, a game that is not zero-sum, one without information-state strings, larger
        than the page runs (:data:`MAX_PAGE_NODES`), or one that crashed OpenSpiel, took too long or too much memory.
    """
    text = str(text).strip()
    if not text:
        raise ValueError("type a game's name, such as kuhn_poker or liars_dice(dice_sides=4)")
    if len(text) > MAX_OPENSPIEL_CHARS:
        raise ValueError(f"the game string is {len(text):,} characters long; at most {MAX_OPENSPIEL_CHARS} are taken")
    try:
        game = rmcore.load_openspiel(
            text, max_nodes=MAX_PAGE_NODES + 1, seconds=OPENSPIEL_SECONDS, megabytes=OPENSPIEL_MEGABYTES
        )
    except ValueError as error:
        if f"more than {MAX_PAGE_NODES + 1:,} nodes" in str(error):
            raise ValueError(
                f"{text} has more than {MAX_PAGE_NODES:,} nodes: this page runs trees of at most {MAX_PAGE_NODES:,} "
                "nodes (Liar's dice with 6 sides has 294,876); convert larger ones from Python "
                "(rmcore.from_openspiel)"
            ) from None
        raise
    if not game.is_zero_sum:  # (the library converts any; the page's charts and sections are for zero-sum games)
        players = "two" if game.players == 2 else f"{game.players:,}"
        raise ValueError(
            f"this page plays zero-sum games (two players or more); {game.name} has {players} players and is not "
            "zero-sum (rmcore.from_openspiel runs it)"
        )
    return game
