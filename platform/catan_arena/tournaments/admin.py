from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from catan_arena.accounts.models import User
from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.services import (
    TournamentError,
    cancel_tournament,
    open_entries,
    start_tournament,
)


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    readonly_fields = ("version", "entered_by", "entered_at")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "format", "status", "games_done", "table_size", "starts_at")
    list_filter = ("status", "format")
    readonly_fields = ("status", "pair_imbalance", "started_at", "finished_at", "note")
    inlines = [EntryInline]
    actions = ["open_entries", "start_now", "cancel"]

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        act: object,
        done: str,
    ) -> None:
        assert callable(act)
        for tournament in queryset:
            try:
                result = act(tournament)
            except TournamentError as exc:
                self.message_user(request, f"{tournament}: {exc}", messages.ERROR)
            else:
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
        done = Q(matches__status__in=("finished", "failed", "void"))
        queryset: QuerySet[Tournament] = super().get_queryset(request)
        return queryset.annotate(total=Count("matches"), done=Count("matches", filter=done))

    @admin.display(description="games done")
    def games_done(self, tournament: Tournament) -> str:
        return f"{getattr(tournament, 'done', 0)} / {getattr(tournament, 'total', 0)}"

    def has_organize_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.organize")
