from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_save


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    label = "leaderboard"
    verbose_name = "GEC leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Connect the queue adapter to the work the domain services ask for (:mod:`.services.work`),
        and token revocation to password changes."""
        from .services.accounts.tokens import revoke_on_password_change
        from .services.boards import mirror
        from .services.jobs import (
            queue as jobs,  # noqa: F401 - its receivers connect on import; models are loaded only now
        )

        pre_save.connect(
            revoke_on_password_change, sender=settings.AUTH_USER_MODEL, dispatch_uid="revoke-token-on-password-change"
        )
        mirror.connect()  # a public phase's polled answers as files the proxy serves
