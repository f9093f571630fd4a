"""Run an organizer's job in the worker queue and keep its progress on the row.

Two kinds: preparing gold an organizer uploaded (parse and annotate it once, then the
GoToScorer gold chunks of every phase that uses it; a task created from the browser is
``ready`` when its first gold is), and rescoring every submission of a task (the result
is each system's rank before and after). A job is claimed once: a redelivered message
finds it running or finished and leaves it alone.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone

import scoring

from ... import queue
from ...models import GoldChunk, OrganizerJob, Phase, SharedTask
from ..data.datasets import prepare_stored
from ..pool import gotoscorer
from .phases import rescore_with_ranks

log = logging.getLogger(__name__)


def queue_job(kind: str, task: SharedTask, *, user=None, dataset=None) -> OrganizerJob:
    """Create the job and queue it once the transaction commits."""
    job = OrganizerJob.objects.create(
        kind=kind,
        task=task,
        dataset=dataset,
        created_by=user if user and user.is_authenticated else None,
        heartbeat_at=timezone.now(),
    )
    transaction.on_commit(lambda: run_job.enqueue(job.pk))
    return job


def requeue_job(job: OrganizerJob) -> None:
    """Run a failed (or lost) job again: the organizer's button, an admin action, the sweeper."""
    with transaction.atomic():
        OrganizerJob.objects.filter(pk=job.pk).update(
            status=OrganizerJob.Status.QUEUED,
            progress=0.0,
            message="queued again",
            finished_at=None,
            heartbeat_at=timezone.now(),
        )
        if job.kind == OrganizerJob.Kind.PREPARE_GOLD and job.task.status == SharedTask.Status.FAILED:
            SharedTask.objects.filter(pk=job.task_id).update(
                status=SharedTask.Status.PREPARING, progress=0.0, status_message="queued again"
            )
        transaction.on_commit(lambda: run_job.enqueue(job.pk))


JOB_TIME_LIMIT = 12 * 3600  # a rescore scores every submission of a task in turn


@queue.job(
    "leaderboard.tasks.run_organizer_job",
    on_failure=lambda job_id, message: fail_job(job_id, message),
    time_limit=JOB_TIME_LIMIT + 60,
    soft_time_limit=JOB_TIME_LIMIT,
)
def run_job(job_id: int) -> str:
    """Run a queued job to its end; returns its final status."""
    with transaction.atomic():
        job = OrganizerJob.objects.select_for_update().select_related("task").get(pk=job_id)
        if job.status != OrganizerJob.Status.QUEUED:
            return job.status
        now = timezone.now()
        OrganizerJob.objects.filter(pk=job_id).update(
            status=OrganizerJob.Status.RUNNING, started_at=now, heartbeat_at=now, attempts=F("attempts") + 1
        )
    try:
        result = RUNNERS[OrganizerJob.Kind(job.kind)](job)
    except scoring.InputError as error:
        return fail_job(job_id, str(error))
    OrganizerJob.objects.filter(pk=job_id).update(
        status=OrganizerJob.Status.DONE, progress=1.0, message="done", result=result, finished_at=timezone.now()
    )
    return OrganizerJob.Status.DONE


def fail_job(job_id: int, message: str) -> str:
    """End a job as failed; a task whose first gold failed says why on its status page."""
    job = OrganizerJob.objects.select_related("task").get(pk=job_id)
    OrganizerJob.objects.filter(pk=job_id).update(
        status=OrganizerJob.Status.FAILED, message=message, finished_at=timezone.now()
    )
    if job.kind == OrganizerJob.Kind.PREPARE_GOLD and job.task.status == SharedTask.Status.PREPARING:
        SharedTask.objects.filter(pk=job.task_id).update(status=SharedTask.Status.FAILED, status_message=message)
    return OrganizerJob.Status.FAILED


def report(job: OrganizerJob, progress: float, message: str) -> None:
    OrganizerJob.objects.filter(pk=job.pk).update(progress=progress, message=message, heartbeat_at=timezone.now())
    if job.kind == OrganizerJob.Kind.PREPARE_GOLD and job.task.status == SharedTask.Status.PREPARING:
        SharedTask.objects.filter(pk=job.task_id).update(progress=progress, status_message=message)


def prepare_gold(job: OrganizerJob) -> dict:
    task, dataset = job.task, job.dataset
    if dataset is None:
        raise ValueError(f"job {job.pk} prepares gold but names no dataset")
    report(job, 0.05, f"parsing and annotating {dataset.n_sentences} sentences and {dataset.n_references} reference(s)")
    prepared = prepare_stored(dataset, tokenize=task.tokenize)
    report(job, 0.85, "finding the gold chunks")
    if gotoscorer.NAME in task.metric_names():
        for phase in Phase.every.filter(dataset=dataset).exclude(
            pk__in=GoldChunk.objects.values("phase")
        ):  # corpus phases too
            gotoscorer.create_gold_chunks(phase, prepared, task.gts_ref)
    if task.status == SharedTask.Status.PREPARING:
        SharedTask.objects.filter(pk=task.pk).update(status=SharedTask.Status.READY, progress=1.0, status_message="")
    return {"n_sentences": len(prepared), "n_references": prepared.n_references}


def rescore(job: OrganizerJob) -> dict:
    changes = rescore_with_ranks(
        job.task, progress=lambda done: report(job, 0.95 * done, f"{done:.0%} of the submissions rescored")
    )
    return {"changes": changes}


RUNNERS = {OrganizerJob.Kind.PREPARE_GOLD: prepare_gold, OrganizerJob.Kind.RESCORE: rescore}
