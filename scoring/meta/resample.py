"""Every system's corpus scores on resampled sentence sets, from stored statistics only.

``resampled_scores(metric, statistics, indices)`` is the one call the meta-evaluation
makes: row b of ``indices`` lists the (repeated) sentence indices of sample b, and the
metric's headline scores are recomputed on exactly those sentences for every system at
once. A row of one index gives that sentence's own score, which is what the
sentence-level meta-evaluation compares. Nothing is parsed or aligned again
(sacreBLEU's split, STYLE.md).

A metric's :meth:`~scoring.metrics.base.Metric.resampling` (the registry's interface:
per-sentence rows whose sums give the corpus score; ERRANT and CLEME keep the reference
choice made on the whole corpus inside a sample) is used as it is. A pool metric
resamples each member inside the pool all the systems given make
(:meth:`~scoring.metrics.base.Metric.member_resampling`), since the systems, not the
sentences, define its weights. A metric offering neither is scored by slicing its
per-sentence lists and calling its own ``score_pool``: exact and slow.
"""

from __future__ import annotations

import numpy as np

from ..metrics.base import Metric, Resampling
from ..paths import value_at

Scores = dict[str, np.ndarray]  # score path -> (samples, systems)


def headline_paths(metric: Metric) -> list[str]:
    """The metric's headline score paths that these options compute."""
    paths = [p.path for p in metric.headline]
    if not getattr(metric.options, "sim", False):
        paths = [path for path in paths if ".sim." not in path]
    return paths


def resampled_scores(metric: Metric, statistics: dict[str, dict], indices: np.ndarray) -> Scores:
    """``{path: array (samples, systems)}``, systems in the order of ``statistics``.

    ``statistics`` is ``{system: this metric's statistics}``; a pool metric pools them all.
    """
    indices = np.atleast_2d(np.asarray(indices, dtype=np.intp))
    per_system = list(statistics.values())
    resamplings = pool_resampling(metric, per_system)
    if resamplings is None:
        return sliced_scores(metric, per_system, indices)
    return weighted_scores(metric, resamplings, frequencies(indices, len(resamplings[0].counts)))


def weighted_scores(metric: Metric, resamplings: list[Resampling], weights: np.ndarray) -> Scores:
    """Scores of samples given as sentence frequencies (samples, sentences)."""
    by_system = [r.scores(weights @ r.counts) for r in resamplings]
    return {
        path: np.stack([scores[path] for scores in by_system], axis=1)
        for path in headline_paths(metric)
        if path in by_system[0]
    }


def pool_resampling(metric: Metric, per_system: list[dict]) -> list[Resampling] | None:
    """One :class:`Resampling` per system, or None when the metric offers none."""
    own: list[Resampling | None]
    if metric.pooled:
        pool = metric.pool_counts(per_system)
        own = [None] if pool is None else [metric.member_resampling(stats, pool) for stats in per_system]
    else:
        own = [metric.resampling(stats) for stats in per_system]
    kept = [r for r in own if r is not None]
    return None if len(kept) < len(own) else kept


def frequencies(indices: np.ndarray, n_sentences: int) -> np.ndarray:
    """(samples, sentences): how often each sentence is drawn in each sample."""
    counts = np.zeros((indices.shape[0], n_sentences))
    np.add.at(counts, (np.arange(indices.shape[0])[:, None], indices), 1.0)
    return counts


# -- the exact, slow fallback ------------------------------------------------------------


def restricted(statistics, n_sentences: int, sentence_indices: list[int]):
    """A copy of per-sentence statistics keeping only the given sentences, in order:
    every list with one entry per sentence is sliced, at any depth of the dict."""
    if isinstance(statistics, dict):
        return {key: restricted(value, n_sentences, sentence_indices) for key, value in statistics.items()}
    if isinstance(statistics, list) and len(statistics) == n_sentences:
        return [statistics[i] for i in sentence_indices]
    return statistics


def sliced_scores(metric: Metric, per_system: list[dict], indices: np.ndarray) -> Scores:
    """Any metric: its own ``score_pool`` on statistics sliced to each sample."""
    n_sentences = sentence_count(per_system[0])
    paths = headline_paths(metric)
    result = {path: np.empty((indices.shape[0], len(per_system))) for path in paths}
    for b, row in enumerate(indices):
        pool = {str(s): restricted(stats, n_sentences, row.tolist()) for s, stats in enumerate(per_system)}
        scores = metric.score_pool(pool)
        for path in paths:
            result[path][b] = [value_at(scores[str(s)], path.partition(".")[2]) for s in range(len(per_system))]
    return result


def sentence_count(statistics) -> int:
    """The length of the longest per-sentence list in a metric's statistics."""
    if isinstance(statistics, dict):
        return max((sentence_count(value) for value in statistics.values()), default=0)
    return len(statistics) if isinstance(statistics, list) else 0
