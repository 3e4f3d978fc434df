"""``manage.py ab_test A B``: does version B beat version A? Paired duplicate games until
the sequential test decides (embedded default: played here on local workers; server
mode: on the Celery workers, followed here)."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from rich.console import Console
from rich.markup import escape

from catan_arena.abtests.models import ABTest
from catan_arena.abtests.selectors import describe
from catan_arena.abtests.services import (
    DEFAULT_MARGIN,
    ladder_limits,
    request_ab_test,
)
from catan_arena.core.commands import AppCommand
from catan_arena.core.limits import AB_PAIRS_DEFAULT
from catan_arena.matches.embedded import default_processes, run_embedded
from catan_arena.matches.models import Match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import find_version
from catan_arena.submissions.services import register_builtins


def version_of(spec: str) -> BotVersion:
    """The version ``spec`` names (``BOT`` or ``BOT:NUMBER``), or a clear error."""
    version = find_version(spec)
    if version is None:
        raise CommandError(f"no version {spec!r} (write BOT or BOT:NUMBER)")
    return version


class Command(AppCommand):
    help = "A/B test: does version B beat version A? (paired duplicate games, SPRT)"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("a", help="version A: BOT or BOT:NUMBER")
        parser.add_argument("b", help="version B: BOT or BOT:NUMBER")
        parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN)
        parser.add_argument("--max-pairs", type=int, default=AB_PAIRS_DEFAULT)
        parser.add_argument("--decision-seconds", type=float, default=None)
        parser.add_argument("--processes", type=int, default=None, help="local workers")

    def handle(self, *args: Any, **options: Any) -> None:
        console = Console(highlight=False)
        register_builtins()
        a, b = version_of(options["a"]), version_of(options["b"])
        test = request_ab_test(
            b.bot.owner,
            a,
            b,
            margin=options["margin"],
            max_pairs=options["max_pairs"],
            limits=ladder_limits(options["decision_seconds"]),
        )
        console.print(f"A/B test {test.pk}: {escape(str(b))} against {escape(str(a))}")
        processes = options["processes"] or default_processes()
        while test.status == ABTest.Status.RUNNING:
            if settings.EMBEDDED:
                queued = Match.objects.filter(ab_test=test, status=Match.Status.QUEUED)
                ids = list(queued.order_by("id").values_list("pk", flat=True))
                run_embedded(ids, min(processes, max(1, len(ids))), lambda *_: None)
            else:
                time.sleep(1.0)
            test.refresh_from_db()
            console.print(escape(describe(test)))
