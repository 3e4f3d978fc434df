from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "catan_arena.submissions"
    label = "submissions"
