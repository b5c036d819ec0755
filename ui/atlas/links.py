"""Share links from the atlas to the page that runs a cell: the matrix page (``/``) or the tree page (``/game_trees``)
with the cell's game, algorithm, seed and iterations set (``docs/reference/share-links.md`` lists the keys).

No Streamlit here: a cell's spec (``rmcore.sweep``'s, as a result file records it) in, the page's path and query pairs
out, or the reason no link can set that run up (a game from a file, a parameter the page's sliders do not offer).
"""

from __future__ import annotations

import urllib.parse
from typing import NamedTuple

import rmcore
from rmcore.trees.cfr import MMD_DEFAULT_ALPHA, VARIANT_DISCOUNTS

from ..explain import ALGORITHM_NAMES
from ..link import MAX_RUN_TO, TREE_PAGE_PATH
from ..matrix.settings import ETA_CHOICES, START_CHOICES
from ..trees.games import CLASSIC
from ..trees.settings import DCFR_RANGES, DISCOUNT_KEYS, GAMES, MMD_ALPHAS, PLUS_RANGES, PLUS_VARIANTS

#: The largest seed the pages' seed inputs take.
MAX_SEED = 2**31 - 1


class Link(NamedTuple):
    """Where a cell's run opens: ``path`` (``""`` for the matrix page, ``"game_trees"`` for the tree page) and the
    query ``pairs``; or ``None`` for both and the ``reason`` why not."""

    path: str | None
    pairs: tuple[tuple[str, str], ...] = ()
    reason: str = ""

    def url(self, base: str) -> str | None:
        """The link under ``base`` (the app's root URL, ending in ``/``), or None."""
        if self.path is None:
            return None
        return f"{base}{self.path}?{urllib.parse.urlencode(self.pairs)}"


def _number(value) -> str:
    return format(value, "g") if isinstance(value, float) else str(value)


def _on_grid(value: float, low: float, high: float, step: float) -> bool:
    return low <= value <= high and abs((value - low) / step - round((value - low) / step)) < 1e-9


def link(spec: dict) -> Link:
    """The link that opens the page with the run of the cell ``spec`` set up and run to its last iteration."""
    if "file" in spec["game"]:
        return Link(None, reason="a game from a file: upload it on the page (links carry catalogue games)")
    if spec["iterations"] > MAX_RUN_TO:
        return Link(None, reason=f"a link runs to at most {MAX_RUN_TO:,} iterations")
    tree = "tree" in spec["algorithm"]
    found = _tree_pairs(spec) if tree else _matrix_pairs(spec)
    if isinstance(found, str):
        return Link(None, reason=found)
    pairs = [*found, ("run_to", str(spec["iterations"]))]
    return Link(TREE_PAGE_PATH if tree else "", tuple(pairs))


def _matrix_pairs(spec: dict) -> list | str:
    game, algorithm = spec["game"], spec["algorithm"]
    entry = rmcore.PRESETS[game["name"]]
    pairs = [("preset", entry.title)]
    for parameter in entry.parameters:
        value = game["parameters"][parameter.name]
        if not parameter.low <= value <= parameter.high:
            return f"{parameter.name} = {value} is outside the page's slider"
        pairs.append((f"param_{game['name']}_{parameter.name}", _number(value)))
    pairs.append(("algorithm", ALGORITHM_NAMES[algorithm["matrix"]]))  # (by its label, as the page's widget writes it)
    eta = algorithm["eta"]
    if eta is not None:
        text = eta if isinstance(eta, str) else format(eta, "g")
        if text not in ETA_CHOICES:
            return f"the page's step slider offers η = {', '.join(ETA_CHOICES)}, not {text}"
        pairs.append(("eta", text))
    pairs += [(key, algorithm[key]) for key in ("sampling", "updates", "averaging")]
    if game.get("start", "suggested") != "suggested":  # (the default goes unnamed, as kuhn_game's below)
        pairs.append(("start_mode", START_CHOICES[game["start"]]))
    if spec["seed"] is not None:
        if spec["seed"] > MAX_SEED:
            return f"the page's seeds run to {MAX_SEED:,}"
        pairs.append(("seed", str(spec["seed"])))
    pairs.append(("show_current", "true"))
    return pairs


def _tree_pairs(spec: dict) -> list | str:
    game, algorithm = spec["game"], spec["algorithm"]
    name, parameters = game["name"], game["parameters"]
    if name == "kuhn":
        if parameters == {"cards": 3, "bet": 1.0}:
            # The page's default game goes unnamed: the link check takes kuhn_game=Kuhn poker, a default Streamlit
            # drops from the address, for a value refused (ui/link.py's _shows knows presets' titles, not games').
            pairs = []
        elif _on_grid(parameters["bet"], *rmcore.trees.poker.KUHN_BETS, 0.25):
            pairs = [("kuhn_game", CLASSIC["sliders"]), ("kuhn_cards", str(parameters["cards"]))]
            pairs.append(("kuhn_bet", _number(float(parameters["bet"]))))
        else:
            return f"the page's bet slider moves in steps of 0.25, not to {parameters['bet']}"
    else:
        pairs = [("kuhn_game", GAMES[name])]
        pairs += [(f"kuhn_{name}_{key}", _number(value)) for key, value in parameters.items()]
    variant = algorithm["tree"]
    pairs.append(("kuhn_variants", rmcore.CFRVariant(variant, algorithm["updates"]).label))
    values = algorithm["parameters"]
    if variant == "discounted":
        for key, value in values.items():
            if not _on_grid(value, *DCFR_RANGES[key]):
                low, high, step = DCFR_RANGES[key]
                return f"the page's {key} slider runs from {low:g} to {high:g} in steps of {step:g}, not to {value:g}"
            pairs.append((f"kuhn_dcfr_{key}", _number(float(value))))
    elif variant in PLUS_VARIANTS:
        for key, value in values.items():
            if not _on_grid(value, *PLUS_RANGES[key]):
                low, high, step = PLUS_RANGES[key]
                return f"the page's {key} slider runs from {low:g} to {high:g} in steps of {step:g}, not to {value:g}"
            if value != VARIANT_DISCOUNTS[variant][key]:
                pairs.append((f"{DISCOUNT_KEYS[variant]}_{key}", _number(float(value))))
    elif variant == "mmd":
        if values.get("eta", values.get("stepsize")) is not None:  # (a result of schema 1 named it stepsize)
            return "the page runs MMD with OpenSpiel's step size for its α"
        alpha = format(values["alpha"], "g")
        if alpha not in MMD_ALPHAS:
            return f"the page's α slider offers {', '.join(MMD_ALPHAS)}, not {alpha}"
        if values["alpha"] != MMD_DEFAULT_ALPHA:
            pairs.append(("kuhn_mmd_alpha", alpha))
    if spec["seed"] is not None:
        if spec["seed"] > MAX_SEED:
            return f"the page's seeds run to {MAX_SEED:,}"
        pairs.append(("kuhn_seed", str(spec["seed"])))
    pairs.append(("kuhn_show_current", "true"))
    return pairs
