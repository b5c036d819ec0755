"""OpenSpiel's games as :class:`~rmcore.TreeGame`: :func:`from_openspiel`.

OpenSpiel stays optional: this module never imports it; it reads the game object it is given through OpenSpiel's
public state methods (``child``, ``chance_outcomes``, ``information_state_string``, ``returns``).
"""

from __future__ import annotations

from ..trees.builder import MAX_TREE_NODES, Chance, Decision, Terminal, build_tree_game
from ..trees.game import TreeGame

__all__ = ["from_openspiel"]


def from_openspiel(game, *, max_nodes: int = MAX_TREE_NODES) -> TreeGame:
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
        Refuse (ValueError) a game with more histories than this.

    Raises
    ------
    ValueError
        If ``game`` is not an OpenSpiel game, has other than two players, is not zero-sum, samples its chance
        outcomes instead of listing them, or is larger than ``max_nodes``.
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
    if kind.dynamics.name == "SIMULTANEOUS":
        import pyspiel  # only reached with an OpenSpiel game in hand

        game = pyspiel.convert_to_turn_based(game)

    def expand(state):
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
                [state.child(a) for a, _ in outcomes],
            )
        player = state.current_player()
        if player not in (0, 1):
            raise ValueError(f"{title} has a state whose player is {player} (neither player nor chance)")
        legal = state.legal_actions()
        return Decision(
            player + 1,
            state.information_state_string(),
            tuple(state.action_to_string(player, a) for a in legal),
            [state.child(a) for a in legal],
        )

    return build_tree_game(title, game.new_initial_state(), expand, max_nodes=max_nodes)
