from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    label = "leaderboard"
    verbose_name = "GEC leaderboard"
    default_auto_field = "django.db.models.BigAutoField"
