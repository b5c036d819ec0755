"""Write the sweep result files of main at a6231df (schema 1: no ``schema`` in their metadata; a game tree's file
holds ``exploitability`` and ``exploitability_current``) with that version's own code, into ``OUT_FOLDER``. Run from
a checkout of a6231df (the kernels as plain Python: nothing to compile for three small cells):

    mkdir /tmp/a6231df && git archive a6231df | tar -x -C /tmp/a6231df && cd /tmp/a6231df
    NUMBA_DISABLE_JIT=1 python PATH/TO/make_sweep.py OUT_FOLDER

Not collected by pytest (``tests/conftest.py``)."""

import sys

from rmcore.sweep import sweep

GRID = {
    "iterations": 30,
    "checkpoints": [3, 30],
    "games": [{"game": "kuhn"}, {"game": "rps-crash"}, {"game": "prisoners-dilemma"}],
    "algorithms": [{"tree": "cfr+"}, {"matrix": "prm+"}],
}

print(sweep(GRID, sys.argv[1], workers=0))
