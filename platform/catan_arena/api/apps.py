from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "catan_arena.api"
    label = "api"
    verbose_name = "REST API"
