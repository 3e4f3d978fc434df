"""Errors of the submissions app, each a message in plain words for the author
(:class:`~catan_arena.core.errors.AppError`: each door maps them once)."""

from catan_arena.core.errors import Conflict, Invalid, TooLarge, Unavailable


class UploadRejected(Invalid):
    """An upload is refused before anything is stored; the message says why (the
    ``file`` field's error)."""

    field: str | None = "file"


class UploadTooLarge(TooLarge, UploadRejected):
    """The upload is over the size cap (HTTP 413)."""

    field = None


class BotNameTaken(Conflict, UploadRejected):
    """The bot name belongs to another author (HTTP 409)."""

    field = None


class StorageFull(Unavailable):
    """The server's storage is full: nothing was stored (HTTP 507); not the author's
    fault, try again later."""

    status = 507
    code = "storage_full"
