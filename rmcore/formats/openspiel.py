"""OpenSpiel's games as :class:`~rmcore.TreeGame`: :func:`from_openspiel` and :func:`load_openspiel`.

Two routes. :func:`from_openspiel` converts a game object the caller has loaded, in the caller's process: OpenSpiel
already runs there. :func:`load_openspiel` takes a game *string* (what ``pyspiel.load_game`` takes) and loads and
converts it in a child process of its own, stopped past a time limit and a memory limit: some strings crash OpenSpiel
(``connect_four(rows=0)``: a segmentation fault), hold its interpreter for minutes (``blotto(coins=1000000,
fields=100)``), fill the memory (``liars_dice(numdice=1000000)``) or never return (``mnk(m=1000,n=1000,k=3)``), and
none of that may reach a process that serves others. A string that names a file (``efg_game(filename=...)``) is
refused before OpenSpiel sees it.

OpenSpiel stays optional: this module never imports it; it reads the game object it is given through OpenSpiel's
public state methods (``child``, ``chance_outcomes``, ``information_state_string``, ``returns``), and only the child
process of :func:`load_openspiel` imports ``pyspiel``.
"""

from __future__ import annotations

import io
import math
import os
import pickle
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import config
from ..trees.builder import MAX_TREE_NODES, Chance, Decision, Terminal, build_tree_game
from ..trees.game import TreeGame, check_tree_game

__all__ = [
    "from_openspiel",
    "load_openspiel",
    "check_game_string",
    "MAX_OPENSPIEL_MOVES",
    "OPENSPIEL_SECONDS",
    "OPENSPIEL_MEGABYTES",
]

#: Most moves the histories of all the states a conversion creates may hold together. Each OpenSpiel state keeps its
#: whole history, and a walk keeps every state it has created and not yet expanded: in a game of long plays (chess, go)
#: the walk goes deep first and its memory grows with the square of the nodes built (gigabytes at 4,000 nodes of
#: chess).
#: Liar's dice with 6 sides, the largest game the tree page runs, creates 2.5 million moves' worth (294,883 states);
#: at this cap chess is refused within a second, its process well inside its memory limit.
MAX_OPENSPIEL_MOVES = 4_000_000
#: Fewest moves per state's history, on average, for a refusal by ``max_moves`` to blame the length of the plays: the
#: walk goes deep first, and in chess (281 at the cap) or go on 5x5 (50) its states' histories grow with it. Below it
#: the plays are short and the states are too many (Liar's dice with two dice each: 18; Goofspiel with 6 cards: 14).
_LONG_PLAYS = 40
#: :func:`load_openspiel`'s limits by default: the child process is stopped past this many seconds (loading and
#: converting Liar's dice with 6 sides, 294,883 states, took 30 s on a busy two-core machine) or when its address
#: space would pass this many megabytes (its Python, numpy and numba take a sixth of it before OpenSpiel starts;
#: Liar's dice with 6 sides reaches a third).
OPENSPIEL_SECONDS = 60.0
OPENSPIEL_MEGABYTES = 2048
#: OpenSpiel's player id of chance (``pyspiel.PlayerId.CHANCE``), without importing OpenSpiel.
_CHANCE = -1


def from_openspiel(game, *, max_nodes: int = MAX_TREE_NODES, max_moves: int = MAX_OPENSPIEL_MOVES) -> TreeGame:
    """An OpenSpiel game of 2 to 10 players, zero-sum or general-sum (with chance; turn-based, or made so) as a
    :class:`~rmcore.TreeGame`.

    The tree is walked once through OpenSpiel's states: chance nodes keep OpenSpiel's probabilities, information
    sets are OpenSpiel's information-state strings, actions are named by ``action_to_string``. A game with
    simultaneous moves is made turn-based first (``pyspiel.convert_to_turn_based``: player 1 moves, then player 2
    without seeing it). A two-player zero-sum game's terminals hold player 1's return (player 2's is its negative);
    any other game's every player's return. CFR on the result equals OpenSpiel's ``CFRSolver`` on the game
    (``tests/test_from_openspiel.py``, ``tests/test_nplayer_trees.py``).

    Parameters
    ----------
    game
        A ``pyspiel.Game``, such as ``pyspiel.load_game("leduc_poker")``.
    max_nodes
        Refuse (ValueError) a game with more histories than this: the states the walk creates are counted as it
        creates them, so the refusal comes before the tree is built.
    max_moves
        Refuse a game whose created states' histories hold more moves than this together (each state keeps its
        history: chess or go would fill the memory long before ``max_nodes``).

    Raises
    ------
    ValueError
        If ``game`` is not an OpenSpiel game, has more than 10 players, samples its chance
        outcomes instead of listing them, gives no information-state strings (backgammon), is larger than
        ``max_nodes`` or ``max_moves``, or OpenSpiel refuses a state on the way (its ``SpielError``, in a sentence).
    """
    if not all(hasattr(game, name) for name in ("new_initial_state", "get_type", "num_players")):
        raise ValueError(f"from_openspiel takes an OpenSpiel game (pyspiel.load_game(...)); got {type(game).__name__}")
    kind = game.get_type()
    title = kind.long_name or kind.short_name
    players = game.num_players()
    if not 2 <= players <= config.MAX_TREE_PLAYERS:
        raise ValueError(f"rmcore plays games of 2 to {config.MAX_TREE_PLAYERS} players; {title} has {players}")
    # A two-player zero-sum game keeps one payoff per terminal (player 1's), the layout its fast passes read.
    two_player_zero_sum = players == 2 and kind.utility.name in ("ZERO_SUM", "CONSTANT_SUM")
    if kind.chance_mode.name == "SAMPLED_STOCHASTIC":
        raise ValueError(f"{title} samples its chance outcomes instead of listing them; rmcore needs the list")
    if not kind.provides_information_state_string:
        raise ValueError(
            f"{title} does not give its players' information states (OpenSpiel's information_state_string), from "
            "which rmcore makes its information sets"
        )
    if kind.short_name == "goofspiel" and not game.get_parameters().get("imp_info", False):
        raise ValueError(
            "OpenSpiel's Goofspiel gives information states with perfect recall, which rmcore needs, only with "
            "imp_info=True, such as goofspiel(num_cards=4,imp_info=True)"
        )
    if kind.dynamics.name == "SIMULTANEOUS":
        import pyspiel  # only reached with an OpenSpiel game in hand

        game = pyspiel.convert_to_turn_based(game)

    created = [1, 0]  # states, and the moves their histories hold

    def count(children: list) -> list:
        created[0] += len(children)
        created[1] += sum(len(child.history()) for child in children)
        if created[0] > max_nodes:
            raise ValueError(f"{title} has more than {max_nodes:,} nodes, more than rmcore builds")
        if created[1] > max_moves:
            each = created[1] / created[0]
            if each > _LONG_PLAYS:
                raise ValueError(
                    f"{title}'s plays are too long: the histories of its first {created[0]:,} states already hold "
                    f"more than {max_moves:,} moves ({each:,.0f} a state; each state keeps its whole history), more "
                    "than rmcore builds"
                )
            raise ValueError(
                f"{title} has too many states: its first {created[0]:,} (their histories {each:,.0f} moves long on "
                f"average) already hold more than {max_moves:,} moves between them, more than rmcore builds"
            )
        return children

    # The builder expands a deal's first state twice (to find the deals, then to lay each out): its expansion is kept
    # between the two, so that its children are created, and counted, once.
    deal_roots: dict[int, tuple] = {}

    def expand(state):
        known = deal_roots.pop(id(state), None)
        if known is not None:
            return known[1]
        node = walk(state)
        if not isinstance(node, Chance) and all(step.player == _CHANCE for step in state.full_history()):
            deal_roots[id(state)] = (state, node)  # (the state too: its id stays its own while it is kept)
        return node

    def walk(state):
        if state.is_terminal():
            returns = state.returns()
            if not two_player_zero_sum:
                return Terminal(tuple(returns))
            if abs(returns[0] + returns[1]) > 1e-12 * max(1.0, abs(returns[0])):
                raise ValueError(f"{title} is not zero-sum at {state.history_str()!r}: returns {returns}")
            return Terminal(returns[0])
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            return Chance(
                tuple(state.action_to_string(a) for a, _ in outcomes),
                tuple(p for _, p in outcomes),
                count([state.child(a) for a, _ in outcomes]),
            )
        player = state.current_player()
        if player not in range(players):
            raise ValueError(f"{title} has a state whose player is {player} (neither a player nor chance)")
        legal = state.legal_actions()
        return Decision(
            player + 1,
            state.information_state_string(),
            tuple(state.action_to_string(player, a) for a in legal),
            count([state.child(a) for a in legal]),
        )

    try:
        return build_tree_game(title, game.new_initial_state(), expand, max_nodes=max_nodes, players=players)
    except ValueError as error:
        if "breaks perfect recall" in str(error):  # (the builder quotes the set's name: OpenSpiel's runs over lines)
            raise ValueError(
                f"{title}'s information states (OpenSpiel's information_state_string) break perfect recall: a player "
                "reaches one of them after different moves of their own, and rmcore needs perfect recall"
            ) from None
        raise
    except Exception as error:  # noqa: BLE001 - OpenSpiel's own refusal (pyspiel.SpielError), said in a sentence
        if type(error).__name__ != "SpielError":
            raise
        raise ValueError(f"OpenSpiel refused a state of {title}: {error}") from None


#: Words in a parameter's name by which OpenSpiel's games read a file: ``efg_game`` and ``nfg_game``'s ``filename``,
#: ``bargaining``'s ``instances_file``, ``colored_trails``' ``boards_file``, ``crossword``'s ``word_list_file`` and
#: ``puzzles_root``. A parameter so named is refused in any game, and nested games' too.
_FILE_WORDS = ("file", "path", "root", "dir", "folder")
#: A parameter's name in a game string: what stands between ``(`` or ``,`` and ``=``.
_PARAMETER = re.compile(r"[(,]([^=(),]*)=")
#: Longest game string taken: OpenSpiel's longest (``universal_poker`` with its betting abstraction) are 200-odd
#: characters, and the string travels to the child on its command line.
MAX_GAME_STRING_CHARS = 10_000
#: What the child process's exit by a signal means, in words.
_SIGNALS = {
    signal.SIGSEGV: "a segmentation fault",
    signal.SIGBUS: "a bus error",
    signal.SIGFPE: "an arithmetic fault",
    signal.SIGILL: "an illegal instruction",
    signal.SIGABRT: "an abort",
}


def check_game_string(text: str) -> str:
    """``text`` stripped, if it may be handed to ``pyspiel.load_game``: a game string names no file.

    Raises
    ------
    ValueError
        If ``text`` is not a string, is empty or longer than :data:`MAX_GAME_STRING_CHARS`, holds a control
        character, has a parameter whose name speaks of a file (``efg_game(filename=...)``, in a nested game too), or
        holds ``/`` or ``\\`` (a path).
    """
    if not isinstance(text, str):
        raise ValueError(f"an OpenSpiel game string must be a str, such as 'kuhn_poker'; got {type(text).__name__}")
    text = text.strip()
    if not text:
        raise ValueError("the OpenSpiel game string is empty: give a game's name, such as kuhn_poker")
    if len(text) > MAX_GAME_STRING_CHARS:
        raise ValueError(
            f"the game string is {len(text):,} characters long; at most {MAX_GAME_STRING_CHARS:,} are taken"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ValueError("an OpenSpiel game string holds no control characters (such as a line break)")
    for name in _PARAMETER.findall(text):
        if any(word in name.lower() for word in _FILE_WORDS):
            raise ValueError(
                f"a game string may not name a file, and {name.strip()!r} would: only games that OpenSpiel builds "
                "from their parameters are loaded here"
            )
    for mark in ("/", "\\"):
        if mark in text:
            raise ValueError(f"a game string may not name a file, and '{mark}' would: no OpenSpiel game takes it")
    return text


def load_openspiel(
    text: str,
    *,
    max_nodes: int = MAX_TREE_NODES,
    max_moves: int = MAX_OPENSPIEL_MOVES,
    seconds: float = OPENSPIEL_SECONDS,
    megabytes: int = OPENSPIEL_MEGABYTES,
) -> TreeGame:
    """The OpenSpiel game a ``pyspiel.load_game`` string names, loaded and converted (:func:`from_openspiel`) in a child
    process under a time limit and a memory limit: what OpenSpiel does there, a crash included, never reaches this
    process, which never imports ``pyspiel``.

    The child is a fresh Python (``python -m rmcore.formats._openspiel_child``) in an empty temporary folder. Its
    address space is capped at ``megabytes`` (``RLIMIT_AS``: an allocation past it fails) and its processor time near
    ``seconds`` (``RLIMIT_CPU``); it is killed at ``seconds`` of wall-clock time, and ends when this process does.
    The game comes back as a checked :class:`~rmcore.TreeGame`, equal to ``from_openspiel(pyspiel.load_game(text))``
    (``tests/test_load_openspiel.py``). Start-up costs the child a second or more (importing numpy, numba and rmcore):
    use :func:`from_openspiel` on a game you loaded yourself when the string is your own.

    Parameters
    ----------
    text
        The game string, such as ``"liars_dice(dice_sides=4)"``. It may not name a file (:func:`check_game_string`).
    max_nodes, max_moves
        :func:`from_openspiel`'s caps.
    seconds
        Wall-clock limit of the child, in seconds (> 0), start-up included.
    megabytes
        Address-space limit of the child, in MB (at least 512: the child's Python, numpy and numba take about 350).

    Raises
    ------
    ValueError
        One sentence: the string names a file; OpenSpiel does not know the game or refuses a parameter (its own words,
        first line, without paths); :func:`from_openspiel` refuses the game; or the child crashed (and by what
        signal), took longer than ``seconds`` or needed more than ``megabytes``.
    """
    text = check_game_string(text)
    for name, value in (("max_nodes", max_nodes), ("max_moves", max_moves), ("megabytes", megabytes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive whole number; got {value!r}")
    if megabytes < 512:
        raise ValueError(f"megabytes must be at least 512 (the child's Python takes about 350); got {megabytes}")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds < math.inf:
        raise ValueError(f"seconds must be a positive number; got {seconds!r}")
    request = {"text": text, "max_nodes": max_nodes, "max_moves": max_moves, "megabytes": megabytes}
    request["seconds"] = float(seconds)
    answer, how = _run_child(request, float(seconds))
    if how == "time":
        raise ValueError(f"OpenSpiel did not load and convert {text} within {seconds:g} s, so it was stopped")
    if how == "memory":
        raise ValueError(
            f"OpenSpiel needed more than its limit of {megabytes:,} MB to load and convert {text}, so it was stopped"
        )
    if how != "done":
        raise ValueError(f"OpenSpiel crashed loading or converting {text} ({how}); the game cannot be run here")
    kind, value = answer
    if kind == "refused":
        raise ValueError(value)
    if kind == "memory":
        raise ValueError(
            f"OpenSpiel needed more than its limit of {megabytes:,} MB to load and convert {text}, so it was stopped"
        )
    check_tree_game(value)
    return value


def _run_child(request: dict, seconds: float) -> tuple[object, str]:
    """Run the child on ``request``: its answer and ``"done"``, or None and ``"time"``, ``"memory"`` or what ended it
    (a signal's words, an exit status)."""
    import json

    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    # One thread each: every pool's thread stacks count against the address space the child is given.
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    with tempfile.TemporaryDirectory(prefix="rmcore-openspiel-") as folder, tempfile.TemporaryFile() as said:
        child = subprocess.Popen(
            [sys.executable, "-m", "rmcore.formats._openspiel_child", json.dumps(request)],
            cwd=folder,  # (empty: a relative file name finds nothing)
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=said,
        )
        try:
            out, _ = child.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return None, "time"
        except BaseException:  # (Ctrl-C in a library call: the child goes too)
            child.kill()
            child.wait()
            raise
        said.seek(max(0, said.seek(0, io.SEEK_END) - 4096))
        tail = said.read().decode("utf-8", "replace")
    if child.returncode == 0:
        try:
            return _SafeUnpickler(io.BytesIO(out)).load(), "done"
        except Exception:  # noqa: BLE001 - a cut or foreign answer is the child's failure, said as such
            return None, "its answer could not be read"
    if child.returncode == -signal.SIGXCPU:
        return None, "time"
    if "bad_alloc" in tail or "MemoryError" in tail or "Cannot allocate memory" in tail:
        return None, "memory"
    if child.returncode < 0:
        number = -child.returncode
        return None, _SIGNALS.get(number, f"signal {number}")
    return None, f"exit status {child.returncode}"


class _SafeUnpickler(pickle.Unpickler):
    """Reads the child's answer, building only the types a converted game is made of: a pickle names what it
    builds, and the child has run third-party code on a stranger's string."""

    _ALLOWED = {
        ("builtins", "tuple"),
        ("builtins", "str"),
        ("fractions", "Fraction"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("rmcore.trees.game", "TreeGame"),
        ("rmcore.kernels.tree", "TreeArrays"),
    }

    def find_class(self, module: str, name: str):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a converted game")
        return super().find_class(module, name)
