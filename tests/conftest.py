"""Shared test set-up."""

import sys

import pytest

import rmcore

# Files saved from earlier versions, and the script that wrote them with that version's code (not this one's).
collect_ignore = ["saved"]


@pytest.fixture(autouse=True)
def _library_default_compiles():
    """The app turns background compiles on (``rmcore.compile_in_background``); an AppTest runs the app in this process.
    Put the library's default back after every test, so that later tests neither run as plain Python nor start compile
    processes of their own."""
    before = rmcore.compiles_in_background()
    yield
    rmcore.compile_in_background(before)


@pytest.fixture(autouse=True)
def _this_process_main_module():
    """An AppTest runs the app as this process's ``__main__`` and leaves it there: a process started later by spawning
    (a Dask worker of a sweep's doctest) would then run app.py as its own main module, turning background compiles
    on in the worker (its Liar's dice cell then failed with "the tree kernels are compiling"). Put the main module
    back after every test."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
