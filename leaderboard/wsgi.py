"""WSGI entry point: ``gunicorn leaderboard.wsgi``, behind the proxy (docker/nginx), which
answers anonymous polls of public boards from its one-second cache."""

import os
from collections.abc import Callable

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")
application: Callable = get_wsgi_application()

from .charsets import guard  # noqa: E402 -- once Django is set up

application = guard(application)  # a 415 for a body in a non-text charset, before Django builds the request
