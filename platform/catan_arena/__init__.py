"""Catan Arena's Django project package (the platform: uploads, matches, tournaments,
ratings). ``platform/`` is a source root, never a package itself: a package named
``platform`` would shadow the standard library's module.

The Celery app is imported here (Celery's Django recipe) so that ``shared_task`` binds to
it whenever Django starts."""

from catan_arena.celery import app as celery_app

__all__ = ["celery_app"]
