"""Submissions as their team's pages, the organizers' pages and ``/api/me/`` read them.

Who may see a submission is :mod:`leaderboard.access`'s decision; these only fetch.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from .. import access
from ..models import Phase, PoolMember, SharedTask, Submission
from ..models.shared_tasks import light_dataset


def baselines_of(task: SharedTask) -> list[Submission]:
    """The organizers' baseline uploads of a task, newest first."""
    return list(Submission.objects.filter(phase__task=task, is_baseline=True).select_related("phase").order_by("-pk"))


def team_history(phase: Phase, team) -> QuerySet[Submission]:
    """A team's shown submissions of a phase, without their files (the score history)."""
    return Submission.objects.filter(phase=phase, team=team, hidden=False).defer("content")


def corpus_files(upload: Submission, *, with_team: bool = False) -> dict[str, Submission]:
    """An upload's file per corpus name (a zip's parts, or its one corpus)."""
    outputs = (
        upload.corpus_outputs.select_related("phase__task", "phase__dataset", "team").defer(
            "content", *light_dataset("phase__dataset__")
        )
        if with_team
        else upload.corpus_outputs.select_related("phase").order_by("pk")
    )
    return {o.phase.corpus: o for o in outputs}


def on_board(submission: Submission) -> bool:
    """Whether the submission (or, for an upload, one of its files) counts on the board now."""
    return Submission.objects.filter(Submission.on_board(), pk=submission.pk).exists()


def uploaded_bytes(submission: Submission) -> bytes:
    """The file as it was uploaded (left out of every other query: it can be large)."""
    return bytes(Submission.objects.values_list("content", flat=True).get(pk=submission.pk))


def scored_systems(phases) -> list[Submission]:
    """The scored submissions of ``phases`` a campaign may rank, oldest first."""
    return [
        s
        for p in phases
        for s in p.submissions.filter(status="scored").select_related("team").defer("content").order_by("pk")
    ]


def uploads_of(user, *, task: str = "", phase: str = "") -> QuerySet[Submission]:
    """``user``'s teams' uploads (an upload of corpus files is one row), newest first, each
    marked ``counted`` when it or one of its files is in its phase's pool."""
    rows = (
        Submission.objects.filter(team__memberships__user=user, hidden=False, parent__isnull=True)
        .select_related("phase__task", "team")
        .annotate(
            counted=Exists(
                PoolMember.objects.filter(Q(submission=OuterRef("pk")) | Q(submission__parent=OuterRef("pk")))
            )
        )
        .order_by("-created_at", "-pk")
    )
    if task:
        rows = rows.filter(phase__task__slug=task)
    if phase:
        rows = rows.filter(phase__kind=phase)
    return rows


def visible_output_ids(phase: Phase, user) -> set[int]:
    """The ids of the phase's outputs ``user`` may open (:func:`leaderboard.access.visible_outputs`)."""
    return set(access.visible_outputs(phase, user).values_list("pk", flat=True))


def followed_submission(pk: int | str) -> Submission | None:
    """The submission an upload banner follows, with its phase and task, without the file."""
    return Submission.objects.select_related("phase__task").defer("content").filter(pk=pk).first()
