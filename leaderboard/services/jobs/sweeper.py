"""Re-queue submissions and organizer jobs stuck in ``queued`` or ``running``, so nothing is stuck forever,
and remove the live channel files no member's page names any more.

A submission or job is stuck when it has shown no sign of life (``heartbeat_at``: set
when queued, on each progress step and at the end) for ``GEC_STUCK_AFTER`` seconds: its
message was lost (broker restart, failed enqueue) or its worker died. Re-queuing is safe
because scoring and gold preparation are idempotent, and a job is claimed once. A
submission found ``running`` that way lost its worker, which may fail it
(:func:`.scoring.record_worker_loss`: as the file's fault only when the worker's own
ceiling stopped it); one that never finishes for other reasons fails after
:data:`MAX_ATTEMPTS` runs, as do organizer jobs.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ... import queue
from ...models import OrganizerJob, Phase, Submission
from ..boards import channels, mirror
from ..boards import publish as live
from ..hosting.organizer_jobs import fail_job, requeue_job
from ..scoring_jobs.dispatch import next_waiting
from ..scoring_jobs.queued import score_queued
from ..scoring_jobs.submission import PLATFORM, fail_submission, record_worker_loss

MAX_ATTEMPTS = 3
log = logging.getLogger(__name__)


def silent(model, older_than: float | None):
    """Rows of ``model`` queued or running with no sign of life since the cutoff."""
    seconds = settings.GEC_STUCK_AFTER if older_than is None else older_than
    cutoff = timezone.now() - dt.timedelta(seconds=seconds)
    return model.objects.filter(status__in=[model.Status.QUEUED, model.Status.RUNNING]).filter(
        Q(heartbeat_at__lte=cutoff) | Q(heartbeat_at__isnull=True)
    )


def sweep_stuck_submissions(older_than: float | None = None) -> list[int]:
    """Re-queue stuck submissions (give up after :data:`MAX_ATTEMPTS` runs); returns their ids."""
    stuck = silent(Submission, older_than).filter(Submission.scored_alone())
    requeued = []
    for submission_id in stuck.values_list("pk", flat=True):
        with transaction.atomic():
            submission = Submission.objects.select_for_update().get(pk=submission_id)
            if submission.status == Submission.Status.RUNNING and record_worker_loss(submission):
                send_next(submission_id)
                continue  # failed: its worker was stopped too often
            if submission.attempts >= MAX_ATTEMPTS:
                log.error(
                    "submission %s did not finish after %s attempts; marked failed", submission_id, submission.attempts
                )
                fail_submission(
                    submission_id,
                    f"scoring did not finish after {submission.attempts} attempts; please tell the organizers",
                    cause=PLATFORM,
                )
                send_next(submission_id)
                continue
            requeue(submission_id)
        requeued.append(submission_id)
    return requeued


def send_next(submission_id: int) -> None:
    """A job the sweeper failed freed its team's place in the fair queue (:mod:`.dispatch`):
    ask for the next one waiting behind it, once that is committed."""
    waiting = next_waiting(submission_id)
    if waiting is not None:
        transaction.on_commit(lambda: score_queued.enqueue(waiting))


def requeue(submission_id: int) -> None:
    """Back to ``queued`` and onto the queue once that is committed (scoring is idempotent)."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission_id).update(status=Submission.Status.QUEUED, heartbeat_at=timezone.now())
        live.after_commit(submission_id)
        transaction.on_commit(lambda: score_queued.enqueue(submission_id))


def sweep_lost_jobs(older_than: float | None = None) -> list[int]:
    """Re-queue organizer jobs (gold preparation, rescores) whose worker was lost; after
    :data:`MAX_ATTEMPTS` runs the job fails, and its page offers to run it again."""
    requeued = []
    for job in silent(OrganizerJob, older_than).select_related("task"):
        if job.attempts >= MAX_ATTEMPTS:
            log.error("organizer job %s did not finish after %s attempts; marked failed", job.pk, job.attempts)
            fail_job(
                job.pk,
                f"the job did not finish after {job.attempts} attempts (its worker was lost); run it again, or "
                "tell the site's administrators",
            )
            continue
        requeue_job(job)
        requeued.append(job.pk)
    return requeued


@queue.job("leaderboard.tasks.sweep_stuck_submissions")
def beat_sweep() -> dict[str, list[int] | int]:
    """Beat's sweep (settings ``CELERY_BEAT_SCHEDULE``): stuck submissions, lost organizer
    jobs, live channel files no page names."""
    return {"submissions": sweep_stuck_submissions(), "jobs": sweep_lost_jobs(), "channels": sweep_channels()}


def sweep_channels() -> int:
    """The live channel files of teams whose members changed, and of deleted teams and
    uploads: each change renames a team's channels and leaves the old files behind. And
    the rows of the phases that ended since the last sweep (or two), which no upload
    announces: what a blind phase's members see changes then. The public phases'
    files are written again (a phase that ended revealed its results, with no service to say so)."""
    since = timezone.now() - dt.timedelta(seconds=2 * settings.GEC_SWEEP_EVERY)
    for phase_id in Phase.every.filter(ends_at__gt=since, ends_at__lte=timezone.now()).values_list("pk", flat=True):
        live.publish_phase(phase_id)
    mirror.refresh_all()
    return channels.sweep()
