"""On the real stack, an organizer's jobs run on a Celery worker, not in the web process:
gold uploaded on a page is prepared there (the task turns ready), a baseline is scored
there, and a rescore reports the ranks before and after."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import OrganizerJob, SharedTask, Submission
from leaderboard.services.data.gold import check_gold
from leaderboard.services.hosting.host import add_hosted_phase, host_task
from leaderboard.services.hosting.organizer_jobs import queue_job
from leaderboard.services.submissions.intake import accept_submission
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

from .workers import REAL_STACK, scored, wait_for

pytestmark = REAL_STACK
LINES = 20


def job_done(job_id):
    return lambda: OrganizerJob.objects.filter(pk=job_id, status__in=["done", "failed"]).exists()


@pytest.mark.django_db(transaction=True)
def test_gold_baseline_and_rescore_run_on_a_worker(workers):
    host = User.objects.create_user("hannah")
    gold = check_gold(
        source=("source.txt", insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES).encode()),
        references=[(p.name, insight_head(p, LINES).encode()) for p in SUBSET_REFS],
    )
    task = host_task(host, gold, slug="worker", title="On a worker", metrics=["errant", "gotoscorer"])
    assert SharedTask.objects.get(pk=task.pk).status == "preparing"
    wait_for(lambda: SharedTask.objects.get(pk=task.pk).status != "preparing", what="the gold prepared by the worker")
    task.refresh_from_db()
    assert task.status == "ready", task.status_message

    phase = add_hosted_phase(task, {"kind": "dev"}, dataset=task.datasets.get(), user=host)
    assert phase.gold_chunks.exists()
    baseline = accept_submission(
        phase,
        host,
        system_name="INPUT",
        filename="INPUT.txt",
        content=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES).encode(),
        is_baseline=True,
        enforce_limits=False,
    )
    wait_for(scored(baseline.pk), what="the baseline scored by the worker")

    job = queue_job(OrganizerJob.Kind.RESCORE, task, user=host)  # outside a transaction: sent at once
    wait_for(job_done(job.pk), what="the rescore")
    job.refresh_from_db()
    assert job.status == "done" and [c["system_name"] for c in job.result["changes"]] == ["INPUT"]
    assert Submission.objects.get(pk=baseline.pk).status == "scored"
