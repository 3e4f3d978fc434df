"""The Celery app (server mode): settings from Django's ``CELERY_*`` block, tasks found
in each app's ``tasks`` module. Tasks are thin: they call the apps' services."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_arena.settings")

app = Celery("catan_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from catan_arena.core import worker_db  # noqa: E402, F401  (its signal handlers)
