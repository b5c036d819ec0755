"""Two-player zero-sum game trees: :class:`TreeGame` and its one builder, the catalogue of games, :class:`CFRSolver`
and its algorithms, a fixed opponent and the best response to it, and hands against a bot.

- :mod:`rmcore.trees.game`: the tree walked once into flat arrays, with its labels; policies as ``[infoset, action]``
  arrays;
- :mod:`rmcore.trees.builder`: any tree from nested :class:`Decision`, :class:`Chance` and :class:`Terminal` nodes;
- the games: :mod:`~rmcore.trees.poker` (Kuhn poker on sliders, Leduc hold'em), :mod:`~rmcore.trees.kuhn` (classic
  Kuhn poker and its equilibria), :mod:`~rmcore.trees.liars_dice`, :mod:`~rmcore.trees.goofspiel`, and
  :mod:`~rmcore.trees.catalogue`, which names them for the pages and the command line;
- :mod:`rmcore.trees.cfr`: CFR and its variants, run incrementally;
- :mod:`rmcore.trees.exploit`: a fixed opponent, the exact best response to it and where it deviates;
- :mod:`rmcore.trees.play`: one hand at a time against the bot.

The exact answer (the sequence-form LP) is in :mod:`rmcore.exact`; ``.efg`` files and OpenSpiel's games in
:mod:`rmcore.formats`.
"""

from .builder import Chance, Decision, Terminal, build_tree_game
from .catalogue import TREE_GAMES, TreeGameEntry, TreeGameParameter, tree_game, tree_game_setting
from .cfr import CFR_ALGORITHMS, CFR_UPDATES, CFRSolver, CFRTrace, CFRVariant
from .exploit import Deviation, exploiting_deviations, fixed_strategy
from .game import TreeGame
from .goofspiel import GoofspielRules, goofspiel_game
from .kuhn import KUHN, equilibrium_policy, is_classic_kuhn
from .liars_dice import LiarsDiceRules, liars_dice_game
from .play import Hand, running_mean
from .poker import KuhnRules, LeducRules, kuhn_poker, leduc_poker, poker_tree

__all__ = [
    "TreeGame",
    "build_tree_game",
    "Decision",
    "Chance",
    "Terminal",
    "TREE_GAMES",
    "TreeGameEntry",
    "TreeGameParameter",
    "tree_game",
    "tree_game_setting",
    "KUHN",
    "KuhnRules",
    "LeducRules",
    "kuhn_poker",
    "leduc_poker",
    "poker_tree",
    "is_classic_kuhn",
    "equilibrium_policy",
    "LiarsDiceRules",
    "liars_dice_game",
    "GoofspielRules",
    "goofspiel_game",
    "CFRSolver",
    "CFRVariant",
    "CFRTrace",
    "CFR_ALGORITHMS",
    "CFR_UPDATES",
    "fixed_strategy",
    "Deviation",
    "exploiting_deviations",
    "Hand",
    "running_mean",
]
