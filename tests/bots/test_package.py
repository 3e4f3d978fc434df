"""Bot packages unpack safely: every hostile archive is refused with a reason, and
nothing is left behind."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from bots.package import BotPackageError, PackageLimits, unpack_zip

BOT = b"from bots import Player\n"


def _zip(path: Path, entries: dict[str, bytes], *, link: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        if link is not None:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/shadow")
    return path


def test_a_good_package_unpacks_with_its_entry_at_the_top(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "ok.zip", {"mybot/bot.py": BOT, "mybot/data/w.json": b"{}"})
    folder = unpack_zip(archive, tmp_path / "out")
    assert (folder / "bot.py").read_bytes() == BOT and (folder / "data" / "w.json").exists()


@pytest.mark.parametrize(
    ("entries", "link", "reason"),
    [
        ({"bot.py": BOT, "../evil.py": b"x"}, None, "'..'"),
        ({"bot.py": BOT, "/etc/cron.d/x": b"x"}, None, "absolute path"),
        ({"bot.py": BOT}, "shadow", "links and special files"),
        ({"helper.py": b"x"}, None, "bot.py"),
        ({"bot.py": BOT, "BOT.py": BOT}, None, "appears twice"),
    ],
)
def test_hostile_archives_are_refused(
    tmp_path: Path, entries: dict[str, bytes], link: str | None, reason: str
) -> None:
    archive = _zip(tmp_path / "bad.zip", entries, link=link)
    with pytest.raises(BotPackageError, match=reason):
        unpack_zip(archive, tmp_path / "out")


def test_a_zip_bomb_stops_at_the_cap_and_leaves_nothing(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "bomb.zip", {"bot.py": BOT, "pad.bin": b"\0" * (20 << 20)})
    assert archive.stat().st_size < 100_000  # tiny archive, 20 MB inside
    with pytest.raises(BotPackageError, match="zip bomb"):
        unpack_zip(archive, tmp_path / "out", PackageLimits(unpacked_bytes=1 << 20))
    assert not (tmp_path / "out").exists()


def test_not_a_zip_too_big_and_too_many_files(tmp_path: Path) -> None:
    fake = tmp_path / "fake.zip"
    fake.write_bytes(b"PK not really")
    with pytest.raises(BotPackageError, match="not a zip file"):
        unpack_zip(fake, tmp_path / "a")
    big = _zip(tmp_path / "big.zip", {"bot.py": BOT})
    with pytest.raises(BotPackageError, match="over"):
        unpack_zip(big, tmp_path / "b", PackageLimits(archive_bytes=10))
    many = _zip(tmp_path / "many.zip", {"bot.py": BOT, **{f"m{i}.py": b"" for i in range(9)}})
    with pytest.raises(BotPackageError, match="entries, over"):
        unpack_zip(many, tmp_path / "c", PackageLimits(files=5))
