from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_save


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    label = "leaderboard"
    verbose_name = "GEC leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Revoke a user's API tokens when their password changes. (Queued work needs no
        wiring: a service enqueues a registered job, :mod:`.queue`.)"""
        from . import migration_guard  # noqa: F401  registers its system check
        from .services.accounts.tokens import revoke_on_password_change
        from .services.boards import mirror

        pre_save.connect(
            revoke_on_password_change, sender=settings.AUTH_USER_MODEL, dispatch_uid="revoke-token-on-password-change"
        )
        mirror.connect()  # a public phase's polled answers as files the proxy serves
