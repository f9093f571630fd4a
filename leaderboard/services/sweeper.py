"""Re-queue submissions stuck in ``queued`` or ``running``, so nothing is stuck forever.

A submission is stuck when it has shown no sign of life (``heartbeat_at``: set when
queued, on each progress step and at the end) for ``GEC_STUCK_AFTER`` seconds: its
message was lost (broker restart, failed enqueue) or its worker died. Re-queuing is safe
because scoring is idempotent.
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
from .scoring import fail_submission

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
    for submission_id, attempts in stuck.values_list("pk", "attempts"):
        if attempts >= MAX_ATTEMPTS:
            log.error("submission %s did not finish after %s attempts; marked failed", submission_id, attempts)
            fail_submission(submission_id, f"scoring did not finish after {attempts} attempts; please tell the organizers")
            continue
        requeue(submission_id)
        requeued.append(submission_id)
    return requeued


def requeue(submission_id: int) -> None:
    """Back to ``queued`` and onto the queue once that is committed (scoring is idempotent)."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission_id).update(status=Submission.Status.QUEUED, heartbeat_at=timezone.now())
        transaction.on_commit(lambda: enqueue_scoring(submission_id))
