"""Every system's corpus scores on resampled sentence sets, from stored statistics only.

``resampled_scores(metric, statistics, indices)`` is the one call the meta-evaluation
makes: row b of ``indices`` lists the (repeated, sorted) sentence indices of sample b,
and the metric's headline scores are recomputed on exactly those sentences, for every
system at once. A row of one index gives that sentence's score, which is how the
sentence-level meta-evaluation gets per-sentence scores (the corpus metric on one
sentence). Nothing is parsed or aligned again (sacreBLEU's split, STYLE.md).

Each registered metric has a vectorised resampler here: sums of per-sentence counts
for the additive metrics (GoToScorer, USIM), and for the metrics whose corpus score
picks a reference per sentence greedily on the running totals (ERRANT, CLEME,
CLEME2.0), that greedy choice redone in every sample, all samples and systems in step,
one sentence position at a time. What stays fixed is what the metric defines over the
whole pool or corpus: GoToScorer's weights (the systems, not the sentences, define
n_i and N: all systems are resampled together with the same indices) and CLEME's length
bias l. A metric without a resampler is scored by slicing its per-sentence lists and
calling its own ``score_pool``, which is exact and slow.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..bootstrap import prf_of_counts
from ..cleme import ASSUMPTIONS, candidates
from ..gotoscorer import decode
from ..gotoscorer.scores import class_masks, success_counts
from ..metrics.base import Metric
from ..metrics.cleme import length_weigher
from ..metrics.cleme import unit_weight as cleme_unit_weight
from ..metrics.cleme2 import check_factors, similarity_weight
from ..metrics.cleme2 import unit_weight as cleme2_unit_weight
from ..scorer import HEADLINE_SCORES

Scores = dict[str, np.ndarray]  # score path -> (samples, systems)
Resampler = Callable[[Metric, list[dict], np.ndarray], Scores]
RESAMPLERS: dict[str, Resampler] = {}


def headline_paths(metric: Metric) -> list[str]:
    """The metric's headline score paths (``scoring.HEADLINE_SCORES``) it computes here."""
    paths = [path for _, path in HEADLINE_SCORES if path.split(".")[0] == metric.name]
    if not getattr(metric.options, "sim", False):
        paths = [path for path in paths if ".sim." not in path]
    return paths


def resampled_scores(metric: Metric, statistics: dict[str, dict], indices: np.ndarray) -> Scores:
    """``{path: array (samples, systems)}``, systems in the order of ``statistics``.

    ``statistics`` is ``{system: this metric's statistics}``; a pool metric pools them all.
    """
    indices = np.atleast_2d(np.asarray(indices, dtype=np.intp))
    resampler = RESAMPLERS.get(metric.name, sliced_scores)
    return resampler(metric, list(statistics.values()), indices)


def resampler(name: str) -> Callable[[Resampler], Resampler]:
    def add(function: Resampler) -> Resampler:
        RESAMPLERS[name] = function
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
    from ..cli import lookup

    n_sentences = sentence_count(per_system[0])
    paths = headline_paths(metric)
    result = {path: np.empty((indices.shape[0], len(per_system))) for path in paths}
    for b, row in enumerate(indices):
        pool = {str(s): restricted(stats, n_sentences, row.tolist()) for s, stats in enumerate(per_system)}
        scores = metric.score_pool(pool)
        for path in paths:
            _, _, rest = path.partition(".")
            result[path][b] = [lookup(scores[str(s)], rest) for s in range(len(per_system))]
    return result


def sentence_count(statistics) -> int:
    """The length of the longest per-sentence list in a metric's statistics."""
    if isinstance(statistics, dict):
        return max((sentence_count(value) for value in statistics.values()), default=0)
    return len(statistics) if isinstance(statistics, list) else 0


# -- greedy reference choice, redone in every sample -------------------------------------

KeyFunction = Callable[[np.ndarray, np.ndarray], list[np.ndarray]]


def padded(per_sentence: list[list[list[float]]], width: int) -> tuple[np.ndarray, np.ndarray]:
    """(sentences, K, width) candidate counts and a (sentences, K) mask of real ones."""
    k = max(len(c) for c in per_sentence)
    values = np.zeros((len(per_sentence), k, width))
    valid = np.zeros((len(per_sentence), k), dtype=bool)
    for i, sentence in enumerate(per_sentence):
        for j, counts in enumerate(sentence):
            values[i, j] = counts[:width]
            valid[i, j] = True
    return values, valid


def greedy_totals(values: np.ndarray, valid: np.ndarray, indices: np.ndarray, keys: KeyFunction) -> np.ndarray:
    """Running totals (systems, samples, width) after the greedy choice on each sample.

    ``values`` (systems, sentences, K, width); per sentence position, the candidate
    with the lexicographically largest ``keys(running, proposed)`` wins, the first one
    on a full tie, exactly as the metrics' own loops choose.
    """
    n_systems, _, k, width = values.shape
    running = np.zeros((n_systems, indices.shape[0], width))
    for column in indices.T:
        proposed = values[:, column]
        allowed = valid[:, column]
        key = keys(running, proposed)
        best = np.zeros(running.shape[:2], dtype=np.intp)
        for candidate in range(1, k):
            better = np.zeros_like(allowed[..., 0])
            decided = np.zeros_like(better)
            for component in key:
                challenger = component[..., candidate]
                holder = np.take_along_axis(component, best[..., None], axis=2)[..., 0]
                better |= ~decided & (challenger > holder)
                decided |= challenger != holder
            best = np.where(better & allowed[..., candidate], candidate, best)
        running = running + np.take_along_axis(proposed, best[..., None, None], axis=2)[:, :, 0]
    return running


def rounded_f(beta: float) -> Callable[[np.ndarray], np.ndarray]:
    """F-beta of (..., 3) totals rounded to 4 decimals, as ERRANT and CLEME v1 compare."""
    return lambda totals: np.round(prf_of_counts(totals, beta)[2], 4)


@resampler("errant")
def errant_scores(metric: Metric, per_system: list[dict], indices: np.ndarray) -> Scores:
    """ERRANT cs P/R/F: per sentence the reference maximising the running F (4 decimals),
    ties to more TP, fewer FP, fewer FN (``errant_compare``; ``metrics.errant.greedy_choice``)."""
    f = rounded_f(metric.options.beta)
    arrays = [padded(stats["counts"]["cs"], 3) for stats in per_system]
    values, valid = np.stack([a[0] for a in arrays]), np.stack([a[1] for a in arrays])

    def keys(running, proposed):
        return [f(running[:, :, None] + proposed), proposed[..., 0], -proposed[..., 1], -proposed[..., 2]]

    p, r, f_score = prf_of_counts(greedy_totals(values, valid, indices, keys), metric.options.beta)
    return {"errant.cs.p": p.T, "errant.cs.r": r.T, "errant.cs.f": f_score.T}


def cleme_values(per_system: list[dict], assumption: str, weight_of: Callable[[dict], Callable]) -> tuple[np.ndarray, np.ndarray]:
    """Stacked (systems, sentences, K, 5) weighted (tp, fp_ne, fp_un, fn, tn) candidates."""
    arrays = [padded(candidates(stats, assumption, weight_of(stats)), 5) for stats in per_system]
    return np.stack([a[0] for a in arrays]), np.stack([a[1] for a in arrays])


def fp_merged(counts: np.ndarray) -> np.ndarray:
    """(..., 5) CLEME2.0 counts as (..., 3) CLEME (tp, fp, fn)."""
    return np.stack([counts[..., 0], counts[..., 1] + counts[..., 2], counts[..., 3]], axis=-1)


@resampler("cleme")
def cleme_scores(metric: Metric, per_system: list[dict], indices: np.ndarray) -> Scores:
    """CLEME corpus F, dependent and independent: greedy by rounded F of the running totals,
    ties to more TP, fewer FP, fewer FN, more TN (``cleme.aggregate.cleme_corpus``)."""
    beta = metric.options.beta
    f = rounded_f(beta)

    def keys(running, proposed):
        fp = proposed[..., 1] + proposed[..., 2]
        return [f(fp_merged(running[:, :, None] + proposed)), proposed[..., 0], -fp, -proposed[..., 3], proposed[..., 4]]

    result = {}
    for assumption in ASSUMPTIONS:
        def weight_of(stats, assumption=assumption):
            return length_weigher(stats["length_bias"], assumption, "corpus") if metric.options.cleme_length_weighting else cleme_unit_weight

        totals = greedy_totals(*cleme_values(per_system, assumption, weight_of), indices, keys)
        result[f"cleme.{assumption}.corpus.f"] = prf_of_counts(fp_merged(totals), beta)[2].T
    return result


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


@resampler("cleme2")
def cleme2_scores(metric: Metric, per_system: list[dict], indices: np.ndarray) -> Scores:
    """CLEME2.0 corpus Score: greedy by the running Score, ties to more TP, fewer FP,
    fewer FN, more TN (``cleme.aggregate.cleme2_corpus``); similarity-weighted too with sim."""
    factors = check_factors(metric.options.cleme2_corpus_factors)

    def keys(running, proposed):
        fp = proposed[..., 1] + proposed[..., 2]
        return [heuo_score(running[:, :, None] + proposed, factors), proposed[..., 0], -fp, -proposed[..., 3], proposed[..., 4]]

    variants = [("cleme2", cleme2_unit_weight)] + ([("cleme2.sim", similarity_weight)] if metric.options.sim else [])
    result = {}
    for prefix, weight in variants:
        for assumption in ASSUMPTIONS:
            path = f"{prefix}.{assumption}.corpus.score"
            if path in headline_paths(metric):
                totals = greedy_totals(*cleme_values(per_system, assumption, lambda _stats, w=weight: w), indices, keys)
                result[path] = heuo_score(totals, factors).T
    return result


# -- additive metrics: one matrix product -------------------------------------------------

@resampler("gotoscorer")
def gotoscorer_scores(metric: Metric, per_system: list[dict], indices: np.ndarray) -> Scores:
    """GoToScorer F and accuracy. Per sentence and class X (TP, FP, FN, TN, all chunks)
    |X| and the sum of n_i over X; a sample's weighted class total is
    a|X| - (S_X + b|X|)/(N + c) of the summed integers (``gotoscorer.scores.class_totals``),
    with n_i and N of the whole pool."""
    decoded = [decode(stats) for stats in per_system]
    gold_modified = decoded[0][0]
    n = success_counts(outcomes.correct for _, outcomes in decoded)
    size, params = len(per_system), metric.params
    starts = np.concatenate([[0], np.cumsum([len(s) for s in per_system[0]["gold"]])[:-1]])
    per_sentence = []
    for _, outcomes in decoded:
        masks = np.vstack([class_masks(gold_modified, outcomes.modified, outcomes.correct), np.ones((1, len(n)), dtype=bool)]).astype(np.int64)
        per_sentence.append(np.hstack([np.add.reduceat(masks, starts, axis=1).T, np.add.reduceat(masks * n, starts, axis=1).T]))
    sums = np.einsum("bi,sic->sbc", frequencies(indices, len(starts)), np.stack(per_sentence).astype(float))
    counts, n_sums = sums[..., :5], sums[..., 5:]
    if metric.options.gts_weighted:
        denominator = size + params.c
        totals = (params.a * denominator * counts - n_sums - params.b * counts) / denominator
    else:
        totals = counts
    tp, fp, fn, tn, total = np.moveaxis(totals, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tp + fp != 0, tp / (tp + fp), 0.0)
        r = np.where(tp + fn != 0, tp / (tp + fn), 0.0)
        b2 = metric.options.beta ** 2
        f = np.where(b2 * p + r != 0, (1 + b2) * p * r / (b2 * p + r), 0.0)
        accuracy = np.where(total != 0, (tp + tn) / total, 0.0)
    return {"gotoscorer.f": f.T, "gotoscorer.accuracy": accuracy.T}


@resampler("usim")
def usim_scores(metric: Metric, per_system: list[dict], indices: np.ndarray) -> Scores:
    """USIM: the mean of the sampled sentences' USIM."""
    f = np.array([[sentence[2] for sentence in stats["sentences"]] for stats in per_system])
    return {"usim.f": frequencies(indices, f.shape[1]) @ f.T / indices.shape[1]}
