import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0007_pool_failures"),
    ]

    operations = [
        migrations.CreateModel(
            name="ParsedLine",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(help_text="scoring.line_cache.line_key of the tokens", max_length=64)),
                ("parse", models.BinaryField(help_text="a spaCy DocBin holding the one parse")),
                (
                    "dataset",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="parsed_lines",
                        to="leaderboard.dataset",
                    ),
                ),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("dataset", "key"), name="one_parse_per_line")],
            },
        ),
    ]
