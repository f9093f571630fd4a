"""SOME and IMPARA equal gec-metrics 0.1.1's on the same model directories.

Both run on tiny BERT-shaped models with random weights (tests/scoring/bert_lm_support.py) over
CoNLL-2014 sentences with one annotator's corrections, the same sentences paired with
the next line's correction (similarities under IMPARA's threshold), an empty output,
and Czech and Ukrainian MultiGEC demo essays past the 128 tokens both truncate at. The
library pads each batch to its longest line where gec-metrics pads to 128, so figures
agree to float32 rounding, not bit for bit.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from scoring import ScoringOptions
from scoring.errant.edits import apply_edits
from scoring.metrics.impara import Impara
from scoring.metrics.some import Some
from scoring.readers import read_m2
from tests.scoring.bert_lm_support import build_models, dataset_of, gec_metrics_module, hypothesis_of

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "leaderboard" / "demo_data"
CONLL_LINES = 200
SHIFTED_LINES = 60
ESSAYS = 30
TOLERANCE = 1e-6  # two paddings of one sentence: measured 6e-8 (one float32 step), most figures bit for bit


def conll_pairs() -> tuple[list[str], list[str]]:
    corpus = read_m2((DEMO / "conll14" / "official-2014.combined.m2").read_bytes(), name="conll14")
    sources = corpus.sources[:CONLL_LINES]
    corrected = [apply_edits(s, block.get(0) or []) for s, block in zip(sources, corpus.annotations)]
    return [" ".join(t) for t in sources], [" ".join(t) for t in corrected]


def essays(name: str) -> tuple[list[str], list[str]]:
    folder = DEMO / "multigec" / name
    read = lambda path: path.read_text(encoding="utf-8").splitlines()[:ESSAYS]  # noqa: E731
    return read(folder / "source.txt"), read(folder / "systems" / "balanced.txt")


def cases() -> dict[str, tuple[list[str], list[str]]]:
    sources, corrected = conll_pairs()
    shifted = corrected[1 : SHIFTED_LINES + 1]
    shifted[3] = ""  # an empty output: the models read [CLS] [SEP]
    return {
        "conll14": (sources, corrected),
        "conll14-shifted": (sources[:SHIFTED_LINES], shifted),
        "cs-geccc": essays("cs-geccc"),
        "uk-ua-gec": essays("uk-ua-gec"),
    }


@pytest.fixture(scope="module")
def settings(tmp_path_factory) -> dict[str, str]:
    """The models, named in the settings for the whole module (GEC_LM_DEVICE=cpu)."""
    texts = [line for pair in cases().values() for side in pair for line in side]
    models = build_models(tmp_path_factory.mktemp("lm-models"), texts)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {**models, "GEC_LM_DEVICE": "cpu"}.items():
            patch.setenv(name, value)
        yield models


def cpu_cuda(patch: pytest.MonkeyPatch) -> None:
    """gec-metrics' SOME calls ``.cuda()`` on its models whatever ``no_cuda`` says; without
    a GPU that call leaves the model where it is, which is what ``no_cuda`` means."""
    import torch

    if not torch.cuda.is_available():
        patch.setattr(torch.nn.Module, "cuda", lambda self, device=None: self)


def ours(metric, sources: list[str], outputs: list[str]) -> tuple[list[list[float]], float]:
    statistics = metric.statistics(dataset_of(sources), hypothesis_of("system", outputs))
    return statistics["sentences"], metric.score(statistics)["score"]


@pytest.fixture(scope="module")
def some_results(settings) -> dict:
    """Per case: the library's rows and corpus figure, gec-metrics' sentence scores."""
    reference = gec_metrics_module("some")
    g, f, m = settings["GEC_SOME_MODELS"].split(",")
    with pytest.MonkeyPatch.context() as patch:
        cpu_cuda(patch)
        scorer = reference.SOME(reference.SOME.Config(model_g=g, model_f=f, model_m=m, no_cuda=True))
    metric = Some(ScoringOptions())
    return {case: (*ours(metric, *pair), scorer.score_sentence(*pair)) for case, pair in cases().items()}


@pytest.fixture(scope="module")
def impara_results(settings) -> dict:
    reference = gec_metrics_module("impara")
    quality, similarity = settings["GEC_IMPARA_MODELS"].split(",")
    scorer = reference.IMPARA(reference.IMPARA.Config(model_qe=quality, model_se=similarity, no_cuda=True))
    metric = Impara(ScoringOptions())
    return {case: (*ours(metric, *pair), scorer.score_sentence(*pair)) for case, pair in cases().items()}


def assert_close(name: str, got: list[float], expected: list[float]) -> None:
    assert len(got) == len(expected)
    worst = max((abs(a - b), i) for i, (a, b) in enumerate(zip(got, expected)))
    assert worst[0] <= TOLERANCE, f"{name}: line {worst[1] + 1} differs by {worst[0]:.3g}"


def corpus_figure(sentences: list[float]) -> float:
    """gec-metrics' ``score_corpus`` of a reference-free metric: ``sum(scores) / len(scores)``."""
    return sum(sentences) / len(sentences)


@pytest.mark.parametrize("case", list(cases()))
def test_some_equals_gec_metrics(case, some_results):
    rows, corpus, expected = some_results[case]
    assert_close(case, [row[0] for row in rows], expected)
    assert math.isclose(corpus, corpus_figure(expected), rel_tol=0, abs_tol=TOLERANCE)
    # each part is the normalised output of its own regressor, weighed as gec-metrics weighs it
    assert [round(0.43 * f + 0.55 * g + 0.02 * m, 12) for _, g, f, m in rows] == [round(r[0], 12) for r in rows]


@pytest.mark.parametrize("case", list(cases()))
def test_impara_equals_gec_metrics(case, impara_results):
    rows, corpus, expected = impara_results[case]
    assert_close(case, [row[0] for row in rows], expected)
    assert math.isclose(corpus, corpus_figure(expected), rel_tol=0, abs_tol=TOLERANCE)


def test_the_cases_reach_both_sides_of_the_threshold_and_the_truncation(settings, impara_results):
    """The parity above covers what could differ: pairs under and over the similarity
    threshold, and lines the 128-token cut shortens."""
    from scoring.lm import runtime

    similar = [row[2] >= 0.9 for row in impara_results["conll14-shifted"][0]]
    assert any(similar) and not all(similar)
    assert all(row[0] == 0.0 for row in impara_results["conll14-shifted"][0] if row[2] < 0.9)
    tokenizer = runtime.load_tokenizer(settings["GEC_SOME_MODELS"].split(",")[1], runtime.SOME_MODELS)
    assert any(len(tokenizer(line)["input_ids"]) > 128 for line in cases()["cs-geccc"][0])


def test_an_impara_threshold_option_matches_gec_metrics(settings):
    sources, outputs = cases()["conll14-shifted"]
    reference = gec_metrics_module("impara")
    quality, similarity = settings["GEC_IMPARA_MODELS"].split(",")
    config = reference.IMPARA.Config(model_qe=quality, model_se=similarity, no_cuda=True, threshold=0.95)
    expected = reference.IMPARA(config).score_sentence(sources, outputs)
    metric = Impara(ScoringOptions(extra={"impara_threshold": 0.95}))
    rows = metric.statistics(dataset_of(sources), hypothesis_of("system", outputs))["sentences"]
    assert_close("threshold 0.95", [row[0] for row in rows], expected)
    assert "threshold:0.95" in metric.signature()
