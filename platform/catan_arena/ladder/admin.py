from django.contrib import admin

from catan_arena.ladder.models import LadderSettings


@admin.register(LadderSettings)
class LadderSettingsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "tables_in_flight", "table_size", "changed_by", "changed_at")
    readonly_fields = ("changed_by", "changed_at")

    def has_add_permission(self, request: object) -> bool:
        return not LadderSettings.objects.exists()

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False

    def save_model(self, request: object, obj: LadderSettings, form: object, change: bool) -> None:
        obj.changed_by = getattr(request, "user", None)
        super().save_model(request, obj, form, change)  # type: ignore[arg-type]
