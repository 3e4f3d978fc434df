"""The replay viewer's page (the server-drawn first paint at ``?step=N``, ``&view=SEAT``)
and its data (:mod:`.replay_document`, loaded once by ``static/web/viewer.js``, which
then draws every step in the browser). Both answer 404 to whoever may not watch the
match (:func:`~catan_arena.matches.selectors.watchable_replay`)."""

from __future__ import annotations

import orjson
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page

from catan_arena.matches.models import Match
from catan_arena.matches.selectors import watchable_replay
from catan_arena.web import replay_charts, replay_view
from catan_arena.web.replay_charts import one_decimal
from catan_arena.web.replay_document import document
from engine.replay import Replay, resimulate

CACHED = 3600
"""Seconds a finished replay's charts and data stay cached (a replay never changes)."""


def _watchable(request: HttpRequest, pk: int) -> tuple[Match, Replay]:
    """The match and its replay, or a 404 saying why (:func:`watchable_replay`)."""
    watched = watchable_replay(pk, request.user)
    return watched.match, Replay.from_dict(watched.data)


def _int(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw is not None else default
    except ValueError:
        return default


def _seat(request: HttpRequest, game: Replay) -> int | None:
    view = _int(request.GET.get("view"), -1)
    return view if 0 <= view < game.config.players else None


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay viewer at ``?step=N`` (``&view=SEAT``: what that seat saw)."""
    found, game = _watchable(request, pk)
    seat = _seat(request, game)
    shown = replay_view.frame(game, _int(request.GET.get("step"), 0), seat)
    series = _charts(pk, game, seat)
    luck = [
        {"name": p.name, "mark": p.mark, "got": got, "expected": one_decimal(expected)}
        for p, (got, expected) in zip(shown.players, series.totals(shown.step), strict=True)
    ]
    data_url = reverse("web:replay-data", args=[pk]) + ("" if seat is None else f"?view={seat}")
    context = {
        "match": found,
        "frame": shown,
        "view": seat,
        "view_query": "" if seat is None else f"&view={seat}",  # kept by every step link
        "seats": range(game.config.players),
        "points_chart": replay_charts.points_svg(series, shown.step),
        "luck_chart": replay_charts.luck_svg(series, shown.step),
        "luck": luck,
        "data_url": data_url,
        "ending": ending_of(pk, game),
    }
    return render(request, "web/replay.html", context)


def _charts(pk: int, game: Replay, view: int | None) -> replay_charts.ReplayCharts:
    """The replay's chart series, kept in the cache (a finished replay never changes)."""
    key = f"replay-charts:{pk}:{view}"
    found = cache.get(key)
    if not isinstance(found, replay_charts.ReplayCharts):
        found = replay_charts.replay_charts(game, view)
        cache.set(key, found, timeout=CACHED)
    return found


def ending_of(pk: int, game: Replay) -> replay_view.Ending | None:
    """How the game ended (shown at its last step), kept in the cache."""
    key = f"replay-ending:{pk}"
    found = cache.get(key, False)
    if found is False:
        found = replay_view.ending(game, resimulate(game), replay_view.seat_names(game))
        cache.set(key, found, timeout=CACHED)
    return found if isinstance(found, replay_view.Ending) else None


@gzip_page
def replay_data(request: HttpRequest, pk: int) -> HttpResponse:
    """Every step of the replay as ``?view=SEAT`` (or everyone) may see it, as JSON."""
    _, game = _watchable(request, pk)
    seat = _seat(request, game)
    key = f"replay-document:{pk}:{seat}"
    body = cache.get(key)
    if not isinstance(body, bytes):
        body = orjson.dumps(document(game, seat))
        cache.set(key, body, timeout=CACHED)
    return HttpResponse(body, content_type="application/json")
