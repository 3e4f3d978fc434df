"""The ladder, ranked, and each version's rating history."""

from __future__ import annotations

from django.db.models import QuerySet
from rest_framework import generics, serializers

from catan_arena.ratings.models import Rating, RatingChange
from catan_arena.ratings.selectors import history, ladder
from catan_arena.ratings.systems import EloConfig, is_provisional


class RatingSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    bot = serializers.CharField(source="version.bot.name", read_only=True)
    version_number = serializers.IntegerField(source="version.number", read_only=True)
    owner = serializers.CharField(source="version.bot.owner.username", read_only=True)
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = (
            "version", "bot", "version_number", "owner", "elo", "provisional", "mu", "sigma",
            "games", "wins", "updated_at",
        )  # fmt: skip
        read_only_fields = fields

    def get_provisional(self, rating: Rating) -> bool:
        return is_provisional(rating.games, EloConfig())


class RatingChangeSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = RatingChange
        fields = (
            "match", "placing", "games_before", "provisional", "elo_before", "elo_after",
            "mu_before", "mu_after", "sigma_before", "sigma_after",
        )  # fmt: skip
        read_only_fields = fields


class LadderView(generics.ListAPIView):  # type: ignore[type-arg]
    """Every rated version, best Elo first, with OpenSkill μ ± σ beside it."""

    serializer_class = RatingSerializer

    def get_queryset(self) -> QuerySet[Rating]:
        return ladder()


class RatingHistoryView(generics.ListAPIView):  # type: ignore[type-arg]
    """One version's rating changes, oldest first."""

    serializer_class = RatingChangeSerializer

    def get_queryset(self) -> QuerySet[RatingChange]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return RatingChange.objects.none()
        return history(int(self.kwargs["pk"]))
