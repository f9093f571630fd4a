"""The BERTScore model itself (bert-score's ``BERTScorer``, with torch and transformers).

A worker that runs the ONNX graph and the spec'd tokenizer never loads it
(:mod:`scoring.similarity.export`); the export child, the torch engine and a tokenizer
without a spec do.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from pathlib import Path

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
PAIR_BATCH = 128  # pairs per greedy_cos_idf call of bert-score's own scorer


def _offline() -> None:
    """Make sure transformers and huggingface_hub never try the network."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:  # already imported: it read the environment at import time
        constants.HF_HUB_OFFLINE = True  # type: ignore[attr-defined]  # a module found at run time


def cores() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def return_large_blocks() -> None:
    """Have glibc map every block of 1 MB or more on its own, so that it goes back to the
    system when freed. Otherwise glibc raises that threshold each time such a block is
    freed, and the forward passes' large buffers come from the heap, which fragments:
    an essay's sentences grew a worker by 400 MB, 150 MB of it free but held."""
    try:
        ctypes.CDLL("libc.so.6").mallopt(M_MMAP_THRESHOLD, 1 << 20)
    except (OSError, AttributeError):  # not glibc: its allocator has its own rules
        pass


@functools.cache
def load_scorer(model: str, layers: int | None):
    """The process's ``BERTScorer`` for (model, layers), on CPU."""
    _offline()
    return_large_blocks()
    import torch
    from bert_score import BERTScorer

    torch.set_num_threads(cores())
    if not Path(model).exists():
        raise RuntimeError(
            f"BERTScore model directory {model!r} not found; set GEC_BERTSCORE_MODEL to a local model directory"
        )
    scorer = BERTScorer(model_type=model, num_layers=layers, batch_size=PAIR_BATCH, device="cpu")
    scorer._model.eval()
    return scorer
