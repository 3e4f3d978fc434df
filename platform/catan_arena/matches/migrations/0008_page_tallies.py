"""The pages' tallies (each version's games per seat, the head-to-head), counted from
then on as results are recorded, filled here from the finished history. The queries are
frozen here as they were written (``matches/tallies.py`` may change later)."""

import django.db.models.deletion
from django.db import migrations, models

SEAT_TALLIES = """
INSERT INTO matches_seattally
    (version_id, seat, ladder, games, wins, placed, placings, points, forfeits)
SELECT s.version_id, s.seat, m.ladder, COUNT(*),
       SUM(CASE WHEN s.won THEN 1 ELSE 0 END), COUNT(s.placing), COALESCE(SUM(s.placing), 0),
       COALESCE(SUM(s.points), 0), SUM(CASE WHEN s.forfeit IS NULL THEN 0 ELSE 1 END)
FROM matches_matchseat s JOIN matches_match m ON m.id = s.match_id
WHERE m.status = 'finished'
GROUP BY s.version_id, s.seat, m.ladder
"""

MEETINGS = """
INSERT INTO matches_meeting (version_id, opponent_id, games, ahead, behind)
SELECT a.version_id, b.version_id, COUNT(*),
       SUM(CASE WHEN a.placing < b.placing THEN 1 ELSE 0 END),
       SUM(CASE WHEN a.placing > b.placing THEN 1 ELSE 0 END)
FROM matches_matchseat a JOIN matches_matchseat b ON b.match_id = a.match_id AND b.seat <> a.seat
JOIN matches_match m ON m.id = a.match_id
WHERE m.status = 'finished'
GROUP BY a.version_id, b.version_id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("abtests", "0001_initial"),
        ("matches", "0007_seat_bank_left"),
        ("submissions", "0003_version_summary"),
        ("tournaments", "0006_draft_by_default"),
    ]

    operations = [
        migrations.CreateModel(
            name="Meeting",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("games", models.PositiveIntegerField(default=0)),
                ("ahead", models.PositiveIntegerField(default=0)),
                ("behind", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name="SeatTally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                ("ladder", models.BooleanField()),
                ("games", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                (
                    "placed",
                    models.PositiveIntegerField(default=0, help_text="Games with a placing."),
                ),
                (
                    "placings",
                    models.PositiveIntegerField(default=0, help_text="The sum of those placings."),
                ),
                (
                    "points",
                    models.PositiveIntegerField(default=0, help_text="Victory points, summed."),
                ),
                ("forfeits", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["status", "-finished_at"], name="match_status_finished"),
        ),
        migrations.AddField(
            model_name="meeting",
            name="opponent",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="submissions.botversion",
            ),
        ),
        migrations.AddField(
            model_name="meeting",
            name="version",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="meetings",
                to="submissions.botversion",
            ),
        ),
        migrations.AddField(
            model_name="seattally",
            name="version",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seat_tallies",
                to="submissions.botversion",
            ),
        ),
        migrations.AddConstraint(
            model_name="meeting",
            constraint=models.UniqueConstraint(
                fields=("version", "opponent"), name="one_meeting_row"
            ),
        ),
        migrations.AddConstraint(
            model_name="seattally",
            constraint=models.UniqueConstraint(
                fields=("version", "seat", "ladder"), name="one_seat_tally"
            ),
        ),
        migrations.RunSQL(SEAT_TALLIES, migrations.RunSQL.noop),
        migrations.RunSQL(MEETINGS, migrations.RunSQL.noop),
    ]
