"""IMPARA (Maeda et al., COLING 2022) as gec-metrics 0.1.1 computes it.

A quality estimator (a BERT regressor) reads the output alone; its logit through a
sigmoid is the sentence's quality. A similarity estimator (a plain BERT encoder) reads
the source and the output apart; each is mean-pooled over its attention mask, and the
cosine of the two vectors is their similarity. The sentence's IMPARA is the quality
when the similarity is at least the threshold (0.9), else 0; the corpus figure is the
mean over sentences. Both models are called with ids and attention mask only (no
token type ids), as gec-metrics calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import runtime
from .encoders import by_batch, check_positions, check_regressor, encode

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


def mean_pooled(encoder: runtime.LoadedModel, texts: Sequence[str]) -> Any:
    """Each text's last hidden states averaged over its attention mask (padding left out)."""
    inputs = encode(encoder.tokenizer, texts, None, encoder.device)
    mask = inputs["attention_mask"]
    states = encoder.model(inputs["input_ids"], mask).last_hidden_state
    states = states.masked_fill(mask.unsqueeze(-1) == 0, 0)
    return states.sum(dim=1) / mask.sum(dim=-1, keepdim=True)


def sentences(
    models: ImparaModels, sources: Sequence[str], outputs: Sequence[str], batch_size: int, threshold: float = THRESHOLD
) -> list[tuple]:
    """``(impara, quality, similarity)`` of every (source, output) pair."""
    import torch

    def run(indices: list[int]) -> list[tuple[float, float, float]]:
        batch_outputs = [outputs[i] for i in indices]
        quality_inputs = encode(models.quality.tokenizer, batch_outputs, None, models.quality.device)
        with torch.inference_mode():
            logits = models.quality.model(quality_inputs["input_ids"], quality_inputs["attention_mask"]).logits
            similarity = torch.nn.functional.cosine_similarity(
                mean_pooled(models.similarity, [sources[i] for i in indices]),
                mean_pooled(models.similarity, batch_outputs),
            ).view(-1)
        quality = torch.sigmoid(logits.view(-1))
        # gec-metrics compares the tensor with the threshold, so in the model's dtype.
        score = torch.where(similarity < threshold, torch.zeros_like(quality), quality)
        return list(zip(score.float().tolist(), quality.float().tolist(), similarity.float().tolist()))

    return by_batch(len(outputs), outputs, batch_size, run)
