"""WSGI entry point: ``gunicorn leaderboard.wsgi``, behind the proxy (docker/nginx), which
answers anonymous polls of public boards from its one-second cache."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")
application = get_wsgi_application()
