"""mg-pages: the GLEU variant a task's new phases take by default,
chosen on the host form (MultiGEC's for a bundle of corpora unless the organizer says)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0012_merge_parallel_work"),
    ]

    operations = [
        migrations.AddField(
            model_name="sharedtask",
            name="gleu_variant",
            field=models.CharField(
                blank=True,
                choices=[
                    ("official", "compute_gleu (official)"),
                    ("multigec", "the PyPI gleu tool, as MultiGEC-2025 reported"),
                ],
                max_length=10,
                help_text="the GLEU a new phase takes unless its form says otherwise; empty = MultiGEC's for corpora "
                "from a bundle, the official one else",
            ),
        ),
    ]
