"""On the real stack (PostgreSQL, Redis, Celery workers under their memory ceiling): a
worker SIGKILLed from outside, as the host's OOM killer or a rolling deploy does, costs
the team nothing; the job runs again and is scored (issue 23: two kills ended an
ordinary file ``failed``, cause ``input``, counted against the team's quota)."""
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Submission
from leaderboard.services.intake import remaining_submissions
from leaderboard.services.sweeper import sweep_stuck_submissions
from leaderboard.services.tasks import create_task

from .conftest import client_for, make_user
from .workers import REAL_STACK, REDIS_URL, Workers, scored, wait_for

pytestmark = REAL_STACK
MEMORY_MB = 3072
QUOTA = 5


def data_limit_mb(pid: int) -> int:
    """The 'Max data size' soft limit of a process, from /proc (RLIMIT_DATA)."""
    for line in open(f"/proc/{pid}/limits"):
        if line.startswith("Max data size"):
            return int(line.split()[3]) // (1024 * 1024)
    raise AssertionError("no data size limit line")


def any_running(ids):
    return lambda: Submission.objects.filter(pk__in=ids, status="running").exists()


@pytest.fixture
def stack(tmp_path, settings, small_texts):
    """A task with a per-team quota, and one worker under the memory ceiling."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    settings.GEC_TASK_MODE = "celery"
    task = create_task("kills", title="Kills", source=small_texts["source"], metrics=["errant", "usim"], references=[("REF0", small_texts["REF0"])])
    phase = task.phases.get()
    phase.max_total = QUOTA
    phase.save()
    workers = Workers(tmp_path)
    workers.env["GEC_WORKER_MAX_MEMORY_MB"] = str(MEMORY_MB)
    workers.start()
    try:
        yield phase, workers
    finally:
        workers.stop_all()


def upload(user, small_texts, system: str) -> int:
    response = client_for(user).post("/api/tasks/kills/submissions/", {"file": SimpleUploadedFile(f"{system}.txt", small_texts[system].encode()), "system_name": system}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def kill_while_scoring(workers: Workers, ids: list[int]) -> None:
    """SIGKILL the worker in the middle of a job, start a new one, and sweep as beat would."""
    wait_for(any_running(ids), every=0.02, what="a job running")  # a cold worker loads its models first
    worker = workers.processes[-1]
    assert data_limit_mb(worker.pid) == MEMORY_MB
    workers.kill(worker)
    workers.start()
    time.sleep(2)  # the killed job's heartbeat goes stale; the new worker is still starting
    sweep_stuck_submissions(older_than=1)  # what beat runs every GEC_SWEEP_EVERY seconds


@pytest.mark.django_db(transaction=True)
def test_a_job_killed_twice_from_outside_is_scored_and_costs_nothing(stack, small_texts):
    phase, workers = stack
    user = make_user("mallory")
    submission_id = upload(user, small_texts, "T5")
    for _ in range(2):
        kill_while_scoring(workers, [submission_id])
    wait_for(scored(submission_id), what="the submission scored")
    submission = Submission.objects.get(pk=submission_id)
    assert (submission.failure_cause, submission.worker_losses, submission.external_losses) == ("", 0, 2)
    assert remaining_submissions(phase, submission.team)["total"] == QUOTA - 1  # the one upload, nothing more


@pytest.mark.django_db(transaction=True)
def test_a_burst_with_kills_loses_no_quota(stack, small_texts):
    phase, workers = stack
    users = [make_user("ann"), make_user("ben")]
    ids = [upload(user, small_texts, system) for user in users for system in ("T5", "BART")]
    for _ in range(3):
        kill_while_scoring(workers, ids)
    wait_for(scored(*ids), timeout=480, what="every submission scored")
    submissions = Submission.objects.filter(pk__in=ids)
    assert not submissions.exclude(failure_cause="").exists()
    assert sum(s.external_losses for s in submissions) >= 3 and not any(s.worker_losses for s in submissions)
    for team in {s.team for s in submissions}:
        assert remaining_submissions(phase, team)["total"] == QUOTA - 2
