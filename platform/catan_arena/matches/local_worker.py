"""The entry points of an embedded-default worker process (spawned: it sets Django up
itself, so nothing here may import models at module level)."""

from __future__ import annotations

import os


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_arena.settings")
    import django

    django.setup()
    from multiprocessing import util

    from catan_arena.matches.play import close_worker_runner
    from catan_arena.matches.priority import lower_worker_priority

    lower_worker_priority()  # below the site's (make serve runs both on one host)
    # A pool process leaves through os._exit (no atexit): a finaliser kills its blanks.
    util.Finalize(None, close_worker_runner, exitpriority=10)


def play(match_id: int) -> str | None:
    from catan_arena.matches.services import run_match

    return run_match(match_id)
