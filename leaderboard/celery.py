"""The Celery app: ``celery -A leaderboard worker`` and ``celery -A leaderboard beat``.

Configuration comes from Django settings (``CELERY_*``); the entry points live in
``leaderboard/tasks.py`` and only call service functions.
"""
import os
import resource

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")

app = Celery("leaderboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["leaderboard"])


@worker_init.connect
def cap_worker_memory(**_) -> None:
    """Cap a worker's private memory at ``GEC_WORKER_MAX_MEMORY_MB`` (RLIMIT_DATA, which
    Linux applies to heap and anonymous mappings alike; prefork children inherit it), so
    a file that needs more raises MemoryError in its own job (failed, the file's fault)
    instead of the host's OOM killer choosing a victim. A job that dies anyway, in C
    code, counts as a worker loss (services/scoring.py)."""
    from django.conf import settings

    megabytes = settings.GEC_WORKER_MAX_MEMORY_MB
    if megabytes:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, resource.getrlimit(resource.RLIMIT_DATA)[1]))
