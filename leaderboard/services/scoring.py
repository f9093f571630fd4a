"""Score one submission: the service every Celery task, thread and test calls.

Idempotent: a submission already scored is left alone, and results are written in one
transaction that re-checks the status under a row lock, so two runs of the same
submission (a redelivered message, a sweeper re-queue) leave exactly one set of rows and
counts. Errors a user caused end as ``failed`` with the message; infrastructure errors
(database, broker) propagate so the Celery task retries.
"""
from __future__ import annotations

import logging
import threading

from django.db import transaction
from django.utils import timezone

import scoring

from ..models import MetricResult, SharedTask, Submission
from . import notify, pool
from .datasets import load_dataset

log = logging.getLogger(__name__)

_metrics_cache: dict[tuple, list] = {}
_metrics_lock = threading.Lock()


def prepared_metrics(task: SharedTask, dataset_id: int) -> list:
    """The task's metrics, built and prepared on its dataset once per process."""
    options = task.scoring_options()
    key = (dataset_id, tuple(task.metric_names()), repr(options))
    with _metrics_lock:
        metrics = _metrics_cache.get(key)
    if metrics is None:
        dataset = load_dataset(dataset_id)
        metrics = scoring.build_metrics(task.metric_names(), options)
        for metric in metrics:
            metric.prepare(dataset)
        with _metrics_lock:
            _metrics_cache[key] = metrics
    return metrics


def set_progress(submission_id: int, progress: float) -> None:
    Submission.objects.filter(pk=submission_id).update(progress=progress, heartbeat_at=timezone.now())


def score_submission(submission_id: int, *, force: bool = False) -> str:
    """Score a queued (or, with ``force``, any) submission; returns its final status."""
    if not _claim(submission_id, force):
        return Submission.objects.values_list("status", flat=True).get(pk=submission_id)
    submission = Submission.objects.select_related("phase__task").get(pk=submission_id)
    phase, task = submission.phase, submission.phase.task
    try:
        metrics = prepared_metrics(task, phase.dataset_id)
        dataset = load_dataset(phase.dataset_id)
        set_progress(submission_id, 0.05)
        hypothesis = scoring.read_hypothesis(dataset, bytes(submission.content), submission.system_name, filename=submission.filename, max_tokens=task.max_tokens)
        statistics = {}
        for k, metric in enumerate(metrics, start=1):
            set_progress(submission_id, 0.1 + 0.85 * (k - 1) / len(metrics))
            statistics[metric.name] = metric.statistics(dataset, hypothesis)
        signature = scoring.signature(metrics, task.scoring_options(), dataset)
    except scoring.InputError as error:
        return fail_submission(submission_id, str(error))
    independent = [m for m in metrics if not m.pooled]
    scores = scoring.scores_from_statistics({"system": statistics}, independent)["system"]
    return _record(submission_id, statistics, scores, signature, force)


def _claim(submission_id: int, force: bool) -> bool:
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        if submission.status in (Submission.Status.SCORED, Submission.Status.FAILED) and not force:
            return False
        now = timezone.now()
        Submission.objects.filter(pk=submission_id).update(
            status=Submission.Status.RUNNING, progress=0.0, started_at=now, heartbeat_at=now, attempts=submission.attempts + 1
        )
        pool.touch(submission.phase_id)
    return True


def _record(submission_id: int, statistics: dict, scores: dict, signature: str, force: bool) -> str:
    """Results, status and the pool, all in one transaction."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        if submission.status == Submission.Status.SCORED and not force:
            return submission.status  # another run finished first; its rows stand
        existing = {r.metric: r for r in MetricResult.objects.filter(submission_id=submission_id)}
        changed = any(existing.get(name) is None or existing[name].statistics != stats for name, stats in statistics.items())
        MetricResult.objects.filter(submission_id=submission_id).exclude(metric__in=list(statistics)).delete()
        for name, stats in statistics.items():
            # pool metrics get their scores from the pool below; a leaver keeps its last ones
            kept = existing[name].scores if name in existing else {}
            MetricResult.objects.update_or_create(
                submission_id=submission_id, metric=name, defaults={"statistics": stats, "scores": scores.get(name, kept)}
            )
        Submission.objects.filter(pk=submission_id).update(
            status=Submission.Status.SCORED, progress=1.0, error="", signature=signature, scored_at=timezone.now(), heartbeat_at=timezone.now()
        )
        pool.sync_pool(submission.phase_id, refresh={submission_id} if force and changed else frozenset())
        pool.touch(submission.phase_id)
        if not force:  # a rescore tells nobody
            _tell_team(submission_id)
    log.info("scored submission %s", submission_id)
    return Submission.Status.SCORED


def fail_submission(submission_id: int, message: str) -> str:
    """End a submission as failed with a message its team can act on."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        Submission.objects.filter(pk=submission_id).update(status=Submission.Status.FAILED, error=message, progress=1.0, heartbeat_at=timezone.now())
        pool.sync_pool(submission.phase_id)  # a rescored member that now fails leaves the pool
        pool.touch(submission.phase_id)
        _tell_team(submission_id)
    return Submission.Status.FAILED


def _tell_team(submission_id: int) -> None:
    """An email once the result is committed; a mail server error is logged, never undoes it."""
    transaction.on_commit(lambda: notify.submission_finished(submission_id), robust=True)

