from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "catan_arena.ladder"
    label = "ladder"

    def ready(self) -> None:
        from catan_arena.ladder.receivers import top_up_after_match, top_up_for_newcomer
        from catan_arena.matches.signals import match_done
        from catan_arena.submissions.signals import version_activated

        match_done.connect(top_up_after_match, dispatch_uid="ladder")
        version_activated.connect(top_up_for_newcomer, dispatch_uid="ladder")
