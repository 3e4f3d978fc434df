"""Bots and their versions in the admin (read-only: versions are immutable). The
ladder's actions on a version (withdraw, reinstate) are added by the ladder's admin."""

from django.contrib import admin

from catan_arena.submissions.models import Bot, BotVersion


class VersionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = BotVersion
    fields = ("number", "status", "kind", "filename", "builtin", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "owner", "created_at")
    search_fields = ("name", "owner__username")
    inlines = [VersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "status", "kind", "filename", "withdrawn_at", "created_at")
    list_filter = ("status", "kind")
    search_fields = ("bot__name",)
    exclude = ("content",)
    readonly_fields = (
        "bot",
        "number",
        "sha256",
        "kind",
        "filename",
        "status",
        "report",
        "builtin",
        "created_at",
        "status_changed_at",
        "withdrawn_at",
        "inherits_from",
    )
