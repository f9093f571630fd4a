"""Last-layer token embeddings of padded id batches, from the BERTScorer's own model.

Two engines compute the same thing (``bert_score.utils.bert_encode``), as float32 numpy arrays:

* ``onnx`` (default): the model exported to ONNX (once per machine, by a child process:
  :mod:`scoring.similarity.export`) and run by ONNX Runtime with one thread per call. Its
  fused kernels make the forward pass about 13% faster than PyTorch's on this CPU
  (``bench/cleme_speed.py``), it releases the GIL for the whole call, so one call per
  core runs truly in parallel, and it needs neither torch nor the model in the worker.
  Embeddings equal PyTorch's to ~5e-7.
* ``torch``: the model itself, under ``inference_mode``, each call on one core.

``GEC_BERTSCORE_ENGINE`` picks one; a model that cannot be exported falls back to torch.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ENGINE_ENV = "GEC_BERTSCORE_ENGINE"
ENGINES = ("onnx", "torch")

log = logging.getLogger(__name__)


def padded(ids: list[list[int]], pad_id: int) -> tuple[np.ndarray, np.ndarray]:
    """``(tokens, mask)`` int64 arrays, padded on the right as bert-score pads."""
    length = max(map(len, ids))
    tokens = np.full((len(ids), length), pad_id, dtype=np.int64)
    mask = np.zeros((len(ids), length), dtype=np.int64)
    for row, sentence in enumerate(ids):
        tokens[row, : len(sentence)] = sentence
        mask[row, : len(sentence)] = 1
    return tokens, mask


class TorchEncoder:
    name = "torch"

    def __init__(self, model, pad_id: int):
        self.model, self.pad_id = model, pad_id

    def __call__(self, ids: list[list[int]]) -> np.ndarray:
        import torch

        tokens, mask = (torch.from_numpy(a) for a in padded(ids, self.pad_id))
        with torch.inference_mode():
            return self.model(tokens, attention_mask=mask)[0].numpy()

    @contextlib.contextmanager
    def one_core_per_call(self) -> Iterator[None]:
        """torch's intra-op pool is process-wide: shrink it to one thread while calls run side by side."""
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.set_num_threads(before)


def onnx_graph(model, pad_id: int) -> bytes:
    """The model's last-layer embeddings as an ONNX graph (dynamic batch and length)."""
    import torch

    class LastHidden(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, tokens, mask):
            return self.model(tokens, attention_mask=mask)[0]

    example = tuple(torch.from_numpy(a) for a in padded([[pad_id + 1] * 5, [pad_id + 1] * 3], pad_id))
    axes = {0: "batch", 1: "length"}
    graph = io.BytesIO()
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # deprecation and tracer warnings of the TorchScript exporter
        torch.onnx.export(
            LastHidden().eval(),
            example,
            graph,  # type: ignore[arg-type]  # the exporter writes to a file object too
            input_names=["tokens", "mask"],
            output_names=["hidden"],
            dynamic_axes={"tokens": axes, "mask": axes, "hidden": axes},
            opset_version=17,
            dynamo=False,
        )
    return graph.getvalue()


class OnnxEncoder:
    name = "onnx"

    def __init__(self, graph: bytes | Path, pad_id: int):
        """``graph``: the model exported by :func:`onnx_graph`, or the file it was saved to."""
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # no arena: it keeps the largest batch's buffers for good (an essay's 512-piece
        # sentences grew it by 400 MB), and releasing them costs nothing measurable
        options.enable_cpu_mem_arena = False
        self.session = onnxruntime.InferenceSession(
            str(graph) if isinstance(graph, Path) else graph, options, providers=["CPUExecutionProvider"]
        )
        self.pad_id = pad_id

    def __call__(self, ids: list[list[int]]) -> np.ndarray:
        tokens, mask = padded(ids, self.pad_id)
        return self.session.run(None, {"tokens": tokens, "mask": mask})[0]

    def one_core_per_call(self):
        return contextlib.nullcontext()  # each session call already runs on one thread


def engine_name() -> str:
    name = os.environ.get(ENGINE_ENV, "onnx").strip().lower() or "onnx"
    if name not in ENGINES:
        raise RuntimeError(f"{ENGINE_ENV}={name!r}: choose one of {', '.join(ENGINES)}")
    return name


def make_encoder(model, pad_id: int, engine: str | None = None, graph=lambda: None):
    """The encoder of a loaded model for ``engine`` (default: ``GEC_BERTSCORE_ENGINE``,
    else onnx); ``graph()`` may give the ONNX graph already exported (bytes or a file)."""
    engine = engine or engine_name()
    if engine == "onnx":
        try:
            exported = graph()
            return OnnxEncoder(exported if exported is not None else onnx_graph(model, pad_id), pad_id)
        except Exception as error:  # an architecture the exporter does not know, or no onnxruntime
            log.warning("BERTScore model cannot run on ONNX Runtime (%s); using torch", error)
    return TorchEncoder(model, pad_id)
