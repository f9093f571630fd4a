"""Re-queue submissions stuck in ``queued`` or ``running``, so nothing is stuck forever.

A submission is stuck when it has shown no sign of life (``heartbeat_at``: set when
queued, on each progress step and at the end) for ``GEC_STUCK_AFTER`` seconds: its
message was lost (broker restart, failed enqueue) or its worker died. Re-queuing is safe
because scoring is idempotent. A job found ``running`` that way lost its worker, which
counts towards ``GEC_MAX_WORKER_LOSSES`` (:func:`.scoring.count_worker_loss`); one that
never finishes for other reasons fails after :data:`MAX_ATTEMPTS` runs, as ours.
"""
from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Submission
from .jobs import enqueue_scoring
from .scoring import PLATFORM, count_worker_loss, fail_submission

MAX_ATTEMPTS = 3
log = logging.getLogger(__name__)


def sweep_stuck_submissions(older_than: float | None = None) -> list[int]:
    """Re-queue stuck submissions (give up after :data:`MAX_ATTEMPTS` runs); returns their ids."""
    seconds = settings.GEC_STUCK_AFTER if older_than is None else older_than
    cutoff = timezone.now() - dt.timedelta(seconds=seconds)
    stuck = Submission.objects.filter(status__in=[Submission.Status.QUEUED, Submission.Status.RUNNING]).filter(
        Q(heartbeat_at__lte=cutoff) | Q(heartbeat_at__isnull=True)
    )
    requeued = []
    for submission_id in stuck.values_list("pk", flat=True):
        with transaction.atomic():
            submission = Submission.objects.select_for_update().get(pk=submission_id)
            if submission.status == Submission.Status.RUNNING and count_worker_loss(submission) >= settings.GEC_MAX_WORKER_LOSSES:
                continue  # failed as the file's fault: it stopped its workers
            if submission.attempts >= MAX_ATTEMPTS:
                log.error("submission %s did not finish after %s attempts; marked failed", submission_id, submission.attempts)
                fail_submission(submission_id, f"scoring did not finish after {submission.attempts} attempts; please tell the organizers", cause=PLATFORM)
                continue
            requeue(submission_id)
        requeued.append(submission_id)
    return requeued


def requeue(submission_id: int) -> None:
    """Back to ``queued`` and onto the queue once that is committed (scoring is idempotent)."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission_id).update(status=Submission.Status.QUEUED, heartbeat_at=timezone.now())
        transaction.on_commit(lambda: enqueue_scoring(submission_id))
