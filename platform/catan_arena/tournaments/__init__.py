"""Tournaments: entries, their schedule of matches (``scheduling`` is pure, no Django)
and standings."""
