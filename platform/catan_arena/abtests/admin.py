from django.contrib import admin

from catan_arena.abtests.models import ABPair, ABTest


class ABPairInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ABPair
    extra = 0
    can_delete = False
    readonly_fields = ("number", "seat", "match_a", "match_b", "difference", "void")


@admin.register(ABTest)
class ABTestAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "status", "verdict", "pairs", "mean", "llr", "created_at")
    list_filter = ("status", "verdict")
    readonly_fields = ("pairs", "mean", "llr", "lower", "upper", "finished_at")
    inlines = [ABPairInline]
