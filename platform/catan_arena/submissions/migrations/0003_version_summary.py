"""A public ``summary`` beside the author's ``report`` (issue 19): reports written before
hold the bot's output, so existing versions get a summary from their status alone."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

PUBLIC = {
    "active": "verdict: passed",
    "rejected": "verdict: rejected (the reason is in its author's report)",
}


def summarise(apps: Any, schema_editor: Any) -> None:
    BotVersion = apps.get_model("submissions", "BotVersion")
    BotVersion.objects.exclude(builtin="").update(summary=models.F("report"))
    for status, words in PUBLIC.items():
        BotVersion.objects.filter(builtin="", status=status).update(summary=words)


class Migration(migrations.Migration):
    dependencies = [("submissions", "0002_ladder_withdraw_and_inherit")]

    operations = [
        migrations.AlterField(
            model_name="botversion",
            name="report",
            field=models.TextField(
                blank=True,
                help_text="The validation report for its author: what the bot printed, its "
                "traceback and exception text included (never shown to anyone else).",
            ),
        ),
        migrations.AddField(
            model_name="botversion",
            name="summary",
            field=models.TextField(
                blank=True,
                help_text="The verdict for everyone: passed, or rejected with a plain reason "
                "(arena_runner.disclosure); no output of the bot's, no paths.",
            ),
        ),
        migrations.RunPython(summarise, migrations.RunPython.noop),
    ]
