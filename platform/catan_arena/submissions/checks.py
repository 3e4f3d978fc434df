"""What an upload must pass before it is stored (in the web process: bytes are read and
a zip is unpacked with caps, but no uploaded code is imported or run here; that happens
in the validation task, in the sandbox)."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePath

from bots.package import ENTRY, BotPackageError, PackageLimits, unpack_zip
from catan_arena.submissions.errors import UploadRejected, UploadTooLarge

BOT_NAME = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$")


@dataclass(frozen=True)
class UploadLimits:
    upload_bytes: int
    unpacked_bytes: int
    files: int


def check_bot_name(name: str) -> str:
    """A bot's name: 1-40 lower-case letters, digits and inner hyphens."""
    if not BOT_NAME.match(name):
        raise UploadRejected(
            f"{name[:60]!r} is not a valid bot name: use 1-40 lower-case letters, digits "
            "and hyphens (not at either end)"
        )
    return name


def check_upload(filename: str, data: bytes, limits: UploadLimits) -> str:
    """The kind (``py`` or ``zip``) of an acceptable upload; ``UploadRejected`` otherwise."""
    if len(data) > limits.upload_bytes:
        raise UploadTooLarge(
            f"the file is {len(data):,} bytes; uploads are limited to {limits.upload_bytes:,}"
        )
    if not data:
        raise UploadRejected("the file is empty")
    suffix = PurePath(filename).suffix.lower()
    if suffix == ".py":
        _check_source(data, filename)
        return "py"
    if suffix == ".zip":
        _check_zip(data, limits)
        return "zip"
    raise UploadRejected(f"{filename[:80]!r}: upload a .py file or a .zip package")


def _check_source(data: bytes, name: str) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadRejected(
            f"{name[:80]!r} is not UTF-8 text (byte {exc.start}): save it as UTF-8"
        ) from None
    if b"\x00" in data:
        raise UploadRejected(f"{name[:80]!r} contains NUL bytes: it is not a Python source file")


def _check_zip(data: bytes, limits: UploadLimits) -> None:
    package = PackageLimits(
        archive_bytes=limits.upload_bytes, unpacked_bytes=limits.unpacked_bytes, files=limits.files
    )
    with tempfile.TemporaryDirectory(prefix="catan-upload-") as scratch:
        archive = Path(scratch) / "upload.zip"
        archive.write_bytes(data)
        try:
            folder = unpack_zip(archive, Path(scratch) / "unpacked", package)
        except BotPackageError as exc:
            raise UploadRejected(_without_paths(str(exc), scratch)) from None
        _check_source((folder / ENTRY).read_bytes(), ENTRY)


def _without_paths(message: str, scratch: str) -> str:
    """A package error without this server's temporary paths in it."""
    return message.replace(f"{scratch}/unpacked/", "").replace(f"{scratch}/", "")
