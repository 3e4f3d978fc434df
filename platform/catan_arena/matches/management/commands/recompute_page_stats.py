"""``manage.py recompute_page_stats``: rebuild the pages' tallies from the history."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from catan_arena.matches.tallies import recompute_tallies


class Command(BaseCommand):
    help = (
        "Rebuild every version's seat tallies and head-to-head from the finished matches "
        "(after history was written behind the services' back)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        counted = recompute_tallies()
        self.stdout.write(f"recounted the pages' tallies from {counted} finished matches")
