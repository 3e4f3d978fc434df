"""Bot packages: a bot is one ``.py`` file, a folder whose entry module is ``bot.py``
(helper modules and data files beside it), or a ``.zip`` of such a folder — the format
uploads use too.

:func:`unpack_zip` extracts a package safely, whatever the archive claims: caps on the
archive's size, the unpacked size and the number of files; no absolute paths, no ``..``,
no links or special files, no duplicate names; sizes counted while extracting (a zip
header can lie), so a zip bomb stops at the cap. Every refusal is a
:class:`BotPackageError` saying why, and leaves nothing behind.

:func:`check_package` is the check of an upload's bytes (the platform's upload and
``catan-arena validate`` both run it): the size cap, a ``.py`` file that is UTF-8 source,
or a ``.zip`` that unpacks within the caps to a package whose ``bot.py`` is.
"""

from __future__ import annotations

import io
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath

from bots.registry import BotLoadError

ENTRY = "bot.py"
"""The module a package's ``Player`` lives in (at the top of the folder or zip)."""


class BotPackageError(BotLoadError):
    """A bot package is refused; the message says why in plain words."""


class PackageTooLarge(BotPackageError):
    """The file is over the upload size cap (a server answers 413)."""


@dataclass(frozen=True)
class PackageLimits:
    archive_bytes: int = 16 << 20
    unpacked_bytes: int = 64 << 20
    files: int = 500


def entry_of(folder: Path) -> Path:
    """The entry module of a package folder (``BotPackageError`` if it has none)."""
    entry = folder / ENTRY
    if not entry.is_file():
        raise BotPackageError(f"{folder}: a bot folder needs its entry module {ENTRY}")
    return entry


def unpack_zip(archive: Path, dest: Path, limits: PackageLimits | None = None) -> Path:
    """Extract ``archive`` into the new folder ``dest``; return it (its ``bot.py`` at the
    top: a single top-level folder in the zip is looked through)."""
    limits = limits or PackageLimits()
    try:
        size = archive.stat().st_size
    except OSError as exc:
        raise BotPackageError(f"{archive}: cannot read it ({exc.strerror})") from None
    if size > limits.archive_bytes:
        raise BotPackageError(f"{archive.name}: {size} bytes, over {limits.archive_bytes}")
    try:
        with zipfile.ZipFile(archive) as zf:
            members = _checked_members(zf, limits)
            dest.mkdir(parents=True)
            try:
                _extract(zf, members, dest, limits)
            except BaseException:
                shutil.rmtree(dest, ignore_errors=True)
                raise
    except zipfile.BadZipFile as exc:
        raise BotPackageError(f"{archive.name}: not a zip file, or a damaged one ({exc})") from None
    tops = list(dest.iterdir())
    if not (dest / ENTRY).exists() and len(tops) == 1 and tops[0].is_dir():
        return entry_of(tops[0]).parent
    return entry_of(dest).parent


def _checked_members(zf: zipfile.ZipFile, limits: PackageLimits) -> list[zipfile.ZipInfo]:
    members = zf.infolist()
    if len(members) > limits.files:
        raise BotPackageError(f"{len(members)} entries, over {limits.files}")
    seen: set[str] = set()
    for info in members:
        name = info.filename
        path = PurePosixPath(name)
        if name.startswith("/") or "\\" in name or (path.parts and ":" in path.parts[0]):
            raise BotPackageError(f"{name!r}: an absolute path")
        if ".." in path.parts:
            raise BotPackageError(f"{name!r}: a path with '..'")
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise BotPackageError(f"{name!r}: links and special files are not allowed")
        key = name.rstrip("/").lower()
        if key in seen:
            raise BotPackageError(f"{name!r}: appears twice")
        seen.add(key)
    return members


def _extract(
    zf: zipfile.ZipFile, members: list[zipfile.ZipInfo], dest: Path, limits: PackageLimits
) -> None:
    total = 0
    for info in members:
        target = dest.joinpath(*PurePosixPath(info.filename).parts)
        if info.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with zf.open(info) as src, open(target, "xb") as out:
            while chunk := src.read(1 << 16):
                total += len(chunk)
                if total > limits.unpacked_bytes:
                    raise BotPackageError(
                        f"unpacks to more than {limits.unpacked_bytes} bytes (a zip bomb?)"
                    )
                out.write(chunk)


def check_package(filename: str, data: bytes, limits: PackageLimits) -> str:
    """The kind (``py`` or ``zip``) of an acceptable upload named ``filename`` with the
    bytes ``data``; :class:`BotPackageError` (:class:`PackageTooLarge` for the size cap)
    saying why otherwise. Nothing is imported or run."""
    if len(data) > limits.archive_bytes:
        raise PackageTooLarge(
            f"the file is {len(data):,} bytes; uploads are limited to {limits.archive_bytes:,}"
        )
    if not data:
        raise BotPackageError("the file is empty")
    suffix = PurePath(filename).suffix.lower()
    if suffix == ".py":
        _check_source(data, filename)
        return "py"
    if suffix == ".zip":
        _check_zip(data, limits)
        return "zip"
    raise BotPackageError(f"{filename[:80]!r}: upload a .py file or a .zip package")


def upload_bytes(path: Path) -> tuple[str, bytes]:
    """What uploading the bot at ``path`` sends: a file's name and bytes, or a package
    folder as a zip (``<folder>.zip``, its files at the top)."""
    if not path.is_dir():
        return path.name, path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for item in sorted(path.rglob("*")):
            if "__pycache__" in item.relative_to(path).parts:
                continue
            if item.is_file() or item.is_dir():
                zf.write(item, item.relative_to(path).as_posix())
    return f"{path.name}.zip", buffer.getvalue()


def _check_source(data: bytes, name: str) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BotPackageError(
            f"{name[:80]!r} is not UTF-8 text (byte {exc.start}): save it as UTF-8"
        ) from None
    if b"\x00" in data:
        raise BotPackageError(f"{name[:80]!r} contains NUL bytes: it is not a Python source file")


def _check_zip(data: bytes, limits: PackageLimits) -> None:
    with tempfile.TemporaryDirectory(prefix="catan-upload-") as scratch:
        archive = Path(scratch) / "upload.zip"
        archive.write_bytes(data)
        try:
            folder = unpack_zip(archive, Path(scratch) / "unpacked", limits)
            _check_source((folder / ENTRY).read_bytes(), ENTRY)
        except BotPackageError as exc:
            raise type(exc)(_without_paths(str(exc), scratch)) from None


def _without_paths(message: str, scratch: str) -> str:
    """A package error without the temporary paths in it."""
    return message.replace(f"{scratch}/unpacked/", "").replace(f"{scratch}/", "")
