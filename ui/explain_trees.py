"""Every on-screen word of the game-tree page's own widgets and panels (``app_pages/trees.py``, ``ui/trees/``): the
settings and what they say, the numbers above the charts, the walkthrough of one iteration, the exact answer and the
explorer, a fixed player, the hands against the bot, and the charts' titles. Text only: no Streamlit. (What each
variant, game and chart teaches is ``ui/explain.py``'s; what each game is, the catalogue's.)"""

from __future__ import annotations

from .escape import markdown


def size_words(game) -> str:
    """How big ``game`` (an ``rmcore.TreeGame``) is, in words: its tree nodes and its information sets."""
    return f"{game.tree.player.shape[0]:,} nodes, {len(game.infosets):,} information sets"


# -- the settings --------------------------------------------------------------------------------

SEED_HELP = "For chance sampling: same seed, same run."
SEEDS_HELP = "Runs per sampled variant: the race draws the median and the min-max band."
NO_VARIANT = "Choose at least one variant; the last choice stays in use."
CHECKED_HELP = (
    "Each variant's paper, the independent reference the test suite holds it to, how closely and the tests: the "
    "status table of docs/reference/algorithms.md (rmcore/verification.py)."
)
SHOW_CURRENT = "Also show the current policy's nash_conv"
CARDS_HELP = "How many cards (each player gets one; the higher wins a showdown)."
BET_HELP = "The size of a bet or call; each player antes 1."
PLAYERS_HELP = (
    "Kuhn poker for 2, 3 or 4 players, each dealt one card of players + 1. With more than two players the charts show "
    "NashConv, the sum of the players' best-response gains (exploitability, its half, is a two-player measure); the "
    "exact answer, a fixed player, the bot and the walkthrough are for two players."
)


def kuhn_players_words(players: int, card_names: str, infosets: int) -> str:
    """Kuhn poker's rules and what CFR does on it, for a game of ``players`` > 2 (OpenSpiel's
    ``kuhn_poker(players=n)``, as ``rmcore.trees.poker.KuhnRules`` deals and scores it)."""
    cards, lowest = markdown(" < ".join(card_names)), card_names[0]
    return (
        f"**Kuhn poker, {players} players:** {len(card_names)} cards, {cards}. Each player antes 1 and gets one "
        "card. The players act in turn from player 1, each passing (checking) or betting 1, until one bets; if all "
        f"pass, the highest card takes the pot of {players}. After a bet, each other player in turn folds (pass) or "
        "calls (bet), once; the highest card among the bettor and the callers takes the pot, and a player who folds "
        "loses its ante. Information sets are named by the card held and the actions so far (p: pass, b: bet): "
        f"{lowest}ppb is holding {lowest} after pass, pass, bet. Counterfactual regret minimisation (Zinkevich et al. "
        f"2007) runs regret matching at each of the {infosets:,} information sets; with {players} players no "
        "theorem says its average policy approaches a Nash equilibrium, so NashConv, the sum of the players' "
        "best-response gains, shows how far it is."
    )


#: Where the Players slider would be, on Leduc hold'em (``ui/trees/games.py: MAX_PAGE_NODES``).
LEDUC_TWO_PLAYERS = (
    "Leduc hold'em stays two players here: 3-player Leduc has 1,831,601 histories, beyond this page's limit of "
    "300,000 tree nodes."
)
WALKTHROUGH_TITLE = "One iteration, step by step"
OPENSPIEL_LABEL = "OpenSpiel game (the string pyspiel.load_game takes)"
UPLOAD_FIRST = "Upload a .efg file to run CFR on it; until then the last game keeps running."
EFG_DOWNLOAD_HELP = (
    "The game tree in Gambit's format: open it in Gambit, read it with rmcore.read_efg, or upload it here."
)
OPPONENT_HELP = (
    "Self-play: both players learn. A fixed player plays the exact equilibrium except at the information sets "
    "you lock; the other player, the learner, runs CFR alone and learns to exploit the locks."
)
LOCKS_HELP = "An information set is the player's cards and the betting so far, e.g. Jp: holding J after a pass."
#: Step +1's own words on this page (the walkthrough is right under it).
STEP_HELP = "Step +1 runs one iteration and shows what it computed in the walkthrough just below."


def variants_label(most: int) -> str:
    return f"Variants (the first is traced and tabled; up to {most} race each other)"


def not_loaded(reason: object) -> str:
    """A game (a file, an OpenSpiel string) that cannot be run: ``reason`` may quote it (escaped here)."""
    return f"Not loaded: {markdown(str(reason).rstrip('.'))}. The last valid game keeps running."


def efg_label(megabytes: int, nodes: int) -> str:
    return (
        f"A Gambit .efg file (extensive form, zero-sum, two players or more; at most {megabytes} MB and {nodes:,} "
        "tree nodes)"
    )


def lock_two_players(players: int) -> str:
    """In the place of the Opponent control, for a game of more than two players."""
    return (
        f"Locking a player is for two-player games (the other one learns to exploit it); with {players} players "
        "every player learns."
    )


def two_player_variants_left_out(game, any_kept: bool) -> str:
    """Under the variant picker, when magnetic mirror descent is chosen on a game that is not two-player zero-sum."""
    kept = "the race runs the others" if any_kept else "CFR runs instead"
    return (
        f"Magnetic mirror descent runs on two-player zero-sum games (its step is a saddle point's); {kept} on "
        f"{markdown(game.name)}."
    )


#: In the place of the walkthrough, with more than two players.
WALKTHROUGH_TWO_PLAYERS = (
    "The step-by-step walkthrough teaches two-player Kuhn poker (its 12 information sets and Kuhn's equilibrium "
    "family); set Players to 2 to see it."
)
#: In the place of the hands against the bot, with more than two players.
PLAY_TWO_PLAYERS = "Playing the bot is for two-player games: you take one seat and the bot the other."
#: In the place of the .efg download, for a two-player general-sum game (``rmcore.formats.efg.writes_efg``).
EFG_GENERAL_SUM = (
    "The .efg download is for zero-sum games of two players and for games of more: a two-player .efg file holds a "
    "zero-sum game."
)


def locks_label(player: int) -> str:
    return f"Player {player}'s locked information sets (it plays the exact equilibrium at the others)"


def lock_weights_zero(infoset: str) -> str:
    """Every weight at a locked set is zero (``infoset`` as the game names it: escaped here)."""
    name = markdown(infoset)
    return (
        f"All weights at {name} are zero: give at least one action a positive weight. Until then {name} plays the "
        "equilibrium."
    )


def memory(first: int, others: int, runs: int, history_bytes: int, allowed_bytes: int) -> str:
    """How much of a race's history the session keeps (``first`` checkpoints of its first run, ``others`` of each
    other), for a game whose checkpoints are large."""
    kept = f"{first:,} checkpoints" + (f" of its first run and {others:,} of each other" if runs > 1 else "")
    return (
        f"Keeps {kept} of this game: {history_bytes / 1e6:,.0f} MB at most (a session may hold "
        f"{allowed_bytes / 1e6:,.0f} MB; a checkpoint holds the current and average policy and the regrets "
        "at every information set)."
    )


# -- the numbers above the charts, the charts' titles ----------------------------------------------

PRESS_TO_START = "Press **Run** or **Step +1** to start."
HEATMAP_CAPTION = (
    "Each cell is one information set: the cards its player sees (rows) and the betting so far (columns, only where a "
    "bet or raise is allowed). Light: it rarely bets; dark blue: it always does."
)


SETTINGS_FOLDED = "The game and the settings"


def compact_numbers(iteration: str, gap_name: str, gap: str, average_name: str, average: str, value: str | None) -> str:
    """The numbers above the charts in one line (presentation mode); ``gap_name`` names the variant too; ``value``,
    the game value, None where there is none to show (more than two players)."""
    line = f"##### iteration {iteration} · {gap_name} {gap} · {average_name} {average}"
    return line if value is None else f"{line} · game value {value}"


def heatmap_title(player: int, kind: str) -> str:
    return f"P(bet or raise), player {player}, {kind}"


# -- one iteration, step by step (classic Kuhn) ----------------------------------------------------

PRESS_STEP = (
    "Press **Step +1** (or the right arrow key) to see one iteration's numbers here, or choose an iteration above."
)
REACH_HEADING = "**Reach and counterfactual values**"
UPDATE_HEADING = "**Regrets, regret matching and the average**"
HOW_COMPUTED = (
    r"""**How each number is computed.** For each information set $I$ of the player $i$ being updated, summing over
the histories $h \in I$ (the two deals that share $i$'s card):

1. **reach:** $\pi_i(h)$ is $i$'s own probability of playing to $h$; """
    r"""$\pi_{-i}(h)$ is the opponent's times chance's (1/6 per deal);
2. **counterfactual values:** $v(I, a) = \sum_h \pi_{-i}(h)\, u_i(h a)$ and """
    r"""$v(I) = \sum_h \pi_{-i}(h)\, u_i(h) = \sum_a \sigma(I, a)\, v(I, a)$;
3. **regrets:** $r(I, a) = v(I, a) - v(I)$, added to the cumulative $R(I, a)$ """
    r"""(CFR+ clips at 0; linear and discounted CFR scale it);
4. **regret matching:** $\sigma'(I, a) = R^+(I, a) / \sum_b R^+(I, b)$, uniform if no regret is positive;
5. **average:** $S(I, a) \mathrel{+}= w_t\, \pi_i(h)\, \sigma(I, a)$, and the average strategy is $S / \sum S$."""
)
#: The walkthrough's columns, each with its help: reach and values, then the update.
REACH_AND_VALUES = {
    "player": "Who acts at this information set.",
    "σ(bet)": "The strategy this iteration played: probability of bet (call).",
    "Σ π_i": "Own reach, summed over the set's two deals: up to 2, not a probability.",
    "Σ π_-i": "Opponent's and chance's reach, summed over the set's two deals.",
    "v(pass)": "Counterfactual value of passing (folding): Σ_h π_-i(h) u_i(h·pass).",
    "v(bet)": "Counterfactual value of betting (calling).",
    "v(I)": "Counterfactual value of the set under σ: Σ_a σ(a) v(a).",
}
THE_UPDATE = {
    "r(pass)": "This iteration's regret of passing: v(pass) − v(I).",
    "r(bet)": "This iteration's regret of betting: v(bet) − v(I).",
    "R(pass)": "Cumulative regret of passing after the update.",
    "R(bet)": "Cumulative regret of betting after the update.",
    "σ'(bet)": "Regret matching's next strategy: R⁺(bet) / (R⁺(pass) + R⁺(bet)).",
    "avg(bet)": "The average strategy after this iteration: S(bet) / ΣS.",
}


def tree_title(iteration: int) -> str:
    return f"The game tree at iteration {iteration:,}: colour is the current P(bet or call)"


def show_iteration_label(most: int) -> str:
    return f"Show iteration t (any t up to {most:,}, re-derived from the seed; empty: the last Step +1)"


def iteration_caption(iteration: int, algorithm: str, updates: str) -> str:
    return (
        f"Iteration {iteration:,} of {algorithm} ({updates} updates), information set by information set. Reach and "
        "values are sums over the two deals in the set, so a reach can exceed 1."
    )


def alpha_sentence(estimate: float, target: float) -> str:
    """The α estimate as it is, and, when it lies outside the family's range, which member the targets use instead."""
    sentence = f"Estimated α = P(bet | J) = **{estimate:.4f}**."
    if estimate != target:
        sentence += (
            f" That lies outside the equilibrium family's range [0, 1/3] (the average is not an equilibrium yet), "
            f"so the dashed targets use its nearest member, α = {target:.4f}."
        )
    return sentence


def kuhn_value(value: float) -> str:
    """The average policies' value beside classic Kuhn's −1/18."""
    return (
        f" The average policies' value for player 1 is **{value:.5f}**, against the game value **{-1 / 18:.5f}** "
        "(−1/18)."
    )


# -- the exact answer, the explorer, a fixed player ------------------------------------------------

COMPUTING_EXACT = "Computing the exact answer in the background…"
SEARCH_HELP = "Type part of a name to narrow the list."
NOTHING_LOCKED = "nothing locked: it plays the equilibrium"


def computing_exact(seconds: float, nodes: int) -> str:
    return (
        f"{COMPUTING_EXACT} ({seconds:.0f} s so far, for {nodes:,} tree nodes). It shows on a later update; the run "
        "goes on meanwhile."
    )


#: Under the NashConv chart, in self-play on a game of more than two players.
NASH_CONV_PLAYERS = (
    "nash_conv (NashConv) adds up what each player gains by switching alone to a best response against the others' "
    "average policies: 0 at a Nash equilibrium. Exploitability, its half, is a two-player zero-sum measure and is not "
    "shown. With more than two players CFR's average is not guaranteed to reach a Nash equilibrium; on Kuhn poker "
    "its NashConv still falls towards 0. Dashed lines are the current policy, which keeps moving."
)


def trajectories_players(poker: bool) -> str:
    """The trajectories chart's caption on a game of more than two players (``poker``: one line per card)."""
    lines = (
        "Each line is one of player 1's opening decisions (one per card): its average probability of betting."
        if poker
        else "Each line is one action's average probability at player 1's first information set (the most likely "
        "actions, at most ten)."
    )
    return lines + " With more than two players no exact equilibrium is computed here to set them beside."


#: The help of the nash_conv tile with more than two players (with two, it gives the exploitability).
NASH_CONV_HELP = (
    "NashConv: the sum over the players of what each gains by switching alone to a best response. Exploitability, its "
    "half, is defined for two-player zero-sum games."
)
#: The help of the average policies' value with more than two players.
AVERAGE_VALUE_PLAYERS_HELP = (
    "Player 1's expected winnings per hand when every player plays its average policy (at the replay's iteration, "
    "when replaying); none before the first iteration."
)
#: In the place of the exact answer, for a game of more than two players (or not zero-sum).
EXACT_TWO_PLAYERS = (
    "The exact answer (a sequence-form linear program) is for two-player zero-sum games; here NashConv, the sum of "
    "the players' best-response gains, measures how far the average policy is from an equilibrium."
)


def exact_failed(error: Exception) -> str:
    return f"No exact answer for this game: the LP failed ({error})."


def exact_answer(value: float, average: float, fixed: bool) -> str:
    """The LP's value beside what the average policies (or, against a fixed player, the learner's) get."""
    whose = "the average policies get" if not fixed else "the learner's average policy gets"
    return (
        f"**The exact answer** (sequence-form linear program, HiGHS): game value for player 1 "
        f"**{round(value, 6) + 0.0:.6f}**; {whose} **{average:.6f}** (gap {average - value:+.2e})."
    )


def no_infoset_named(player: int, typed: str) -> str:
    return f"No information set of player {player} has {markdown(repr(typed))} in its name."


def infoset_label(count: int, player: int, listed: int) -> str:
    """The information-set box's label: how many sets match, and how many it lists."""
    more = f"; the first {listed} listed, type to narrow" if count > listed else ""
    return f"Information set ({count:,} of player {player}{more})"


def reached(infoset: str, reach: float, words: str = "") -> str:
    """How often the chosen set is reached (``infoset`` as the game names it: escaped here), and ``words`` after."""
    return (
        f"**{markdown(infoset)}**: reached with probability {reach:.4f} under the current policy (chance and all "
        "players). " + words
    )


def no_exact_for_fixed(why: str, fixed: int) -> str:
    return (
        f"No exact answer for this game ({why}): player {fixed} plays uniformly at the sets it is not locked at, and "
        "the equilibrium's value is not known."
    )


def against_fixed(fixed: int, locked: str, learner: int, response: float, equilibrium: float, now: float) -> str:
    """What the locks give away, exactly, and how far the learner's average is from taking it."""
    return (
        f"Player {fixed} is fixed ({locked}). A best response earns the learner, player {learner}, exactly "
        f"**{response:.6f}** a hand; the equilibrium value for player {learner} is {equilibrium:.6f}, so the "
        f"locks give away **{response - equilibrium:.6f}** a hand. The learner's average now earns "
        f"**{now:.6f}** ({response - now:.2e} short)."
    )


def deviations_heading(learner: int) -> str:
    return (
        f"**The exploiting deviations**: where player {learner}'s best response leaves the equilibrium, largest gain "
        "first."
    )


def no_deviation(learner: int) -> str:
    return f"No deviation from the equilibrium pays: these locks give player {learner} nothing to exploit."


# -- the hands against the bot -------------------------------------------------------------------

BOT_LABEL = "Bot: the average strategy at iteration (empty: now)"
BOT_HELP = "The bot plays the learner's average strategy. An early iteration is a weak bot."
DEAL_SEED_HELP = "The same seed deals the same hands."
TALLY_FIRST = (
    "After each hand the bot's card and the probability with which it acted are shown, and your winnings are tallied."
)


def hand(number: int, when: str, seat: int, knows: str) -> str:
    return f"Hand **{number}** against the learner's average strategy {when}. You are player {seat}; {knows}."


def tally(hands: int, mean: float, band: str, value: float | None, best: float) -> str:
    """The student's mean winnings beside the game's value for the seat (None while its LP is computing) and what a
    best response would expect."""
    known = "not known yet (its LP is computing)" if value is None else f"{value:+.4f}"
    return (
        f"After **{hands}** hands you average **{mean:+.3f}**{band} a hand; the game value for your seat is {known}, "
        f"and a best response would expect {best:+.4f} against the same bots."
    )


#: A game of three players or more: the table of each player under the numbers.
PLAYER_COLUMNS = ("player", "expected payoff (average policy)", "best response's payoff", "best-response gain")
PLAYERS_TABLE = (
    "Each player's payoff when everyone plays the average policy, what it would earn by a best response to the others' "
    "average policies, and the difference, its best-response gain. NashConv is the sum of the gains: 0 exactly at a "
    "Nash equilibrium."
)
