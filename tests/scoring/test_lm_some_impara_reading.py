"""What IMPARA's models read: an output equal to its source never reaches the similarity
encoder (its vector is the source's), each source is encoded once per dataset and model
(kept in the dataset's tables for every further system), and the figures are those of the
reading before, which sent every output and its source through both models batch by
batch: the quality and IMPARA bit for bit (the metric's reading compared with that reading
of the distinct pairs it reads), the similarity to float32 rounding (tiny models,
tests/scoring/bert_lm_support.py)."""

from __future__ import annotations

import json
import math

import pytest

from scoring import ScoringOptions
from scoring.lm import impara, runtime
from scoring.lm.encoders import encode, length_batches
from scoring.metrics.impara import SOURCE_VECTORS, Impara
from tests.scoring.bert_lm_support import build_models, dataset_of, hypothesis_of

SOURCES = [
    "This are a sentence .",
    "He go to school yesterday .",
    "Nothing to fix here .",
    "A b c .",
    "She have two cat and one dog which is very small .",
    "They was happy .",
    "Nothing to fix here .",
    "It rain .",
]
FIRST = [
    "This is a sentence .",
    "He went to school yesterday .",
    "Nothing to fix here .",
    "A b c d .",
    "She has two cats and one dog which is very small .",
    "They was happy .",
    "Nothing to fix here .",
    "A b c .",
]
SECOND = [*SOURCES[:4], "She have two cats .", "They were happy .", "It rains .", "It rain ."]
CLOSE = 1e-6  # one line read in two different batches: float32 rounding


@pytest.fixture(scope="module")
def configured(tmp_path_factory):
    models = build_models(tmp_path_factory.mktemp("lm-models"), SOURCES + FIRST + SECOND)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {**models, "GEC_LM_DEVICE": "cpu", "GEC_LM_BATCH_SIZE": "3"}.items():
            patch.setenv(name, value)
        patch.delenv("GEC_LM_DTYPE", raising=False)
        yield impara.load(runtime.model_directories(runtime.IMPARA_MODELS, 2), "cpu", "float32")


def reading_before(models, sources: list[str], outputs: list[str], batch_size: int) -> list[tuple]:
    """The rows as this library computed them before: per length batch of the outputs, the
    quality of the outputs and the cosine of the mean-pooled sources and outputs."""
    import torch

    def pooled(texts: list[str]):
        inputs = encode(models.similarity.tokenizer, texts, None, "cpu")
        mask = inputs["attention_mask"]
        states = models.similarity.model(inputs["input_ids"], mask).last_hidden_state
        return states.masked_fill(mask.unsqueeze(-1) == 0, 0).sum(dim=1) / mask.sum(dim=-1, keepdim=True)

    rows: list[tuple] = [()] * len(outputs)
    for indices in length_batches(outputs, batch_size):
        batch = [outputs[i] for i in indices]
        inputs = encode(models.quality.tokenizer, batch, None, "cpu")
        with torch.inference_mode():
            logits = models.quality.model(inputs["input_ids"], inputs["attention_mask"]).logits
            similarity = torch.nn.functional.cosine_similarity(pooled([sources[i] for i in indices]), pooled(batch))
        quality = torch.sigmoid(logits.view(-1))
        score = torch.where(similarity.view(-1) < impara.THRESHOLD, torch.zeros_like(quality), quality)
        for i, row in zip(indices, zip(score.tolist(), quality.tolist(), similarity.view(-1).tolist())):
            rows[i] = row
    return rows


def assert_as_before(rows, before) -> None:
    assert [row[:2] for row in rows] == [row[:2] for row in before]  # IMPARA and quality: bit for bit
    assert all(math.isclose(row[2], old[2], rel_tol=0, abs_tol=CLOSE) for row, old in zip(rows, before, strict=True))


def reading_before_of_distinct_pairs(models, sources: list[str], outputs: list[str], batch_size: int) -> list[tuple]:
    """The reading before, run as the metric runs it: on each distinct (source, output) pair
    once, in first-seen order (the same quality batches), each line then given its pair's row.
    Other batches would pad a line to another length, and on CPUs whose kernels follow the
    shape (AVX-512) its figures would come out a few ulps apart."""
    pairs = list(dict.fromkeys(zip(sources, outputs)))
    rows = reading_before(models, [s for s, _ in pairs], [o for _, o in pairs], batch_size)
    by_pair = dict(zip(pairs, rows))
    return [by_pair[pair] for pair in zip(sources, outputs)]


@pytest.mark.parametrize("outputs", [FIRST, SECOND, SOURCES])
def test_the_figures_are_those_of_the_reading_before(configured, outputs):
    before = reading_before(configured, SOURCES, outputs, 3)
    assert_as_before(impara.sentences(configured, SOURCES, outputs, 3), before)
    statistics = Impara(ScoringOptions()).statistics(dataset_of(SOURCES), hypothesis_of("s", outputs))
    metric_before = reading_before_of_distinct_pairs(configured, SOURCES, outputs, 3)
    assert_as_before([tuple(row) for row in statistics["sentences"]], metric_before)


def test_unchanged_outputs_and_known_sources_never_reach_the_similarity_encoder(configured, monkeypatch):
    read: list[list[str]] = []
    original = impara.forward
    vocabulary = {v: k for k, v in configured.similarity.tokenizer.get_vocab().items()}

    def counting(model, inputs):
        """Record the lines the similarity encoder reads (each word is one piece here)."""
        if model is configured.similarity.model:
            lengths = inputs["attention_mask"].sum(dim=-1).tolist()
            ids = inputs["input_ids"].tolist()
            read.append([" ".join(vocabulary[t] for t in row[1 : n - 1]) for row, n in zip(ids, lengths)])
        return original(model, inputs)

    monkeypatch.setattr(impara, "forward", counting)
    dataset, metric = dataset_of(SOURCES), Impara(ScoringOptions())
    first = metric.statistics(dataset, hypothesis_of("first", FIRST))
    changed = [out for src, out in zip(SOURCES, FIRST) if src != out]
    assert sorted(text for batch in read for text in batch) == sorted([*set(SOURCES), *changed])
    read.clear()
    metric.statistics(dataset, hypothesis_of("second", SECOND))
    new_pairs = {(s, o) for s, o in zip(SOURCES, SECOND)} - set(zip(SOURCES, FIRST))
    assert sorted(text for batch in read for text in batch) == sorted({o for s, o in new_pairs if s != o})
    # the sources' vectors travel with the dataset's tables: a stored dataset reads no source again
    stored = json.loads(json.dumps(dataset.tables))
    assert [key.split("|")[0] for key in stored] == [SOURCE_VECTORS]
    assert len(next(iter(stored.values()))) == len(set(SOURCES))
    read.clear()
    restored = dataset_of(SOURCES)
    restored.tables = stored
    again = Impara(ScoringOptions()).statistics(restored, hypothesis_of("first", FIRST))
    assert sorted(text for batch in read for text in batch) == sorted(changed)
    assert again == first
