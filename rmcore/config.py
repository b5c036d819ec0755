"""Tunables in one place: limits, tolerances, history sizes and chunk sizes.

Kernels never read these directly; the wrappers pass them in as arguments, so a
notebook user can change a value here and see it take effect without recompiling.
"""

#: Largest number of actions a player may have in a :class:`~rmcore.MatrixGame`.
MAX_ACTIONS = 5000

#: How far from 1 a user-supplied probability vector may sum before it is rejected.
SIMPLEX_TOLERANCE = 1e-9

#: Default cap on the number of checkpoint rows a solver's ``history()`` keeps.
DEFAULT_MAX_POINTS = 2000

#: Share of the history budget given to the log-spaced early checkpoints
#: (the rest go to evenly spaced later ones).
LOG_CHECKPOINT_SHARE = 0.25

#: Log-spaced checkpoints start at this many points per decade of iterations
#: (a power of two, so thinning by halves keeps a subset of the same points).
LOG_POINTS_PER_DECADE = 32

