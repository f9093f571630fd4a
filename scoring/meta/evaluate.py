"""The meta-evaluation table: how well each metric's scores agree with human judgments.

For every metric's headline score paths and every system set: Pearson and Spearman
against each human scheme (system level), pairwise accuracy and Kendall's tau against
each ranking file (sentence level, :mod:`.pairwise`), each with a percentile bootstrap
interval over sentences (Koehn, 2004; Deutsch et al., 2021, resample inputs), and the
window analysis (:mod:`.windows`). Everything comes from stored per-sentence statistics:
a sample redraws the sentences and recomputes every system's corpus score
(:mod:`.resample`), never parsing again. Indices are drawn once per call from a seeded
generator and shared by all metrics, systems and sets, so the same seed gives the same
intervals bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..metrics.base import Metric
from ..paths import value_at
from ..version import __version__
from .correlation import interval, number, paired_pearson, paired_spearman, pearson, spearman
from .judged import HumanJudgments, resolve_set
from .pairwise import accuracy_and_tau, agreement_by_sentence, human_pairs
from .resample import frequencies, headline_paths, pool_resampling, resampled_scores, sentence_count, weighted_scores
from .windows import window_correlations

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345
DEFAULT_WINDOW = 8
CONFIDENCE = 0.95


def draw_indices(n_sentences: int, samples: int, seed: int) -> np.ndarray:
    """(samples, n) sentence indices drawn with replacement, each row in corpus order."""
    rng = np.random.default_rng(seed)
    return np.sort(rng.integers(0, n_sentences, size=(samples, n_sentences)), axis=1)


def meta_signature(samples: int, seed: int, window: int) -> str:
    return (
        f"meta:{__version__}|resample:sentences|samples:{samples}|seed:{seed}|"
        f"ci:{CONFIDENCE}|window:{window}|ties:seeda"
    )


def correlation_entry(
    point: np.ndarray, samples: np.ndarray | None, human: np.ndarray, human_samples: np.ndarray | None = None
) -> dict:
    """Correlations and, with ``samples`` (the metric on resampled sentences), their
    intervals; with ``human_samples`` (samples x systems, the human scores on resampled
    judgments) sample i of one is paired with sample i of the other, so the interval
    holds both uncertainties."""
    entry: dict[str, object] = {
        "pearson": number(pearson(point, human)[0]),
        "spearman": number(spearman(point, human)[0]),
        "n_systems": len(human),
    }
    if samples is not None and human_samples is not None:
        rows = np.resize(np.arange(len(human_samples)), len(samples))  # as many as the metric's, cycled
        entry["pearson_ci"] = list(interval(paired_pearson(samples, human_samples[rows]), CONFIDENCE))
        entry["spearman_ci"] = list(interval(paired_spearman(samples, human_samples[rows]), CONFIDENCE))
        entry["resampled"] = "sentences+judgments"
    elif samples is not None:
        entry["pearson_ci"] = list(interval(pearson(samples, human), CONFIDENCE))
        entry["spearman_ci"] = list(interval(spearman(samples, human), CONFIDENCE))
    return entry


def human_sample_matrix(human: HumanJudgments, scheme: str, judged: list[str]) -> np.ndarray | None:
    """(samples, systems) of ``scheme``'s resampled scores, or None when it has none for all of ``judged``."""
    per_system = human.scheme_samples.get(scheme) or {}
    if not judged or any(not per_system.get(name) for name in judged):
        return None
    if len({len(per_system[name]) for name in judged}) != 1:
        return None
    return np.array([per_system[name] for name in judged], dtype=float).T


def agreement_entry(agree: np.ndarray, total: np.ndarray, weights: np.ndarray | None) -> dict:
    accuracy, tau = accuracy_and_tau(agree.sum(), total.sum())
    entry: dict[str, object] = {"accuracy": number(accuracy), "tau": number(tau), "pairs": int(total.sum())}
    if weights is not None:
        sampled_accuracy, sampled_tau = accuracy_and_tau(weights @ agree, weights @ total)
        entry["accuracy_ci"] = list(interval(sampled_accuracy, CONFIDENCE))
        entry["tau_ci"] = list(interval(sampled_tau, CONFIDENCE))
    return entry


def metric_scores(metric: Metric, statistics: dict[str, dict], indices: np.ndarray | None, per_sentence: bool) -> dict:
    """Point scores (systems,), bootstrap samples and per-sentence scores, by path."""
    own = {name: stats[metric.name] for name, stats in statistics.items()}
    point_scores = metric.score_pool(own)
    paths = headline_paths(metric)
    point = {
        path: np.array([value_at(point_scores[name], path.partition(".")[2]) for name in own], dtype=float)
        for path in paths
    }
    n = sentence_count(next(iter(own.values())))
    resamplings = pool_resampling(metric, list(own.values()))
    if resamplings is None:
        sampled = resampled_scores(metric, own, indices) if indices is not None else {}
        sentences = resampled_scores(metric, own, np.arange(n)[:, None]) if per_sentence else {}
    else:
        sampled = weighted_scores(metric, resamplings, frequencies(indices, n)) if indices is not None else {}
        sentences = weighted_scores(metric, resamplings, np.eye(n)) if per_sentence else {}
    return {path: (point[path], sampled.get(path), sentences.get(path)) for path in paths}


def meta_evaluate(
    statistics: dict[str, dict[str, dict]],
    metrics: Sequence[Metric],
    human: HumanJudgments,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    window: int = DEFAULT_WINDOW,
) -> dict:
    """The whole table as JSON; ``statistics`` is ``{system: {metric: statistics}}``.

    The systems given are the universe (and GoToScorer's pool); each set and scheme
    uses those of its systems that the scheme scores. ``samples=0`` skips the intervals.
    """
    names = list(statistics)
    metrics = [m for m in metrics if all(m.name in stats for stats in statistics.values())]
    n_sentences = sentence_count(statistics[names[0]][metrics[0].name]) if metrics else 0
    line_of = human.line_of(n_sentences) if human.rankings else {}
    indices = draw_indices(n_sentences, samples, seed) if samples else None
    weights = frequencies(indices, n_sentences) if indices is not None else None
    scores = {
        path: entry
        for metric in metrics
        for path, entry in metric_scores(metric, statistics, indices, bool(human.rankings)).items()
    }

    sets = {}
    for set_name, spec in human.system_sets.items():
        members = resolve_set(spec, names)
        table: dict[str, Any] = {"systems": members, "system": {}, "sentence": {}, "windows": {}}
        pairs = {name: human_pairs(items, members, line_of) for name, items in human.rankings.items()}
        for path, (point, sampled, sentences) in scores.items():
            for scheme, values in human.schemes.items():
                judged = [name for name in members if name in values]
                if len(judged) < 3:
                    continue
                columns = [names.index(name) for name in judged]
                truth = np.array([values[name] for name in judged])
                table["system"].setdefault(path, {})[scheme] = correlation_entry(
                    point[columns],
                    None if sampled is None else sampled[:, columns],
                    truth,
                    human_sample_matrix(human, scheme, judged),
                )
                table["windows"].setdefault(path, {})[scheme] = window_correlations(
                    point[columns], truth, min(window, len(judged))
                )
            for rankings, pair_set in pairs.items():
                if len(pair_set.sentence) and sentences is not None:
                    columns = [names.index(name) for name in members]
                    agree, total = agreement_by_sentence(pair_set, sentences[:, columns], n_sentences)
                    table["sentence"].setdefault(path, {})[rankings] = agreement_entry(agree, total, weights)
        sets[set_name] = table
    primary = next(iter(sets), None)
    return {
        "signature": meta_signature(samples, seed, window),
        "samples": samples,
        "seed": seed,
        "confidence": CONFIDENCE,
        "window": window,
        "n_sentences": n_sentences,
        "systems": names,
        "set": primary,
        "system": sets[primary]["system"] if primary else {},
        "sentence": sets[primary]["sentence"] if primary else {},
        "sets": sets,
    }
