"""The race table both pages show beside their race chart when several variants run."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rmcore

from .charts import race_table


def table(result: rmcore.RaceResult) -> None:
    """Per variant: iterations and solver seconds to each threshold, the measure now, the solver's speed."""
    st.dataframe(pd.DataFrame(race_table(result)), hide_index=True)
    st.caption(
        "Iterations and solver seconds (per seed) until the median first reached each level, read at log-spaced "
        "checkpoints (32 per decade); a sampled variant runs once per seed and is drawn as its median with a min-max "
        "band."
    )
