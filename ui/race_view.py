"""The race section both pages show when several variants run: the overlaid chart and the table."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rmcore

from .charts import race_figure, race_table
from .live_chart import live_chart


def race_section(result: rmcore.RaceResult, key: str, config: dict, extra_traces=()) -> None:
    """The race chart (median and band per variant, with the 1/√T and 1/T guides) and its table."""
    live_chart(race_figure(result, extra_traces), key=key, config=config)
    race_table_only(result)


def race_table_only(result: rmcore.RaceResult) -> None:
    st.dataframe(pd.DataFrame(race_table(result)), hide_index=True, key=None)
    st.caption(
        "Iterations and solver seconds (per seed) until the median first reached each level, read at log-spaced "
        "checkpoints (32 per decade); a sampled variant runs once per seed and is drawn as its median with a min-max band."
    )
