from django.apps import AppConfig


class AbTestsConfig(AppConfig):
    name = "catan_arena.abtests"
    label = "abtests"
    verbose_name = "A/B tests"

    def ready(self) -> None:
        from catan_arena.abtests.receivers import ab_test_progress
        from catan_arena.matches.signals import match_done

        match_done.connect(ab_test_progress, dispatch_uid="abtests")
