"""A job whose worker died runs again; it is the file's fault, counted against the team,
only when the worker's own memory ceiling or time budget stopped it (two
external kills ended an ordinary file ``failed``, cause ``input``), and a job stopped
from outside too often fails as the platform's fault, which does not count."""

import datetime as dt

import pytest
from django.utils import timezone

from leaderboard.models import Submission, Team
from leaderboard.services.jobs.sweeper import sweep_stuck_submissions
from leaderboard.services.scoring_jobs.cost import submission_cost
from leaderboard.services.scoring_jobs.submission import Busy, score_submission
from leaderboard.services.submissions.intake import check_limits


def running(
    phase,
    small_texts,
    age_seconds: float,
    losses: int = 0,
    memory_mb: int = 300,
    ran_seconds: float = 20,
    external: int = 0,
) -> Submission:
    """A submission left ``running`` by a worker: its last heartbeat ``age_seconds`` ago,
    ``ran_seconds`` after it started, measuring the process at ``memory_mb``."""
    team = Team.objects.create(name=f"t{Submission.objects.count()}")
    content = small_texts["T5"].encode()
    beat = timezone.now() - dt.timedelta(seconds=age_seconds)
    return Submission.objects.create(
        phase=phase,
        team=team,
        system_name="T5",
        filename="t5.txt",
        content=content,
        size=len(content),
        status="running",
        started_at=beat - dt.timedelta(seconds=ran_seconds),
        heartbeat_at=beat,
        memory_mb=memory_mb,
        attempts=1 + losses + external,
        worker_losses=losses,
        external_losses=external,
    )


def near_ceiling(settings) -> int:
    return int(settings.GEC_WORKER_MAX_MEMORY_MB * settings.GEC_MEMORY_NEAR_CEILING) + 1


def test_a_worker_stopped_from_outside_runs_the_job_again_uncounted(phase, small_texts, settings):
    submission = running(phase, small_texts, age_seconds=settings.GEC_HEARTBEAT_GRACE + 5)
    assert score_submission(submission.pk) == "scored"
    submission.refresh_from_db()
    assert (submission.worker_losses, submission.external_losses, submission.attempts, submission.failure_cause) == (
        0,
        1,
        2,
        "",
    )


def test_stopped_at_its_memory_ceiling_twice_fails_as_the_files_fault(phase, small_texts, settings):
    settings.GEC_MAX_WORKER_LOSSES = 2
    submission = running(phase, small_texts, age_seconds=600, losses=1, memory_mb=near_ceiling(settings))
    assert score_submission(submission.pk) == "failed"
    submission.refresh_from_db()
    assert (submission.worker_losses, submission.external_losses, submission.failure_cause) == (2, 0, "input")
    assert "stopped twice while scoring this file, at its memory ceiling" in submission.error


def test_stopped_after_its_time_budget_counts_as_the_files_fault(phase, small_texts, settings):
    settings.GEC_MAX_WORKER_LOSSES = 1
    submission = running(phase, small_texts, age_seconds=600)
    Submission.objects.filter(pk=submission.pk).update(
        started_at=submission.heartbeat_at - dt.timedelta(seconds=submission_cost(submission.pk).seconds + 1)
    )
    assert score_submission(submission.pk) == "failed"
    submission.refresh_from_db()
    assert (submission.worker_losses, submission.failure_cause) == (1, "input")
    assert "at its time budget" in submission.error


def test_stopped_from_outside_too_often_fails_as_the_platforms_fault(phase, small_texts, settings):
    settings.GEC_MAX_EXTERNAL_LOSSES = 3
    phase.max_total = 1
    phase.save()
    submission = running(phase, small_texts, age_seconds=600, external=3)
    assert score_submission(submission.pk) == "failed"
    submission.refresh_from_db()
    assert (submission.worker_losses, submission.external_losses, submission.failure_cause) == (0, 4, "platform")
    assert "does not count against your limits" in submission.error
    check_limits(phase, submission.team)  # the team may still submit


def test_a_live_workers_job_is_left_to_it(phase, small_texts):
    submission = running(phase, small_texts, age_seconds=1)
    with pytest.raises(Busy):
        score_submission(submission.pk)
    submission.refresh_from_db()
    assert (submission.status, submission.worker_losses, submission.external_losses) == ("running", 0, 0)


def test_the_sweeper_requeues_an_outside_loss_and_fails_at_the_ceiling(
    phase, small_texts, settings, django_capture_on_commit_callbacks
):
    settings.GEC_STUCK_AFTER = 60
    settings.GEC_MAX_WORKER_LOSSES = 2
    outside = running(phase, small_texts, 600, losses=1)
    ceiling = running(phase, small_texts, 600, losses=1, memory_mb=near_ceiling(settings))
    with django_capture_on_commit_callbacks():
        assert sweep_stuck_submissions() == [outside.pk]
    outside.refresh_from_db()
    ceiling.refresh_from_db()
    assert (outside.status, outside.worker_losses, outside.external_losses) == ("queued", 1, 1)
    assert (ceiling.status, ceiling.worker_losses, ceiling.failure_cause) == ("failed", 2, "input")
