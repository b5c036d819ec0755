"""The race table both pages show beside their race chart when several variants run."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rmcore
from rmcore.plotting.charts import GAP_AXIS, race_table

from . import explain_app


def table(result: rmcore.RaceResult, rank_by: str = "average") -> None:
    """Per variant: iterations and solver seconds to each threshold, the measure now, the solver's speed.

    Where every variant has its current profile's measure (``Standing.current_gap``: in self-play) the table has a
    column for it and ranks the variants, best first, by the average's measure or (``rank_by="current"``) by the
    current one's.
    """
    rows = race_table(result)
    current = [s.current_gap for s in result.standings]
    if all(gap is not None for gap in current):
        name = GAP_AXIS.get(result.gap_name, result.gap_name)
        rows = [_beside_the_average(row, name, gap) for row, gap in zip(rows, current)]
        ranked = current if rank_by == "current" else [s.gap for s in result.standings]
        order = sorted(range(len(rows)), key=lambda k: (not ranked[k] <= float("inf"), ranked[k]))  # (NaN last)
        rows = [{"rank": place, **rows[k]} for place, k in enumerate(order, 1)]
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.caption(explain_app.RACE_TABLE)


def _beside_the_average(row: dict, name: str, current: float) -> dict:
    """``row`` with its average's column (``name``, the measure's) named as such and the last iterate's right after."""
    out = {}
    for column, value in row.items():
        if column == name:
            out[f"average's {name}"] = value
            out[f"last iterate's {name}"] = f"{current:.3e}"
        else:
            out[column] = value
    return out
