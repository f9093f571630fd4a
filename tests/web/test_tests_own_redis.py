"""The test settings never point at a Redis database the environment names: the tests
empty theirs (the fragments fixture clears the cache after every test, the integration
tests flush the queue), so a user's ``CELERY_BROKER_URL``/``REDIS_URL`` would be wiped,
and the fast lane's two xdist processes would wipe each other's cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps({'broker': s.CELERY_BROKER_URL, 'fragments': s.CACHES['fragments']}))"
)


def test_settings(worker: str) -> dict:
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings_test",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "GEC_FRAGMENT_CACHE_URL": "redis://127.0.0.1:6379/0",
        "PYTEST_XDIST_WORKER": worker,
    }
    code = f"import django; django.setup(); {PRINT}"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


test_settings.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def test_the_tests_use_redis_databases_of_their_own_whatever_the_environment_says():
    first, second = test_settings("gw0"), test_settings("gw1")
    for seen in (first, second):
        assert not seen["broker"].endswith("/0"), seen
        assert "redis" not in seen["fragments"]["BACKEND"].lower(), seen  # the process's own memory
    assert first["broker"] != second["broker"]  # one queue database per xdist process
    assert first["fragments"]["LOCATION"] != second["fragments"]["LOCATION"]
