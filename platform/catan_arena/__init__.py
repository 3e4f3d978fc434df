"""Catan Arena's Django project package (the platform: uploads, matches, tournaments,
ratings). ``platform/`` is a source root, never a package itself: a package named
``platform`` would shadow the standard library's module."""
