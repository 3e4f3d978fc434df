"""The site's pages: thin views over :mod:`.selectors` and the apps' selectors."""

from __future__ import annotations

from typing import Any

import orjson
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from catan_arena.accounts.roles import may_organize
from catan_arena.matches.models import Match
from catan_arena.matches.selectors import (
    may_watch,
    recent_matches_of,
    seat_faults,
    seat_forfeit,
    seats_of,
    watchable_replay,
)
from catan_arena.ratings.selectors import elo_history
from catan_arena.submissions.selectors import is_author
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import (
    entries_of,
    progress,
    standings_table,
    tournament_by_pk,
)
from catan_arena.web import charts, organizing, selectors
from catan_arena.web.authoring import ABTestForm, validating, version_rows
from catan_arena.web.live import live_view

SEAT_COLOURS = ("red", "blue", "white", "orange")
PAGE = 25
"""Matches a list shows at a time (the match list, a tournament's fixtures)."""


def home(request: HttpRequest) -> HttpResponse:
    live, recent = selectors.live_and_recent()
    context = {
        "ladder": selectors.ladder_rows(limit=10),
        "live": live,
        "recent": recent,
        "tournaments": selectors.upcoming_tournaments(),
    }
    return render(request, "web/home.html", context)


def ladder(request: HttpRequest) -> HttpResponse:
    sort = request.GET.get("sort", "elo")
    if sort not in selectors.LADDER_SORTS:
        sort = "elo"
    rows = selectors.ladder_rows(sort)
    return render(request, "web/ladder.html", {"rows": rows, "sort": sort})


def bot(request: HttpRequest, name: str) -> HttpResponse:
    found = selectors.bot_page(name)
    if found is None:
        raise Http404("no such bot")
    versions = list(found.versions.all())
    playing = next((v for v in versions if v.pk == getattr(found, "playing_version", None)), None)
    elo = elo_history(playing.pk) if playing else []
    recent = recent_matches_of(found.pk, selectors.match_rows())
    is_owner = is_author(request.user, found.owner_id)
    context = {
        "bot": found,
        "version_rows": version_rows(versions, request.user),
        "validating": validating(versions),
        "playing": playing,
        "chart": charts.rating_line(elo),
        "recent": recent,
        "seats": selectors.seat_statistics(found),
        "head_to_head": selectors.head_to_head(found),
        "is_owner": is_owner,
    }
    if is_owner:
        context["ab_tests"] = selectors.ab_tests_of(found, request.user)
        context["ab_form"] = ABTestForm(found)
        context["log_links"] = [  # (match id, seat) of this bot's seats, newest first
            (m.pk, s.seat)
            for m in recent
            if m.status == Match.Status.FINISHED
            for s in m.seats.all()
            if s.version.bot_id == found.pk
        ]
    return render(request, "web/bot.html", context)


def matches(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.match_rows().order_by("-id"), PAGE).get_page(request.GET.get("page"))
    return render(request, "web/matches.html", {"page": page})


def match(request: HttpRequest, pk: int) -> HttpResponse:
    found = selectors.match_list().filter(pk=pk).first()
    if found is None:
        raise Http404("no such match")
    seats = seats_of(found)
    user = request.user
    rows = [
        {
            "seat": s,
            "colour": SEAT_COLOURS[s.seat],
            "faults": seat_faults(s, user),
            "forfeit": seat_forfeit(s, user),
        }
        for s in seats
    ]
    live = live_view(pk, user) if found.status in Match.IN_FLIGHT else None
    context = {"match": found, "rows": rows, "live": live, "watchable": may_watch(found, user)}
    return render(request, "web/match.html", context)


def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of a match page, polled by htmx while the match runs; once it is
    over, ``HX-Refresh`` makes the browser reload the page with the result."""
    shown = live_view(pk, request.user)
    if shown is None:
        raise Http404("no such match")
    response = render(request, "web/_live.html", {"live": shown})
    if not shown.is_live:
        response["HX-Refresh"] = "true"
    return response


def position(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Continue from here": the replay cut after ``?step=N`` as a file that
    ``catan-arena play --from FILE`` plays on from (docs/replay-format.md)."""
    data = watchable_replay(pk, request.user).public()
    step = max(0, min(_int(request.GET.get("step"), 0), len(data["steps"])))
    cut = cut_at(data, step, match_id=pk)
    response = HttpResponse(orjson.dumps(cut), content_type="application/json")
    name = f"match-{pk}-step-{step}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def cut_at(replay: dict[str, Any], step: int, *, match_id: int) -> dict[str, Any]:
    """``replay`` (as a client may receive it: :meth:`.WatchableReplay.public`, its seed
    None while a game sharing it is still to play, and the position then plays on with
    fresh chance) as a starting position after ``step`` steps: later steps and the
    result dropped."""
    meta = {"from_step": step, "match": match_id}  # faults and standings: the future
    return {
        **replay,
        "steps": replay["steps"][:step],
        "result": None,
        "meta": meta,
    }


def _int(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw is not None else default
    except ValueError:
        return default


def tournaments(request: HttpRequest) -> HttpResponse:
    context = {
        "tournaments": selectors.tournament_list(),
        "organizer": may_organize(request.user),
    }
    return render(request, "web/tournaments.html", context)


def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    found = tournament_by_pk(pk)
    if found is None:
        raise Http404("no such tournament")
    table = standings_table(found)
    fixtures = Paginator(selectors.fixtures(found), PAGE).get_page(request.GET.get("fixtures"))
    entries = list(entries_of(found.pk))
    context = {
        "tournament": found,
        "table": table,
        "progress": progress(found),
        "fixtures": fixtures,
        "entries": entries,
        "organizer": may_organize(request.user),
        "enterable": organizing.enterable(request.user, found),
        "polling": found.status == Tournament.Status.RUNNING
        or (found.status == Tournament.Status.OPEN and found.starts_at is not None),
    }
    return render(request, "web/tournament.html", context)
