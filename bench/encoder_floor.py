"""SOME's and IMPARA's models for ``bench/lm_speed.py``, and their floor.

No SOME or IMPARA checkpoint lies on this machine, so the bench builds seeded BERT-shaped
models (:func:`build_models`, the tests' builder sized): by default 12 layers of 768,
bert-base-cased's shape, which the real SOME regressors and IMPARA's models have (the
CLI's start-up, about 10 CPU seconds of imports and reading, is then under a tenth of a
run; at 8 layers of 512 a sixth to a fifth, at 4 of 256 two thirds), with a cased
WordPiece vocabulary of the MultiGEC demo texts (every character, alone and as ``##``
piece, and every word: 12,088 pieces), saved with ``save_pretrained`` in the directories that
``GEC_SOME_MODELS`` and ``GEC_IMPARA_MODELS`` name. The same models every run
(``tokenizers``' trainer breaks ties differently from run to run, so a vocabulary it
trained would not be). Their figures mean nothing; their cost is a BERT's of that size.

The floor (:func:`floor`) is the forward passes the metric needs over the batches the
library reads, built with the library's own functions, the inputs encoded before the clock
starts, nothing else: SOME's three regressors on every distinct (source, output) pair
(:func:`scoring.lm.some.encoded_batches` and :func:`~scoring.lm.some.passes`); IMPARA's
quality estimator on every output and its similarity encoder on every source and on every
output that differs from its source (:func:`scoring.lm.impara.quality_batches`,
:func:`~scoring.lm.impara.vector_batches`, :func:`~scoring.lm.impara.changed`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from pathlib import Path

VOCABULARY = 28_996  # bert-base-cased's word pieces: the most the models' vocabulary may hold
SIZE = (768, 12)  # hidden, layers: BERT-base's shape


def build_models(root: Path, texts: Sequence[str], size: tuple[int, int] = SIZE) -> dict[str, str]:
    """SOME's three regressors and IMPARA's two models of ``size`` under ``root``, seeded,
    with a vocabulary of every character of ``texts`` and their most frequent words (the
    tests' builder, tests/scoring/bert_lm_support.py, sized): the settings that name them."""
    from tests.scoring.bert_lm_support import bert_size
    from tests.scoring.bert_lm_support import build_models as build

    root.mkdir(parents=True, exist_ok=True)
    return build(root, texts, words=VOCABULARY, size=bert_size(*size))


def load(metric: str, paths: Sequence[Path], device: str, dtype: str):
    """The metric's models as the library loads them (cached there: loaded once)."""
    from scoring.lm import impara, some

    return (some if metric == "some" else impara).load(paths, device, dtype)


def passes(metric: str, models, sources: Sequence[str], outputs: Sequence[str], batch: int) -> list[tuple]:
    """``(forward pass, tokens it reads)`` of every forward pass the library makes for these
    distinct (source, output) pairs (the sources all new), encoded by the library's own
    functions and called as it calls them."""
    if metric == "some":
        from scoring.lm import some

        calls = [
            (functools.partial(model, **inputs), inputs)
            for _, alone, pair in some.encoded_batches(models, sources, outputs, batch)
            for model, inputs in some.passes(models, alone, pair)
        ]
    else:
        from scoring.lm import impara

        distinct = list(dict.fromkeys(sources))
        batches = [(models.quality.model, b) for b in impara.quality_batches(models, outputs, batch)]
        batches += [
            (models.similarity.model, b) for b in impara.vector_batches(models, distinct, range(len(distinct)), batch)
        ]
        changed = impara.changed(sources, outputs)
        batches += [(models.similarity.model, b) for b in impara.vector_batches(models, outputs, changed, batch)]
        calls = [(functools.partial(impara.forward, model, inputs), inputs) for model, (_, inputs) in batches]
    return [(call, int(inputs["attention_mask"].sum())) for call, inputs in calls]


def floor(found: list[tuple]) -> float:
    """CPU seconds of the forward passes in ``found`` (:func:`passes`), nothing else."""
    import torch

    cpu = time.process_time()
    with torch.inference_mode():
        for call, _ in found:
            call()
    return time.process_time() - cpu


def corpus_tokens(tokenizer, texts: Sequence[str]) -> int:
    """Tokens of ``texts`` as the models read each alone ([CLS] and [SEP] counted, cut at 128)."""
    from scoring.lm.encoders import MAX_LENGTH

    return sum(len(ids) for ids in tokenizer(list(texts), max_length=MAX_LENGTH, truncation=True)["input_ids"])
