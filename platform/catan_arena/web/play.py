"""The pages of a person's game against bots (issue 23): start one from a bot's page,
the play page (the board is the control: :mod:`.play_view` and ``static/web/play.js``),
the state it polls and the decision it posts. Writes go through
:mod:`catan_arena.matches.person`; refusals come back as the API's error shape."""

from __future__ import annotations

from typing import Any

import orjson
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from catan_arena.abtests.fair_use import admit_person_game, lock_author
from catan_arena.core.errors import json_error
from catan_arena.core.page_errors import json_refusals, message_on_refusal, missing_as_404
from catan_arena.matches.models import Match
from catan_arena.matches.person import house_version, note_seen, start_person_game, submit_decision
from catan_arena.submissions.selectors import bot_named, playing_version
from catan_arena.web.play_view import play_view
from catan_arena.web.replay_view import SEAT_NAMES

POLL_MS = 1000
"""How often the play page asks for the position (also the person's sign of life)."""
FILLERS = ("random", "heuristic", "search")
"""House bots that may fill the other seats."""


class PlayForm(forms.Form):
    players = forms.TypedChoiceField(choices=[(4, "4"), (3, "3")], coerce=int, initial=4)
    fillers = forms.ChoiceField(choices=[(f, f) for f in FILLERS], initial="random")
    seat = forms.TypedChoiceField(
        choices=[("", "any"), *((s, str(s + 1)) for s in range(4))],
        coerce=int,
        empty_value=None,
        required=False,
    )


BACK = "ladder"
"""The ``back`` field of the ladder's form: a refusal returns there, not to the bot's
page (a fixed name, never a URL from the request)."""


def _back(request: HttpRequest, name: str) -> HttpResponse:
    if request.POST.get("back") == BACK:
        return redirect("web:ladder")
    return redirect("web:bot", name=name)


@login_required
@require_POST
def start_game(request: HttpRequest, name: str) -> HttpResponse:
    """ "Play against this bot" (a bot's page, or a row of the ladder: the same form): a
    game of the person against its playing version and house bots filling the other
    seats."""
    bot = bot_named(name)
    version = None if bot is None else playing_version(bot)
    if version is None:
        raise Http404("no such bot, or none of its versions plays")
    form = PlayForm(request.POST)
    if not form.is_valid():
        messages.error(request, "choose the players, the bots that fill and your seat")
        return _back(request, name)
    user: Any = request.user
    data = form.cleaned_data

    def admit() -> None:
        lock_author(user.pk)
        admit_person_game(user)

    with message_on_refusal(request, "game not started"):
        fill = house_version(data["fillers"])
        bots = [version, *[fill] * (data["players"] - 2)]
        match = start_person_game(user, bots, seat=data["seat"], admit=admit)
        return redirect("web:play", pk=match.pk)
    return _back(request, name)


def _status(match: Match) -> str:
    if match.status == Match.Status.QUEUED:
        return "Waiting for a worker to start your game…"
    if match.status == Match.Status.RUNNING:
        return "Playing."
    return "The game is over."


@login_required
def play(request: HttpRequest, pk: int) -> HttpResponse:
    """The person's page of their game (resumes wherever the game is)."""
    seat = _seen(request, pk)
    match = Match.objects.defer("live").get(pk=pk)  # the blob: drawn once a step
    context = {
        "match": match,
        "seat": seat,
        "colour": SEAT_NAMES[seat.seat],
        "view": play_view(match, seat),
        "status": _status(match),
        "poll_ms": POLL_MS,
    }
    return render(request, "web/play.html", context)


def _seen(request: HttpRequest, pk: int) -> Any:
    with missing_as_404():
        return note_seen(request.user, pk)


@login_required
def play_state(request: HttpRequest, pk: int) -> HttpResponse:
    """What the play page polls: the status, the decision waiting (its step, seconds
    left, choices) and, unless the page has it (``?have=``), the board and side panel."""
    seat = _seen(request, pk)
    match = Match.objects.defer("live").get(pk=pk)  # the blob: drawn once a step
    view = play_view(match, seat, have=request.GET.get("have"))
    answer: dict[str, Any] = {
        "status": match.status,
        "note": _status(match),
        "step": view.step,
        "seconds_left": view.seconds_left,
        "choices": [c.to_json() for c in view.choices],
    }
    if match.status in Match.DONE:
        answer |= {"done": True, "match_url": reverse("web:match", args=[pk])}
        if match.status == Match.Status.FINISHED:
            answer["replay_url"] = reverse("web:replay", args=[pk])
        return JsonResponse(answer)
    if view.key is not None:
        answer["key"] = view.key
    if view.board is not None:  # not the board the page has
        answer["board"] = view.board
        answer["side"] = view.side
    return JsonResponse(answer)


@login_required
@require_POST
@json_refusals
def play_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """The person's decision, ``{"step": k, "action": {...}}``: 200 ``{"ok": true}``, or
    the refusal (nothing changed) as ``{"error": {...}}``."""
    try:
        body = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        return json_error(400, "invalid", 'send JSON: {"step": k, "action": {...}}')
    if not isinstance(body, dict):
        return json_error(400, "invalid", "send a JSON object")
    submit_decision(request.user, pk, body.get("step"), body.get("action"))
    return JsonResponse({"ok": True})
