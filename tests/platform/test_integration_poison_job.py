"""On the real stack: a job that takes its worker down is failed after
GEC_MAX_WORKER_LOSSES, as the file's fault, instead of being re-queued forever (issue 14:
26 kills in 420 s, attempts 27, never failed); the workers run under the memory ceiling."""
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Submission
from leaderboard.services.intake import OverLimit, check_limits
from leaderboard.services.sweeper import sweep_stuck_submissions
from leaderboard.services.tasks import create_task

from .conftest import client_for, make_user
from .workers import REAL_STACK, REDIS_URL, Workers, wait_for

pytestmark = REAL_STACK
MEMORY_MB = 3072


def data_limit_mb(pid: int) -> int:
    """The 'Max data size' soft limit of a process, from /proc (RLIMIT_DATA)."""
    for line in open(f"/proc/{pid}/limits"):
        if line.startswith("Max data size"):
            return int(line.split()[3]) // (1024 * 1024)
    raise AssertionError("no data size limit line")


def running(submission_id: int):
    return lambda: Submission.objects.get(pk=submission_id).status == "running"


@pytest.mark.django_db(transaction=True)
def test_a_job_that_kills_its_worker_twice_ends_failed_and_counts(tmp_path, settings, small_texts):
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    settings.GEC_TASK_MODE = "celery"
    settings.GEC_MAX_WORKER_LOSSES = 2
    task = create_task("poison", title="Poison", source=small_texts["source"], metrics=["errant", "usim"], references=[("REF0", small_texts["REF0"])])
    phase = task.phases.get()
    phase.max_total = 1
    phase.save()
    workers = Workers(tmp_path)
    workers.env["GEC_WORKER_MAX_MEMORY_MB"] = str(MEMORY_MB)
    try:
        worker = workers.start()
        client = client_for(make_user("mallory"))
        response = client.post("/api/tasks/poison/submissions/", {"file": SimpleUploadedFile("t5.txt", small_texts["T5"].encode()), "system_name": "T5"}, format="multipart")
        assert response.status_code == 201, response.content
        submission_id = response.json()["id"]
        for death in (1, 2):
            wait_for(running(submission_id), every=0.02, what=f"the job running before death {death}")  # a cold worker loads its models
            assert data_limit_mb(worker.pid) == MEMORY_MB
            workers.kill(worker)  # what the kernel's OOM killer or a segfault in C code does
            worker = workers.start()
            time.sleep(2)
            sweep_stuck_submissions(older_than=1)  # what beat runs every GEC_SWEEP_EVERY seconds
        submission = Submission.objects.get(pk=submission_id)
        assert (submission.status, submission.failure_cause, submission.worker_losses) == ("failed", "input", 2)
        assert "the scoring worker stopped twice while scoring this file" in submission.error
        time.sleep(5)  # a redelivered message, if any, finds it failed and leaves it
        assert Submission.objects.get(pk=submission_id).status == "failed"
        with pytest.raises(OverLimit):
            check_limits(phase, submission.team)
    finally:
        workers.stop_all()
