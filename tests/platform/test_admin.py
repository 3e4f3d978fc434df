"""The admin (the platform's only pages until the site lands) opens on every model, and
its actions call the services."""

from __future__ import annotations

import pytest
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.matches.services import MatchLimits, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.services import create_round_robin

pytestmark = pytest.mark.django_db
PAGES = [
    "accounts/user", "submissions/bot", "submissions/botversion", "matches/match",
    "tournaments/tournament", "ratings/rating", "ratings/ratingchange",
    "ladder/laddersettings", "abtests/abtest",
]  # fmt: skip


@pytest.fixture
def staff(client: Client) -> Client:
    admin = User.objects.create_superuser("root", "root@example.com", "correct-horse-42")
    client.force_login(admin)
    return client


def test_every_admin_list_and_page_opens(
    staff: Client, three_authors_bots: list[BotVersion]
) -> None:
    tournament = create_round_robin(
        "cup", three_authors_bots, cycles=1, limits=MatchLimits(0.3, 1.0)
    )
    match = tournament.matches.order_by("id").first()
    assert match is not None and run_match(match.pk) == "finished"
    for page in PAGES:
        assert staff.get(f"/admin/{page}/").status_code == 200, page
    assert staff.get(f"/admin/matches/match/{match.pk}/change/").status_code == 200
    version = match.seats.first().version  # type: ignore[union-attr]
    assert staff.get(f"/admin/submissions/botversion/{version.pk}/change/").status_code == 200


def test_anonymous_visitors_are_sent_to_the_login(client: Client) -> None:
    response = client.get("/admin/matches/match/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_cancel_action_keeps_what_was_played(
    staff: Client, three_authors_bots: list[BotVersion]
) -> None:
    tournament = create_round_robin(
        "cup", three_authors_bots, cycles=1, limits=MatchLimits(0.3, 1.0)
    )
    response = staff.post(
        "/admin/tournaments/tournament/",
        {"action": "cancel", "_selected_action": [tournament.pk], "index": 0},
        follow=True,
    )
    assert response.status_code == 200
    assert "cancelled, 3 queued games voided" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED


def test_the_health_check_and_home(client: Client) -> None:
    assert client.get("/health/").json() == {"status": "ok"}
    assert "Catan Arena" in client.get("/").content.decode()


def test_only_organizers_get_the_tournament_actions(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    from django.contrib.auth.models import Group, Permission

    tournament = create_round_robin(
        "cup", three_authors_bots, cycles=1, limits=MatchLimits(0.3, 1.0)
    )
    clerk = User.objects.create_user("clerk", password="correct-horse-42", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    client.force_login(clerk)
    form = {"action": "cancel", "_selected_action": [tournament.pk], "index": 0}
    client.post("/admin/tournaments/tournament/", form, follow=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # not an organizer: no action
    clerk.groups.add(Group.objects.get(name="Organizers"))
    client.force_login(User.objects.get(pk=clerk.pk))
    response = client.post("/admin/tournaments/tournament/", form, follow=True)
    assert "queued games voided" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "cancelled by clerk" in tournament.note
