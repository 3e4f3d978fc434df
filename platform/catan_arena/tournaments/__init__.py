"""Tournaments: formats, entries, schedules (``scheduling`` is pure, no Django)."""
