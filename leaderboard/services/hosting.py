"""Host a task from the browser: the write paths behind the organizer's pages.

Gold arrives checked (:mod:`leaderboard.services.gold`) and is stored unprepared; a job
in the worker queue parses it (:mod:`leaderboard.services.organizer_jobs`). A task is
``preparing`` until its first gold is ready and is listed only then.
"""
from __future__ import annotations

from django.db import transaction

from ..models import Dataset, OrganizerJob, Phase, Pool, SharedTask
from . import pool
from .gold import Gold
from .organizer_jobs import queue_job
from .tasks import add_phase


def store_gold(task: SharedTask, name: str, gold: Gold) -> Dataset:
    """Checked gold kept as it came, unprepared (``prepared`` stays empty until the job runs)."""
    references = [{"name": "m2", "text": gold.m2}] if gold.m2 else [{"name": n, "text": t} for n, t in gold.references]
    return Dataset.objects.create(
        task=task, name=name, source=gold.source, references=references, from_m2=bool(gold.m2),
        n_sentences=gold.n_sentences, n_references=gold.n_references,
    )


def host_task(user, gold: Gold, **fields) -> SharedTask:
    """A task in ``preparing`` with ``user`` as its organizer and its gold queued."""
    with transaction.atomic():
        task = SharedTask.objects.create(status=SharedTask.Status.PREPARING, progress=0.0, status_message="queued", created_by=user, **fields)
        task.metric_names()  # unknown metric names raise before anything is kept
        task.organizers.add(user)
        dataset = store_gold(task, f"{task.slug} gold", gold)
        queue_job(OrganizerJob.Kind.PREPARE_GOLD, task, user=user, dataset=dataset)
    return task


def add_hosted_phase(task: SharedTask, fields: dict, *, gold: Gold | None = None, dataset: Dataset | None = None, user=None) -> Phase:
    """A phase on new ``gold`` (stored, prepared in the queue, chunks found there) or on
    one of the task's datasets (chunks found now when it is prepared, else by its job)."""
    with transaction.atomic():
        if gold is not None:
            dataset = store_gold(task, f"{task.slug} {fields['kind']} gold", gold)
            queue_job(OrganizerJob.Kind.PREPARE_GOLD, task, user=user, dataset=dataset)
        if dataset.is_prepared:
            return add_phase(task, dataset, **fields)
        phase = Phase.objects.create(task=task, dataset=dataset, **fields)
        Pool.objects.create(phase=phase)
    return phase


def edit_phase(phase: Phase, fields: dict) -> Phase:
    """Dates, limits and rules; the gold of a phase stays (its submissions were scored on it)."""
    with transaction.atomic():
        for name, value in fields.items():
            setattr(phase, name, value)
        phase.save(update_fields=list(fields))
        pool.touch(phase.pk)  # open pages show the new state
    return phase
