"""Organizers run tournaments here until the site's pages come: the add form, entries
and actions all go through :mod:`.services` (the same checks as every other way in)."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import may_organize
from catan_arena.core.page_errors import as_validation_error, message_on_refusal
from catan_arena.matches.services import MatchLimits
from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.selectors import with_progress
from catan_arena.tournaments.services import (
    TournamentSpec,
    cancel_tournament,
    check_spec,
    enter_tournament,
    open_entries,
    start_tournament,
)

SETTINGS = (
    "name", "format", "table_size", "cycles", "rounds", "games_per_table", "rules",
    "decision_seconds", "time_bank_seconds", "ladder", "starts_at", "max_entries",
    "entries_per_author",
)  # fmt: skip


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Tournament
        fields = SETTINGS

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        with as_validation_error():
            check_spec(
                TournamentSpec(
                    name=data.get("name") or "",
                    format=data.get("format") or "",
                    table_size=data.get("table_size") or 0,
                    cycles=data.get("cycles") or 0,
                    rounds=data.get("rounds"),
                    games_per_table=data.get("games_per_table") or 0,
                    rules=data.get("rules") or {},
                    limits=MatchLimits(
                        data.get("decision_seconds") or 0.0, data.get("time_bank_seconds") or 0.0
                    ),
                    max_entries=data.get("max_entries"),
                    entries_per_author=data.get("entries_per_author") or 0,
                )
            )
        return data


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    """Entries; a new one goes through :func:`.services.enter_tournament`."""

    model = Entry
    extra = 0
    fields = ("version", "entered_by", "entered_at")
    readonly_fields = ("entered_by", "entered_at")
    raw_id_fields = ("version",)
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or obj.status in Tournament.NOT_STARTED


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "format", "status", "games_done", "table_size", "starts_at")
    list_filter = ("status", "format")
    form = TournamentForm
    readonly_fields = ("status", "pair_imbalance", "started_at", "finished_at", "note")
    inlines = [EntryInline]
    actions = ["open_entries", "start_now", "cancel"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.status not in Tournament.NOT_STARTED:
            return (*SETTINGS, *self.readonly_fields)  # settled once it started
        return self.readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and self.has_organize_permission(request)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:  # a new tournament starts as a draft of its organizer
            obj.status = Tournament.Status.DRAFT
            obj.created_by = self._user(request)
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Entry:
            super().save_formset(request, form, formset, change)
            return
        for entry in formset.save(commit=False):
            if entry.pk is not None:
                continue  # an entry is never edited, only made (through the service)
            with message_on_refusal(request, str(entry.version)):
                enter_tournament(self._user(request), form.instance, entry.version)

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        act: object,
        done: str,
    ) -> None:
        assert callable(act)
        for tournament in queryset:
            with message_on_refusal(request, str(tournament)):
                result = act(tournament)
                self.message_user(request, f"{tournament}: {done.format(result)}", messages.INFO)

    @staticmethod
    def _user(request: HttpRequest) -> User:
        assert isinstance(request.user, User)  # the admin lets only signed-in staff in
        return request.user

    @admin.action(description="Open entries", permissions=["organize"])
    def open_entries(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        user = self._user(request)
        self._each(request, queryset, lambda t: open_entries(user, t), "entries open")

    @admin.action(description="Start now (close entries, queue matches)", permissions=["organize"])
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, lambda t: start_tournament(t).status, "{}")

    @admin.action(description="Cancel (keep what was played)", permissions=["organize"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        user = self._user(request)
        self._each(
            request,
            queryset,
            lambda t: cancel_tournament(t, user),
            "cancelled, {} queued games voided",
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return with_progress()

    @admin.display(description="games done")
    def games_done(self, tournament: Tournament) -> str:
        done, total = getattr(tournament, "games_done", 0), getattr(tournament, "games_total", 0)
        return f"{done} / {total}"

    def has_organize_permission(self, request: HttpRequest) -> bool:
        return may_organize(request.user)
