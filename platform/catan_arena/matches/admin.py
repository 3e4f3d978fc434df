from django.contrib import admin

from catan_arena.matches.models import Match, MatchSeat


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = MatchSeat
    fields = ("seat", "version", "points", "placing", "won", "fault_count", "forfeit",
              "decisions", "mean_decision_ms")  # fmt: skip
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "status", "tournament", "ladder", "attempts", "turns", "winner_seat",
                    "created_at", "duration_seconds")  # fmt: skip
    list_filter = ("status", "ladder", "tournament")
    exclude = ("replay",)
    readonly_fields = (
        "seed", "rules", "status", "attempts", "attempt_log", "replay_sha256", "worker",
        "started_at", "deadline", "finished_at", "sandbox_tier",
    )  # fmt: skip
    inlines = [SeatInline]
