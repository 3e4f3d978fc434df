"""Uploads: every refusal is a clear message and stores nothing; identical content is a
no-op that says so; versions are numbered per bot."""

from __future__ import annotations

import zipfile
from collections.abc import Callable

import pytest
from django.test import override_settings

from catan_arena.accounts.models import User
from catan_arena.submissions.errors import UploadRejected
from catan_arena.submissions.models import Bot, BotContent, BotVersion
from catan_arena.submissions.services import upload_version
from tests.support.bots import VALID_BOT

pytestmark = pytest.mark.django_db


def stored() -> tuple[int, int, int]:
    return Bot.objects.count(), BotVersion.objects.count(), BotContent.objects.count()


def refused(author: User, filename: str, data: bytes, name: str = "newbot") -> str:
    before = stored()
    with pytest.raises(UploadRejected) as caught:
        upload_version(author, name, filename, data)
    assert stored() == before, "a refused upload must store nothing"
    return str(caught.value)


def test_a_py_file_becomes_version_1_pending(author: User) -> None:
    outcome = upload_version(author, "wanderer", "wanderer.py", VALID_BOT)
    assert outcome.created
    version = outcome.version
    assert (version.number, version.status, version.kind) == (1, "pending", "py")
    assert bytes(version.content.data) == VALID_BOT
    assert version.bot.owner == author


def test_identical_content_is_a_no_op_that_says_so(author: User) -> None:
    first = upload_version(author, "wanderer", "a.py", VALID_BOT).version
    again = upload_version(author, "wanderer", "b.py", VALID_BOT)
    assert not again.created
    assert again.version == first
    assert "identical to wanderer v1" in again.message
    assert stored() == (1, 1, 1)


def test_new_content_is_the_next_version(author: User) -> None:
    upload_version(author, "wanderer", "a.py", VALID_BOT)
    second = upload_version(author, "wanderer", "a.py", VALID_BOT + b"\n# v2\n").version
    assert second.number == 2


def test_another_authors_bot_name_is_refused(author: User, other_author: User) -> None:
    upload_version(author, "wanderer", "a.py", VALID_BOT)
    message = refused(other_author, "a.py", VALID_BOT + b"#", name="wanderer")
    assert "belongs to another author" in message


@pytest.mark.parametrize("name", ["", "UPPER", "-dash", "a" * 41, "has space", "../x"])
def test_bad_bot_names(author: User, name: str) -> None:
    assert "not a valid bot name" in refused(author, "a.py", VALID_BOT, name=name)


@override_settings(UPLOAD_MAX_BYTES=1000)
def test_an_oversized_file(author: User) -> None:
    message = refused(author, "big.py", b"#" * 1001)
    assert "1,001 bytes" in message and "limited to 1,000" in message


def test_not_utf8(author: User) -> None:
    assert "not UTF-8" in refused(author, "latin.py", "x = 'café'\n".encode("latin-1"))


def test_nul_bytes(author: User) -> None:
    assert "NUL" in refused(author, "bin.py", b"x = 1\x00\x01")


def test_an_empty_file(author: User) -> None:
    assert "empty" in refused(author, "a.py", b"")


def test_another_extension(author: User) -> None:
    assert "upload a .py file or a .zip" in refused(author, "bot.exe", b"MZ")


def test_not_a_zip(author: User) -> None:
    assert "not a zip file" in refused(author, "bot.zip", b"PK\x03\x04 this is junk" * 10)


def test_a_zip_package_is_accepted(author: User, zip_of: Callable[..., bytes]) -> None:
    data = zip_of({"bot.py": VALID_BOT, "helper.py": b"X = 1\n"})
    assert upload_version(author, "zipped", "zipped.zip", data).version.kind == "zip"


def test_a_zip_without_its_entry_module(author: User, zip_of: Callable[..., bytes]) -> None:
    assert "bot.py" in refused(author, "p.zip", zip_of({"main.py": VALID_BOT}))


@pytest.mark.parametrize("evil", ["../escape.py", "pkg/../../escape.py", "/etc/cron.d/x"])
def test_a_zip_with_parent_or_absolute_paths(
    author: User, zip_of: Callable[..., bytes], evil: str
) -> None:
    message = refused(author, "p.zip", zip_of({"bot.py": VALID_BOT, evil: b"x"}))
    assert "absolute" in message or ".." in message


def test_a_zip_with_a_link(author: User, zip_of: Callable[..., bytes]) -> None:
    message = refused(author, "p.zip", zip_of({"bot.py": VALID_BOT}, symlinks=("passwd",)))
    assert "link" in message


@override_settings(UPLOAD_UNPACKED_MAX_BYTES=1 << 20)
def test_a_zip_bomb_stops_at_the_cap(author: User, tmp_path: object) -> None:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("bot.py", VALID_BOT)
        zf.writestr("zeros.bin", b"\0" * (8 << 20))  # 8 MiB that compress to ~8 KiB
    data = buffer.getvalue()
    assert len(data) < 64 << 10
    assert "zip bomb" in refused(author, "bomb.zip", data)


def test_a_zip_whose_header_lies_about_sizes(author: User) -> None:
    """The caps count bytes while extracting: a header claiming tiny sizes is no help."""
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bot.py", VALID_BOT)
        zf.writestr("zeros.bin", b"\0" * (40 << 20))
    data = bytearray(buffer.getvalue())
    # Rewrite the central directory's uncompressed size of zeros.bin to 1 byte.
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (1).to_bytes(4, "little")
    message = refused(author, "liar.zip", bytes(data))
    assert "damaged" in message and "Bad CRC-32" in message


@override_settings(UPLOAD_MAX_FILES=5)
def test_a_zip_with_too_many_files(author: User, zip_of: Callable[..., bytes]) -> None:
    files = {f"m{i}.py": b"" for i in range(6)} | {"bot.py": VALID_BOT}
    assert "over 5" in refused(author, "many.zip", zip_of(files))


def test_a_zip_whose_entry_is_not_utf8(author: User, zip_of: Callable[..., bytes]) -> None:
    assert "not UTF-8" in refused(author, "p.zip", zip_of({"bot.py": b"x = '\xff'\n"}))
