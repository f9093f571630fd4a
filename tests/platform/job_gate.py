"""A gate in a test worker's jobs, so that a test acts while a job is surely running,
on an event instead of a poll that races the job.

A worker started with ``Workers(tmp_path, gated=True)`` imports this module (``celery
worker --include``): each job, once claimed and past its first progress step (status
``running``, heartbeat going, models loaded), pushes its submission id onto a Redis list
and waits there until the test opens the gate. The test blocks on that list
(:meth:`JobGate.started`), so it learns of the job the moment it runs and the job cannot
finish meanwhile: a SIGKILL then always lands in the middle of a job. Nothing is
patched unless ``GEC_TEST_JOB_GATE`` (a Redis URL) is set.
"""

from __future__ import annotations

import os

STARTED = "gec-test:job-started"  # submission ids, pushed as their jobs reach the gate
OPEN = "gec-test:gate-open"  # set: jobs pass
WAKE = "gec-test:gate-wake"  # pushed when the gate opens, so waiting jobs look at once


class JobGate:
    """The test's side: wait for a job at the gate; open the gate."""

    def __init__(self, redis_url: str):
        import redis

        self.url = redis_url
        self.redis = redis.Redis.from_url(redis_url)
        self.redis.delete(STARTED, OPEN, WAKE)

    def started(self, timeout: float = 240) -> int:
        """The id of the next submission whose job reached the gate (it waits there)."""
        item = self.redis.blpop([STARTED], timeout=timeout)
        if item is None:
            raise AssertionError(f"no job reached the gate within {timeout} s (is a gated worker running? see its log)")
        return int(item[1])

    def open(self) -> None:
        self.redis.set(OPEN, 1)
        self.redis.rpush(WAKE, *[1] * 16)


def install(redis_url: str) -> None:
    """The worker's side: the first progress step of each job reports and waits."""
    import redis

    from leaderboard.services.scoring_jobs import submission as scoring

    client = redis.Redis.from_url(redis_url)
    first_step = scoring.set_progress
    gated: set[int] = set()

    def set_progress(submission_id: int, progress: float) -> None:
        first_step(submission_id, progress)
        if submission_id in gated:
            return
        gated.add(submission_id)
        client.rpush(STARTED, submission_id)
        while not client.exists(OPEN):
            client.blpop([WAKE], timeout=1)

    scoring.set_progress = set_progress


if os.environ.get("GEC_TEST_JOB_GATE"):
    install(os.environ["GEC_TEST_JOB_GATE"])
