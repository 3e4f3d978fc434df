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


def organizer_client(client: Client) -> tuple[Client, User]:
    from catan_arena.accounts.roles import ORGANIZERS
    from catan_arena.accounts.services import grant_role

    user = User.objects.create_user("olga", password="correct-horse-42", is_staff=True)
    user = grant_role(user, ORGANIZERS)
    client.force_login(user)
    return client, user


def inline(rows: list[dict[str, object]], initial: int = 0) -> dict[str, object]:
    data: dict[str, object] = {
        "entries-TOTAL_FORMS": len(rows),
        "entries-INITIAL_FORMS": initial,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    for i, row in enumerate(rows):
        data.update({f"entries-{i}-{key}": value for key, value in row.items()})
    return data


SETTINGS_FORM = {
    "name": "autumn cup", "format": "swiss", "table_size": 4, "cycles": 1, "rounds": 3,
    "games_per_table": 1, "rules": '{"vp_to_win": 8}', "decision_seconds": 0.5,
    "time_bank_seconds": 5, "max_entries": "", "entries_per_author": 1,
}  # fmt: skip


def test_an_organizer_sets_up_a_tournament_in_the_admin(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    client, olga = organizer_client(client)
    url = "/admin/tournaments/tournament/add/"
    bad = client.post(url, {**SETTINGS_FORM, "rules": '{"dragons": 1}', **inline([])})
    assert "unknown rules option" in bad.content.decode()
    assert not Tournament.objects.exists()
    client.post(url, {**SETTINGS_FORM, **inline([])})
    tournament = Tournament.objects.get()
    assert tournament.status == "draft" and tournament.created_by == olga
    assert tournament.rules == {"vp_to_win": 8}
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    rows = [{"version": three_authors_bots[0].pk, "tournament": tournament.pk}]
    page = client.post(change, {**SETTINGS_FORM, **inline(rows)}, follow=True)
    assert "entries are not open" in page.content.decode()  # a draft takes no entries
    client.post(
        "/admin/tournaments/tournament/",
        {"action": "open_entries", "_selected_action": [tournament.pk], "index": 0},
    )
    tournament.refresh_from_db()
    assert tournament.status == "open"
    client.post(change, {**SETTINGS_FORM, **inline(rows)}, follow=True)
    entry = tournament.entries.get()
    assert entry.version == three_authors_bots[0] and entry.entered_by == olga


def test_a_started_tournament_cannot_be_reset_in_the_admin(
    staff: Client, three_authors_bots: list[BotVersion]
) -> None:
    tournament = create_round_robin(
        "cup", three_authors_bots, cycles=1, limits=MatchLimits(0.3, 1.0)
    )
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    page = staff.get(change).content.decode()
    assert 'name="table_size"' not in page  # settings are read-only once it runs
    existing = [{"id": e.pk, "tournament": tournament.pk} for e in tournament.entries.all()]
    staff.post(change, {**SETTINGS_FORM, "table_size": 3, **inline(existing, len(existing))})
    tournament.refresh_from_db()
    assert tournament.table_size == 4 and tournament.name == "cup"
