"""Pool.metric held "gotoscorer" on every row and nothing read it: a phase's pool is
GoToScorer's, and a task's other pooled metrics live in its metric list."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0024_campaign_invitations")]

    operations = [
        migrations.RemoveField(model_name="pool", name="metric"),
        migrations.AlterField(
            model_name="pool",
            name="version",
            field=models.PositiveBigIntegerField(
                default=0, help_text="the board's version: moved on only by leaderboard.board_version.board_changed()"
            ),
        ),
    ]
