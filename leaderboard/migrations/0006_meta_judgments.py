"""Human judgments per phase, for the meta-evaluation."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0005_organizer")]

    operations = [
        migrations.CreateModel(
            name="Judgments",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("data", models.JSONField(help_text="scoring.meta.HumanJudgments.as_json()")),
                ("files", models.JSONField(blank=True, default=list, help_text="what was loaded, for the page")),
                ("table", models.JSONField(blank=True, help_text="the last meta-evaluation table", null=True)),
                (
                    "table_key",
                    models.CharField(
                        blank=True, help_text="the results and judgments the table was computed from", max_length=200
                    ),
                ),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "phase",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="judgments", to="leaderboard.phase"
                    ),
                ),
            ],
            options={"verbose_name_plural": "judgments"},
        ),
    ]
