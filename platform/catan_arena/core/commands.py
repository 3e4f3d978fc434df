"""Management commands' side of :class:`~catan_arena.core.errors.AppError`, defined
once: a service's refusal ends the command as a ``CommandError`` (its message, exit 1)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from catan_arena.core.errors import AppError


class AppCommand(BaseCommand):
    """A command whose services' refusals are its errors (``refused`` goes first)."""

    refused = ""

    def execute(self, *args: Any, **options: Any) -> str | None:
        try:
            return super().execute(*args, **options)
        except AppError as exc:
            raise CommandError(f"{self.refused}{exc.message}") from None
