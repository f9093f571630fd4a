from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    label = "leaderboard"
    verbose_name = "GEC leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Connect the queue adapter to the work the domain services ask for (:mod:`.services.work`)."""
        from .services import jobs  # noqa: F401 - its receivers connect on import; models are loaded only now
