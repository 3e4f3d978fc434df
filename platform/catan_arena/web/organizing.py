"""Tournament pages that change things: organizers create, open, enter bots, schedule,
start and cancel; authors enter and withdraw their own bots while entries are open.
Every write is one of :mod:`catan_arena.tournaments.services`."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import may_organize
from catan_arena.core.errors import Invalid
from catan_arena.core.limits import DECISION_BOUND, TIME_BANK_BOUND, TOURNAMENT_BOUNDS
from catan_arena.core.page_errors import Refusal, message_on_refusal
from catan_arena.core.params import object_id
from catan_arena.ladder.selectors import playable_versions
from catan_arena.matches.services import MatchLimits
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import (
    own_active_versions,
    playing_versions,
    version_with_bot,
)
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import entered_version_ids, tournament_by_pk
from catan_arena.tournaments.services import (
    TournamentSpec,
    cancel_tournament,
    create_tournament,
    enter_tournament,
    open_entries,
    require_organizer,
    schedule_start,
    start_tournament,
    withdraw_entry,
)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    table_size = forms.TypedChoiceField(choices=[(4, "4"), (3, "3")], coerce=int, initial=4)
    cycles = forms.IntegerField(
        min_value=TOURNAMENT_BOUNDS["cycles"].low,
        max_value=TOURNAMENT_BOUNDS["cycles"].high,
        initial=1,
        help_text="Round robins: tables every pair shares at least.",
    )
    rounds = forms.IntegerField(
        min_value=TOURNAMENT_BOUNDS["rounds"].low,
        max_value=TOURNAMENT_BOUNDS["rounds"].high,
        required=False,
        help_text="Swiss: rounds (blank: enough for the field).",
    )
    games_per_table = forms.IntegerField(
        min_value=TOURNAMENT_BOUNDS["games_per_table"].low,
        max_value=TOURNAMENT_BOUNDS["games_per_table"].high,
        initial=1,
        help_text="Swiss: games each table plays, seats rotated.",
    )
    decision_seconds = forms.FloatField(
        min_value=DECISION_BOUND.low,
        max_value=DECISION_BOUND.high,
        initial=lambda: MatchLimits.default().decision_seconds,
        required=False,
        help_text="CPU seconds per decision (blank: the server's default).",
    )
    time_bank_seconds = forms.FloatField(
        min_value=TIME_BANK_BOUND.low,
        max_value=TIME_BANK_BOUND.high,
        initial=lambda: MatchLimits.default().time_bank_seconds,
        required=False,
        help_text="CPU seconds of bank per game, beyond the decisions' (blank: the default).",
    )
    max_entries = forms.IntegerField(
        min_value=TOURNAMENT_BOUNDS["max_entries"].low,
        max_value=TOURNAMENT_BOUNDS["max_entries"].high,
        required=False,
    )
    entries_per_author = forms.IntegerField(
        min_value=TOURNAMENT_BOUNDS["entries_per_author"].low,
        max_value=TOURNAMENT_BOUNDS["entries_per_author"].high,
        initial=1,
    )
    starts_at = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Blank: start it by hand.",
    )
    open_entries = forms.BooleanField(required=False, initial=True,
                                      label="Open for entries now")  # fmt: skip

    def spec(self) -> TournamentSpec:
        data = self.cleaned_data
        return TournamentSpec(
            name=data["name"],
            format=data["format"],
            table_size=data["table_size"],
            cycles=data["cycles"],
            rounds=data["rounds"],
            games_per_table=data["games_per_table"],
            limits=MatchLimits.asked(data["decision_seconds"], data["time_bank_seconds"]),
            max_entries=data["max_entries"],
            entries_per_author=data["entries_per_author"],
            starts_at=data["starts_at"],
        )


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    require_organizer(user)
    form = TournamentForm(request.POST or None)
    refusal = Refusal(form)
    if request.method == "POST" and form.is_valid():
        with refusal.catch():
            made = create_tournament(
                user, form.spec(), open_entries=form.cleaned_data["open_entries"]
            )
            messages.success(request, f"{made.name} is {made.status}: enter the bots next")
            return redirect("web:tournament", pk=made.pk)
    return render(request, "web/tournament_new.html", {"form": form}, status=refusal.status)


def enterable(
    user: User | AnonymousUser, tournament: Tournament
) -> QuerySet[BotVersion] | list[BotVersion]:
    """The versions ``user`` may enter: an organizer any bot's playing version, an author
    their own active versions; none unless the tournament takes entries (as the service)."""
    if not tournament.takes_entries:
        return []
    if not isinstance(user, User):
        return []
    entered = entered_version_ids(tournament)
    if may_organize(user):
        return [v for v in playing_versions() if v.pk not in entered]
    playable = playable_versions().values("pk")
    return own_active_versions(user).filter(pk__in=playable).exclude(pk__in=entered)


@require_POST
@login_required
def tournament_action(request: HttpRequest, pk: int) -> HttpResponse:
    """One button of the tournament page: open, schedule, start, cancel, enter, withdraw."""
    tournament = tournament_by_pk(pk)
    if tournament is None:
        raise Http404("no such tournament")
    user: User = request.user  # type: ignore[assignment]
    action = request.POST.get("action", "")
    with message_on_refusal(request):
        messages.success(request, _act(user, tournament, action, request))
    return redirect("web:tournament", pk=pk)


def _act(user: User, tournament: Tournament, action: str, request: HttpRequest) -> str:
    if action == "open":
        open_entries(user, tournament)
        return "entries are open"
    if action == "schedule":
        field = forms.DateTimeField()
        when = field.clean(request.POST.get("starts_at"))
        schedule_start(user, tournament, when)
        return f"starts at {when:%Y-%m-%d %H:%M %Z}"
    if action == "start":
        require_organizer(user)
        started = start_tournament(tournament)
        return f"{started.name} is {started.status}" + (f": {started.note}" if started.note else "")
    if action == "cancel":
        voided = cancel_tournament(tournament, user)
        return f"cancelled; {voided} queued games voided"
    if action in ("enter", "withdraw"):
        version = version_with_bot(object_id(request.POST.get("version")))
        if version is None:
            raise Invalid("choose a bot")
        if action == "enter":
            enter_tournament(user, tournament, version)
            return f"{version} entered"
        withdraw_entry(user, tournament, version)
        return f"{version} withdrawn"
    raise Invalid(f"unknown action {action[:20]!r}")
