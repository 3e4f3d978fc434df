from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "catan_arena.web"
    label = "web"
    verbose_name = "site pages"
