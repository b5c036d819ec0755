"""rmcore: fast, correct regret matching and CFR (numpy + numba; no user interface).

>>> import rmcore
>>> solver = rmcore.MatrixSolver(rmcore.preset("matching-pennies"))
>>> solver.run(1000)
>>> solver.metrics().nash_conv < 0.01
True
"""

from .exact import ZeroSumSolution, solve_zero_sum
from .kuhn import KuhnCFR, KuhnTrace, equilibrium_policy, kuhn_nash_conv
from .games import PRESETS, Equilibrium, MatrixGame, Preset, PresetParameter, parse_matrix_csv, preset
from .matrix import ALGORITHMS, AVERAGING, SAMPLING, UPDATES, MatrixMetrics, MatrixSolver, PlayerValues, StrategyProfile
from .metrics import BestResponseGains, best_response_gains, exploitability, nash_conv, regret_bound

__all__ = [
    "ALGORITHMS", "AVERAGING", "SAMPLING", "UPDATES",
    "KuhnCFR", "KuhnTrace", "equilibrium_policy", "kuhn_nash_conv",
    "BestResponseGains", "Equilibrium", "MatrixGame", "MatrixMetrics", "MatrixSolver", "PlayerValues",
    "Preset", "PresetParameter", "PRESETS", "StrategyProfile", "ZeroSumSolution",
    "best_response_gains", "exploitability", "nash_conv", "parse_matrix_csv", "preset", "regret_bound",
    "solve_zero_sum",
]  # fmt: skip
__version__ = "0.1.0"
