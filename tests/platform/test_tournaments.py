"""Round-robin tournaments on the platform: the built-ins registered as versions of the
system account, a schedule of matches, played by the embedded default's local workers
(the same ``run_match`` as the Celery task), standings."""

from __future__ import annotations

import pytest

from catan_arena.accounts.models import User
from catan_arena.matches.embedded import run_embedded
from catan_arena.matches.models import Match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins
from catan_arena.tournaments.selectors import progress, standings
from catan_arena.tournaments.services import (
    TournamentError,
    cancel_tournament,
    create_round_robin,
)
from tests.support.records import FAST, active_bots, assert_one_board_and_dice


@pytest.mark.django_db
def test_builtins_are_active_versions_of_the_system_account() -> None:
    versions = register_builtins()
    assert sorted(v.bot.name for v in versions) == ["heuristic", "random", "search"]
    assert all(v.status == "active" and v.bot.owner.is_system for v in versions)
    assert register_builtins() == versions  # idempotent
    assert BotVersion.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_among_uploaded_and_builtin_bots(
    author: User, other_author: User, subprocess_env: dict[str, str]
) -> None:
    builtins = [v for v in register_builtins() if v.bot.name != "search"]
    third = User.objects.create_user("hedy", password="not-used-here-4521")
    entries = [
        *builtins, *active_bots(author, 1), *active_bots(other_author, 1), *active_bots(third, 1)
    ]  # fmt: skip
    tournament = create_round_robin("test cup", entries, cycles=1, limits=FAST)
    matches = list(tournament.matches.all())
    assert matches and all(m.status == "queued" and not m.ladder for m in matches)
    for match in matches:  # one version per author at a table
        owners = [s.version.bot.owner_id for s in match.seats.select_related("version__bot")]
        people = [o for o in owners if o in (author.pk, other_author.pk)]
        assert len(people) == len(set(people))

    reports: list[tuple[int, str | None]] = []
    run_embedded([m.pk for m in matches], 2, lambda pk, st, err: reports.append((pk, st)))
    assert sorted(reports) == sorted((m.pk, "finished") for m in matches)

    tournament.refresh_from_db()
    assert tournament.status == "finished"
    done = progress(tournament)
    assert (done.total, done.finished, done.failed) == (len(matches), len(matches), 0)
    table = standings(tournament)
    assert {row.version_id for row in table} == {v.pk for v in entries}
    seats = sum(len(m.seats.all()) for m in matches)
    assert sum(row.games for row in table) == seats
    assert len({row.games for row in table}) == 1  # every entry plays as often
    assert (
        sum(row.wins for row in table)
        == Match.objects.filter(tournament=tournament, winner_seat__isnull=False).count()
    )
    points = [row.placing_points for row in table]
    assert points == sorted(points, reverse=True)


@pytest.mark.django_db
def test_a_cancelled_tournament_keeps_what_was_played(
    three_authors_bots: list[BotVersion],
) -> None:
    from catan_arena.matches.services import run_match

    tournament = create_round_robin("short", three_authors_bots, cycles=2, limits=FAST)
    assert tournament.matches.count() == 6
    first = tournament.matches.order_by("id").first()
    assert first is not None and run_match(first.pk) == "finished"
    voided = cancel_tournament(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert voided == tournament.matches.count() - 1
    assert tournament.matches.filter(status="finished").count() == 1
    assert sum(row.games for row in standings(tournament)) == 3


@pytest.mark.django_db
def test_entries_must_be_active_and_distinct(author: User) -> None:
    versions = active_bots(author, 3)
    with pytest.raises(TournamentError, match="entered once"):
        create_round_robin("x", [versions[0], *versions[:2]])
    versions[2].status = "rejected"
    versions[2].save()
    with pytest.raises(TournamentError, match="only active versions"):
        create_round_robin("x", versions)


@pytest.mark.django_db
def test_one_authors_bots_alone_cannot_make_a_round_robin(author: User) -> None:
    with pytest.raises(TournamentError, match="at least 3 different authors"):
        create_round_robin("solo", active_bots(author, 4))
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_duplicate_rotations_share_board_and_dice_with_fresh_bots(
    three_authors_bots: list[BotVersion],
) -> None:
    from catan_arena.matches.play import await_bots_exit, worker_runner
    from catan_arena.matches.selectors import replay_of
    from catan_arena.matches.services import run_match

    tournament = create_round_robin(
        "dup", three_authors_bots, cycles=1, limits=FAST, duplicate=True
    )
    assert tournament.format == "duplicate"
    matches = list(tournament.matches.order_by("id"))
    assert len(matches) == 3 and len({m.seed for m in matches}) == 1
    replays = []
    for match in matches:
        assert run_match(match.pk) == "finished"
        await_bots_exit()
        assert worker_runner().drivers == []  # its bot processes were killed after the game
        match.refresh_from_db()
        replays.append(replay_of(match))
    assert_one_board_and_dice(replays)
    seatings = [tuple(s.version_id for s in m.seats.order_by("seat")) for m in matches]
    assert len(set(seatings)) == 3  # each rotation seats the bots differently


@pytest.mark.django_db
def test_plain_round_robin_rotations_get_fresh_seeds(three_authors_bots: list[BotVersion]) -> None:
    tournament = create_round_robin("plain", three_authors_bots, cycles=1, limits=FAST)
    assert len({m.seed for m in tournament.matches.all()}) == 3


@pytest.mark.django_db
def test_strengths_and_head_to_head_of_a_tournament(three_authors_bots: list[BotVersion]) -> None:
    from catan_arena.matches.services import run_match
    from catan_arena.tournaments.selectors import head_to_head_table, strengths

    tournament = create_round_robin("fit", three_authors_bots, cycles=1, limits=FAST)
    for match in tournament.matches.all():
        run_match(match.pk)
    fitted = strengths(tournament, samples=20)
    assert set(fitted) == {v.pk for v in three_authors_bots}
    assert all(f.low <= f.strength <= f.high for f in fitted.values())
    assert abs(sum(f.strength for f in fitted.values())) < 1e-6
    record = head_to_head_table(tournament)
    a, b = three_authors_bots[0].pk, three_authors_bots[1].pk
    assert record[(a, b)].games == 3
    assert record[(a, b)].ahead == record[(b, a)].behind


@pytest.mark.django_db
def test_a_swiss_tournament_pairs_each_round_from_the_last(
    eight_authors_bots: list[BotVersion],
) -> None:
    from catan_arena.matches.services import run_match
    from catan_arena.tournaments.selectors import swiss_history
    from catan_arena.tournaments.services import TournamentSpec, run_now

    versions = eight_authors_bots
    spec = TournamentSpec("swiss", format="swiss", rounds=2, limits=FAST)
    tournament = run_now(spec, versions)
    assert tournament.status == "running" and tournament.rounds == 2
    first = list(tournament.matches.order_by("id"))
    assert [m.round for m in first] == [1, 1]  # one round at a time
    assert progress(tournament).total == 4
    for match in first:
        assert run_match(match.pk) == "finished"
    second = list(tournament.matches.filter(round=2).order_by("id"))
    assert len(second) == 2  # queued when round 1's last match was recorded
    played = standings(tournament)
    leaders = {played[0].version_id, played[1].version_id}
    top_table = {s.version_id for s in second[0].seats.all()}
    assert leaders <= top_table  # the two best of round 1 meet in round 2
    for match in second:
        assert run_match(match.pk) == "finished"
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert len(swiss_history(tournament)) == 4
    final = standings(tournament)
    assert sum(row.games for row in final) == 16
    keys = [(-r.placing_points, -r.buchholz) for r in final]
    assert keys == sorted(keys)


@pytest.mark.django_db
def test_swiss_tables_play_their_games_in_rotated_seats(
    eight_authors_bots: list[BotVersion],
) -> None:
    from catan_arena.tournaments.services import TournamentSpec, run_now

    versions = eight_authors_bots
    spec = TournamentSpec("swiss", format="swiss", games_per_table=2, limits=FAST)
    tournament = run_now(spec, versions)
    matches = list(tournament.matches.order_by("id"))
    assert len(matches) == 4 and {m.round for m in matches} == {1}
    seatings = [[s.version_id for s in m.seats.order_by("seat")] for m in matches]
    for first, second in (seatings[0:2], seatings[2:4]):
        assert second == first[1:] + first[:1]
    with pytest.raises(TournamentError, match="games per table"):
        run_now(TournamentSpec("x", format="swiss", games_per_table=5), versions)
