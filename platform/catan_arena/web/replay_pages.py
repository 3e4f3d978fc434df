"""The replay viewer's page (the server-drawn first paint at ``?step=N``, ``&view=SEAT``)
and its data (:mod:`.replay_document`, loaded once by ``static/web/viewer.js``, which
then draws every step in the browser). Both answer 404 to whoever may not watch the
match (:func:`~catan_arena.matches.selectors.watchable_replay`)."""

from __future__ import annotations

import threading
from collections import OrderedDict

import orjson
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page

from catan_arena.core.params import int_param
from catan_arena.matches.models import Match
from catan_arena.matches.selectors import WatchableReplay, finished_replay, watchable_replay
from catan_arena.web import replay_charts, replay_view
from catan_arena.web.replay_charts import one_decimal
from catan_arena.web.replay_document import document
from engine.game import Game
from engine.replay import Replay

CACHED = 3600
"""Seconds a finished replay's charts and data stay cached (a replay never changes)."""


PARSED_KEPT = 8
"""Finished replays each web process keeps parsed (a long game's replay takes ~35 ms to
unpack and parse, more than drawing any of its steps)."""


def _watchable(request: HttpRequest, pk: int) -> tuple[Match, Replay]:
    """The match and its replay, or a 404 saying why (:func:`watchable_replay`: the
    reader's right is asked on every request; only the parsing is kept)."""
    watched = watchable_replay(pk, request.user)
    return watched.match, _parsed(watched)


def _parsed(watched: WatchableReplay) -> Replay:
    """``watched``'s replay parsed, from this process's last :data:`PARSED_KEPT` (a
    stored replay never changes: its sha256 is part of the key)."""
    key = (watched.match.pk, watched.match.replay_sha256)
    with _PARSED_LOCK:
        found = _PARSED.get(key)
        if found is not None:
            _PARSED.move_to_end(key)
            return found
    found = Replay.from_dict(watched.data)
    with _PARSED_LOCK:
        _PARSED[key] = found
        while len(_PARSED) > PARSED_KEPT:
            _PARSED.popitem(last=False)
    return found


_PARSED: OrderedDict[tuple[int, str], Replay] = OrderedDict()
_PARSED_LOCK = threading.Lock()


def _seat(request: HttpRequest, game: Replay) -> int | None:
    view = int_param(request.GET.get("view"), -1)
    return view if 0 <= view < game.config.players else None


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay viewer at ``?step=N`` (``&view=SEAT``: what that seat saw)."""
    found, game = _watchable(request, pk)
    seat = _seat(request, game)
    step = max(0, min(int_param(request.GET.get("step"), 0), len(game.steps)))
    series, end, at = _summary(pk, game, seat, step)
    shown = replay_view.frame(game, step, seat, game=at)
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
        "ending": end,
    }
    return render(request, "web/replay.html", context)


def _summary(
    pk: int, game: Replay, view: int | None, step: int | None = None
) -> tuple[replay_charts.ReplayCharts, replay_view.Ending | None, Game | None]:
    """The replay's chart series and how it ended, kept in the cache (a finished replay
    never changes); on a miss both come from one pass over the replay, which also keeps
    the state after ``step`` (else None: the frame re-simulates up to it)."""
    charts_key, ending_key = f"replay-charts:{pk}:{view}", f"replay-ending:{pk}"
    cached = cache.get_many([charts_key, ending_key])
    charts, end = cached.get(charts_key), cached.get(ending_key, False)
    if isinstance(charts, replay_charts.ReplayCharts) and end is not False:
        return charts, end if isinstance(end, replay_view.Ending) else None, None
    charts, last, at = replay_charts.chart_pass(game, view, keep=step)
    end = replay_view.ending(game, last, replay_view.seat_names(game))
    cache.set_many({charts_key: charts, ending_key: end}, timeout=CACHED)
    return charts, end, at


def ending_of(pk: int, game: Replay) -> replay_view.Ending | None:
    """How the game ended (shown at its last step), kept in the cache with its charts."""
    return _summary(pk, game, None)[1]


def warm(pk: int) -> None:
    """Fill the cache of a match's replay page (its all-seeing charts and ending), once
    its result is committed (:mod:`.receivers`), so its first spectators find it."""
    data = finished_replay(pk)
    if data is not None:
        _summary(pk, Replay.from_dict(data), None)


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
