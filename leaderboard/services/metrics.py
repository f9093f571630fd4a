"""A task's metrics, built and prepared on its dataset once per process: scoring a
submission and re-scoring a phase's pool both start from them."""
from __future__ import annotations

import threading

import scoring

from ..models import SharedTask
from .datasets import load_dataset, save_prepared

_metrics_cache: dict[tuple, list] = {}
_metrics_lock = threading.Lock()


def prepared_metrics(task: SharedTask, dataset_id: int) -> list:
    """The task's metrics, built and prepared on its dataset once per process; what a
    metric prepares once per dataset (``Dataset.tables``) is stored with the dataset."""
    options = task.scoring_options()
    key = (dataset_id, tuple(task.metric_names()), repr(options))
    with _metrics_lock:
        metrics = _metrics_cache.get(key)
    if metrics is None:
        dataset = load_dataset(dataset_id)
        metrics = scoring.build_metrics(task.metric_names(), options)
        tables = set(dataset.tables)
        for metric in metrics:
            metric.prepare(dataset)
        if set(dataset.tables) != tables:  # computed once for the task: the next worker loads them
            save_prepared(dataset_id, dataset)
        with _metrics_lock:
            _metrics_cache[key] = metrics
    return metrics
