"""The Streamlit-aware layer: session state, live-run controllers and Plotly figure builders."""
