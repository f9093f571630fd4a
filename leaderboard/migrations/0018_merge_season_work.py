"""Joins the migrations that were written side by side this season (a task's GLEU default,
human evaluation campaigns, the fair queue); no schema change of its own."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0014_task_gleu_default"),
        ("leaderboard", "0015_campaigns"),
        ("leaderboard", "0016_crowd_fair_dispatch"),
    ]
    operations = []
