from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "catan_arena.accounts"
    label = "accounts"
