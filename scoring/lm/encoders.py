"""What SOME and IMPARA share: BERT-shaped encoders read the way gec-metrics reads them.

gec-metrics 0.1.1 tokenizes every batch with ``max_length=128, truncation=True,
padding="max_length"``. Here a batch is padded to its longest line instead: the
attention mask keeps padding out of every real position, so each sentence's figures are
the same up to float rounding, and a 20-token sentence costs 20 tokens, not 128. Lines
are batched by length for the same reason; every figure depends on its own line only.
Truncation at 128 tokens is gec-metrics' (a longer line is scored on its first 128
tokens), so the model must take at least that many positions.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from . import runtime

MAX_LENGTH = 128  # gec-metrics' max_length for SOME and IMPARA alike
DEFAULT_BATCH = 32  # gec-metrics' batch_size
DEFAULT_DTYPE = "float32"  # gec-metrics loads every model in float32


class EncoderSettings(runtime.RunSettings):
    """The model directories of a metric of BERT-shaped models, with gec-metrics' dtype and
    batch size as defaults; read when the models are needed (:class:`runtime.RunSettings`)."""

    default_dtype = DEFAULT_DTYPE
    default_batch = DEFAULT_BATCH
    models_setting = ""  # the setting that names the directories, e.g. GEC_SOME_MODELS
    models_count = 0

    @functools.cached_property
    def paths(self) -> list[Path]:
        return runtime.model_directories(self.models_setting, self.models_count)


def length_batches(texts: Sequence[str], batch_size: int) -> Iterator[list[int]]:
    """Indices of ``texts`` in batches of ``batch_size``, shortest lines first, so each
    batch pads to about its own length."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    for start in range(0, len(order), batch_size):
        yield order[start : start + batch_size]


def encoded_batches(
    tokenizer: Any, texts: Sequence[str], indices: Iterable[int], batch_size: int, device: str
) -> Iterator[tuple[list[int], dict]]:
    """``(indices, inputs)`` of each forward pass over ``texts[i]`` for ``i`` in ``indices``:
    :func:`length_batches` of them, each :func:`encode`-d alone."""
    wanted = list(indices)
    for batch in length_batches([texts[i] for i in wanted], batch_size):
        rows = [wanted[k] for k in batch]
        yield rows, encode(tokenizer, [texts[i] for i in rows], None, device)


def encode(tokenizer: Any, first: Sequence[str], second: Sequence[str] | None, device: str) -> dict:
    """Token ids of lines (or of line pairs, truncated longest-first as the tokenizer's
    ``truncation=True`` does) on ``device``, cut at :data:`MAX_LENGTH` tokens."""
    found = tokenizer(
        list(first),
        list(second) if second is not None else None,
        max_length=MAX_LENGTH,
        padding="longest",
        truncation=True,
        return_tensors="pt",
    )
    return {key: value.to(device) for key, value in found.items()}


def check_positions(model: Any, path: Path | str, setting_name: str) -> None:
    """A model with fewer than :data:`MAX_LENGTH` positions cannot read what gec-metrics
    feeds it: say so, naming the setting, before the first forward pass fails inside torch."""
    positions = getattr(model.config, "max_position_embeddings", None)
    if positions is not None and positions < MAX_LENGTH:
        raise runtime.LMSettingError(
            setting_name, f"{str(path)!r} takes {positions} positions; SOME and IMPARA read up to {MAX_LENGTH} tokens"
        )


def check_regressor(model: Any, path: Path | str, setting_name: str) -> None:
    """One output per sentence, as gec-metrics reads ``logits.view(-1)``: a classifier with
    more labels would have its outputs paired with the wrong sentences there."""
    labels = getattr(model.config, "num_labels", 1)
    if labels != 1:
        raise runtime.LMSettingError(
            setting_name, f"{str(path)!r} has {labels} output labels; a regressor with one output is needed"
        )
    check_positions(model, path, setting_name)


@functools.cache
def load_regressor(path: str, setting_name: str, device: str, dtype: str) -> Any:
    """A sequence-classification model with one output (a regression head), without its
    tokenizer: SOME reads all three of its models with the fluency model's tokenizer, so
    the other two directories need not hold one. Loaded once per process and arguments."""
    runtime.offline()
    import transformers

    try:
        model = transformers.AutoModelForSequenceClassification.from_pretrained(
            path, dtype=runtime.torch_dtype(dtype), local_files_only=True
        )
    except (OSError, ValueError, TypeError, KeyError, RuntimeError) as error:
        first = (str(error).strip().splitlines() or [type(error).__name__])[0][:300]
        raise runtime.LMSettingError(
            setting_name, f"{path!r} cannot be loaded as a sequence regressor ({first})"
        ) from error
    check_regressor(model, path, setting_name)
    model.to(device)
    model.eval()
    return model
