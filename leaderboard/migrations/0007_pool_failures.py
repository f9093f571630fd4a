"""Keep f_i (members that failed a gold chunk) instead of n_i; n_i = N - f_i.

A pool join then updates the few chunks the joiner failed, not every chunk it got right.
And room on each page of the results table, so rewriting every member's GoToScorer
scores after a join can be HOT updates (no index entries) on PostgreSQL."""

from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery


def failures_from_successes(apps, schema_editor):
    GoldChunk = apps.get_model("leaderboard", "GoldChunk")
    Pool = apps.get_model("leaderboard", "Pool")
    size = Subquery(Pool.objects.filter(phase_id=OuterRef("phase_id")).values("size")[:1])
    GoldChunk.objects.update(failures=size - F("n"))


def successes_from_failures(apps, schema_editor):
    GoldChunk = apps.get_model("leaderboard", "GoldChunk")
    Pool = apps.get_model("leaderboard", "Pool")
    size = Subquery(Pool.objects.filter(phase_id=OuterRef("phase_id")).values("size")[:1])
    GoldChunk.objects.update(n=size - F("failures"))


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboard_metricresult SET (fillfactor = 50)")


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0006_meta_judgments"),
    ]

    operations = [
        migrations.AddField(
            model_name="goldchunk",
            name="failures",
            field=models.PositiveIntegerField(
                default=0, help_text="f_i: pool members not judged correct on this chunk (n_i = N - f_i)"
            ),
        ),
        migrations.RunPython(failures_from_successes, successes_from_failures),
        migrations.RemoveField(
            model_name="goldchunk",
            name="n",
        ),
        migrations.RunPython(set_fillfactor, migrations.RunPython.noop),
    ]
