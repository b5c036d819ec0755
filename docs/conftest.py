# pytest collects the pages' code examples (--doctest-glob=*.md); the Sphinx configuration is not a test module.
collect_ignore = ["conf.py", "_build"]
