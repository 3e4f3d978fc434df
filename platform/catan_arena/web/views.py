"""The site's pages: thin views over :mod:`.selectors` and the apps' selectors."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.selectors import replay_of
from catan_arena.ratings.selectors import history
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import progress, standings, strengths
from catan_arena.web import charts, replay_view, selectors
from engine.replay import Replay

SEAT_COLOURS = ("red", "blue", "white", "orange")


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
    playing = next((v for v in versions if v.status == "active"), None)
    changes = list(history(playing.pk)) if playing else []
    recent = list(
        selectors.match_list().filter(seats__version__bot=found).distinct().order_by("-id")[:20]
    )
    context = {
        "bot": found,
        "versions": versions,
        "playing": playing,
        "chart": charts.rating_line([c.elo_after for c in changes]),
        "recent": recent,
        "seats": selectors.seat_statistics(found),
        "is_owner": request.user.is_authenticated and request.user.pk == found.owner_id,
    }
    return render(request, "web/bot.html", context)


def matches(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.match_list().order_by("-id"), 50).get_page(request.GET.get("page"))
    return render(request, "web/matches.html", {"page": page})


def match(request: HttpRequest, pk: int) -> HttpResponse:
    found = selectors.match_list().filter(pk=pk).first()
    if found is None:
        raise Http404("no such match")
    seats = list(MatchSeat.objects.filter(match=found).select_related("version__bot__owner"))
    rows = [{"seat": s, "colour": SEAT_COLOURS[s.seat], "faults": s.faults} for s in seats]
    live = found.status in (Match.Status.QUEUED, Match.Status.RUNNING)
    return render(request, "web/match.html", {"match": found, "rows": rows, "live": live})


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay viewer at ``?step=N`` (``&view=SEAT``: what that seat saw)."""
    found = Match.objects.filter(pk=pk).only("status", "replay", "rules").first()
    data = replay_of(found) if found is not None else None
    if found is None or data is None:
        raise Http404("no replay for this match")
    game = Replay.from_dict(data)
    step = _int(request.GET.get("step"), 0)
    view = _int(request.GET.get("view"), -1)
    seat = view if 0 <= view < game.config.players else None
    shown = replay_view.frame(game, step, seat)
    context = {"match": found, "frame": shown, "view": seat, "seats": range(game.config.players)}
    return render(request, "web/replay.html", context)


def _int(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw is not None else default
    except ValueError:
        return default


def tournaments(request: HttpRequest) -> HttpResponse:
    return render(request, "web/tournaments.html", {"tournaments": selectors.tournament_list()})


def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    found = Tournament.objects.filter(pk=pk).first()
    if found is None:
        raise Http404("no such tournament")
    fitted = strengths(found)
    table = [(row, fitted[row.version_id]) for row in standings(found)]
    fixtures = selectors.match_list().filter(tournament=found).order_by("round", "id")[:200]
    context = {
        "tournament": found,
        "table": table,
        "progress": progress(found),
        "fixtures": fixtures,
    }
    return render(request, "web/tournament.html", context)
