from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "catan_arena.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from catan_arena.matches.signals import match_done
        from catan_arena.tournaments.receivers import tournament_progress

        match_done.connect(tournament_progress, dispatch_uid="tournaments")
