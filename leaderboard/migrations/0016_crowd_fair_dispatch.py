"""The fair queue (crowd): a submission's lane and when it was dispatched."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0012_merge_parallel_work"),
    ]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="lane",
            field=models.CharField(
                blank=True, help_text="the queue its estimated cost chose ('' = the default queue)", max_length=64
            ),
        ),
        migrations.AddField(
            model_name="submission",
            name="dispatched_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when its job was sent to the queue; unset while it waits behind its team's job",
                null=True,
            ),
        ),
        migrations.AddIndex(
            model_name="submission",
            index=models.Index(fields=["team", "lane", "status"], name="submission_team_lane"),
        ),
    ]
