"""Invariants of SOME and IMPARA that hold whatever the models (tiny random ones here):
the order systems are scored in, and the order of the lines, change no figure; IMPARA
is the quality or 0, in [0, 1], and an unchanged line is similar enough; SOME is its
weighted parts, and (gec-metrics' definition) is not clipped to [0, 1]."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import ScoringOptions
from scoring.metrics.impara import Impara
from scoring.metrics.some import Some
from tests.scoring.bert_lm_support import build_bert, build_models, dataset_of, hypothesis_of, write_vocabulary

WORDS = "the a cat dog sat on mat ran fast slowly he she they is are was were to school home quickly .".split()
CLOSE = 1e-6  # one line read in two different batches: float32 rounding
EXAMPLES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def configured(tmp_path_factory):
    models = build_models(tmp_path_factory.mktemp("lm-models"), [" ".join(WORDS)])
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {**models, "GEC_LM_DEVICE": "cpu", "GEC_LM_BATCH_SIZE": "4"}.items():
            patch.setenv(name, value)
        patch.delenv("GEC_LM_DTYPE", raising=False)
        yield models


sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)
corpora = st.lists(sentences, min_size=1, max_size=6)


@st.composite
def systems(draw) -> tuple[list[str], list[list[str]]]:
    """Sources and 2-3 systems: each line kept, cut short, or replaced by another sentence."""
    sources = draw(corpora)
    outputs = []
    for _ in range(draw(st.integers(2, 3))):
        edit = st.sampled_from(["keep", "cut", "other"])
        rows = []
        for line in sources:
            kind = draw(edit)
            rows.append(line if kind == "keep" else " ".join(line.split()[:-1]) if kind == "cut" else draw(sentences))
        outputs.append(rows)
    return sources, outputs


def statistics_in_order(metric_class, sources, outputs, order) -> dict[int, list]:
    """Every system's rows, scored in ``order`` by one metric against one dataset (so later
    systems reuse the pairs earlier ones had)."""
    metric, dataset = metric_class(ScoringOptions()), dataset_of(sources)
    return {k: metric.statistics(dataset, hypothesis_of(str(k), outputs[k]))["sentences"] for k in order}


def assert_rows_close(a: list[list[float]], b: list[list[float]]) -> None:
    assert len(a) == len(b)
    for row_a, row_b in zip(a, b):
        assert all(math.isclose(x, y, rel_tol=0, abs_tol=CLOSE) for x, y in zip(row_a, row_b))


@EXAMPLES
@given(case=systems(), data=st.data())
@pytest.mark.parametrize("metric_class", [Some, Impara])
def test_the_order_systems_are_scored_in_changes_nothing(configured, metric_class, case, data):
    sources, outputs = case
    order = data.draw(st.permutations(range(len(outputs))))
    forward = statistics_in_order(metric_class, sources, outputs, range(len(outputs)))
    permuted = statistics_in_order(metric_class, sources, outputs, order)
    for k in forward:
        assert_rows_close(forward[k], permuted[k])


@EXAMPLES
@given(case=systems(), data=st.data())
@pytest.mark.parametrize("metric_class", [Some, Impara])
def test_the_order_of_the_lines_changes_only_the_order_of_the_rows(configured, metric_class, case, data):
    sources, outputs = case
    order = data.draw(st.permutations(range(len(sources))))
    metric = metric_class(ScoringOptions())
    rows = metric.statistics(dataset_of(sources), hypothesis_of("s", outputs[0]))["sentences"]
    moved = metric.statistics(
        dataset_of([sources[i] for i in order]), hypothesis_of("s", [outputs[0][i] for i in order])
    )["sentences"]
    assert_rows_close([rows[i] for i in order], moved)
    assert metric.score({"sentences": moved})["score"] == pytest.approx(
        metric.score({"sentences": rows})["score"], abs=CLOSE
    )


@EXAMPLES
@given(case=systems())
def test_impara_is_the_quality_when_similar_enough_else_zero(configured, case):
    sources, outputs = case
    rows = Impara(ScoringOptions()).statistics(dataset_of(sources), hypothesis_of("s", outputs[0]))["sentences"]
    for (impara, quality, similarity), source, output in zip(rows, sources, outputs[0]):
        assert 0.0 <= impara <= 1.0 and 0.0 < quality < 1.0
        assert impara == (quality if similarity >= 0.9 else 0.0)
        if output == source:
            assert similarity == pytest.approx(1.0, abs=1e-5) and impara == quality


@EXAMPLES
@given(case=systems())
def test_some_is_its_weighted_parts_and_the_corpus_their_mean(configured, case):
    sources, outputs = case
    metric = Some(ScoringOptions())
    rows = metric.statistics(dataset_of(sources), hypothesis_of("s", outputs[0]))["sentences"]
    for some, g, f, m in rows:
        assert some == 0.43 * f + 0.55 * g + 0.02 * m
    scores = metric.score({"sentences": rows})
    assert scores["score"] == sum(r[0] for r in rows) / len(rows)
    assert scores["fluency"] == sum(r[2] for r in rows) / len(rows)
    only_grammar = Some(ScoringOptions(extra={"some_weights": (1, 0, 0)}))
    grammar = only_grammar.statistics(dataset_of(sources), hypothesis_of("s", outputs[0]))["sentences"]
    assert [r[0] for r in grammar] == pytest.approx([r[1] for r in rows], abs=CLOSE)


def test_some_is_not_clipped_to_the_unit_interval(configured, tmp_path, monkeypatch):
    """gec-metrics maps a prediction x to (x - 1) / 3 and clips nothing: regressors that
    predict past the 1-4 rating scale give figures past [0, 1], here as there."""
    vocabulary = write_vocabulary(tmp_path / "vocab.txt", [" ".join(WORDS)])
    high = [
        build_bert(tmp_path / name, vocabulary, seed, regressor=True, bias=7.0) for name, seed in (("g", 1), ("f", 2))
    ]
    monkeypatch.setenv("GEC_SOME_MODELS", ",".join(map(str, [*high, high[0]])))
    rows = Some(ScoringOptions()).statistics(dataset_of(["the cat sat ."]), hypothesis_of("s", ["the cat sat ."]))
    assert all(value > 1.5 for value in rows["sentences"][0])
