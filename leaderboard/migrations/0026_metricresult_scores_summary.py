"""A result's scores without their per-type tables, stored apart (``scores_summary``), so a
board reads ~1 KB a row instead of detoasting a 32 KB ERRANT document to drop its tables.

On PostgreSQL a trigger keeps it equal to ``scores`` minus the top-level ``per_type*``
keys on every INSERT and every UPDATE of ``scores``, whichever path writes them (the ORM,
the pool's one-statement UPDATE ... FROM jsonb_each); existing rows are filled here. Other
databases leave it null and the reads fall back to ``scores`` (standings.ScoresWithoutTables).
"""

from django.db import migrations, models

TABLE = "leaderboard_metricresult"
WITHOUT_TABLES = (
    "CASE WHEN jsonb_typeof({s}) = 'object' THEN {s} - ARRAY(SELECT k FROM jsonb_object_keys({s}) k "
    "WHERE starts_with(k, 'per_type')) ELSE {s} END"
)
FORWARD = f"""
CREATE FUNCTION leaderboard_scores_summary() RETURNS trigger AS $$
BEGIN
    NEW.scores_summary := {WITHOUT_TABLES.format(s="NEW.scores")};
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER leaderboard_metricresult_scores_summary
    BEFORE INSERT OR UPDATE OF scores ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION leaderboard_scores_summary();
UPDATE {TABLE} SET scores_summary = {WITHOUT_TABLES.format(s="scores")};
"""
BACKWARD = f"""
DROP TRIGGER IF EXISTS leaderboard_metricresult_scores_summary ON {TABLE};
DROP FUNCTION IF EXISTS leaderboard_scores_summary();
"""


def keep_summary(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def drop_summary(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0024_campaign_invitations")]

    operations = [
        migrations.AddField(
            model_name="metricresult",
            name="scores_summary",
            field=models.JSONField(
                editable=False,
                help_text="scores without their per-type tables, kept by the database (PostgreSQL)",
                null=True,
            ),
        ),
        migrations.RunPython(keep_summary, drop_summary),
    ]
