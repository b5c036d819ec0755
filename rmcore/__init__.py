"""rmcore: fast, correct regret matching and CFR (numpy + numba + scipy; no user interface).

The library by family, every name re-exported here:

- **both families**: the records (:class:`Policy`, :class:`History`, :class:`Metrics`, :class:`PlayerValues`,
  :class:`BestResponse`, :class:`ExactSolution`) and the measures of a policy, :func:`nash_conv`,
  :func:`exploitability`, :func:`best_response`, and the exact answer, :func:`solve_exactly` (:mod:`rmcore.exact`);
- **correlated equilibria** (:mod:`rmcore.correlated`): the CE and CCE sets of a matrix game by linear programming,
  :func:`correlated_equilibrium`, :func:`welfare_range`, :func:`closest_correlated_equilibrium`,
  :func:`correlated_vertices`;
- **normal-form games** (:mod:`rmcore.matrix`): :class:`NormalFormGame` of n >= 2 players, its two-player form
  :class:`MatrixGame`, the presets, :class:`MatrixSolver` (two players);
- **game trees** (:mod:`rmcore.trees`): :class:`TreeGame`, the catalogue, :class:`CFRSolver`, a fixed opponent and
  hands against the bot;
- **files** (:mod:`rmcore.formats`): Gambit's ``.nfg`` and ``.efg``, OpenSpiel's games;
- **races and sweeps** (:mod:`rmcore.race`, :mod:`rmcore.sweep`): several algorithms on one game (:class:`Race`,
  :func:`run_race`), grids of runs (:func:`run_sweep`);
- **the exercise** (:mod:`rmcore.exercises`): a student's own regret matching, RM+ or CFR step checked against the
  library's, iterate by iterate (:func:`~rmcore.exercises.check_regret_matching`);
- **compiling**: the kernels compile in processes of their own (:func:`compile_in_background`).

The pages' figures live in :mod:`rmcore.plotting`, which ``import rmcore`` never imports: Plotly's JSON as plain
dicts, and :func:`rmcore.plotting.watch`, a solver's live charts in a notebook cell (the notebook extra:
``pip install 'rmcore[notebook]'``).

Every solver answers the same verbs: ``run(n)``, ``iteration``, ``metrics()``, ``history()``, ``metrics_at(history,
row)``, ``average_policy()`` and ``current_policy()``, with the same records. Players are numbered from 1 (1 and 2 in a
two-player game).

>>> import rmcore
>>> solver = rmcore.MatrixSolver(rmcore.preset("matching-pennies"))
>>> solver.run(1000)
>>> solver.metrics().nash_conv < 0.01
True
>>> rmcore.nash_conv(solver.game, solver.average_policy()) == solver.metrics().nash_conv
True
"""

from . import exact, exercises, formats, matrix, race, sweep, trees  # noqa: F401 - (families, races, sweeps, the exercise)
from ._deprecated import getattr_for
from ._runtime import (
    KernelsCompiling,
    KernelsUnavailable,
    compile_in_background,
    compiles_in_background,
    compiling,
    kernels_failed,
    prepare_kernels,
)
from .correlated import (
    CorrelatedEquilibrium,
    closest_correlated_equilibrium,
    correlated_equilibrium,
    correlated_vertices,
    welfare_range,
)
from .exact import solve_exactly
from .exact.equilibria import (
    NashEquilibria,
    NashEquilibrium,
    NashSubset,
    equilibrium_distance,
    lemke_howson,
    nash_equilibria,
    nearest_equilibrium,
    support_enumeration,
    vertex_enumeration,
)
from .formats import from_openspiel, load_openspiel, read_efg, read_nfg, write_efg, write_nfg
from .matrix import *  # noqa: F403 - (the family's names, as rmcore.matrix.__all__ lists them)
from .metrics import best_response, exploitability, nash_conv
from .race import THRESHOLDS, Curve, Race, RaceResult, Reached, Standing, first_crossing, run_race
from .records import BestResponse, ExactSolution, History, Metrics, PlayerValues, Policy
from .sweep import read_results, run_sweep
from .trees import *  # noqa: F403 - (the family's names, as rmcore.trees.__all__ lists them)

__all__ = [
    # both families: records, measures of a policy, the exact answer
    "Policy",
    "History",
    "Metrics",
    "PlayerValues",
    "BestResponse",
    "ExactSolution",
    "nash_conv",
    "exploitability",
    "best_response",
    "solve_exactly",
    # every Nash equilibrium of a general-sum matrix game (rmcore.exact.equilibria)
    "NashEquilibria",
    "NashEquilibrium",
    "NashSubset",
    "nash_equilibria",
    "vertex_enumeration",
    "support_enumeration",
    "lemke_howson",
    "nearest_equilibrium",
    "equilibrium_distance",
    # correlated and coarse correlated equilibria of a matrix game (rmcore.correlated)
    "CorrelatedEquilibrium",
    "correlated_equilibrium",
    "welfare_range",
    "closest_correlated_equilibrium",
    "correlated_vertices",
    # matrix games and game trees, as their families list them
    *matrix.__all__,
    *trees.__all__,
    # files (rmcore.formats)
    "read_nfg",
    "write_nfg",
    "read_efg",
    "write_efg",
    "from_openspiel",
    "load_openspiel",
    # races and sweeps
    "Race",
    "RaceResult",
    "Standing",
    "Reached",
    "Curve",
    "run_race",
    "first_crossing",
    "THRESHOLDS",
    "run_sweep",
    "read_results",
    # compiling
    "compile_in_background",
    "compiles_in_background",
    "compiling",
    "kernels_failed",
    "prepare_kernels",
    "KernelsCompiling",
    "KernelsUnavailable",
]
__version__ = "0.2.0"

# The names of one release ago (rmcore/_deprecated.py): each still works, with a DeprecationWarning naming the new one.
__getattr__ = getattr_for("rmcore")
