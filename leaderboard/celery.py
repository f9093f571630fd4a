"""The Celery app: ``celery -A leaderboard worker`` and ``celery -A leaderboard beat``.

Configuration comes from Django settings (``CELERY_*``); the entry points live in
``leaderboard/tasks.py`` and only call service functions.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")

app = Celery("leaderboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["leaderboard"])
