"""The ladder's pause in the admin goes through ``set_ladder_paused`` and its permission
check: a staff member who may only view the settings cannot pause it from there."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.ladder.models import LadderSettings

pytestmark = pytest.mark.django_db
URL = "/admin/ladder/laddersettings/"


def _staff(client: Client, *codenames: str) -> Client:
    user = User.objects.create_user("staff", password="correct-horse-42", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client.force_login(user)
    return client


def _act(client: Client, action: str) -> str:
    row = LadderSettings.current()
    response = client.post(
        URL, {"action": action, "_selected_action": [row.pk], "index": 0}, follow=True
    )
    assert response.status_code == 200
    return response.content.decode().lower()  # the admin capitalizes its messages


def test_an_organizer_pauses_and_resumes_the_ladder_in_the_admin(client: Client) -> None:
    staff = _staff(client, "view_laddersettings", "change_laddersettings")
    assert "the ladder is paused" in _act(staff, "pause")
    row = LadderSettings.current()
    assert row.paused and row.changed_by is not None and row.changed_by.username == "staff"
    assert "the ladder runs" in _act(staff, "resume")
    assert not LadderSettings.current().paused


def test_a_staff_member_who_may_only_view_cannot_pause_it(client: Client) -> None:
    page = _act(_staff(client, "view_laddersettings"), "pause")
    assert "not paused" in page and "needs ladder.change_laddersettings" in page
    assert not LadderSettings.current().paused


def test_the_pause_is_not_a_field_of_the_change_form(client: Client) -> None:
    staff = _staff(client, "view_laddersettings", "change_laddersettings")
    row = LadderSettings.current()
    page = staff.get(f"{URL}{row.pk}/change/").content.decode()
    assert 'name="tables_in_flight"' in page and 'name="paused"' not in page
