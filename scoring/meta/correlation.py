"""Pearson and Spearman correlation of many score vectors at once (one per bootstrap sample).

System-level meta-evaluation correlates a metric's system scores with human system
scores (Kobayashi et al., TACL 2024, section 4.1, as ``scipy.stats.pearsonr`` and
``spearmanr`` compute them); vectorised so that 1,000 bootstrap samples are one call.
A constant vector has no correlation: NaN.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata


def pearson(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of ``metric`` (samples, systems) with ``human`` (systems,)."""
    x = np.atleast_2d(np.asarray(metric, dtype=float))
    x = x - x.mean(axis=1, keepdims=True)
    y = np.asarray(human, dtype=float)
    y = y - y.mean()
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (x @ y) / np.sqrt((x * x).sum(axis=1) * (y @ y))
    return np.clip(r, -1.0, 1.0)


def paired_pearson(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of ``metric`` with the same row of ``human`` (both samples x systems)."""
    x = np.asarray(metric, dtype=float)
    y = np.asarray(human, dtype=float)
    x = x - x.mean(axis=1, keepdims=True)
    y = y - y.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (x * y).sum(axis=1) / np.sqrt((x * x).sum(axis=1) * (y * y).sum(axis=1))
    return np.clip(r, -1.0, 1.0)


def paired_spearman(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row of ``metric`` with the same row of ``human``."""
    return paired_pearson(rankdata(metric, axis=1), rankdata(human, axis=1))


def spearman(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """Spearman's rho: Pearson's r of the ranks, ties given their average rank."""
    return pearson(rankdata(np.atleast_2d(metric), axis=1), rankdata(human))


def interval(samples: np.ndarray, confidence: float = 0.95) -> tuple[float | None, float | None]:
    """The percentile bootstrap interval; NaN samples (constant scores) are left out."""
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return (None, None)
    tail = (1 - confidence) / 2
    low, high = np.quantile(finite, [tail, 1 - tail])
    return (float(low), float(high))


def number(value) -> float | None:
    """A JSON-safe figure: None where there is no correlation (NaN)."""
    value = float(value)
    return value if np.isfinite(value) else None
