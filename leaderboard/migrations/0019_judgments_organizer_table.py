"""The organizers' meta-evaluation table (unpublished campaigns included), kept apart from
the public one."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0018_merge_season_work")]

    operations = [
        migrations.AddField(
            model_name="judgments",
            name="organizer_table",
            field=models.JSONField(
                blank=True, help_text="the last table with unpublished campaigns too (organizers only)", null=True
            ),
        ),
        migrations.AddField(
            model_name="judgments",
            name="organizer_table_key",
            field=models.CharField(
                blank=True, help_text="what the organizers' table was computed from", max_length=200
            ),
        ),
    ]
