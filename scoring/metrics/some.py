"""SOME (reference-free), as gec-metrics computes it: :mod:`scoring.lm.some`.

The three regressors are the organizer's local directories in ``GEC_SOME_MODELS``
(grammaticality,fluency,meaning), run on ``GEC_LM_DEVICE`` in float32 (``GEC_LM_DTYPE``
may change that, and the signature says so), ``GEC_LM_BATCH_SIZE`` lines at a time (32).
Each sentence's figures depend on its (source, output) pair only, so a process computes
each distinct pair of a dataset once: an unchanged line, or one many systems share, is
read by the models once. The stored statistics are each sentence's SOME and its parts.

Any language may be scored (the models are the organizer's choice), so no text pipeline
is unsupported. A missing or wrong setting is an error naming it where the metric is
built, on the worker that holds the models, not an "unsupported" note: the web
processes that write those notes need not have the setting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..lm import runtime
from ..lm.encoders import MAX_LENGTH, EncoderSettings
from ..options import ScoringOptions
from ..paths import ScorePath
from .base import Metric, Resampling, register

PARTS = ("grammaticality", "fluency", "meaning")
MAX_REMEMBERED = 200_000  # (source, output) pairs whose figures a process keeps per dataset


def texts(dataset: Dataset, hypothesis: Hypothesis | None = None) -> list[str]:
    """The lines the models read: the output's own (stripped) lines when it was read as
    text, else its tokens joined by spaces; the source's tokens joined by spaces."""
    if hypothesis is None:
        return [" ".join(tokens) for tokens in dataset.sources]
    if hypothesis.lines is not None and not dataset.tokenize:
        return [line.strip() for line in hypothesis.lines]
    return [" ".join(tokens) for tokens in hypothesis.tokens]


def pair_figures(
    dataset: Dataset,
    hypothesis: Hypothesis,
    key: tuple,
    compute: Callable[[list[str], list[str]], list[tuple]],
) -> list[tuple]:
    """Each line's figures from ``compute(sources, outputs)``, run only on the (source,
    output) pairs this process has not yet seen with this dataset under ``key``."""
    known: dict = dataset.remembered(key, dict)
    pairs = list(zip(texts(dataset), texts(dataset, hypothesis)))
    if len(known) + len(pairs) > MAX_REMEMBERED:  # a long-lived worker's memory stays bounded
        known.clear()
    missing = list(dict.fromkeys(pair for pair in pairs if pair not in known))
    if missing:
        found = compute([source for source, _ in missing], [output for _, output in missing])
        known.update(zip(missing, found))
    return [known[pair] for pair in pairs]


def mean_rows(rows: Sequence[Sequence[float]], width: int) -> list[float]:
    """Column means as gec-metrics takes them (``sum(scores) / len(scores)``); 0 without rows."""
    return [sum(row[k] for row in rows) / len(rows) if rows else 0.0 for k in range(width)]


def mean_resampling(rows: Sequence[Sequence[float]], paths: Sequence[str]) -> Resampling:
    """Per sentence its figures and a 1: a sample's figures are the means over its sentences."""
    width = len(paths)
    counts = np.hstack([np.asarray(rows, dtype=float).reshape(-1, width), np.ones((len(rows), 1))])

    def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
        n = np.maximum(totals[:, width], 1.0)
        return {path: totals[:, k] / n for k, path in enumerate(paths)}

    return Resampling(counts, scores)


@register
class Some(EncoderSettings, Metric):
    """Mean sentence SOME, with the mean of each normalised part."""

    name = "some"
    label = "SOME"
    headline = (ScorePath("some.score", "SOME"),)
    resampled = ("some.score", *(f"some.{part}" for part in PARTS))
    reference_free = True
    lane = "lm"
    models_setting = runtime.SOME_MODELS
    models_count = len(PARTS)

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return cls.resampled

    @classmethod
    def model_work(cls, options: ScoringOptions) -> float:
        try:
            paths = runtime.model_directories(runtime.SOME_MODELS, len(PARTS))
        except runtime.LMSettingError:
            return 0.0
        return runtime.weights_gb(paths[:2]) + 2 * runtime.weights_gb(paths[2:])  # the meaning model reads 2 lines

    def __init__(self, options: ScoringOptions):
        super().__init__(options)
        from ..lm.some import WEIGHTS

        self.weights = tuple(float(w) for w in options.extra.get("some_weights", WEIGHTS))
        if len(self.weights) != len(PARTS):
            raise ValueError(f"some_weights needs {len(PARTS)} weights (grammaticality, fluency, meaning)")

    def _parts(self, sources: list[str], outputs: list[str]) -> list[tuple]:
        from ..lm import some

        models = some.load(self.paths, runtime.resolve_device(), self.dtype)
        return some.parts(models, sources, outputs, self.batch_size)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"sentences": [[some, grammaticality, fluency, meaning], ...]}``, one row per line."""
        from ..lm.some import combine

        key = ("some", tuple(map(str, self.paths)), self.dtype)
        found = pair_figures(dataset, hypothesis, key, self._parts)
        return {"sentences": [[combine(g, f, m, self.weights), g, f, m] for g, f, m in found]}

    def score(self, statistics: dict) -> dict:
        return dict(zip(("score", *PARTS), mean_rows(statistics["sentences"], 1 + len(PARTS))))

    def resampling(self, statistics: dict) -> Resampling:
        return mean_resampling(statistics["sentences"], self.resampled)

    def signature(self) -> str:
        models = "+".join(runtime.model_signature(path) for path in self.paths)
        weights = ",".join(f"{w:g}" for w in self.weights)
        return f"some|models:{models}|weights:{weights}|maxlen:{MAX_LENGTH}|dtype:{self.dtype}"
