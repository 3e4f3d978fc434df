"""The ladder in the admin: its settings row (paused or running only through
:func:`.services.set_ladder_paused` and its permission check), and its actions on bot
versions (withdraw, reinstate: :mod:`.services`)."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from catan_arena.accounts.models import User
from catan_arena.core.page_errors import message_on_refusal
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import pace
from catan_arena.ladder.services import reinstate_version, set_ladder_paused, withdraw_version
from catan_arena.submissions.admin import BotVersionAdmin
from catan_arena.submissions.models import BotVersion


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # the admin lets only signed-in staff in
    return request.user


@admin.register(LadderSettings)
class LadderSettingsAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "__str__", "pace_now", "tables_in_flight", "table_size", "settled_games", "changed_by",
        "changed_at",
    )  # fmt: skip
    readonly_fields = ("paused", "pace_now", "changed_by", "changed_at")
    actions = ["pause", "resume"]

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

    @admin.action(description="Pause the ladder (matches in flight finish)")
    def pause(self, request: HttpRequest, queryset: QuerySet[LadderSettings]) -> None:
        with message_on_refusal(request, "not paused"):
            set_ladder_paused(_user(request), True)
            self.message_user(request, "the ladder is paused", messages.INFO)

    @admin.action(description="Resume the ladder")
    def resume(self, request: HttpRequest, queryset: QuerySet[LadderSettings]) -> None:
        with message_on_refusal(request, "not resumed"):
            set_ladder_paused(_user(request), False)
            self.message_user(request, "the ladder runs", messages.INFO)


admin.site.unregister(BotVersion)


@admin.register(BotVersion)
class LadderBotVersionAdmin(BotVersionAdmin):
    """The versions' admin with the ladder's actions."""

    actions = ["withdraw", "reinstate"]

    @admin.action(description="Withdraw from the ladder")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        for version in queryset.select_related("bot"):
            withdraw_version(_user(request), version)
        self.message_user(request, f"{queryset.count()} withdrawn", messages.INFO)

    @admin.action(description="Put back on the ladder")
    def reinstate(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        for version in queryset.select_related("bot"):
            reinstate_version(_user(request), version)
        self.message_user(request, f"{queryset.count()} back on the ladder", messages.INFO)
