"""A team's submissions' stored scores, and the headline figures shown beside each."""
from __future__ import annotations

from scoring import HEADLINE_SCORES

from ..models import MetricResult
from ..ranking import metric_value, summary


def stored_scores(submission_ids) -> dict[int, dict]:
    """``{submission id: {metric: scores}}``, per-type tables left out."""
    result: dict[int, dict] = {}
    for submission_id, metric, scores in MetricResult.objects.filter(submission_id__in=list(submission_ids)).values_list("submission_id", "metric", "scores"):
        result.setdefault(submission_id, {})[metric] = summary(scores)
    return result


def headline(scores: dict) -> list[tuple[str, float]]:
    """``[(label, value)]`` of the headline scores this submission has."""
    values = ((name, metric_value(scores, path)) for name, path in HEADLINE_SCORES)
    return [(name, value) for name, value in values if value is not None]
