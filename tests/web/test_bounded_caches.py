"""The per-process caches of prepared datasets and metrics keep a bounded number of
entries, the most recently used (leaderboard/services/data/bounded.py)."""

import threading

import pytest

from leaderboard.services.data import datasets, metrics
from leaderboard.services.data.bounded import Bounded


def test_the_oldest_entry_goes_past_the_bound_and_a_read_keeps_one_young():
    cache: Bounded[str, int] = Bounded(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # now the newest
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3) and len(cache) == 2


def test_threads_never_push_it_past_its_bound():
    cache: Bounded[int, int] = Bounded(5)
    workers = [threading.Thread(target=lambda k=k: [cache.put(k * 100 + j, j) for j in range(200)]) for k in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(cache) == 5


def test_a_cache_keeps_at_least_one_entry():
    with pytest.raises(ValueError, match="at least one"):
        Bounded(0)


def test_the_dataset_and_metric_caches_are_bounded():
    assert datasets._cache.size == datasets.CACHED_DATASETS
    assert metrics._metrics_cache.size == metrics.CACHED_METRIC_SETS
