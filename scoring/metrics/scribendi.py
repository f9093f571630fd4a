"""Scribendi (reference-free), as MultiGEC-2025 ranked its fluency track: :mod:`scoring.lm.scribendi`.

The model is the organizer's causal LM directory in ``GEC_LM_MODEL``, run on
``GEC_LM_DEVICE`` in bfloat16 (``GEC_LM_DTYPE`` may change that, and the signature says
so), ``GEC_LM_BATCH_SIZE`` essays padded together (4, as the script; MultiGEC ran its
Icelandic corpus with 1). The sources' perplexities depend on the dataset only, so each
process computes them once per dataset. The stored statistics are each essay's decision.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..lm import runtime
from ..options import ScoringOptions
from ..paths import ScorePath
from .base import Metric, Resampling, register

DEFAULT_DTYPE = "bfloat16"  # the script's
DEFAULT_BATCH = 4  # the script's default
PASSES = 2  # the source and the output each go through the model once (the source once per dataset)


def texts(dataset: Dataset, hypothesis: Hypothesis | None = None) -> list[str]:
    """The essays as the script reads them (stripped lines): the output's own lines when it
    was read as text, else its tokens joined by spaces; the source's tokens joined."""
    if hypothesis is None:
        return [" ".join(tokens) for tokens in dataset.sources]
    if hypothesis.lines is not None and not dataset.tokenize:
        return [line.strip() for line in hypothesis.lines]
    return [" ".join(tokens) for tokens in hypothesis.tokens]


@register
class Scribendi(runtime.RunSettings, Metric):
    """Per essay -1, 0 or +1; the corpus figure is MultiGEC's (plus - minus) / essays."""

    default_dtype = DEFAULT_DTYPE
    default_batch = DEFAULT_BATCH

    name = "scribendi"
    label = "Scribendi"
    headline = (ScorePath("scribendi.score", "Scribendi"),)
    count_keys = frozenset({"sum", "plus", "minus", "unchanged"})
    resampled = ("scribendi.score",)
    reference_free = True
    lane = "lm"

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return ("scribendi.score", "scribendi.sum")

    @classmethod
    def model_work(cls, options: ScoringOptions) -> float:
        try:
            return PASSES * runtime.weights_gb([runtime.model_directory(runtime.LM_MODEL)])
        except runtime.LMSettingError:
            return 0.0

    def __init__(self, options: ScoringOptions):
        super().__init__(options)
        self.variant = options.extra.get("scribendi_variant", "multigec")
        if self.variant not in ("multigec", "unicode"):
            raise ValueError(f"unknown Scribendi variant {self.variant!r}; choose from multigec, unicode")

    @functools.cached_property
    def model_path(self) -> Path:  # read when the model is needed, as dtype and batch size
        return runtime.model_directory(runtime.LM_MODEL)

    def _model(self) -> runtime.LoadedModel:
        from ..lm.scribendi import prepare_tokenizer

        loaded = runtime.load_causal_lm(self.model_path, runtime.LM_MODEL, runtime.resolve_device(), self.dtype)
        prepare_tokenizer(loaded, runtime.LM_MODEL)
        return loaded

    def _source_perplexities(self, dataset: Dataset) -> list[float]:
        from ..lm.scribendi import perplexities

        key = ("scribendi", str(self.model_path), self.dtype, self.batch_size)
        return dataset.remembered(
            key, lambda: perplexities(self._model(), texts(dataset), self.batch_size, runtime.LM_MODEL, "source line")
        )

    def prepare(self, dataset: Dataset) -> None:
        self._source_perplexities(dataset)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"decisions": [-1 | 0 | 1 per essay]}``; only changed essays go through the model."""
        from ..lm.scribendi import decisions, perplexities

        sources, outputs = texts(dataset), texts(dataset, hypothesis)
        source_ppl = self._source_perplexities(dataset)
        # The script pads each group of batch_size outputs together, so a changed essay's
        # group is read whole; a group with no changed essay needs no forward pass.
        output_ppl = [0.0] * len(outputs)
        for start in range(0, len(outputs), self.batch_size):
            group = range(start, min(start + self.batch_size, len(outputs)))
            if any(sources[i] != outputs[i] for i in group):
                found = perplexities(
                    self._model(), outputs[group.start : group.stop], self.batch_size, runtime.LM_MODEL
                )
                output_ppl[group.start : group.stop] = found
        return {"decisions": decisions(sources, outputs, source_ppl, output_ppl, self.variant)}

    def score(self, statistics: dict) -> dict:
        from ..lm.scribendi import corpus_scores

        return corpus_scores(statistics["decisions"])

    def resampling(self, statistics: dict) -> Resampling:
        """Per essay (decision, 1): a sample's figure is the sum of decisions over its essays."""
        rows = np.asarray(statistics["decisions"], dtype=float).reshape(-1, 1)
        counts = np.hstack([rows, np.ones_like(rows)])

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            return {"scribendi.score": totals[:, 0] / np.maximum(totals[:, 1], 1.0)}

        return Resampling(counts, scores)

    def signature(self) -> str:
        return (
            f"scribendi|model:{runtime.model_signature(self.model_path)}|dtype:{self.dtype}"
            f"|batch:{self.batch_size}|variant:{self.variant}"
        )
