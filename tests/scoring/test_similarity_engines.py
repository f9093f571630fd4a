"""The ONNX Runtime and torch engines give the same embeddings, and what a submission
teaches the dataset cache never changes another submission's weights."""

import pytest

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.cleme.similarity_weights import dataset_similarity
from scoring.metrics.cleme2 import Cleme2
from scoring.similarity.bertscore import load_scorer
from scoring.similarity.encoders import OnnxEncoder, TorchEncoder, engine_name, make_encoder, onnx_graph
from tests.conftest import CLEME_DATA

OPTIONS = ScoringOptions(sim=True)


@pytest.fixture(scope="module")
def scorer():
    return load_scorer(OPTIONS.bertscore_model, OPTIONS.bertscore_layers)


def test_onnx_and_torch_embeddings_agree(scorer):
    ids = [
        scorer._tokenizer.encode(s)
        for s in ["He go to school yesterday .", "A much longer sentence , with commas , to pad the other one ."]
    ]
    pad = scorer._tokenizer.pad_token_id
    onnx = OnnxEncoder(onnx_graph(scorer._model, pad), pad)(ids)
    torch = TorchEncoder(scorer._model, pad)(ids)
    assert onnx.shape == torch.shape
    for row, sentence in enumerate(ids):  # padding rows are never read
        assert abs(onnx[row, : len(sentence)] - torch[row, : len(sentence)]).max() < 1e-5


def test_the_engine_is_a_setting(monkeypatch, scorer):
    monkeypatch.setenv("GEC_BERTSCORE_ENGINE", "torch")
    assert engine_name() == "torch"
    assert isinstance(make_encoder(scorer._model, 0), TorchEncoder)
    monkeypatch.setenv("GEC_BERTSCORE_ENGINE", "tensorrt")
    with pytest.raises(RuntimeError, match="choose one of onnx, torch"):
        engine_name()


def test_a_model_onnx_cannot_export_falls_back_to_torch(scorer):
    assert isinstance(make_encoder(object(), 0, "onnx"), TorchEncoder)


def sim_scores(metric, dataset, name):
    return metric.score(metric.statistics(dataset, read_hypothesis(dataset, CLEME_DATA / name, name)))["sim"]


def test_learned_x_prime_do_not_change_scores():
    dataset = Dataset.from_files(m2=CLEME_DATA / "demo.errant")
    metric = Cleme2(OPTIONS)
    metric.prepare(dataset)
    cache = dataset_similarity(dataset, OPTIONS.bertscore_model, OPTIONS.bertscore_layers)
    cache.forget()
    cold = sim_scores(metric, dataset, "demo-AMU.errant")
    assert cache.learned_count > 0
    assert sim_scores(metric, dataset, "demo-AMU.errant") == cold
    cache.forget()
    assert cache.learned_count == 0
    assert sim_scores(metric, dataset, "demo-AMU.errant") == cold


def test_a_worker_on_onnx_loads_neither_torch_nor_transformers():
    """Torch, transformers and the model cost a worker about 600 MB it never needs."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from scoring import ScoringOptions\n"
        "from scoring.similarity.bertscore import SentenceSimilarity\n"
        "o = ScoringOptions(sim=True)\n"
        "s = SentenceSimilarity(o.bertscore_model, o.bertscore_layers)\n"
        "assert s.backend.light\n"
        "assert 0.9 < s.f1([('He go to school .', 'He goes to school .')])[0] < 1\n"
        "print(sorted(m for m in ('torch', 'transformers', 'bert_score') if m in sys.modules))\n"
    )
    env = {**__import__("os").environ, "GEC_BERTSCORE_ENGINE": "onnx"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_without_a_tokenizer_spec_the_worker_loads_transformers(monkeypatch, scorer):
    from scoring.similarity import bertscore as similarity
    from scoring.similarity.export import ExportedModel, export_paths

    graph, _ = export_paths(OPTIONS.bertscore_model, OPTIONS.bertscore_layers)
    similarity.load_backend(OPTIONS.bertscore_model, OPTIONS.bertscore_layers, "onnx")  # exported by now
    monkeypatch.setattr(similarity, "exported", lambda model, layers: ExportedModel(graph, None))
    backend = similarity.load_backend.__wrapped__(OPTIONS.bertscore_model, OPTIONS.bertscore_layers, "onnx")
    assert not backend.light and isinstance(backend.encoder, OnnxEncoder)


def test_f1_equals_bert_scores_own(scorer):
    """SentenceSimilarity (own tokenizer, ONNX, numpy greedy matching) against BERTScorer.score."""
    from scoring.similarity.bertscore import SentenceSimilarity

    lines = (CLEME_DATA / "conll14.errant").read_text(encoding="utf-8").split("\n\n")[:80]
    sources = [block.split("\n")[0][2:] for block in lines if block.startswith("S ")]
    pairs = [(a, b) for a, b in zip(sources, sources[1:] + sources[:1])] + [
        (s, s.replace(" the ", " a ")) for s in sources
    ]
    mine = SentenceSimilarity(OPTIONS.bertscore_model, OPTIONS.bertscore_layers).f1(pairs)
    _, _, theirs = scorer.score([c for c, _ in pairs], [r for _, r in pairs])
    assert max(abs(a - b) for a, b in zip(mine, theirs.tolist())) < 1e-6


def test_greedy_matching_equals_bert_scores_own():
    import numpy as np
    import torch
    from bert_score.utils import greedy_cos_idf

    from scoring.similarity.bertscore import greedy_f1, padded_stats

    rng = np.random.default_rng(3)

    def stats(length):
        idf = np.ones(length, dtype=np.float32)
        idf[[0, -1]] = 0  # [CLS] and [SEP]
        return rng.standard_normal((length, 16), dtype=np.float32), idf

    refs, hyps = [stats(n) for n in (5, 9, 2, 7)], [stats(n) for n in (8, 3, 6, 2)]
    mine = greedy_f1(padded_stats(refs), padded_stats(hyps))
    as_torch = [torch.from_numpy(a.copy()) for a in (*padded_stats(refs), *padded_stats(hyps))]
    _, _, theirs = greedy_cos_idf(*as_torch)
    assert np.abs(mine - theirs.numpy()).max() < 1e-6
    assert mine[2] == theirs[2] == 0  # only [CLS] and [SEP]: undefined, 0 as in bert-score
