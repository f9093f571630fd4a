"""Resampled scores come from stored statistics and agree with the metrics themselves.

The whole corpus as a sample reproduces every metric's own corpus score; for the metrics
without a reference choice (GoToScorer with its pool, USIM) any sample equals the
metric's own ``score_pool`` on the sliced statistics.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring import Dataset, ScoringOptions, build_metrics, metric_names, read_hypothesis, system_statistics
from scoring.meta import headline_paths, resampled_scores
from scoring.meta.resample import sliced_scores
from scoring.paths import value_at
from tests.support.meta_support import small_task


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    files = small_task(tmp_path_factory.mktemp("meta-resampling"))
    dataset = Dataset.from_files(source=files["source"], refs=files["refs"])
    metrics = build_metrics(metric_names(), ScoringOptions())  # the language-model ones need a model
    for metric in metrics:
        metric.prepare(dataset)
    hypotheses = [read_hypothesis(dataset, path, name) for name, path in files["hyps"].items()]
    return metrics, {h.name: system_statistics(dataset, h, metrics) for h in hypotheses}, len(dataset)


def own(statistics, metric):
    return {name: stats[metric.name] for name, stats in statistics.items()}


def test_the_whole_corpus_reproduces_every_headline_score(scored):
    metrics, statistics, n = scored
    for metric in metrics:
        scores = metric.score_pool(own(statistics, metric))
        resampled = resampled_scores(metric, own(statistics, metric), np.arange(n))
        assert set(resampled) == set(headline_paths(metric)), metric.name
        for path, values in resampled.items():
            expected = [value_at(scores[name], path.partition(".")[2]) for name in statistics]
            assert np.allclose(values[0], expected, rtol=0, atol=1e-12), path


def test_order_and_shape_of_samples(scored):
    metrics, statistics, n = scored
    shuffled = np.random.default_rng(0).permutation(n)
    for metric in metrics:
        whole = resampled_scores(metric, own(statistics, metric), np.arange(n))
        again = resampled_scores(metric, own(statistics, metric), np.vstack([shuffled, np.zeros(n, dtype=int)]))
        for path in whole:
            assert again[path].shape == (2, len(statistics))
            assert np.allclose(again[path][0], whole[path][0], rtol=0, atol=1e-12), path


@pytest.mark.parametrize("name", ["gotoscorer", "usim"])
def test_samples_equal_the_metric_on_sliced_statistics(scored, name):
    metrics, statistics, n = scored
    metric = next(m for m in metrics if m.name == name)
    indices = np.sort(np.random.default_rng(1).integers(0, n, size=(5, n)), axis=1)
    fast = resampled_scores(metric, own(statistics, metric), indices)
    slow = sliced_scores(metric, list(own(statistics, metric).values()), indices)
    for path in fast:
        assert np.allclose(fast[path], slow[path], rtol=0, atol=1e-12), path
