from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "catan_arena.matches"
    label = "matches"
