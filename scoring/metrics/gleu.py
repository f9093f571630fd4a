"""GLEU as a registered metric: the official multi-reference "GLEU without tuning", or
(``options.gleu_variant = "multigec"``) the PyPI ``gleu`` tool MultiGEC-2025 reported.

The expensive step counts n-grams: per sentence the hypothesis length and, per reference,
the reference length and four clipped numerators. The source and reference n-grams depend
on the dataset only and are indexed once (``scoring.gleu.index``), so a system's counts
are one pass over its n-grams. Everything else (the 500 drawn iterations, sentence GLEU,
bootstrap samples) is numpy over those counts (``scoring.gleu.score``).
"""

from __future__ import annotations

import numpy as np

from ..dataset import Dataset
from ..gleu import score as gleu
from ..gleu.index import NgramIndex
from ..hypothesis import Hypothesis
from ..paths import ScorePath
from .base import Metric, Resampling, register


def stored_rows(statistics: dict) -> tuple[np.ndarray, np.ndarray]:
    """Stored statistics as (sentences, 5) hypothesis rows and (sentences, references, 5) reference rows."""
    hypothesis = gleu.hypothesis_rows(statistics["hyp_len"])
    return hypothesis, np.asarray(statistics["refs"], dtype=float).reshape(len(hypothesis), -1, gleu.REF_COLUMNS)


def hypothesis_tokens(dataset: Dataset, hypothesis: Hypothesis, variant: str = "official") -> list[list[str]]:
    """The output split as the variant's tool splits it (its raw lines when they were read as text)."""
    if hypothesis.lines is None or dataset.tokenize:
        return hypothesis.tokens
    split = gleu.TOKEN_SPLITTERS[variant]
    return [split(line) for line in hypothesis.lines]


@register
class Gleu(Metric):
    """Mean corpus GLEU over the drawn iterations, its spread, and mean sentence GLEU."""

    name = "gleu"
    label = "GLEU"
    headline = (ScorePath("gleu.score", "GLEU"),)
    resampled = ("gleu.score",)
    sentence_columns = ("score",)

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        """The line's own GLEU (the mean over its references' n-gram rows, as ``gleu.sentence.score``)."""
        hypothesis, rows = stored_rows(statistics)
        return [[float(value)] for value in gleu.sentence_gleu(hypothesis, rows)]

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return ("gleu.score", "gleu.sentence.score")

    def __init__(self, options):
        super().__init__(options)
        self.variant = options.gleu_variant
        if self.variant not in gleu.SCORE_FUNCTIONS:
            raise ValueError(f"unknown GLEU variant {self.variant!r}; choose from {', '.join(gleu.SCORE_FUNCTIONS)}")
        self.gleu_score = gleu.SCORE_FUNCTIONS[self.variant]
        self.iterations = int(options.extra.get("gleu_iterations", gleu.ITERATIONS))
        self._prepared: tuple[Dataset, NgramIndex] | None = None

    def prepare(self, dataset: Dataset) -> None:
        """The index of source and reference n-grams and the reference draws (500 x
        sentences seeded draws, cached per process) depend on the dataset only: computed
        here, once, not per submission."""
        if self._prepared is None or self._prepared[0] is not dataset:
            references = [ref.tokens for ref in dataset.references]
            self._prepared = (dataset, NgramIndex(dataset.sources, references))
            if len(dataset) and dataset.references:
                gleu.draw_indicators(len(dataset), len(dataset.references), self.iterations)

    def iterations_run(self) -> int:
        """``compute_gleu`` runs a single iteration when there is one reference."""
        one_reference = self._prepared is not None and self._prepared[0].n_references == 1
        return 1 if one_reference else self.iterations

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"hyp_len": [c_i], "refs": [[[r_len, num_1..num_4] per reference] per sentence]}``."""
        self.prepare(dataset)
        assert self._prepared is not None
        index = self._prepared[1]
        tokens = hypothesis_tokens(dataset, hypothesis, self.variant)
        rows = np.concatenate([index.lengths[:, :, None], index.numerators(tokens)], axis=2)
        return {"hyp_len": [len(t) for t in tokens], "refs": rows.tolist()}

    def draws(self, statistics: dict) -> np.ndarray:
        rows = statistics["refs"]
        return gleu.reference_draws(len(rows), len(rows[0]) if rows else 1, self.iterations)

    def score(self, statistics: dict) -> dict:
        hypothesis, rows = stored_rows(statistics)
        refs = statistics["refs"]
        indicators = gleu.draw_indicators(len(refs), len(refs[0]) if refs else 1, self.iterations)
        iterations = gleu.corpus_gleu(hypothesis, rows, indicators, self.gleu_score)
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
            per_iteration = totals[:, gleu.HYP_COLUMNS :].reshape(len(totals), iterations, gleu.REF_COLUMNS)
            return {"gleu.score": self.gleu_score(totals[:, None, : gleu.HYP_COLUMNS], per_iteration).mean(axis=1)}

        return Resampling(counts, scores)

    def signature(self) -> str:
        return (
            f"gleu|n:{gleu.ORDER}|iterations:{self.iterations_run()}|seed:j*{gleu.SEED_STEP}|draw:py2-randint|"
            f"tokens:{gleu.TOKEN_RULES[self.variant]}|variant:{self.variant}"
        )
