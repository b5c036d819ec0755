"""OpenSpiel's games as :class:`~rmcore.TreeGame`: :func:`from_openspiel`.

OpenSpiel stays optional: this module never imports it; it reads the game object it is given through OpenSpiel's
public state methods (``child``, ``chance_outcomes``, ``information_state_string``, ``returns``).
"""

from __future__ import annotations

from ..trees.builder import MAX_TREE_NODES, Chance, Decision, Terminal, build_tree_game
from ..trees.game import TreeGame

__all__ = ["from_openspiel", "MAX_OPENSPIEL_MOVES"]

#: Most moves the histories of all the states a conversion creates may hold together. Each OpenSpiel state keeps its
#: whole history, and a walk keeps every state it has created and not yet expanded: in a game of long plays (chess, go)
#: the walk goes deep first and its memory grows with the square of the nodes built (3.2 GB at 4,000 nodes of chess).
#: Liar's dice with 6 sides, the largest game the tree page runs, creates 2.5 million moves' worth (294,883 states);
#: at this cap chess is refused after 0.6 s with the process at 0.41 GB at most (at 10 million: 0.78 GB).
MAX_OPENSPIEL_MOVES = 4_000_000
#: OpenSpiel's player id of chance (``pyspiel.PlayerId.CHANCE``), without importing OpenSpiel.
_CHANCE = -1


def from_openspiel(game, *, max_nodes: int = MAX_TREE_NODES, max_moves: int = MAX_OPENSPIEL_MOVES) -> TreeGame:
    """A two-player zero-sum OpenSpiel game (with chance; turn-based, or made so) as a :class:`~rmcore.TreeGame`.

    The tree is walked once through OpenSpiel's states: chance nodes keep OpenSpiel's probabilities, information
    sets are OpenSpiel's information-state strings, actions are named by ``action_to_string``. A game with
    simultaneous moves is made turn-based first (``pyspiel.convert_to_turn_based``: player 1 moves, then player 2
    without seeing it). CFR on the result equals OpenSpiel's ``CFRSolver`` on the game
    (``tests/test_from_openspiel.py``).

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
        If ``game`` is not an OpenSpiel game, has other than two players, is not zero-sum, samples its chance
        outcomes instead of listing them, gives no information-state strings (backgammon), is larger than
        ``max_nodes`` or ``max_moves``, or OpenSpiel refuses a state on the way (its ``SpielError``, in a sentence).
    """
    if not all(hasattr(game, name) for name in ("new_initial_state", "get_type", "num_players")):
        raise ValueError(f"from_openspiel takes an OpenSpiel game (pyspiel.load_game(...)); got {type(game).__name__}")
    kind = game.get_type()
    title = kind.long_name or kind.short_name
    if game.num_players() != 2:
        raise ValueError(f"rmcore plays two-player games; {title} has {game.num_players()} players")
    if kind.utility.name not in ("ZERO_SUM", "CONSTANT_SUM"):
        raise ValueError(f"rmcore's tree solvers need a zero-sum game; {title} is {kind.utility.name.lower()}")
    if kind.chance_mode.name == "SAMPLED_STOCHASTIC":
        raise ValueError(f"{title} samples its chance outcomes instead of listing them; rmcore needs the list")
    if not kind.provides_information_state_string:
        raise ValueError(
            f"{title} does not give its players' information states (OpenSpiel's information_state_string), from "
            "which rmcore makes its information sets"
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
            raise ValueError(
                f"{title}'s plays are too long: the histories of its first {created[0]:,} states already hold more "
                f"than {max_moves:,} moves (each state keeps its whole history), more than rmcore builds"
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
        if player not in (0, 1):
            raise ValueError(f"{title} has a state whose player is {player} (neither player nor chance)")
        legal = state.legal_actions()
        return Decision(
            player + 1,
            state.information_state_string(),
            tuple(state.action_to_string(player, a) for a in legal),
            count([state.child(a) for a in legal]),
        )

    try:
        return build_tree_game(title, game.new_initial_state(), expand, max_nodes=max_nodes)
    except ValueError:
        raise
    except Exception as error:  # noqa: BLE001 - OpenSpiel's own refusal (pyspiel.SpielError), said in a sentence
        if type(error).__name__ != "SpielError":
            raise
        raise ValueError(f"OpenSpiel refused a state of {title}: {error}") from None
