"""Data for the welcome page."""

import pandas as pd
import streamlit as st

import rmcore


@st.cache_data(show_spinner=False)
def quick_demo(iterations: int) -> pd.DataFrame:
    """Average strategies of RM self-play on RPS with a crash beside the exact equilibrium."""
    game = rmcore.preset("rps-crash")
    solver = rmcore.MatrixSolver(game)
    solver.run(iterations)
    metrics = solver.metrics()
    return pd.DataFrame(
        {
            "action": game.row_actions,
            "average strategy": solver.average_policy()["row"].round(4),
            "equilibrium": game.equilibria[0].row,
            f"nash_conv after {iterations:,}": [f"{metrics.nash_conv:.2e}", "", ""],
        }
    )
