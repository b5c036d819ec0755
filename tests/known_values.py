"""Known values from the literature (../shared/REFERENCE.md), in one place."""

from fractions import Fraction

RPS_CRASH_EQUILIBRIUM = (0.25, 0.5, 0.25)
BATTLE_OF_SEXES_MIXED = ((2 / 3, 1 / 3), (1 / 3, 2 / 3))
RPS_BEST_RESPONSE_TO_40_30_30 = 1  # Paper
PUBLISHED_TUTORIAL_STALL_NASH_CONV = 0.018  # buggy tutorial code after 1e6 iterations
CORRECT_CODE_NASH_CONV_AT_1E6 = 0.002
KUHN_GAME_VALUE = Fraction(-1, 18)
