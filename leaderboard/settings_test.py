"""Settings for ``pytest tests/`` (the one command that runs every test).

The whole session runs on PostgreSQL when one answers at 127.0.0.1:5432 (``.ci/run``
starts it): unit tests then exercise the same SQL (row locks, ``n = n + 1``) as
production, and the integration tests can hand the test database to a real Celery
worker process. Without PostgreSQL the session falls back to SQLite and the integration
tests skip. Scoring runs inline (``GEC_TASK_MODE = "sync"``) unless a test switches to
Celery; the embedded mode (SQLite + background thread) is tested in a subprocess with
the plain settings.
"""

import hashlib
import os
import socket
from pathlib import Path


def _postgres_answers(host: str = "127.0.0.1", port: int = 5432) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


# One database name per checkout, so a clone's CI run and a working tree's tests can
# run side by side without dropping each other's test database.
_CHECKOUT = hashlib.sha256(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:8]
# GEC_TEST_POSTGRES (host:port) moves where PostgreSQL is looked for: tests/platform/test_ci_guard.py
# points it at a closed port to show that, with CI set, its absence fails the run.
_PG_HOST, _, _PG_PORT = os.environ.get("GEC_TEST_POSTGRES", "127.0.0.1:5432").rpartition(":")
if not os.environ.get("DATABASE_URL") and _postgres_answers(_PG_HOST, int(_PG_PORT)):
    os.environ["DATABASE_URL"] = f"postgresql://postgres@{_PG_HOST}:{_PG_PORT}/gec_leaderboard_{_CHECKOUT}"
os.environ.setdefault("GEC_VAR_DIR", f"/tmp/gec-leaderboard-test-var-{_CHECKOUT}")
os.environ.setdefault("SECRET_KEY", "test-only-secret-key")

from .settings import *  # noqa: E402,F403

GEC_TASK_MODE = "sync"
# The tests' campaigns are a few screens: each enters the meta-evaluation (the minimum
# itself is tested with override_settings).
GEC_CAMPAIGN_MIN_RANKINGS = 1
# The integration tests switch GEC_TASK_MODE to "celery" and send jobs here: a Redis
# database number of their own (1-15, per checkout and per pytest-xdist process, so
# side-by-side checkouts and the fast lane's two processes never flush each other's
# queue), whatever CELERY_BROKER_URL or REDIS_URL the environment names: the tests empty
# this database, and a user's own must never be it.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # gw0, gw1, ...; '' without xdist
_WORKER_INDEX = int(_WORKER[2:]) + 1 if _WORKER[2:].isascii() and _WORKER[2:].isdigit() else 0
TEST_REDIS_DB = 1 + (int(_CHECKOUT, 16) + _WORKER_INDEX) % 15
# GEC_TEST_REDIS (host:port) moves where Redis is looked for, as GEC_TEST_POSTGRES does for
# PostgreSQL: tests/platform/test_ci_guard.py points it at a closed port.
_REDIS_AT = os.environ.get("GEC_TEST_REDIS", "127.0.0.1:6379")
CELERY_BROKER_URL = f"redis://{_REDIS_AT}/{TEST_REDIS_DB}"
# Rendered live fragments: this process's memory, never the environment's Redis (a fixture
# clears the cache after every test; tests/conftest.py).
GEC_FRAGMENT_CACHE_URL = ""
CACHES["fragments"] = {  # noqa: F405
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": f"fragments-{_WORKER}",
    "OPTIONS": {"MAX_ENTRIES": 500},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users
SECURE_SSL_REDIRECT = False  # the test client speaks plain HTTP
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
