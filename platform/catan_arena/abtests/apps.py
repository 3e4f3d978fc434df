from django.apps import AppConfig


class AbTestsConfig(AppConfig):
    name = "catan_arena.abtests"
    label = "abtests"
    verbose_name = "A/B tests"
