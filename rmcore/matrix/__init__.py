"""Normal-form games: :class:`NormalFormGame` of n >= 2 players, its two-player form :class:`MatrixGame` and the
presets, the learning rules' catalogue and
:class:`MatrixSolver`, and the matrix metrics and bounds.

- :mod:`rmcore.matrix.games`: the validated, immutable games, the presets, a CSV reader;
- :mod:`rmcore.matrix.solver`: regret matching and its contrasts (RM+, PRM+, Hedge, fictitious play, GDA), run
  incrementally;
- :mod:`rmcore.matrix.metrics`: best-response gains of a profile and the regret bounds drawn beside a run;
- :mod:`rmcore.matrix.correlated_gaps`: how far a joint distribution of play is from the correlated and the coarse
  correlated equilibria (OpenSpiel's ``ce_dist`` and ``cce_dist``).

The exact answer (the LP) is in :mod:`rmcore.exact`; the Gambit ``.nfg`` files in :mod:`rmcore.formats`.
"""

from .._deprecated import getattr_for
from .bounds import internal_regret_bound, internal_rm_inertia
from .correlated_gaps import cce_gap, ce_gap
from .games import (
    NORMAL_FORM_PRESETS,
    PRESETS,
    Equilibrium,
    MatrixGame,
    NormalFormGame,
    Preset,
    PresetParameter,
    aligned_column_payoffs,
    parse_matrix_csv,
)
from .games import preset as preset
from .metrics import hedge_regret_bound, regret_bound
from .solver import (
    ALGORITHMS,
    AVERAGINGS,
    ONLY_FORMS,
    SAMPLINGS,
    STEP_ALGORITHMS,
    UPDATES,
    MatrixSolver,
    MatrixVariant,
)

__all__ = [
    "NormalFormGame",
    "MatrixGame",
    "Equilibrium",
    "Preset",
    "PresetParameter",
    "PRESETS",
    "NORMAL_FORM_PRESETS",
    "preset",
    "parse_matrix_csv",
    "aligned_column_payoffs",
    "MatrixSolver",
    "MatrixVariant",
    "ONLY_FORMS",
    "ALGORITHMS",
    "STEP_ALGORITHMS",
    "SAMPLINGS",
    "UPDATES",
    "AVERAGINGS",
    "regret_bound",
    "hedge_regret_bound",
    "internal_regret_bound",
    "internal_rm_inertia",
    "cce_gap",
    "ce_gap",
]

# (``rmcore.matrix`` was the solver's module: its other names keep working for one release)
__getattr__ = getattr_for("rmcore.matrix", forward="rmcore.matrix.solver")
