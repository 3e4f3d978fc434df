"""``manage.py upload_bot FILE --name NAME --owner USER``: upload a bot version.

On the embedded default (no broker) the version is validated here, in the sandbox, as a
worker would; in server mode a worker validates it and this command can ``--wait``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from catan_arena.accounts.models import User
from catan_arena.core.commands import AppCommand
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import (
    ValidationUnavailable,
    upload_version,
    validate_version,
)


class Command(AppCommand):
    help = "Upload a bot file (.py) or package (.zip) as the next version of a bot."
    refused = "upload refused: "

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--name", required=True, help="the bot's name (made if new)")
        parser.add_argument("--owner", required=True, help="the author's username (made if new)")
        parser.add_argument("--wait", action="store_true", help="server mode: wait for validation")
        parser.add_argument(
            "--inherit-rating",
            action="store_true",
            help="start on the ladder from the bot's current rating (uncertainty widened)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        owner, _ = User.objects.get_or_create(username=options["owner"])
        outcome = upload_version(
            owner, options["name"], path.name, data, inherit_rating=options["inherit_rating"]
        )
        self.stdout.write(outcome.message)
        version = outcome.version
        if outcome.created and settings.EMBEDDED:
            try:
                validate_version(version.pk)
            except ValidationUnavailable as exc:
                raise CommandError(f"validation could not run here: {exc}") from None
        elif options["wait"]:
            while version.status in BotVersion.IN_VALIDATION:
                time.sleep(0.5)
                version.refresh_from_db()
        version.refresh_from_db()
        self.stdout.write(f"{version}: {version.status}")
        if version.report:
            self.stdout.write(version.report)
        if version.status == BotVersion.Status.REJECTED:
            raise CommandError(f"{version} was rejected (see the report above)")
