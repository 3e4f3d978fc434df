"""Uploads against the server's limits: a body over the cap is refused without being
read (nothing reaches memory or disk: a hostile 1 GB upload costs the server one
header), and a full disk under the database refuses an upload cleanly (507, nothing
half-written) while a small one still goes through."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import time
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psycopg
import pytest
from django.db import connection
from rest_framework.test import APIClient

from catan_arena.accounts.models import User
from catan_arena.accounts.tokens import create_token
from catan_arena.submissions.models import Bot, BotContent, BotVersion
from tests.support.bots import VALID_BOT
from tests.support.services import suite_services


def raw_upload(
    url: str, key: str, declared: int, sent: bytes, wait: float = 20.0
) -> tuple[str, float]:
    """POST headers declaring ``declared`` bytes, send only ``sent``, read the answer;
    returns its status line and the seconds it took."""
    target = urlparse(url)
    boundary = "x" * 20
    head = (
        f"POST /api/v1/bots/huge/versions/ HTTP/1.1\r\nHost: {target.netloc}\r\n"
        f"Authorization: Token {key}\r\nContent-Length: {declared}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\nConnection: close\r\n\r\n"
    ).encode()
    began = time.monotonic()
    with socket.create_connection((target.hostname, target.port), timeout=wait) as conn:
        conn.sendall(head + sent)
        status = conn.makefile("rb").readline().decode().strip()
    return status, time.monotonic() - began


@pytest.mark.django_db(transaction=True)
def test_a_body_over_the_cap_is_refused_unread(live_server: Any, author: User) -> None:
    _, key = create_token(author, "tests")
    status, seconds = raw_upload(live_server.url, key, declared=1 << 30, sent=b"--" + b"x" * 1000)
    assert " 413 " in status and seconds < 10  # 1 GB never awaited
    # the control: under the cap the server waits for the body it was promised
    with pytest.raises(TimeoutError):
        raw_upload(live_server.url, key, declared=1 << 20, sent=b"--" + b"x" * 1000, wait=3)
    assert not BotVersion.objects.exists()


@pytest.mark.django_db
def test_over_the_cap_by_the_test_client_too(author: User, settings: Any) -> None:
    settings.UPLOAD_MAX_BYTES = 100_000
    client = APIClient()
    client.force_authenticate(author)
    big = io.BytesIO(b"#" * 300_000)
    big.name = "bot.py"
    response = client.post("/api/v1/bots/big/versions/", {"file": big}, format="multipart")
    assert response.status_code == 413 and "not read" in response.json()["error"]["message"]
    small = io.BytesIO(VALID_BOT)
    small.name = "bot.py"
    ok = client.post("/api/v1/bots/small/versions/", {"file": small}, format="multipart")
    assert ok.status_code == 201


@pytest.fixture
def tiny_disk_for_uploads(transactional_db: None) -> Iterator[str]:
    """The uploads' table moved to a PostgreSQL tablespace on a 256 KiB tmpfs (a disk
    about to be full), and back afterwards."""
    folder = Path(f"/tmp/catan-tiny-{uuid.uuid4().hex[:8]}")
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)])
    if mounted.returncode != 0:
        folder.rmdir()
        message = "mounting a tmpfs needs root"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    services = suite_services()
    if services.postgres_user:  # the server's user must own a tablespace's folder
        shutil.chown(folder, services.postgres_user, services.postgres_user)
    name = f"tiny_{uuid.uuid4().hex[:8]}"
    admin = services.postgres_url()
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f"CREATE TABLESPACE {name} LOCATION '{folder}'")
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE submissions_botcontent SET TABLESPACE {name}")
        yield name
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE submissions_botcontent SET TABLESPACE pg_default")
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f"DROP TABLESPACE IF EXISTS {name}")
        subprocess.run(["umount", str(folder)], check=False)
        folder.rmdir()


def random_zip(size: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("bot.py", VALID_BOT)
        zf.writestr("weights.bin", os.urandom(size))  # incompressible
    return buffer.getvalue()


@pytest.mark.django_db(transaction=True)
def test_a_full_disk_refuses_an_upload_cleanly_and_nothing_is_half_written(
    tiny_disk_for_uploads: str, author: User
) -> None:
    client = APIClient()
    client.force_authenticate(author)
    big = io.BytesIO(random_zip(1 << 20))
    big.name = "big.zip"
    full = client.post("/api/v1/bots/heavy/versions/", {"file": big}, format="multipart")
    assert full.status_code == 507, full.content
    assert "storage is full: nothing was stored" in full.json()["error"]["message"]
    assert not Bot.objects.exists() and not BotVersion.objects.exists()
    assert not BotContent.objects.exists()
    with connection.cursor() as cursor:  # the operator makes room
        cursor.execute("ALTER TABLE submissions_botcontent SET TABLESPACE pg_default")
    big.seek(0)
    again = client.post("/api/v1/bots/heavy/versions/", {"file": big}, format="multipart")
    assert again.status_code == 201, again.content  # nothing half-written stood in the way
    assert BotVersion.objects.get().number == 1


@pytest.mark.django_db
def test_the_upload_form_says_so_too(author: User, settings: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    settings.UPLOAD_MAX_BYTES = 100_000
    client = Client()
    client.force_login(author)
    big = SimpleUploadedFile("bot.py", b"#" * 300_000)
    response = client.post("/upload/", {"name": "big", "file": big})
    assert response.status_code == 413 and "over the 100,000-byte cap" in response.content.decode()
    assert not BotVersion.objects.exists()
