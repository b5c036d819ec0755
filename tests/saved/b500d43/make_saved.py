"""Write the saved files of main at b500d43 with that version's own code: setup files, links and reproducibility
bundles exactly as it wrote them. Run from a checkout of b500d43:

    git worktree add /tmp/b500d43 b500d43 && cd /tmp/b500d43 && PYTHONPATH=. python PATH/TO/make_saved.py OUT_FOLDER

(``rmcore_all.txt`` is ``rmcore.__all__`` of that version.) Not collected by pytest (``tests/conftest.py``)."""

import json
import sys
from pathlib import Path

import rmcore
from ui import export, link
from ui.live import LiveRun

OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)


class Params:
    """st.query_params as the page's URL held them (the setup reads only iteration order and get_all)."""

    def __init__(self, pairs):
        self.pairs = pairs

    def __iter__(self):
        seen = []
        for k, _ in self.pairs:
            if k not in seen:
                seen.append(k)
        return iter(seen)

    def get_all(self, key):
        return [v for k, v in self.pairs if k == key]


def setup_of(page, pairs, iteration):
    link.st.query_params = Params(pairs)
    return link.setup(page, iteration)


CASES = {
    # the tree page: Leduc, two variants, a seed; and classic Kuhn with a lock (a fixed opponent) and dcfr sliders
    "tree_leduc": (
        "kuhn",
        [
            ("kuhn_game", "Leduc hold'em"),
            ("kuhn_variants", "cfr+ · simultaneous"),
            ("kuhn_variants", "cfr · alternating"),
            ("kuhn_seed", "7"),
        ],
        30,
    ),
    "tree_kuhn_dcfr": (
        "kuhn",
        [("kuhn_variants", "discounted · alternating"), ("kuhn_dcfr_alpha", "1"), ("kuhn_dcfr_gamma", "3.5")],
        40,
    ),
    "tree_liars_dice": ("kuhn", [("kuhn_game", "Liar's dice"), ("kuhn_liars_dice_sides", "4")], 5),
    # the matrix page: a preset, a rule with its step, alternating updates
    "matrix_hedge": (
        "matrix",
        [
            ("preset", "Matching pennies"),
            ("algorithm", "Hedge (multiplicative weights)"),
            ("eta", "0.05"),
            ("updates", "alternating"),
        ],
        200,
    ),
}
for name, (page, pairs, iteration) in CASES.items():
    spec = setup_of(page, pairs, iteration)
    (OUT / f"{name}.setup.json").write_text(json.dumps(spec, indent=2) + "\n")
    (OUT / f"{name}.link.txt").write_text(link.link_from_setup(json.dumps(spec).encode(), "http://host:8501") + "\n")

# Bundles: a race's setup, command and numbers after a run, as the Export button makes them.
races = {
    "tree_kuhn_race": (
        "kuhn",
        [("kuhn_variants", "cfr · alternating"), ("kuhn_variants", "cfr+ · alternating"), ("kuhn_seed", "3")],
        lambda: rmcore.Race(rmcore.KUHN, ["cfr/alternating", "cfr+/alternating"], seed=3),
        100,
    ),
    "matrix_fixed_race": (
        "matrix",
        [
            ("preset", "Rock-Paper-Scissors"),
            ("opponent_mode", "Fixed mixed strategy"),
            ("opponent_3_0", "40"),
            ("opponent_3_1", "30"),
            ("opponent_3_2", "30"),
            ("race_variants", "rm+ · expected · simultaneous · uniform"),
        ],
        lambda: rmcore.Race(rmcore.preset("rps"), ["rm", "rm+"], opponent=(0.4, 0.3, 0.3)),
        500,
    ),
}
for name, (page, pairs, build, iterations) in races.items():
    run = LiveRun(build())
    run.race.run(iterations)
    frame = run.frame()
    spec = dict(setup_of(page, pairs, 0), iteration=frame.iteration)
    (OUT / f"{name}.bundle.zip").write_bytes(export.bundle(spec, run, frame))
print(sorted(p.name for p in OUT.iterdir()))
