"""The sweeper re-queues organizer jobs whose worker was lost (gold preparation, rescores),
fails them after a few attempts, and leaves live ones alone."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from leaderboard.models import OrganizerJob, SharedTask
from leaderboard.services.data.gold import check_gold
from leaderboard.services.hosting.host import host_task
from leaderboard.services.jobs.sweeper import MAX_ATTEMPTS, sweep_lost_jobs
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 6


def hosted(slug: str, django_capture_on_commit_callbacks) -> OrganizerJob:
    """A task whose gold job was queued and never ran (its message is lost)."""
    gold = check_gold(
        source=("source.txt", insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES).encode()),
        references=[(p.name, insight_head(p, LINES).encode()) for p in SUBSET_REFS],
        m2=None,
    )
    with django_capture_on_commit_callbacks(execute=False):
        task = host_task(
            User.objects.get_or_create(username="hannah")[0], gold, slug=slug, title=slug, metrics=["errant"]
        )
    return task.jobs.get()


def silent_for(job: OrganizerJob, seconds: float, **fields) -> None:
    OrganizerJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - dt.timedelta(seconds=seconds), **fields)


def test_a_lost_gold_job_is_queued_again_and_prepares_the_task(settings, django_capture_on_commit_callbacks):
    settings.GEC_STUCK_AFTER = 60
    lost, live = hosted("lost", django_capture_on_commit_callbacks), hosted("live", django_capture_on_commit_callbacks)
    silent_for(lost, 600, status=OrganizerJob.Status.RUNNING, attempts=1)
    silent_for(live, 5, status=OrganizerJob.Status.RUNNING, attempts=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_lost_jobs() == [lost.pk]
    lost.refresh_from_db()
    assert (lost.status, lost.attempts, SharedTask.objects.get(slug="lost").status) == ("done", 2, "ready")
    assert OrganizerJob.objects.get(pk=live.pk).status == "running"


def test_a_job_that_keeps_getting_lost_fails_and_says_so(settings, django_capture_on_commit_callbacks):
    settings.GEC_STUCK_AFTER = 60
    hopeless = hosted("hopeless", django_capture_on_commit_callbacks)
    silent_for(hopeless, 10_000, status=OrganizerJob.Status.RUNNING, attempts=MAX_ATTEMPTS)
    assert sweep_lost_jobs() == []
    hopeless.refresh_from_db()
    assert (
        hopeless.status == "failed" and f"after {MAX_ATTEMPTS} attempts" in hopeless.message and hopeless.may_run_again
    )
    assert SharedTask.objects.get(slug="hopeless").status == "failed"


def test_manage_py_sweep_sweeps_jobs_too(settings, django_capture_on_commit_callbacks, capsys):
    settings.GEC_STUCK_AFTER = 60
    job = hosted("swept", django_capture_on_commit_callbacks)
    silent_for(job, 600)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("sweep")
    assert f"re-queued 1 organizer job(s): [{job.pk}]" in capsys.readouterr().out
    assert OrganizerJob.objects.get(pk=job.pk).status == "done"
