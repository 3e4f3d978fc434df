"""The site's pages: thin views over :mod:`.selectors` and the apps' selectors."""

from __future__ import annotations

from typing import Any

import orjson
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page

from catan_arena.accounts.roles import may_organize
from catan_arena.core.params import int_param
from catan_arena.matches.models import Match
from catan_arena.matches.selectors import people_record, recent_matches_of, watchable_replay
from catan_arena.ratings.selectors import elo_history
from catan_arena.submissions.selectors import is_author
from catan_arena.submissions.services import upload_limits
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import (
    entries_of,
    progress,
    standings_table,
    table_sizes,
    tournament_by_pk,
)
from catan_arena.web import charts, guides, live, organizing, selectors
from catan_arena.web.authoring import ABTestForm, validating, version_rows
from catan_arena.web.live import live_view
from catan_arena.web.match_page import match_context
from catan_arena.web.play import PlayForm
from catan_arena.web.replay_pages import ending_of
from engine.replay import Replay

HOME_LIST = 10
"""How many running and how many finished matches the home page lists."""
PAGE = 25
"""Matches a list shows at a time (the match list, a tournament's fixtures)."""


def home(request: HttpRequest) -> HttpResponse:
    live, recent = selectors.live_and_recent(HOME_LIST)
    context = {
        "ladder": selectors.ladder_rows(limit=10),
        "live": live,
        "recent": recent,
        "shown": HOME_LIST,
        "tournaments": selectors.upcoming_tournaments(),
    }
    return render(request, "web/home.html", context)


def ladder(request: HttpRequest) -> HttpResponse:
    sort = request.GET.get("sort", "elo")
    if sort not in selectors.LADDER_SORTS:
        sort = "elo"
    rows = selectors.ladder_rows(sort)
    context: dict[str, Any] = {"rows": rows, "sort": sort}
    if request.user.is_authenticated:  # each row's "Play against this bot" posts it
        context["play_form"] = PlayForm()
    return render(request, "web/ladder.html", context)


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
        "play_form": PlayForm(),
        "people": people_record(found.pk),
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


def guide(request: HttpRequest, slug: str) -> HttpResponse:
    """A guide of ``docs/`` as a page (:mod:`.guides`), stating this server's upload caps."""
    page = guides.guide_page(slug, upload_limits())
    if page is None:
        raise Http404("no such guide")
    return render(request, "web/guide.html", {"page": page, "guides": guides.GUIDES})


def matches(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.match_rows().order_by("-id"), PAGE).get_page(request.GET.get("page"))
    return render(request, "web/matches.html", {"page": page})


def match(request: HttpRequest, pk: int) -> HttpResponse:
    found = selectors.match_list().select_related("tournament").filter(pk=pk).first()
    if found is None:
        raise Http404("no such match")
    context = match_context(found, request.user)
    if found.status in Match.IN_FLIGHT:
        context |= {"live": live_view(pk, request.user), "poll_ms": live.POLL_MS}
    return render(request, "web/match.html", context)


@never_cache
@gzip_page
def match_live_data(request: HttpRequest, pk: int) -> HttpResponse:
    """What a page following a running match polls (:func:`.live.live_update`): the
    steps after ``?since=K`` of ``&attempt=A``; ``&shell=1`` adds the viewer's markup
    at the newest step (a page opened before the first step). Once the match is over:
    the page's new head, and where its replay and winner banner are (if watchable)."""
    user = request.user
    since = int_param(request.GET.get("since"), 0)
    attempt = request.GET.get("attempt")
    update = live.live_update(pk, user, since, int_param(attempt, -1) if attempt else None)
    if update is None:
        raise Http404("no such match")
    if update.get("done"):
        update |= _ended(request, pk)
    elif request.GET.get("shell") and "frames" in update:
        shown = live_view(pk, user)
        if shown is not None and shown.frame is not None:
            update["shell"] = render_to_string(
                "web/_live_viewer.html", {"frame": shown.frame}, request
            )
    return HttpResponse(orjson.dumps(update), content_type="application/json")


def _ended(request: HttpRequest, pk: int) -> dict[str, Any]:
    """What a following page shows once the match is over: its head (result, times)
    and, if ``request.user`` may watch it, its replay's data and winner banner."""
    found = selectors.match_list().select_related("tournament").get(pk=pk)
    context = match_context(found, request.user)
    shown: dict[str, Any] = {
        "head": render_to_string("web/_match_head.html", context, request),
        "replay": None,
        "ending": None,
    }
    if found.status == Match.Status.FINISHED and context["watchable"]:  # it has a replay
        watched = watchable_replay(pk, request.user)
        ending = ending_of(pk, Replay.from_dict(watched.data))
        shown["replay"] = reverse("web:replay-data", args=[pk])
        if ending is not None:
            shown["ending"] = render_to_string(
                "web/_ending.html", {"ending": ending, "hidden": True}, request
            )
    return shown


def position(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Continue from here": the replay cut after ``?step=N`` as a file that
    ``catan-arena play --from FILE`` plays on from (docs/replay-format.md)."""
    data = watchable_replay(pk, request.user).public()
    step = max(0, min(int_param(request.GET.get("step"), 0), len(data["steps"])))
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
        "tables": tables_words(table_sizes(found), found.table_size),
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


def tables_words(sizes: list[int], most: int) -> str:
    """A tournament's tables as played ("tables of 3", "tables of 3 and 4"); before any
    game, the most it will seat."""
    if not sizes:
        return f"tables of up to {most}"
    words = [str(n) for n in sizes]
    return "tables of " + (", ".join(words[:-1]) + " and " if len(words) > 1 else "") + words[-1]
