"""The guides on the site (``web/guides.py``): docs/bot-guide.md, replay-format.md and
sandbox.md drawn from their Markdown; anchors that the files' own links reach, links
between guides to their pages, nothing of the file's raw HTML or ``javascript:`` links
let through (a planted file proves it), the package caps of this server's settings, and
the pages that point authors at the guide."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from arena_runner.validation_policy import UPLOAD_CAPS, caps_text
from bots.package import PackageLimits
from catan_arena.accounts.models import User
from catan_arena.web.guides import GUIDES
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
GUIDE = "/docs/bot-guide/"


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.slug)
def test_each_guide_is_a_page_whose_anchors_its_links_reach(client: Client, guide: Any) -> None:
    html = page(client, f"/docs/{guide.slug}/")
    source = (ROOT / "docs" / guide.file).read_text(encoding="utf-8")
    title = source.splitlines()[0].removeprefix("# ").replace("`", "")
    assert f"<title>{title} · Catan Arena</title>" in html
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', html))
    assert len(ids) == len(re.findall(r"^#{1,6} ", source, re.M)), "a heading without an anchor"
    for fragment in re.findall(r'href="#([^"]+)"', html):
        assert fragment in ids, f"#{fragment} leads nowhere"
    assert not re.search(r'href="[^"]*\.md[#"]', html), "a link to a Markdown file"
    assert 'class="language-' in html or guide.slug == "sandbox"  # fenced code, highlighted


def test_links_between_guides_go_to_their_pages_and_files_become_text(client: Client) -> None:
    html = page(client, GUIDE)
    assert 'href="/docs/replay-format/#action-json"' in html and 'href="/docs/sandbox/"' in html
    assert re.search(r'<span class="repo-path"[^>]*><code>bots/examples/clock_budget.py', html)
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', page(client, "/docs/replay-format/")))
    assert "action-json" in ids
    assert '<span class="k">class</span>' in html or '<span class="kn">from</span>' in html


def test_raw_html_and_script_links_in_a_file_are_not_let_through(
    client: Client, settings: Any, tmp_path: Path
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bot-guide.md").write_text(
        "# Planted\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n"
        "[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=)\n\n"
        '```html\n<script>alert(4)</script>\n```\n\n## Safe "heading" <b>\n',
        encoding="utf-8",
    )
    settings.BASE_DIR = tmp_path
    html = page(client, GUIDE)
    article = html[html.index('<article class="guide">') : html.index("</article>")]
    assert "Planted" in article
    assert "<script" not in article and "<img" not in article and "<b>" not in article
    assert "javascript:" not in re.sub(r">[^<]*<", "><", article)  # only as escaped text
    assert 'href="data:' not in article
    assert "&lt;script&gt;" in article  # shown, escaped


def test_the_guide_and_the_upload_page_state_this_servers_caps(
    client: Client, settings: Any, author: User
) -> None:
    default = caps_text(UPLOAD_CAPS)
    assert default in page(client, GUIDE)  # control: the Markdown's figures, the defaults
    settings.UPLOAD_MAX_BYTES, settings.UPLOAD_MAX_FILES = 8 << 20, 300
    raised = caps_text(PackageLimits(8 << 20, UPLOAD_CAPS.unpacked_bytes, 300))
    assert raised == "8 MiB per upload, 32 MiB unpacked, 300 files"
    html = page(client, GUIDE)
    assert raised in html and default not in html
    client.force_login(author)
    upload = page(client, "/upload/")
    assert raised in upload and default not in upload


def test_the_pages_that_mention_the_guide_link_it(client: Client, author: User) -> None:
    bot = active_bots(author, 1)[0].bot.name
    for url in ("/", "/ladder/", "/log-in/", f"/bots/{bot}/"):
        html = page(client, url)
        assert f'href="{GUIDE}"' in html or f'href="{GUIDE}#' in html, url
    header = page(client, "/ladder/").split("</header>")[0]
    assert f'href="{GUIDE}"' in header
    for url in ("/", "/log-in/", f"/bots/{bot}/"):  # in the page itself, not only the header
        body = page(client, url).split("</header>", 1)[1]
        assert f'href="{GUIDE}' in body, url
    client.force_login(author)
    upload = page(client, "/upload/").split("</header>", 1)[1]
    assert f'href="{GUIDE}"' in upload
    assert "catan-arena upload FILE --name NAME --wait" in upload


def test_an_unknown_guide_is_404(client: Client) -> None:
    page(client, "/docs/ARCHITECTURE/", 404)
    page(client, "/docs/..%2F..%2Fsettings/", 404)
