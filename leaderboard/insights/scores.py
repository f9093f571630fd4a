"""Stored scores of a team's submissions: the headline figures beside each, one submission's sheet."""

from __future__ import annotations

from scoring import HEADLINE_SCORES, flatten, label

from ..models import MetricResult, Submission
from ..standings import ScoresWithoutTables, headline_metric, metric_value, summary
from .loading import comparison_inputs
from .per_type import comparison


def stored_scores(submission_ids) -> dict[int, dict]:
    """``{submission id: {metric: scores}}``, per-type tables left out."""
    result: dict[int, dict] = {}
    results = MetricResult.objects.filter(submission_id__in=list(submission_ids)).annotate(
        without_tables=ScoresWithoutTables()
    )
    for submission_id, metric, scores in results.values_list("submission_id", "metric", "without_tables"):
        result.setdefault(submission_id, {})[metric] = summary(scores)
    return result


def headline(scores: dict, first: str = "") -> list[tuple[str, float]]:
    """``[(label, value)]`` of the headline scores this submission has, the task's ranking
    path ``first`` leading (a page that shows a few shows the one the board is about)."""
    labels = {path: name for name, path in HEADLINE_SCORES}
    paths = ([first] if first else []) + [path for path in labels if path != first]
    values = ((labels.get(path) or label(path), metric_value(scores, path)) for path in paths)
    return [(name, value) for name, value in values if value is not None]


def score_sheet(submission: Submission, level: str, metric: str) -> dict:
    """One scored submission's page: headline figures, every stored score by path, and
    ``metric``'s per-type table at category ``level``."""
    scores = stored_scores([submission.pk]).get(submission.pk, {})
    return {
        "headline": headline(scores, headline_metric(submission.phase.task)),
        "score_table": [(path, label(path), value) for path, value in flatten(scores).items()],
        "per_type": comparison(comparison_inputs([submission], metric), level, submission.phase.task.beta, metric),
    }
