"""The race table both pages show beside their race chart when several variants run."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rmcore

from .charts import race_table

#: The race table's column of the current policies' measure (the tree page's, where the history has it).
CURRENT_COLUMN = "current policy's exploitability"


def table(result: rmcore.RaceResult, current: list[float] | None = None, rank_by: str = "average") -> None:
    """Per variant: iterations and solver seconds to each threshold, the measure now, the solver's speed.

    With ``current`` (each variant's current policy's exploitability now) the table has a column for it and ranks the
    variants, best first, by the average's measure or (``rank_by="current"``) by the current policy's.
    """
    rows = race_table(result)
    if current is not None:
        rows = [_beside_the_average(row, result.gap_name, gap) for row, gap in zip(rows, current)]
        ranked = current if rank_by == "current" else [s.gap for s in result.standings]
        order = sorted(range(len(rows)), key=lambda k: (not ranked[k] <= float("inf"), ranked[k]))  # (NaN last)
        rows = [{"rank": place, **rows[k]} for place, k in enumerate(order, 1)]
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.caption(
        "Iterations and solver seconds (per seed) until the median first reached each level, read at log-spaced "
        "checkpoints (32 per decade); a sampled variant runs once per seed and is drawn as its median with a min-max "
        "band."
    )


def _beside_the_average(row: dict, gap_name: str, current: float) -> dict:
    """``row`` with its average's column named as such and the current policy's right after it."""
    out = {}
    for column, value in row.items():
        if column == gap_name:
            out[f"average's {gap_name}"] = value
            out[CURRENT_COLUMN] = f"{current:.3e}"
        else:
            out[column] = value
    return out
