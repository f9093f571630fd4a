"""The ONNX Runtime and torch engines give the same embeddings, and what a submission
teaches the dataset cache never changes another submission's weights."""
import pytest

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.cleme.similarity_weights import dataset_similarity
from scoring.encoders import OnnxEncoder, TorchEncoder, engine_name, make_encoder
from scoring.metrics.cleme2 import Cleme2
from scoring.similarity import load_scorer

from .conftest import CLEME_DATA

OPTIONS = ScoringOptions(sim=True)


@pytest.fixture(scope="module")
def scorer():
    return load_scorer(OPTIONS.bertscore_model, OPTIONS.bertscore_layers)


def test_onnx_and_torch_embeddings_agree(scorer):
    ids = [scorer._tokenizer.encode(s) for s in ["He go to school yesterday .", "A much longer sentence , with commas , to pad the other one ."]]
    onnx = OnnxEncoder(scorer._model, scorer._tokenizer.pad_token_id)(ids)
    torch = TorchEncoder(scorer._model, scorer._tokenizer.pad_token_id)(ids)
    assert onnx.shape == torch.shape
    for row, sentence in enumerate(ids):  # padding rows are never read
        assert (onnx[row, :len(sentence)] - torch[row, :len(sentence)]).abs().max().item() < 1e-5


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
