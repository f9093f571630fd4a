"""Meta-evaluation at the essay level: does a metric's score of one system's correction of
one essay follow the human rating of that correction?

With MultiGEC's 5-7 systems a system-level correlation rests on 5-7 points; at the essay
level every rated (essay, system) is a point. Pearson's r and Spearman's rho over those
points, with 95% percentile bootstrap intervals from resampling the essays (every point
of an essay drawn comes with it, as often as it is drawn), seeded.
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
    where: dict[str, list[int]] = {}
    for k, (item, _, _) in enumerate(points):
        where.setdefault(item, []).append(k)
    rng = np.random.default_rng(seed)
    drawn_r, drawn_rho = np.empty(samples), np.empty(samples)
    for b in range(samples):
        chosen = rng.integers(0, len(essays), len(essays))
        rows = np.array([k for e in chosen for k in where[essays[e]]])
        drawn_r[b] = pearson(x[rows], y[rows])[0]
        drawn_rho[b] = spearman(x[rows], y[rows])[0]
    out["interval"] = {"pearson": list(interval(drawn_r)), "spearman": list(interval(drawn_rho))}
    return out
