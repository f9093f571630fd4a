"""Every supported language (the 12 of MultiGEC-2025, Chinese, French) scores end to end
through the library with each pipeline it has: ERRANT, GLEU in both variants, the chunk
metrics; a perfect system scores 1; the prepared dataset keeps its language."""

import pytest

from scoring import (
    Dataset,
    ScoringOptions,
    available_pipelines,
    default_pipeline,
    hypothesis_from_lines,
    languages,
    score_systems,
)
from tests.scoring.language_fixtures import SENTENCES, TOKENIZE

CASES = [(lang, pipeline) for lang in sorted(SENTENCES) for pipeline in available_pipelines(lang)]
METRICS = ["errant", "gleu", "cleme", "cleme2", "gotoscorer", "m2"]


def test_every_language_has_a_fixture():
    assert sorted(SENTENCES) == languages()
    assert {"cs", "en", "et", "de", "el", "is", "it", "lv", "ru", "sl", "sv", "uk", "zh"} <= set(languages())


@pytest.mark.parametrize(("lang", "pipeline"), CASES)
def test_scores_end_to_end(lang, pipeline):
    sources, reference, system = SENTENCES[lang]
    dataset = Dataset.from_text(sources, [reference], lang=lang, pipeline=pipeline, tokenize_input=lang in TOKENIZE)
    hypotheses = [hypothesis_from_lines(dataset, system, "sys"), hypothesis_from_lines(dataset, reference, "perfect")]
    for variant in ("official", "multigec"):
        result = score_systems(dataset, hypotheses, METRICS, ScoringOptions(gleu_variant=variant))
        assert f"|lang:{lang}|pipeline:{pipeline}|" in result.signature and f"|variant:{variant}" in result.signature
        ours, perfect = result.systems["sys"], result.systems["perfect"]
        assert 0 < ours["errant"]["cs"]["tp"] and 0.0 < ours["errant"]["cs"]["f"] <= 1.0
        assert perfect["errant"]["cs"]["f"] == 1.0 and perfect["errant"]["cs"]["fp"] == 0
        assert 0.0 < ours["gleu"]["score"] <= perfect["gleu"]["score"]
        assert all(t[0] in "MRU" for t in ours["errant"]["per_type"]["3"])


@pytest.mark.parametrize("lang", ["uk", "fr", "zh"])
def test_a_saved_dataset_keeps_its_language_and_pipeline(lang):
    sources, reference, system = SENTENCES[lang]
    pipeline = default_pipeline(lang)
    dataset = Dataset.from_text(sources, [reference], lang=lang, pipeline=pipeline, tokenize_input=lang in TOKENIZE)
    restored = Dataset.from_bytes(dataset.to_bytes())
    assert (restored.lang, restored.pipeline, restored.signature()) == (lang, pipeline, dataset.signature())
    first = score_systems(dataset, [hypothesis_from_lines(dataset, system, "sys")], ["errant"])
    again = score_systems(restored, [hypothesis_from_lines(restored, system, "sys")], ["errant"])
    assert first.systems == again.systems and first.signature == again.signature
