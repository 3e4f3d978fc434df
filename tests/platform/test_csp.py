"""Content-Security-Policy (django-csp) on every page, nothing inline: every page of the
site, anonymous and signed in, loads in Chromium without one CSP violation; the control
shows the listener hears one (an injected inline script and inline style are refused and
reported). Swagger UI's page alone may use inline styles (its template's <style>)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.accounts.tokens import create_token
from catan_arena.matches.models import MatchSeat
from catan_arena.matches.services import create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.services import TournamentSpec, create_tournament
from tests.support.browser import PASSWORD
from tests.support.records import FAST

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sample);
});
"""
"""Run before each page's own scripts: every violation the page causes is kept."""


def anonymous_pages(played: dict[str, Any], queued: int) -> dict[str, str]:
    return {
        "home": "/",
        "ladder": "/ladder/",
        "matches": "/matches/",
        "match": f"/matches/{played['match']}/",
        "match-queued (htmx polling)": f"/matches/{queued}/",
        "replay": f"/matches/{played['match']}/replay/?step=60",
        "replay-seat-view": f"/matches/{played['match']}/replay/?step=60&view=0",
        "bot": f"/bots/{played['names'][0]}/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{played['cup']}/",
        "log-in": "/log-in/",
        "sign-up": "/sign-up/",
        "admin-log-in": "/admin/login/",
        "guide-bots": "/docs/bot-guide/",
        "guide-replays": "/docs/replay-format/",
        "guide-sandbox": "/docs/sandbox/",
    }


def signed_in_pages(played: dict[str, Any], bot: str) -> dict[str, str]:
    return {
        "home": "/",
        "bot-owner": f"/bots/{bot}/",
        "upload": f"/upload/?bot={bot}",
        "tokens": "/account/tokens/",
        "seat-log": f"/matches/{played['match']}/log/0/",
        "tournament-new": "/tournaments/new/",
        "tournament-organizer": f"/tournaments/{played['cup']}/",
        "replay": f"/matches/{played['match']}/replay/?step=10",
    }


def owner_of_seat_0(played: dict[str, Any]) -> User:
    seat = MatchSeat.objects.select_related("version__bot__owner").get(
        match_id=played["match"], seat=0
    )
    owner = grant_role(seat.version.bot.owner, ORGANIZERS)
    owner.set_password(PASSWORD)
    owner.save()
    create_tournament(owner, TournamentSpec(name="spring cup"), open_entries=True)
    create_token(owner, "laptop")
    return owner


def violations(browser: Any, url: str, pages: dict[str, str], username: str | None) -> list[str]:
    """Every CSP violation (event or console report) of every page, with the page's name;
    each page must answer 200 with a Content-Security-Policy header."""
    context = browser.new_context()
    context.add_init_script(LISTEN)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    if username is not None:
        page.goto(f"{url}/log-in/")
        page.fill('input[name="username"]', username)
        page.fill('input[name="password"]', PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{url}/")
    found: list[str] = []
    for name, path in pages.items():
        console.clear()
        response = page.goto(url + path)
        assert response is not None and response.status == 200, path
        policy = response.header_value("content-security-policy") or ""
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, (path, policy)
        page.wait_for_load_state("networkidle")
        heard = page.evaluate("window.__csp") + [
            m for m in console if "Content Security Policy" in m
        ]
        found += [f"{name}: {v}" for v in heard]
    context.close()
    return found


@pytest.mark.django_db(transaction=True)
def test_every_page_loads_without_a_csp_violation(
    browser: Any,
    site: dict[str, Any],
    three_authors_bots: list[BotVersion],
) -> None:
    queued = create_match(three_authors_bots, limits=FAST).pk
    owner = owner_of_seat_0(site)
    bot = MatchSeat.objects.get(match_id=site["match"], seat=0).version.bot.name
    found = violations(browser, site["url"], anonymous_pages(site, queued), None)
    found += violations(browser, site["url"], signed_in_pages(site, bot), owner.username)
    assert found == []


@pytest.mark.django_db(transaction=True)
def test_control_the_listener_hears_an_injected_inline_script_and_style(
    browser: Any,
    site: dict[str, Any],
) -> None:
    context = browser.new_context()
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.goto(site["url"] + "/ladder/")
    page.evaluate(
        """() => {
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.appendChild(script);
        document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>');
    }"""
    )
    page.wait_for_function("window.__csp.length >= 2")
    heard = page.evaluate("window.__csp")
    assert any(v.startswith("script-src") for v in heard), heard
    assert any(v.startswith("style-src") for v in heard), heard
    assert page.evaluate("window.__ran === undefined")  # refused, not just reported
    context.close()


@pytest.mark.django_db
def test_swagger_ui_alone_may_use_inline_styles_and_runs_no_inline_script(
    client: Client,
) -> None:
    docs = client.get("/api/v1/docs/")
    policy = docs["Content-Security-Policy"]
    assert "style-src 'self' 'unsafe-inline'" in policy
    assert "script-src 'self';" in policy + ";"
    assert not re.search(r"<script>(?!\s*</script>)", docs.content.decode())
    script = client.get(re.findall(r'<script src="([^"]+)"', docs.content.decode())[-1])
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
    home = client.get("/log-in/")["Content-Security-Policy"]
    assert "unsafe-inline" not in home and "frame-ancestors 'none'" in home
