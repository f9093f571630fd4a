"""Reads of stored results the insight pages need (one query per kind of row)."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import MetricResult, Submission
from .per_type import CHUNK_METRICS, DEFAULT_METRIC


def scored_submissions(submissions: QuerySet[Submission], submission_ids) -> list[Submission]:
    """The scored ones of ``submissions`` (those a user may see, :mod:`leaderboard.access`)
    among ``submission_ids``, in the order given."""
    found = {
        s.pk: s
        for s in submissions.filter(status=Submission.Status.SCORED, pk__in=submission_ids).select_related("team")
    }
    return [found[pk] for pk in submission_ids if pk in found]


def corpus_outputs(outputs: QuerySet[Submission], uploads: QuerySet[Submission], ids) -> list[Submission]:
    """What ``ids`` stand for on one corpus of a phase of several corpora, scored and in the
    order given: a corpus output by its own id; an upload (a zip, or one corpus file) by
    its output on this corpus, else, when it brought no file for it, by its team's entry
    on this corpus's board. ``outputs`` are the corpus's submissions and ``uploads`` the
    phase's that the user may see (:mod:`leaderboard.access`): an id the user may not
    see stands for nothing."""
    ids = list(ids)
    scored = outputs.filter(status=Submission.Status.SCORED).select_related("team")
    shown = {s.pk: s for s in scored.filter(pk__in=ids)}
    for output in scored.filter(parent_id__in=ids):
        assert output.parent_id is not None  # filtered on parent_id__in
        shown.setdefault(output.parent_id, output)
    teams = dict(uploads.filter(pk__in=[pk for pk in ids if pk not in shown]).values_list("pk", "team_id"))
    entries = {
        s.team_id: s
        for s in scored.filter(pool_membership__isnull=False, team_id__in=set(teams.values()), is_baseline=False)
    }
    for pk, team in teams.items():
        if team in entries:
            shown[pk] = entries[team]
    chosen: list[Submission] = []
    for pk in ids:
        if pk in shown and shown[pk] not in chosen:
            chosen.append(shown[pk])
    return chosen


def comparison_inputs(submissions: list[Submission], metric: str = DEFAULT_METRIC) -> list[dict]:
    """Per submission: its id, name, scores of ``metric`` and, when stored, CLEME chunk statistics."""
    ids = [s.pk for s in submissions]
    scores = dict(
        MetricResult.objects.filter(submission_id__in=ids, metric=metric).values_list("submission_id", "scores")
    )
    chunks: dict[int, dict] = {}
    for name in reversed(CHUNK_METRICS):  # CLEME2.0's statistics win when both are stored
        chunks.update(
            MetricResult.objects.filter(submission_id__in=ids, metric=name).values_list("submission_id", "statistics")
        )
    return [
        {"id": s.pk, "name": s.display_name, "scores": scores[s.pk], "chunks": chunks.get(s.pk)}
        for s in submissions
        if s.pk in scores
    ]


def chunk_statistics(submission: Submission) -> dict | None:
    """The submission's CLEME2.0 (else CLEME) chunk outcomes, or None."""
    for name in CHUNK_METRICS:
        stats = (
            MetricResult.objects.filter(submission=submission, metric=name).values_list("statistics", flat=True).first()
        )
        if stats is not None:
            return stats
    return None
