"""Game file formats and other libraries' games, read into rmcore's own types (and written back)."""

from .openspiel import from_openspiel

__all__ = ["from_openspiel"]
