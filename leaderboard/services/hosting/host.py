"""Host a task from the browser: the write paths behind the organizer's pages.

Gold arrives checked (:mod:`leaderboard.services.data.gold`) and is stored unprepared; a job
in the worker queue parses it (:mod:`leaderboard.services.hosting.organizer_jobs`). A task is
``preparing`` until its first gold is ready and is listed only then.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from ...board_version import board_changed
from ...models import Dataset, OrganizerJob, Phase, Pool, SharedTask, Submission
from ..data.corpora import CorpusGold
from ..data.datasets import load_dataset
from ..data.gold import Gold
from ..pool import gotoscorer
from ..pool.recount import recount, recount_task
from .organizer_jobs import queue_job
from .task_creation import add_phase


def store_gold(task: SharedTask, name: str, gold: Gold, **language) -> Dataset:
    """Checked gold kept as it came, unprepared (``prepared`` stays empty until the job
    runs). ``language``: a corpus's ``lang``, ``pipeline`` and ``max_tokens``; by default
    English, its richest pipeline and the task's line limit."""
    references = [{"name": "m2", "text": gold.m2}] if gold.m2 else [{"name": n, "text": t} for n, t in gold.references]
    return Dataset.objects.create(
        task=task,
        name=name,
        source=gold.source,
        references=references,
        from_m2=bool(gold.m2),
        n_sentences=gold.n_sentences,
        n_references=gold.n_references,
        **{"max_tokens": task.max_tokens, **language},
    )


def host_task(user, gold: Gold | list, *, language: dict | None = None, **fields) -> SharedTask:
    """A task in ``preparing`` with ``user`` as its organizer and its gold queued: one
    dataset (in ``language``: :func:`store_gold`'s settings), or one per corpus of a
    bundle (``gold`` a list of :class:`.corpora.CorpusGold`, each with its own)."""
    with transaction.atomic():
        task = SharedTask.objects.create(
            status=SharedTask.Status.PREPARING, progress=0.0, status_message="queued", created_by=user, **fields
        )
        task.metric_names()  # unknown metric names raise before anything is kept
        task.check_headline()
        task.organizers.add(user)
        if isinstance(gold, list):
            store_corpora(task, gold, user=user)
        else:
            dataset = store_gold(task, f"{task.slug} gold", gold, **(language or {}))
            queue_job(OrganizerJob.Kind.PREPARE_GOLD, task, user=user, dataset=dataset)
    return task


def add_hosted_phase(
    task: SharedTask,
    fields: dict,
    *,
    gold: Gold | list | None = None,
    dataset: Dataset | None = None,
    corpora=(),
    language: dict | None = None,
    user=None,
) -> Phase:
    """A phase on new ``gold`` (stored, prepared in the queue, chunks found there) or on
    one of the task's datasets (chunks found now when it is prepared, else by its job);
    a phase of several corpora on the task's datasets ``corpora`` or on a bundle's
    (``gold`` a list of :class:`.corpora.CorpusGold`)."""
    with transaction.atomic():
        if isinstance(gold, list):
            corpora = store_corpora(task, gold, user=user)
        if corpora:
            return add_corpus_phase(task, list(corpora), **fields)
        if isinstance(gold, Gold):
            dataset = store_gold(task, f"{task.slug} {fields['kind']} gold", gold, **(language or {}))
            queue_job(OrganizerJob.Kind.PREPARE_GOLD, task, user=user, dataset=dataset)
        if dataset is None:
            raise ValueError("a hosted phase needs gold, a dataset or corpora")
        if dataset.is_prepared:
            return add_phase(task, dataset, **fields)
        phase = Phase.objects.create(task=task, dataset=dataset, **fields)
        Pool.objects.create(phase=phase)
    return phase


def edit_phase(phase: Phase, fields: dict, *, user=None) -> OrganizerJob | None:
    """Dates, limits and rules; the gold of a phase stays (its submissions were scored on it).

    A new GLEU variant changes how the phase's submissions score: when any was scored,
    the task's rescore is queued here (and returned), so no board mixes the two. The
    variant is compared with the stored one: a bound ModelForm has already set the new
    value on ``phase``. A new counting rule moves the pool and the boards at once
    (:func:`..boards.recount.recount`), not at the next upload."""
    with transaction.atomic():
        gleu, counting = Phase.every.filter(pk=phase.pk).values_list("gleu_variant", "counting").get()
        rescore = "gleu_variant" in fields and fields["gleu_variant"] != gleu and scored_on(phase)
        for name, value in fields.items():
            setattr(phase, name, value)
        phase.save(update_fields=list(fields))
        if fields.get("counting", counting) != counting:
            recount(phase.pk)
        board_changed(phase.pk)  # open pages show the new state
        return queue_job(OrganizerJob.Kind.RESCORE, phase.task, user=user) if rescore else None


def set_headline(task: SharedTask, path: str) -> SharedTask:
    """Rank the task's boards by ``path`` (empty: the registry's default); ``ValueError``
    with the reason when it is not one of the task's score paths. Every phase is
    recounted at once: "best" compares the headline."""
    problem = task.headline_problem(path)
    if problem:
        raise ValueError(f"headline_metric: {problem}")
    with transaction.atomic():
        task.headline_metric = path
        task.save(update_fields=["headline_metric"])
        recount_task(task)
    return task


def scored_on(phase: Phase) -> bool:
    """Whether a submission to the phase (or one of its corpora) has scores."""
    return Submission.objects.filter(Q(phase=phase) | Q(phase__parent=phase), status=Submission.Status.SCORED).exists()


def store_corpora(task: SharedTask, corpora: list[CorpusGold], *, user=None, prepare=None) -> list[Dataset]:
    """One dataset per corpus, named after it. Prepared by a job in the worker queue, or
    inline by ``prepare`` (a command)."""
    datasets = []
    for corpus in corpora:
        dataset = store_gold(
            task, corpus.name, corpus.gold, lang=corpus.lang, pipeline=corpus.pipeline, max_tokens=corpus.max_tokens
        )
        if prepare is None:
            queue_job(OrganizerJob.Kind.PREPARE_GOLD, task, user=user, dataset=dataset)
        else:
            prepare(dataset)
        datasets.append(dataset)
    return datasets


def add_corpus_phase(task: SharedTask, datasets: list[Dataset], *, kind: str, **fields) -> Phase:
    """A phase of several corpora: the phase, and under it one phase per dataset (its
    pool, and its gold chunks once the dataset is prepared)."""
    with transaction.atomic():
        phase = Phase.objects.create(task=task, kind=kind, **fields)
        Pool.objects.create(phase=phase)
        for dataset in datasets:
            corpus = Phase.every.create(
                task=task,
                parent=phase,
                corpus=dataset.name,
                kind=f"{kind}--{dataset.name}",
                name=dataset.name,
                dataset=dataset,
                **{name: getattr(phase, name) for name in Phase.SHARED},
            )
            Pool.objects.create(phase=corpus)
            if dataset.is_prepared and gotoscorer.NAME in task.metric_names():
                gotoscorer.create_gold_chunks(corpus, load_dataset(dataset), task.gts_ref)
    return phase
