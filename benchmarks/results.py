"""The data files under ``docs/performance/`` and the figures the documentation draws from them.

Every measurement is a row (:class:`rmcore.bench.Row`: a key, its words, a value and its unit, the baseline, their
ratio, the target and whether it was met), written with the command, the date, the machine and its load:

- ``python -m rmcore bench`` writes ``bench.json`` (the kernels against their baselines, the compile times);
- each script of :mod:`benchmarks` writes its own (``browser.json``, ``load.json``, ``cold_start.json``, ...).

A script measures some rows at a time (one page, one session count); :func:`write` keeps the rows of other keys
already in its file, so a file grows to hold every case the documentation cites.

The documentation never types a measured figure: ``docs/conf.py`` makes each row a MyST substitution
(:func:`substitutions`; the key ``tree_cfr_leduc`` is ``{{ tree_cfr_leduc }}``, its ratio
``{{ tree_cfr_leduc_ratio }}``) and renders each file as a table (:func:`table`), and ``tests/test_docs_figures.py``
fails when prose states a timing, a rate or a ratio that no data file holds. A row not measured yet shows as such.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from rmcore import config
from rmcore.bench import Row, describe, markdown_table, write_json

__all__ = [
    "DATA",
    "Row",
    "write",
    "rows",
    "substitution_name",
    "formatted",
    "substitutions",
    "settings",
    "table",
    "NOT_MEASURED",
]

#: Where the data files live.
DATA = Path(__file__).resolve().parent.parent / "docs" / "performance"
#: What a figure says before its row is measured.
NOT_MEASURED = "(not measured yet)"
_UNITS = {"us": "µs"}


def write(name: str, measured: list[Row], command: str) -> Path:
    """Add ``measured`` to the data file ``docs/performance/{name}.json`` (a row of a key already there is replaced),
    each with ``command``, the date, the machine and its load."""
    path = DATA / f"{name}.json"
    write_json(str(path), measured, dict(describe(), command=command))
    return path


def rows() -> dict[str, dict]:
    """Every row of every data file, by key (``{"key", "name", "value", "unit", ..., "file"}``)."""
    found = {}
    for path in sorted(DATA.glob("*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")).get("rows", []):
            found[row["key"]] = dict(row, file=path.name)
    return found


def substitution_name(key: str) -> str:
    """A row's key as a MyST substitution name (a Python identifier): ``+`` is ``_plus``, any other character that is
    not a letter, a digit or ``_`` is ``_``."""
    return re.sub(r"\W", "_", key.replace("+", "_plus"))


def _number(value: float) -> str:
    """Three significant figures, thousands separated: ``28.2``, ``0.114``, ``1,745``."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    digits = max(3 - int(math.floor(math.log10(abs(value)))) - 1, 0)
    return f"{value:,.{digits}f}"


def formatted(row: dict) -> str:
    """A row's value as prose states it: three significant figures (:func:`_number`), then its unit (``ns``, ``x``
    right after the number, ``updates a second``)."""
    unit = _UNITS.get(row["unit"], row["unit"])
    if unit == "x":
        return f"{_number(row['value'])}x"
    return f"{_number(row['value'])} {unit}"


def substitutions() -> dict[str, str]:
    """Every row as MyST substitutions: ``{name}`` its value, ``{name}_ratio``, ``{name}_baseline``, ``{name}_target``
    where it has them, ``{name}_date`` and ``{name}_machine``; and :func:`settings`."""
    out = dict(settings())
    for key, row in rows().items():
        name = substitution_name(key)
        out[name] = formatted(row)
        if row.get("ratio") is not None:
            out[f"{name}_ratio"] = f"{_number(row['ratio'])}x"
        for field in ("baseline", "target", "date", "machine"):
            if row.get(field):
                out[f"{name}_{field}"] = str(row[field])
    return out


#: The rate a page running alone should reach, as a share of the library's own (``benchmarks/leduc_rate.py``).
PAGE_RATE_TARGET = 0.6


def settings() -> dict[str, str]:
    """The configured numbers prose names beside the measured ones: settings, not measurements, read from the code so
    that they cannot drift from it (``{{ setting_update_interval }}`` is ``0.1 s``)."""
    from ui import governor, live
    from ui.matrix import animation

    return {
        "setting_update_interval": f"{live.UPDATE_INTERVAL:g} s",
        "setting_solver_budget": f"{live.TIME_BUDGET * 1000:g} ms",
        "setting_max_budget": f"{governor.MAX_BUDGET * 1000:g} ms",
        "setting_min_budget": f"{governor.MIN_BUDGET * 1000:g} ms",
        "setting_round": f"{governor.ROUND:g} s",
        "setting_headroom": f"{governor.HEADROOM:.0%}",
        "setting_piece": f"{live.PIECE * 1000:g} ms",
        "setting_page_rate_target": f"{PAGE_RATE_TARGET:g}x",
        "setting_poll": f"{governor.POLL * 1000:g} ms",
        "setting_send_wait": f"{live.SEND_WAIT:g} s",
        "setting_idle_after": f"{governor.IDLE_AFTER:g} s",
        "setting_link_work": f"{live.LINK_WORK_SECONDS:g} s",
        "setting_fps": f"{animation.FPS} frames a second",
        "setting_history_share": f"{config.HISTORY_SHARE:.0%}",
        "setting_max_points": f"{config.DEFAULT_MAX_POINTS + 1:,}",
    }


def table(file: str) -> str:
    """The rows of one data file as a Markdown table, with the command, the date, the machine and the load above it;
    a note that it is not measured yet when the file is not there."""
    path = DATA / file
    if not path.exists():
        return f"{NOT_MEASURED}: the command above writes `docs/performance/{file}`.\n"
    found = json.loads(path.read_text(encoding="utf-8")).get("rows", [])
    runs = sorted({(row.get("command", ""), row.get("date", ""), row.get("machine", "")) for row in found})
    lines = []
    for command, date, machine in runs:
        loads = [
            row["load_average"] for row in found if row.get("date") == date and row.get("load_average") is not None
        ]
        load = f"; load average {loads[0]:.1f} at the start" if loads else ""
        lines.append(f"Measured by `{command}` on {date}, on {machine}{load}.")
    return "\n\n".join(lines) + "\n\n" + markdown_table(found) + "\n"
