"""The sweeper re-queues submissions with no sign of life past the timeout, and gives up
after a few attempts; live ones are left alone."""

import datetime as dt

from django.utils import timezone

from leaderboard.models import Submission, Team
from leaderboard.services.jobs.sweeper import MAX_ATTEMPTS, sweep_stuck_submissions
from tests.conftest import jobs_queued


def make(phase, status, age_seconds, attempts=1):
    team = Team.objects.create(name=f"t{Submission.objects.count()}")
    heartbeat = timezone.now() - dt.timedelta(seconds=age_seconds)
    return Submission.objects.create(
        phase=phase,
        team=team,
        system_name="s",
        filename="s.txt",
        content=b"",
        size=0,
        status=status,
        heartbeat_at=heartbeat,
        attempts=attempts,
    )


def test_stuck_ones_are_requeued_and_live_ones_left(phase, settings, django_capture_on_commit_callbacks):
    settings.GEC_STUCK_AFTER = 60
    stuck_running = make(phase, "running", 600)
    stuck_queued = make(phase, "queued", 600)
    live = make(phase, "running", 5)
    done = make(phase, "scored", 600)
    with django_capture_on_commit_callbacks() as queued:
        requeued = sweep_stuck_submissions()
    assert sorted(requeued) == sorted([stuck_running.pk, stuck_queued.pk]) and len(jobs_queued(queued)) == 2
    assert Submission.objects.get(pk=stuck_running.pk).status == "queued"
    assert Submission.objects.get(pk=live.pk).status == "running"
    assert Submission.objects.get(pk=done.pk).status == "scored"


def test_gives_up_after_max_attempts(phase):
    hopeless = make(phase, "running", 10_000, attempts=MAX_ATTEMPTS)
    assert sweep_stuck_submissions() == []
    hopeless.refresh_from_db()
    assert hopeless.status == "failed" and "attempts" in hopeless.error
