"""The Organizers group: organize tournaments, and pause or resume the ladder. Grant
the role in the admin by adding a user to it.

A migration is history: it imports no live code, so the role's name and permissions are
frozen here as they were when it was written (``accounts.roles`` may change later; a
later migration then changes the group)."""

from typing import Any

from django.db import migrations

ORGANIZERS = "Organizers"
GRANTS: dict[str, list[str]] = {
    "tournaments": ["organize", "add_tournament", "change_tournament", "view_tournament"],
    "ladder": ["change_laddersettings", "view_laddersettings"],
}


def add_organizers(apps: Any, schema_editor: Any) -> None:
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():  # permissions are made after migrate: now
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    group, _ = group_model.objects.get_or_create(name=ORGANIZERS)
    for app_label, codenames in GRANTS.items():
        group.permissions.add(
            *permission_model.objects.filter(
                content_type__app_label=app_label, codename__in=codenames
            )
        )


def remove_organizers(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name=ORGANIZERS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_organized_tournaments"),
        ("ladder", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(add_organizers, remove_organizers)]
