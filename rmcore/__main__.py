"""Command line: ``python -m rmcore solve | kuhn | race | bench | sweep | atlas``.

Bad input exits with status 2 and one line on stderr, never a traceback. A game comes from a preset (``--game``), CSV
files (``--matrix``, ``--col-matrix``) or a Gambit ``.nfg`` file (``--nfg``); a preset or a file may have three players
or more, and then ``solve`` prints NashConv and each player's strategy, never exploitability or a single value.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import pathlib
import sys
import time
from pathlib import Path

from . import config
from .bench import SECTIONS as BENCH_SECTIONS
from .formats import read_nfg
from .inputs import loads_json, read_text
from .matrix.games import (
    NORMAL_FORM_PRESETS,
    PRESETS,
    MatrixGame,
    NormalFormGame,
    aligned_column_payoffs,
    parse_matrix_csv,
    preset,
)
from .matrix.solver import ALGORITHMS, AVERAGINGS, SAMPLINGS, STEP_ALGORITHMS, UPDATES, MatrixSolver
from .race import THRESHOLDS, Race
from .trees.catalogue import TREE_GAMES, tree_game
from .trees.cfr import CFR_ALGORITHMS, CFR_UPDATES, DISCOUNT_DEFAULTS, MMD_DEFAULT_ALPHA, VARIANT_DISCOUNTS, CFRVariant
from .trees.game import TreeGame
from .trees.kuhn import is_classic_kuhn
from .trees.poker import KUHN_PLAYERS

#: Longest --opponent JSON file read, in characters (Leduc's 936 information sets of three numbers fit in 100 kB).
MAX_OPPONENT_CHARS = 1_000_000


def _json(value) -> str:
    """``value`` as strict JSON: a number that is not finite (a metric that does not apply) is written as null, never
    as the NaN or Infinity that JSON readers refuse."""

    def strict(item):
        if isinstance(item, float) and not math.isfinite(item):
            return None
        if isinstance(item, dict):
            return {key: strict(v) for key, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [strict(v) for v in item]
        return item

    return json.dumps(strict(value), allow_nan=False)


class UsageError(Exception):
    """A problem with what the user typed: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's default prints the whole usage block
        raise UsageError(message)


def _read_csv(path: str, what: str):
    """The matrix in a CSV file (refused unread when larger than the reader takes); what was assumed goes to stderr."""
    try:
        text = read_text(path, config.MAX_CSV_CHARS, what)
    except ValueError as error:
        raise UsageError(str(error)) from None
    parsed = parse_matrix_csv(text, what=f"{what} {path}")
    for note in parsed.notes:
        print(f"note: {what} {path}: {note}", file=sys.stderr)
    return parsed


def _iterations(text: str) -> int:
    """``--iterations``: a whole number from 0 to ``config.MAX_ITERATIONS``."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 0 <= value <= config.MAX_ITERATIONS:
        raise argparse.ArgumentTypeError(
            f"iterations must be a whole number from 0 to {config.MAX_ITERATIONS:,}; got {text}"
        )
    return value


def _kuhn_players(text: str) -> int:
    """``--players``: Kuhn poker's players, a whole number from 2 to 4 (``rmcore.trees.poker.KUHN_PLAYERS``)."""
    low, high = KUHN_PLAYERS
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"Kuhn poker takes {low} to {high} players; got {text}")
    return value


def _load_game(args) -> NormalFormGame:
    """The matrix game the options name: a :class:`MatrixGame` of two players, or a :class:`NormalFormGame` of more
    (a preset of :data:`NORMAL_FORM_PRESETS` or an ``.nfg`` file)."""
    if args.game or args.nfg:
        if args.col_matrix:
            raise UsageError(f"--col-matrix goes with --matrix, not with {'--game' if args.game else '--nfg'}")
        if args.game:
            return preset(args.game)
        game = read_nfg(Path(args.nfg))  # a Path: a file named like its text ("NFG 1 R ...") is a file
        if game.name:
            return game
        if isinstance(game, MatrixGame):
            return dataclasses.replace(game, name=args.nfg)
        return NormalFormGame(game.payoffs, game.actions, args.nfg, description=game.description, players=game.players)
    parsed_row = _read_csv(args.matrix, "matrix")
    row, row_labels, col_labels, _ = parsed_row
    col = None
    if args.col_matrix:
        try:
            col = aligned_column_payoffs(parsed_row, _read_csv(args.col_matrix, "column matrix"))
        except ValueError as error:
            raise UsageError(
                str(error)
                .replace("the column player's CSV", "--col-matrix")
                .replace("the row player's CSV", "--matrix")
            ) from None
    return MatrixGame(row, col, row_labels, col_labels, name=args.matrix)


def _parse_opponent(text: str | None, tree_game: bool = False, players: int = 2):
    """``--opponent``: a tree game's JSON file of one player's strategy; a two-player matrix game's column strategy
    (comma-separated weights); with ``players`` >= 3, the fixed players as ``P:weights``, separated by ``;``."""
    if text is None:
        return None
    if tree_game:  # a whole strategy of one player: a JSON file {information set: [probabilities]}
        try:
            opponent = loads_json(read_text(text, MAX_OPPONENT_CHARS, "--opponent"), "--opponent")
        except ValueError as error:
            raise UsageError(
                f"--opponent for a tree game is a JSON file of one player's strategy "
                f'({{"Jp": [1, 0], ...}}); could not read {text!r}: {error}'
            ) from None
        if not isinstance(opponent, dict):
            raise UsageError(f"--opponent {text!r}: the JSON must be an object from information sets to probabilities")
        return opponent
    if players > 2:
        return _fixed_players(text, players)
    try:
        return {"col": [float(part) for part in text.split(",")]}  # (the fixed column player, as the solver takes it)
    except ValueError:
        raise UsageError(f"--opponent must be comma-separated numbers like 0.4,0.3,0.3; got {text!r}") from None


def _fixed_players(text: str, players: int) -> dict[int, list[float]]:
    """``--opponent`` of a game of ``players`` >= 3: ``3:0.5,0.5`` fixes player 3, ``2:1,0;3:0.5,0.5`` players 2 and
    3 (``{player: weights}``, as :class:`MatrixSolver` takes them; it checks the numbers and the lengths)."""
    fixed: dict[int, list[float]] = {}
    for part in text.split(";"):
        player, colon, weights = part.partition(":")
        try:
            number, values = int(player), [float(w) for w in weights.split(",")]
        except ValueError:
            number = values = None
        if not colon or values is None:
            raise UsageError(
                f"--opponent of a game of {players} players names each fixed player, player:weights separated by "
                f"';', like 3:0.5,0.5 or 2:1,0;3:0.5,0.5; got {text!r}"
            )
        if number in fixed:
            raise UsageError(f"--opponent names player {number} twice: {text!r}")
        fixed[number] = values
    return fixed


def _parse_start(text: str | None, players: int = 2):
    """``--start``: each player's initial weights, comma-separated, the players separated by ``;``."""
    if text is None:
        return None
    try:
        starts = [[float(p) for p in part.split(",")] for part in text.split(";")]
    except ValueError:
        starts = []
    if len(starts) == players:
        return tuple(starts)
    if players == 2:
        raise UsageError(
            "--start must be two lists of weights like 0.6,0.3,0.1;0.2,0.2,0.6 (row player's; column player's); got "
            f"{text!r}"
        )
    raise UsageError(
        f"--start must be {players} lists of weights separated by ';', one per player, player 1's first (three "
        f"players of two actions: 0.9,0.1;0.6,0.4;0.2,0.8); got {text!r}"
    )


def _parse_eta(text: str | None):
    """``--eta``: a number, or ``anytime`` (Hedge's schedule); MatrixSolver validates it."""
    if text is None or text.strip() == "anytime":
        return None if text is None else "anytime"
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"--eta must be a number or 'anytime', got {text!r}") from None


def _solve(args) -> int:
    game = _load_game(args)
    players = game.num_players
    solver = MatrixSolver(
        game,
        algorithm=args.algorithm,
        sampling=args.sampling,
        updates=args.updates,
        averaging=args.averaging,
        opponent=_parse_opponent(args.opponent, players=players),
        seed=args.seed,
        start=_parse_start(args.start, players),
        eta=_parse_eta(args.eta),
        mu=args.mu,
    )
    started = time.perf_counter()
    solver.run(args.iterations)
    seconds = time.perf_counter() - started
    if players > 2:
        return _solve_players_result(args, game, solver, seconds)
    metrics = solver.metrics()
    average, current = solver.average_policy(), solver.current_policy()
    if args.json:
        print(
            _json(
                {
                    "game": game.name or "custom",
                    "iterations": solver.iteration,
                    # (the output's keys as the command has always printed them: scripts read them)
                    "average_strategies": [average["row"].tolist(), average["col"].tolist()],
                    "current_strategies": [current["row"].tolist(), current["col"].tolist()],
                    "variant": solver.variant.label,
                    "nash_conv": metrics.nash_conv,
                    "nash_conv_current": metrics.nash_conv_current,
                    "br_gain": metrics.br_gains.player_1 if metrics.nash_conv is None else None,
                    "exploitability": metrics.exploitability,
                    "value": metrics.game_value,
                    "cce_gap": metrics.cce_gap,
                    "ce_gap": metrics.ce_gap,
                    "seconds": seconds,
                }
            )
        )
        return 0
    mode = "self-play" if solver.is_self_play else "against a fixed opponent"
    print(
        f"{game.name or 'custom game'}: {solver.iteration} iterations of {solver.variant.label.split(' · ')[0]} "
        f"({args.sampling}, {args.updates}, {args.averaging} averaging), {mode}, {seconds:.3f} s"
    )
    for who, labels, probabilities in (
        ("row", game.row_actions, average["row"]),
        ("column", game.col_actions, average["col"]),
    ):
        shown = ", ".join(f"{label} {p:.4f}" for label, p in zip(labels, probabilities))
        print(f"  average {who} strategy: {shown}")
    if metrics.nash_conv is None:
        print(f"  best-response gain of the learner: {metrics.br_gains.player_1:.6g}")
    else:
        print(f"  nash_conv: {metrics.nash_conv:.6g}")
        print(f"  nash_conv of the current strategies: {metrics.nash_conv_current:.6g}")
    if metrics.exploitability is not None:
        print(f"  exploitability (zero-sum: nash_conv / 2): {metrics.exploitability:.6g}")
    print(f"  value (row player's expected payoff): {metrics.game_value:.6g}")
    if metrics.ce_gap is not None:
        print(f"  joint play's CCE gap: {metrics.cce_gap:.6g}; its CE gap: {metrics.ce_gap:.6g}")
    return 0


def _solve_players_result(args, game: NormalFormGame, solver: MatrixSolver, seconds: float) -> int:
    """``solve``'s output on a game of three players or more: each player's strategies, NashConv of the average and of
    the current profile, each learner's best-response gain and, where the joint play is kept, its CCE and CE gaps.
    Exploitability and a single value are a two-player zero-sum game's, and are left out."""
    metrics, average, current = solver.metrics(), solver.average_policy(), solver.current_policy()
    players = range(1, game.num_players + 1)
    fixed = sorted(solver.opponent or ())
    if args.json:
        print(
            _json(
                {
                    "game": game.name or "custom",
                    "iterations": solver.iteration,
                    "players": game.num_players,
                    "fixed_players": fixed,
                    "average_strategies": [average[f"player {p}"].tolist() for p in players],
                    "current_strategies": [current[f"player {p}"].tolist() for p in players],
                    "variant": solver.variant.label,
                    "nash_conv": metrics.nash_conv,
                    "nash_conv_current": metrics.nash_conv_current,
                    "br_gains": [metrics.br_gains.of(p) for p in players],
                    "cce_gap": metrics.cce_gap,
                    "ce_gap": metrics.ce_gap,
                    "seconds": seconds,
                }
            )
        )
        return 0
    if fixed:
        mode = f"player{'s' if len(fixed) > 1 else ''} {_and(fixed)} fixed"
    else:
        mode = "self-play"
    print(
        f"{game.name or 'custom game'}: {solver.iteration} iterations of {solver.variant.label.split(' · ')[0]} "
        f"({args.sampling}, {args.updates}, {args.averaging} averaging), {mode}, {seconds:.3f} s"
    )
    for p, labels in zip(players, game.actions):
        shown = ", ".join(f"{label} {q:.4f}" for label, q in zip(labels, average[f"player {p}"]))
        print(f"  {'fixed' if p in fixed else 'average'} strategy of player {p}: {shown}")
    learners = [p for p in players if p not in fixed]
    if metrics.nash_conv is None:
        print(
            f"  best-response gain of the learner, player {solver.learner}: {metrics.br_gains.of(solver.learner):.6g}"
        )
    else:
        among = f" (of the learners, players {_and(learners)})" if fixed else ""
        print(f"  nash_conv{among}: {metrics.nash_conv:.6g}")
        print(f"  nash_conv of the current strategies: {metrics.nash_conv_current:.6g}")
        shown = ", ".join(f"player {p} {metrics.br_gains.of(p):.6g}" for p in learners)
        print(f"  best-response gains: {shown}")
    if metrics.ce_gap is not None:
        print(f"  joint play's CCE gap: {metrics.cce_gap:.6g}; its CE gap: {metrics.ce_gap:.6g}")
    return 0


def _and(numbers) -> str:
    """``[1]`` as ``1``, ``[1, 2, 3]`` as ``1, 2 and 3``."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _read_efg(path: str) -> TreeGame:
    """The game in a Gambit .efg file; a bad file is one line naming its line and the reason."""
    from .formats import read_efg

    try:
        return read_efg(pathlib.Path(path))  # a Path: a file named "EFG..." is still a file, not the text
    except ValueError as error:
        raise UsageError(f"--efg: {error}") from None


def _kuhn(args) -> int:
    from .trees.cfr import CFRSolver
    from .trees.poker import kuhn_poker

    if args.efg and args.players is not None:
        raise UsageError("--players is Kuhn poker's; the game of an --efg file has the players its file names")
    game = _read_efg(args.efg) if args.efg else kuhn_poker(players=args.players or 2)
    parameters = {
        name: getattr(args, name) for name in ("alpha", "beta", "gamma", "eta") if getattr(args, name) is not None
    }
    if args.stepsize is not None:
        print("note: --stepsize is deprecated: use --eta (the step size's name in both families)", file=sys.stderr)
        if args.eta is not None:
            raise UsageError("give the step size once: --eta (--stepsize is its deprecated name)")
        parameters["eta"] = args.stepsize
    solver = CFRSolver(game, args.variant, updates=args.updates, seed=args.seed, max_points=0, **parameters)
    started = time.perf_counter()
    solver.run(args.iterations)
    seconds = time.perf_counter() - started
    if not game.is_two_player_zero_sum:
        return _kuhn_players_result(args, game, solver, seconds)
    metrics = solver.metrics()
    result = {
        "variant": solver.variant.full_label,
        "iterations": solver.iteration,
        "nash_conv": metrics.nash_conv,
        "nash_conv_current": metrics.nash_conv_current,
        "exploitability": metrics.exploitability,  # (nash_conv / 2, as a poker reader expects it)
        "game_value": metrics.game_value,
        "average_policy": solver.average_policy().to_dict(),
        "seconds": seconds,
    }
    if solver.algorithm == "mmd":  # MMD's last iterate is the one that converges (to the alpha-QRE)
        result["exploitability_current"] = metrics.nash_conv_current / 2.0
    if args.json:
        print(_json(result))
        return 0
    name = solver.variant.full_label.split(" · ")[0]  # discounted CFR's or MMD's parameters included
    print(f"{game.name}: {solver.iteration} iterations of {name} ({solver.variant.updates}), {seconds:.3f} s")
    print(f"  nash_conv {result['nash_conv']:.6g} (exploitability = nash_conv / 2: {result['exploitability']:.6g})")
    if solver.algorithm == "mmd":
        print(f"  nash_conv of the current policy (the last iterate) {result['nash_conv_current']:.6g}")
    if is_classic_kuhn(game):
        print(f"  game value for player 1 {result['game_value']:.6f} (equilibrium: -1/18 = {-1 / 18:.6f})")
        print("  average policy, probability of betting:")
        for name, (_, bet) in result["average_policy"].items():
            print(f"    {name:>4} {bet:.4f}")
        return 0
    print(f"  game value for player 1 {result['game_value']:.6f}")
    _print_average_policy(game, result["average_policy"])
    return 0


def _print_average_policy(game: TreeGame, policy: dict) -> None:
    """Every information set's average strategy, a line each (``policy`` as ``Policy.to_dict()`` gives it)."""
    print("  average policy:")
    for name, actions in zip(game.infosets, game.actions):
        shown = ", ".join(f"{action} {p:.4f}" for action, p in zip(actions, policy[name]))
        print(f"    {name}: {shown}")


def _kuhn_players_result(args, game: TreeGame, solver, seconds: float) -> int:
    """``kuhn``'s output on a game of more than two players: NashConv (exploitability is a two-player zero-sum
    game's) and every player's expected payoff under the average policy, player 1's first."""
    from .trees.cfr import player_values

    metrics, average = solver.metrics(), solver.average_policy()
    values = [float(v) for v in player_values(game, average.probabilities)[1]]
    result = {
        "variant": solver.variant.full_label,
        "iterations": solver.iteration,
        "players": game.players,
        "nash_conv": metrics.nash_conv,
        "nash_conv_current": metrics.nash_conv_current,
        "values": values,
        "average_policy": average.to_dict(),
        "seconds": seconds,
    }
    if args.json:
        print(_json(result))
        return 0
    name = solver.variant.full_label.split(" · ")[0]
    print(f"{game.name}: {solver.iteration} iterations of {name} ({solver.variant.updates}), {seconds:.3f} s")
    print(f"  nash_conv {metrics.nash_conv:.6g} (what the {game.players} players together gain by best-responding)")
    shown = ", ".join(f"player {p + 1} {value:.6f}" for p, value in enumerate(values))
    print(f"  expected payoffs under the average policy: {shown}")
    _print_average_policy(game, result["average_policy"])
    return 0


#: The tree games' parameters by name (``--cards``, ``--bet``, ``--sides``), each with the games that take it: the
#: catalogue's, so that the command line offers what the catalogue takes (Kuhn poker and Goofspiel both take cards).
def _parameters_by_name() -> dict[str, list]:
    by_name: dict[str, list] = {}
    for entry in TREE_GAMES.values():
        for parameter in entry.parameters:
            by_name.setdefault(parameter.name, []).append((entry, parameter))
    return by_name


_TREE_PARAMETERS = _parameters_by_name()


def _threshold_name(threshold: float) -> str:
    return f"{threshold:.0e}"


def _race(args) -> int:
    if args.efg:
        game = _read_efg(args.efg)
        name = game.name
    elif args.game in TREE_GAMES:
        try:
            given = {name: getattr(args, name) for name in _TREE_PARAMETERS if getattr(args, name) is not None}
            game = tree_game(args.game, **given)
        except ValueError as error:
            raise UsageError(str(error)) from None
        name = game.name
    else:
        game = _load_game(args)
        name = game.name or "custom"
    variants = [part for part in args.variants.split(",") if part.strip()]
    discount = {name: getattr(args, name) for name in DISCOUNT_DEFAULTS if getattr(args, name) is not None}
    if discount:
        variants = _discounted(variants, discount, isinstance(game, TreeGame))
    if args.mmd_alpha is not None:
        variants = _tempered(variants, args.mmd_alpha, isinstance(game, TreeGame))
    players = game.num_players if isinstance(game, NormalFormGame) else 2  # (a tree game takes no start)
    contest = Race(
        game,
        variants,
        seeds=args.seeds,
        seed=args.seed or 0,
        opponent=_parse_opponent(args.opponent, isinstance(game, TreeGame), players),
        start=_parse_start(args.start, players),
    )
    if args.iterations < 1:
        raise UsageError(f"--iterations must be at least 1, got {args.iterations}")
    contest.run(args.iterations)
    result = contest.result()
    rows = [
        {
            "variant": s.label,
            "iterations": s.iterations,
            "seconds": s.seconds,
            "iterations_per_second": s.iterations_per_second,
            result.gap_name: s.gap,
            f"{result.gap_name}_current": s.current_gap,
            "reached": {
                _threshold_name(t): None if r is None else {"iterations": r.iterations, "seconds": r.seconds}
                for t, r in s.reached.items()
            },
        }
        for s in result.standings
    ]
    if args.json:
        print(_json({"game": name, "measure": result.gap_name, "seeds": args.seeds, "variants": rows}))
        return 0
    current = all(s.current_gap is not None for s in result.standings)
    print(
        f"{name}: {args.iterations:,} iterations per variant; {result.gap_name} of the average"
        + (" and of the current profile (the last iterate)" if current else "")
        + f" (median over {args.seeds} seeds where sampled)"
    )
    width = max(len("variant"), *(len(s.label) for s in result.standings))
    gap_width = max(11, len(result.gap_name))
    header = (
        f"  {'variant':<{width}} {result.gap_name:>{gap_width}} "
        + (f"{'current':>11} " if current else "")
        + f"{'its/s':>12} "
        + " ".join(f"{'to ' + _threshold_name(t):>16}" for t in THRESHOLDS)
    )
    print(header)
    for s in result.standings:
        reached = " ".join(
            f"{'not yet' if r is None else f'{r.iterations:,} ({r.seconds:.2g} s)':>16}" for r in s.reached.values()
        )
        rate = "-" if s.iterations_per_second is None else f"{s.iterations_per_second:,.0f}"
        last = f"{s.current_gap:>11.3e} " if current else ""
        print(f"  {s.label:<{width}} {s.gap:>{gap_width}.3e} {last}{rate:>12} {reached}")
    if is_classic_kuhn(game):
        print("  (classic Kuhn poker: the game value for player 1 is -1/18)")
    return 0


def _discounted(variants: list[str], discount: dict, tree_game: bool) -> list:
    """The race's variants with ``--alpha``/``--beta``/``--gamma`` given to every discounted CFR among them."""
    parsed = [CFRVariant.parse(text) for text in variants] if tree_game else []
    if not any(v.algorithm == "discounted" for v in parsed):
        raise UsageError(f"--{', --'.join(discount)}: only for a race on a tree game with the 'discounted' variant")
    values = tuple(discount.get(name) for name in DISCOUNT_DEFAULTS)
    return [CFRVariant(v.algorithm, v.updates, values) if v.algorithm == "discounted" else v for v in parsed]


def _tempered(variants: list, alpha: float, tree_game: bool) -> list:
    """The race's variants with ``--mmd-alpha`` given to every MMD among them."""
    parsed = [v if isinstance(v, CFRVariant) else CFRVariant.parse(v) for v in variants] if tree_game else []
    if not any(v.algorithm == "mmd" for v in parsed):
        raise UsageError("--mmd-alpha: only for a race on a tree game with the 'mmd' variant")
    return [
        CFRVariant(v.algorithm, v.updates, v.discount, (alpha, None)) if v.algorithm == "mmd" else v for v in parsed
    ]


def _bench(args) -> int:
    from . import bench

    bench.main(quick=args.quick, markdown=args.markdown, json_path=args.json, only=tuple(args.only or ()))
    return 0


class _ProgressLine:
    """A sweep's progress on stderr: one line rewritten in place on a terminal, a line per finished cell otherwise."""

    def __init__(self, stream=sys.stderr):
        self.stream, self.live, self.width = stream, stream.isatty(), 0
        self.dashboard = None

    def __call__(self, progress) -> None:
        if progress.dashboard and progress.dashboard != self.dashboard:
            self.dashboard = progress.dashboard
            self.stream.write(("\n" if self.width else "") + f"the Dask dashboard: {progress.dashboard}\n")
            self.width = 0
        total = progress.done + progress.left + progress.lost
        if total == 0:  # every cell finished before: the closing line says so
            return
        if progress.seconds_left is None:
            left = "estimating the time left"
        else:
            left = f"about {_minutes(progress.seconds_left)} left"
        text = (
            f"{progress.done}/{total} cells done"
            + (f" ({progress.failed} failed)" if progress.failed else "")
            + f", {progress.left} left"
            + (f", {progress.lost} lost with their workers" if progress.lost else "")
            + f", {left}"
            + (f"; last: {progress.last}" if progress.last else "")
        )
        if self.live:
            self.stream.write("\r" + text.ljust(self.width)[: max(self.width, len(text))])
            self.width = len(text)
            if progress.left == 0:
                self.stream.write("\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def _minutes(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{int(seconds // 60)} min {seconds % 60:02.0f} s"


def _run_sweep(grid, out: str, args, what: str):
    """Run a sweep with the command line's options, printing where it runs and its progress; the report."""
    from .sweep import local_workers, run_sweep

    if args.scheduler and args.workers is not None:
        raise UsageError("--workers sizes the local cluster; a --scheduler's cluster has workers of its own")
    if args.scheduler:
        where = f"the Dask cluster at {args.scheduler}"
    elif args.workers == 0:
        where = "this process, one cell after another"
    else:
        count = args.workers or local_workers()
        where = f"a local Dask cluster of {count} worker{'s' if count != 1 else ''} (one thread each)"
    print(f"{what}: {len(grid.cells)} cells into {out}, on {where}", file=sys.stderr)
    try:
        report = run_sweep(
            grid,
            out,
            client=args.scheduler,
            workers=args.workers,
            retry_failed=getattr(args, "retry_failed", False),
            progress=_ProgressLine(),
        )
    except KeyboardInterrupt:
        print("\ninterrupted: every finished cell is written; run the same command again to go on", file=sys.stderr)
        raise SystemExit(130) from None
    except OSError as error:  # the results folder cannot be written (full, read-only, removed)
        raise UsageError(f"writing into {out}: {error.strerror or error}") from None
    print(
        f"{report.ran} cells run in {_minutes(report.seconds)}, {report.skipped} finished before; results in {out}",
        file=sys.stderr,
    )
    for name, error in report.failed:
        print(f"  failed (recorded in its file): {name}: {error}", file=sys.stderr)
    for name, error in report.lost:
        print(f"  lost with its workers (run the command again): {name}: {error}", file=sys.stderr)
    return report


def _sweep(args) -> int:
    from .sweep import finished, read_grid

    grid = read_grid(args.grid)
    if args.cell:
        grid = grid.select(args.cell)
    if args.list:
        for cell in grid.cells:
            meta = finished(args.out, cell)
            status = "to run" if meta is None else meta.get("status", "done")
            print(f"{cell.id}  {status:<7} {cell.name}")
        return 0
    report = _run_sweep(grid, args.out, args, "sweep")
    return 1 if report.lost else 0


def _atlas(args) -> int:
    from . import atlas
    from .sweep import local_workers, read_results

    grid = atlas.atlas_grid(quick=args.quick)
    report = _run_sweep(grid, args.out, args, "atlas" + (" (quick)" if args.quick else ""))
    if report.lost:
        return 1
    frame = read_results(args.out, ids=[cell.id for cell in grid.cells])
    command = "python -m rmcore atlas" + (" --quick" if args.quick else "")
    if args.scheduler:
        workers = f"the Dask cluster at {args.scheduler}"
    elif args.workers == 0:
        workers = "one process, without Dask"
    else:
        count = args.workers or local_workers()
        workers = f"{count} local Dask worker{'s' if count != 1 else ''}"
    about = atlas.about_run(frame, command, report, workers)
    docs = Path(args.docs)
    data = atlas.write_data(frame, about, docs / "atlas.parquet")
    page = docs / "atlas.md"
    page.write_text(atlas.markdown(frame, about), encoding="utf-8")
    print(f"wrote {page} and {data}; draw its figures with: python -m ui.atlas.report", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m rmcore", description="Regret matching and CFR from the command line.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    solve = commands.add_parser("solve", help="run regret matching on a matrix game")
    source = solve.add_mutually_exclusive_group(required=True)
    matrix_presets = [*PRESETS, *NORMAL_FORM_PRESETS]
    source.add_argument(
        "--game",
        choices=matrix_presets,
        metavar="NAME",
        help=f"a preset: {', '.join(PRESETS)}; of three players: {', '.join(NORMAL_FORM_PRESETS)}",
    )
    source.add_argument(
        "--matrix", metavar="A.csv", help="the row player's payoffs as CSV (zero-sum unless --col-matrix)"
    )
    source.add_argument(
        "--nfg", metavar="FILE.nfg", help="a game of any number of players in Gambit's .nfg format (either version)"
    )
    solve.add_argument("--col-matrix", metavar="B.csv", help="the column player's payoffs as CSV")
    solve.add_argument("--iterations", type=_iterations, required=True, metavar="N")
    solve.add_argument("--algorithm", choices=list(ALGORITHMS), default="rm")
    solve.add_argument("--sampling", choices=list(SAMPLINGS), default="expected")
    solve.add_argument("--updates", choices=list(UPDATES), default="simultaneous")
    solve.add_argument("--averaging", choices=list(AVERAGINGS), default="uniform")
    solve.add_argument(
        "--eta",
        metavar="ETA",
        help=f"step size of {', '.join(STEP_ALGORITHMS)} (default 0.1), or 'anytime' for Hedge's "
        "sqrt(8 ln(m) / t) / Delta",
    )
    solve.add_argument(
        "--mu",
        type=float,
        metavar="MU",
        help="internal-rm's inertia, above 2 M (m - 1) (default: the least such number, rmcore.internal_rm_inertia)",
    )
    solve.add_argument("--seed", type=int, metavar="S")
    solve.add_argument(
        "--opponent",
        metavar="p1,p2,.. or P:p1,..;..",
        help="a fixed column strategy; only the row player learns. Three players or more: the fixed players, "
        "player:weights separated by ';' (3:0.5,0.5 or 2:1,0;3:0.5,0.5)",
    )
    solve.add_argument(
        "--start",
        metavar="x1,..;y1,..",
        help="where learning starts: each player's initial strategy (weights), the players separated by ';'",
    )
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(handler=_solve)

    kuhn = commands.add_parser("kuhn", help="run CFR on Kuhn poker (or on the game in a Gambit .efg file)")
    kuhn.add_argument(
        "--efg",
        metavar="FILE",
        help=f"a game in Gambit's .efg format: two players (zero-sum) or 3 to {config.MAX_TREE_PLAYERS} (any payoffs)",
    )
    kuhn.add_argument(
        "--players",
        type=_kuhn_players,
        metavar="N",
        help=f"Kuhn poker's players, {KUHN_PLAYERS[0]} to {KUHN_PLAYERS[1]} (default 2); more than two report NashConv "
        "and each player's expected payoff",
    )
    kuhn.add_argument("--variant", choices=list(CFR_ALGORITHMS), default="cfr")
    kuhn.add_argument(
        "--updates", choices=list(CFR_UPDATES), help="default: alternating (mmd: simultaneous, its only order)"
    )
    kuhn.add_argument("--iterations", type=_iterations, required=True, metavar="N")
    kuhn.add_argument(
        "--seed", type=int, metavar="S", help="for the sampling variants (chance-, external-, outcome-sampling)"
    )
    for name, default in DISCOUNT_DEFAULTS.items():  # (validated by CFRSolver: a bad value is one line, exit 2)
        others = "".join(
            f"; for {variant}: {name} (default {defaults[name]:g})"
            for variant, defaults in VARIANT_DISCOUNTS.items()
            if variant != "discounted" and name in defaults
        )
        mmd = f"; for mmd: the temperature (default {MMD_DEFAULT_ALPHA:g}), in (0, 1e6]" if name == "alpha" else ""
        text = f"for discounted: {name} (default {default:g}), in [-10, 10]{others}{mmd}"
        kuhn.add_argument(f"--{name}", type=float, metavar="X", help=text)
    kuhn.add_argument(
        "--eta", type=float, metavar="X", help="for mmd: the step size (default OpenSpiel's, alpha / max|A|^2)"
    )
    kuhn.add_argument("--stepsize", type=float, metavar="X", help="deprecated: --eta")
    kuhn.add_argument("--json", action="store_true", help="print one JSON object")
    kuhn.set_defaults(handler=_kuhn)

    race = commands.add_parser("race", help="run several variants on one game and compare how fast they converge")
    race_source = race.add_mutually_exclusive_group(required=True)
    trees = ", ".join(TREE_GAMES)
    race_source.add_argument(
        "--game",
        choices=[*PRESETS, *NORMAL_FORM_PRESETS, *TREE_GAMES],
        metavar="NAME",
        help=f"a matrix preset or a tree game ({trees}): {', '.join([*PRESETS, *NORMAL_FORM_PRESETS, *TREE_GAMES])}",
    )
    race_source.add_argument(
        "--matrix", metavar="A.csv", help="the row player's payoffs as CSV (zero-sum unless --col-matrix)"
    )
    race_source.add_argument(
        "--efg",
        metavar="FILE",
        help=f"a game in Gambit's .efg format: two players (zero-sum) or 3 to {config.MAX_TREE_PLAYERS} (any payoffs)",
    )
    race_source.add_argument(
        "--nfg", metavar="FILE.nfg", help="a game of any number of players in Gambit's .nfg format (either version)"
    )
    race.add_argument("--col-matrix", metavar="B.csv", help="the column player's payoffs as CSV")
    for name, takers in _TREE_PARAMETERS.items():
        number = int if all(parameter.integer for _, parameter in takers) else float
        race.add_argument(
            f"--{name}",
            type=number,
            metavar=name[0].upper(),
            help="; ".join(
                f"{entry.name}: {p.help} ({p.low:g} to {p.high:g}; default {p.default:g})" for entry, p in takers
            ),
        )
    race.add_argument(
        "--variants",
        required=True,
        metavar="V1,V2,..",
        help="comma-separated; matrix games: parts joined by '/' such as rm+/sampled/alternating/linear or "
        "hedge/eta=0.05 or sprm+/eta=0.1; tree games: cfr+/simultaneous, pdcfr+/alpha=2/gamma=4",
    )
    race.add_argument("--iterations", type=_iterations, required=True, metavar="N")
    race.add_argument("--seeds", type=int, default=5, metavar="K", help="runs per sampled variant (median and band)")
    race.add_argument("--seed", type=int, metavar="S", help="the first seed (default 0)")
    race.add_argument(
        "--opponent",
        metavar="p1,p2,.. or P:p1,..;.. or FILE.json",
        help="a fixed opponent: a column strategy (matrix games; of three players or more, player:weights separated "
        "by ';', such as 3:0.5,0.5), or a JSON file of one player's whole strategy (tree games; only the other "
        "player learns)",
    )
    race.add_argument(
        "--start",
        metavar="x1,..;y1,..",
        help="where learning starts: each player's initial strategy (weights, the players separated by ';'; matrix "
        "games)",
    )
    for name, default in DISCOUNT_DEFAULTS.items():  # (validated by CFRVariant: a bad value is one line, exit 2)
        race.add_argument(
            f"--{name}", type=float, metavar="X", help=f"for discounted: {name} (default {default:g}), in [-10, 10]"
        )
    race.add_argument(
        "--mmd-alpha",
        type=float,
        metavar="X",
        help=f"for mmd: its temperature alpha (default {MMD_DEFAULT_ALPHA:g}), in (0, 1e6]",
    )
    race.add_argument("--json", action="store_true", help="print one JSON object")
    race.set_defaults(handler=_race)

    bench = commands.add_parser("bench", help="measure speed against baselines run alongside")
    bench.add_argument("--quick", action="store_true", help="fewer repeats (a smoke test, noisier numbers)")
    bench.add_argument(
        "--markdown", action="store_true", help="print the table as Markdown as well, after the measurements"
    )
    bench.add_argument(
        "--json",
        metavar="PATH",
        help="write the rows to this data file, merged into the rows already there (docs/performance/bench.json)",
    )
    bench.add_argument(
        "--only",
        action="append",
        choices=tuple(BENCH_SECTIONS),
        help="measure only this section (repeatable)",
    )
    bench.set_defaults(handler=_bench)

    sweep = commands.add_parser(
        "sweep", help="run a grid of games x algorithms x seeds on Dask, one Parquet result file per cell"
    )
    sweep.add_argument("grid", metavar="GRID.toml", help="the grid: games, algorithms, seeds, iterations, checkpoints")
    sweep.add_argument("--out", required=True, metavar="DIR", help="the results folder; finished cells are skipped")
    _cluster_options(sweep)
    sweep.add_argument(
        "--cell", action="append", metavar="ID", help="run only the cell whose id starts with ID (repeatable)"
    )
    sweep.add_argument("--retry-failed", action="store_true", help="run again the cells whose files record an error")
    sweep.add_argument("--list", action="store_true", help="list the cells (id, status, name) and run nothing")
    sweep.set_defaults(handler=_sweep)

    atlas = commands.add_parser(
        "atlas", help="run every algorithm on every game rmcore ships and write docs/performance/atlas.md"
    )
    _cluster_options(atlas)
    atlas.add_argument("--quick", action="store_true", help="1,000 iterations and one seed instead of 10,000 and three")
    atlas.add_argument("--out", default="atlas-results", metavar="DIR", help="the results folder (default %(default)s)")
    atlas.add_argument(
        "--docs",
        default="docs/performance",
        metavar="DIR",
        help="where atlas.md and atlas.parquet go (default %(default)s)",
    )
    atlas.set_defaults(handler=_atlas)
    return parser


def _cluster_options(command) -> None:
    command.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler (tcp://host:8786); default: a local cluster"
    )
    command.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="the local cluster's workers (default one per core); 0 runs the cells here, one after another, without "
        "Dask",
    )


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.handler(args)
    except (UsageError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (
        ModuleNotFoundError
    ) as error:  # a sweep's optional packages (dask, pyarrow): the message says what to install
        if error.name is not None:
            raise
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
