"""Create a shared task: its dataset prepared once, a phase, and the phase's pool."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

import scoring

from ...models import Phase, Pool, SharedTask
from ...models.text import field_problems
from ..data.datasets import load_dataset, prepare_dataset, prepare_dataset_m2
from ..pool import gotoscorer

MULTIGEC_HEADLINE = "gleu.score"  # MultiGEC-2025 ranked its systems by GLEU


def task_defaults(*, bundle: bool, metrics: list[str] | None) -> dict:
    """The headline and GLEU of a task whose organizer left them unsaid (docs/multigec.md):
    made from a bundle of corpora, MultiGEC-2025's (the PyPI gleu tool, ranked by GLEU when
    GLEU is scored); else the official GLEU and the registry's default headline (empty).
    The host form and ``create_task`` both ask this, so the two ways agree."""
    if not bundle:
        return {"gleu_variant": "official", "headline_metric": ""}
    has_gleu = "gleu" in scoring.metric_names(list(metrics or []) or None)
    return {"gleu_variant": "multigec", "headline_metric": MULTIGEC_HEADLINE if has_gleu else ""}


def create_task(
    slug: str,
    *,
    source: str | None = None,
    references: Sequence[tuple[str, str]] = (),
    m2: str | None = None,
    title: str = "",
    description: str = "",
    tokenize: bool = False,
    metrics: list[str] | None = None,
    gts_ref: int = 0,
    tracks: Sequence[str] = (),
    headline_metric: str = "",
    gleu_variant: str = "",
    kind: str = Phase.Kind.DEV,
    **phase_fields,
) -> SharedTask:
    """A task with one phase of ``kind``; raises :class:`scoring.InputError` on bad files,
    ``ValueError`` on an unknown metric or a headline outside the task's score paths.

    Parsing happens before the transaction opens, so a slow parse holds no locks.
    """
    texts = {"title": title or slug, "description": description, "tracks": list(tracks)}
    problems = [message for name, value in texts.items() for message in field_problems(SharedTask, name, value)]
    if problems:
        raise scoring.InputError([scoring.Problem(0, message) for message in problems])
    dataset = prepare_gold_files(f"{slug} {kind}", source=source, references=references, m2=m2, tokenize=tokenize)
    with transaction.atomic():
        task = SharedTask.objects.create(
            slug=slug,
            title=title or slug,
            description=description,
            tokenize=tokenize,
            metrics=list(metrics or []),
            gts_ref=gts_ref,
            tracks=list(tracks),
            headline_metric=headline_metric,
            gleu_variant=gleu_variant,
        )
        task.metric_names()  # rejects unknown metric names before anything is kept
        task.check_headline()
        add_phase(task, dataset, kind=kind, **({"gleu_variant": gleu_variant} if gleu_variant else {}), **phase_fields)
    return task


def prepare_gold_files(
    name: str,
    *,
    source: str | None = None,
    references: Sequence[tuple[str, str]] = (),
    m2: str | None = None,
    tokenize: bool = False,
):
    """A prepared dataset from text gold or one M2 file (inline: commands and tests)."""
    if m2 is not None:
        return prepare_dataset_m2(name, m2)
    return prepare_dataset(name, source or "", list(references), tokenize=tokenize)


def add_phase(task: SharedTask, dataset, *, kind: str, **fields) -> Phase:
    """A phase with its empty pool and, when GoToScorer is scored, its gold chunks (n_i = 0).
    The dataset becomes the task's, so later phases may reuse it."""
    if dataset.task_id is None:
        dataset.task = task
        dataset.save(update_fields=["task"])
    phase = Phase.objects.create(task=task, dataset=dataset, kind=kind, **fields)
    Pool.objects.create(phase=phase)
    if gotoscorer.NAME in task.metric_names():
        gotoscorer.create_gold_chunks(phase, load_dataset(dataset), task.gts_ref)
    return phase
