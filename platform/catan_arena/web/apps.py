from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "catan_arena.web"
    label = "web"
    verbose_name = "site pages"

    def ready(self) -> None:
        from catan_arena.matches.signals import match_done
        from catan_arena.web.receivers import warm_after_result

        match_done.connect(warm_after_result, dispatch_uid="web")
