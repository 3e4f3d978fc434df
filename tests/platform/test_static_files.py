"""Static files are served by whitenoise from the web process: straight from the apps'
folders where no collectstatic ran (the embedded default, the tests), and, as the Docker
image does, compressed with hashed names and cached for ever after collectstatic."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
IMAGE_LIKE = """
import re, django
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("collectstatic", interactive=False, verbosity=0)
client = Client()
html = client.get("/log-in/").content.decode()  # a page that needs no database
css = re.search(r'href="(/static/web/site\\.[0-9a-f]{12}\\.css)"', html).group(1)
served = client.get(css, HTTP_ACCEPT_ENCODING="gzip")
print(css, served.status_code, served["Cache-Control"], served.get("Content-Encoding"), sep="|")
"""


@pytest.mark.django_db
def test_without_collectstatic_the_files_come_from_the_apps(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'href="/static/web/site.css"' in html and "htmx-2.0.11.min.js" in html
    css = client.get("/static/web/site.css")
    assert css.status_code == 200 and b".board-box" in b"".join(css.streaming_content)  # type: ignore[attr-defined]
    assert client.get("/static/web/vendor/htmx-2.0.11.min.js").status_code == 200


def test_as_in_the_image_hashed_compressed_and_cached_for_ever(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CATAN_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
        "DJANGO_SECRET_KEY": "static-test",
        "CATAN_ARENA_DATA": str(tmp_path / "data"),
        "CATAN_ARENA_STATIC_ROOT": str(tmp_path / "static"),
        "CATAN_ARENA_STATIC_MANIFEST": "true",
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    run = subprocess.run([sys.executable, "-c", IMAGE_LIKE], cwd=ROOT / "platform", env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    path, status, cache, encoding = run.stdout.strip().split("|")
    assert status == "200" and "max-age=315360000" in cache and encoding == "gzip", run.stdout
    assert (tmp_path / "static" / path.removeprefix("/static/")).exists()
