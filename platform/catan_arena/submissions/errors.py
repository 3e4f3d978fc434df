"""Errors of the submissions app, each a message in plain words for the author."""


class UploadRejected(Exception):
    """An upload is refused before anything is stored; the message says why."""


class UploadTooLarge(UploadRejected):
    """The upload is over the size cap (HTTP 413)."""


class BotNameTaken(UploadRejected):
    """The bot name belongs to another author (HTTP 409)."""


class StorageFull(Exception):
    """The server's storage is full: nothing was stored (HTTP 507); not the author's
    fault, try again later."""
