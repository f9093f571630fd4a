"""Tasks and their phases, as the pages and the API list them."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.shortcuts import get_object_or_404

from ..access import with_gold_state
from ..models import OrganizerJob, Phase, SharedTask
from ..models.pages import written_pages
from ..models.shared_tasks import light_dataset


def listed_tasks() -> QuerySet[SharedTask]:
    """Every task the home page and ``GET /api/tasks/`` list, with its phases and their data."""
    return SharedTask.objects.listed().prefetch_related("phases__dataset").order_by("slug")


def organized_tasks(user) -> QuerySet[SharedTask]:
    """The tasks ``user`` organizes, newest first (the host page)."""
    return SharedTask.objects.filter(organizers=user).order_by("-created_at")


def slug_taken(slug: str) -> bool:
    return SharedTask.objects.filter(slug=slug).exists()


def phases_in_order(task: SharedTask) -> QuerySet[Phase]:
    """A task's phases as its pages show them (by start), each with its dataset."""
    return task.phases.select_related("dataset").defer(*light_dataset("dataset__")).order_by("starts_at", "pk")


def phase_key_taken(task: SharedTask, kind: str, *, other_than: int | None = None) -> bool:
    phases = task.phases.filter(kind=kind)
    return (phases if other_than is None else phases.exclude(pk=other_than)).exists()


def has_corpus_phases(task: SharedTask) -> bool:
    """Whether a phase of several corpora exists (its corpora are phases of their own)."""
    return Phase.every.filter(task=task, parent__isnull=False).exists()


def phase_keys(task: SharedTask) -> set[str]:
    """The keys (dev, test, ...) a task's phases already use."""
    return set(task.phases.values_list("kind", flat=True))


def datasets_of(task: SharedTask):
    """A task's prepared datasets, oldest first (what a new phase may reuse)."""
    return task.datasets.order_by("pk")


def has_phases(task: SharedTask) -> bool:
    return task.phases.exists()


def recent_jobs(task: SharedTask, count: int = 10):
    """The organizers' latest jobs of a task (gold preparation, rescores)."""
    return task.jobs.all()[:count]


def task_or_404(slug: str) -> SharedTask:
    """The task a URL names (Http404 when there is none): every page and API class starts here."""
    return get_object_or_404(SharedTask, slug=slug)


def with_phases(task: SharedTask) -> SharedTask:
    """``task`` with its phases read once, each with whether its gold is ready
    (:func:`leaderboard.access.with_gold_state`): the board page's current phase, its
    navigation, tabs and phase box all ask of them."""
    prefetch_related_objects([task], Prefetch("phases", queryset=with_gold_state(Phase.objects.all())))
    return task


def phase_or_404(task: SharedTask, kind: str | None) -> Phase:
    """One phase of ``task`` by its key (Http404 for an unknown key)."""
    return get_object_or_404(Phase, task=task, kind=kind)


def organizer_job_or_404(task: SharedTask, pk: int) -> OrganizerJob:
    """An organizer job of ``task`` (Http404 for another task's)."""
    return get_object_or_404(OrganizerJob, task=task, pk=pk)


def written_page_names(task: SharedTask) -> set[str]:
    """The names of the task's pages its organizers wrote (an empty one is not shown)."""
    return set(written_pages(task))
