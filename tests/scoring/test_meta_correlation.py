"""Vectorised Pearson and Spearman equal scipy's, row by row; windows as SEEDA slides them."""

from __future__ import annotations

import numpy as np
from scipy.stats import pearsonr, spearmanr

from scoring.meta.correlation import interval, pearson, spearman
from scoring.meta.windows import window_correlations


def test_rows_equal_scipy_with_and_without_ties():
    rng = np.random.default_rng(7)
    human = rng.normal(size=12)
    metric = np.vstack([rng.normal(size=(20, 12)), rng.integers(0, 4, size=(20, 12))])
    for row, r, rho in zip(metric, pearson(metric, human), spearman(metric, human)):
        assert abs(r - pearsonr(row, human)[0]) < 1e-12
        assert abs(rho - spearmanr(row, human)[0]) < 1e-12


def test_constant_scores_have_no_correlation_and_leave_the_interval():
    human = np.array([1.0, 2.0, 3.0])
    assert np.isnan(pearson(np.ones(3), human)[0])
    samples = np.concatenate([pearson(np.ones((5, 3)), human), np.linspace(0, 1, 101)])
    assert np.allclose(interval(samples), (0.025, 0.975), atol=1e-12)


def test_windows_slide_over_systems_ranked_by_humans():
    human = np.array([0.1, 0.9, 0.5, 0.3, 0.7])
    metric = np.array([1.0, 5.0, 2.0, 4.0, 3.0])
    rows = window_correlations(metric, human, 3)
    order = np.argsort(-human)
    assert [(r["from"], r["to"]) for r in rows] == [(1, 3), (2, 4), (3, 5)]
    for start, row in enumerate(rows):
        window = order[start : start + 3]
        assert abs(row["pearson"] - pearsonr(metric[window], human[window])[0]) < 1e-12
        assert abs(row["spearman"] - spearmanr(metric[window], human[window])[0]) < 1e-12


def test_a_metric_that_cannot_tell_systems_apart_has_null_figures_in_strict_json():
    import json

    from scoring import ScoringOptions, build_metrics
    from scoring.meta import HumanJudgments, RankingItem, meta_evaluate

    same = {"usim": {"sentences": [[1.0, 1.0, 1.0]] * 4}}
    human = HumanJudgments(
        schemes={"H": {"A": 0.1, "B": 0.2, "C": 0.3}}, rankings={"r": [RankingItem(2, "x", (("A", 1), ("B", 2)), 1)]}
    )
    table = meta_evaluate(
        {"A": same, "B": same, "C": same}, build_metrics(["usim"], ScoringOptions()), human, samples=20, seed=1
    )
    entry = table["system"]["usim.f"]["H"]
    assert entry["pearson"] is None and entry["pearson_ci"] == [None, None]
    assert table["sentence"]["usim.f"]["r"] == {
        "accuracy": 0.0,
        "tau": -1.0,
        "pairs": 1,
        "accuracy_ci": [0.0, 0.0],
        "tau_ci": [-1.0, -1.0],
    }
    json.dumps(table, allow_nan=False)
