"""Read paths: the leaderboard of a phase, ranked by one metric path, cached per version.

A leaderboard is the phase's pool (the same systems GoToScorer weighs against each
other), each with its stored scores. The table only changes when the pool's version
does, so it is built once per (version, metric) and served from the cache after that:
that is what keeps the polled endpoint cheap.
"""
from __future__ import annotations

import json

from django.core.cache import cache

# What to rank by, and the number at a path, are the metric registry's answers.
from scoring import default_path as default_metric  # noqa: F401  (re-exported for the views)
from scoring import value_at as metric_value
from scoring import without_tables as summary

from .models import MetricResult, Phase, Pool, Submission


def headline_metric(task) -> str:
    """The path the task's board ranks by and its "best" counting rule means."""
    return task.headline_metric or default_metric(task.metric_names())



def board_rows(phase_id: int, metric: str) -> list[dict]:
    members = list(
        Submission.objects.filter(phase_id=phase_id, pool_membership__isnull=False)
        .select_related("team")
        .only("pk", "system_name", "is_baseline", "scored_at", "team__name")
    )
    scores: dict[int, dict] = {s.pk: {} for s in members}
    for submission_id, name, value in MetricResult.objects.filter(submission__in=members).values_list("submission_id", "metric", "scores"):
        scores[submission_id][name] = summary(value)
    rows = [
        {
            "team": s.team.name,
            "system_name": s.system_name,
            "submission_id": s.pk,
            "baseline": s.is_baseline,
            "scored_at": s.scored_at.isoformat() if s.scored_at else None,
            "value": metric_value(scores[s.pk], metric),
            "scores": scores[s.pk],
        }
        for s in members
    ]
    rows.sort(key=lambda r: (r["value"] is None, -(r["value"] or 0.0), r["submission_id"]))
    return ranked(rows)


def ranked(rows: list[dict]) -> list[dict]:
    """Ranks 1.. over ``rows`` (already in board order); equal values share a rank."""
    previous, rank, result = object(), 0, []
    for position, row in enumerate(rows, start=1):
        if row["value"] != previous:
            rank, previous = position, row["value"]
        result.append({**row, "rank": rank})
    return result


def leaderboard_json(phase: Phase, metric: str, version: int) -> bytes:
    """The API body ``{"metric", "phase", "version", "rows"}``, built once per version."""
    key = f"leaderboard:{phase.pk}:{version}:{metric}"
    body = cache.get(key)
    if body is None:
        body = json.dumps({"metric": metric, "phase": phase.kind, "version": version, "rows": board_rows(phase.pk, metric)}).encode()
        cache.set(key, body, timeout=3600)
    return body


def pool_version(phase_id: int) -> int:
    return Pool.objects.filter(phase_id=phase_id).values_list("version", flat=True).first() or 0
