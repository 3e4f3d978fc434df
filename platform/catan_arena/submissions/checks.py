"""What an upload must pass before it is stored (in the web process: bytes are read and
a zip is unpacked with caps, but no uploaded code is imported or run here; that happens
in the validation task, in the sandbox). The check itself is
:func:`bots.package.check_package`, the one ``catan-arena validate`` runs too."""

from __future__ import annotations

import re

from bots.package import BotPackageError, PackageLimits, PackageTooLarge, check_package
from catan_arena.submissions.errors import UploadRejected, UploadTooLarge

BOT_NAME = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$")


def check_bot_name(name: str) -> str:
    """A bot's name: 1-40 lower-case letters, digits and inner hyphens."""
    if not BOT_NAME.match(name):
        raise UploadRejected(
            f"{name[:60]!r} is not a valid bot name: use 1-40 lower-case letters, digits "
            "and hyphens (not at either end)"
        )
    return name


def check_upload(filename: str, data: bytes, limits: PackageLimits) -> str:
    """The kind (``py`` or ``zip``) of an acceptable upload; ``UploadRejected`` otherwise."""
    try:
        return check_package(filename, data, limits)
    except PackageTooLarge as exc:
        raise UploadTooLarge(str(exc)) from None
    except BotPackageError as exc:
        raise UploadRejected(str(exc)) from None
