"""IMPARA (reference-free), as gec-metrics computes it: :mod:`scoring.lm.impara`.

The quality estimator and the similarity encoder are the organizer's local directories
in ``GEC_IMPARA_MODELS`` (quality,similarity), run on ``GEC_LM_DEVICE`` in float32
(``GEC_LM_DTYPE`` may change that, and the signature says so), ``GEC_LM_BATCH_SIZE``
lines at a time (32). As for SOME, a process reads each distinct (source, output) pair
of a dataset once. The similarity encoder reads each source once per dataset and model:
its vectors are kept in the dataset's tables (``Dataset.tables``, stored with a prepared
dataset) for every further system, which then reads only its outputs that differ from
their source. The stored statistics are each sentence's IMPARA, quality and similarity.
"""

from __future__ import annotations

import functools

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..lm import runtime
from ..lm.encoders import MAX_LENGTH, EncoderSettings
from ..options import ScoringOptions
from ..paths import ScorePath
from .base import Metric, Resampling, register
from .some import mean_resampling, mean_rows, pair_figures, texts

MODELS = 2  # the quality estimator, the similarity encoder
SOURCE_VECTORS = "impara.source_vectors"  # the tables' key: the sources' similarity vectors


@register
class Impara(EncoderSettings, Metric):
    """Mean sentence IMPARA, with the mean quality and the mean similarity."""

    name = "impara"
    label = "IMPARA"
    headline = (ScorePath("impara.score", "IMPARA"),)
    resampled = ("impara.score", "impara.quality", "impara.similarity")
    reference_free = True
    lane = "lm"
    models_setting = runtime.IMPARA_MODELS
    models_count = MODELS

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return cls.resampled

    @classmethod
    def model_work(cls, options: ScoringOptions) -> float:
        try:
            quality, similarity = runtime.model_directories(runtime.IMPARA_MODELS, MODELS)
        except runtime.LMSettingError:
            return 0.0
        return runtime.weights_gb([quality]) + 2 * runtime.weights_gb([similarity])

    def __init__(self, options: ScoringOptions):
        super().__init__(options)
        from ..lm.impara import THRESHOLD

        self.threshold = float(options.extra.get("impara_threshold", THRESHOLD))

    def _sentences(self, dataset: Dataset, sources: list[str], outputs: list[str]) -> list[tuple]:
        from ..lm import impara

        models = impara.load(self.paths, runtime.resolve_device(), self.dtype)
        vectors = self._source_vectors(dataset, models, sources)
        return impara.sentences(models, sources, outputs, self.batch_size, self.threshold, vectors)

    def _source_vectors(self, dataset: Dataset, models, wanted: list[str]) -> list:
        """The similarity vectors of the sources ``wanted``, each computed once per dataset
        and model: kept in the dataset's tables under the encoder's signature and dtype (as
        float32 bytes, :func:`scoring.lm.impara.packed`), so every further system, in this
        process or where the dataset was stored with them, reads only its changed outputs."""
        from ..lm.impara import packed, unpacked, vectors

        sources = texts(dataset)
        first: dict[str, int] = {}
        for i, text in enumerate(sources):
            first.setdefault(text, i)
        lines = [first[text] for text in wanted]
        key = f"{SOURCE_VECTORS}|model:{runtime.model_signature(self.paths[1])}|dtype:{self.dtype}"
        known: dict[str, str] = dataset.tables.setdefault(key, {})
        missing = [i for i in dict.fromkeys(lines) if str(i) not in known]
        if missing:
            found = vectors(models, sources, missing, self.batch_size)
            known.update((str(i), packed(found[i])) for i in missing)
        return [unpacked(known[str(i)], models) for i in lines]

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"sentences": [[impara, quality, similarity], ...]}``, one row per line."""
        key = ("impara", tuple(map(str, self.paths)), self.dtype, self.threshold)
        compute = functools.partial(self._sentences, dataset)
        return {"sentences": [list(row) for row in pair_figures(dataset, hypothesis, key, compute)]}

    def score(self, statistics: dict) -> dict:
        return dict(zip(("score", "quality", "similarity"), mean_rows(statistics["sentences"], 3)))

    def resampling(self, statistics: dict) -> Resampling:
        return mean_resampling(statistics["sentences"], self.resampled)

    def signature(self) -> str:
        models = "+".join(runtime.model_signature(path) for path in self.paths)
        return f"impara|models:{models}|threshold:{self.threshold:g}|maxlen:{MAX_LENGTH}|dtype:{self.dtype}"
