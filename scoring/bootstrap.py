"""Paired bootstrap resampling over sentences (Koehn, 2004), on stored statistics.

Both systems are resampled with the same sentence indices. Each sample's corpus score is
recomputed from summed per-sentence counts, so no sentence is ever re-annotated. For
metrics whose corpus score picks references greedily (ERRANT, CLEME), the choice made on
the full corpus is kept fixed inside the samples, as sacreBLEU keeps its statistics fixed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345


@dataclass(frozen=True)
class PairedBootstrap:
    delta: float  # score(A) - score(B) on the full corpus
    ci_low: float
    ci_high: float
    p_value: float  # two-sided: how often the sign of the difference flips
    samples: int
    seed: int

    def as_dict(self) -> dict:
        return self.__dict__.copy()


def paired_bootstrap(
    counts_a: np.ndarray,
    counts_b: np.ndarray,
    score: Callable[[np.ndarray], np.ndarray],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = 0.95,
) -> PairedBootstrap:
    """Compare two systems from per-sentence count matrices of shape (sentences, k).

    ``score`` maps summed counts of shape (m, k) to m corpus scores. The resampling is a
    multinomial draw of sentence frequencies, so a sample is one matrix product.
    """
    counts_a = np.asarray(counts_a, dtype=float)
    counts_b = np.asarray(counts_b, dtype=float)
    frequencies = sentence_frequencies(counts_a.shape[0], samples, seed)
    deltas = score(frequencies @ counts_a) - score(frequencies @ counts_b)
    observed = float(score(counts_a.sum(axis=0, keepdims=True))[0] - score(counts_b.sum(axis=0, keepdims=True))[0])
    return summary(observed, deltas, samples, seed, confidence)


def summary(observed: float, deltas: np.ndarray, samples: int, seed: int, confidence: float) -> PairedBootstrap:
    """The interval and the two-sided p-value of the sampled differences ``deltas``."""
    tail = (1 - confidence) / 2
    low, high = np.quantile(deltas, [tail, 1 - tail])
    flips = min(float(np.mean(deltas <= 0)), float(np.mean(deltas >= 0)))
    return PairedBootstrap(observed, float(low), float(high), float(min(1.0, 2 * flips)), samples, seed)


@functools.lru_cache(maxsize=4)
def sentence_frequencies(n: int, samples: int, seed: int) -> np.ndarray:
    """The resampled sentence frequencies, (samples, n): a function of the seed alone, so
    every pair of a board shares one draw (a board of 50 systems drew it 49 times)."""
    rng = np.random.default_rng(seed)
    frequencies = rng.multinomial(n, np.full(n, 1.0 / n), size=samples).astype(float)
    frequencies.setflags(write=False)
    return frequencies


def paired_bootstrap_of(
    a, b, path: str, *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
) -> PairedBootstrap:
    """:func:`paired_bootstrap` of the score at ``path`` between two systems'
    :class:`scoring.metrics.base.Resampling` of the same metric (``a`` minus ``b``)."""
    return paired_bootstrap(a.counts, b.counts, lambda totals: a.scores(totals)[path], samples=samples, seed=seed)


@dataclass(frozen=True)
class SampledScores:
    """One system's half of a paired bootstrap: its score on the whole corpus and on each
    sample of :func:`sentence_frequencies`. The draw depends on the seed alone, so these
    can be computed once per system and paired with any other system's later (a board of
    50 computed each row's product twice, once against the row above, once below)."""

    observed: float
    values: np.ndarray  # (samples,) float64


def sampled_scores_of_counts(
    counts: np.ndarray,
    score: Callable[[np.ndarray], np.ndarray],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> SampledScores:
    """``score`` of ``counts`` (sentences, k) summed, and of every sample's frequencies times
    them: the very products :func:`paired_bootstrap` computes for either system."""
    counts = np.asarray(counts, dtype=float)
    frequencies = sentence_frequencies(counts.shape[0], samples, seed)
    return SampledScores(
        float(score(counts.sum(axis=0, keepdims=True))[0]), np.asarray(score(frequencies @ counts), dtype=np.float64)
    )


def sampled_scores(resampling, path: str, *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> SampledScores:
    """:func:`sampled_scores_of_counts` of the score at ``path`` of one system's
    :class:`scoring.metrics.base.Resampling`."""
    return sampled_scores_of_counts(
        resampling.counts, lambda totals: resampling.scores(totals)[path], samples=samples, seed=seed
    )


def paired_bootstrap_of_sampled(
    a: SampledScores,
    b: SampledScores,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = 0.95,
) -> PairedBootstrap:
    """:func:`paired_bootstrap_of` from both systems' :class:`SampledScores` of the same
    ``samples`` and ``seed`` (``a`` minus ``b``): the same differences, bit for bit."""
    if len(a.values) != samples or len(b.values) != samples:
        raise ValueError(f"sampled scores of {len(a.values)} and {len(b.values)} samples, expected {samples}")
    return summary(a.observed - b.observed, a.values - b.values, samples, seed, confidence)


def prf_of_counts(totals: np.ndarray, beta: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised ERRANT P, R and F-beta of (tp, fp, fn) rows, with its 0/0 conventions."""
    tp, fp, fn = totals[:, 0], totals[:, 1], totals[:, 2]
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(fp > 0, tp / (tp + fp), 1.0)
        r = np.where(fn > 0, tp / (tp + fn), 1.0)
        f = np.where(p + r > 0, (1 + b2) * p * r / (b2 * p + r), 0.0)
    return p, r, f


def f_beta_of_counts(beta: float = 0.5) -> Callable[[np.ndarray], np.ndarray]:
    """The F-beta column of :func:`prf_of_counts`, as a bootstrap score function."""
    return lambda totals: prf_of_counts(totals, beta)[2]
