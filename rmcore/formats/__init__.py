"""Game file formats."""

from .nfg import read_nfg, write_nfg

__all__ = ["read_nfg", "write_nfg"]
