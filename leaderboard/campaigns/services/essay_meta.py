"""A rating campaign's essay-level meta-evaluation (in the worker): every metric's score of
each rated system on each rated item (its own per-sentence score, from stored statistics:
``scoring.meta.resample.resampled_scores`` with one sentence a row) against the item's mean
rating, per scale (:func:`scoring.meta.essay_level.essay_correlation`). Built-in
outputs (ORIGINAL, REFERENCE) have no metric score and are left out."""

from __future__ import annotations

import logging
from collections import OrderedDict

import numpy as np

import scoring
from scoring import build_metrics
from scoring.human.ratings import Rating
from scoring.human.wmt_clusters import segment_means
from scoring.meta.essay_level import essay_correlation
from scoring.meta.resample import resampled_scores, sentence_count

from ...models import Campaign, MetricResult
from .corpus import corpus_outputs

log = logging.getLogger(__name__)


CACHED = 64  # per-item scores kept per worker process: they change only when a system is rescored
_scores: OrderedDict[tuple, dict] = OrderedDict()


def stored_results(campaign: Campaign, labels: dict[int, str]) -> dict[str, dict[str, int]]:
    """``{metric: {system name: MetricResult id}}`` of the campaign's submissions (a corpus's own)."""
    shown = corpus_outputs(campaign, list(campaign.systems.filter(pk__in=[pk for pk in labels if pk > 0])))
    by_id = {shown[pk].pk: labels[pk] for pk in labels if pk in shown}
    results: dict[str, dict[str, int]] = {}
    for pk, submission, metric in MetricResult.objects.filter(submission_id__in=by_id).values_list(
        "pk", "submission_id", "metric"
    ):
        results.setdefault(metric, {})[by_id[submission]] = pk
    return results


def cached_item_scores(metric, results: dict[str, int]) -> dict[str, dict[str, dict[str, float]]]:
    """:func:`per_item_scores` of the stored results ``{system: MetricResult id}``, computed
    once per worker process: a re-ranking after each judgment reads them again for free."""
    key = (metric.name, repr(metric.options), tuple(sorted(results.items())))
    if key in _scores:
        _scores.move_to_end(key)
        return _scores[key]
    stats = dict(MetricResult.objects.filter(pk__in=results.values()).values_list("pk", "statistics"))
    found = per_item_scores(metric, {name: stats[pk] for name, pk in results.items()})
    _scores[key] = found
    while len(_scores) > CACHED:
        _scores.popitem(last=False)
    return found


def per_item_scores(metric, statistics: dict[str, dict]) -> dict[str, dict[str, dict[str, float]]]:
    """``{score path: {system: {item: score}}}``, items the 1-based lines as strings."""
    n_lines = sentence_count(next(iter(statistics.values())))
    scores = resampled_scores(metric, statistics, np.arange(n_lines)[:, None])
    systems = list(statistics)
    return {
        path: {s: {str(line + 1): float(table[line, k]) for line in range(n_lines)} for k, s in enumerate(systems)}
        for path, table in scores.items()
    }


def essay_correlations(campaign: Campaign, ratings: list[Rating], labels: dict[int, str]) -> dict:
    """``{score path: {SCALE: essay_correlation entry}}``; {} when nothing can be compared."""
    stored = stored_results(campaign, labels)
    systems = {name for by_system in stored.values() for name in by_system}
    if not systems or not ratings:
        return {}
    metrics = build_metrics(campaign.task.metric_names(), campaign.phase.scoring_options())
    scales = list(dict.fromkeys(r.scale for r in ratings))
    human = {s: segment_means([(r.system, r.item, r.value) for r in ratings if r.scale == s]) for s in scales}
    table: dict[str, dict] = {}
    for metric in metrics:
        own = stored.get(metric.name, {})
        if set(own) != systems:
            continue
        try:
            scores = cached_item_scores(metric, own)
        except (scoring.InputError, ValueError, KeyError, IndexError) as error:
            log.warning("campaign %s: no essay-level scores of %s: %s", campaign.pk, metric.name, error)
            continue
        for path, by_system in scores.items():
            table[path] = {scale: essay_correlation(by_system, human[scale]) for scale in scales}
    return table
