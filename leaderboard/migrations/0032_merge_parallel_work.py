"""Joins the migrations made side by side in one season's work (no operations)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0026_metricresult_scores_summary"),
        ("leaderboard", "0029_pool_without_metric"),
        ("leaderboard", "0025_campaign_corpus"),
    ]

    operations = []
