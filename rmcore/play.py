"""The path of one release ago of :mod:`rmcore.trees.play`: each name read here warns and is that module's
(``rmcore._deprecated.MOVED_MODULES``; the path goes in the release ``rmcore._deprecated.REMOVED_IN`` names)."""

from ._deprecated import moved_module

__getattr__ = moved_module(__name__)
