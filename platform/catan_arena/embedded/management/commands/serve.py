"""``manage.py serve`` (``make serve``): the whole platform on the embedded default in
one process tree: the site, local workers that play matches and validate uploads, and
the scheduler (ladder top-ups, tournament starts, the reaper)."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser

from catan_arena.core.commands import AppCommand
from catan_arena.embedded.supervisor import ServeOptions, default_match_workers, serve


class Command(AppCommand):
    help = "Run the whole platform (site, workers, scheduler) on the embedded default."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
        parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
        parser.add_argument(
            "--workers",
            type=int,
            default=default_match_workers(),
            help="match worker processes (default: cores - 1, at least 1)",
        )
        parser.add_argument(
            "--validation-workers", type=int, default=1, help="validation worker processes"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.EMBEDDED:
            raise CommandError(
                "serve runs the embedded default; with CELERY_BROKER_URL set, run the web, "
                "`celery -A catan_arena worker` and one `celery -A catan_arena beat` instead"
            )
        if options["workers"] < 1 or options["validation_workers"] < 1:
            raise CommandError("--workers and --validation-workers must be at least 1")
        call_command("migrate", verbosity=0)
        opts = ServeOptions(
            host=options["host"],
            port=options["port"],
            match_workers=options["workers"],
            validation_workers=options["validation_workers"],
        )
        code = serve(opts, self._say)
        if code:
            sys.exit(code)

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
