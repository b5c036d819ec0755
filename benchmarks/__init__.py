"""Measurement scripts: each runs one measurement, prints it, and writes its rows to a data file under
``docs/performance/`` (:mod:`benchmarks.results`), from which the documentation draws every figure it states.

None of them is a test: speed depends on the machine and its load, so a script prints numbers and a person reads them.
The documentation's page on performance lists each script with what it measures and how to run it.
"""
