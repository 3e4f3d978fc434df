"""``manage.py recompute_ratings``: rebuild every rating and its history from scratch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from catan_arena.ratings.services import recompute_ratings


class Command(BaseCommand):
    help = "Rebuild every ladder rating and its history from the finished ladder matches."

    def handle(self, *args: Any, **options: Any) -> None:
        rated = recompute_ratings()
        self.stdout.write(f"recomputed the ladder from {rated} finished ladder matches")
