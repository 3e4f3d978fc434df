from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "catan_arena.matches"
    label = "matches"

    def ready(self) -> None:
        from catan_arena.matches.receivers import tally_result
        from catan_arena.matches.signals import match_done

        match_done.connect(tally_result, dispatch_uid="matches")
