"""A team's submissions to a phase as its members may see them (the "My submissions" rows).

One row per submission, newest first, with the rules of :mod:`leaderboard.access`
applied: a blind phase's hidden results show as "received" with no progress nor error,
scores only when the phase's results are visible, and which submission counts (it is in
the pool: :func:`leaderboard.services.pool.membership.wanted_members`) unless that would tell which
scored best. Pages and the API build on the same rows.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from scoring import label

from .. import access
from ..models import Phase, PoolMember, Submission, Team
from ..standings import headline_metric, metric_value, stored_scores
from .scores import headline
from .uploads import upload_entry

PENDING = (Submission.Status.QUEUED, Submission.Status.RUNNING)


def team_submissions(
    phase: Phase, team: Team | None, user, *, latest: int | None = None, with_scores: bool = True
) -> list[dict]:
    """``latest``: only the newest so many; ``with_scores=False``: statuses only (the rows
    under a live board, polled by every open page: no score is read for them)."""
    if team is None:
        return []
    submissions = list(
        Submission.objects.filter(phase=phase, team=team)
        .annotate(
            counted=Exists(
                PoolMember.objects.filter(Q(submission=OuterRef("pk")) | Q(submission__parent=OuterRef("pk")))
            )
        )
        .defer("content")
        .order_by("-created_at", "-pk")[:latest]
    )
    for s in submissions:
        s.phase = phase  # the access rules read it; one phase object for all rows
    visible = access.may_see_results(phase, user)
    show_counted = access.may_see_counted(phase, user)
    if not with_scores:
        return [submission_row(s, user, None, show_counted) for s in submissions]
    path = headline_metric(phase.task)
    if phase.is_multi_corpus:  # each upload shown whole: its entry's macro average and corpora
        entries = (
            {s.pk: upload_entry(s) for s in submissions if s.status == Submission.Status.SCORED} if visible else {}
        )
        counted_for = (
            counted_corpora([s.pk for s in submissions if getattr(s, "counted", False)]) if show_counted else {}
        )
        return [
            {
                **submission_row(
                    s,
                    user,
                    entries[s.pk]["scores"] if s.pk in entries else ({} if visible else None),
                    show_counted,
                    path,
                ),
                "corpora": corpus_cells(entries[s.pk], path, s.pk) if s.pk in entries else [],
                "counted_for": counted_for.get(s.pk, []),
                "entry_scores": entries[s.pk]["scores"] if s.pk in entries else None,
            }
            for s in submissions
        ]
    scores = stored_scores(s.pk for s in submissions) if visible else {}
    return [submission_row(s, user, scores.get(s.pk, {}) if visible else None, show_counted, path) for s in submissions]


def submission_row(submission: Submission, user, scores: dict | None, show_counted: bool, first: str = "") -> dict:
    """``scores``: the stored scores when the user may see them, else None; ``first``: the
    task's ranking path, shown first."""
    return {
        **status_of(submission, user),
        "submission": submission,
        "scores": headline(scores, first) if scores is not None else None,
        "counted": bool(getattr(submission, "counted", False)) if show_counted else None,
    }


def counted_corpora(upload_ids: list[int]) -> dict[int, list[str]]:
    """``{upload id: the corpora its outputs count for}``: an entry's corpora may come from
    several uploads, each starred, so each says for which corpora it counts."""
    held = PoolMember.objects.filter(submission__parent_id__in=upload_ids).values_list(
        "submission__parent_id", "submission__phase__corpus"
    )
    result: dict[int, list[str]] = {}
    for upload_id, corpus in held.order_by("submission__phase_id"):
        assert upload_id is not None  # filtered on submission__parent_id__in
        result.setdefault(upload_id, []).append(corpus)
    return result


def corpus_cells(entry: dict, path: str, upload_id: int) -> list[dict]:
    """Per corpus of an upload's entry: its score at ``path`` (the headline), and the
    upload its output came in when that is an earlier one."""
    return [
        {
            "corpus": name,
            "label": label(path),
            "value": None if scores is None else metric_value(scores, path),
            "missing": scores is None,
            "from": None if entry["corpus_uploads"][name] in (None, upload_id) else entry["corpus_uploads"][name],
        }
        for name, scores in entry["corpora"].items()
    ]


def status_of(submission: Submission, user) -> dict:
    """The polled status of one submission: what its team may know of it. "received" is
    final while it is shown: when scoring ends is not told either."""
    status = access.shown_status(submission, user)
    received = status == "received"
    return {
        "id": submission.pk,
        "status": status,
        "finished": received or submission.status not in PENDING,
        "progress": None if received else round(submission.progress, 3),
        "error": "" if received else submission.error,
    }
