from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "catan_arena.ratings"
    label = "ratings"

    def ready(self) -> None:
        from catan_arena.matches.signals import match_done
        from catan_arena.ratings.receivers import rate_ready_matches

        match_done.connect(rate_ready_matches, dispatch_uid="ratings")
