from django.contrib import admin

from catan_arena.ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("version", "elo", "mu", "sigma", "games", "wins", "updated_at")
    readonly_fields = ("version", "elo", "mu", "sigma", "games", "wins")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("match", "version", "placing", "elo_before", "elo_after", "provisional")
    list_filter = ("provisional",)
