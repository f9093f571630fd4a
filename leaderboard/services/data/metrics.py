"""A phase's metrics, built and prepared on its dataset once per process: scoring a
submission and re-scoring a phase's pool both start from them."""

from __future__ import annotations

import scoring

from ...models import Phase
from .bounded import Bounded
from .datasets import load_dataset, save_prepared

CACHED_METRIC_SETS = 8  # (dataset, metrics, options) a process keeps built and prepared
_metrics_cache: Bounded[tuple, list] = Bounded(CACHED_METRIC_SETS)


def prepared_metrics(phase: Phase) -> list:
    """The task's metrics that can serve the phase's language, built and prepared on its
    dataset once per process; what a metric prepares once per dataset (``Dataset.tables``)
    is stored with the dataset."""
    options = phase.scoring_options()
    dataset_id = phase.gold_id
    names = served_metrics(phase)
    key = (dataset_id, tuple(names), repr(options))
    metrics = _metrics_cache.get(key)
    if metrics is None:
        dataset = load_dataset(dataset_id)
        metrics = scoring.build_metrics(names, options)
        tables = set(dataset.tables)
        for metric in metrics:
            metric.prepare(dataset)
        if set(dataset.tables) != tables:  # computed once for the task: the next worker loads them
            save_prepared(dataset_id, dataset)
        _metrics_cache.put(key, metrics)
    return metrics


def served_metrics(phase: Phase) -> list[str]:
    """The task's metric names less those the registry says cannot serve the corpus's
    language (the board shows the registry's reason in their place)."""
    return [name for name in phase.task.metric_names() if phase.unsupported_reason(name) is None]
