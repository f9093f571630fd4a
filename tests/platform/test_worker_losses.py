"""A job whose worker died is counted, and at GEC_MAX_WORKER_LOSSES fails as the file's
fault instead of being retried forever (issue 14: 26 kills in 420 s, never failed)."""
import datetime as dt

import pytest
from django.utils import timezone

from leaderboard.models import Submission, Team
from leaderboard.services.scoring import Busy, score_submission
from leaderboard.services.sweeper import sweep_stuck_submissions


def running(phase, small_texts, age_seconds: float, losses: int = 0) -> Submission:
    """A submission left ``running`` by a worker, its last heartbeat ``age_seconds`` ago."""
    team = Team.objects.create(name=f"t{Submission.objects.count()}")
    content = small_texts["T5"].encode()
    return Submission.objects.create(
        phase=phase, team=team, system_name="T5", filename="t5.txt", content=content, size=len(content),
        status="running", heartbeat_at=timezone.now() - dt.timedelta(seconds=age_seconds), attempts=1, worker_losses=losses,
    )


def test_a_dead_workers_job_counts_one_loss_and_runs_again(phase, small_texts, settings):
    submission = running(phase, small_texts, age_seconds=settings.GEC_HEARTBEAT_GRACE + 5)
    assert score_submission(submission.pk) == "scored"
    submission.refresh_from_db()
    assert (submission.worker_losses, submission.attempts, submission.failure_cause) == (1, 2, "")


def test_the_last_allowed_loss_fails_it_as_the_files_fault(phase, small_texts, settings):
    settings.GEC_MAX_WORKER_LOSSES = 2
    submission = running(phase, small_texts, age_seconds=600, losses=1)
    assert score_submission(submission.pk) == "failed"
    submission.refresh_from_db()
    assert submission.worker_losses == 2 and submission.failure_cause == "input"
    assert "stopped twice while scoring this file" in submission.error


def test_a_live_workers_job_is_left_to_it(phase, small_texts):
    submission = running(phase, small_texts, age_seconds=1)
    with pytest.raises(Busy):
        score_submission(submission.pk)
    submission.refresh_from_db()
    assert (submission.status, submission.worker_losses) == ("running", 0)


def test_the_sweeper_counts_a_loss_and_fails_at_the_limit(phase, small_texts, settings, django_capture_on_commit_callbacks):
    settings.GEC_STUCK_AFTER = 60
    settings.GEC_MAX_WORKER_LOSSES = 2
    first, last = running(phase, small_texts, 600), running(phase, small_texts, 600, losses=1)
    with django_capture_on_commit_callbacks():
        assert sweep_stuck_submissions() == [first.pk]
    first.refresh_from_db()
    last.refresh_from_db()
    assert (first.status, first.worker_losses) == ("queued", 1)
    assert (last.status, last.worker_losses, last.failure_cause) == ("failed", 2, "input")
