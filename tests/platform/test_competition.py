"""Organizers' tournaments (entries, schedule, start, cancel), the ladder's matchmaker,
rating inheritance and A/B tests, on the real database (games played in this process
through the same ``run_match`` the Celery task calls)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from catan_arena.abtests.models import ABPair, ABTest
from catan_arena.abtests.services import ABTestError, note_ab_match_done, request_ab_test
from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import ladder_versions
from catan_arena.ladder.services import fill_ladder, set_ladder_paused, withdraw_version
from catan_arena.matches.models import Match
from catan_arena.matches.services import run_match
from catan_arena.ratings.models import Rating
from catan_arena.ratings.services import recompute_ratings
from catan_arena.ratings.systems import openskill_start, widened_sigma
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins, upload_version
from catan_arena.tournaments.services import (
    TournamentError,
    TournamentSpec,
    cancel_tournament,
    create_tournament,
    enter_tournament,
    open_entries,
    schedule_start,
    start_due_tournaments,
    withdraw_entry,
)
from tests.support.bots import VALID_BOT
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> User:
    user = User.objects.create_user("olga", password="not-used-here-4521")
    return grant_role(user, ORGANIZERS)


def authors(n: int) -> list[User]:
    return [User.objects.create_user(f"author{i}", password="x-4521-y") for i in range(n)]


# Organizers' tournaments ------------------------------------------------------------


def test_only_organizers_create_tournaments(author: User, organizer: User) -> None:
    with pytest.raises(PermissionDenied):
        create_tournament(author, TournamentSpec("cup"))
    tournament = create_tournament(organizer, TournamentSpec("cup", limits=FAST))
    assert tournament.status == "draft"
    with pytest.raises(PermissionDenied):
        open_entries(author, tournament)


def test_bad_settings_are_refused_with_reasons(organizer: User) -> None:
    for spec, reason in (
        (TournamentSpec("cup", table_size=5), "3 or 4"),
        (TournamentSpec("cup", format="knockout"), "unknown format"),
        (TournamentSpec("cup", rules={"vp_to_win": "ten"}), "rules options"),
        (TournamentSpec("cup", rules={"dragons": True}), "dragons"),
        (TournamentSpec("cup", rules={"players": 3}), "players follow"),
        (TournamentSpec(" "), "name"),
    ):
        with pytest.raises(TournamentError, match=reason):
            create_tournament(organizer, spec)


def test_entries_follow_the_rules_of_the_tournament(organizer: User) -> None:
    ada, bob = authors(2)
    ada_bots = active_bots(ada, 2)
    bob_bot = active_bots(bob, 1)[0]
    spec = TournamentSpec("cup", max_entries=3, limits=FAST)
    tournament = create_tournament(organizer, spec)
    with pytest.raises(TournamentError, match="not open"):
        enter_tournament(ada, tournament, ada_bots[0])
    open_entries(organizer, tournament)
    enter_tournament(ada, tournament, ada_bots[0])
    with pytest.raises(TournamentError, match="already entered"):
        enter_tournament(ada, tournament, ada_bots[0])
    with pytest.raises(TournamentError, match="1 version"):
        enter_tournament(ada, tournament, ada_bots[1])  # one version per author
    with pytest.raises(PermissionDenied):
        enter_tournament(ada, tournament, bob_bot)  # not hers
    pending = upload_version(bob, "fresh", "f.py", VALID_BOT + b"\n# fresh\n").version
    with pytest.raises(TournamentError, match="pending"):
        enter_tournament(bob, tournament, pending)
    enter_tournament(bob, tournament, bob_bot)
    builtin = register_builtins()[0]
    enter_tournament(organizer, tournament, builtin)  # organizers enter the built-ins
    with pytest.raises(TournamentError, match="full"):
        enter_tournament(organizer, tournament, register_builtins()[1])
    withdraw_entry(bob, tournament, bob_bot)
    assert tournament.entries.count() == 2


def test_a_scheduled_tournament_starts_when_due_and_closes_entries(organizer: User) -> None:
    people = authors(4)
    bots = [active_bots(p, 1)[0] for p in people]
    start = timezone.now() + timedelta(minutes=5)
    spec = TournamentSpec(
        "spring cup", format="duplicate", rules={"vp_to_win": 8}, limits=FAST, starts_at=start
    )
    tournament = create_tournament(organizer, spec, open_entries=True)
    for person, bot in zip(people, bots, strict=True):
        enter_tournament(person, tournament, bot)
    assert start_due_tournaments(now=start - timedelta(seconds=1)) == []
    assert start_due_tournaments(now=start) == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.started_at is not None
    matches = list(tournament.matches.all())
    assert len(matches) == 4  # one grouping of 4, every rotation
    assert len({m.seed for m in matches}) == 1  # duplicate: one board and dice
    assert all(m.rules["vp_to_win"] == 8 and not m.ladder for m in matches)
    with pytest.raises(TournamentError, match="not open"):
        enter_tournament(people[0], tournament, active_bots(people[0], 2)[1])
    with pytest.raises(TournamentError, match="cannot be rescheduled"):
        schedule_start(organizer, tournament, start)
    assert start_due_tournaments(now=start + timedelta(hours=1)) == []  # started once


def test_too_few_entries_at_the_start_cancel_it_with_the_reason(organizer: User) -> None:
    tournament = create_tournament(
        organizer, TournamentSpec("empty cup", starts_at=timezone.now()), open_entries=True
    )
    assert start_due_tournaments() == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert "at least 3 entries" in tournament.note


def test_cancel_needs_an_organizer_and_keeps_what_was_played(organizer: User, author: User) -> None:
    people = authors(3)
    tournament = create_tournament(organizer, TournamentSpec("cup", limits=FAST), open_entries=True)
    for person in people:
        enter_tournament(person, tournament, active_bots(person, 1)[0])
    schedule_start(organizer, tournament, timezone.now())
    start_due_tournaments()
    first = tournament.matches.order_by("id").first()
    assert first is not None and run_match(first.pk) == "finished"
    with pytest.raises(PermissionDenied):
        cancel_tournament(tournament, author)
    voided = cancel_tournament(tournament, organizer)
    assert voided == tournament.matches.count() - 1
    first.refresh_from_db()
    assert first.status == "finished"
    tournament.refresh_from_db()
    assert tournament.status == "cancelled" and "olga" in tournament.note
    with pytest.raises(TournamentError, match="cannot be cancelled"):
        cancel_tournament(tournament, organizer)


# The ladder --------------------------------------------------------------------------


def ladder_field(people: int, per_author: int = 1) -> list[BotVersion]:
    return [v for p in authors(people) for v in active_bots(p, per_author)]


def test_the_matchmaker_fills_tables_one_version_per_author(organizer: User) -> None:
    ladder_field(4, per_author=3)  # 12 versions of 4 authors
    LadderSettings.objects.create(pk=1, tables_in_flight=3, decision_seconds=0.3)
    made = fill_ladder(random.Random(1))
    assert len(made) == 3
    for match in made:
        assert match.ladder and match.tournament_id is None
        owners = [s.version.bot.owner_id for s in match.seats.select_related("version__bot")]
        assert len(owners) == 4 and len(set(owners)) == 4
    assert fill_ladder() == []  # three in flight already
    set_ladder_paused(organizer, True)
    Match.objects.filter(pk=made[0].pk).update(status=Match.Status.VOID)
    assert fill_ladder() == []  # paused
    set_ladder_paused(organizer, False)
    assert len(fill_ladder()) == 1


def test_pausing_the_ladder_needs_the_permission(author: User) -> None:
    with pytest.raises(PermissionDenied):
        set_ladder_paused(author, True)


def test_a_withdrawn_version_leaves_the_ladder(author: User, other_author: User) -> None:
    mine = active_bots(author, 1)[0]
    assert mine in ladder_versions()
    with pytest.raises(PermissionDenied):
        withdraw_version(other_author, mine)
    withdraw_version(author, mine)
    assert mine not in ladder_versions()


def test_a_new_version_inherits_a_rating_only_when_asked(author: User) -> None:
    ladder_field(3)
    parent = active_bots(author, 1)[0]
    Rating.objects.create(version=parent, elo=1700.0, mu=30.0, sigma=3.0, games=40)
    bot = parent.bot.name
    heir = upload_version(author, bot, "b.py", VALID_BOT + b"# v2\n", inherit_rating=True)
    assert "starts from" in heir.message
    plain = upload_version(author, bot, "b.py", VALID_BOT + b"# v3\n").version
    for version in (heir.version, plain):
        BotVersion.objects.filter(pk=version.pk).update(status="active")
    assert heir.version.inherits_from == parent and plain.inherits_from is None
    LadderSettings.objects.create(pk=1, tables_in_flight=1, decision_seconds=0.3)
    BotVersion.objects.filter(pk=plain.pk).update(withdrawn_at=timezone.now())
    # the heir is the bot's newest non-withdrawn version? No: the newest (plain) is
    # withdrawn, so the bot is off the ladder; play the heir's match by hand instead
    from catan_arena.matches.services import create_match

    others = [v for v in ladder_versions() if v.bot.owner_id != author.pk][:3]
    match = create_match([heir.version, *others], limits=FAST, ladder=True)
    assert run_match(match.pk) == "finished"
    rating = Rating.objects.get(version=heir.version)
    change = heir.version.rating_changes.get()
    start_sigma = openskill_start()[1]
    assert change.elo_before == 1700.0 and change.mu_before == 30.0
    assert change.sigma_before == pytest.approx(widened_sigma(3.0, start_sigma))
    assert 3.0 < change.sigma_before < start_sigma
    assert change.provisional and rating.games == 1
    before = (rating.elo, rating.mu, rating.sigma)
    recompute_ratings()  # the parent's rating had no history: it is gone, so is the start
    rebuilt = Rating.objects.get(version=heir.version)
    assert (rebuilt.elo, rebuilt.mu, rebuilt.sigma) != before
    assert heir.version.rating_changes.get().elo_before == 1500.0


# A/B tests ---------------------------------------------------------------------------


def test_an_ab_test_needs_the_author_and_enough_opponents(author: User, other_author: User) -> None:
    a, b = active_bots(author, 2)
    with pytest.raises(PermissionDenied):
        request_ab_test(other_author, a, b)
    with pytest.raises(ABTestError, match="not enough opponents"):
        request_ab_test(author, a, b)
    ladder_field(3)
    with pytest.raises(ABTestError, match="different"):
        request_ab_test(author, a, a)


def test_an_ab_pair_shares_seed_opponents_and_seat(author: User) -> None:
    ladder_field(3)
    a, b = active_bots(author, 2)
    test = request_ab_test(author, a, b, limits=FAST, max_pairs=3)
    pairs = list(test.pair_set.all())
    assert [p.number for p in pairs] == [1, 2]  # two pairs in flight
    for pair in pairs:
        seats_a = [s.version_id for s in pair.match_a.seats.order_by("seat")]
        seats_b = [s.version_id for s in pair.match_b.seats.order_by("seat")]
        assert pair.match_a.seed == pair.match_b.seed
        assert seats_a[pair.seat] == a.pk and seats_b[pair.seat] == b.pk
        assert seats_a[: pair.seat] + seats_a[pair.seat + 1 :] == (
            seats_b[: pair.seat] + seats_b[pair.seat + 1 :]
        )
        assert not (
            {a.bot.owner_id}
            & {s.version.bot.owner_id for s in pair.match_a.seats.all() if s.seat != pair.seat}
        )
    assert [p.seat for p in pairs] == [0, 1]  # the tested seat rotates
    first = pairs[0]
    assert run_match(first.match_a.pk) == "finished"
    first.refresh_from_db()
    assert first.difference is None  # B's game still to come
    assert run_match(first.match_b.pk) == "finished"
    first.refresh_from_db()
    places = {m: m.seats.get(seat=first.seat).placing for m in (first.match_a, first.match_b)}
    assert first.difference == places[first.match_a] - places[first.match_b]
    test.refresh_from_db()
    assert test.pairs == 1 and test.mean == first.difference
    assert test.pair_set.count() == 3  # topped up, within max_pairs


def test_an_ab_test_stops_at_its_pair_limit(author: User) -> None:
    ladder_field(3)
    a, b = active_bots(author, 2)
    test = request_ab_test(author, a, b, limits=FAST, max_pairs=2)
    for pair in ABPair.objects.filter(test=test):
        for match in (pair.match_a, pair.match_b):
            Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
            match.seats.update(placing=1)  # a tie every game: d = 0
    note_ab_match_done(test.pk)
    test.refresh_from_db()
    assert test.status == "finished" and test.pairs == 2
    assert test.verdict in (ABTest.Verdict.INCONCLUSIVE, ABTest.Verdict.NOT_BETTER)
    assert not Match.objects.filter(ab_test=test, status="queued").exists()


ORGANIZERS_MAY = {
    ("tournaments", "organize"),
    ("tournaments", "add_tournament"),
    ("tournaments", "change_tournament"),
    ("tournaments", "view_tournament"),
    ("ladder", "change_laddersettings"),
    ("ladder", "view_laddersettings"),
}
"""What the Organizers role is for, written out here (not read from the code the
migration or the roles module holds): organize tournaments, pause or resume the ladder."""


def test_the_migration_makes_the_organizers_role(author: User) -> None:
    from django.contrib.auth.models import Group

    from catan_arena.accounts.roles import ROLE_PERMISSIONS

    group = Group.objects.get(name="Organizers")  # made by the migration, not by a test
    made = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert made == ORGANIZERS_MAY
    live = {(app, c) for app, names in ROLE_PERMISSIONS[ORGANIZERS].items() for c in names}
    assert live == made  # the role as the code grants it today is the one the data holds
    assert not author.has_perm("tournaments.organize")
    assert not author.has_perm("ladder.change_laddersettings")
    author.groups.add(group)
    member = User.objects.get(pk=author.pk)  # (permissions are cached on the instance)
    assert member.has_perm("tournaments.organize")
    assert member.has_perm("ladder.change_laddersettings")


def test_an_author_withdraws_and_reinstates_from_the_command_line(
    author: User, other_author: User
) -> None:
    from django.core.management import CommandError, call_command

    mine = active_bots(author, 1)[0]
    spec = f"{mine.bot.name}:{mine.number}"
    with pytest.raises(CommandError, match="only the bot's author"):
        call_command("withdraw", spec, "--as", other_author.username)
    call_command("withdraw", spec, "--as", author.username)
    assert mine not in ladder_versions()
    call_command("withdraw", mine.bot.name, "--as", author.username, "--undo")
    assert mine in ladder_versions()
    with pytest.raises(CommandError, match="no version"):
        call_command("withdraw", "nobody:3", "--as", author.username)
