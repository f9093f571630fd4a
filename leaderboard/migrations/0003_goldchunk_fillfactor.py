"""Room on each page of the gold-chunk table, so ``SET n = n + 1`` on tens of thousands
of chunks per pool join can be a HOT update (no new index entries) on PostgreSQL."""

from django.db import migrations


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboard_goldchunk SET (fillfactor = 50)")


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0002_tracks_and_blind_phases")]
    operations = [migrations.RunPython(set_fillfactor, migrations.RunPython.noop)]
