"""The guides on the site: ``docs/bot-guide.md``, ``docs/replay-format.md`` and
``docs/sandbox.md`` drawn as pages from the same Markdown files the repository shows.

markdown-it-py renders them with raw HTML off (whatever a file holds is escaped, and its
link check refuses ``javascript:`` and the like); headings get GitHub's anchors (so the
files' own ``#fragment`` links work on both), code blocks Pygments' classes (styled by
``site.css``: no inline style), links between the guides point at their pages and links
to other files of the repository become plain text (the site does not serve them). The
package caps are said once in the guide, in :func:`~arena_runner.validation_policy.caps_text`'s
words for the defaults; the page says this server's (its settings may raise them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.urls import reverse
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from arena_runner.validation_policy import UPLOAD_CAPS, caps_text
from bots.package import PackageLimits


@dataclass(frozen=True)
class Guide:
    slug: str
    file: str
    """Its Markdown file in ``docs/``."""
    label: str
    """Its name in the site's links."""


GUIDES = (
    Guide("bot-guide", "bot-guide.md", "Bot guide"),
    Guide("replay-format", "replay-format.md", "Replay format"),
    Guide("sandbox", "sandbox.md", "Sandbox"),
)
BY_SLUG = {g.slug: g for g in GUIDES}
BY_FILE = {g.file: g for g in GUIDES}


@dataclass(frozen=True)
class Page:
    guide: Guide
    title: str
    html: str
    """Safe HTML: raw HTML in the Markdown was escaped, links checked."""


def docs_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs"


def guide_page(slug: str, caps: PackageLimits) -> Page | None:
    """The guide ``slug`` as a page stating ``caps`` (this server's upload caps), or None."""
    guide = BY_SLUG.get(slug)
    if guide is None:
        return None
    path = docs_dir() / guide.file
    return _rendered(guide, path, path.stat().st_mtime_ns, caps)


@lru_cache(maxsize=16)
def _rendered(guide: Guide, path: Path, mtime_ns: int, caps: PackageLimits) -> Page:
    """Rendered once per file version (``mtime_ns`` is the key's part that changes)."""
    text = path.read_text(encoding="utf-8").replace(caps_text(UPLOAD_CAPS), caps_text(caps))
    env: dict[str, Any] = {}
    tokens = _parser().parse(text, env)
    h1 = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"]
    title = tokens[h1[0] + 1].content if h1 else guide.label
    return Page(guide, _plain(title), _parser().renderer.render(tokens, _parser().options, env))


# The parser ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight}).enable("table")
    md.core.ruler.push("guide_anchors", _anchors)
    md.core.ruler.push("guide_links", _links)
    md.add_render_rule("heading_close", _heading_close)
    return md


def slug_of(text: str) -> str:
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to
    hyphens (``Time limits and errors`` → ``time-limits-and-errors``)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _plain(inline: str) -> str:
    return inline.replace("`", "")


def _anchors(state: StateCore) -> None:
    seen: dict[str, int] = {}
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = "".join(c.content for c in tokens[i + 1].children or () if c.content)
        base = slug_of(text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        token.attrSet("id", base if count == 0 else f"{base}-{count}")


def _heading_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    anchor = tokens[idx - 2].attrGet("id")
    link = f'<a class="anchor" href="#{anchor}" aria-label="Link to this section">#</a>'
    return f"{link}</{tokens[idx].tag}>\n"


def _links(state: StateCore) -> None:
    """A link to a guide goes to its page; another relative link (a file of the
    repository) becomes plain text in a ``span.repo-path``."""
    for block in state.tokens:
        children = block.children or []
        for i, token in enumerate(children):
            href = str(token.attrGet("href") or "") if token.type == "link_open" else ""
            if not href or re.match(r"[a-z][a-z0-9+.-]*:|#", href):
                continue  # not a link, a web address, or an anchor of this page
            target, _, fragment = href.partition("#")
            guide = BY_FILE.get(target.removeprefix("./").removeprefix("../docs/"))
            if guide is not None:
                url = reverse("web:guide", args=[guide.slug])
                token.attrSet("href", f"{url}#{fragment}" if fragment else url)
                continue
            token.tag = "span"
            token.attrs = {"class": "repo-path", "title": f"{href} in the project's source"}
            next(t for t in children[i:] if t.type == "link_close").tag = "span"


def _highlight(code: str, lang: str, attrs: str) -> str:
    """A fenced block's code with Pygments' token classes ("" leaves it to the default
    rendering: escaped, unstyled)."""
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    if lexer is None:
        return ""
    return str(highlight(code, lexer, HtmlFormatter(nowrap=True)))
