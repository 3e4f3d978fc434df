from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "catan_arena.tournaments"
    label = "tournaments"
