"""What the match page says about a match: its one kind label, and per seat the bot,
the result, what went wrong, the time it took (mean and longest decision, the time bank
left) and, for the bot's author, a link to the log its bot wrote. The page's head is
drawn by ``templates/web/_match_head.html`` from :func:`match_context`, on the page and
again in the live data once the match is over (:mod:`.live`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from catan_arena.abtests.selectors import visible_ab_tests
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.selectors import (
    may_watch,
    person_in,
    seat_faults,
    seat_forfeit,
    seats_of,
)
from catan_arena.submissions.selectors import is_author
from catan_arena.web.board_svg import mark_svg
from catan_arena.web.replay_view import SEAT_NAMES

KIND_LABELS = {
    "tournament": "Tournament game",
    "ab_test": "A/B test game",
    "ladder": "Ladder game",
    "exhibition": "Exhibition game",
    "person": "A game with a person against bots (never rated)",
}
"""One label per :attr:`Match.kind <catan_arena.matches.models.Match.kind>`."""


def kind_label(match: Match, user: Any) -> SafeString:
    """The match's kind in words, once: a tournament's game names (and links) its
    tournament and round, and says when it moves the ladder too. An A/B test's game is
    named so only to who may see that test (:func:`visible_ab_tests`, the API's rule);
    to anyone else it is the exhibition game it looks like."""
    kind, test = match.kind, match.ab_test_id
    if test is not None and not visible_ab_tests(user).filter(pk=test).exists():
        kind = "exhibition"
    label = KIND_LABELS[kind]
    if kind != "tournament" or match.tournament is None:
        return format_html("{}", label)
    url = reverse("web:tournament", args=[match.tournament_id])
    words = format_html('{} of <a href="{}">{}</a>', label, url, match.tournament.name)
    if match.round:
        words = format_html("{}, round {}", words, match.round)
    if match.ladder:
        words = format_html("{} (rated on the ladder too)", words)
    return words


def duration(ms: float | None) -> str:
    """A decision time in words: "0.4 ms", "38 ms", "1.25 s"; "—" when unknown."""
    if ms is None:
        return "—"
    if ms < 10:
        return f"{ms:.1f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    return f"{ms / 1000:.2f} s"


@dataclass(frozen=True)
class SeatRow:
    seat: MatchSeat
    colour: str
    """The seat's colour in words ("red")."""
    faults: list[dict[str, Any]]
    forfeit: dict[str, Any] | None
    mean: str
    """Mean decision time in words."""
    longest: str
    bank_left: str
    """The time bank left at the end, of the match's bank ("—" until it is recorded)."""
    log_url: str | None
    """The seat's log, for its bot's author (and staff) once the match is finished."""
    person: str | None = None
    """A person's seat: their name (its version is only the autopilot's stand-in)."""

    @property
    def mark(self) -> str:
        """The seat's colour and mark, as on the board (SVG)."""
        return mark_svg(self.seat.seat)


def seat_rows(match: Match, user: Any) -> list[SeatRow]:
    """Each seat as ``user`` may read it."""
    finished = match.status == Match.Status.FINISHED
    person = person_in(match)
    rows = []
    for s in seats_of(match):
        owner = is_author(user, s.version.bot.owner_id)
        bank = s.bank_left_seconds
        rows.append(
            SeatRow(
                seat=s,
                colour=SEAT_NAMES[s.seat].lower(),
                faults=seat_faults(s, user),
                forfeit=seat_forfeit(s, user),
                mean=duration(s.mean_decision_ms) if s.decisions else "—",
                longest=duration(s.max_decision_ms) if s.decisions else "—",
                bank_left="—" if bank is None else f"{bank:.1f} s of {match.time_bank_seconds:g} s",
                log_url=reverse("web:seat-log", args=[match.pk, s.seat])
                if owner and finished
                else None,
                person=person[1] if person is not None and person[0] == s.seat else None,
            )
        )
    return rows


def match_context(match: Match, user: Any) -> dict[str, Any]:
    """What ``_match_head.html`` draws for ``user``."""
    return {
        "match": match,
        "kind": kind_label(match, user),
        "rows": seat_rows(match, user),
        "watchable": may_watch(match, user),
    }
