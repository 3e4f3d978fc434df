"""Bots that turn hostile in the middle of a tournament, played by a real ``celery
worker``: each crashes, hangs, floods its output, exhausts its memory or fork-bombs
after ten decisions. Only its own seat suffers (a fault in words, a forfeit to the
autopilot); the honest bot's seats have no fault; every match finishes and the
tournament ends with its standings."""

from __future__ import annotations

from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.matches.models import MatchSeat
from catan_arena.matches.services import MatchLimits
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import standings
from catan_arena.tournaments.services import TournamentSpec, run_now
from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
TEMPLATE = """
import os
import sys

from bots import Player


class TurnsHostile(Player):
    def act(self, observation):
        self.decisions = getattr(self, "decisions", 0) + 1
        if self.decisions > 10:
            self.attack()
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)

    def attack(self):
{attack}
"""
ATTACKS = {
    "crash": "        os._exit(3)",
    "hang": "        while True:\n            pass",
    "flood": "        sys.stdout.write('x' * (64 << 20))\n"
             "        os.write(1, b'y' * (8 << 20))",
    "memory": "        hoard = []\n"
              "        while True:\n            hoard.append(bytearray(64 << 20))",
    "fork": "        while True:\n            os.fork()",
    "honest": "        pass",
}  # fmt: skip
EXPECTED = {  # the fault kinds each may earn (a flood alone is capped, not a fault)
    "crash": {"crash"},
    "hang": {"timeout"},
    "flood": {"timeout", "garbage", "resource"},
    "memory": {"resource", "error", "crash", "timeout"},  # page faults cost CPU too
    "fork": {"error", "resource", "crash", "timeout"},
}


def test_hostile_bots_mid_tournament_only_hurt_their_own_seats(
    server_mode: dict[str, str], workers: list[Any]
) -> None:
    versions: dict[str, BotVersion] = {}
    for name, attack in ATTACKS.items():
        author = User.objects.create_user(f"author-{name}", password="x-4521-y")
        source = TEMPLATE.format(attack=attack).encode()
        version = upload_version(author, f"turns-{name}", "bot.py", source).version
        # (it passed its validation: it behaves for its first ten decisions)
        BotVersion.objects.filter(pk=version.pk).update(status="active")
        versions[name] = version
    workers.append(CeleryWorker(server_mode, concurrency=2))
    limits = MatchLimits(decision_seconds=0.3, time_bank_seconds=1.0)
    spec = TournamentSpec("hostile cup", format="swiss", table_size=3, rounds=2, limits=limits)
    entries = BotVersion.objects.filter(pk__in=[v.pk for v in versions.values()])
    cup = run_now(spec, list(entries))

    def over() -> bool:
        cup.refresh_from_db()
        return cup.status == Tournament.Status.FINISHED

    wait_for(over, 300, "the tournament to finish", workers[0])
    assert set(cup.matches.values_list("status", flat=True)) == {"finished"}
    seats = MatchSeat.objects.filter(match__tournament=cup).select_related("version__bot")
    seen = set()
    for seat in seats:
        kind = seat.version.bot.name.removeprefix("turns-")
        faults = {f["kind"] for f in seat.faults}
        if kind == "honest":
            assert not faults and seat.forfeit is None, (seat.faults, seat.forfeit)
        elif kind == "flood":
            assert faults <= EXPECTED[kind] and "bytes dropped" in seat.log, seat.faults
        else:
            assert faults and faults <= EXPECTED[kind], (kind, seat.faults)
            assert seat.forfeit is not None
        seen.add(kind)
    for match in cup.matches.prefetch_related("seats"):  # forfeits are placed behind
        kept = [s.placing for s in match.seats.all() if s.forfeit is None]
        lost = [s.placing for s in match.seats.all() if s.forfeit is not None]
        assert not kept or not lost or max(kept) < min(lost)
    assert seen == set(ATTACKS)  # every bot played
    assert {row.name for row in standings(cup)} >= {str(v) for v in versions.values()}
