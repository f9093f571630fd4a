"""GLEU as a registered metric: the official multi-reference "GLEU without tuning".

The expensive step counts n-grams (``scoring.gleu``): per sentence the hypothesis length
and, per reference, the reference length and four clipped numerators. Everything else
(the 500 drawn iterations, sentence GLEU, bootstrap samples) is numpy over those.
The source and reference n-grams depend on the dataset only and are counted once.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from .. import gleu
from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..paths import ScorePath
from .base import Metric, Resampling, register


class ReferenceNgrams:
    """Per sentence: per reference its n-grams, its length and the source n-grams it changed."""

    def __init__(self, dataset: Dataset):
        self.dataset = dataset
        self.references: list[list[list[Counter]]] = []
        self.changed: list[list[list[Counter]]] = []
        self.lengths: list[list[int]] = []
        for i, source in enumerate(dataset.sources):
            source_ngrams = gleu.ngrams_by_order(source)
            references = [gleu.ngrams_by_order(ref.tokens[i]) for ref in dataset.references]
            self.references.append(references)
            self.changed.append([gleu.changed_ngrams(source_ngrams, r) for r in references])
            self.lengths.append([len(ref.tokens[i]) for ref in dataset.references])


def stored_rows(statistics: dict) -> tuple[np.ndarray, np.ndarray]:
    """Stored statistics as (sentences, 5) hypothesis rows and (sentences, references, 5) reference rows."""
    hypothesis = gleu.hypothesis_rows(statistics["hyp_len"])
    return hypothesis, np.asarray(statistics["refs"], dtype=float).reshape(len(hypothesis), -1, gleu.REF_COLUMNS)


def hypothesis_tokens(dataset: Dataset, hypothesis: Hypothesis) -> list[list[str]]:
    """The output split as ``compute_gleu`` splits it (its raw lines when they were read as text)."""
    if hypothesis.lines is None or dataset.tokenize:
        return hypothesis.tokens
    return [gleu.split_tokens(line) for line in hypothesis.lines]


@register
class Gleu(Metric):
    """Mean corpus GLEU over the drawn iterations, its spread, and mean sentence GLEU."""

    name = "gleu"
    label = "GLEU"
    headline = (ScorePath("gleu.score", "GLEU"),)
    resampled = ("gleu.score",)

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return ("gleu.score", "gleu.sentence.score")

    def __init__(self, options):
        super().__init__(options)
        self.iterations = int(options.extra.get("gleu_iterations", gleu.ITERATIONS))
        self._ngrams: ReferenceNgrams | None = None

    def prepare(self, dataset: Dataset) -> None:
        """Reference n-grams and the reference draws (500 x sentences seeded draws, cached
        per process) depend on the dataset only: computed here, once, not per submission."""
        if self._ngrams is None or self._ngrams.dataset is not dataset:
            self._ngrams = ReferenceNgrams(dataset)
            if len(dataset) and dataset.references:
                gleu.reference_draws(len(dataset), len(dataset.references), self.iterations)

    def iterations_run(self) -> int:
        """``compute_gleu`` runs a single iteration when there is one reference."""
        one_reference = self._ngrams is not None and self._ngrams.dataset.n_references == 1
        return 1 if one_reference else self.iterations

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"hyp_len": [c_i], "refs": [[[r_len, num_1..num_4] per reference] per sentence]}``."""
        self.prepare(dataset)
        ngrams = self._ngrams
        lengths, rows = [], []
        for i, tokens in enumerate(hypothesis_tokens(dataset, hypothesis)):
            hyp = gleu.ngrams_by_order(tokens)
            lengths.append(len(tokens))
            rows.append([gleu.reference_row(hyp, r, d, n) for r, d, n in zip(ngrams.references[i], ngrams.changed[i], ngrams.lengths[i])])
        return {"hyp_len": lengths, "refs": rows}

    def draws(self, statistics: dict) -> np.ndarray:
        rows = statistics["refs"]
        return gleu.reference_draws(len(rows), len(rows[0]) if rows else 1, self.iterations)

    def score(self, statistics: dict) -> dict:
        hypothesis, rows = stored_rows(statistics)
        iterations = gleu.corpus_gleu(hypothesis, rows, self.draws(statistics))
        sentences = gleu.sentence_gleu(hypothesis, rows)
        return {
            "score": float(iterations.mean()),
            "sd": float(iterations.std()),
            "sentence": {"score": float(sentences.mean()) if len(sentences) else 0.0},
        }

    def resampling(self, statistics: dict) -> Resampling:
        """Per sentence: its length and the four denominators, then the drawn reference's
        row of every iteration; a sample's score is the mean GLEU over the iterations."""
        hypothesis, rows = stored_rows(statistics)
        drawn = gleu.drawn_rows(rows, self.draws(statistics))  # (iterations, sentences, 5)
        iterations = drawn.shape[0]
        counts = np.hstack([hypothesis, drawn.transpose(1, 0, 2).reshape(len(hypothesis), -1)])

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            per_iteration = totals[:, gleu.HYP_COLUMNS:].reshape(len(totals), iterations, gleu.REF_COLUMNS)
            return {"gleu.score": gleu.gleu_score(totals[:, None, :gleu.HYP_COLUMNS], per_iteration).mean(axis=1)}

        return Resampling(counts, scores)

    def signature(self) -> str:
        return f"gleu|n:{gleu.ORDER}|iterations:{self.iterations_run()}|seed:j*{gleu.SEED_STEP}|draw:py2-randint|tokens:ascii-whitespace"
