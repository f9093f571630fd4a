"""Real Celery worker processes for the integration tests, on the test database and a
private Redis database (the one leaderboard/settings_test.py points Celery at)."""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection

from leaderboard.models import Submission
from tests.conftest import ROOT
from tests.support import needs

REDIS_URL = settings.CELERY_BROKER_URL  # leaderboard/settings_test.py: a Redis database per checkout


def redis_answers() -> bool:
    try:
        import redis

        return redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping()
    except Exception:
        return False


REAL_STACK = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.timeout(600),
    needs.postgresql(connection.vendor),
    needs.needs(redis_answers(), f"Redis at {REDIS_URL} (scripts/services starts it)"),
]


class Workers:
    """Celery worker processes on the test database; each in its own process group."""

    def __init__(self, tmp_path, pool: str = "solo", gated: bool = False):
        self.pool = pool  # solo in most tests; prefork (concurrency 1) as docker/compose.yaml runs it
        self.gated = gated  # each job waits at a gate the test opens (job_gate.py)
        self.processes = []
        self.log_dir = tmp_path
        database = connection.settings_dict
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
            "DATABASE_URL": f"postgresql://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
            "CELERY_BROKER_URL": REDIS_URL,
            "SECRET_KEY": "integration-test",
            "DEBUG": "1",
            "GEC_STUCK_AFTER": "30",
            # at the web's priority: on a machine shared with other work a niced worker
            # crawls (the priority itself: test_worker_priority.py)
            "GEC_WORKER_NICE": "0",
        }
        if gated:
            self.env["GEC_TEST_JOB_GATE"] = REDIS_URL

    def start(self):
        name = f"w{len(self.processes)}"
        log = open(self.log_dir / f"{name}.log", "wb")
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "leaderboard",
                "worker",
                f"--pool={self.pool}",
                "--concurrency=1",
                "--loglevel=INFO",
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                *(["--include", "tests.platform.job_gate"] if self.gated else []),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def kill(self, process):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop_all(self):
        for process in self.processes:
            if process.poll() is None:
                self.kill(process)


def started_workers(tmp_path, settings, pool: str = "solo"):
    """One running worker (more with ``start``); the tests' jobs go to it through Redis."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    settings.GEC_TASK_MODE = "celery"
    group = Workers(tmp_path, pool)
    group.start()
    return group


def wait_for(predicate, timeout=240, every=0.5, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def scored(*ids):
    return lambda: Submission.objects.filter(pk__in=ids, status="scored").count() == len(ids)
