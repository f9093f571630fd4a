"""Every system's corpus scores on resampled sentence sets, from stored statistics only.

``resampled_scores(metric, statistics, indices)`` is the one call the meta-evaluation
makes: row b of ``indices`` lists the (repeated) sentence indices of sample b, and the
metric's headline scores are recomputed on exactly those sentences for every system at
once. A row of one index gives that sentence's own score, which is what the
sentence-level meta-evaluation compares. Nothing is parsed or aligned again
(sacreBLEU's split, STYLE.md).

A metric's :meth:`~scoring.metrics.base.Metric.resampling` (per-sentence rows whose
sums give the corpus score, the registry's interface) is used as it is. This module adds
the same for the metrics that have none: CLEME and CLEME2.0, whose rows are the
candidate counts the corpus-level greedy reference choice picked (the choice made on
the whole corpus is kept inside a sample, as the registry's ERRANT and
:mod:`scoring.bootstrap` keep it), and GoToScorer, a pool metric: its rows are a
member's class sizes and sums of n_i with n_i and N of the whole pool, since the
systems, not the sentences, define its weights (every system is resampled with the
same indices). Any other metric is scored by slicing its per-sentence lists and calling
its own ``score_pool``: exact and slow.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..bootstrap import prf_of_counts
from ..cleme import ASSUMPTIONS, candidates
from ..gotoscorer import decode
from ..gotoscorer.scores import class_masks, success_counts
from ..metrics.base import Metric, Resampling
from ..metrics.cleme import length_weigher
from ..metrics.cleme import unit_weight as cleme_unit_weight
from ..metrics.cleme2 import check_factors, similarity_weight
from ..metrics.cleme2 import unit_weight as cleme2_unit_weight
from ..paths import value_at

Scores = dict[str, np.ndarray]  # score path -> (samples, systems)
PoolResampling = Callable[[Metric, list[dict]], list[Resampling]]
POOL_RESAMPLINGS: dict[str, PoolResampling] = {}


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
    return {path: np.stack([scores[path] for scores in by_system], axis=1) for path in headline_paths(metric) if path in by_system[0]}


def pool_resampling(metric: Metric, per_system: list[dict]) -> list[Resampling] | None:
    """One :class:`Resampling` per system, or None when the metric offers none."""
    if metric.name in POOL_RESAMPLINGS:
        return POOL_RESAMPLINGS[metric.name](metric, per_system)
    own = [metric.resampling(stats) for stats in per_system]
    return None if any(r is None for r in own) else own


def pool_resampler(name: str) -> Callable[[PoolResampling], PoolResampling]:
    def add(function: PoolResampling) -> PoolResampling:
        POOL_RESAMPLINGS[name] = function
        return function

    return add


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


# -- CLEME and CLEME2.0: the candidates the corpus-level greedy choice picked -----------

KeyFunction = Callable[[np.ndarray], list[np.ndarray]]


def padded(per_sentence: list[list[list[float]]]) -> tuple[np.ndarray, np.ndarray]:
    """(sentences, K, 5) candidate counts and a (sentences, K) mask of the real ones."""
    k = max(len(c) for c in per_sentence)
    values = np.zeros((len(per_sentence), k, 5))
    valid = np.zeros((len(per_sentence), k), dtype=bool)
    for i, sentence in enumerate(per_sentence):
        values[i, :len(sentence)] = sentence
        valid[i, :len(sentence)] = True
    return values, valid


def chosen_rows(values: np.ndarray, valid: np.ndarray, keys: KeyFunction) -> np.ndarray:
    """(systems, sentences, width): per sentence, in corpus order, the candidate whose
    ``keys(running + candidate)`` is lexicographically largest, the first on a full tie,
    exactly as ``cleme.aggregate``'s corpus loops choose; all systems in step."""
    n_systems, n_sentences, k, width = values.shape
    systems = np.arange(n_systems)
    running = np.zeros((n_systems, width))
    rows = np.zeros((n_systems, n_sentences, width))
    for i in range(n_sentences):
        proposed = values[:, i]
        key = keys(running[:, None] + proposed, proposed)
        best = np.zeros(n_systems, dtype=np.intp)
        for candidate in range(1, k):
            better = np.zeros(n_systems, dtype=bool)
            decided = np.zeros(n_systems, dtype=bool)
            for component in key:
                challenger, holder = component[:, candidate], component[systems, best]
                better |= ~decided & (challenger > holder)
                decided |= challenger != holder
            best = np.where(better & valid[:, i, candidate], candidate, best)
        rows[:, i] = proposed[systems, best]
        running = running + rows[:, i]
    return rows


def fp_merged(counts: np.ndarray) -> np.ndarray:
    """(..., 5) CLEME2.0 counts (tp, fp_ne, fp_un, fn, tn) as CLEME's (tp, fp, fn)."""
    return np.stack([counts[..., 0], counts[..., 1] + counts[..., 2], counts[..., 3]], axis=-1)


def tie_breaks(proposed: np.ndarray) -> list[np.ndarray]:
    """More TP, fewer FP, fewer FN, more TN: both CLEME corpus loops' tie-breaks."""
    return [proposed[..., 0], -(proposed[..., 1] + proposed[..., 2]), -proposed[..., 3], proposed[..., 4]]


def picked(per_system: list[dict], assumption: str, weight_of: Callable[[dict], Callable], first_key: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """(systems, sentences, 5) weighted counts of the candidates the greedy choice keeps."""
    arrays = [padded(candidates(stats, assumption, weight_of(stats))) for stats in per_system]
    values, valid = np.stack([a[0] for a in arrays]), np.stack([a[1] for a in arrays])
    return chosen_rows(values, valid, lambda totals, proposed: [first_key(totals), *tie_breaks(proposed)])


def as_resamplings(columns: dict[str, np.ndarray], score: Callable[[np.ndarray], np.ndarray]) -> list[Resampling]:
    """Per system: the picked rows of every path side by side, 5 columns a path."""
    paths = list(columns)
    stacked = np.concatenate([columns[path] for path in paths], axis=2)

    def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
        return {path: score(totals[:, 5 * k:5 * k + 5]) for k, path in enumerate(paths)}

    return [Resampling(rows, scores) for rows in stacked]


@pool_resampler("cleme")
def cleme_resampling(metric: Metric, per_system: list[dict]) -> list[Resampling]:
    """CLEME corpus F: the greedy choice by the F of the running totals rounded to 4
    decimals (``cleme.aggregate.cleme_corpus``), length-weighted with the corpus's l."""
    beta = metric.options.beta

    def rounded_f(totals):
        return np.round(prf_of_counts(fp_merged(totals), beta)[2], 4)

    columns = {}
    for assumption in ASSUMPTIONS:
        def weight_of(stats, assumption=assumption):
            return length_weigher(stats["length_bias"], assumption, "corpus") if metric.options.cleme_length_weighting else cleme_unit_weight

        columns[f"cleme.{assumption}.corpus.f"] = picked(per_system, assumption, weight_of, rounded_f)
    return as_resamplings(columns, lambda totals: prf_of_counts(fp_merged(totals), beta)[2])


def heuo_score(counts: np.ndarray, factors: tuple[float, float, float, float]) -> np.ndarray:
    """CLEME2.0's Score of (..., 5) counts (section 3.2, eq. 3; ``cleme.aggregate.heuo``)."""
    tp, fp_ne, fp_un, fn = counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3]
    ne = tp + fp_ne + fn
    done = tp + fp_ne + fp_un
    with np.errstate(divide="ignore", invalid="ignore"):
        hit, error, under = (np.where(ne != 0, x / ne, 0.0) for x in (tp, fp_ne, fn))
        over = np.where(done != 0, fp_un / done, 0.0)
    a1, a2, a3, a4 = factors
    return a1 * hit + a2 * (1 - error) + a3 * (1 - under) + a4 * (1 - over)


@pool_resampler("cleme2")
def cleme2_resampling(metric: Metric, per_system: list[dict]) -> list[Resampling]:
    """CLEME2.0 corpus Score: the greedy choice by the running Score
    (``cleme.aggregate.cleme2_corpus``); similarity-weighted too with sim."""
    factors = check_factors(metric.options.cleme2_corpus_factors)

    def score(totals):
        return heuo_score(totals, factors)

    variants = [("cleme2", cleme2_unit_weight), ("cleme2.sim", similarity_weight)]
    wanted = headline_paths(metric)
    columns = {
        f"{prefix}.{assumption}.corpus.score": picked(per_system, assumption, lambda _stats, w=weight: w, score)
        for prefix, weight in variants for assumption in ASSUMPTIONS if f"{prefix}.{assumption}.corpus.score" in wanted
    }
    return as_resamplings(columns, score)


# -- GoToScorer: class sizes and sums of n_i per sentence --------------------------------

@pool_resampler("gotoscorer")
def gotoscorer_resampling(metric: Metric, per_system: list[dict]) -> list[Resampling]:
    """GoToScorer F and accuracy. Per sentence and class X (TP, FP, FN, TN, all chunks):
    |X| and the sum of n_i over X; a sample's weighted class total is
    a|X| - (S_X + b|X|)/(N + c) of the summed integers (``gotoscorer.scores.class_totals``)."""
    decoded = [decode(stats) for stats in per_system]
    gold_modified = decoded[0][0]
    n = success_counts(outcomes.correct for _, outcomes in decoded)
    size, params, beta = len(per_system), metric.params, metric.options.beta
    starts = np.concatenate([[0], np.cumsum([len(s) for s in per_system[0]["gold"]])[:-1]]).astype(np.intp)

    def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
        counts, n_sums = totals[:, :5], totals[:, 5:]
        if metric.options.gts_weighted:
            denominator = size + params.c
            counts = (params.a * denominator * counts - n_sums - params.b * counts) / denominator
        tp, fp, fn, tn, total = counts.T
        b2 = beta * beta
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(tp + fp != 0, tp / (tp + fp), 0.0)
            r = np.where(tp + fn != 0, tp / (tp + fn), 0.0)
            f = np.where(b2 * p + r != 0, (1 + b2) * p * r / (b2 * p + r), 0.0)
            accuracy = np.where(total != 0, (tp + tn) / total, 0.0)
        return {"gotoscorer.f": f, "gotoscorer.accuracy": accuracy}

    resamplings = []
    for _, outcomes in decoded:
        masks = np.vstack([class_masks(gold_modified, outcomes.modified, outcomes.correct), np.ones((1, len(n)), dtype=bool)]).astype(np.int64)
        rows = np.hstack([np.add.reduceat(masks, starts, axis=1).T, np.add.reduceat(masks * n, starts, axis=1).T])
        resamplings.append(Resampling(rows.astype(float), scores))
    return resamplings
