"""Meta-evaluation at the essay level: does a metric's score of one system's correction of
one essay follow the human rating of that correction?

With MultiGEC's 5-7 systems a system-level correlation rests on 5-7 points; at the essay
level every rated (essay, system) is a point. Pearson's r and Spearman's rho over those
points, with 95% percentile bootstrap intervals from resampling the essays (every point
of an essay drawn comes with it, as often as it is drawn), seeded. Vectorised: a sample
is a weight per point (how often its essay was drawn), and the ranks of a sample are
computed from the weights, never by expanding the repeats.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .correlation import interval, number, pearson, spearman

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345


def essay_correlation(
    metric: Mapping[str, Mapping[str, float]],
    human: Mapping[str, Mapping[str, float]],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> dict:
    """``{"pearson", "spearman", "points", "essays", "interval": {"pearson", "spearman"}}``
    over the (system, item) pairs ``metric`` and ``human`` (``{system: {item: value}}``) share."""
    points = [
        (item, float(metric[s][item]), float(value))
        for s, items in human.items()
        if s in metric
        for item, value in items.items()
        if item in metric[s] and np.isfinite(metric[s][item])
    ]
    essays = sorted({item for item, _, _ in points})
    out: dict = {"points": len(points), "essays": len(essays), "pearson": None, "spearman": None}
    out["interval"] = {"pearson": [None, None], "spearman": [None, None]}
    if len(points) < 3:
        return out
    x = np.array([p[1] for p in points])
    y = np.array([p[2] for p in points])
    out["pearson"], out["spearman"] = number(pearson(x, y)[0]), number(spearman(x, y)[0])
    if samples < 1:
        return out
    rng = np.random.default_rng(seed)
    index = {e: k for k, e in enumerate(essays)}
    essay_of = np.array([index[item] for item, _, _ in points])
    drawn = rng.integers(0, len(essays), (samples, len(essays)))
    counts = np.stack([np.bincount(row, minlength=len(essays)) for row in drawn]).astype(float)
    weights = counts[:, essay_of]  # (samples, points): how often each point is drawn
    out["interval"] = {
        "pearson": list(interval(weighted_pearson(weights, x, y))),
        "spearman": list(interval(weighted_pearson(weights, weighted_ranks(weights, x), weighted_ranks(weights, y)))),
    }
    return out


def weighted_pearson(weights: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of each sample: the points repeated as often as ``weights`` (samples,
    points) says; ``x`` and ``y`` are (points,) or (samples, points)."""
    total = weights.sum(axis=1, keepdims=True)
    mx = (weights * x).sum(axis=1, keepdims=True) / total
    my = (weights * y).sum(axis=1, keepdims=True) / total
    dx, dy = x - mx, y - my
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (weights * dx * dy).sum(axis=1) / np.sqrt((weights * dx * dx).sum(axis=1) * (weights * dy * dy).sum(axis=1))
    return np.clip(r, -1.0, 1.0)


def weighted_ranks(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(samples, points): each point's average rank among the points as drawn (ties share
    their mean rank, as ``scipy.stats.rankdata``), without expanding the repeats."""
    distinct, group = np.unique(values, return_inverse=True)
    per_group = np.zeros((weights.shape[0], len(distinct)))
    np.add.at(per_group.T, group, weights.T)
    below = np.cumsum(per_group, axis=1) - per_group
    midrank = below + (per_group + 1) / 2
    return midrank[:, group]
