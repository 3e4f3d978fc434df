"""The worker's side of a person's seat: the :class:`~arena_runner.person.Mailbox` of
:class:`~arena_runner.person.PersonDriver` on the database's :class:`.PersonSeat` row.

Posting a decision writes, in one transaction and only while this attempt holds the
match, the seat's step, legal actions and deadline and the match's live replay up to
that step: the person's page and :func:`catan_arena.matches.person.submit_decision`
(which re-plays it to check the answer with ``Game.check``) see the same position."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import transaction

from catan_arena.matches.models import Match, PersonSeat
from engine import Action, Game, Observation
from engine.actions import action_from_dict, action_to_json
from engine.replay import record


@dataclass(frozen=True)
class PersonClaim:
    """A claimed match's person: the seat, its clocks and the name shown for it."""

    seat: int
    decision_seconds: float
    away_seconds: float
    name: str


class DatabaseMailbox:
    """Decisions of match ``match_id`` (attempt ``attempt``) through its
    :class:`PersonSeat`; ``game`` is the match's live game (read when posting) and
    ``names`` the seats' names written with the live replay."""

    def __init__(self, match_id: int, attempt: int, game: Game, names: list[str]) -> None:
        self.match_id = match_id
        self.attempt = attempt
        self.game = game
        self.seats = tuple({"seat": i, "name": name} for i, name in enumerate(names))
        self._seen = 0.0
        """The person's last sign of life as read with the last :meth:`answer`."""

    def post(self, step: int, observation: Observation, deadline: float) -> None:
        live = record(self.game, self.seats).to_dict()
        legal = [action_to_json(a) for a in observation.legal_actions]
        with transaction.atomic():
            held = Match.objects.filter(
                pk=self.match_id, status=Match.Status.RUNNING, attempts=self.attempt
            ).update(live=live)
            if held:
                PersonSeat.objects.filter(match_id=self.match_id).update(
                    step=step,
                    legal=legal,
                    deadline=datetime.fromtimestamp(deadline, UTC),
                    answer=None,
                )

    def answer(self, step: int) -> Action | None:
        """The answer for ``step`` and, in the same query, the person's last sign of
        life (what :meth:`last_seen` says next): one query per look, not two."""
        row = (
            PersonSeat.objects.filter(match_id=self.match_id)
            .values_list("step", "answer", "seen_at")
            .first()
        )
        if row is None:
            return None
        posted, found, seen = row
        self._seen = 0.0 if seen is None else seen.timestamp()
        if posted != step or not isinstance(found, dict) or found.get("step") != step:
            return None
        return action_from_dict(found["action"])  # checked when it was given

    def last_seen(self) -> float:
        return self._seen

    def close(self, step: int) -> None:
        PersonSeat.objects.filter(match_id=self.match_id, step=step).update(
            step=None, legal=[], deadline=None
        )
