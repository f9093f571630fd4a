"""What a command's arguments name, or a :class:`CommandError` that says what is missing:
the commands that take a task's slug and an optional ``--phase`` share these lookups."""

from django.core.management.base import CommandError

from ..models import Phase, SharedTask


def named_task(slug: str, *, returncode: int = 1) -> SharedTask:
    task = SharedTask.objects.filter(slug=slug).first()
    if task is None:
        raise CommandError(f"no task {slug}", returncode=returncode)
    return task


def named_phase(task: SharedTask, kind: str | None, *, returncode: int = 1) -> Phase:
    """The task's phase ``kind``, else (no ``--phase``) its current phase."""
    phase = task.phases.filter(kind=kind).first() if kind else task.current_phase()
    if phase is None:
        raise CommandError(f"task {task.slug} has no phase {kind or ''}".strip(), returncode=returncode)
    return phase
