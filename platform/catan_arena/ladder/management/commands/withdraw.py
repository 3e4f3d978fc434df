"""``manage.py withdraw BOT[:N] --as USER [--undo]``: take a version off the ladder (or
put it back) on behalf of its author; the same service the API will call."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from catan_arena.accounts.models import User
from catan_arena.core.commands import AppCommand
from catan_arena.ladder.selectors import is_on_ladder
from catan_arena.ladder.services import reinstate_version, withdraw_version
from catan_arena.submissions.selectors import find_version


class Command(AppCommand):
    help = "Withdraw a bot version from the ladder (its author's choice), or --undo it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("version", help="BOT (its newest active version) or BOT:NUMBER")
        parser.add_argument("--as", dest="user", required=True, help="the author's username")
        parser.add_argument("--undo", action="store_true", help="put it back on the ladder")

    def handle(self, *args: Any, **options: Any) -> None:
        version = find_version(options["version"])
        if version is None:
            raise CommandError(f"no version {options['version']!r} (write BOT or BOT:NUMBER)")
        user = User.objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no user {options['user']!r}")
        (reinstate_version if options["undo"] else withdraw_version)(user, version)
        state = "withdrawn from the ladder" if version.withdrawn_at else "not withdrawn"
        if is_on_ladder(version):
            state = "on the ladder"
        self.stdout.write(f"{version}: {state}")
