from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.services import cancel_tournament


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    readonly_fields = ("version",)
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "format", "status", "table_size", "cycles", "created_at")
    list_filter = ("status", "format")
    readonly_fields = ("pair_imbalance", "finished_at")
    inlines = [EntryInline]
    actions = ["cancel"]

    @admin.action(description="Cancel (keep what was played)")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset.filter(status=Tournament.Status.RUNNING):
            voided = cancel_tournament(tournament)
            self.message_user(
                request, f"{tournament}: cancelled, {voided} queued games voided", messages.INFO
            )
