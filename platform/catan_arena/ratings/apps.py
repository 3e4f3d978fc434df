from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "catan_arena.ratings"
    label = "ratings"
