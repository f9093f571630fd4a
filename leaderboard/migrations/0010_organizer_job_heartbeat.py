"""An organizer's job keeps a heartbeat and its attempts, so the sweeper finds lost ones."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0009_rate_buckets")]

    operations = [
        migrations.AddField(
            model_name="organizerjob",
            name="heartbeat_at",
            field=models.DateTimeField(
                blank=True,
                help_text="last sign of life (queued, each progress step); the sweeper re-queues a silent job",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="organizerjob",
            name="attempts",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="runs started; the sweeper fails the job after a few"
            ),
        ),
    ]
