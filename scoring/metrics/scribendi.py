"""Scribendi (reference-free), as MultiGEC-2025 ranked its fluency track: :mod:`scoring.lm.scribendi`.

The model is the organizer's causal LM directory in ``GEC_LM_MODEL``, run on
``GEC_LM_DEVICE`` in bfloat16 (``GEC_LM_DTYPE`` may change that, and the signature says
so), ``GEC_LM_BATCH_SIZE`` essays padded together (4, as the script; MultiGEC ran its
Icelandic corpus with 1). An essay equal to its source scores 0 and never reaches the
model; a changed one is read with its source, each padded as the script pads it, in
batches of equal padded length, shortest first. The sources' perplexities depend on the
dataset and the model only: each is computed once, the first time a system changes its
line, and kept in the dataset's tables (``Dataset.tables``, stored with a prepared
dataset) for every further system. The stored statistics are each essay's decision.
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

    def _source_perplexities(self, dataset: Dataset, wanted: list[int]) -> dict[int, float]:
        """The sources' perplexities at ``wanted``, each computed once per dataset and model:
        kept in the dataset's tables under the model's signature, so every further system
        (in this process, or where the dataset was stored with them) reads only new lines."""
        from ..lm.scribendi import perplexities_of

        model = runtime.model_signature(self.model_path)
        key = f"scribendi.source_perplexity|model:{model}|dtype:{self.dtype}|batch:{self.batch_size}"
        known: dict[str, float] = dataset.tables.setdefault(key, {})
        missing = [i for i in wanted if str(i) not in known]
        if missing:
            found = perplexities_of(
                self._model(), texts(dataset), missing, self.batch_size, runtime.LM_MODEL, "source line"
            )
            known.update((str(i), value) for i, value in found.items())
        return {i: known[str(i)] for i in wanted}

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"decisions": [-1 | 0 | 1 per essay]}``. Only a changed essay reaches the model
        (an unchanged one scores 0), with its source, each read as the script reads it
        (padded to its group's longest: :func:`scoring.lm.scribendi.reading_plan`)."""
        from ..lm.scribendi import decisions, perplexities_of

        sources, outputs = texts(dataset), texts(dataset, hypothesis)
        changed = [i for i, (src, out) in enumerate(zip(sources, outputs)) if src != out]
        source_found = self._source_perplexities(dataset, changed)
        output_found = perplexities_of(self._model(), outputs, changed, self.batch_size, runtime.LM_MODEL)
        source_ppl = [source_found.get(i, 0.0) for i in range(len(sources))]
        output_ppl = [output_found.get(i, 0.0) for i in range(len(outputs))]
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
