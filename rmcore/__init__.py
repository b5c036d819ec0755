"""rmcore: fast, correct regret matching and CFR (numpy + numba + scipy; no user interface).

Every solver answers the same verbs: ``run(n)``, ``iteration``, ``metrics()``, ``history()``,
``average_policy()`` and ``current_policy()``; see :class:`MatrixSolver` and :class:`CFRSolver`.

>>> import rmcore
>>> solver = rmcore.MatrixSolver(rmcore.preset("matching-pennies"))
>>> solver.run(1000)
>>> solver.metrics().nash_conv < 0.01
True
"""

from . import poker as poker  # the subpackage, re-exported as rmcore.poker
from ._runtime import KernelsCompiling, compile_in_background, compiles_in_background, compiling, prepare_kernels
from .catalogue import TREE_GAMES, TreeGameEntry, TreeGameParameter, tree_game, tree_game_setting
from .cfr import CFR_UPDATES, CFR_VARIANTS, CFRMetrics, CFRSolver, CFRTrace, CFRVariant, tree_nash_conv
from .equilibria import (
    NashEquilibria,
    NashEquilibrium,
    lemke_howson,
    nash_equilibria,
    nearest_equilibrium,
    support_enumeration,
)
from .exact import ZeroSumSolution, solve_zero_sum
from .exploit import BestResponse, Deviation, best_response, exploiting_deviations, fixed_strategy
from .formats import from_openspiel, read_efg, read_nfg, write_efg, write_nfg
from .games import (
    PRESETS,
    Equilibrium,
    MatrixGame,
    Preset,
    PresetParameter,
    aligned_column_payoffs,
    parse_matrix_csv,
    preset,
)
from .goofspiel import GoofspielRules, goofspiel
from .kuhn import KUHN, KuhnCFR, equilibrium_policy, is_classic_kuhn, kuhn_nash_conv
from .liars_dice import LiarsDiceRules, liars_dice
from .matrix import (
    ALGORITHMS,
    AVERAGINGS,
    SAMPLINGS,
    STEP_ALGORITHMS,
    UPDATES,
    MatrixMetrics,
    MatrixSolver,
    MatrixVariant,
    PlayerValues,
    StrategyProfile,
)
from .metrics import (
    BestResponseGains,
    best_response_gains,
    exploitability,
    hedge_regret_bound,
    nash_conv,
    regret_bound,
)
from .play import Hand, running_mean
from .poker import KuhnRules, LeducRules, kuhn_poker, leduc_poker, poker_tree
from .race import THRESHOLDS, Curve, Race, RaceResult, Reached, Standing, race
from .records import History, Policy
from .sequence_form import TreeSolution, solve_tree_game
from .sweep import read_results, sweep
from .tree import TreeGame
from .tree_builder import Chance, Decision, Terminal, build_tree_game

__all__ = [
    "ALGORITHMS",
    "STEP_ALGORITHMS",
    "hedge_regret_bound",
    "AVERAGINGS",
    "SAMPLINGS",
    "UPDATES",
    "CFR_UPDATES",
    "CFR_VARIANTS",
    "PRESETS",
    "TREE_GAMES",
    "THRESHOLDS",
    "MatrixGame",
    "MatrixSolver",
    "MatrixVariant",
    "MatrixMetrics",
    "PlayerValues",
    "StrategyProfile",
    "TreeGameEntry",
    "TreeGameParameter",
    "tree_game",
    "tree_game_setting",
    "from_openspiel",
    "read_efg",
    "write_efg",
    "build_tree_game",
    "Decision",
    "Chance",
    "Terminal",
    "is_classic_kuhn",
    "TreeGame",
    "KUHN",
    "KuhnRules",
    "LeducRules",
    "kuhn_poker",
    "leduc_poker",
    "poker_tree",
    "LiarsDiceRules",
    "liars_dice",
    "GoofspielRules",
    "goofspiel",
    "TreeSolution",
    "solve_tree_game",
    "BestResponse",
    "Deviation",
    "best_response",
    "exploiting_deviations",
    "fixed_strategy",
    "Hand",
    "running_mean",
    "CFRSolver",
    "CFRVariant",
    "CFRMetrics",
    "CFRTrace",
    "KuhnCFR",
    "History",
    "Policy",
    "Race",
    "RaceResult",
    "Standing",
    "Reached",
    "Curve",
    "race",
    "BestResponseGains",
    "Equilibrium",
    "Preset",
    "PresetParameter",
    "ZeroSumSolution",
    "NashEquilibrium",
    "NashEquilibria",
    "nash_equilibria",
    "support_enumeration",
    "lemke_howson",
    "nearest_equilibrium",
    "best_response_gains",
    "equilibrium_policy",
    "exploitability",
    "kuhn_nash_conv",
    "nash_conv",
    "parse_matrix_csv",
    "aligned_column_payoffs",
    "read_nfg",
    "write_nfg",
    "preset",
    "regret_bound",
    "solve_zero_sum",
    "tree_nash_conv",
    "compile_in_background",
    "compiles_in_background",
    "compiling",
    "prepare_kernels",
    "KernelsCompiling",
    "sweep",
    "read_results",
]
__version__ = "0.2.0"
