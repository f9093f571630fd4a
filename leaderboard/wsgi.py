"""WSGI entry point: ``gunicorn leaderboard.wsgi``; public boards are answered first
(:mod:`leaderboard.fast_board`), everything else by Django."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")
django_application = get_wsgi_application()

from leaderboard.fast_board import PublicBoardFirst  # noqa: E402 -- needs the apps loaded

application = PublicBoardFirst(django_application)
