"""Tunables in one place: limits, tolerances, history sizes and chunk sizes.

Kernels never read these directly; the wrappers pass them in as arguments, so a
notebook user can change a value here and see it take effect without recompiling.
"""

#: Largest number of actions a player may have in a :class:`~rmcore.MatrixGame`.
MAX_ACTIONS = 5000

#: Largest number of strategy profiles (cells ``a_1 x ... x a_n``) a :class:`~rmcore.NormalFormGame` of three or more
#: players may have: a million profiles are a million 8-byte floats of payoffs per player.
MAX_PROFILES = 1_000_000

#: Most players a game file may have (a payoff array has one axis per player, and numpy at most 64).
MAX_PLAYERS = 32

#: Largest payoff magnitude a game may have. Far beyond it, regret sums over long runs lose their
#: last digits and the exact LP's tolerances stop meaning anything (HiGHS refuses coefficients of
#: 1e15 and more); rescaling a game changes nothing that regret matching does.
MAX_PAYOFF = 1e12

#: Smallest magnitude a non-zero payoff may have. Far below it (subnormal numbers start at 2.2e-308) regrets and
#: their sums lose every digit: ``[[3e-320, 0], [0, 1e-320]]`` gave average strategies ``[inf, nan]``.
MIN_PAYOFF = 1e-100

#: Most players a game tree may have: every pass keeps a reach and a value row per player, and OpenSpiel's n-player
#: games (Kuhn and Leduc poker, Goofspiel) take at most 10.
MAX_TREE_PLAYERS = 10

#: Longest label (a game's or an action's name) accepted, in characters: a table column stays readable.
MAX_LABEL_CHARS = 60

#: Longest CSV text read, in characters (a 200x200 game of long numbers is well within it).
MAX_CSV_CHARS = 2_000_000

#: Longest Gambit ``.nfg`` text read, in characters: the CSV's cap, since a 200x200 game written with every digit
#: (two numbers of up to 24 characters per profile) is about 2 million characters.
MAX_NFG_CHARS = 2_000_000

#: Longest description kept from a game file's comment, in characters: it is shown as one line under the game.
MAX_DESCRIPTION_CHARS = 500

#: How far from 1 a user-supplied probability vector may sum before it is rejected.
SIMPLEX_TOLERANCE = 1e-9

#: Most iterations a solver runs in all: well inside int64 and inside the float64 weights of quadratic averaging
#: (t^3 / 3 at 1e15 is 3e44), and past what any machine runs (1e15 RM iterations on 3x3 take a core about 2 years).
MAX_ITERATIONS = 10**15

#: Most work one kernel call of ``run(n)`` does, so that Ctrl-C lands within a fraction of a second: in iterations times
#: (m n + m + n) for a matrix game (1.3 million 3x3 iterations) and iterations times tree nodes for CFR (37,000 Kuhn
#: iterations or 210 of Leduc's). Chunks give the same numbers as one call, to the last bit.
RUN_CHUNK_WORK = 20_000_000
RUN_CHUNK_CFR_WORK = 2_000_000

#: Default cap on the number of checkpoint rows a solver's ``history()`` keeps.
DEFAULT_MAX_POINTS = 2000
#: Most memory a solver's history takes by default: a row holds the policies, so a game with large ones keeps fewer
#: rows than ``DEFAULT_MAX_POINTS`` (Liar's dice with six sides: a few dozen rows of megabytes each rather than
#: 2,000, which would hold gigabytes). An explicit ``max_points`` is kept as given.
DEFAULT_HISTORY_BYTES = 256 * 2**20

#: The share of a run's time its history's rows may take by default: checkpoints are spaced so that the rows, each
#: costing what this process measured a row of the solver's kind to cost (``rmcore.solver.measured_row_cost``), take at
#: most this much beside the iterations of any run of at least one stride (``rmcore.checkpoints.stride_for``).
HISTORY_SHARE = 0.1

#: Least time a process spends measuring what a history row costs, once per kind of solver (``rmcore.solver``'s
#: ``measured_row_cost``), in seconds; a game whose rows are slow spends up to ``ROW_COST_ROWS`` rows' time instead.
ROW_COST_SECONDS = 0.03
#: Most rows' time that measurement may spend beyond ``ROW_COST_SECONDS`` (Liar's dice with six sides: rows of
#: several of its iterations each).
ROW_COST_ROWS = 12

#: Largest ``max_points`` a solver accepts: a 3x3 game's rows are about 200 bytes, Leduc's 67 kB.
MAX_POINTS = 100_000

#: Checkpoint rows a race keeps for every run but its first (which a page draws in detail): the other runs draw one
#: curve each, and a log-log chart of a few hundred points shows it whole.
RACE_MEMBER_POINTS = 500

#: Share of the history budget given to the log-spaced early checkpoints
#: (the rest go to evenly spaced later ones).
LOG_CHECKPOINT_SHARE = 0.25

#: Log-spaced checkpoints start at this many points per decade of iterations
#: (a power of two, so thinning by halves keeps a subset of the same points).
LOG_POINTS_PER_DECADE = 32


#: Largest call run as plain Python while its family compiles in a process of its own
#: (``rmcore.compile_in_background``), in operations: iterations times (m n + m + n), and history rows times their
#: count (four passes over the cells and the row's entries, ``MatrixSolver._row_operations``): a 3x3 game's 15
#: numbers, about 13,000 iterations or 0.3 s. A larger call waits for the compile instead.
PYTHON_TWIN_WORK = 200_000

#: The same for a game tree, in node visits (an iteration's sweeps times the nodes, and a history row's six sweeps and
#: its entries, ``CFRSolver._row_operations``): classic Kuhn
#: poker's 54 nodes, about 100 iterations, 0.1 s. A tree of a few thousand nodes waits for the compile.
PYTHON_TWIN_CFR_WORK = 30_000

#: Step size ``eta`` of Hedge, optimistic Hedge, GDA and optimistic GDA when none is given, and the largest accepted:
#: with payoffs of order 1, a step of 100 makes Hedge a best response to the cumulative payoffs (fictitious play), and
#: GDA jump to a vertex every round, so larger steps show nothing new.
DEFAULT_ETA = 0.1
MAX_ETA = 100.0


# -- Sweeps (rmcore.sweep): grids of runs, one result file per cell ------------------------------------------------

#: Largest tree (in nodes) a sweep cell runs unless its grid sets ``max_nodes``: Liar's dice with 6 sides, the largest
#: catalogue game (294,876 nodes), fits three times over; a larger game fails its cells with the size in the error.
SWEEP_MAX_NODES = 1_000_000

#: Largest matrix game (in payoff entries, rows times columns) a sweep cell runs unless its grid sets ``max_payoffs``.
SWEEP_MAX_PAYOFFS = 1_000_000

#: Most policy columns (average, current and regrets for every information set's actions) a cell keeps per checkpoint
#: with ``policies = true``: Leduc hold'em's 2,184 information-set actions give 6,552; a Parquet file of Liar's dice's
#: 147,420 columns would take minutes to write and a page could not read it.
SWEEP_MAX_POLICY_COLUMNS = 20_000

#: Checkpoints per decade of iterations when a grid names none: ``round(10 ** (k / 8))``, 10, 100, 1,000 ... among them.
SWEEP_CHECKPOINTS_PER_DECADE = 8

#: Largest grid file read, in characters, and most cells a grid may expand to.
MAX_GRID_CHARS = 1_000_000
MAX_SWEEP_CELLS = 100_000
