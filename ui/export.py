"""Export, the same on both pages: the history as CSV, the setup as JSON, and a reproducibility bundle.

Everything is built from the frame the live panel drew last, and only when a button is clicked
(``st.download_button`` with a callable), so exporting neither slows the updates nor pauses a run. The setup file's
format, and the link it opens when uploaded again, live in ``ui/link.py``.
"""

from __future__ import annotations

import csv
import io
import json
import platform
import zipfile
from importlib import metadata

import pandas as pd
import streamlit as st

import rmcore

from . import explain_app, link
from .live import Frame, LiveRun

_PACKAGES = ("rmcore", "numpy", "numba", "scipy", "pandas", "streamlit", "plotly")


def history_frame(run: LiveRun, frame: Frame) -> pd.DataFrame:
    """Every run's checkpoints in one table: ``variant`` and ``seed`` columns, then ``History.to_frame()``'s."""
    tables = []
    for variant, histories in zip(run.race.variants, frame.histories):
        seeds = range(run.race.seed, run.race.seed + len(histories))
        for seed, history in zip(seeds, histories):
            table = history.to_frame()
            table.insert(0, "seed", seed if variant.is_sampled else "")
            table.insert(0, "variant", variant.label)
            tables.append(table)
    return pd.concat(tables, ignore_index=True)


def _csv(game: rmcore.MatrixGame, payoffs) -> str:
    """A labelled CSV the CLI reads back exactly (Python's repr of each float round-trips)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["", *game.col_actions])
    for label, row in zip(game.row_actions, payoffs):
        writer.writerow([label, *(repr(float(v)) for v in row)])
    return out.getvalue()


def _efg(run: LiveRun) -> str:
    """The run's game as .efg text: the uploaded file's own text (what the user gave), any other game written out."""
    uploaded = getattr(run.key, "uploaded", None)  # (the tree page's settings carry the user's game)
    if uploaded is not None and uploaded.game is run.race.game:
        return uploaded.text
    return rmcore.write_efg(run.race.game)


def _variant_words(variant) -> str:
    """A variant as the command line's ``--variants`` takes it: its label's parts joined by '/' (a CFR variant's
    name and updates; discounted CFR's parameters go in ``--alpha``, ``--beta`` and ``--gamma``, MMD's in
    ``--mmd-alpha``, PDCFR+'s and DCFR+'s in the variant's own parts, ``pdcfr+/alternating/alpha=2.0/gamma=4.0``)."""
    if isinstance(variant, rmcore.CFRVariant):
        if variant.algorithm in ("discounted", "mmd"):
            return f"{variant.algorithm}/{variant.updates}"
        return variant.text
    # (A matrix variant's text carries its step as a part, "hedge/eta=0.05/...": its label's "hedge(η=0.05)" does not
    # parse.)
    return getattr(variant, "text", None) or "/".join(variant.label.split(" · "))


def command(run: LiveRun, iteration: int) -> tuple[str, dict[str, str]]:
    """The ``python -m rmcore race`` command that reproduces the run's numbers at ``iteration``, and the files it
    reads: a catalogue game by its name and parameters, any other game tree (the user's own, an OpenSpiel game, Kuhn
    poker of more than two players) as the bundle's ``game.efg``, which reads back as the same arrays; a matrix game
    as CSV, and one of three players or more as ``game.nfg``."""
    race, files = run.race, {}
    variants = ",".join(_variant_words(v) for v in race.variants)
    if isinstance(race.game, rmcore.TreeGame):
        try:
            name, values = rmcore.tree_game_setting(race.game)
        except ValueError:  # not a catalogue game (the user's own): the bundle carries its .efg
            files["game.efg"] = _efg(run)
            source = "--efg game.efg"
        else:
            source = f"--game {name}"
            if any(value != p.default for p, value in zip(rmcore.TREE_GAMES[name].parameters, values.values())):
                source += "".join(f" --{key} {value!r}" for key, value in values.items())
        if race.opponent is not None:  # the fixed opponent's whole strategy, every probability as Python wrote it
            files["opponent.json"] = json.dumps(race.opponent, indent=1, ensure_ascii=False)
            source += " --opponent opponent.json"
    elif race.game.num_players > 2:  # (a game of three players or more: its .nfg file, every payoff exactly)
        files["game.nfg"] = rmcore.write_nfg(race.game)
        source = "--nfg game.nfg"
    else:
        files["A.csv"] = _csv(race.game, race.game.row_payoffs)
        source = "--matrix A.csv"
        if not race.game.is_zero_sum:
            files["B.csv"] = _csv(race.game, race.game.col_payoffs)
            source += " --col-matrix B.csv"
    parts = [
        f"python -m rmcore race {source} --variants {variants} --iterations {iteration}",
        f"--seeds {race.seeds} --seed {race.seed}",
    ]
    discounts = {v.discount for v in race.variants if getattr(v, "algorithm", None) == "discounted" and v.discount}
    if discounts:  # (the page gives every discounted CFR of a race the same parameters: its one set of sliders)
        (discount,) = discounts
        parts.append(" ".join(f"--{name} {value!r}" for name, value in zip(("alpha", "beta", "gamma"), discount)))
    tempers = {v.mmd[0] for v in race.variants if getattr(v, "mmd", None) is not None}
    if tempers:  # (likewise one α slider for every MMD of a race)
        (alpha,) = tempers
        parts.append(f"--mmd-alpha {alpha!r}")
    if isinstance(race.game, rmcore.MatrixGame) and race.opponent is not None:
        # The weights the race was given, every digit: the command normalises them as the race did, to the last bit.
        parts.append("--opponent " + ",".join(repr(float(w)) for w in race.opponent["col"]))
    if getattr(race, "start", None) is not None:  # the weights as the page gave them: normalised the same way again
        parts.append('--start "' + ";".join(",".join(repr(float(w)) for w in side) for side in race.start) + '"')
    return " ".join(parts) + " --json", files


def bundle(the_setup: dict, run: LiveRun, frame: Frame) -> bytes:
    """A zip: the setup, the seed, package versions, the history CSV, the numbers now and the command that reproduces
    them."""
    cmd, files = command(run, frame.iteration)
    versions = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = rmcore.__version__ if name == "rmcore" else "not installed"
    numbers = {
        "iteration": frame.iteration,
        "seeds": list(range(run.race.seed, run.race.seed + run.race.seeds)),
        "measure": frame.race.gap_name,
        "variants": {s.label: s.gap for s in frame.race.standings},
        # the iteration each variant first reached each level (rmcore.first_crossing), as the command prints them
        "reached": {
            s.label: {f"{t:.0e}": None if r is None else r.iterations for t, r in s.reached.items()}
            for s in frame.race.standings
        },
    }
    readme = explain_app.bundle_readme(cmd, frame.race.gap_name, frame.iteration)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", readme)
        archive.writestr("setup.json", json.dumps(the_setup, indent=2))
        archive.writestr("versions.json", json.dumps(versions, indent=2))
        archive.writestr("numbers.json", json.dumps(numbers, indent=2))
        archive.writestr("history.csv", history_frame(run, frame).to_csv(index=False))
        for name, text in files.items():
            archive.writestr(name, text)
    return out.getvalue()


def section(page: str, run: LiveRun) -> None:
    """The Export heading and three download buttons, drawn by the page after its live panel.

    Outside the panel, so that a running page does not send three more widgets with every screen update (with a class on
    one server, those three widgets cost a fifth of each update). A file is made only when its button is clicked, from
    the frame the panel drew last: exactly the numbers on screen, even while the run goes on.
    """
    the_setup = link.setup(page, 0)  # now: the files are made on another thread, which cannot read the URL

    def shown() -> Frame:
        return run.last_frame if run.last_frame is not None else run.frame()

    def setup_file() -> str:
        return json.dumps({**the_setup, "iteration": shown().iteration}, indent=2)

    def bundle_file() -> bytes:
        frame = shown()
        return bundle({**the_setup, "iteration": frame.iteration}, run, frame)

    st.subheader("Export")
    c1, c2, c3 = st.columns(3)
    c1.download_button(
        "History (CSV)",
        lambda: history_frame(run, shown()).to_csv(index=False),
        f"{page}-history.csv",
        "text/csv",
        key=f"{page}_export_csv",
        on_click="ignore",
        icon=":material/table:",
    )
    c2.download_button(
        "Setup (JSON)",
        setup_file,
        f"{page}-setup.json",
        "application/json",
        key=f"{page}_export_setup",
        on_click="ignore",
        icon=":material/settings:",
    )
    c3.download_button(
        "Reproducibility bundle (zip)",
        bundle_file,
        f"{page}-bundle.zip",
        "application/zip",
        key=f"{page}_export_bundle",
        on_click="ignore",
        icon=":material/folder_zip:",
    )
