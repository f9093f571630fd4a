"""CLEME (Ye et al., EMNLP 2023): chunk-level P, R, F-beta and accuracy, free of multi-reference bias.

The expensive step partitions every sentence into chunks shared by the source, the
hypothesis and all references, and records each chunk's outcome (``scoring.cleme``);
the cheap step weighs the outcomes by chunk length (section 3.3) and aggregates them
at corpus and sentence level, under the dependent and the independent assumption.
Parity: CLEME v1.0 (``cleme/``, commit 5fc7617), whose numbers the paper reports.
"""

from __future__ import annotations

import numpy as np

from ..cleme import (
    ASSUMPTIONS,
    CHANGED,
    LEVELS,
    SETTINGS,
    candidates,
    chunk_outcome_rows,
    cleme_choice,
    cleme_corpus,
    cleme_of_totals,
    cleme_sentence,
    length_weight,
    record_length,
    shared_chunk_statistics,
)
from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..paths import ScorePath, expand
from .base import Metric, Resampling, register

CLEME_KEYS = ("tp", "fp", "fn", "tn", "p", "r", "f", "acc")


def length_weigher(bias: float, assumption: str, level: str):
    """``weight(record, outcome, reference)`` with the paper's settings for this level."""
    settings = SETTINGS[(assumption, level)]

    def weight(record: list, outcome: str, _reference: int) -> float:
        return length_weight(outcome, record_length(record), bias, settings)

    return weight


def unit_weight(_record: list, _outcome: str, _reference: int) -> float:
    return 1.0


def weigher(statistics: dict, assumption: str, level: str, weighted: bool):
    return length_weigher(statistics["length_bias"], assumption, level) if weighted else unit_weight


def cleme_scores(statistics: dict, beta: float, weighted: bool = True) -> dict:
    """``{assumption: {"corpus": {...}, "sentence": {...}}}`` of docs/contracts.md section 2."""
    result: dict[str, dict] = {}
    for assumption in ASSUMPTIONS:
        result[assumption] = {}
        for level, aggregate in (("corpus", cleme_corpus), ("sentence", cleme_sentence)):
            result[assumption][level] = aggregate(
                candidates(statistics, assumption, weigher(statistics, assumption, level, weighted)), beta
            )
    return result


@register
class Cleme(Metric):
    """CLEME, dependent and independent, corpus and sentence level, length-weighted."""

    name = "cleme"
    label = "CLEME"
    headline = (
        ScorePath("cleme.dependent.corpus.f", "CLEME-dep F"),
        ScorePath("cleme.independent.corpus.f", "CLEME-ind F"),
    )
    count_keys = frozenset({"tp", "fp", "fn", "tn"})
    lower_is_better = frozenset({"fp", "fn"})

    resampled = tuple(expand(["cleme"], ASSUMPTIONS, ["corpus"], ("p", "r", "f", "acc")))
    sentence_columns = CHANGED

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        return chunk_outcome_rows(statistics)

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return tuple(expand(["cleme"], ASSUMPTIONS, LEVELS, CLEME_KEYS))

    def resampling(self, statistics: dict) -> Resampling:
        """Per sentence and assumption, the (tp, fp_ne, fp_un, fn, tn) of the reference the
        corpus-level greedy choice took, kept fixed inside a sample."""
        beta, weighted = self.options.beta, self.options.cleme_length_weighting
        counts = np.hstack(
            [
                np.asarray(
                    cleme_choice(candidates(statistics, a, weigher(statistics, a, "corpus", weighted)), beta),
                    dtype=float,
                ).reshape(-1, 5)
                for a in ASSUMPTIONS
            ]
        )

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            return {
                f"cleme.{a}.corpus.{key}": values
                for k, a in enumerate(ASSUMPTIONS)
                for key, values in cleme_of_totals(totals[:, 5 * k : 5 * k + 5], beta).items()
            }

        return Resampling(counts, scores)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        return shared_chunk_statistics(dataset, hypothesis)

    def score(self, statistics: dict) -> dict:
        return cleme_scores(statistics, self.options.beta, self.options.cleme_length_weighting)

    def signature(self) -> str:
        weighting = "length" if self.options.cleme_length_weighting else "none"
        return f"cleme|weights:{weighting}"
