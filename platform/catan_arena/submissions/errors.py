"""Errors of the submissions app, each a message in plain words for the author."""


class UploadRejected(Exception):
    """An upload is refused before anything is stored; the message says why."""
