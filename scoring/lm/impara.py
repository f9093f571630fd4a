"""IMPARA (Maeda et al., COLING 2022) as gec-metrics 0.1.1 computes it.

A quality estimator (a BERT regressor) reads the output alone; its logit through a
sigmoid is the sentence's quality. A similarity estimator (a plain BERT encoder) reads
the source and the output apart; each is mean-pooled over its attention mask, and the
cosine of the two vectors is their similarity. The sentence's IMPARA is the quality
when the similarity is at least the threshold (0.9), else 0; the corpus figure is the
mean over sentences. Both models are called with ids and attention mask only (no
token type ids), as gec-metrics calls them.

What is read: the quality estimator reads every output; the similarity encoder reads
each source once (:func:`vectors`; the metric keeps them for every further system, see
:mod:`scoring.metrics.impara`) and only the outputs that differ from their source, since
an unchanged output's tokens, and so its vector, are its source's. Each model reads
length-sorted batches (:func:`~scoring.lm.encoders.encoded_batches`); the quality
estimator's are gec-metrics' lines in the order this module always read them, so a
quality, and an IMPARA on the same side of the threshold, is the figure it was bit for
bit. A similarity may move in its last bits, as much as the same line read in another
batch (another batch size, gec-metrics' padding to 128) moves it.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import runtime
from .encoders import check_positions, check_regressor, encoded_batches

THRESHOLD = 0.9  # the paper's and gec-metrics' similarity threshold


@dataclass(frozen=True)
class ImparaModels:
    """The quality estimator and the similarity encoder, each with its own tokenizer."""

    quality: runtime.LoadedModel
    similarity: runtime.LoadedModel


def load(paths: Sequence[Path], device: str, dtype: str) -> ImparaModels:
    """The quality estimator and similarity encoder of ``GEC_IMPARA_MODELS``, in that order."""
    quality_path, similarity_path = (str(path) for path in paths)
    setting = runtime.IMPARA_MODELS
    quality = runtime.load_model(quality_path, setting, "AutoModelForSequenceClassification", device, dtype)
    check_regressor(quality.model, quality_path, setting)
    similarity = runtime.load_model(similarity_path, setting, "AutoModel", device, dtype)
    check_positions(similarity.model, similarity_path, setting)
    return ImparaModels(quality, similarity)


def forward(model: Any, inputs: dict) -> Any:
    """A model called as gec-metrics calls IMPARA's: ids and attention mask, no token type ids."""
    return model(inputs["input_ids"], inputs["attention_mask"])


def quality_batches(models: ImparaModels, outputs: Sequence[str], batch_size: int) -> Iterator[tuple[list[int], dict]]:
    """The quality estimator's batches: every output, length-sorted."""
    quality = models.quality
    return encoded_batches(quality.tokenizer, outputs, range(len(outputs)), batch_size, quality.device)


def vector_batches(
    models: ImparaModels, texts: Sequence[str], indices: Iterable[int], batch_size: int
) -> Iterator[tuple[list[int], dict]]:
    """The similarity encoder's batches: the texts at ``indices``, length-sorted."""
    similarity = models.similarity
    return encoded_batches(similarity.tokenizer, texts, indices, batch_size, similarity.device)


def changed(sources: Sequence[str], outputs: Sequence[str]) -> list[int]:
    """The outputs the similarity encoder reads: an output equal to its source is encoded as
    its source is, so its vector is the source's."""
    return [i for i, (source, output) in enumerate(zip(sources, outputs)) if source != output]


def vectors(models: ImparaModels, texts: Sequence[str], indices: Iterable[int], batch_size: int) -> dict[int, Any]:
    """The similarity vector of ``texts[i]`` for each ``i`` in ``indices``: its last hidden
    states averaged over its attention mask (padding left out)."""
    import torch

    found: dict[int, Any] = {}
    with torch.inference_mode():
        for rows, inputs in vector_batches(models, texts, indices, batch_size):
            mask = inputs["attention_mask"]
            states = forward(models.similarity.model, inputs).last_hidden_state
            states = states.masked_fill(mask.unsqueeze(-1) == 0, 0)
            found.update(zip(rows, states.sum(dim=1) / mask.sum(dim=-1, keepdim=True)))
    return found


def sentences(
    models: ImparaModels,
    sources: Sequence[str],
    outputs: Sequence[str],
    batch_size: int,
    threshold: float = THRESHOLD,
    source_vectors: Sequence[Any] | None = None,
) -> list[tuple]:
    """``(impara, quality, similarity)`` of every (source, output) pair. ``source_vectors``:
    the sources' similarity vectors (:func:`vectors`) where the caller keeps them, else
    computed here. The similarity encoder reads only the outputs that differ from their
    source; the quality estimator reads every output."""
    import torch

    if source_vectors is None:
        found = vectors(models, sources, range(len(sources)), batch_size)
        source_vectors = [found[i] for i in range(len(sources))]
    output_vectors = vectors(models, outputs, changed(sources, outputs), batch_size)
    rows: list[tuple] = [()] * len(outputs)
    for indices, inputs in quality_batches(models, outputs, batch_size):
        with torch.inference_mode():
            quality = torch.sigmoid(forward(models.quality.model, inputs).logits.view(-1))
            similarity = torch.nn.functional.cosine_similarity(
                torch.stack([source_vectors[i] for i in indices]),
                torch.stack([output_vectors.get(i, source_vectors[i]) for i in indices]),
            ).view(-1)
            # gec-metrics compares the tensor with the threshold, so in the model's dtype.
            score = torch.where(similarity < threshold, torch.zeros_like(quality), quality)
        for i, row in zip(indices, zip(score.float().tolist(), quality.float().tolist(), similarity.float().tolist())):
            rows[i] = row
    return rows


def packed(vector: Any) -> str:
    """A similarity vector as text (its float32 bytes in base64), for a dataset's tables:
    :func:`unpacked` gives back the same vector, bit for bit, in any of the models' dtypes."""
    return base64.b64encode(vector.float().cpu().numpy().astype("<f4").tobytes()).decode("ascii")


def unpacked(text: str, models: ImparaModels) -> Any:
    """The vector :func:`packed` wrote, in the similarity encoder's dtype, on its device."""
    import numpy as np
    import torch

    values = torch.from_numpy(np.frombuffer(base64.b64decode(text), dtype="<f4").copy())
    return values.to(device=models.similarity.device, dtype=runtime.torch_dtype(models.similarity.dtype))
