from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "catan_arena.ladder"
    label = "ladder"
