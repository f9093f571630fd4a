"""CLEME2.0 (Ye et al., 2024): hit-, error-, under- and over-correction from CLEME's chunks.

Same chunks and matching as CLEME (``scoring.cleme``), with FP split into FP_ne and
FP_un (section 3.1); Hit, Error, Under and Over and their weighted combination
(section 3.2, eq. 3) at corpus and sentence level, dependent and independent. With
``options.sim`` every TP/FP/FN chunk is also weighed by how much it changes meaning
(section 3.3, ``weighers/weigher_similarity.py``), and the weights replace the counts.
Parity: THUKElab/CLEME HEAD (``scorers/scorer_heuo.py``).
"""

from __future__ import annotations

import numpy as np

from ..cleme import (
    ASSUMPTIONS,
    CHANGED,
    LEVELS,
    candidates,
    chunk_outcome_rows,
    chunk_statistics,
    cleme2_choice,
    cleme2_corpus,
    cleme2_sentence,
    heuo_of_totals,
    shared_chunk_statistics,
)
from ..cleme.similarity_weights import add_similarity_weights, dataset_similarity
from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..options import ANY_LANGUAGE
from ..paths import ScorePath, expand
from ..similarity.bertscore import model_label
from .base import Metric, Resampling, register

CLEME2_KEYS = ("tp", "fp_ne", "fp_un", "fn", "tn", "hit", "error", "under", "over", "score")


def similarity_weight(record: list, _outcome: str, reference: int) -> float:
    return record[7][reference]


def unit_weight(_record: list, _outcome: str, _reference: int) -> float:
    return 1.0


def check_factors(factors) -> tuple[float, float, float, float]:
    factors = tuple(float(a) for a in factors)
    if len(factors) != 4 or abs(sum(factors) - 1.0) > 1e-5:
        raise ValueError(f"CLEME2.0 trade-off factors must be four numbers summing to 1, got {factors}")
    return factors


def cleme2_scores(statistics: dict, corpus_factors, sentence_factors, weight=unit_weight) -> dict:
    """``{assumption: {"corpus": {...}, "sentence": {...}}}`` of docs/contracts.md section 2."""
    corpus_factors, sentence_factors = check_factors(corpus_factors), check_factors(sentence_factors)
    result = {}
    for assumption in ASSUMPTIONS:
        per_sentence = candidates(statistics, assumption, weight)
        result[assumption] = {
            "corpus": cleme2_corpus(per_sentence, corpus_factors),
            "sentence": cleme2_sentence(per_sentence, sentence_factors),
        }
    return result


@register
class Cleme2(Metric):
    """CLEME2.0 plain, and similarity-weighted when ``options.sim``."""

    name = "cleme2"
    label = "CLEME2.0"
    headline = (
        ScorePath("cleme2.dependent.corpus.score", "CLEME2 dep"),
        ScorePath("cleme2.independent.corpus.score", "CLEME2 ind"),
        ScorePath("cleme2.sim.dependent.corpus.score", "CLEME2 sim"),
    )
    count_keys = frozenset({"tp", "fp_ne", "fp_un", "fn", "tn"})
    lower_is_better = frozenset({"fp_ne", "fp_un", "fn", "error", "under", "over"})

    resampled = tuple(
        expand(["cleme2", "cleme2.sim"], ASSUMPTIONS, ["corpus"], ("hit", "error", "under", "over", "score"))
    )
    sentence_columns = CHANGED

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        return chunk_outcome_rows(statistics)

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return tuple(expand(["cleme2", "cleme2.sim"], ASSUMPTIONS, LEVELS, CLEME2_KEYS))

    @classmethod
    def unsupported_reason(cls, pipeline, options) -> str | None:
        """Similarity weights need a sentence encoder for the language (section 3.3)."""
        served = options.bertscore_languages
        if not options.sim or ANY_LANGUAGE in served or pipeline.language.code in served:
            return None
        return (
            f"similarity-weighted CLEME2.0 needs a sentence encoder for {pipeline.language.name}; the "
            "configured one serves "
            f"{', '.join(served)} (set GEC_BERTSCORE_MODEL to a multilingual model)"
        )

    def resampling(self, statistics: dict) -> Resampling:
        """Per sentence, weighting and assumption, the (tp, fp_ne, fp_un, fn, tn) of the
        reference the corpus-level greedy choice took, kept fixed inside a sample."""
        factors = check_factors(self.options.cleme2_corpus_factors)
        variants = [("cleme2", unit_weight)] + (
            [("cleme2.sim", similarity_weight)] if self.options.sim and statistics.get("sim") else []
        )
        blocks = [(f"{prefix}.{a}", weight, a) for prefix, weight in variants for a in ASSUMPTIONS]
        counts = np.hstack(
            [
                np.asarray(cleme2_choice(candidates(statistics, a, weight), factors), dtype=float).reshape(-1, 5)
                for _, weight, a in blocks
            ]
        )

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            return {
                f"{prefix}.corpus.{key}": values
                for k, (prefix, _, _) in enumerate(blocks)
                for key, values in heuo_of_totals(totals[:, 5 * k : 5 * k + 5], factors).items()
            }

        return Resampling(counts, scores)

    def prepare(self, dataset: Dataset) -> None:
        if self.options.sim:
            dataset_similarity(dataset, self.options.bertscore_model, self.options.bertscore_layers)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        # Similarity weights are appended to the records: those must be this metric's own.
        statistics = (
            chunk_statistics(dataset, hypothesis) if self.options.sim else shared_chunk_statistics(dataset, hypothesis)
        )
        statistics["sim"] = bool(self.options.sim)
        if self.options.sim:
            add_similarity_weights(dataset, statistics, self.options.bertscore_model, self.options.bertscore_layers)
        return statistics

    def score(self, statistics: dict) -> dict:
        factors = (self.options.cleme2_corpus_factors, self.options.cleme2_sentence_factors)
        result = cleme2_scores(statistics, *factors)
        if self.options.sim:
            if not statistics.get("sim"):
                raise ValueError("these CLEME2.0 statistics have no similarity weights: compute them again with sim on")
            result["sim"] = cleme2_scores(statistics, *factors, weight=similarity_weight)
        return result

    def signature(self) -> str:
        def fmt(factors) -> str:
            return ",".join(f"{a:g}" for a in factors)

        text = (
            f"cleme2|corpus:{fmt(self.options.cleme2_corpus_factors)}|"
            f"sentence:{fmt(self.options.cleme2_sentence_factors)}"
        )
        if self.options.sim:
            text += f"|sim:{model_label(self.options.bertscore_model)}|layers:{self.options.bertscore_layers}"
        return text
