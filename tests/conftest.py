"""Shared test set-up."""

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
