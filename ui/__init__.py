"""The Streamlit-aware layer: session state, live-run controllers and Plotly figure builders.

The game-tree page's folder is ``ui/trees`` (named ``ui.poker`` for one release: code that imports ``ui.poker`` or
``ui.poker.settings`` still runs, with a ``DeprecationWarning`` naming the new module, through the same finder of moved
modules the library uses, ``rmcore._deprecated``).
"""

from rmcore._deprecated import install_moved_modules

#: Each earlier module name and where it lives now.
MOVED_MODULES = {
    "ui.poker": "ui.trees",
    **{
        f"ui.poker.{name}": f"ui.trees.{name}"
        for name in (
            "exact",
            "explorer",
            "figures",
            "fixed",
            "games",
            "lesson",
            "play",
            "settings",
            "view",
            "walkthrough",
        )
    },
}
install_moved_modules(MOVED_MODULES, "ui")
