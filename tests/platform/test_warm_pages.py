"""A finished match's replay page is warmed only where it pays: in a cache the web
shares, for a match someone waits for (a tournament's, or a ladder match followed
live). The ladder's other matches are drawn on their first visit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.services import create_round_robin
from catan_arena.web.live import live_update, was_followed
from catan_arena.web.receivers import worth_warming
from tests.support.records import FAST

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared_cache(settings: Any, tmp_path: Path) -> Iterator[None]:
    """A cache every process sees (files here; Redis on a server)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }
    yield
    cache.clear()


def warmed(match: Match) -> bool:
    return cache.get(f"replay-ending:{match.pk}", False) is not False


def play(match: Match, capture: Callable[..., Any]) -> Match:
    with capture(execute=True):  # the result's on-commit work runs
        assert run_match(match.pk) == "finished"
    match.refresh_from_db()
    return match


def test_a_ladder_match_nobody_followed_is_not_warmed_a_followed_one_is(
    shared_cache: None,
    three_authors_bots: list[BotVersion],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    plain = play(
        create_match(three_authors_bots, limits=FAST, ladder=True),
        django_capture_on_commit_callbacks,
    )
    assert not warmed(plain)
    followed = create_match(three_authors_bots, limits=FAST, ladder=True)
    staff = User.objects.create_user("watcher", password="not-used-here-4521", is_staff=True)
    assert live_update(followed.pk, staff, 0, None) is not None  # a spectator's page polls
    assert was_followed(followed.pk)
    assert warmed(play(followed, django_capture_on_commit_callbacks))


def test_a_tournament_match_is_warmed_unfollowed(
    shared_cache: None,
    three_authors_bots: list[BotVersion],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    tournament = create_round_robin("winter cup", three_authors_bots, limits=FAST, ladder=True)
    match = tournament.matches.order_by("id").first()
    assert match is not None
    assert warmed(play(match, django_capture_on_commit_callbacks))


def test_a_cache_in_the_workers_own_memory_is_never_warmed(
    three_authors_bots: list[BotVersion],
) -> None:
    """The suite's default cache is local memory, as the embedded default's: the web
    would never see what a worker put there."""
    tournament = create_round_robin("spring cup", three_authors_bots, limits=FAST, ladder=True)
    match = tournament.matches.order_by("id").first()
    assert match is not None and not worth_warming(match)
