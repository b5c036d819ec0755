"""The regret-matching exercise, checked iterate by iterate against rmcore's own solvers.

A course hands its students a notebook in which they write regret matching themselves (Hart & Mas-Colell 2000,
*Econometrica* 68(5)): the step that turns cumulative regrets into a strategy,

    sigma(a) = max(R(a), 0) / sum_b max(R(b), 0)      (uniform when no regret is positive),

and the self-play loop around it. Each function here runs the student's code beside the library's reference, one
iteration at a time, and answers with the first iteration and the first number that differ, what rmcore computed
there, why it matters and, where the student's output shows it, what went wrong; or, when everything agrees, the
NashConv (:func:`rmcore.nash_conv`) of the average strategies reached.

- :func:`check_regret_matching`: the student's step ``fn(cumulative_regrets) -> strategy`` inside self-play regret
  matching on a matrix game (:class:`rmcore.MatrixSolver` with ``"rm"``);
- :func:`check_self_play`: the student's whole loop, a generator that yields each iteration's strategies and
  averages (where an averaging mistake or an off-by-one in the iteration count shows);
- :func:`check_regret_matching_plus`: the student's RM+ update (Tammelin 2014) ``fn(cumulative_regrets, regrets) ->
  cumulative_regrets`` (``"rm+"``);
- :func:`check_cfr_iteration`: the student's step at every information set of Kuhn poker, against
  :class:`rmcore.CFRSolver` with ``"cfr"`` (Zinkevich et al. 2007), iteration by iteration.

The answers are plain text (``print(result)``); in a notebook the result shows itself as Markdown, and
``result.figure()`` draws the NashConv of the run (Plotly, imported only then).

>>> import numpy as np
>>> from rmcore.exercises import check_regret_matching
>>> def regret_matching(cumulative_regrets):
...     positive = np.maximum(cumulative_regrets, 0.0)
...     total = positive.sum()
...     return positive / total if total > 0 else np.full(len(positive), 1.0 / len(positive))
>>> result = check_regret_matching(regret_matching, iterations=100)
>>> result.passed, result.nash_conv < 0.3
(True, True)
"""

from __future__ import annotations

import html
import inspect
import warnings
from dataclasses import dataclass, field

import numpy as np

from .matrix.games import MatrixGame, NormalFormGame, preset
from .matrix.solver import MatrixSolver, initial_strategies
from .metrics import nash_conv
from .trees.cfr import CFRSolver
from .trees.game import TreeGame
from .trees.kuhn import KUHN

__all__ = [
    "ExerciseResult",
    "Difference",
    "check_regret_matching",
    "check_self_play",
    "check_regret_matching_plus",
    "check_cfr_iteration",
    "MAX_ITERATIONS",
    "MAX_CFR_ITERATIONS",
    "TOLERANCE",
    "DRIFT",
]

#: The most iterations a matrix check runs (the student's Python runs once per iteration and player).
MAX_ITERATIONS = 100_000
#: The most iterations a CFR check runs (the student's step runs at every information set, every iteration).
MAX_CFR_ITERATIONS = 10_000
#: Two numbers agree when they differ by at most this, relative to the larger of 1 and the reference's size.
TOLERANCE = 1e-12
#: A student's loop whose numbers differ from the library's by less than this, after iterations that agreed, has
#: drifted by rounding (its sums add in another order) rather than made a mistake.
DRIFT = 1e-6

_WHY_STRATEGY = (
    "Every later iteration is played from this strategy, so the payoffs, the regrets and the average strategy (what "
    "converges to an equilibrium) all follow it."
)
_WHY_AVERAGE = (
    "In self-play it is the average strategy, not the current one, that converges to a Nash equilibrium (its NashConv "
    "is at most the players' average regrets), so a wrong average reports a wrong answer even when the play is right."
)
_WHY_DRIFT = (
    "Floating-point sums round, and two runs that round differently drift apart, slowly, as iterations feed on "
    "iterations; every iteration before this one agreed."
)
_WHY_REGRETS = (
    "The next strategy is regret matching on these cumulative regrets: RM+ keeps them at or above 0 so that an action "
    "that turns good is played again at once (Tammelin 2014)."
)


@dataclass(frozen=True)
class Difference:
    """The first number that differs: where, the student's value and rmcore's.

    Attributes
    ----------
    quantity : str
        ``"strategy"``, ``"average strategy"``, ``"cumulative regrets"`` or, in CFR, ``"next strategy"`` (the one CFR
        computes at the end of the iteration).
    player : str
        ``"row"`` or ``"col"`` on a matrix game; the information set's name on a game tree.
    action : str
        The action's name, as the game labels it.
    student, reference : float
        The student's number and rmcore's.
    """

    quantity: str
    player: str
    action: str
    student: float
    reference: float


@dataclass(frozen=True)
class ExerciseResult:
    """What a check found: ``passed`` (all agree) with the NashConv reached, or the first difference and why.

    ``bool(result)`` is ``result.passed``. ``str(result)`` is the answer as text; in a notebook the result shows
    itself as Markdown.

    Attributes
    ----------
    exercise, game : str
        What was checked, on which game.
    iterations : int
        The iterations asked for.
    agreed : int
        The iterations that agreed in full before the first difference.
    passed : bool
        Whether every number agreed to :data:`TOLERANCE` (and a loop yielded exactly ``iterations`` iterates).
    nash_conv : float or None
        When passed: the NashConv (:func:`rmcore.nash_conv`) of the average strategies after the run.
    iteration : int or None
        The first iteration that differs (from 1; 0 is the strategy asked for at zero regrets, before the first).
    difference : Difference or None
        The first number that differs, where the student's output has one to compare (not after an exception).
    computed : str
        What rmcore computed there.
    diagnosis : str
        What the student's output shows (a sentence).
    why : str
        Why the difference matters.
    curve : tuple
        ``(iterations, nash_conv)`` arrays of the reference run, which :meth:`figure` draws.
    """

    exercise: str
    game: str
    iterations: int
    agreed: int
    passed: bool
    nash_conv: float | None
    iteration: int | None
    difference: Difference | None
    computed: str
    diagnosis: str
    why: str
    curve: tuple = field(default=(), repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return "\n".join(self._lines())

    def _lines(self) -> list[str]:
        head = f"{self.exercise} on {self.game}, {self.iterations:,} iteration{'s' if self.iterations != 1 else ''}:"
        if self.passed:
            return [
                f"{head} every iterate agrees with rmcore's (to {TOLERANCE:g}).",
                f"NashConv of the average strategies after {self.iterations:,} iterations: {self.nash_conv:.6g}.",
            ]
        lines = [f"{head} {self.agreed:,} iteration{'s' if self.agreed != 1 else ''} agreed, then a difference."]
        at = "before the first iteration" if self.iteration == 0 else f"at iteration {self.iteration}"
        d = self.difference
        if d is not None:
            lines.append(
                f"First difference {at}: {_owner(d.player)} {d.quantity}, action {d.action}: "
                f"yours {d.student:.12g}, rmcore's {d.reference:.12g}."
            )
        elif self.iteration is not None:
            lines.append(f"First difference {at}.")
        if self.computed:
            lines.append(f"rmcore computed: {self.computed}.")
        lines.append(f"Diagnosis: {self.diagnosis}")
        lines.append(f"Why it matters: {self.why}")
        return lines

    def _repr_markdown_(self) -> str:
        lines = [line.translate(_MARKDOWN_SPECIAL) for line in self._lines()]
        mark = "**Correct.**" if self.passed else "**Not yet.**"
        return "\n\n".join([f"{mark} {lines[0]}", *lines[1:]])

    def figure(self):
        """The reference run's NashConv by iteration, log-log, as a Plotly figure (imports plotly: an extra)."""
        try:
            import plotly.graph_objects as go
        except ImportError:
            raise ImportError("result.figure() draws with Plotly: pip install plotly") from None
        iterations, values = self.curve if self.curve else ((), ())
        figure = go.Figure(go.Scatter(x=list(iterations), y=list(values), mode="lines", name="NashConv"))
        figure.update_layout(
            title=html.escape(f"{self.exercise} on {self.game}: NashConv of the average strategies"),
            xaxis={"title": "iteration", "type": "log"},
            yaxis={"title": "NashConv", "type": "log"},
        )
        return figure


# A game's or an action's name is shown as typed: in a notebook's Markdown (with its $...$ maths) a backslash before
# each character that means something there shows that character (CommonMark 2.4); Plotly's titles take HTML.
_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\|*_`[]<>#~$!"})


def _count(t: int) -> str:
    return f"{t:,} iteration{'s' if t != 1 else ''}"


def _owner(player: str) -> str:
    if player == "row":
        return "the row player's"
    if player == "col":
        return "the column player's"
    return f"information set {player}'s"


# -- arguments -------------------------------------------------------------------------------------


def _callable(fn, what: str, parameters: int):
    if not callable(fn):
        raise ValueError(f"{what} must be a function (callable), got {type(fn).__name__}")
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # (a builtin without a signature: called as it is)
        return fn
    try:
        signature.bind(*range(parameters))
    except TypeError:
        raise ValueError(
            f"{what} must take {parameters} argument{'s' if parameters > 1 else ''}; "
            f"{getattr(fn, '__name__', 'it')}{signature} does not"
        ) from None
    return fn


def _iterations(value, cap: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"iterations must be a whole number from 1 to {cap:,}, got {value!r}")
    if not 1 <= value <= cap:
        raise ValueError(f"iterations must be from 1 to {cap:,}, got {int(value):,}")
    return int(value)


def _matrix_game(game) -> MatrixGame:
    if isinstance(game, str):
        game = preset(game)
    if isinstance(game, NormalFormGame):
        if game.num_players != 2:
            raise ValueError(f"this exercise is on a two-player matrix game; this game has {game.num_players} players")
        return game.as_matrix_game()
    if isinstance(game, TreeGame):
        raise ValueError("this exercise is on a matrix game; a game tree such as rmcore.KUHN is check_cfr_iteration's")
    if isinstance(game, (list, tuple, np.ndarray)):
        return MatrixGame(game)  # (a zero-sum game from the row player's payoffs: its errors name the cell)
    raise ValueError(
        "game must be a MatrixGame, a preset's name such as 'rps', or the row player's payoff matrix; "
        f"got {type(game).__name__}"
    )


def _start(game: MatrixGame, start):
    """The start as MatrixSolver takes it: by default each player's weights 1, 2, ..., m (the column player's
    reversed), away from the equilibrium so that regrets of both signs appear (from no regret, self-play on
    Rock-Paper-Scissors stays at the uniform strategies)."""
    if start is None:
        m, n = game.shape
        start = (np.arange(1.0, m + 1.0), np.arange(n, 0.0, -1.0))
    initial_strategies(game, start)  # (its errors, at once; the solver normalises the weights as given, once)
    return start


# -- comparing and recognising ---------------------------------------------------------------------


def _close(a, b) -> np.ndarray:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return np.abs(a - b) <= TOLERANCE * np.maximum(1.0, np.abs(b))


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(_close(a, b)))


def _rm(regrets: np.ndarray) -> np.ndarray:
    positive = np.maximum(regrets, 0.0)
    total = positive.sum()
    return positive / total if total > 0.0 else np.full(regrets.shape[0], 1.0 / regrets.shape[0])


def _text(values) -> str:
    return "[" + ", ".join(f"{float(v):.6g}" for v in values) + "]"


class _Wrong(Exception):
    """The student's output cannot be compared: the sentence says why."""


def _call(fn, *arguments, n: int, what: str) -> np.ndarray:
    """The student's output as a float vector of ``n`` entries, or :class:`_Wrong` with the reason."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = fn(*(np.array(argument, dtype=float) for argument in arguments))
    except Exception as error:  # (the student's code: any exception is an answer, reported by its message)
        raise _Wrong(f"your function raised {type(error).__name__}: {error}.") from None
    if out is None:
        raise _Wrong(f"your function returned None, not {what} of {n} numbers (is its return statement missing?).")
    try:
        vector = np.array(out, dtype=float)
    except (TypeError, ValueError):
        raise _Wrong(f"your function returned {type(out).__name__}, not {what} of {n} numbers.") from None
    if vector.shape != (n,):
        raise _Wrong(f"your function returned the wrong shape: {vector.shape} where {what} is ({n},), one per action.")
    return vector


def _step_diagnosis(out: np.ndarray, regrets: np.ndarray, extra=()) -> str:
    """What the student's strategy ``out`` shows, given the cumulative regrets it was computed from (``extra``:
    more candidates, (vector, sentence), tried first)."""
    n = regrets.shape[0]
    shown = _text(regrets)
    if not np.all(np.isfinite(out)):
        if not np.any(regrets > 0):
            return (
                f"your strategy has NaN or infinite entries ({_text(out)}): no regret is positive here ({shown}), and "
                "dividing by their positive sum, 0, is undefined; regret matching plays the uniform strategy then."
            )
        return f"your strategy has NaN or infinite entries: {_text(out)} from the regrets {shown}."
    total = float(out.sum())
    positive = np.maximum(regrets, 0.0)
    if not np.any(regrets > 0) and not _same(out, np.full(n, 1.0 / n)):
        return (
            f"the strategy is not uniform when no regret is positive: the regrets are {shown} and your strategy "
            f"{_text(out)}; regret matching plays every action with probability 1/{n} then."
        )
    for vector, sentence in extra:
        if _same(out, vector):
            return sentence
    if abs(total - 1.0) > 1e-9:
        if _same(out, positive) or (positive.sum() > 0 and _same(out / positive.sum(), positive / positive.sum())):
            return (
                f"your strategy is not normalised (it sums to {total:.6g}): the positive regrets {_text(positive)} "
                "must be divided by their sum."
            )
        return f"your strategy is not normalised (it sums to {total:.6g}); a strategy's probabilities sum to 1."
    if np.any(regrets < 0) and regrets.sum() != 0 and _same(out, regrets / regrets.sum()):
        return (
            f"negative regrets were not clipped: your strategy {_text(out)} is the regrets {shown} divided by their "
            "sum; regret matching counts only their positive parts, max(R, 0)."
        )
    if np.any(out < -1e-15):
        return (
            f"your strategy has negative probabilities ({_text(out)}): negative regrets were not clipped to 0 "
            "before normalising."
        )
    if _same(out, _rm(-regrets)):
        return (
            f"the sign of the regret is reversed: your strategy {_text(out)} is regret matching on the negated "
            f"regrets, so it plays the actions that would have done worse ({shown})."
        )
    best = np.zeros(n)
    best[int(np.argmax(regrets))] = 1.0
    if _same(out, best) and np.count_nonzero(positive) > 1:
        return (
            f"your strategy plays only the action of largest regret ({_text(out)}); regret matching plays each action "
            f"in proportion to its positive regret ({shown})."
        )
    return (
        f"your strategy {_text(out)} is not max(R, 0) / sum max(R, 0) of the regrets {shown} "
        f"(which is {_text(_rm(regrets))})."
    )


def _first(student: np.ndarray, reference: np.ndarray) -> int:
    return int(np.flatnonzero(~_close(student, reference))[0])


def _result(exercise, game_name, iterations, agreed, **fields) -> ExerciseResult:
    return ExerciseResult(exercise, game_name, iterations, agreed, **fields)


def _failure(exercise, game_name, iterations, t, quantity, player, actions, out, reference, diagnosis, why):
    k = _first(out, reference) if out is not None and out.shape == reference.shape else 0
    difference = None
    if out is not None and out.shape == reference.shape:
        difference = Difference(quantity, player, actions[k], float(out[k]), float(reference[k]))
    computed = f"{_owner(player)} {quantity} {_text(reference)} ({', '.join(actions)})"
    return _result(
        exercise,
        game_name,
        iterations,
        max(t - 1, 0),
        passed=False,
        nash_conv=None,
        iteration=t,
        difference=difference,
        computed=computed,
        diagnosis=diagnosis[0].upper() + diagnosis[1:],
        why=why,
    )


def _curve(solver) -> tuple:
    history = solver.history()
    return (history.iterations.copy(), np.asarray(history.metrics["nash_conv"]).copy())


def _payoff_vectors(game: MatrixGame, x: np.ndarray, y: np.ndarray):
    """Each player's payoff vector and value against the other's strategy, ``u1 = A y``, ``u2 = x^T B``, added in
    the order rmcore's matrix kernel adds them (``payoff_vectors`` in ``rmcore/kernels/matrix.py``: a row's products
    in column order, the column player's vector row by row, ``v2 = -v1`` in a zero-sum game). numpy's ``A @ y``
    adds in another order; rounded otherwise, a correct student's run would drift from the library's by a unit in
    the last place an iteration, and in a long run grow past the tolerance."""
    A, B = game.row_payoffs, game.col_payoffs
    u1 = A[:, 0] * y[0]
    for j in range(1, A.shape[1]):
        u1 = u1 + A[:, j] * y[j]
    u2 = -(x[0] * A[0]) if game.is_zero_sum else x[0] * B[0]
    for i in range(1, A.shape[0]):
        u2 = u2 - x[i] * A[i] if game.is_zero_sum else u2 + x[i] * B[i]
    v1 = _sequential_dot(x, u1)
    v2 = -v1 if game.is_zero_sum else _sequential_dot(y, u2)
    return u1, v1, u2, v2


def _sequential_dot(a: np.ndarray, b: np.ndarray) -> float:
    total = 0.0
    for k in range(a.shape[0]):
        total += float(a[k]) * float(b[k])
    return total


# -- the checks ------------------------------------------------------------------------------------


def check_regret_matching(fn, game="rps", iterations: int = 1000, *, start=None) -> ExerciseResult:
    """Run the student's regret-matching step in self-play on a matrix game, beside rmcore's, iterate by iterate.

    Regret matching (Hart & Mas-Colell 2000) plays ``x_t = RM(R_{t-1})``, ``RM(R) = max(R, 0) / sum max(R, 0)``
    (uniform when no regret is positive); each player's cumulative regrets grow by ``u - x.u``, its payoff vector
    against the other's strategy less its expected payoff; both players update at once, and the answer is the
    uniform average of the strategies played. This function runs that loop with ``fn`` as ``RM`` for both players
    and compares, every iteration, the strategies ``fn`` returns with those of :class:`rmcore.MatrixSolver` (``"rm"``)
    run one iteration at a time, then the average strategies.

    The run starts at ``start`` (regrets ``Delta x_0``, as the solver's ``start``: one iteration's worth of regret;
    by default weights 1, 2, ..., m for the row player and m, ..., 1 for the column player, away from the
    equilibrium, so that regrets of both signs appear). Before it, ``fn`` is asked for the strategy at zero regrets
    (where regret matching plays uniformly): that is "before the first iteration" in the answer.

    The checker adds the payoffs in the order rmcore's kernel adds them, so that a step written as the formula (the
    positive parts over their sum) runs to the library's numbers to the last bit. A step that rounds otherwise stays
    within :data:`TOLERANCE` at every step, but a run fed by it can drift from the library's in a long run; the
    answer then says that the step is right and the run drifted.

    Parameters
    ----------
    fn : callable
        ``fn(cumulative_regrets) -> strategy``: one player's cumulative regrets (a float array, one per action; a
        copy) to the strategy regret matching plays (one probability per action).
    game : MatrixGame, str or array_like
        The game: a :class:`rmcore.MatrixGame`, a preset's name (:func:`rmcore.preset`) or the row player's payoff
        matrix of a zero-sum game. Default Rock-Paper-Scissors.
    iterations : int
        How many iterations, from 1 to :data:`MAX_ITERATIONS`.
    start : pair of array_like, optional
        Each player's initial weights, as :class:`rmcore.MatrixSolver` takes them.

    Returns
    -------
    ExerciseResult
        ``passed`` with the NashConv (:func:`rmcore.nash_conv`) of the average strategies, or the first iteration
        and number that differ, what rmcore computed there, a diagnosis and why it matters.

    Examples
    --------
    Forgetting to normalise shows at once:

    >>> import numpy as np
    >>> def unnormalised(cumulative_regrets):
    ...     positive = np.maximum(cumulative_regrets, 0.0)
    ...     return positive if positive.sum() > 0 else np.full(len(positive), 1.0 / len(positive))
    >>> result = check_regret_matching(unnormalised, iterations=10)
    >>> result.passed, result.iteration
    (False, 1)
    >>> print(result.diagnosis)  # doctest: +ELLIPSIS
    Your strategy is not normalised (it sums to 2): the positive regrets [0.333333, 0.666667, 1] must be ...
    """
    fn = _callable(fn, "fn", 1)
    iterations = _iterations(iterations, MAX_ITERATIONS)
    game = _matrix_game(game)
    start = _start(game, start)
    return _run_matrix("Regret matching", fn, None, game, iterations, start, "rm")


def check_regret_matching_plus(fn, game="rps", iterations: int = 1000, *, start=None) -> ExerciseResult:
    """Run the student's RM+ regret update in self-play on a matrix game, beside rmcore's, iterate by iterate.

    RM+ (Tammelin 2014, "Solving large imperfect information games using CFR+", arXiv:1407.5042) is regret
    matching whose cumulative regrets are clipped at 0 after every update: ``R_t = max(R_{t-1} + r_t, 0)``, with
    ``r_t = u_t - x_t . u_t`` this iteration's regrets. The classic exercise's shape is that update: ``fn`` gets both
    vectors and returns the new cumulative regrets; the strategies are regret matching on them, and both players
    update at once, as :class:`rmcore.MatrixSolver` with ``"rm+"`` does, which the regrets and average strategies
    are compared with every iteration. The start is :func:`check_regret_matching`'s.

    Parameters
    ----------
    fn : callable
        ``fn(cumulative_regrets, regrets) -> cumulative_regrets``: a player's cumulative regrets so far and this
        iteration's (float arrays, copies) to the new cumulative regrets.
    game, iterations, start
        As :func:`check_regret_matching` takes them.

    Returns
    -------
    ExerciseResult

    Examples
    --------
    >>> import numpy as np
    >>> check_regret_matching_plus(lambda R, r: np.maximum(R + r, 0.0), iterations=200).passed
    True
    >>> print(check_regret_matching_plus(lambda R, r: R + r, iterations=200).diagnosis)  # doctest: +ELLIPSIS
    Negative regrets were not clipped: ...
    """
    fn = _callable(fn, "fn", 2)
    iterations = _iterations(iterations, MAX_ITERATIONS)
    game = _matrix_game(game)
    start = _start(game, start)
    return _run_matrix("RM+", None, fn, game, iterations, start, "rm+")


def _run_matrix(exercise, step, update, game, iterations, start, algorithm) -> ExerciseResult:
    """The self-play loop with the student's ``step`` (regret matching) or ``update`` (RM+), compared every
    iteration with a library solver run one iteration at a time."""
    reference = MatrixSolver(game, algorithm, start=start, max_points=min(iterations, 1000))
    name = game.name
    players = ("row", "col")
    actions = (game.row_actions, game.col_actions)
    fail = lambda *a: _failure(exercise, name, iterations, *a)  # noqa: E731
    if step is not None:
        zeros = [np.zeros(k) for k in game.shape]
        for p in range(2):
            uniform = np.full(game.shape[p], 1.0 / game.shape[p])
            try:
                out = _call(step, zeros[p], n=game.shape[p], what="a strategy")
            except _Wrong as wrong:
                return fail(0, "strategy", players[p], actions[p], None, uniform, str(wrong), _WHY_STRATEGY)
            if not _same(out, uniform):
                return fail(0, "strategy", players[p], actions[p], out, uniform, _step_diagnosis(out, zeros[p]),
                            _WHY_STRATEGY)  # fmt: skip
    regrets = list(reference.cumulative_regrets())  # (R_0: the start's, as the solver has it)
    sums = [np.zeros(k) for k in game.shape]
    for t in range(1, iterations + 1):
        expected = reference.current_policy()
        before = reference.cumulative_regrets()
        strategies = []
        for p in range(2):
            if step is None:
                strategies.append(_rm(regrets[p]))
                continue
            try:
                out = _call(step, regrets[p], n=game.shape[p], what="a strategy")
            except _Wrong as wrong:
                return fail(t, "strategy", players[p], actions[p], None, expected[players[p]], str(wrong),
                            _WHY_STRATEGY)  # fmt: skip
            if not _same(out, expected[players[p]]):
                if _same(out, _rm(regrets[p])):
                    diagnosis, why = _diverged(regrets[p], before[p], t), _WHY_DRIFT
                else:
                    diagnosis, why = _step_diagnosis(out, regrets[p]), _WHY_STRATEGY
                return fail(t, "strategy", players[p], actions[p], out, expected[players[p]], diagnosis, why)
            strategies.append(out)
        x, y = strategies
        u1, v1, u2, v2 = _payoff_vectors(game, x, y)
        instant = (u1 - v1, u2 - v2)
        reference.run(1)
        after = reference.cumulative_regrets()
        for p in range(2):
            if update is None:
                regrets[p] = regrets[p] + instant[p]
                continue
            try:
                new = _call(update, regrets[p], instant[p], n=game.shape[p], what="the cumulative regrets")
            except _Wrong as wrong:
                return fail(t, "cumulative regrets", players[p], actions[p], None, after[p], str(wrong), _WHY_REGRETS)
            if not _same(new, after[p]):
                diagnosis = _update_diagnosis(new, regrets[p], before[p], instant[p])
                return fail(t, "cumulative regrets", players[p], actions[p], new, after[p], diagnosis, _WHY_REGRETS)
            regrets[p] = new
        for p in range(2):
            sums[p] += strategies[p]
        average = reference.average_policy()
        for p in range(2):
            if not _same(sums[p] / t, average[players[p]]):
                diagnosis = "the run diverged from rmcore's in the average strategy though every strategy agreed."
                return fail(t, "average strategy", players[p], actions[p], sums[p] / t, average[players[p]],
                            diagnosis, _WHY_AVERAGE)  # fmt: skip
    policy = reference.average_policy()
    return _result(
        exercise,
        name,
        iterations,
        iterations,
        passed=True,
        iteration=None,
        nash_conv=float(nash_conv(game, policy)),
        difference=None,
        computed="",
        diagnosis="your function agrees with rmcore's at every iteration.",
        why="",
        curve=_curve(reference),
    )


def _diverged(regrets: np.ndarray, reference: np.ndarray, t: int) -> str:
    """A step that is right on the regrets it was given, in a run whose regrets left the library's."""
    gap = float(np.max(np.abs(regrets - reference)))
    return (
        f"your step is right (it is regret matching on the regrets it was given, to {TOLERANCE:g}), but the run "
        f"diverged from rmcore's: after {_count(t - 1)} its cumulative regrets {_text(regrets)} differ from rmcore's "
        f"{_text(reference)} by {gap:.2g}, differences in rounding grown over the run."
    )


def _drifted(out: np.ndarray, reference: np.ndarray, t: int) -> str | None:
    """The sentence for a loop whose numbers left the library's by no more than rounding grown over a run, or None
    (a difference of :data:`DRIFT` or more is a mistake, not rounding)."""
    gap = float(np.max(np.abs(out - reference)))
    if t < 2 or not gap < DRIFT:
        return None
    return (
        f"your loop agrees with rmcore's to rounding: after {_count(t - 1)} its numbers differ from rmcore's by "
        f"{gap:.2g}, differences in rounding grown over the run (numpy's A @ y adds in another order than rmcore's "
        "kernel); nothing in it is wrong that this check can see."
    )


def _update_diagnosis(new, regrets, reference_before, instant) -> str:
    """What the student's RM+ update shows, given its inputs."""
    if not np.all(np.isfinite(new)):
        return f"your cumulative regrets have NaN or infinite entries: {_text(new)}."
    if _same(new, regrets + instant) and np.any(new < 0):
        return (
            f"negative regrets were not clipped: {_text(new)} is R + r; RM+ keeps max(R + r, 0), so that no regret "
            "stays below 0."
        )
    if _same(new, np.maximum(regrets - instant, 0.0)) or _same(new, regrets - instant):
        return f"the sign of the regret is reversed: your update adds x.u - u(a), {_text(-instant)}, not u(a) - x.u."
    if _same(new, np.maximum(instant, 0.0)) or _same(new, instant):
        return "your update forgets the cumulative regrets: it keeps only this iteration's regrets, not R + r."
    if _same(new, regrets + np.maximum(instant, 0.0)):
        return "you clipped this iteration's regrets, not the cumulative ones: RM+ keeps max(R + r, 0)."
    if np.any(new < 0):
        return f"your cumulative regrets have negative entries ({_text(new)}): RM+ clips them at 0."
    return f"your update gives {_text(new)} from R = {_text(regrets)} and r = {_text(instant)}; RM+ is max(R + r, 0)."


def check_self_play(train, game="rps", iterations: int = 1000, *, start=None) -> ExerciseResult:
    """Run the student's whole self-play loop beside rmcore's regret matching, iterate by iterate.

    The loop is a generator ``train(row_payoffs, col_payoffs, row_regrets, col_regrets, iterations)`` that runs
    ``iterations`` iterations of regret matching (Hart & Mas-Colell 2000) from the cumulative regrets it is given
    (the start's, as :func:`check_regret_matching` sets them) and, at the end of each, yields ``(row_strategy,
    col_strategy, row_average, col_average)``: the strategies that iteration played and the uniform averages of the
    strategies played so far. Both are compared with :class:`rmcore.MatrixSolver` (``"rm"``) run one iteration at a
    time; here the regret update, the averaging and the iteration count are the student's, so the answer names a
    reversed regret, an average of the wrong strategy or an off-by-one in the count.

    Parameters
    ----------
    train : generator function
        ``train(row_payoffs, col_payoffs, row_regrets, col_regrets, iterations)`` yielding four arrays an iteration
        (the payoff matrices are ``m x n``: ``u1 = A y``, ``u2 = x B``; all arguments are copies).
    game, iterations, start
        As :func:`check_regret_matching` takes them.

    Returns
    -------
    ExerciseResult

    Examples
    --------
    >>> import numpy as np
    >>> def train(A, B, R1, R2, iterations):
    ...     S1, S2 = np.zeros(len(R1)), np.zeros(len(R2))
    ...     for t in range(1, iterations + 1):
    ...         x, y = rm(R1), rm(R2)
    ...         u1, u2 = A @ y, x @ B
    ...         R1, R2 = R1 + u1 - x @ u1, R2 + u2 - y @ u2
    ...         S1, S2 = S1 + x, S2 + y
    ...         yield x, y, S1 / (t + 1), S2 / (t + 1)
    >>> def rm(R):
    ...     positive = np.maximum(R, 0.0)
    ...     return positive / positive.sum() if positive.sum() > 0 else np.full(len(R), 1.0 / len(R))
    >>> print(check_self_play(train, iterations=50).diagnosis)  # doctest: +ELLIPSIS
    Off-by-one in the iteration count: your average is the sum of the strategies divided by t + 1 ...
    """
    train = _callable(train, "train", 5)
    iterations = _iterations(iterations, MAX_ITERATIONS)
    game = _matrix_game(game)
    start = _start(game, start)
    exercise = "Regret matching (your loop)"
    reference = MatrixSolver(game, "rm", start=start, max_points=min(iterations, 1000))
    name = game.name
    players = ("row", "col")
    actions = (game.row_actions, game.col_actions)
    fail = lambda *a: _failure(exercise, name, iterations, *a)  # noqa: E731
    first_regrets = reference.cumulative_regrets()
    arguments = (game.row_payoffs, game.col_payoffs, *first_regrets)
    shape_sentence = (
        "your loop must yield, every iteration, (row_strategy, col_strategy, row_average, col_average): four arrays"
    )
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            yielded = iter(train(*(np.array(a, dtype=float) for a in arguments), iterations))
    except Exception as error:  # (the student's code)
        return fail(1, "strategy", "row", actions[0], None, reference.current_policy()["row"],
                    _raised(error, shape_sentence), _WHY_STRATEGY)  # fmt: skip
    first_strategies = None
    previous = first_regrets
    for t in range(1, iterations + 1):
        expected = reference.current_policy()
        before = reference.cumulative_regrets()
        item = _next(yielded)
        if isinstance(item, _Stopped):
            diagnosis = (
                f"off-by-one in the iteration count: your loop yielded {t - 1} iterates for iterations={iterations} "
                "(range(1, iterations) runs one too few; range(iterations) or range(1, iterations + 1) runs them all)."
                if item.error is None
                else _raised(item.error, shape_sentence)
            )
            return fail(t, "strategy", "row", actions[0], None, expected["row"], diagnosis, _WHY_STRATEGY)
        try:
            vectors = _four(item, game.shape)
        except _Wrong as wrong:
            return fail(t, "strategy", "row", actions[0], None, expected["row"], str(wrong), _WHY_STRATEGY)
        if first_strategies is None:
            first_strategies = (expected["row"], expected["col"])
        for p in range(2):
            out = vectors[p]
            if not _same(out, expected[players[p]]):
                # (what the student's regrets would be: every strategy so far agreed, so each iteration's regrets did)
                if t == 1:
                    extra = [(_rm(before[p] - first_regrets[p]), _IGNORED_START)]
                else:
                    extra = [
                        (_rm(2 * first_regrets[p] - before[p]), _REVERSED),
                        (_rm(before[p] - previous[p]), _NOT_CUMULATIVE),
                    ]
                drift = _drifted(out, expected[players[p]], t)
                diagnosis = drift or _step_diagnosis(out, before[p], extra)
                why = _WHY_DRIFT if drift else _WHY_STRATEGY
                return fail(t, "strategy", players[p], actions[p], out, expected[players[p]], diagnosis, why)
        reference.run(1)
        average = reference.average_policy()
        following = reference.current_policy()
        for p in range(2):
            out, wanted = vectors[2 + p], average[players[p]]
            if not _same(out, wanted):
                drift = _drifted(out, wanted, t)
                diagnosis = drift or _average_diagnosis(
                    out, wanted, t, vectors[p], first_strategies[p], following[players[p]], average[players[1 - p]]
                )
                why = _WHY_DRIFT if drift else _WHY_AVERAGE
                return fail(t, "average strategy", players[p], actions[p], out, wanted, diagnosis, why)
        previous = before
    extra = _next(yielded)
    if not isinstance(extra, _Stopped):
        return _result(
            exercise,
            name,
            iterations,
            iterations,
            passed=False,
            nash_conv=None,
            iteration=iterations + 1,
            difference=None,
            computed=f"{iterations} iterations",
            diagnosis=(
                f"Off-by-one in the iteration count: your loop yields more than iterations={iterations} iterates "
                "(range(iterations + 1) or range(0, iterations + 1) runs one too many)."
            ),
            why="The answer is the average after exactly the iterations asked for; one more changes it.",
        )
    return _result(
        exercise,
        name,
        iterations,
        iterations,
        passed=True,
        iteration=None,
        nash_conv=float(nash_conv(game, reference.average_policy())),
        difference=None,
        computed="",
        diagnosis="your loop agrees with rmcore's at every iteration.",
        why="",
        curve=_curve(reference),
    )


_REVERSED = (
    "the sign of the regret is reversed: your strategy is regret matching on regrets that grew by x.u - u(a), "
    "not u(a) - x.u, so it plays more of the actions that did worse."
)
_IGNORED_START = "your loop ignores the cumulative regrets it is given to start from (row_regrets, col_regrets)."
_NOT_CUMULATIVE = (
    "your regrets are not cumulative: your strategy is regret matching on the last iteration's regrets alone; "
    "add each iteration's regrets to the running sum."
)


class _Stopped:
    """The student's generator ended (``error`` None) or raised."""

    def __init__(self, error=None):
        self.error = error


def _next(yielded):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return next(yielded)
    except StopIteration:
        return _Stopped()
    except Exception as error:  # (the student's code)
        return _Stopped(error)


def _raised(error: Exception, shape_sentence: str) -> str:
    if isinstance(error, TypeError) and "not iterable" in str(error):
        return f"{shape_sentence} (it is a generator: yield rather than return); {type(error).__name__}: {error}"
    return f"your loop raised {type(error).__name__}: {error}."


def _four(item, shape) -> list[np.ndarray]:
    """The four arrays of one yielded iterate, checked: or :class:`_Wrong` saying what is wrong."""
    names = ("row strategy", "column strategy", "row average", "column average")
    try:
        parts = list(item)
    except TypeError:
        parts = []
    if len(parts) != 4:
        raise _Wrong(f"your loop must yield four arrays an iteration ({', '.join(names)}); it yielded {item!r:.80}")
    vectors = []
    for part, what, n in zip(parts, names, (*shape, *shape)):
        try:
            vector = np.array(part, dtype=float)
        except (TypeError, ValueError):
            raise _Wrong(f"your {what} is {type(part).__name__}, not {n} numbers") from None
        if vector.shape != (n,):
            raise _Wrong(f"your {what} has the wrong shape: {vector.shape} where it is ({n},), one per action")
        vectors.append(vector)
    return vectors


def _average_diagnosis(out, wanted, t, played, first, following, other) -> str:
    """What a wrong average at iteration ``t`` shows: ``wanted = S_t / t``, ``played`` the strategy of iteration t,
    ``first`` that of iteration 1, ``following`` the next one, ``other`` the other player's average."""
    sums = wanted * t
    if not np.all(np.isfinite(out)):
        return (
            f"off-by-one in the iteration count: your average at iteration {t} is {_text(out)}, a division by "
            f"{t - 1}: divide the sum of the strategies by the number of iterations run, t = {t}."
        )
    candidates = [
        (sums, f"your average is not divided by the number of iterations: it sums to {float(out.sum()):.6g}."),
        (sums / (t + 1), f"off-by-one in the iteration count: your average is the sum of the strategies divided by "
                         f"t + 1 = {t + 1}, not by the {_count(t)} run."),
        (sums / (t - 1) if t > 1 else None, f"off-by-one in the iteration count: your average is the sum of the "
                                            f"strategies divided by t - 1 = {t - 1}, not by the {_count(t)} run."),
        ((sums - first + following) / t, "your average is of the wrong strategy: the strategies after each update "
                                         "(x_2 ... x_{t+1}), not the ones played (x_1 ... x_t)."),
        (played if t > 1 else None, "your average is the current strategy, not the average of the strategies "
                                    "played."),
        (following, "your average is the strategy regret matching plays next (regret matching on the cumulative "
                    "regrets), not the average of the strategies played."),
        (other if other.shape == out.shape else None, "your average is the other player's average."),
    ]  # fmt: skip
    for vector, sentence in candidates:
        if vector is not None and _same(out, vector):
            return sentence
    if abs(float(out.sum()) - 1.0) > 1e-9:
        return f"your average is not normalised (it sums to {float(out.sum()):.6g})."
    return f"your average {_text(out)} is not the mean of the strategies played, {_text(wanted)}."


def check_cfr_iteration(fn, iterations: int = 100, *, game=None) -> ExerciseResult:
    """Check the student's regret-matching step at every information set of CFR on Kuhn poker, iteration by iteration.

    CFR (Zinkevich, Johanson, Bowling & Piccione 2007) runs regret matching at every information set ``I`` on the
    counterfactual regrets ``R(I, a)``: after each iteration the next strategy is ``sigma(I) = RM(R(I))``. This
    function runs :class:`rmcore.CFRSolver` (``"cfr"``, alternating updates, as ``CFRSolver(rmcore.KUHN, "cfr")``)
    one traced iteration at a time (the tree page's walkthrough's numbers: :meth:`rmcore.CFRSolver.trace_iteration`)
    and gives ``fn`` each information set's cumulative regrets; its strategy is compared with the one CFR computed.
    (The student's strategies are compared, not played: where every one agrees, a run playing them is this run.)
    Before the first iteration ``fn`` is asked for the strategy at zero regrets: CFR starts uniform.

    Parameters
    ----------
    fn : callable
        ``fn(cumulative_regrets) -> strategy`` at one information set, as :func:`check_regret_matching` takes it.
    iterations : int
        How many CFR iterations, from 1 to :data:`MAX_CFR_ITERATIONS`.
    game : TreeGame, optional
        The game tree (default :data:`rmcore.KUHN`).

    Returns
    -------
    ExerciseResult
        ``passed`` with the NashConv of the average policy (:func:`rmcore.nash_conv`), or the first iteration and
        information set that differ.

    Examples
    --------
    >>> import numpy as np
    >>> def clipped_only(R):
    ...     positive = np.maximum(R, 0.0)
    ...     return positive / positive.sum() if positive.sum() > 0 else np.full(len(R), 1.0 / len(R))
    >>> result = check_cfr_iteration(clipped_only, iterations=50)
    >>> result.passed, result.nash_conv < 0.1
    (True, True)
    """
    fn = _callable(fn, "fn", 1)
    iterations = _iterations(iterations, MAX_CFR_ITERATIONS)
    game = KUHN if game is None else game
    if not isinstance(game, TreeGame):
        raise ValueError(f"game must be a game tree (a TreeGame such as rmcore.KUHN), got {type(game).__name__}")
    exercise = "Regret matching in CFR"
    solver = CFRSolver(game, "cfr", max_points=min(iterations, 1000))
    fail = lambda *a: _failure(exercise, game.name, iterations, *a)  # noqa: E731
    first = solver.current_policy()
    for k, infoset in enumerate(game.infosets):
        n = len(game.actions[k])
        uniform = np.asarray(first[infoset])[:n]
        try:
            out = _call(fn, np.zeros(n), n=n, what="a strategy")
        except _Wrong as wrong:
            return fail(0, "strategy", infoset, game.actions[k], None, uniform, str(wrong), _WHY_STRATEGY)
        if not _same(out, uniform):
            return fail(0, "strategy", infoset, game.actions[k], out, uniform, _step_diagnosis(out, np.zeros(n)),
                        _WHY_STRATEGY)  # fmt: skip
    for t in range(1, iterations + 1):
        for k, trace in enumerate(solver.trace_iteration()):
            regrets, wanted = np.array(trace.cumulative_regrets), np.array(trace.new_strategy)
            n = regrets.shape[0]
            try:
                out = _call(fn, regrets, n=n, what="a strategy")
            except _Wrong as wrong:
                return fail(t, "next strategy", trace.infoset, game.actions[k], None, wanted, str(wrong), _WHY_STRATEGY)
            if not _same(out, wanted):
                diagnosis = _step_diagnosis(out, regrets)
                return fail(t, "next strategy", trace.infoset, game.actions[k], out, wanted, diagnosis, _WHY_STRATEGY)
    return _result(
        exercise,
        game.name,
        iterations,
        iterations,
        passed=True,
        iteration=None,
        nash_conv=float(nash_conv(game, solver.average_policy())),
        difference=None,
        computed="",
        diagnosis="your function agrees with CFR's regret matching at every information set and iteration.",
        why="",
        curve=_curve(solver),
    )
