"""Game file formats and other libraries' games, read into rmcore's own types (and written back)."""

from .efg import read_efg, write_efg
from .nfg import read_nfg, write_nfg
from .openspiel import from_openspiel, load_openspiel

__all__ = ["from_openspiel", "load_openspiel", "read_efg", "write_efg", "read_nfg", "write_nfg"]
