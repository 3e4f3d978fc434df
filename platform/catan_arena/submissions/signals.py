"""Hooks of the submissions app, for the apps above it (which subscribe in their
``AppConfig.ready()``)."""

from __future__ import annotations

from django.dispatch import Signal

version_activated = Signal()
"""Sent with ``version`` when validation makes a version ``active`` (the ladder tops
up at once, so a newcomer starts playing)."""
