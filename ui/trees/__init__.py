"""The game-tree page's settings, view, figures and lessons (``app_pages/trees.py``)."""
