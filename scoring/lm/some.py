"""SOME (Yoshimura et al., COLING 2020) as gec-metrics 0.1.1 computes it.

Three BERT regressors, trained on human ratings from 1 to 4, read each output:
grammaticality and fluency read the output alone, meaning preservation reads the pair
(source, output). Each prediction x is min-max normalised as (x - 1) / 3, without
clipping (a regressor may predict past 1 or 4, so a figure may leave [0, 1]), and the
sentence's SOME is 0.43 f + 0.55 g + 0.02 m, summed in that order; the corpus figure is
the mean over sentences. gec-metrics' quirk, kept: all three models read the fluency
model's tokenizer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import runtime
from .encoders import encode, length_batches, load_regressor

WEIGHTS = (0.55, 0.43, 0.02)  # grammaticality, fluency, meaning: the paper's and gec-metrics' weights
RATING_MIN, RATING_MAX = 1, 4  # the human rating scale the regressors were trained on


@dataclass(frozen=True)
class SomeModels:
    """The three regressors, on one device, and the tokenizer they all read."""

    tokenizer: Any
    grammaticality: Any
    fluency: Any
    meaning: Any
    device: str


def load(paths: Sequence[Path], device: str, dtype: str) -> SomeModels:
    """The grammaticality, fluency and meaning models of ``GEC_SOME_MODELS``, in that order."""
    grammaticality, fluency, meaning = (load_regressor(str(path), runtime.SOME_MODELS, device, dtype) for path in paths)
    tokenizer = runtime.load_tokenizer(str(paths[1]), runtime.SOME_MODELS)
    return SomeModels(tokenizer, grammaticality, fluency, meaning, device)


def normalise(prediction: float) -> float:
    """A rating on the 1-4 scale mapped to [0, 1] (not clipped, as gec-metrics)."""
    return (prediction - RATING_MIN) / (RATING_MAX - RATING_MIN)


def combine(grammaticality: float, fluency: float, meaning: float, weights: Sequence[float] = WEIGHTS) -> float:
    """The sentence's SOME from its normalised parts, added in gec-metrics' order (f, g, m)."""
    weight_g, weight_f, weight_m = weights
    return weight_f * fluency + weight_g * grammaticality + weight_m * meaning


def encoded_batches(
    models: SomeModels, sources: Sequence[str], outputs: Sequence[str], batch_size: int
) -> Iterator[tuple[list[int], dict, dict]]:
    """``(indices, outputs alone, (source, output) pairs)`` of each forward pass, encoded:
    length-sorted batches of the outputs (:func:`~scoring.lm.encoders.length_batches`)."""
    for indices in length_batches(outputs, batch_size):
        batch_outputs = [outputs[i] for i in indices]
        alone = encode(models.tokenizer, batch_outputs, None, models.device)
        pair = encode(models.tokenizer, [sources[i] for i in indices], batch_outputs, models.device)
        yield indices, alone, pair


def passes(models: SomeModels, alone: dict, pair: dict) -> tuple[tuple[Any, dict], ...]:
    """Which model reads which inputs: grammaticality and fluency the output, meaning the pair."""
    return (models.grammaticality, alone), (models.fluency, alone), (models.meaning, pair)


def parts(models: SomeModels, sources: Sequence[str], outputs: Sequence[str], batch_size: int) -> list[tuple]:
    """``(grammaticality, fluency, meaning)`` of every (source, output) pair, normalised."""
    import torch

    rows: list[tuple] = [()] * len(outputs)
    for indices, alone, pair in encoded_batches(models, sources, outputs, batch_size):
        with torch.inference_mode():
            found = [model(**inputs).logits.view(-1).float().tolist() for model, inputs in passes(models, alone, pair)]
        for i, g, f, m in zip(indices, *found):
            rows[i] = (normalise(g), normalise(f), normalise(m))
    return rows
