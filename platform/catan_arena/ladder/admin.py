from django.contrib import admin

from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import pace


@admin.register(LadderSettings)
class LadderSettingsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "__str__", "pace_now", "tables_in_flight", "table_size", "settled_games", "changed_by",
        "changed_at",
    )  # fmt: skip
    readonly_fields = ("pace_now", "changed_by", "changed_at")

    @admin.display(description="pace")
    def pace_now(self, obj: LadderSettings) -> str:
        """Full speed (with the versions still under ``settled_games``) or background."""
        now = pace(obj)
        return (
            f"{now.mode} ({now.waiting} under {obj.settled_games} games)"
            if now.waiting
            else now.mode
        )

    def has_add_permission(self, request: object) -> bool:
        return not LadderSettings.objects.exists()

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False

    def save_model(self, request: object, obj: LadderSettings, form: object, change: bool) -> None:
        obj.changed_by = getattr(request, "user", None)
        super().save_model(request, obj, form, change)  # type: ignore[arg-type]
