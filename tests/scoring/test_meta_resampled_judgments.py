"""Correlation intervals that resample the human judgments as well as the sentences: a
scheme with resampled scores pairs sample i of the metric with sample i of the humans."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.meta.correlation import paired_pearson, paired_spearman, pearson, spearman
from scoring.meta.evaluate import correlation_entry


def test_paired_correlations_equal_the_plain_ones_for_fixed_human_scores():
    rng = np.random.default_rng(0)
    metric = rng.normal(size=(50, 6))
    human = rng.normal(size=6)
    fixed = np.tile(human, (50, 1))
    assert paired_pearson(metric, fixed) == pytest.approx(pearson(metric, human))
    assert paired_spearman(metric, fixed) == pytest.approx(spearman(metric, human))


def test_uncertain_human_scores_widen_the_interval():
    rng = np.random.default_rng(1)
    truth = np.linspace(0, 1, 8)
    point = truth + 0.01
    samples = truth + rng.normal(scale=0.02, size=(1000, 8))
    sentences_only = correlation_entry(point, samples, truth)
    both = correlation_entry(point, samples, truth, truth + rng.normal(scale=0.3, size=(1000, 8)))
    assert "resampled" not in sentences_only and both["resampled"] == "sentences+judgments"
    assert both["pearson"] == sentences_only["pearson"]
    width = lambda entry: entry["pearson_ci"][1] - entry["pearson_ci"][0]  # noqa: E731
    assert width(both) > 3 * width(sentences_only)
