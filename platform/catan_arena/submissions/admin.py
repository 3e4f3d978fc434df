from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from catan_arena.accounts.models import User
from catan_arena.ladder.services import reinstate_version, withdraw_version
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
    actions = ["withdraw", "reinstate"]
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

    @admin.action(description="Withdraw from the ladder")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        assert isinstance(request.user, User)
        for version in queryset.select_related("bot"):
            withdraw_version(request.user, version)
        self.message_user(request, f"{queryset.count()} withdrawn", messages.INFO)

    @admin.action(description="Put back on the ladder")
    def reinstate(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        assert isinstance(request.user, User)
        for version in queryset.select_related("bot"):
            reinstate_version(request.user, version)
        self.message_user(request, f"{queryset.count()} back on the ladder", messages.INFO)
