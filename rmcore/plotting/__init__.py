"""The figures of rmcore's dashboard, free of Streamlit: a solver's history and its game -> a Plotly figure as a plain
dict (Plotly's JSON schema), so that the dashboard's pages and a notebook draw the same figure.

- :mod:`~rmcore.plotting.charts`: the pieces every figure shares (colours, layout, log ticks) and the race chart;
- :mod:`~rmcore.plotting.matrix`: a matrix game's strategies, simplex or square, convergence (NashConv against the
  regret bound) and regrets;
- :mod:`~rmcore.plotting.space`: the strategy space with the field under the rule (:mod:`~rmcore.plotting.fields`,
  the continuous dynamics behind the rules);
- :mod:`~rmcore.plotting.correlated`: a general-sum game's joint play beside its correlated equilibria;
- :mod:`~rmcore.plotting.trees`: a game tree's policies and trajectories;
- :mod:`~rmcore.plotting.words`: every title, legend entry and hover the figures draw;
- :mod:`~rmcore.plotting.images`: figures drawn as PNG, SVG or PDF by kaleido;
- :mod:`~rmcore.plotting.live`: a solver watched live in a notebook cell, :func:`watch`;

``import rmcore`` never imports this package, and the figure modules need numpy alone: a dict becomes a Plotly figure
with ``plotly.graph_objects.Figure(spec)``. Only :func:`watch` needs the notebook extra (plotly,
ipywidgets, anywidget and kaleido: ``pip install 'rmcore[notebook]'``).
"""

from .live import Watch, watch

__all__ = ["Watch", "watch"]
