"""The leaderboard platform: the Django project and its single app (label ``leaderboard``).

The Celery app is imported here so ``celery -A leaderboard worker`` and Django's
``shared_task`` both find it.
"""

from .celery import app as celery_app

__all__ = ["celery_app"]
